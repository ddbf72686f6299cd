"""GAME.json: the samples judge as documented, and a malformed file is one clear line."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.gamefile import GameFileError, judge_file, judge_spec, load_game_file

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "games"


def test_the_worked_example_sample():
    result = judge_file(SAMPLES / "archipelago-worked-example.json")
    assert result["moves"] == [{
        "legal": True, "player": "S",
        "words": [{"word": "TO", "cells": ["H7", "H8"], "value": 2}],
        "captured_tiles": ["H8"],
        "captured_words": [{"owner": "N", "word": "DOG", "cells": ["J8", "I8", "H8"]}],
        "remove": ["J8"], "score": 4, "eliminated": []}]
    assert result["final"]["strength"] == {"S": 4, "N": 2}
    assert set(result["final"]) == {"board", "active", "strength", "eliminated", "to_move",
                                    "winner"}


def test_the_three_seat_sample_has_captures_an_elimination_and_a_stall():
    result = judge_file(SAMPLES / "archipelago-three-seats.json")
    moves = result["moves"]
    assert moves[0]["eliminated"] == ["W"] and moves[0]["captured_words"][0]["owner"] == "W"
    assert moves[1]["reason"] == "player-eliminated"
    assert any(move.get("remove") for move in moves[2:4])
    assert moves[-1]["reason"] == "game-over"
    final = result["final"]
    assert final["eliminated"] == ["W"] and final["winner"] == "S" and final["to_move"] is None


def test_the_snapshot_sample():
    result = judge_file(SAMPLES / "archipelago-snapshots.json")
    reasons = [move.get("reason") for move in result["moves"]]
    assert reasons == [None, "board-mismatch", "blank-undesignated", None, "board-mismatch",
                       None, "game-over"]
    assert result["moves"][0]["move"] == {"player": "S", "word": "TO", "at": "H7",
                                          "dir": "down"}
    assert result["moves"][2]["blank_offers"] == {"J9": "I"}
    assert result["final"]["winner"] == "S"


def write(tmp_path: Path, data, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


GOOD = {"ruleset": "archipelago", "players": [{"name": "Ann", "seat": "S"},
                                              {"name": "Bo", "seat": "N"}]}


@pytest.mark.parametrize("data, fragment", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    ("[" * 100_000 + "]" * 100_000, "nested thousands deep"),
    ('{"ruleset": "archipelago", "players": ' + "9" * 5000 + "}", "thousands of digits"),
    ({"players": GOOD["players"]}, "needs \"ruleset\""),
    (GOOD | {"ruleset": "chess"}, "known: archipelago"),
    ({"ruleset": "archipelago"}, "\"players\""),
    (GOOD | {"moves": {}}, "\"moves\" must be a JSON list"),
    (GOOD | {"colour": "red"}, "unknown key 'colour'"),
    (GOOD | {"options": {"wordlist": "missing.txt"}}, "missing.txt"),
    (GOOD | {"options": {"preset": "tournament"}}, "preset"),
    (GOOD | {"players": [{"name": "Ann", "seat": "S"}]}, "2 to 4 players"),
    (GOOD | {"players": [{"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "S"}]},
     "different seat"),
    (GOOD | {"players": [{"name": "Ann", "seat": "X"}, {"name": "Bo"}]}, "seat"),
    (GOOD | {"position": {"board": "..."}}, "board text"),
    (GOOD | {"position": {"to_move": "E"}}, "to_move"),
    (GOOD | {"position": {"board": "\n".join(["." * 15] * 15),
                          "active": {"S": [{"word": "AT", "cells": ["Z9", "A1"]}]}}},
     "not a cell name"),
])
def test_malformed_files_are_one_line_errors(tmp_path, data, fragment):
    with pytest.raises(GameFileError) as caught:
        judge_file(write(tmp_path, data))
    assert fragment in str(caught.value), str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_byte_order_mark_as_windows_notepad_saves_is_no_part_of_the_json(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD).encode("utf-8"))
    assert judge_file(path)["moves"] == []


def test_missing_file_and_folder(tmp_path):
    for path in (tmp_path / "nope.json", tmp_path):
        with pytest.raises(GameFileError):
            load_game_file(path)


def test_word_list_is_found_relative_to_the_game_file(tmp_path):
    (tmp_path / "words.txt").write_text("# house list\nCAT\ncats\r\n", encoding="utf-8")
    spec = GOOD | {"options": {"wordlist": "words.txt"},
                   "moves": [{"player": "S", "word": "CAT", "at": "G15", "dir": "across"},
                             {"player": "N", "word": "DOG", "at": "I1", "dir": "across"}]}
    result = judge_file(write(tmp_path, spec))
    assert result["moves"][0]["legal"] is True
    assert result["moves"][1]["reason"] == "not-in-word-list"
    assert "words.txt" in result["moves"][1]["message"]


def test_a_malformed_move_is_a_bad_move_verdict_and_the_game_goes_on():
    spec = GOOD | {"moves": [{"player": "S", "word": "CAT", "at": "G16", "dir": "across"},
                             "pass", {"player": "E", "pass": True},
                             {"player": "S", "word": "CAT", "at": "G15", "dir": "across"}]}
    moves = judge_spec(spec)["moves"]
    assert [m.get("reason") for m in moves] == ["bad-move", "bad-move", "bad-move", None]
    assert moves[1]["player"] == "?"


def test_seats_default_to_the_suggested_order_and_position_is_optional():
    spec = {"ruleset": "archipelago", "players": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
            "moves": [{"player": "S", "pass": True}, {"player": "W", "pass": True},
                      {"player": "N", "pass": True}]}
    result = judge_spec(spec)
    assert all(move["legal"] for move in result["moves"])
    assert result["final"]["to_move"] == "S"


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**9), st.floats(allow_nan=False),
                 st.sampled_from(["", "x", "S", "H8", "Z99", "enable", "down", "\n\n"]),
                 st.just([]), st.just({}), st.just([1]), st.just({"a": 1}))


def paths(data, prefix=()):
    """Every place inside a JSON value where something could be swapped for junk."""
    yield prefix
    items = data.items() if isinstance(data, dict) else \
        enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        yield from paths(value, (*prefix, key))


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_corruption_of_a_sample_is_judged_or_refused_in_one_line(data):
    spec = json.loads((SAMPLES / "archipelago-snapshots.json").read_text(encoding="utf-8"))
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.sampled_from(list(paths(spec))[1:]))
        target = spec
        for key in where[:-1]:
            target = target[key]
        # A copy: st.just hands out one shared object, which a later corruption could put
        # inside itself (a cycle no JSON file can hold) or carry into the next example.
        target[where[-1]] = copy.deepcopy(data.draw(JUNK))
    try:
        result = judge_spec(spec, SAMPLES)
    except GameFileError as error:
        assert "\n" not in str(error)
    else:
        assert set(result) == {"moves", "final"}
