"""Moves: FORMATS.md shapes round-trip, malformed input is a bad-move with one line."""

from __future__ import annotations

import pytest

from referee import Cell, Direction, Exchange, IllegalPlayError, Pass, Play, Snapshot, Tile
from referee.moves import move_from_json


@pytest.mark.parametrize("data", [
    {"player": "S", "word": "TO", "at": "H7", "dir": "down"},
    {"player": "N", "word": "qUIz", "at": "A1", "dir": "across"},
    {"player": "N", "pass": True},
    {"player": "S", "exchange": 3},
])
def test_json_round_trip(data):
    assert move_from_json(data).to_json() == data


def test_play_fields_and_blanks():
    move = move_from_json({"player": "S", "word": "qUIz", "at": "a1", "dir": "Across"})
    assert move == Play("S", "qUIz", Cell.parse("A1"), Direction.ACROSS)
    assert [(t.letter, t.blank, t.rotation) for t in move.tiles(90)] == [
        ("Q", True, 90), ("U", False, 90), ("I", False, 90), ("Z", True, 90)]


def test_snapshot_round_trip_and_equality():
    text = "\n".join(["." * 15] * 7 + ["....... Dv" .replace(" ", "") + "." * 7] + ["." * 15] * 7)
    move = move_from_json({"player": "N", "board": text})
    assert isinstance(move, Snapshot)
    assert move.tiles == {Cell.parse("H8"): Tile("D", rotation=180)}
    again = move_from_json(move.to_json())
    assert again == move and hash(again) == hash(move)


@pytest.mark.parametrize("data, fragment", [
    ("S TO H7", "JSON object"),
    ({"word": "TO", "at": "H7", "dir": "down"}, "player"),
    ({"player": "S"}, "exactly one"),
    ({"player": "S", "pass": True, "exchange": 2}, "exactly one"),
    ({"player": "S", "pass": "yes"}, "true"),
    ({"player": "S", "exchange": 0}, "1 to 7"),
    ({"player": "S", "exchange": 8}, "1 to 7"),
    ({"player": "S", "exchange": True}, "1 to 7"),
    ({"player": "S", "word": "T0", "at": "H7", "dir": "down"}, "letters only"),
    ({"player": "S", "word": "", "at": "H7", "dir": "down"}, "needs a word"),
    ({"player": "S", "word": "TO", "at": "P7", "dir": "down"}, "not a cell"),
    ({"player": "S", "word": "TO", "at": "H16", "dir": "down"}, "rows run"),
    ({"player": "S", "word": "TO", "at": "H7"}, "'dir'"),
    ({"player": "S", "word": "TO", "at": "H7", "dir": "up"}, "across"),
    ({"player": "S", "board": "...."}, "cannot be read"),
])
def test_malformed_moves_are_bad_moves(data, fragment):
    with pytest.raises(IllegalPlayError) as caught:
        move_from_json(data)
    assert caught.value.reason == "bad-move"
    assert fragment in caught.value.message and "\n" not in caught.value.message


def test_notation_round_trip():
    across = Play.from_notation("S", "8H CAT")
    down = Play.from_notation("S", "H8 CAT")
    assert (across.at, across.direction) == (Cell.parse("H8"), Direction.ACROSS)
    assert (down.at, down.direction) == (Cell.parse("H8"), Direction.DOWN)
    assert Play.from_notation("S", "12B doG").notation() == "12B doG"
    assert Play.from_notation("S", "O15 AX").notation() == "O15 AX"
    with pytest.raises(IllegalPlayError):
        Play.from_notation("S", "Z9 CAT")


def test_pass_and_exchange_values():
    assert Pass("S") == Pass(" S ")
    assert Exchange("N", 7).count == 7
