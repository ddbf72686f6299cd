"""`make bench` scores real photos against the same corrected truth as `tileref eval`."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.bench_reading import truth_cells
from lab.truth import DEV_PHOTOS, load_errata, read_truth
from referee.cells import Cell
from vision.letters.classify import BLANK
from vision.reading import CellReading
from vision.warning import ReadingWarning, unsure_of_letter

JHEIDEL = DEV_PHOTOS / "jheidel__scrabble-opencv__IMG_20151016_170803.jpg"
STICKY = DEV_PHOTOS / ("ssetser1__ScrabbleDetectorProject__TestTest_jpg.rf."
                       "7f8659c721716645f9afd5725f733868.jpg")
UNKNOWN = DEV_PHOTOS / "jheidel__scrabble-opencv__IMG_20141025_164039.jpg"


def _needs(photo: Path) -> None:
    if not photo.with_name(photo.name + ".txt").exists():
        pytest.fail(f"{photo.name} and its truth are missing from {DEV_PHOTOS}")


def test_blanks_the_truth_left_out_are_tiles_to_the_bench() -> None:
    _needs(JHEIDEL)
    truth = read_truth(JHEIDEL)
    plain, _ = truth_cells(truth, {})
    corrected, unscored = truth_cells(truth, load_errata())
    for name in ("O10", "O15"):
        cell = Cell.parse(name)
        assert cell not in plain
        assert corrected[cell][0] == BLANK
    assert not unscored
    # Everything else is the truth file's own.
    assert {cell: want for cell, want in corrected.items() if cell not in plain} == {
        Cell.parse("O10"): corrected[Cell.parse("O10")],
        Cell.parse("O15"): corrected[Cell.parse("O15")]}


def test_covered_cells_are_not_scored() -> None:
    _needs(STICKY)
    cells, unscored = truth_cells(read_truth(STICKY), load_errata())
    covered = {Cell.parse("L1"), Cell.parse("M1")}
    assert covered <= unscored
    assert not covered & set(cells)


def test_a_tile_whose_letter_is_unknown_counts_for_occupancy_only() -> None:
    # A '?' the errata leave alone is a tile whose letter is not scored (None), as in tileref eval.
    _needs(UNKNOWN)
    truth = read_truth(UNKNOWN)
    cells, unscored = truth_cells(truth, load_errata())
    question_marks = {Cell(col, row) for row, wants in enumerate(truth.grid)
                      for col, want in enumerate(wants) if want.letter == "?" and not want.blank}
    assert len(question_marks) == 2
    assert {cell for cell, (letter, _) in cells.items() if letter is None} == question_marks
    assert not unscored


def test_the_blanks_bench_counts_a_blank_under_a_hand_as_neither_found_nor_missed() -> None:
    from bench.bench_blanks import Found
    from referee.boardtext import Tile

    blank, lettered, hidden = Cell.parse("H8"), Cell.parse("I8"), Cell.parse("J8")
    square, hidden_square = Cell.parse("H9"), Cell.parse("J9")
    tiles = {blank: Tile("A", True, 0), lettered: Tile("T", False, 0), hidden: Tile("E", True, 0)}

    def read(cell: Cell, warnings: tuple[ReadingWarning, ...] = ()) -> CellReading:
        return CellReading(cell.name, "?", 0, blank=True, warning_details=warnings)

    found = Found()
    # Read: the lettered tile and an empty square; not the blank, nor what lies under the hand.
    found.add("classic", tiles, [read(lettered), read(square), read(hidden_square)],
              frozenset({hidden, hidden_square}))
    assert found.boards["classic"] == 1
    assert (found.blanks["classic"], found.blanks_missed["classic"]) == (1, 1)
    assert (found.squares_taken["classic"], found.squares_flagged["classic"]) == (1, 0)
    # The empty square read again, flagged this time; the blank found.
    flagged = read(square, (unsure_of_letter(square, "?", "E"),))
    found.add("classic", tiles, [read(blank), read(lettered), flagged], frozenset())
    assert (found.blanks["classic"], found.blanks_missed["classic"]) == (3, 2)
    assert (found.squares_taken["classic"], found.squares_flagged["classic"]) == (2, 1)


def test_the_blanks_bench_counts_a_missed_blank_no_warning_names_as_unwarned() -> None:
    from bench.bench_blanks import Found
    from referee.boardtext import Tile

    named, silent, lettered = Cell.parse("H8"), Cell.parse("I8"), Cell.parse("J8")
    tiles = {named: Tile("A", True, 0), silent: Tile("N", True, 0),
             lettered: Tile("T", False, 0)}
    found = Found()
    # Both blanks read as empty squares; a warning says H8 may hold a tile, nothing names I8.
    found.add("classic", tiles, [CellReading(lettered.name, "T", 0)], frozenset(),
              frozenset({named}))
    assert found.blanks_missed["classic"] == 2
    assert found.blanks_silent["classic"] == 1
