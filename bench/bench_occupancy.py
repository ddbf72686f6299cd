"""Occupancy alone, leave-one-source-out, for several seeds of its perceptrons.

``tileref eval`` reads everything and, once a change to the occupancy code has invalidated its
cached models, trains letters as well as occupancy for every source (minutes). A change to what
occupancy looks at -- a feature, a rule beside the model -- wants a figure in about a minute, and
one that says whether it holds for other training seeds, since the last few wrong cells of the
truth photos are where a retrained model wavers. So here each truth photo is found and rectified
as ``tileref read`` finds it, and each source's photos are judged by occupancy models trained
without that source's photos (:func:`lab.train.train_occupancy`, its perceptrons drawn from
each of ``SEED_OFFSETS``), with the rules beside the model and the grid's five looks
(``DISPUTE_CONFIG``), against the corrected truth.

Letters are not read, so the tiles the reader finds off their squares afterwards are not found
here: a count may differ from ``tileref eval``'s by a cell or two (6 wrong cells here, 5 there,
with the committed code). Compare runs of this benchmark with each other, and confirm a change
with ``tileref eval``.

``python -m bench occupancy``
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from statistics import median

import numpy as np

from lab.train import RealBoard, load_real_boards, photo_source, train_occupancy
from lab.truth import (
    DEV_PHOTOS,
    TruthCell,
    corrected_grid,
    load_errata,
    photos_with_truth,
    read_truth,
)
from referee.cells import Cell
from vision import DISPUTE_CONFIG, RectifiedBoard, VisionError, find_board, load_image, rectify
from vision.board.rectify import SIZE
from vision.cells.occupancy import OccupancyModel
from vision.read import tile_probability

SEED_OFFSETS = (0, 10, 20)
"""First seeds of each model's perceptrons: 0 is the committed model's."""

UNSCORED = -1
"""A cell of :func:`expected_tiles` the photo does not show (a sticky note, errata)."""


@dataclass
class FoundPhoto:
    """A truth photo as ``tileref read`` sees it: its board found and rectified, South at the
    photo's bottom, and what each cell should hold in that view."""

    name: str
    source: str
    board: RectifiedBoard
    expected: np.ndarray
    """(15, 15) [row, col] of the photo's view: 1 a tile, 0 empty, :data:`UNSCORED`."""
    turns: int
    """Quarter turns clockwise from the photo's view to the truth grid's."""


def expected_tiles(grid: list[list[TruthCell | None]], turns: int) -> np.ndarray:
    """(15, 15) [row, col] in the photo's view of a truth ``grid`` that is that view turned
    ``turns`` quarter turns clockwise: 1 where it holds a tile, 0 empty, :data:`UNSCORED`."""
    expected = np.full((SIZE, SIZE), UNSCORED)
    for row in range(SIZE):
        for col in range(SIZE):
            there = Cell(col, row).turned(turns)
            cell = grid[there.row][there.col]
            if cell is not None:
                expected[row, col] = int(cell.letter is not None)
    return expected


def wrong_cells(expected: np.ndarray, tiles: np.ndarray, turns: int) -> tuple[list[str], list[str]]:
    """The squares taken for tiles and the tiles missed, named in the truth grid (as ``tileref
    eval`` names them), of ``tiles`` (15, 15) bool read in the photo's view."""
    def names(where: np.ndarray) -> list[str]:
        cells = [Cell(int(col), int(row)).turned(turns) for row, col in np.argwhere(where)]
        return [cell.name for cell in sorted(cells, key=lambda cell: (cell.row, cell.col))]

    return names((expected == 0) & tiles), names((expected == 1) & ~tiles)


def found_photos(folder: Path = DEV_PHOTOS) -> list[FoundPhoto]:
    """Every truth photo of ``folder`` whose board is found, as :class:`FoundPhoto`."""
    errata = load_errata()
    config = DISPUTE_CONFIG
    found = []
    photos = photos_with_truth(folder)
    for number, photo in enumerate(photos, 1):
        print(f"\rfinding boards {number}/{len(photos)}", end="", file=sys.stderr, flush=True)
        truth = read_truth(photo)
        image = load_image(photo)
        try:
            corners = find_board(image).corners
        except VisionError:
            continue  # tileref eval counts it as not found; there is no occupancy to score
        board = rectify(image, corners, cell_px=config.cell_px,
                        margin_cells=config.margin_cells, tile_lift=config.tile_lift)
        turns = (truth.orientation // 90) % 4
        grid = corrected_grid(truth, errata.get(photo.name, {}))
        found.append(FoundPhoto(photo.name, photo_source(photo), board,
                                expected_tiles(grid, turns), turns))
    print(file=sys.stderr)
    return found


def judge(photos: list[FoundPhoto], boards: list[RealBoard], seed_offset: int
          ) -> dict[str, tuple[list[str], list[str]]]:
    """Each photo's squares taken and tiles missed (:func:`wrong_cells`), read by occupancy
    models whose perceptrons start at ``seed_offset``, each trained on the truth ``boards`` of
    every source but the photo's."""
    config = DISPUTE_CONFIG
    wrong = {}
    sources = sorted({photo.source for photo in photos})
    for number, source in enumerate(sources, 1):
        print(f"\rseed offset {seed_offset}: source {number}/{len(sources)}", end="",
              file=sys.stderr, flush=True)
        model = OccupancyModel(train_occupancy([board for board in boards
                                                if board.source != source], seed=seed_offset))
        for photo in photos:
            if photo.source == source:
                tiles = tile_probability(photo.board, model, config.occupancy_shift,
                                         config.occupancy_shift_sure) >= config.occupancy_threshold
                wrong[photo.name] = wrong_cells(photo.expected, tiles, photo.turns)
    print(file=sys.stderr)
    return wrong


def main() -> int:
    photos = found_photos()
    boards = load_real_boards(DEV_PHOTOS)
    cells = SIZE * SIZE * len(photos)
    print(f"occupancy alone, leave-one-source-out, found corners, {len(photos)} photos "
          f"({cells} cells), against the corrected truth")
    totals = []
    rows = []
    for offset in SEED_OFFSETS:
        wrong = judge(photos, boards, offset)
        false = sum(len(taken) for taken, _ in wrong.values())
        missed = sum(len(lost) for _, lost in wrong.values())
        totals.append(false + missed)
        named = "; ".join(
            f"{name.rsplit('.', 1)[0][-15:]} " + " ".join([f"+{c}" for c in taken]
                                                        + [f"-{c}" for c in lost])
            for name, (taken, lost) in wrong.items() if taken or lost)
        rows.append((offset, false + missed, false, missed, named))
    print(f"{'seeds from':>10} {'wrong':>6} {'false':>6} {'missed':>6}  cells (+ taken, - missed)")
    for offset, total, false, missed, named in rows:
        print(f"{offset:>10} {total:>6} {false:>6} {missed:>6}  {named}")
    print(f"{'median':>10} {median(totals):>6}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
