"""The live camera on an islands game (issue 36, point 2): FORMATS.md's turn protocol on a
hexhex board. Stones that appeared since the last verdict are the mover's placement, shown as
provisional with the referee's preview until the mover says Done (or, hands-free, until the
board has stood still); the log keeps the reading; a camera on another side sees the board
turned and is understood.

Readings are built as data in the hex reader's shape (``vision.hexboard.HexReading``: a size,
stones with their confidence, six corners, warnings) and fed to the table's ``judge_reading``,
the part of the frame route after the reader; the frame route itself reads a rendered sample
photo with the real reader.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.hexboard import HexBoard, HexCell
from tests.support.hexseen import seen

TWO = {"ruleset": "islands", "options": {"size": 4},
       "players": [{"name": "Ann", "colour": "R"}, {"name": "Bo", "colour": "B"}]}


def look(app: Any, game_id: str, stones: dict[str, str], times: int = 2,
         **kwargs: Any) -> dict[str, Any]:
    """The camera reads ``stones`` steadily ``times`` frames running: the last answer (JSON)."""
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    answers = [service.judge_reading(game_id, table, seen(stones, **kwargs)).to_json()
               for _ in range(times)]
    return answers[-1]


def done(client: Any, game_id: str, auth: dict[str, str]) -> Any:
    return client.post(f"/api/games/{game_id}/done", headers=auth, json={})


def test_stones_that_appeared_are_provisional_until_done_then_judged(app, client, make_game):
    game_id, auth = make_game(TWO)
    empty = look(app, game_id, {})
    assert empty["waiting_for"] == "a play" and "provisional" not in empty
    nothing = done(client, game_id, auth)
    assert nothing.status_code == 409
    assert nothing.json["error"].startswith("the camera sees no new stone on the board")
    answer = look(app, game_id, {"d4": "R"})
    assert answer["verdict"] is None
    assert answer["reading"]["stones"] == [{"cell": "d4", "colour": "R", "confidence": 0.97}]
    provisional = answer["provisional"]
    assert provisional["player"] == "Ann" and provisional["placed"] == ["d4"]
    assert provisional["words"] == [] and provisional["tiles"] == {"d4": "R"}
    assert provisional["preview"]["legal"] is True and provisional["preview"]["allowed"] == 1
    assert answer["detail"] == "not judged yet: say Done when the stones are down"
    state = client.get(f"/api/games/{game_id}").json
    assert state["history"] == [] and state["live"]["provisional"] == provisional
    shown = client.get(f"/table/{game_id}/panel").get_data(as_text=True)
    assert 'class="hexcell mark-provisional stone-R" data-cell="d4"' in shown
    assert "Ann (red) is placing red d4 (1 of 1 stone allowed)." in shown
    assert "Not judged yet: say Done when the stones are down." in shown

    judged = done(client, game_id, auth)
    assert judged.status_code == 200
    verdict = judged.json["verdict"]
    assert verdict["legal"] is True and verdict["placed"] == [["d4", "R"]]
    assert verdict["move"]["place"] == [["d4", "R"]]                    # read from the board
    assert judged.json["said"]["headline"] == "Ann (red) placed red d4 (1 of 1 stone allowed)."
    state = client.get(f"/api/games/{game_id}").json
    assert [entry["source"] for entry in state["history"]] == ["camera"]
    assert state["to_move"] == "Bo" and state["last_reading"].split() == \
        HexBoard.parse(state["board"]).text().split()
    again = look(app, game_id, {"d4": "R"})                 # the board judged: no play on it
    assert again["waiting_for"] == "a play" and "provisional" not in again

    # Bo puts two stones down one at a time: the first is shown, then both, judged on Done.
    half = look(app, game_id, {"d4": "R", "d5": "R"})
    assert half["provisional"]["placed"] == ["d5"]
    assert half["provisional"]["preview"]["islands"] == {"R": 1, "B": 0}
    both = look(app, game_id, {"d4": "R", "d5": "R", "a1": "B"})
    assert both["provisional"]["placed"] == ["a1", "d5"]                 # reading order
    verdict = done(client, game_id, auth).json["verdict"]
    assert verdict["legal"] and verdict["placed"] == [["a1", "B"], ["d5", "R"]]
    assert verdict["bonus"] == {"R": 2}


def test_the_log_keeps_the_reading_and_a_restart_rebuilds_the_game(app, client, make_game):
    from webui import create_app

    game_id, auth = make_game(TWO)
    look(app, game_id, {"g1": "B"})
    assert done(client, game_id, auth).json["verdict"]["legal"]
    before = client.get(f"/api/games/{game_id}").json
    again = create_app({"TESTING": True, "INSTANCE_PATH": app.instance_path})
    after = again.test_client().get(f"/api/games/{game_id}").json
    keys = ("board", "islands", "to_move", "history", "last_reading", "moves")
    assert {key: after[key] for key in keys} == {key: before[key] for key in keys}


def test_hands_free_judges_the_stones_once_the_board_stands_still(app, client, make_game,
                                                                  monkeypatch):
    import time as clock

    game_id, _ = make_game(TWO | {"options": {"size": 4, "commit": "auto", "settle_s": 2}})
    now = [1000.0]
    monkeypatch.setattr(clock, "time", lambda: now[0])
    first = look(app, game_id, {"c3": "B"})
    assert first["verdict"] is None and first["provisional"]["placed"] == ["c3"]
    assert first["detail"] == "not judged yet: judged once the board stays still for 2 s"
    now[0] += 2.5
    judged = look(app, game_id, {"c3": "B"}, times=1)
    assert judged["verdict"]["legal"] and judged["verdict"]["placed"] == [["c3", "B"]]


def test_a_stone_gone_or_changed_is_refused_in_words_that_do_not_ask_for_a_tap(
        app, client, make_game):
    game_id, auth = make_game(TWO)
    client.post(f"/api/games/{game_id}/moves", headers=auth,
                json={"player": "Ann", "place": [["d4", "R"]]})
    look(app, game_id, {"d4": "B", "a1": "B"})
    refused = done(client, game_id, auth).json
    assert refused["verdict"]["reason"] == "board-mismatch"
    assert refused["said"]["headline"] == "Not legal: Bo (blue)'s move (the board changed " \
                                          "where no play explains it)."
    assert not any("Tap a square" in line for line in refused["said"]["details"])
    panel = client.get(f"/table/{game_id}/panel").get_data(as_text=True)
    assert 'class="hexcell mark-check stone-R" data-cell="d4"' in panel    # ringed: look here
    still = look(app, game_id, {"d4": "B", "a1": "B"})
    assert still["detail"] == ("the board still shows the stones last judged: take off the "
                               "stones of a move taken back, or put right what was refused")
    correction = client.post(f"/api/games/{game_id}/corrections", headers=auth,
                             json={"cell": "d4", "tile": "R"})
    assert correction.status_code == 400
    assert "not corrected by tapping it" in correction.json["error"]


def test_a_camera_on_another_side_sees_the_board_turned_and_is_understood(app, client,
                                                                         make_game):
    """Stones tapped in from the screen; the camera then sees the board from the next side
    (turned by a sixth): its reading is turned back, and only the new stone is the play."""
    from referee.hexboard import hex_grid

    game_id, auth = make_game(TWO)
    for player, stones in (("Ann", [["a1", "R"]]), ("Bo", [["a2", "B"], ["g4", "B"]])):
        client.post(f"/api/games/{game_id}/moves", headers=auth,
                    json={"player": player, "place": stones})
    grid = hex_grid(4)

    def turned(stones: dict[str, str]) -> dict[str, str]:
        return {grid.turned(HexCell.parse(cell), 1).name: colour
                for cell, colour in stones.items()}

    game_stones = {"a1": "R", "a2": "B", "g4": "B"}
    assert look(app, game_id, turned(game_stones))["waiting_for"] == "a play"
    laying = look(app, game_id, turned(game_stones | {"d4": "R"}))
    assert laying["provisional"]["placed"] == ["d4"]
    verdict = done(client, game_id, auth).json["verdict"]
    assert verdict["legal"] and verdict["placed"] == [["d4", "R"]]


def test_an_undone_camera_move_waits_for_its_stones_to_come_off(app, client, make_game):
    game_id, auth = make_game(TWO)
    look(app, game_id, {"b2": "R"})
    assert done(client, game_id, auth).json["verdict"]["legal"]
    assert client.post(f"/api/games/{game_id}/undo", headers=auth).status_code == 200
    still = look(app, game_id, {"b2": "R"})
    assert still["verdict"] is None and "provisional" not in still
    assert still["detail"].startswith("the board still shows the stones last judged")
    off = look(app, game_id, {})
    assert off["waiting_for"] == "a play" and off["detail"] == ""
    panel = client.get(f"/table/{game_id}/panel").get_data(as_text=True)
    assert "Take red b2 off the board." in panel


SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "photos" / "islands-midgame.jpg"


def test_the_frame_route_reads_a_photo_with_the_hex_reader(client, make_game):
    """The real reader on a rendered photo of a side-7 board: the two stones the game does not
    hold yet are the play being laid, and Done judges them as the mover's placement."""
    truth = HexBoard.parse("\n".join(line for line in SAMPLE.with_suffix(".jpg.txt")
                                     .read_text().splitlines() if not line.startswith("#")), 7)
    laid = {HexCell.parse("b3"): "R", HexCell.parse("c6"): "B"}
    assert all(truth.stones[cell] == colour for cell, colour in laid.items())
    before = HexBoard.from_stones({cell: colour for cell, colour in truth.stones.items()
                                   if cell not in laid}, 7)
    game_id, auth = make_game(dict(TWO, options={"size": 7},
                                   position={"board": before.text(), "to_move": "Ann"}))
    answers = [client.post(f"/api/games/{game_id}/frames", data=SAMPLE.read_bytes(),
                           headers=auth, content_type="image/jpeg").json for _ in range(4)]
    assert answers[-1]["reading"]["board"] == truth.text()
    assert sorted(answers[-1]["provisional"]["placed"]) == ["b3", "c6"]
    verdict = done(client, game_id, auth).json["verdict"]
    assert verdict["legal"] and sorted(verdict["placed"]) == [["b3", "R"], ["c6", "B"]]


def test_a_readers_warning_is_told_while_the_table_waits(app, make_game):
    game_id, _ = make_game(TWO)
    answer = look(app, game_id, {}, warnings=("glare over d4: tilt the light",))
    assert answer["waiting_for"] == "a play" and answer["detail"] == "glare over d4: tilt the light"
