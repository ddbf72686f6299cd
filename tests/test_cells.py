"""Cells and seats (RULES.md §0): names, and one transform per seat that all rules rely on."""

from __future__ import annotations

import pytest

from referee.cells import CENTRE, SIZE, Cell, Direction, Seat, all_cells, cell_name, parse_cell


def test_names_round_trip_for_every_cell():
    for cell in all_cells():
        assert Cell.parse(cell.name) == cell == parse_cell(cell_name(cell))
        assert eval(repr(cell)) == cell  # noqa: S307 - the repr is meant to be pasted
    assert Cell.parse(" h8 ") == CENTRE and CENTRE.name == "H8"
    assert len(list(all_cells())) == SIZE * SIZE


@pytest.mark.parametrize("text", ["", "H", "P1", "H0", "H16", "8H", "HH", "H-1"])
def test_bad_cell_names(text):
    with pytest.raises(ValueError):
        Cell.parse(text)


def test_off_board_cells_have_no_name_but_a_readable_repr():
    assert repr(Cell(-1, 0)) == "Cell(-1, 0)" and str(Cell(15, 3)) == "Cell(15, 3)"
    with pytest.raises(ValueError):
        _ = Cell(-1, 0).name


def test_neighbours_stay_on_the_board():
    assert sorted(c.name for c in Cell.parse("A1").neighbours()) == ["A2", "B1"]
    assert len(list(CENTRE.neighbours())) == 4


@pytest.mark.parametrize("seat", list(Seat))
def test_frames_are_inverse_and_cover_the_board(seat):
    seen = set()
    for cell in all_cells():
        x, y = seat.to_frame(cell)
        assert 0 <= x < SIZE and 0 <= y < SIZE
        assert seat.to_absolute(x, y) == cell
        seen.add((x, y))
    assert len(seen) == SIZE * SIZE


# The table in RULES.md §0, row by row.
@pytest.mark.parametrize("seat, home, across, down, rotation, arrow", [
    (Seat.S, "H15", ["A8", "B8", "C8"], ["H1", "H2", "H3"], 0, "^"),
    (Seat.W, "A8", ["H1", "H2", "H3"], ["O8", "N8", "M8"], 90, ">"),
    (Seat.N, "H1", ["O8", "N8", "M8"], ["H15", "H14", "H13"], 180, "v"),
    (Seat.E, "O8", ["H15", "H14", "H13"], ["A8", "B8", "C8"], 270, "<"),
])
def test_the_seat_table(seat, home, across, down, rotation, arrow):
    assert seat.home_centre.name == home
    assert seat.is_home_row(Cell.parse(home))
    assert [c.name for c in seat.line(Cell.parse(across[0]), Direction.ACROSS, 3)] == across
    assert [c.name for c in seat.line(Cell.parse(down[0]), Direction.DOWN, 3)] == down
    assert (seat.rotation, seat.arrow) == (rotation, arrow)
    assert Seat.from_rotation(rotation) is seat and Seat.from_rotation(rotation + 360) is seat


def test_home_rows():
    assert all(Seat.S.is_home_row(Cell(col, 14)) for col in range(SIZE))
    assert all(Seat.W.is_home_row(Cell(0, row)) for row in range(SIZE))
    assert not Seat.N.is_home_row(Cell.parse("H2"))
    assert Seat.E.is_home_row(Cell.parse("O1"))


def test_step_and_line_can_leave_the_board():
    assert not Seat.S.step(Cell.parse("H15"), Direction.DOWN).on_board()
    assert Seat.N.step(Cell.parse("H15"), Direction.DOWN).name == "H14"
    assert Seat.W.step(Cell.parse("H8"), Direction.ACROSS, -2).name == "H6"


def test_parse_helpers():
    assert Direction.parse(" Down ") is Direction.DOWN and Direction.ACROSS.other is Direction.DOWN
    assert Seat.parse("n") is Seat.N
    for bad, parse in (("up", Direction.parse), ("X", Seat.parse)):
        with pytest.raises(ValueError):
            parse(bad)
