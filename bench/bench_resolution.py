"""How reading holds up as a board gets fewer pixels: the truth photos read whole and shrunk.

A dispute photo is often not the camera's own: a chat app's copy, a screenshot, a thumbnail.
Every truth photo is read as ``tileref eval`` reads it (leave-one-source-out models, corners
found, the dispute settings) at ``SCALES`` of its size, and the readings are grouped by the
photo's median cell side in pixels (:func:`vision.board.rectify.photo_cell_px`, truth corners). The
figures are against the corrected truth (``lab/data/truth_errata.csv``). They are what
``ReadConfig.small_cell_px`` (the "board small in the photo" warning) was chosen on. On a fresh
machine the first run trains the leave-one-source-out models (minutes; cached, as for
``tileref eval``).

``python -m bench resolution``
"""

from __future__ import annotations

from lab.eval_reading import ReadingRow, evaluate_reading
from lab.truth import DEV_PHOTOS
from vision import DEFAULT_CONFIG

SCALES = (1.0, 0.5, 0.35, 0.25)
"""Shares of each photo's size it is read at (the truth photos' cells measure 24-121 px)."""
BINS = (0.0, 12.0, 16.0, 20.0, 24.0, float("inf"))
"""Edges of the cell-size groups, photo pixels."""


def _line(label: str, rows: list[ReadingRow]) -> str:
    found = [row for row in rows if row.found]
    scored = sum(row.corrected_letters_scored for row in found)
    wrong = sum(row.corrected_letter_errors for row in found)
    cells = sum(row.corrected_false_tiles + row.corrected_missed_tiles for row in found)
    share = f"{100 * wrong / scored:.1f} %" if scored else "-"
    return (f"{label:>13} {len(rows):6d} {len(found):6d} {f'{wrong}/{scored}':>10} {share:>7} "
            f"{cells:9d}")


def main() -> int:
    rows: list[tuple[float, ReadingRow]] = []
    for scale in SCALES:
        print(f"reading the truth photos at {scale:g} of their size ...", flush=True)
        rows += [(scale, row) for row in evaluate_reading(DEV_PHOTOS, scale=scale)]
    print("\nleave-one-source-out, found corners, corrected truth; occupancy = cells wrong")
    print(f"{'cell px':>13} {'photos':>6} {'found':>6} {'letters':>10} {'wrong':>7} "
          f"{'occupancy':>9}")
    sized = [(row, row.cell_px) for _, row in rows if row.cell_px is not None]
    for low, high in zip(BINS, BINS[1:], strict=False):
        label = f"{low:.0f}+" if high == float("inf") else f"{low:.0f}-{high:.0f}"
        print(_line(label, [row for row, px in sized if low <= px < high]))
    limit = DEFAULT_CONFIG.small_cell_px
    print(_line(f"under {limit:.0f}", [row for row, px in sized if px < limit]))
    print(_line(f"{limit:.0f} and up", [row for row, px in sized if px >= limit]))
    print(f"\nby scale (of {len(rows) // len(SCALES)} photos):")
    for scale in SCALES:
        print(_line(f"{scale:g}", [row for s, row in rows if s == scale]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
