"""The JSON API of FORMATS.md ("The web API") and its additions, through Flask's test client."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from referee.boardtext import Tile, format_board_text
from referee.cells import Cell

TWO_PLAYERS = {"ruleset": "archipelago",
               "players": [{"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "N"}]}

CAT = {"player": "S", "word": "CAT", "at": "G15", "dir": "across"}
DOG = {"player": "N", "word": "DOG", "at": "I1", "dir": "across"}


def worked_example() -> dict:
    """RULES.md §1's worked example as a position: South's TO will capture North's DOG."""
    tiles = {Cell.parse("G7"): Tile("A", False, 0), Cell.parse("H7"): Tile("T", False, 0),
             Cell.parse("J8"): Tile("D", False, 180), Cell.parse("I8"): Tile("O", False, 180),
             Cell.parse("H8"): Tile("G", False, 180), Cell.parse("I9"): Tile("N", False, 180)}
    return dict(TWO_PLAYERS, position={"board": format_board_text(tiles), "to_move": "S"})


def assert_error(response, status: int) -> None:
    assert response.status_code == status, response.data
    body = response.get_json()
    assert set(body) == {"error"}
    assert body["error"] and "\n" not in body["error"] and "Traceback" not in body["error"]


def test_create_play_and_read_state(client, make_game):
    game_id, auth = make_game()
    verdict = client.post(f"/api/games/{game_id}/moves", json=CAT, headers=auth).get_json()
    assert verdict["legal"] is True
    assert verdict["words"] == [{"word": "CAT", "cells": ["G15", "H15", "I15"], "value": 5}]
    state = client.get(f"/api/games/{game_id}").get_json()
    for key in ("board", "active", "strength", "eliminated", "to_move", "winner", "moves"):
        assert key in state
    assert state["to_move"] == "N"
    assert state["strength"]["S"] == 5
    assert state["moves"] == [verdict]
    assert "C^ A^ T^" in state["board"]


def test_a_typed_move_is_judged_once_and_stored_with_that_verdict(app, client, make_game,
                                                                   monkeypatch):
    """The referee judges a move once: its verdict is the one answered, logged and shown."""
    from referee.archipelago import ArchipelagoGame

    judged = []
    judge = ArchipelagoGame.judge
    monkeypatch.setattr(ArchipelagoGame, "judge",
                        lambda game, move: judged.append(move) or judge(game, move))
    game_id, auth = make_game()
    verdict = client.post(f"/api/games/{game_id}/moves", json=CAT, headers=auth).get_json()
    assert len(judged) == 1 and judged[0].word == "CAT"
    connection = sqlite3.connect(app.config["DATABASE"])
    (payload,) = connection.execute("SELECT payload FROM events WHERE game_id = ?",
                                    (game_id,)).fetchone()
    connection.close()
    assert json.loads(payload)["verdict"] == verdict
    assert client.get(f"/api/games/{game_id}").get_json()["moves"] == [verdict]
    assert len(judged) == 1


def test_capture_lists_tiles_to_lift_until_confirmed(client, make_game):
    game_id, auth = make_game(worked_example())
    verdict = client.post(f"/api/games/{game_id}/moves", headers=auth, json={
        "player": "S", "word": "TO", "at": "H7", "dir": "down"}).get_json()
    assert verdict["remove"] == ["J8"] and verdict["captured_tiles"] == ["H8"]
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["pending_remove"] == ["J8"]
    assert state["waiting_for"] == "tiles to be removed"
    assert state["strength"] == {"S": 4, "N": 2}
    confirmed = client.post(f"/api/games/{game_id}/removed", headers=auth).get_json()
    assert confirmed["pending_remove"] == [] and confirmed["waiting_for"] == "a play"
    assert_error(client.post(f"/api/games/{game_id}/removed", headers=auth), 409)


def test_illegal_move_is_a_verdict_and_changes_nothing(client, make_game):
    game_id, auth = make_game()
    before = client.get(f"/api/games/{game_id}").get_json()
    verdict = client.post(f"/api/games/{game_id}/moves", headers=auth, json={
        "player": "S", "word": "QZX", "at": "G15", "dir": "across"}).get_json()
    assert verdict["legal"] is False and verdict["reason"] == "not-in-word-list"
    after = client.get(f"/api/games/{game_id}").get_json()
    assert after["board"] == before["board"] and after["to_move"] == "S"
    wrong_turn = client.post(f"/api/games/{game_id}/moves", json=DOG, headers=auth).get_json()
    assert wrong_turn["reason"] == "not-your-turn"


@pytest.mark.parametrize("headers,status", [
    ({}, 401),
    ({"Authorization": "Bearer not-the-token"}, 403),
    ({"Authorization": "Basic abc"}, 401),
])
def test_writes_need_the_games_token(client, make_game, headers, status):
    game_id, _ = make_game()
    for path, body in (("moves", CAT), ("undo", {}), ("removed", {}),
                       ("corrections", {"cell": "H8", "tile": "A^"}),
                       ("corners", {"corners": [[0, 0], [9, 0], [9, 9], [0, 9]]}),
                       ("frames", {"image": "not even a photo"})):
        assert_error(client.post(f"/api/games/{game_id}/{path}", json=body, headers=headers),
                     status)
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["moves"] == [] and state["corrections"] == [] and state["corners"] is None


def test_unknown_game_is_404_before_token(client):
    assert_error(client.get("/api/games/0123456789"), 404)
    assert_error(client.get("/api/games/../../etc"), 404)
    assert_error(client.post("/api/games/0123456789/moves", json=CAT), 404)
    assert_error(client.post("/api/games/0123456789/frames", data=b"x"), 404)


@pytest.mark.slow
@pytest.mark.parametrize("body", [
    b"{not json", b"[1, 2]", b'{"ruleset": "chess", "players": [{"name": "a"}]}',
    b'{"ruleset": "archipelago"}', b'{"ruleset": "archipelago", "players": "Ann"}',
    b'{"ruleset": "archipelago", "players": [{"name": "Ann", "seat": "Q"}, {"name": "Bo"}]}',
    b'{"ruleset": "archipelago", "players": [{"name": "A", "seat": "S"}], "options": 3}',
    b'{"ruleset": "archipelago", "players": [{"name": "A", "seat": "S"}, {"name": "B", '
    b'"seat": "N"}], "options": {"wordlist": "/etc/passwd"}}',
    b"[" * 100_000 + b"]" * 100_000, b'{"ruleset": "archipelago", "players": ' + b"9" * 5000 + b"}",
])
def test_malformed_game_bodies_are_refused(client, body):
    response = client.post("/api/games", data=body, content_type="application/json")
    assert_error(response, 400)
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize("move", [
    "not an object", {"player": "S"}, {"player": "S", "word": "CAT"},
    {"player": "S", "word": "CAT", "at": "Z99", "dir": "across"},
    {"player": "S", "pass": True, "exchange": 2}, {"player": "X", "pass": True},
    {"player": "S", "board": "too short"},
])
def test_malformed_moves_are_refused_and_change_nothing(client, make_game, move):
    game_id, auth = make_game()
    assert_error(client.post(f"/api/games/{game_id}/moves", json=move, headers=auth), 400)
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["moves"] == [] and state["history"] == []


def test_method_not_allowed_and_unknown_route_are_json(client, make_game):
    game_id, _ = make_game()
    assert_error(client.get(f"/api/games/{game_id}/moves"), 405)
    assert_error(client.get("/api/nothing-here"), 404)


def test_oversized_upload_is_413(client, make_game):
    game_id, auth = make_game()
    big = b"\xff\xd8\xff" + b"0" * (27 * 1024 * 1024)
    response = client.post(f"/api/games/{game_id}/frames", data=big, headers=auth,
                           content_type="image/jpeg")
    assert_error(response, 413)


def test_undo_takes_back_the_last_legal_move(client, make_game):
    game_id, auth = make_game()
    assert_error(client.post(f"/api/games/{game_id}/undo", headers=auth), 409)
    client.post(f"/api/games/{game_id}/moves", json=CAT, headers=auth)
    client.post(f"/api/games/{game_id}/moves", json=DOG, headers=auth)
    state = client.post(f"/api/games/{game_id}/undo", headers=auth).get_json()
    assert state["to_move"] == "N" and "D" not in state["board"]
    assert [v["words"][0]["word"] for v in state["moves"]] == ["CAT"]
    again = client.post(f"/api/games/{game_id}/moves", json=DOG, headers=auth).get_json()
    assert again["legal"] is True


def test_state_is_rebuilt_from_the_log_by_a_new_app(app, client, make_game, tmp_path):
    from webui import create_app

    game_id, auth = make_game(worked_example())
    client.post(f"/api/games/{game_id}/moves", headers=auth,
                json={"player": "S", "word": "TO", "at": "H7", "dir": "down"})
    client.post(f"/api/games/{game_id}/moves", headers=auth, json={"player": "N", "pass": True})
    client.post(f"/api/games/{game_id}/undo", headers=auth)
    before = client.get(f"/api/games/{game_id}").get_json()
    fresh = create_app({"TESTING": True, "INSTANCE_PATH": app.instance_path})
    after = fresh.test_client().get(f"/api/games/{game_id}").get_json()
    for key in ("board", "active", "strength", "to_move", "moves", "pending_remove", "history"):
        assert after[key] == before[key], key


def test_event_log_is_append_only(app, client, make_game):
    game_id, auth = make_game()
    client.post(f"/api/games/{game_id}/moves", json=CAT, headers=auth)
    connection = sqlite3.connect(app.config["DATABASE"])
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        connection.execute("UPDATE events SET kind = 'undo'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        connection.execute("DELETE FROM events")
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    kinds = [row[0] for row in connection.execute("SELECT kind FROM events ORDER BY seq")]
    assert kinds == ["move"]
    connection.close()


def test_uploaded_word_list_is_used_and_named(client):
    response = client.post("/api/wordlists", data=b"# house list\nZAX\nqi\r\nCAT\n",
                           content_type="text/plain")
    assert response.status_code == 201
    name = response.get_json()["wordlist"]
    assert response.get_json()["words"] == 3
    spec = dict(TWO_PLAYERS, options={"wordlist": name})
    created = client.post("/api/games", json=spec).get_json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    game = f"/api/games/{created['id']}"
    dog = client.post(f"{game}/moves", headers=auth, json={
        "player": "S", "word": "DOG", "at": "G15", "dir": "across"}).get_json()
    assert dog["reason"] == "not-in-word-list"
    assert client.post(f"{game}/moves", json=CAT, headers=auth).get_json()["legal"]
    assert_error(client.post("/api/wordlists", data=b"\xff\xfe\x00", content_type="text/plain"),
                 400)


def test_scrabble_game_keeps_scores_by_name(client, make_game):
    game_id, auth = make_game({"ruleset": "scrabble",
                              "players": [{"name": "Ann"}, {"name": "Bo"}]})
    verdict = client.post(f"/api/games/{game_id}/moves", headers=auth, json={
        "player": "Ann", "word": "CAT", "at": "H8", "dir": "across"}).get_json()
    assert verdict["legal"] and verdict["score"] > 0
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["scores"]["Ann"] == verdict["score"] and state["to_move"] == "Bo"


def test_judge_a_play_on_a_position_stores_nothing(client):
    body = {"ruleset": "archipelago", "board": worked_example()["position"]["board"],
            "move": {"player": "S", "word": "TO", "at": "H7", "dir": "down"}}
    verdict = client.post("/api/judge", json=body).get_json()
    assert verdict["legal"] and verdict["remove"] == ["J8"]
    assert client.get("/api/games").get_json()["games"] == []
    assert_error(client.post("/api/judge", json={"board": "nope", "move": {}}), 400)


def test_corrections_fix_the_board_and_are_logged(client, make_game):
    game_id, auth = make_game()
    client.post(f"/api/games/{game_id}/moves", json=CAT, headers=auth)
    # North puts DOG down; the camera misread it as DOC: the player fixes the last cell.
    result = client.post(f"/api/games/{game_id}/corrections", headers=auth,
                         json={"cell": "G1", "tile": "Cv"}).get_json()
    # No camera reading yet: the correction edits the current board and is judged as N's play.
    assert result["verdict"]["player"] == "N"
    state = result["state"]
    assert state["corrections"][0]["cell"] == "G1"
    assert_error(client.post(f"/api/games/{game_id}/corrections", headers=auth,
                             json={"cell": "Z1", "tile": "A"}), 400)
    assert_error(client.post(f"/api/games/{game_id}/corrections", headers=auth,
                             json={"cell": "H1", "tile": "AB"}), 400)


def test_event_stream_sends_the_state(client, make_game):
    game_id, auth = make_game()
    client.post(f"/api/games/{game_id}/moves", json=CAT, headers=auth)
    response = client.get(f"/api/games/{game_id}/events?once=1")
    assert response.mimetype == "text/event-stream"
    text = response.get_data(as_text=True)
    assert text.startswith("event: state\n")
    data = json.loads(text.split("data: ", 1)[1].split("\n\n")[0])
    assert data["moves"][0]["words"][0]["word"] == "CAT"


def test_scrabble_game_downloads_as_gcg(client, make_game):
    game_id, auth = make_game({"ruleset": "scrabble",
                              "players": [{"name": "Ann"}, {"name": "Bo"}]})
    client.post(f"/api/games/{game_id}/moves", headers=auth, json={
        "player": "Ann", "word": "CAT", "at": "H8", "dir": "across"})
    response = client.get(f"/api/games/{game_id}/gcg")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    text = response.get_data(as_text=True)
    assert text.startswith("#") and "CAT" in text
    archipelago_id, _ = make_game()
    assert_error(client.get(f"/api/games/{archipelago_id}/gcg"), 400)


@pytest.mark.slow
def test_two_screens_get_each_change_over_sse(live_server):
    """A real server: two event-stream clients each see the move another client posted."""
    import threading
    import urllib.request

    def post(path: str, body: dict, token: str | None = None) -> dict:
        request = urllib.request.Request(live_server.url + path, json.dumps(body).encode(),
                                         {"Content-Type": "application/json"}, method="POST")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    created = post("/api/games", TWO_PLAYERS)
    seen: list[list[dict]] = [[], []]
    connected = [threading.Event(), threading.Event()]

    def screen(index: int) -> None:
        url = f"{live_server.url}/api/games/{created['id']}/events"
        with urllib.request.urlopen(url, timeout=30) as stream:
            for raw in stream:
                line = raw.decode().strip()
                if line.startswith("data: "):
                    seen[index].append(json.loads(line[6:]))
                    connected[index].set()
                    if len(seen[index]) == 2:
                        return

    threads = [threading.Thread(target=screen, args=(i,), daemon=True) for i in range(2)]
    for thread in threads:
        thread.start()
    assert all(event.wait(30) for event in connected)
    verdict = post(f"/api/games/{created['id']}/moves", CAT, created["token"])
    for thread in threads:
        thread.join(30)
    for states in seen:
        assert [len(state["moves"]) for state in states] == [0, 1]
        assert states[1]["moves"][0] == verdict


def test_internal_errors_are_one_sentence_without_traceback(tmp_path):
    from webui import create_app

    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance")})  # not TESTING: as served

    @app.get("/api/explode")
    def explode():
        raise RuntimeError("secret internals /etc/passwd")

    response = app.test_client().get("/api/explode")
    assert_error(response, 500)
    assert "secret" not in response.get_data(as_text=True)


def test_corners_are_validated_logged_and_cleared(client, make_game):
    game_id, auth = make_game()
    corners = [[10, 20], [900, 25], [910, 880], [5, 870]]
    state = client.post(f"/api/games/{game_id}/corners", headers=auth,
                        json={"corners": corners}).get_json()
    assert state["corners"] == [[float(x), float(y)] for x, y in corners]
    assert_error(client.post(f"/api/games/{game_id}/corners", headers=auth,
                             json={"corners": [[1, 2]]}), 400)
    assert_error(client.post(f"/api/games/{game_id}/corners", headers=auth,
                             json={"corners": [[1, 2], [3, 4], [5, 6], ["x", 8]]}), 400)
    assert_error(client.post(f"/api/games/{game_id}/corners", headers=auth, json={"x": 1}), 400)
    cleared = client.post(f"/api/games/{game_id}/corners", headers=auth,
                          json={"corners": None}).get_json()
    assert cleared["corners"] is None


@pytest.mark.parametrize("spec,moves", [
    (TWO_PLAYERS, [CAT, DOG, {"player": "S", "word": "QZX", "at": "G14", "dir": "across"},
                   {"player": "S", "word": "CATS", "at": "G15", "dir": "across"},
                   {"player": "N", "pass": True}, {"player": "S", "exchange": 2}]),
    ({"ruleset": "scrabble", "players": [{"name": "Ann"}, {"name": "Bo"}],
      "options": {"preset": "seed"}},
     [{"player": "Ann", "word": "CAT", "at": "H8", "dir": "across"},
      {"player": "Bo", "word": "CATS", "at": "H8", "dir": "across"},
      {"player": "Ann", "pass": True}]),
])
def test_state_is_judges_final_plus_moves(client, make_game, spec, moves):
    """FORMATS.md: GET /api/games/<id> is `tileref judge`'s `final`, plus `moves`, exactly."""
    from referee.gamefile import judge_spec

    game_id, auth = make_game(spec)
    answers = [client.post(f"/api/games/{game_id}/moves", json=move, headers=auth).get_json()
               for move in moves]
    judged = judge_spec(dict(spec, moves=moves), None)
    assert answers == judged["moves"]
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["moves"] == judged["moves"]
    for key, value in judged["final"].items():
        assert state[key] == value, key


def test_every_action_at_the_table_is_an_event_in_the_log(app, client, make_game):
    """Plays, passes, exchanges, undo, tiles lifted, corrections, corners: all in the log, in
    order, each with what it was, read from the database file itself."""
    game_id, auth = make_game(worked_example())
    game = f"/api/games/{game_id}"
    client.post(f"{game}/moves", headers=auth,
                json={"player": "S", "word": "TO", "at": "H7", "dir": "down"})
    client.post(f"{game}/removed", headers=auth)
    client.post(f"{game}/moves", headers=auth, json={"player": "N", "pass": True})
    client.post(f"{game}/moves", headers=auth, json={"player": "S", "exchange": 3})
    client.post(f"{game}/undo", headers=auth)
    client.post(f"{game}/corners", headers=auth,
                json={"corners": [[1, 2], [90, 2], [90, 95], [1, 95]]})
    client.post(f"{game}/corrections", headers=auth, json={"cell": "K15", "tile": "e^"})
    connection = sqlite3.connect(app.config["DATABASE"])
    rows = connection.execute("SELECT seq, kind, payload FROM events WHERE game_id = ? "
                              "ORDER BY seq", (game_id,)).fetchall()
    connection.close()
    assert [seq for seq, _, _ in rows] == list(range(1, len(rows) + 1))
    kinds = [kind for _, kind, _ in rows]
    assert kinds[:7] == ["move", "removed", "move", "move", "undo", "corners", "correction"]
    payloads = [json.loads(payload) for _, _, payload in rows]
    assert payloads[0]["verdict"]["remove"] == ["J8"] and payloads[0]["source"] == "api"
    assert payloads[1] == {"cells": ["J8"], "source": "player"}
    assert payloads[3]["move"] == {"player": "S", "exchange": 3}
    assert payloads[6]["cell"] == "K15" and payloads[6]["tile"] == "e^"
    assert kinds[7:] == ["move"]            # the corrected board, judged as South's play


# A fuzzing helper's finds, each once a lost game, a 500 or a refusal that still changed state.

FIRST_DRAFT = {"ruleset": "firstdraft", "players": [{"name": "Ann"}, {"name": "Bo"}]}


@pytest.mark.parametrize("spec, move", [
    (TWO_PLAYERS, {"player": "S", "word": "STRAßE", "at": "H15", "dir": "across"}),
    ({"ruleset": "scrabble", "players": [{"name": "Ann"}, {"name": "Bo"}]},
     {"player": "Ann", "end": {"racks": {"Bo": "ǰ"}}}),
    ({"ruleset": "colonization", "players": [{"name": "Ann"}, {"name": "Bo"}],
      "options": {"seed": 3}},
     {"player": "Ann", "transform": {"at": "H8", "dir": "across"}, "actor_tile": "ß",
      "owner_tile": "E"}),
])
def test_a_letter_whose_capital_is_two_letters_is_refused_and_the_game_lives_on(
        app, client, make_game, spec, move):
    # ß's capital is SS: the move was stored in capitals that read back as another move, and
    # the game could not be rebuilt from its log (every later call a 409, after restarts too).
    from webui import create_app

    game_id, auth = make_game(spec)
    before = client.get(f"/api/games/{game_id}").get_json()
    assert_error(client.post(f"/api/games/{game_id}/moves", json=move, headers=auth), 400)
    assert client.get(f"/api/games/{game_id}").get_json() == before
    fresh = create_app({"TESTING": True, "INSTANCE_PATH": app.instance_path}).test_client()
    assert fresh.get(f"/api/games/{game_id}").status_code == 200


@pytest.mark.parametrize("ruleset", ["firstdraft", "colonization"])
def test_a_game_given_no_seed_is_the_same_game_after_a_restart(app, client, make_game, ruleset):
    # The seed picked for it is stored with it: rebuilt with another, First Draft's line of
    # coasters and colonization's draws came out otherwise.
    from webui import create_app

    game_id, auth = make_game({"ruleset": ruleset, "players": [{"name": "Ann"}, {"name": "Bo"}]})
    if ruleset == "firstdraft":
        client.post(f"/api/games/{game_id}/moves", json={"player": "Ann", "coaster": 1},
                    headers=auth)
    before = client.get(f"/api/games/{game_id}").get_json()
    fresh = create_app({"TESTING": True, "INSTANCE_PATH": app.instance_path}).test_client()
    after = fresh.get(f"/api/games/{game_id}").get_json()
    assert {key: value for key, value in after.items() if key != "version"} == {
        key: value for key, value in before.items() if key != "version"}


@pytest.mark.slow
def test_first_draft_takes_no_correction_or_camera_frame_and_keeps_no_trace(client, make_game):
    game_id, auth = make_game(dict(FIRST_DRAFT, options={"seed": 1}))
    before = client.get(f"/api/games/{game_id}").get_json()
    refused = client.post(f"/api/games/{game_id}/corrections", json={"cell": "H8", "tile": "A"},
                          headers=auth)
    assert_error(refused, 400)
    assert "own boards" in refused.get_json()["error"]
    frame = (Path(__file__).parents[1] / "samples" / "photos" / "scrabble-midgame.jpg").read_bytes()
    assert_error(client.post(f"/api/games/{game_id}/frames", data=frame, headers=auth,
                             content_type="image/jpeg"), 400)
    assert client.get(f"/api/games/{game_id}/frame.jpg", headers=auth).status_code == 404
    assert client.get(f"/api/games/{game_id}").get_json() == before


def test_a_refusal_quoting_megabytes_is_still_one_short_sentence(client, make_game):
    game_id, auth = make_game()
    response = client.post(f"/api/games/{game_id}/moves", headers=auth,
                           json={"player": "x" * 5_000_000, "pass": True})
    assert_error(response, 400)
    assert len(response.get_json()["error"]) <= 400


def test_a_frame_that_is_no_image_changes_nothing_not_even_the_live_camera(client, make_game):
    game_id, auth = make_game()
    before = client.get(f"/api/games/{game_id}").get_json()
    assert_error(client.post(f"/api/games/{game_id}/frames", data=b"RIFF\0\0\0\0WEBPVP8 ",
                             headers=auth, content_type="image/webp"), 400)
    assert client.get(f"/api/games/{game_id}/frame.jpg", headers=auth).status_code == 404
    assert client.get(f"/api/games/{game_id}").get_json() == before



@pytest.mark.slow
def test_event_streams_are_bounded_and_the_rest_are_told_to_come_back(app, live_server,
                                                                      make_game):
    """At most SSE_STREAMS streams hold a thread; the next screen gets the state once and a
    ``retry``, and its EventSource comes back by itself."""
    import http.client

    app.config["SSE_STREAMS"] = 2
    game_id, _ = make_game()
    held = []
    for _ in range(2):
        connection = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=30)
        connection.request("GET", f"/api/games/{game_id}/events")
        response = connection.getresponse()
        assert response.readline().startswith(b"event: state")
        held.append(connection)
    connection = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=30)
    connection.request("GET", f"/api/games/{game_id}/events")
    body = connection.getresponse().read().decode()   # ends: it was not admitted
    assert body.startswith("event: state") and body.endswith("retry: 5000\n\n")
    for held_connection in held:
        held_connection.close()
