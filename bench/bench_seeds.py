"""How much the held-out reading figures owe to one training seed.

The leave-one-source-out models of ``tileref eval`` learn letters from rendered tiles as well as
real ones, and which tiles are rendered follows a seed (:class:`lab.train.TrainingSettings`;
the committed models use 1). A figure near a goal is only met if it holds for other seeds too,
so every truth photo is read as ``tileref eval`` reads it (corners found, corrected truth for
occupancy) with models trained on tiles rendered from each of ``SEEDS``. On a fresh machine each
seed trains its models first (minutes each; cached, as for ``tileref eval --training-seed N``).

``python -m bench seeds``
"""

from __future__ import annotations

from statistics import median

from lab.eval_reading import ReadingRow, evaluate_reading
from lab.truth import DEV_PHOTOS

SEEDS = (1, 2, 3, 4, 5)
"""Training seeds read with: the committed models' own, then four others."""


def _figures(rows: list[ReadingRow]) -> dict[str, tuple[int, int]]:
    """(right, scored) of each figure, as ``tileref eval`` totals them."""
    found = [row for row in rows if row.found]
    english = [row for row in found if row.tile_set == "english"]
    cells = 225 * len(found)
    occupancy = sum(row.corrected_false_tiles + row.corrected_missed_tiles for row in found)
    return {
        "occupancy": (cells - occupancy, cells),
        "letters": (sum(row.corrected_letters_scored - row.corrected_letter_errors
                        for row in found), sum(row.corrected_letters_scored for row in found)),
        "English": (sum(row.letters_scored - row.letter_errors for row in english),
                    sum(row.letters_scored for row in english)),
        "rotations": (sum(row.rotations_scored - row.rotation_errors for row in found),
                      sum(row.rotations_scored for row in found)),
    }


def main() -> int:
    figures = {}
    for seed in SEEDS:
        print(f"reading the truth photos with models trained from seed {seed} ...", flush=True)
        figures[seed] = _figures(evaluate_reading(DEV_PHOTOS, training_seed=seed))
    names = list(figures[SEEDS[0]])
    print("\nleave-one-source-out, found corners; wrong of scored (occupancy and letters "
          "against the corrected truth, English letters as tileref eval prints them)")
    print(f"{'seed':>6} " + " ".join(f"{name:>14}" for name in names))
    for seed, figure in figures.items():
        print(f"{seed:>6} " + " ".join(f"{f'{scored - right}/{scored}':>14}"
                                       for right, scored in figure.values()))
    print(f"{'median':>6} " + " ".join(
        f"{100 * median(figures[seed][name][0] / figures[seed][name][1] for seed in SEEDS):13.2f}%"
        for name in names) + "  right")
    print(f"{'worst':>6} " + " ".join(
        f"{100 * min(figures[seed][name][0] / figures[seed][name][1] for seed in SEEDS):13.2f}%"
        for name in names) + "  right")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
