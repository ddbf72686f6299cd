"""`python -m bench occupancy` scores each photo in its own view against the corrected truth,
and names the wrong cells in the truth grid as `tileref eval` does."""

from __future__ import annotations

import numpy as np
import pytest

from bench.bench_occupancy import UNSCORED, expected_tiles, wrong_cells
from lab.truth import DEV_PHOTOS, corrected_grid, load_errata, read_truth
from referee.cells import Cell

TURNED = DEV_PHOTOS / "jheidel__scrabble-opencv__IMG_20151016_170737.jpg"
"""Its truth grid is the photo turned a quarter clockwise; the errata add blanks at O10 and O15."""
STICKY = DEV_PHOTOS / ("ssetser1__ScrabbleDetectorProject__TestTest_jpg.rf."
                       "7f8659c721716645f9afd5725f733868.jpg")


def _expected(photo):
    if not photo.with_name(photo.name + ".txt").exists():
        pytest.fail(f"{photo.name} and its truth are missing from {DEV_PHOTOS}")
    truth = read_truth(photo)
    turns = truth.orientation // 90 % 4
    return expected_tiles(corrected_grid(truth, load_errata().get(photo.name, {})), turns), turns


def test_a_blank_from_the_errata_is_expected_where_the_photo_shows_it() -> None:
    expected, turns = _expected(TURNED)
    assert turns == 1
    for name in ("O10", "O15", "H10"):  # two blanks of the errata, a T of the truth file
        seen = Cell.parse(name).turned(-turns)
        assert expected[seen.row, seen.col] == 1, name
    # O10 unturned is another square of the photo: F15 of the truth, empty.
    assert expected[Cell.parse("O10").row, Cell.parse("O10").col] == 0


def test_a_cell_the_photo_does_not_show_is_not_scored() -> None:
    expected, _ = _expected(STICKY)
    assert (expected == UNSCORED).any()
    assert set(np.unique(expected)) <= {UNSCORED, 0, 1}


def test_wrong_cells_are_named_in_the_truth_grid() -> None:
    expected, turns = _expected(TURNED)
    tiles = expected == 1
    blank = Cell.parse("O10").turned(-turns)
    empty = Cell.parse("A1").turned(-turns)
    assert expected[empty.row, empty.col] == 0
    tiles[blank.row, blank.col] = False
    tiles[empty.row, empty.col] = True
    assert wrong_cells(expected, tiles, turns) == (["A1"], ["O10"])
    assert wrong_cells(expected, expected == 1, turns) == ([], [])
