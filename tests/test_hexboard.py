"""The hexhex board of islands: cell names, neighbours, board text (FORMATS.md "islands")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.hexboard import (
    MAX_SIZE,
    MIN_SIZE,
    HexBoard,
    HexBoardTextError,
    HexCell,
    HexGrid,
    hex_grid,
)
from tests.support.hexboard import drawn_neighbours

SIZES = range(MIN_SIZE, MAX_SIZE + 1)


def test_cell_names_round_trip_and_repr_pastes_back():
    cell = HexCell.parse("d4")
    assert cell == HexCell(3, 3) and cell.name == "d4" and str(cell) == "d4"
    assert eval(repr(cell)) == cell  # noqa: S307 - a repr made to be pasted into a test
    assert HexCell.parse(" G13 ") == HexCell(6, 12)


@pytest.mark.parametrize("name", ["", "d", "4d", "d0", "d04", "dd4", "d-1", "é4", "d٤", "d4x"])
def test_bad_cell_names_are_refused(name):
    with pytest.raises(ValueError):
        HexCell.parse(name)


@pytest.mark.parametrize("size", SIZES)
def test_every_size_has_its_lines_cells_and_the_drawn_neighbours(size):
    grid = hex_grid(size)
    assert grid.lines == 2 * size - 1
    assert [grid.line_length(line) for line in range(grid.lines)] == \
        [*range(size, 2 * size), *range(2 * size - 2, size - 1, -1)]
    assert len(grid) == 3 * size * (size - 1) + 1
    drawn = drawn_neighbours(size)
    assert {cell.name for cell in grid} == set(drawn)
    for cell in grid:
        assert {n.name for n in grid.neighbours(cell)} == drawn[cell.name]
    corners = [cell for cell in grid if len(grid.neighbours(cell)) == 3]
    assert len(corners) == 6


def test_formats_md_names_on_a_side_7_board():
    grid = hex_grid(7)
    assert HexCell.parse("a7") in grid and HexCell.parse("a8") not in grid
    assert HexCell.parse("g13") in grid and HexCell.parse("m7") in grid
    assert HexCell.parse("n1") not in grid
    # The top line is shorter than the next, which lies half a cell further left: a1 touches
    # b1 and b2; below the middle line it is the other way round.
    assert [n.name for n in grid.neighbours(HexCell.parse("a1"))] == ["a2", "b1", "b2"]
    assert [n.name for n in grid.neighbours(HexCell.parse("h1"))] == ["g1", "g2", "h2", "i1"]


def test_sizes_outside_3_to_10_are_refused():
    for size in (2, 11, True, "7"):
        with pytest.raises(ValueError):
            HexGrid(size)


def test_grid_json_gives_each_cell_a_centre_and_its_neighbours():
    data = hex_grid(3).to_json()
    assert data["size"] == 3 and data["lines"] == 5 and len(data["cells"]) == 19
    first = data["cells"][0]
    assert first["cell"] == "a1" and first["neighbours"] == ["a2", "b1", "b2"]
    middle = next(cell for cell in data["cells"] if cell["cell"] == "c3")
    assert middle["x"] == 2.5 and len(middle["neighbours"]) == 6


SIDE_3 = """
  # a comment, then the hexagon as drawn
    R . B
   . R . .
  . . G . .
   . . . .
    . . Y
"""


def test_board_text_reads_with_indents_comments_and_either_spelling():
    board = HexBoard.parse(SIDE_3)
    assert board.size == 3 and len(board) == 5
    assert board[HexCell.parse("a1")] == "R" and board[HexCell.parse("e3")] == "Y"
    compact = "R.B\n.R..\n..G..\n....\n..Y\n"
    assert HexBoard.parse(compact) == board
    assert HexBoard.parse(board.text()) == board
    assert board.text() == "  R . B\n . R . .\n. . G . .\n . . . .\n  . . Y\n"
    assert HexBoard.parse(board.text().lower()) == board


@pytest.mark.parametrize("text, fragment", [
    ("R . B\n. R . .\n", "odd number"),
    (". . .\n. . . .\n. . . . .\n. . . .\n", "odd number"),
    (". . .\n. . . .\n. . . . . .\n. . . .\n. . .\n", "line c has 6 cells, expected 5"),
    (". . .\n. . . .\n. . 3 . .\n. . . .\n. . .\n", "'3' is neither"),
    (". . .\n. . . .\n. . RR . .\n. . . .\n. . .\n", "'RR' is neither"),
])
def test_bad_board_text_says_which_line(text, fragment):
    with pytest.raises(HexBoardTextError) as error:
        HexBoard.parse(text)
    assert fragment in str(error.value) and "\n" not in str(error.value)


def test_board_text_of_another_size_is_refused_when_the_size_is_known():
    with pytest.raises(HexBoardTextError, match="this board's side is 4"):
        HexBoard.parse(SIDE_3, size=4)


boards = st.integers(MIN_SIZE, 6).flatmap(lambda size: st.lists(
    st.sampled_from([None, "R", "B", "G", "Y", "W", "K", "O", "P"]),
    min_size=len(hex_grid(size)), max_size=len(hex_grid(size))).map(
    lambda colours, size=size: HexBoard(hex_grid(size), tuple(colours))))


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(board=boards)
def test_board_text_round_trips(board):
    text = board.text()
    assert HexBoard.parse(text) == board
    assert HexBoard.parse(text).text() == text
    compact = "\n".join(line.replace(" ", "") for line in text.splitlines())
    assert HexBoard.parse(compact) == board
    assert board.stones == {cell: board[cell] for cell in board.grid if board[cell]}
    assert HexBoard.from_stones(board.stones, board.size) == board


@pytest.mark.parametrize("size", [3, 4, 7])
def test_a_board_turned_by_sixths_keeps_its_neighbours_and_six_sixths_is_no_turn(size):
    grid = hex_grid(size)
    assert [grid.turned(HexCell.parse("a1"), k).name for k in range(6)] == [
        "a1", f"a{size}", f"{'abcdefghijklmnopqrs'[size - 1]}{2 * size - 1}",
        f"{'abcdefghijklmnopqrs'[2 * size - 2]}{size}", f"{'abcdefghijklmnopqrs'[2 * size - 2]}1",
        f"{'abcdefghijklmnopqrs'[size - 1]}1"]                     # the corners, clockwise
    for cell in grid:
        assert grid.turned(cell, 6) == cell == grid.turned(grid.turned(cell, 2), 4)
        assert {grid.turned(n, 1) for n in grid.neighbours(cell)} == \
            set(grid.neighbours(grid.turned(cell, 1)))
