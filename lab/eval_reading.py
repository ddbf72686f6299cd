"""Score ``read_board`` against the truth sidecars: one row per photo, totals, confusions.

The reading is made exactly as ``tileref read`` makes it (South = image bottom), then turned into
the truth's orientation before comparing, so the harness measures the product, not a special
path. Truth ``?`` cells count as tiles for occupancy but are not scored for letters; a lowercase
truth letter (a blank played as that letter) is right when we read a blank. Rotation truth is
the ``.rot.txt`` sidecar where there is one; elsewhere the truth grid's letters are upright.

Honest by default: the committed models were trained on these very photos, so scoring them here
would be in-sample and optimistic. Each photo is instead read by models trained without its
repository's photos (leave-one-source-out, trained once and cached, see
:func:`lab.train.loso_models`). ``in_sample=True`` scores the committed models, and says so.

Truth files can be wrong, and ``../shared`` is read-only: cells checked by eye and found wrong
are listed with the reason in ``lab/data/truth_errata.csv`` (:data:`lab.truth.ERRATA`). Every
photo is scored twice, against its truth file as it is (the plain figures, comparable with
earlier baselines) and with those cells corrected, so a truth error neither hides a reading error
nor is silently dropped.
"""

from __future__ import annotations

import csv
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

from lab.eval_corners import corner_errors_cells
from lab.truth import (
    ERRATA,
    SIZE,
    Errata,
    TruthCell,
    corrected_grid,
    load_errata,
    photo_corners,
    photos_with_truth,
    read_truth,
    tile_set_for,
)
from referee.boardtext import Tile
from referee.cells import Cell
from vision import (
    DISPUTE_CONFIG,
    CellReading,
    Doubts,
    ReadConfig,
    VisionError,
    load_image,
    photo_cell_px,
    read_board,
    settle,
)


@dataclass
class ReadingRow:
    photo: str
    source: str
    found: bool
    corner_error_cells: float | None
    tiles: int
    tile_set: str = "english"
    occupancy_false_tiles: int = 0
    occupancy_missed_tiles: int = 0
    letters_scored: int = 0
    letter_errors: int = 0
    rotations_scored: int = 0
    rotation_errors: int = 0
    ms: float = 0.0
    error: str = ""
    errata: int = 0
    corrected_false_tiles: int = 0
    corrected_missed_tiles: int = 0
    corrected_letters_scored: int = 0
    corrected_letter_errors: int = 0
    missed_named: int = 0
    """Tiles of the corrected truth read as empty that a warning names (a square to look at
    again: "unsure whether O10 holds a tile", glare that may hide one)."""
    empty_named: int = 0
    """Empty squares of the corrected truth that a warning names so: the warnings' noise."""
    false_named: int = 0
    """Empty squares of the corrected truth read as tiles that carry a warning of their own
    (an unsure letter, one of too many blanks, glare): a false tile the players are told to
    check."""
    wrong_named: int = 0
    """Letters read wrong (corrected truth) whose cell carries a warning..."""
    right_named: int = 0
    """...and letters read right whose cell does: how far a warning-free letter can be trusted."""
    follows: str = ""
    """The photo just before this one of the same game (its corrected board lies within this
    one's), whose board a game in progress would know; empty for a photo that starts a game."""
    game_false_tiles: int = 0
    game_missed_tiles: int = 0
    game_letter_errors: int = 0
    """Against the corrected truth, the reading settled with the board of ``follows`` known
    (:func:`vision.known.settle`, as the live referee settles each frame with the game's board);
    the same as ``corrected_*`` for a photo that follows none."""
    kept: str = ""
    """The cells where that known board overruled the reading, truth orientation."""
    mistakes: str = ""
    """The wrong cells against the corrected truth, in the truth's orientation: ``C6 Q>R`` (a
    letter), ``H8 +tile`` (a false tile), ``O15 -tile`` (a missed one), ``D4 Q 0>90`` (a
    rotation, degrees), separated by ``; ``."""
    cell_px: float | None = None
    """The median cell's side in the photo as read (pixels; truth corners, else the corners
    found): how big a tile the reader was given (``ReadConfig.small_cell_px``)."""
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter, repr=False)


def _corner_error(found: np.ndarray, expected: np.ndarray | None) -> float | None:
    if expected is None:
        return None
    return float(corner_errors_cells(np.asarray(found, dtype=np.float64), expected).max())


@dataclass
class _Score:
    false_tiles: int = 0
    false_named: int = 0  # of those, read with a warning on the cell
    wrong_named: int = 0  # letters read wrong with a warning on the cell
    right_named: int = 0  # letters read right with one
    missed_tiles: int = 0
    letters_scored: int = 0
    letter_errors: int = 0
    rotations_scored: int = 0
    rotation_errors: int = 0
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    mistakes: list[str] = field(default_factory=list)


def _score(grid: list[list[TruthCell | None]], read_cells: dict[Cell, CellReading]) -> _Score:
    """Occupancy, letters and rotations of a reading against a truth grid (None: not scored)."""
    score = _Score()
    for r in range(SIZE):
        for c in range(SIZE):
            want = grid[r][c]
            if want is None:
                continue
            cell = Cell(c, r)
            got = read_cells.get(cell)
            if want.letter is None:
                if got is not None:
                    score.false_tiles += 1
                    score.false_named += bool(got.warnings)
                    score.mistakes.append(f"{cell.name} +tile")
                continue
            if got is None:
                score.missed_tiles += 1
                score.mistakes.append(f"{cell.name} -tile")
                continue
            if want.letter == "?" and not want.blank:
                continue
            score.letters_scored += 1
            expected_letter = "?" if want.blank else want.letter
            if got.letter != expected_letter:
                score.letter_errors += 1
                score.wrong_named += bool(got.warnings)
                score.confusions[(expected_letter, got.letter)] += 1
                score.mistakes.append(f"{cell.name} {expected_letter}>{got.letter}")
            else:
                score.right_named += bool(got.warnings)
            if not want.blank:
                score.rotations_scored += 1
                if got.rotation != (want.rotation or 0):
                    score.rotation_errors += 1
                    score.mistakes.append(
                        f"{cell.name} {want.letter} {want.rotation or 0}>{got.rotation}")
    return score


def evaluate_photo(photo: Path, *, given_corners: bool = False, models=None,
                   errata: Errata | None = None,
                   before: tuple[str, dict[Cell, Tile]] | None = None,
                   scale: float = 1.0, config: ReadConfig = DISPUTE_CONFIG) -> ReadingRow:
    """Read one truth photo and score it; ``models`` is (occupancy, classifier) or None;
    ``errata`` the truth corrections (:func:`load_errata` if None); ``before`` the name and
    board of the photo of the same game just before (:func:`game_predecessors`), to score the
    reading settled with that board known as well. ``scale`` shrinks the photo first (area
    averaging, as a phone's or a chat app's smaller copy is made): how reading holds up as the
    tiles get fewer pixels. ``config`` is how it is read: as ``tileref read`` reads a photo
    unless a benchmark weighs another setting."""
    truth = read_truth(photo)
    occupancy, classifier = models or (None, None)
    expected = photo_corners(truth)
    if expected is not None:
        expected = expected * scale
    row = ReadingRow(photo.name, truth.source, False, None, len(truth.occupied()),
                     tile_set_for(truth))
    row.cell_px = None if expected is None else photo_cell_px(expected)
    started = time.perf_counter()
    try:
        image = load_image(photo)
        if scale != 1:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        corners = expected if given_corners and expected is not None else None
        reading = read_board(image, corners=corners, tiles=row.tile_set, config=config,
                             occupancy=occupancy, classifier=classifier)
    except VisionError as error:
        row.ms = (time.perf_counter() - started) * 1000
        row.error = f"{type(error).__name__}: {error}"
        return row
    row.ms = (time.perf_counter() - started) * 1000
    row.found = True
    row.corner_error_cells = _corner_error(np.array(reading.corners), expected)
    if row.cell_px is None:
        row.cell_px = photo_cell_px(np.array(reading.corners))
    turned = reading.turned(truth.orientation // 90)
    read_cells = {Cell.parse(r.cell): r for r in turned.cells}
    plain = _score([list(cells) for cells in truth.grid], read_cells)
    row.occupancy_false_tiles, row.occupancy_missed_tiles = plain.false_tiles, plain.missed_tiles
    row.letters_scored, row.letter_errors = plain.letters_scored, plain.letter_errors
    row.rotations_scored, row.rotation_errors = plain.rotations_scored, plain.rotation_errors
    row.confusions = plain.confusions
    corrections = (load_errata() if errata is None else errata).get(photo.name, {})
    grid = corrected_grid(truth, corrections)
    corrected = _score(grid, read_cells)
    row.errata = len(corrections)
    row.corrected_false_tiles = corrected.false_tiles
    row.false_named = corrected.false_named
    row.wrong_named, row.right_named = corrected.wrong_named, corrected.right_named
    row.corrected_missed_tiles = corrected.missed_tiles
    row.corrected_letters_scored = corrected.letters_scored
    row.corrected_letter_errors = corrected.letter_errors
    row.mistakes = "; ".join(corrected.mistakes)
    in_game = corrected
    if before is not None:
        row.follows, known = before
        settled, kept = settle(turned.tiles(), known, Doubts.of_reading(turned))
        game_cells = dict(read_cells)
        for cell in kept:
            tile = settled[cell]
            game_cells[cell] = CellReading(cell.name, "?" if tile.blank else tile.letter,
                                           tile.rotation or 0, blank=tile.blank)
        in_game = _score(grid, game_cells)
        row.kept = " ".join(cell.name for cell in kept)
    row.game_false_tiles, row.game_missed_tiles = in_game.false_tiles, in_game.missed_tiles
    row.game_letter_errors = in_game.letter_errors
    for name in turned.warned_empty_cells():
        cell = Cell.parse(name)
        want = grid[cell.row][cell.col]
        if want is not None and want.letter is not None:
            row.missed_named += 1
        elif want is not None:
            row.empty_named += 1
    return row


def known_board(grid: list[list[TruthCell | None]], rotations: bool = False
                ) -> dict[Cell, Tile]:
    """The tiles of a (corrected) truth grid as a game would know them: a truth ``?`` is taken
    for a blank. With ``rotations`` (a truth that has a rotation sidecar: an archipelago board)
    each tile faces its way, a letter without one upright in the truth's view; without, the
    photos are of scrabble games, whose tiles the referee knows without a rotation, as the live
    table's scrabble game does (:func:`vision.known.settle` then compares letters alone)."""
    return {Cell(col, row): Tile(cell.letter, cell.blank or cell.letter == "?",
                                 (cell.rotation or 0) if rotations else None)
            for row, cells in enumerate(grid) for col, cell in enumerate(cells)
            if cell is not None and cell.letter is not None}


def game_predecessors(photos: list[Path], errata: Errata
                      ) -> dict[str, tuple[str, dict[Cell, Tile]]]:
    """For each photo that continues a game, the photo just before it and that one's board.

    Photos of one repository are taken in name order (the jheidel photos are named by the time
    they were taken); a photo continues the one before when that one has tiles and every one of
    them lies, with the same letter, on this photo's (corrected) board: nothing left the board
    in between, as in a scrabble game. That test reads this photo's truth, which is fair: it
    only says which photos are one game, as the people at the table would know; the reading
    itself never sees it.
    """
    boards: dict[str, dict[Cell, Tile]] = {}
    by_source: dict[str, list[Path]] = {}
    for photo in photos:
        truth = read_truth(photo)
        boards[photo.name] = known_board(corrected_grid(truth, errata.get(photo.name, {})),
                                         rotations=truth.has_rotations)
        by_source.setdefault(truth.source, []).append(photo)
    before: dict[str, tuple[str, dict[Cell, Tile]]] = {}
    for group in by_source.values():
        group.sort(key=lambda photo: photo.name)
        for earlier, later in zip(group, group[1:], strict=False):
            old, new = boards[earlier.name], boards[later.name]
            if old and all(cell in new and new[cell].letter == tile.letter
                           for cell, tile in old.items()):
                before[later.name] = (earlier.name, old)
    return before


def evaluate_reading(folder: Path | str, *, given_corners: bool = False, in_sample: bool = False,
                     progress: bool = True, scale: float = 1.0,
                     training_seed: int | None = None,
                     config: ReadConfig = DISPUTE_CONFIG) -> list[ReadingRow]:
    """Read every truth photo of ``folder`` as ``tileref read`` does, one row each.

    ``training_seed`` renders the leave-one-source-out models' training tiles from another
    seed than the committed models' (:class:`lab.train.TrainingSettings`): a held-out
    figure moves with it, and ``python -m bench seeds`` shows by how much.
    """
    photos = photos_with_truth(Path(folder))
    errata = load_errata()
    before = game_predecessors(photos, errata)
    models: dict = {}
    if not in_sample and photos:
        from lab.train import TrainingSettings, loso_models

        settings = (TrainingSettings() if training_seed is None
                    else TrainingSettings(seed=training_seed))
        models = loso_models({read_truth(photo).source for photo in photos}, settings=settings,
                             progress=progress)
    rows = []
    for number, photo in enumerate(photos, 1):
        if progress:
            print(f"\r[{number}/{len(photos)}] {photo.name[:60]:60}", end="", file=sys.stderr,
                  flush=True)
        rows.append(evaluate_photo(photo, given_corners=given_corners,
                                   models=models.get(read_truth(photo).source),
                                   errata=errata, before=before.get(photo.name),
                                   scale=scale, config=config))
    if progress and photos:
        print(file=sys.stderr)
    return rows


def _pct(part: int, whole: int) -> str:
    """A share as a percentage with two decimals: 1451 of 1459 is 99.45 %, which one decimal
    would have rounded up to a goal of 99.5 % it does not meet."""
    return f"{100 * part / whole:.2f}%" if whole else "-"


IN_SAMPLE_NOTE = ("models: COMMITTED, trained on these very photos: in-sample figures, "
                  "optimistic (drop --in-sample for honest ones)")
LOSO_NOTE = ("models: leave-one-source-out (each photo read by models trained without its "
             "repository's photos)")


def print_table(rows: list[ReadingRow], out=None, *, in_sample: bool = False,
                scale: float = 1.0, training_seed: int | None = None) -> None:
    out = out or sys.stdout
    print(IN_SAMPLE_NOTE if in_sample else LOSO_NOTE, file=out)
    if training_seed is not None:
        print(f"training tiles rendered from seed {training_seed} (--training-seed)", file=out)
    if scale != 1:
        print(f"every photo shrunk to {scale:g} of its size before reading (--scale)", file=out)
    print(f"{'photo':58} {'found':>5} {'corner':>6} {'tiles':>5} {'+occ':>4} {'-occ':>4} "
          f"{'letters':>11} {'rot err':>7} {'ms':>6}", file=out)
    for row in rows:
        corner = "" if row.corner_error_cells is None else f"{row.corner_error_cells:.2f}"
        letters = f"{row.letters_scored - row.letter_errors}/{row.letters_scored}"
        print(f"{row.photo[:58]:58} {int(row.found):5d} {corner:>6} {row.tiles:5d} "
              f"{row.occupancy_false_tiles:4d} {row.occupancy_missed_tiles:4d} {letters:>11} "
              f"{row.rotation_errors:7d} {row.ms:6.0f}  {row.error}", file=out)
    found = [row for row in rows if row.found]
    cells = 225 * len(found)
    occ_errors = sum(r.occupancy_false_tiles + r.occupancy_missed_tiles for r in found)
    scored = sum(r.letters_scored for r in found)
    letter_errors = sum(r.letter_errors for r in found)
    rot_scored = sum(r.rotations_scored for r in found)
    rot_errors = sum(r.rotation_errors for r in found)
    print(f"\nboards found: {len(found)}/{len(rows)}", file=out)
    print(f"occupancy: {occ_errors} wrong of {cells} cells ({_pct(cells - occ_errors, cells)} "
          f"right; {sum(r.occupancy_false_tiles for r in found)} false tiles, "
          f"{sum(r.occupancy_missed_tiles for r in found)} missed)", file=out)
    print(f"letters: {scored - letter_errors}/{scored} right "
          f"({_pct(scored - letter_errors, scored)})", file=out)
    fixed = [r for r in found if r.errata]
    # The same readings against the truth with the cells of lab/data/truth_errata.csv corrected.
    c_false = sum(r.corrected_false_tiles for r in found)
    c_missed = sum(r.corrected_missed_tiles for r in found)
    c_scored = sum(r.corrected_letters_scored for r in found)
    c_wrong = sum(r.corrected_letter_errors for r in found)
    c_right = c_scored - c_wrong
    if fixed:
        print(f"with {sum(r.errata for r in fixed)} truth cells of {len(fixed)} photos corrected "
              f"({ERRATA.name}, each checked by eye): occupancy {c_false + c_missed} wrong "
              f"({c_false} false tiles, {c_missed} missed), letters {c_right}/{c_scored} right",
              file=out)
    # Where a tile was read as empty, did a warning send the players to look? And how often
    # does one send them to an empty square? Where an empty square was read as a tile, was it
    # flagged?
    noisy = [r for r in found if r.empty_named]
    print(f"warnings name {sum(r.missed_named for r in found)} of the {c_missed} tiles read as "
          f"empty (corrected truth), and {sum(r.empty_named for r in noisy)} empty squares on "
          f"{len(noisy)} of {len(found)} photos; "
          f"{sum(r.false_named for r in found)} of the {c_false} squares read as tiles carry one",
          file=out)
    print(f"warnings flag {sum(r.wrong_named for r in found)} of the {c_wrong} letters read wrong "
          f"and {sum(r.right_named for r in found)} of the {c_right} read right (corrected truth)",
          file=out)
    in_game = [r for r in found if r.follows]
    if in_game:
        # The live referee settles each frame with the game's board (vision.known): how much of
        # what a single photo gets wrong does that mend?
        alone = sum(r.corrected_false_tiles + r.corrected_missed_tiles for r in in_game)
        settled = sum(r.game_false_tiles + r.game_missed_tiles for r in in_game)
        print(f"in a game ({len(in_game)} photos that follow one of the same game, its board "
              f"known): occupancy {settled} wrong (alone {alone}), letters "
              f"{sum(r.game_letter_errors for r in in_game)} wrong (alone "
              f"{sum(r.corrected_letter_errors for r in in_game)}); "
              f"{sum(len(r.kept.split()) for r in in_game)} known tiles kept", file=out)
    english = [r for r in found if r.tile_set == "english"]
    en_scored = sum(r.letters_scored for r in english)
    en_right = en_scored - sum(r.letter_errors for r in english)
    print(f"English letters: {en_right}/{en_scored} right ({_pct(en_right, en_scored)})",
          file=out)
    print(f"rotations: {rot_scored - rot_errors}/{rot_scored} right "
          f"({_pct(rot_scored - rot_errors, rot_scored)})", file=out)
    times = sorted(r.ms for r in found)
    if times:
        print(f"median ms per photo: {times[len(times) // 2]:.0f}", file=out)
    confusions: Counter[tuple[str, str]] = Counter()
    for row in rows:
        confusions.update(row.confusions)
    if confusions:
        common = ", ".join(f"{want}->{got} x{n}" for (want, got), n in confusions.most_common(15))
        print(f"most common confusions (truth->read): {common}", file=out)
    wrong = [row for row in found if row.mistakes]
    if wrong:
        # Where to look: the cells themselves, so a figure can be checked against the photo.
        print("wrong cells (against the corrected truth; A1 = the truth grid's top left):",
              file=out)
        for row in wrong:
            print(f"  {row.photo[:58]:58} {row.mistakes}", file=out)


def write_csv(rows: list[ReadingRow], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        names = [name for name in asdict(rows[0]) if name != "confusions"] if rows else []
        writer.writerow(names)
        for row in rows:
            data = asdict(row)
            writer.writerow([
                f"{data[name]:.3f}" if isinstance(data[name], float) else
                ("" if data[name] is None else data[name]) for name in names
            ])


MIN_SCALE = 0.05
"""The smallest ``--scale``: a 2000 px photo becomes 100 px, far past where boards are found."""


def run_reading_eval(folder: Path, csv_path: Path | None = None, *,
                     given_corners: bool = False, in_sample: bool = False,
                     scale: float = 1.0, training_seed: int | None = None) -> int:
    folder = Path(folder)
    if not folder.is_dir():
        print(f"tileref eval: not a folder: {folder}", file=sys.stderr)
        return 2
    if not MIN_SCALE <= scale <= 1:
        print(f"tileref eval: --scale must be from {MIN_SCALE} to 1, not {scale}",
              file=sys.stderr)
        return 2
    if in_sample and training_seed is not None:
        print("tileref eval: --training-seed trains leave-one-source-out models; the committed "
              "models (--in-sample) have one seed", file=sys.stderr)
        return 2
    rows = evaluate_reading(folder, given_corners=given_corners, in_sample=in_sample,
                            scale=scale, training_seed=training_seed)
    if not rows:
        print(f"tileref eval: no photos with truth files in {folder}", file=sys.stderr)
        return 2
    print_table(rows, in_sample=in_sample, scale=scale, training_seed=training_seed)
    if csv_path is not None:
        write_csv(rows, Path(csv_path))
    return 0


__all__ = ["ReadingRow", "evaluate_photo", "evaluate_reading", "game_predecessors", "known_board",
           "print_table", "run_reading_eval", "write_csv"]
