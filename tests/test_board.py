"""Board: the grid, the one run-walking primitive, and status() listing every problem at once."""

from __future__ import annotations

import pytest

from referee import Board, Cell, Direction, Seat, Tile, load_tile_set, run_through


def tiles(spec: str) -> dict[Cell, Tile]:
    return {Cell.parse(item.split(":")[0]): Tile.parse(item.split(":")[1])
            for item in spec.split()}


def test_place_get_remove_copy_and_text_round_trip():
    board = Board(tiles("H8:A^ I8:Tv"))
    copy = board.copy()
    board.place(Cell.parse("J8"), Tile("S"))
    assert board.get(Cell.parse("J8")) == Tile("S") and Cell.parse("J8") not in copy
    assert board.remove(Cell.parse("H8")) == Tile("A", rotation=0)
    with pytest.raises(ValueError):
        board.remove(Cell.parse("H8"))
    with pytest.raises(ValueError):
        board.place(Cell(15, 0), Tile("A"))
    assert Board.from_text(board.text()) == board
    assert board.owner(Cell.parse("I8")) is Seat.N and board.owner(Cell.parse("J8")) is None
    with pytest.raises(TypeError):
        board.tiles[Cell.parse("A1")] = Tile("A")  # read-only view


@pytest.mark.parametrize("seat, direction, expected", [
    (Seat.S, Direction.ACROSS, ["F8", "G8", "H8"]),
    (Seat.N, Direction.ACROSS, ["H8", "G8", "F8"]),
    (Seat.S, Direction.DOWN, ["H7", "H8"]),
    (Seat.N, Direction.DOWN, ["H8", "H7"]),
    (Seat.W, Direction.ACROSS, ["H7", "H8"]),
    (Seat.W, Direction.DOWN, ["H8", "G8", "F8"]),
    (Seat.E, Direction.ACROSS, ["H8", "H7"]),
    (Seat.E, Direction.DOWN, ["F8", "G8", "H8"]),
])
def test_run_through_reads_in_the_seats_frame(seat, direction, expected):
    occupied = set(tiles("F8:A G8:B H8:C H7:D"))
    run = run_through(occupied.__contains__, Cell.parse("H8"), direction, seat)
    assert [cell.name for cell in run] == expected


def test_run_through_counts_the_asked_cell_and_stops_at_the_edge():
    occupied = set(tiles("A1:A B1:B"))
    run = run_through(occupied.__contains__, Cell.parse("C1"), Direction.ACROSS)
    assert [cell.name for cell in run] == ["A1", "B1", "C1"]
    assert run_through(occupied.__contains__, Cell.parse("O15"), Direction.DOWN) == [
        Cell.parse("O15")]


def codes(problems) -> dict[str, list[str]]:
    return {p.code: [c.name for c in p.cells] for p in problems}


def test_status_of_a_good_board_is_empty():
    assert Board().status(load_tile_set()) == []
    assert Board(tiles("H8:C I8:A J8:T")).status(load_tile_set()) == []


def test_status_lists_every_problem_at_once():
    board = Board(tiles("A1:Z B1:Z C1:Z D5:? E5:? F5:? G7:Q<"))
    found = codes(board.status(load_tile_set(), seats=[Seat.S, Seat.N]))
    assert found["centre-empty"] == ["H8"]
    assert set(found["not-connected"])  # several groups, none on the centre
    assert found["too-many-letter"] == ["A1", "B1", "C1"]  # one Z in the English set
    assert found["too-many-blanks"] == ["D5", "E5", "F5"]
    assert found["blank-undesignated"] == ["D5", "E5", "F5"]
    assert "A1" in found["no-rotation"]
    assert found["unseated-rotation"] == ["G7"]
    for problem in board.status(load_tile_set(), seats=[Seat.S, Seat.N]):
        assert problem.message and "\n" not in problem.message
        assert problem.to_json()["code"] == problem.code


def test_status_not_connected_names_the_stray_tiles_only():
    board = Board(tiles("H8:C I8:A J8:T A1:Q"))
    assert codes(board.status()) == {"not-connected": ["A1"]}
    assert board.status(centred=False) == []


def test_status_counts_against_the_tile_set_language():
    german = load_tile_set("german")
    board = Board(tiles("H8:Ä I8:Ä"))  # one Ä in the German set
    assert "too-many-letter" in codes(board.status(german))
    assert "unknown-letter" in codes(board.status(load_tile_set("english")))
