"""Live play: steadiness on rendered frames, fusion of readings, and what a fused board means.

The reader itself is tested by the vision suite; here the frames go through the real service.
Where the exact letters matter (judging, removal, corrections) the readings are the renderer's
truth as the reader's ``BoardReading``, fed to the same ``judge_reading`` the frame route uses.
"""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from lab.render import RenderOptions, render_board_photo
from referee.boardtext import Tile, format_board_text
from referee.cells import Cell
from vision import BoardReading, CellReading
from vision.steady import SteadyConfig, SteadyTracker, ViewState
from vision.warning import ReadingWarning, off_its_square, small_board, unsure_whether_tile
from webui import live

TWO_PLAYERS = {"ruleset": "archipelago",
               "players": [{"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "N"}]}


def tiles_of(spec: dict[str, str]) -> dict[Cell, Tile]:
    return {Cell.parse(cell): Tile.parse(token) for cell, token in spec.items()}


def reading(spec: dict[str, str], warnings: tuple[ReadingWarning, ...] = (),
            confidence: dict[str, float] | None = None) -> BoardReading:
    """A reading as the reader gives it, from cell -> token (a blank reads as ``?``), its
    ``warnings`` and each tile's ``confidence`` (1.0 unless given)."""
    cells = tuple(CellReading(c.name, t.letter, t.rotation or 0,
                              (confidence or {}).get(c.name, 1.0), t.blank)
                  for c, t in tiles_of(spec).items())
    return BoardReading(cells, ((0, 0), (1, 0), (1, 1), (0, 1)), tuple(warnings))


def judge(table_service, game_id: str, table, seen: BoardReading) -> dict:
    """A steady reading through the frame route's ``judge_reading``: the answer as JSON."""
    return table_service.judge_reading(game_id, table, seen).to_json()


CAT_S = {"G15": "C^", "H15": "A^", "I15": "T^"}


@pytest.fixture(scope="module")
def frames() -> dict[str, np.ndarray]:
    """A small rendered board, the same board with a hand over it, and another view."""
    tiles = tiles_of(CAT_S)
    options = RenderOptions(tilt=20.0, noise=1.0)
    board = render_board_photo(tiles, seed=5, width=480, height=360, options=options).image
    hand = render_board_photo(tiles, seed=5, width=480, height=360,
                              options=RenderOptions(tilt=20.0, noise=1.0, hand=True)).image
    shifted = np.roll(board, 40, axis=1)
    return {"board": board, "hand": hand, "shifted": shifted}


def jpeg(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return data.tobytes()


@pytest.mark.slow
def test_same_view_becomes_steady_after_a_few_frames(frames):
    tracker = SteadyTracker(SteadyConfig(steady_frames=2))
    states = [tracker.update(frames["board"]).state for _ in range(4)]
    assert states[0] is not ViewState.STEADY
    assert states[-1] is ViewState.STEADY


def test_hand_over_the_board_is_not_steady(frames):
    tracker = SteadyTracker()
    for _ in range(3):
        tracker.update(frames["board"])
    check = tracker.update(frames["hand"])
    assert check.state in (ViewState.HAND, ViewState.MOVING)
    assert check.intrusion > 0 and not check.steady
    # A hand that stays still over the board is still not taken for the new board at once.
    assert not tracker.update(frames["hand"]).steady


def test_a_moving_picture_is_not_steady(frames):
    tracker = SteadyTracker()
    for _ in range(3):
        tracker.update(frames["board"])
    assert tracker.update(frames["shifted"]).state in (ViewState.MOVING, ViewState.HAND)


def test_fusion_needs_agreeing_readings():
    fusion = live.Fusion(window=3, votes=2)
    cat = tiles_of(CAT_S)
    cax = tiles_of({**CAT_S, "I15": "X^"})
    assert fusion.add(cat) is None            # one reading is never enough
    assert fusion.add(cax) is None            # I15 disagrees: 1 vote each
    assert fusion.add(cat) == cat             # 2 of 3 agree on every cell
    fusion.clear()
    assert fusion.add(cax) is None


def test_camera_side_turns_the_reading_into_the_south_view():
    seen_from_west = tiles_of({"H15": "A^"})   # upright to the camera at West's side
    south = live.to_south_frame(seen_from_west, "W")
    assert south == tiles_of({"A8": "A>"})     # West's home centre, West's arrow
    assert live.to_south_frame(seen_from_west, "S") == seen_from_west


def ringed(html: str) -> list[str]:
    """The squares a referee board page rings for the players to check, in board order."""
    return [re.search(r'data-cell="(\w+)"', square).group(1)
            for square in html.split('<g class="cell')[1:] if '<rect class="check"' in square]


def tap(client, game_id: str, auth: dict, cell: str, tile: str) -> dict:
    """A player's tap on the board: the correction of ``cell`` to ``tile``, and the verdict
    and state the server answers with."""
    return client.post(f"/api/games/{game_id}/corrections", headers=auth,
                       json={"cell": cell, "tile": tile}).get_json()


def play_readings(service, game_id, table, spec, times=2):
    answers = [judge(service, game_id, table, reading(spec)) for _ in range(times)]
    return answers


def done(service, game_id: str, body: dict | None = None) -> dict:
    """The mover says Done (FORMATS.md's turn protocol): the answer as JSON."""
    return service.done(game_id, body or {}).to_json()


def lay(service, game_id: str, table, spec: dict[str, str], times: int = 2) -> dict:
    """The camera reads ``spec`` steadily, then the mover says Done: the verdict (JSON)."""
    play_readings(service, game_id, table, spec, times)
    return done(service, game_id)["verdict"]


def test_a_play_is_judged_only_when_its_player_says_done(app, make_game):
    from webui.errors import Conflict

    game_id, _ = make_game()
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    empty = play_readings(service, game_id, table, {})
    assert empty[-1]["waiting_for"] == "a play" and empty[-1]["verdict"] is None
    assert "provisional" not in empty[-1]
    with pytest.raises(Conflict, match="no new tile"):
        done(service, game_id)                        # nothing placed: 409
    first, second = play_readings(service, game_id, table, CAT_S)
    assert first["verdict"] is None                   # not fused yet
    assert second["verdict"] is None                  # fused, but nobody said Done
    assert second["provisional"] == {"player": "S", "placed": ["G15", "H15", "I15"],
                                     "words": ["CAT"],
                                     "tiles": {"G15": "C^", "H15": "A^", "I15": "T^"}}
    assert second["detail"] == "not judged yet: say Done when the word is finished"
    state = service.state(game_id)
    assert state["history"] == [] and state["live"]["provisional"] == second["provisional"]
    answer = done(service, game_id)
    assert answer["verdict"]["legal"] is True
    assert answer["verdict"]["words"][0]["word"] == "CAT"
    assert answer["waiting_for"] == "a play"
    again = play_readings(service, game_id, table, CAT_S)
    assert all(a["verdict"] is None and "provisional" not in a for a in again)
    with pytest.raises(Conflict):
        done(service, game_id)                        # CAT is the game's board now
    state = service.state(game_id)
    assert [h["source"] for h in state["history"]] == ["camera"]
    assert state["to_move"] == "N" and state["live"]["provisional"] is None


def test_a_word_caught_half_laid_is_not_judged(app, make_game):
    """South lays M on H14 (making MA with the A of CAT) on the way to DRAMA: the table shows
    MA as provisional, records nothing, and judges DRAMA when South says Done."""
    position = {"G15": "C^", "H15": "A^", "I15": "T^", "H10": "Dv", "H9": "Ov", "H8": "Gv"}
    game_id, _ = make_game(dict(TWO_PLAYERS, position={
        "board": format_board_text(tiles_of(position)), "to_move": "S"}))
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    half = play_readings(service, game_id, table, {**position, "H14": "M^"})[-1]
    assert half["verdict"] is None
    assert half["provisional"] == {"player": "S", "placed": ["H14"], "words": ["MA"],
                                   "tiles": {"H14": "M^"}}
    more = play_readings(service, game_id, table, {**position, "H12": "R^", "H14": "M^"})[-1]
    assert more["verdict"] is None and more["provisional"]["placed"] == ["H12", "H14"]
    drama = {**position, "H11": "D^", "H12": "R^", "H13": "A^", "H14": "M^"}
    assert play_readings(service, game_id, table, drama)[-1]["provisional"]["words"][0] == "DRAMA"
    assert service.state(game_id)["history"] == []
    verdict = done(service, game_id, {"player": "Ann"})["verdict"]
    assert verdict["legal"] is True and verdict["words"][0]["word"] == "DRAMA"
    state = service.state(game_id)
    assert len(state["history"]) == 1 and state["to_move"] == "N"


def test_done_names_the_mover_or_nobody(app, make_game):
    from webui.errors import Conflict, ServiceError

    game_id, _ = make_game()
    service = app.extensions["tileref"].table
    play_readings(service, game_id, service.live_table(game_id), CAT_S)
    with pytest.raises(Conflict, match=r"it is Ann \(South\)'s turn, not Bo \(North\)'s"):
        done(service, game_id, {"player": "N"})
    with pytest.raises(ServiceError, match="no player 'Cy'"):
        done(service, game_id, {"player": "Cy"})
    assert service.state(game_id)["history"] == []
    assert done(service, game_id, {"player": "S"})["verdict"]["legal"] is True


def test_done_waits_for_the_view_to_settle(app, make_game):
    """Done said while a hand is still over the board waits for the next steady reading (the
    last tile laid), and is refused when the view never settles."""
    import threading

    from webui.errors import Conflict

    game_id, _ = make_game()
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    play_readings(service, game_id, table, {"G15": "C^", "H15": "A^"})
    table.view_lost()                                 # a hand lays the T
    later = threading.Timer(0.3, lambda: play_readings(service, game_id, table, CAT_S))
    later.start()
    verdict = done(service, game_id)["verdict"]
    later.join()
    assert verdict["legal"] is True and verdict["words"][0]["word"] == "CAT"
    table.view_changed()
    service.config = live.LiveConfig(done_wait_s=0.05)
    with pytest.raises(Conflict, match="no clear view"):
        done(service, game_id)


def test_hands_free_judges_a_board_still_for_settle_s(app, make_game, monkeypatch):
    """``options.commit: "auto"``: the play is judged once the board has stood still with
    nothing over it for ``settle_s``; a hand over the board starts the clock again."""
    clock = [1000.0]
    monkeypatch.setattr(live.time, "time", lambda: clock[0])
    game_id, _ = make_game(dict(TWO_PLAYERS, options={"commit": "auto", "settle_s": 4}))
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    first = play_readings(service, game_id, table, CAT_S)[-1]
    assert first["verdict"] is None and first["provisional"]["words"] == ["CAT"]
    assert first["detail"] == "not judged yet: judged once the board stays still for 4 s"
    clock[0] += 3
    assert judge(service, game_id, table, reading(CAT_S))["verdict"] is None
    table.view_changed()                              # a hand passes over the board
    play_readings(service, game_id, table, CAT_S)
    clock[0] += 3.5
    assert judge(service, game_id, table, reading(CAT_S))["verdict"] is None
    clock[0] += 0.5
    answer = judge(service, game_id, table, reading(CAT_S))
    assert answer["verdict"]["legal"] is True and "provisional" not in answer
    assert service.state(game_id)["to_move"] == "N"


@pytest.mark.parametrize("options, refusal", [
    ({"commit": "sometimes"}, "options.commit must be 'tap'"),
    ({"commit": "auto", "settle_s": -1}, "options.settle_s must be a number of seconds"),
    ({"settle_s": "4"}, "options.settle_s"), ({"settle_s": True}, "options.settle_s")])
def test_bad_commit_options_are_refused(client, options, refusal):
    response = client.post("/api/games", json=dict(TWO_PLAYERS, options=options))
    assert response.status_code == 400 and refusal in response.get_json()["error"]


def test_done_through_the_api(client, make_game):
    game_id, auth = make_game()
    url = f"/api/games/{game_id}/done"
    assert client.post(url, json={}).status_code == 401
    refused = client.post(url, json={}, headers=auth)
    assert refused.status_code == 409 and set(refused.get_json()) == {"error"}
    assert client.post(url, data="[", headers=auth,
                       content_type="application/json").status_code == 400


def test_a_camera_play_is_judged_once(app, make_game, monkeypatch):
    """The fused board becomes one snapshot, judged once: no preview judged again to record."""
    from referee.archipelago import ArchipelagoGame

    judged = []
    judge = ArchipelagoGame.judge
    monkeypatch.setattr(ArchipelagoGame, "judge",
                        lambda game, move: judged.append(move) or judge(game, move))
    game_id, _ = make_game()
    service = app.extensions["tileref"].table
    assert lay(service, game_id, service.live_table(game_id), CAT_S)["legal"] is True
    assert [type(move).__name__ for move in judged] == ["Snapshot"]


def test_the_frames_answer_words_its_verdict_as_the_referee_board_does(app, client, make_game,
                                                                     frames, monkeypatch):
    """The live page shows the server's words for a verdict (``said``), the panel's own."""
    import webui.photos

    game_id, auth = make_game()
    table = app.extensions["tileref"].table.live_table(game_id)
    monkeypatch.setattr(table, "check_view", lambda image: type("Steady", (), {"steady": True})())
    monkeypatch.setattr(webui.photos, "read_board", lambda *args, **kwargs: reading(CAT_S))
    answers = [client.post(f"/api/games/{game_id}/frames", data=jpeg(frames["board"]),
                           headers=auth, content_type="image/jpeg").get_json() for _ in range(2)]
    assert [answer["said"] for answer in answers] == [None, None]
    assert answers[1]["provisional"]["words"] == ["CAT"]
    answer = client.post(f"/api/games/{game_id}/done", json={}, headers=auth).get_json()
    assert set(answer) == {"verdict", "waiting_for", "said"}
    said = answer["said"]
    value = answer["verdict"]["words"][0]["value"]
    assert said["legal"] is True and said["headline"] == f"Ann (South) played CAT, worth {value}."
    assert said["headline"] in client.get(f"/games/{game_id}/panel").get_data(as_text=True)


def test_tiles_read_in_a_game_without_seats_carry_no_owner(app, make_game):
    """Colonization's players have no seats, as scrabble's: the rotations the camera reads
    mean nothing, so the board of the play just judged, seen again, is the game's board. (ZORF
    is no English word: an English first word would end the game at once, RULES.md §3.)"""
    game_id, _ = make_game({"ruleset": "colonization",
                            "players": [{"name": "Ann"}, {"name": "Bo"}],
                            "options": {"seed": 3, "languages": {"Ann": "FLORBIX",
                                                                 "Bo": "QUANTEZ"}}})
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    zorf = {"G8": "Z^", "H8": "O>", "I8": "Rv", "J8": "F<"}
    played = lay(service, game_id, table, zorf)
    assert played["legal"] is True and played["words"][0]["word"] == "ZORF"
    again = play_readings(service, game_id, table, zorf, times=3)
    assert [answer["verdict"] for answer in again] == [None, None, None]
    assert again[-1]["waiting_for"] == "a play" and again[-1]["detail"] == ""


def test_tiles_to_lift_are_awaited_then_seen_gone(app, make_game):
    position = {"G7": "A^", "H7": "T^", "J8": "Dv", "I8": "Ov", "H8": "Gv", "I9": "Nv"}
    game_id, _ = make_game(dict(TWO_PLAYERS, position={
        "board": format_board_text(tiles_of(position)), "to_move": "S"}))
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    played = {**position, "H8": "O^"}                  # South's TO through North's G
    play_readings(service, game_id, table, played)
    verdict = done(service, game_id)
    assert verdict["verdict"]["remove"] == ["J8"]
    assert verdict["waiting_for"] == "tiles to be removed"
    still_there = play_readings(service, game_id, table, played)[-1]
    assert still_there["waiting_for"] == "tiles to be removed"
    lifted = {cell: token for cell, token in played.items() if cell != "J8"}
    gone = play_readings(service, game_id, table, lifted)[-1]
    assert gone["waiting_for"] == "a play"
    state = service.state(game_id)
    assert state["pending_remove"] == []
    assert state["to_move"] == "N"


def test_a_tile_put_back_after_the_camera_saw_it_lifted_is_a_new_one(app, make_game):
    """After the camera saw J8 empty, North's D there again is North's play, legal or not,
    and never "should have been lifted off"; the same holds after a restart."""
    from webui import create_app

    position = {"G7": "A^", "H7": "T^", "J8": "Dv", "I8": "Ov", "H8": "Gv", "I9": "Nv"}
    game_id, _ = make_game(dict(TWO_PLAYERS, position={
        "board": format_board_text(tiles_of(position)), "to_move": "S"}))
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    played = {**position, "H8": "O^"}
    lay(service, game_id, table, played)
    lifted = {cell: token for cell, token in played.items() if cell != "J8"}
    assert play_readings(service, game_id, table, lifted)[-1]["waiting_for"] == "a play"
    restarted = create_app({"TESTING": True, "INSTANCE_PATH": app.instance_path})
    for server in (service, restarted.extensions["tileref"].table):
        table = server.live_table(game_id)
        astray = lay(server, game_id, table, {**played, "K9": "Zv", "J9": "Iv"})
        assert astray["reason"] == "not-in-line"
    put_back = lay(server, game_id, table, played)
    assert put_back["legal"] and put_back["words"][0]["word"] == "DO"


def test_a_correction_rejudges_and_stays_fixed(app, client, make_game):
    game_id, auth = make_game()
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    misread = {**CAT_S, "I15": "I^"}                   # the camera reads CAI
    verdict = lay(service, game_id, table, misread)
    assert verdict["legal"] is False and verdict["reason"] == "not-in-word-list"
    fixed = tap(client, game_id, auth, "I15", "T^")
    assert fixed["verdict"]["legal"] is True
    assert fixed["state"]["to_move"] == "N"
    # The camera still sees CAI: the correction holds and nothing is judged again.
    later = play_readings(service, game_id, table, misread, times=3)
    assert all(answer["verdict"] is None for answer in later)
    assert later[-1]["waiting_for"] == "a play"
    assert len(service.state(game_id)["history"]) == 2  # the misread, then the corrected play


def test_correcting_an_accepted_camera_play_replaces_it(app, client, make_game):
    game_id, auth = make_game()
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    lay(service, game_id, table, {"G15": "C^", "H15": "A^", "I15": "B^"})  # CAB
    result = tap(client, game_id, auth, "I15", "T^")
    state = result["state"]
    assert [v["words"][0]["word"] for v in state["moves"] if v["legal"]] == ["CAT"]
    assert state["to_move"] == "N"


@pytest.mark.slow
def test_frames_route_waits_for_a_steady_view(client, make_game, frames):
    game_id, auth = make_game()
    url = f"/api/games/{game_id}/frames"
    first = client.post(url, data=jpeg(frames["board"]), headers=auth, content_type="image/jpeg")
    assert first.status_code == 200
    assert first.get_json()["waiting_for"] == "a steady view"
    assert first.get_json()["reading"] is None
    answers = [client.post(url, data={"image": (__import__("io").BytesIO(jpeg(frames["board"])),
                                                "frame.jpg")}, headers=auth,
                           content_type="multipart/form-data").get_json() for _ in range(3)]
    # Steady now: the reader ran (a reading, or a clear word that the board was not found).
    assert any(a["reading"] is not None or a["waiting_for"] == "a view of the whole board"
               for a in answers)
    hand = client.post(url, data=jpeg(frames["hand"]), headers=auth,
                       content_type="image/jpeg").get_json()
    assert hand["waiting_for"] == "a steady view" and hand["reading"] is None
    assert hand["detail"] in ("a hand is over the board", "the picture is changing")


@pytest.mark.parametrize("data", [b"not an image at all", b"\xff\xd8\xff\xe0" + b"\x00" * 100,
                                  b"\x89PNG\r\n\x1a\n" + b"\x00" * 30, "truncated", "huge"])
def test_bad_frames_are_refused_and_change_nothing(client, make_game, frames, huge_png, data):
    if data == "truncated":
        whole = jpeg(frames["board"])
        data = whole[: len(whole) // 2]
    elif data == "huge":
        data = huge_png
    game_id, auth = make_game()
    response = client.post(f"/api/games/{game_id}/frames", data=data, headers=auth,
                           content_type="image/jpeg")
    assert response.status_code == 400
    assert set(response.get_json()) == {"error"}
    assert client.get(f"/api/games/{game_id}").get_json()["history"] == []


@pytest.mark.slow
def test_server_camera_feeds_the_game_opened_last(app, client, make_game, frames, tmp_path):
    """``--camera``: the server's own capture thread, here reading a recorded video file."""
    from webui.camera import ServerCamera

    path = tmp_path / "table.avi"
    height, width = frames["board"].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (width, height))
    for _ in range(3):
        writer.write(frames["board"])
    writer.release()
    game_id, auth = make_game()
    assert client.get(f"/games/{game_id}").status_code == 200   # opened on a screen
    service = app.extensions["tileref"].table
    camera = ServerCamera(str(path), service.feed_active_game, interval=0.0)
    camera.start()
    assert camera.finished.wait(60)
    camera.stop()
    frame = client.get(f"/api/games/{game_id}/frame.jpg", headers=auth)
    assert frame.status_code == 200 and frame.data[:3] == b"\xff\xd8\xff"
    assert service.state(game_id)["live"]["waiting_for"] in (
        "a steady view", "a play", "a view of the whole board")


def test_undo_of_a_camera_play_waits_for_the_tiles_to_go(app, client, make_game):
    """Hands-free, a board still on the table after Undo is not played again by itself."""
    game_id, auth = make_game(dict(TWO_PLAYERS, options={"commit": "auto", "settle_s": 0}))
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    assert play_readings(service, game_id, table, CAT_S)[-1]["verdict"]["legal"]
    state = client.post(f"/api/games/{game_id}/undo", headers=auth).get_json()
    assert state["to_move"] == "S" and state["moves"] == []
    # CAT is still on the table: the camera must not play it again by itself.
    assert all(a["verdict"] is None for a in play_readings(service, game_id, table, CAT_S, 3))
    play_readings(service, game_id, table, {}, 3)            # the tiles are taken back
    again = play_readings(service, game_id, table, CAT_S)[-1]  # and put down again
    assert again["verdict"]["legal"] is True


def test_typed_move_keeps_tiles_to_lift_listed(app, client, make_game):
    position = {"G7": "A^", "H7": "T^", "J8": "Dv", "I8": "Ov", "H8": "Gv", "I9": "Nv"}
    game_id, auth = make_game(dict(TWO_PLAYERS, position={
        "board": format_board_text(tiles_of(position)), "to_move": "S"}))
    client.post(f"/api/games/{game_id}/moves", headers=auth,
                json={"player": "S", "word": "TO", "at": "H7", "dir": "down"})
    client.post(f"/api/games/{game_id}/moves", headers=auth, json={"player": "N", "pass": True})
    assert client.get(f"/api/games/{game_id}").get_json()["pending_remove"] == ["J8"]


def test_a_correction_after_typed_moves_starts_from_the_games_board(app, client, make_game):
    """The camera's misread CAI was superseded by a typed CAT: fixing J15 must not bring it back."""
    game_id, auth = make_game()
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    misread = lay(service, game_id, table, {**CAT_S, "I15": "I^"})
    assert misread["legal"] is False
    for move in ({"player": "S", "word": "CAT", "at": "G15", "dir": "across"},
                 {"player": "N", "pass": True}):
        assert client.post(f"/api/games/{game_id}/moves", headers=auth, json=move).json["legal"]
    fixed = tap(client, game_id, auth, "J15", "S^")
    assert fixed["verdict"]["legal"] is True, fixed["verdict"]
    assert fixed["verdict"]["words"][0]["word"] == "CATS"
    assert fixed["state"]["last_reading"].split("\n")[14].split() == (
        ". . . . . . C^ A^ T^ S^ . . . . .".split())


def test_a_blank_is_designated_by_a_correction_and_stays_designated(app, client, make_game):
    game_id, auth = make_game()
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    seen = {**CAT_S, "H15": "?^"}                      # the camera sees a blank: which letter?
    verdict = lay(service, game_id, table, seen)
    assert verdict["legal"] is False and verdict["reason"] == "blank-undesignated"
    assert "H15" in verdict["message"]
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Tap H15 to name the blank there" in html
    # The refused reading is drawn dashed over the game's board, so the blank can be tapped.
    assert re.search(r'<g class="cell mark-seen[^"]*" data-cell="H15" data-tile="\?\^"', html)
    assert re.search(r'<g class="cell mark-seen[^"]*" data-cell="G15" data-tile="C\^"', html)
    fixed = tap(client, game_id, auth, "H15", "a^")
    assert fixed["verdict"]["legal"] is True
    assert fixed["verdict"]["words"][0]["word"] in ("CaT", "CAT")
    assert "a^" in fixed["state"]["board"].split()
    assert fixed["state"]["strength"]["S"] == 4         # a blank is worth nothing
    later = play_readings(service, game_id, table, seen, times=3)  # still looks like a blank
    assert all(answer["verdict"] is None for answer in later)
    assert later[-1]["waiting_for"] == "a play"
    assert service.state(game_id)["corrections"][-1] == {
        "seq": 2, "cell": "H15", "tile": "a^", "source": "player"}


@pytest.mark.slow
def test_a_blank_the_camera_missed_is_asked_for_on_the_gap_it_leaves(app, client, make_game):
    """South plays C, a blank and T; the camera sees no tile on the blank's square. The table
    names the gap, rings it on the board, and a tap there puts the blank in."""
    game_id, auth = make_game()
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    missed = {"G15": "C^", "I15": "T^"}
    verdict = lay(service, game_id, table, missed)
    assert verdict["reason"] == "not-in-line" and verdict["gaps"] == ["H15"]
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Is there a tile on H15?" in html
    assert ringed(html) == ["H15"]
    fixed = tap(client, game_id, auth, "H15", "a^")
    assert fixed["verdict"]["legal"] is True
    assert fixed["verdict"]["words"][0]["word"] in ("CaT", "CAT")
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Is there a tile on" not in html and '<rect class="check"' not in html
    # The next frames, which still do not show the blank, are the game's board: no new play.
    again = play_readings(service, game_id, table, missed, times=3)
    assert [answer["verdict"] for answer in again] == [None, None, None]
    # The frames read before the tap do not count: not "the last reading was judged".
    assert [answer["detail"] for answer in again] == [
        "checking the reading against the next frames", "", ""]
    assert service.state(game_id)["to_move"] == "N"


def test_a_blank_read_facing_another_seat_is_the_movers_and_stays_the_games(app, client,
                                                                            make_game):
    """A blank has no letter to turn, so the camera's rotation for it is a guess. South's new
    blank read facing North is still South's play, and once named, later frames that read it
    facing West or North again change nothing."""
    game_id, auth = make_game()
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    seen = {**CAT_S, "H15": "?v"}                      # South's blank, read facing North
    verdict = lay(service, game_id, table, seen)
    assert verdict["reason"] == "blank-undesignated", verdict
    assert verdict["player"] == "S" and "H15" in verdict["message"]
    fixed = tap(client, game_id, auth, "H15", "a^")
    assert fixed["verdict"]["legal"] is True and fixed["verdict"]["player"] == "S"
    for guess in ("?<", "?v", "?^"):
        later = play_readings(service, game_id, table, {**CAT_S, "H15": guess}, times=3)
        assert all(answer["verdict"] is None for answer in later), (guess, later)
        assert later[-1]["waiting_for"] == "a play"
    assert "a^" in service.state(game_id)["board"].split()


def test_a_blank_keeps_the_rotation_the_game_knows_and_a_new_one_faces_the_mover() -> None:
    known = tiles_of({"H8": "a>", "I8": "B^"})
    seen = tiles_of({"H8": "?v", "I8": "B^", "J8": "?<", "K8": "Cv"})
    settled = live.blanks_as_placed(seen, known, mover_rotation=0)
    assert settled == tiles_of({"H8": "?>", "I8": "B^", "J8": "?^", "K8": "Cv"})


def test_camera_side_chosen_at_set_up_is_used_to_judge(app, client):
    """The new-game form's camera side: a camera at North's side sees South's CAT upside down
    on the top row of its picture, and the referee still judges it as South's CAT."""
    response = client.post("/games", data={
        "ruleset": "archipelago", "name0": "Ann", "name1": "Bo", "seat0": "", "seat1": "",
        "wordlist": "enable", "camera_side": "N"})
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game_id}").get_json()["camera_side"] == "N"
    service = app.extensions["tileref"].table
    as_the_camera_sees_it = {"I1": "Cv", "H1": "Av", "G1": "Tv"}
    verdict = lay(service, game_id, service.live_table(game_id), as_the_camera_sees_it)
    assert verdict["legal"] is True and verdict["player"] == "S"
    assert verdict["words"][0] == {"word": "CAT", "cells": ["G15", "H15", "I15"], "value": 5}


def doubting(spec: dict[str, str], *, maybe_tiles: tuple[str, ...] = (),
             confidence: dict[str, float] | None = None) -> BoardReading:
    """A reading of ``spec`` that doubts itself as the reader does: warnings on empty cells that
    may hold a tile, and letters read less surely."""
    return reading(spec, tuple(unsure_whether_tile(Cell.parse(cell)) for cell in maybe_tiles),
                   confidence)


def test_a_blank_the_camera_may_have_missed_at_a_words_end_is_asked_for(app, client, make_game):
    """South plays C, A, T and a blank S on J15; the camera sees CAT, a legal word, and doubts
    J15. While the table waits for North it asks about J15 and rings it; a tap there makes the
    play CATS, judged again as South's."""
    game_id, auth = make_game()
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    seen = doubting(CAT_S, maybe_tiles=("J15", "B3"))
    [judge(service, game_id, table, seen) for _ in range(2)]
    verdict = done(service, game_id)["verdict"]
    assert verdict["legal"] and verdict["words"][0]["word"] == "CAT"
    question = ("is there a tile on J15, next to CAT? A blank can look like its square: "
                "tap J15 to add it")
    later = judge(service, game_id, table, seen)
    assert later["waiting_for"] == "a play" and later["detail"] == question
    panel = client.get(f"/games/{game_id}/panel").get_data(as_text=True)
    assert "is there a tile on J15, next to CAT?" in panel
    assert ringed(panel) == ["J15"]
    fixed = tap(client, game_id, auth, "J15", "s^")
    assert fixed["verdict"]["legal"] is True
    assert fixed["verdict"]["words"][0]["cells"] == ["G15", "H15", "I15", "J15"]
    state = fixed["state"]
    assert [v["player"] for v in state["moves"] if v["legal"]] == ["S"] and state["to_move"] == "N"
    # The camera still sees no tile there: the game keeps its blank, and asks no more (the
    # frames read before the tap no longer outvote it).
    again = [judge(service, game_id, table, seen) for _ in range(3)]
    assert [answer["verdict"] for answer in again] == [None, None, None]
    assert again[-1]["waiting_for"] == "a play" and again[-1]["detail"] == ""


def test_only_a_doubt_at_either_end_of_the_last_word_is_asked_about() -> None:
    cat = ("CAT", ["G15", "H15", "I15"])
    def doubt(*cells: str) -> list[ReadingWarning]:
        return [unsure_whether_tile(Cell.parse(cell)) for cell in cells]
    assert live.word_end_doubts(doubt("F15", "J15", "H14"), "S", cat[1]) == ["F15", "J15"]
    asked = live.waiting_detail(doubt("F15", "J15"), "S", cat)
    assert asked.text.startswith("is there a tile on F15 or J15, next to CAT?")
    assert asked.cells == ("F15", "J15")
    assert live.waiting_detail(doubt("H14", "K15"), "S", cat) == live.Detail()
    down = ["H7", "H8", "H9"]
    assert live.word_end_doubts(doubt("H6", "H10", "G8"), "S", down) == ["H6", "H10"]
    # A camera at North names the South view's J15 as F1.
    assert live.word_end_doubts(doubt("F1"), "N", cat[1]) == ["J15"]
    assert live.word_end_doubts(doubt("A15", "O15"), "S", ["A15", "B15"]) == []
    assert live.word_end_doubts(doubt("G14"), "S", ["G15"]) == []


def test_a_tile_the_camera_doubts_but_the_game_knows_stays_on_the_board(app, make_game):
    """A blank the colour of its square, read as empty, with a doubt or without: the game's
    blank stands, and no play is made up. A letter read as empty without a doubt is missing."""
    position = {"G15": "C^", "H15": "a^", "I15": "T^"}      # H15: a blank played as A
    spec = dict(TWO_PLAYERS, position={"board": format_board_text(tiles_of(position)),
                                       "to_move": "N"}, table={"camera_side": "W"})
    game_id, _ = make_game(spec)
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    # The camera sits at West's side: it names cells and arrows in its own view.
    seen_by_camera = {cell.name: tile.token for cell, tile in
                      live.to_camera_frame(tiles_of(position), "W").items()}
    blank_there = live.to_camera_frame(tiles_of({"H15": "a^"}), "W")
    blank_cell = next(iter(blank_there)).name
    without_blank = {cell: token for cell, token in seen_by_camera.items() if cell != blank_cell}

    answers = [judge(service, game_id, table, doubting(without_blank,
                                                              maybe_tiles=(blank_cell,)))
               for _ in range(2)]
    assert [a["kept"] for a in answers] == [[blank_cell], [blank_cell]]
    assert answers[-1]["waiting_for"] == "a play" and answers[-1]["verdict"] is None
    assert service.state(game_id)["history"] == []

    table.fusion.clear()
    sure = [judge(service, game_id, table, doubting(without_blank)) for _ in range(2)]
    assert [a["kept"] for a in sure] == [[blank_cell], [blank_cell]]
    assert sure[-1]["verdict"] is None and service.state(game_id)["history"] == []

    c_cell = next(iter(live.to_camera_frame(tiles_of({"G15": "C^"}), "W"))).name
    without_c = {cell: token for cell, token in seen_by_camera.items() if cell != c_cell}
    table.fusion.clear()
    sure = [judge(service, game_id, table, doubting(without_c)) for _ in range(2)]
    assert sure[-1]["verdict"] is None and sure[-1]["provisional"]["placed"] == []
    verdict = done(service, game_id)["verdict"]
    assert sure[-1]["kept"] == [] and verdict["legal"] is False
    assert verdict["reason"] == "board-mismatch"
    assert verdict["unexpected"][0]["cell"] == "G15"


def test_a_letter_misread_unsurely_is_the_known_tile_and_a_sure_one_is_a_change(app, make_game):
    position = {"G15": "Q^", "H15": "I^", "I15": "T^"}
    game_id, _ = make_game(dict(TWO_PLAYERS, position={
        "board": format_board_text(tiles_of(position)), "to_move": "N"}))
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    misread = {**position, "G15": "O^"}          # a dim Q's tail lost
    unsure = [judge(service, game_id, table, doubting(misread, confidence={"G15": 0.5}))
              for _ in range(2)]
    assert unsure[-1]["kept"] == ["G15"] and unsure[-1]["verdict"] is None
    assert unsure[-1]["waiting_for"] == "a play"
    table.fusion.clear()
    sure = [judge(service, game_id, table, doubting(misread, confidence={"G15": 0.97}))
            for _ in range(2)]
    assert sure[-1]["provisional"]["placed"] == ["G15"]
    assert done(service, game_id)["verdict"]["reason"] == "board-mismatch"
    # North's new word is still judged as North's, with the known tiles settled around it.
    table.fusion.clear()
    played = {**misread, "I1": "Nv", "H1": "Ov"}         # NO on North's home row
    answer = [judge(service, game_id, table, doubting(played, confidence={"G15": 0.5}))
              for _ in range(2)][-1]
    assert answer["kept"] == ["G15"]
    verdict = done(service, game_id)["verdict"]
    assert verdict["legal"] is True and verdict["player"] == "N"


@pytest.mark.slow
def test_a_real_photo_of_a_game_in_progress_keeps_the_blank_the_camera_doubts(client, make_game):
    """The last photo of the jheidel game, sent as camera frames to a scrabble game that holds
    the board of the photo before: the reader misses the wooden blank on O10 (grey square) but
    doubts it, so the game's blank stands and nothing is reported missing."""
    from lab.eval_reading import known_board
    from lab.truth import DEV_PHOTOS, corrected_grid, load_errata, read_truth

    name = "jheidel__scrabble-opencv__IMG_20151016_{}.jpg"
    before = DEV_PHOTOS / name.format("170755")
    board = {cell: Tile("E" if tile.blank else tile.letter, tile.blank, None)
             for cell, tile in known_board(corrected_grid(
                 read_truth(before), load_errata().get(before.name, {}))).items()}
    assert board[Cell.parse("O10")].blank
    game_id, auth = make_game({"ruleset": "scrabble", "players": [{"name": "Ann"}, {"name": "Bo"}],
                               "position": {"board": format_board_text(board), "to_move": "Ann"}})
    photo = (DEV_PHOTOS / name.format("170803")).read_bytes()
    answers = []
    for _ in range(6):
        answers.append(client.post(f"/api/games/{game_id}/frames", data=photo, headers=auth,
                                   content_type="image/jpeg").get_json())
        if answers[-1]["waiting_for"] == "a play":
            break
    last = answers[-1]
    assert last["waiting_for"] == "a play", last["detail"]
    assert last["verdict"] is None and "O10" in last["kept"]
    assert "unsure whether O10 holds a tile (read as empty)" in last["reading"]["warnings"]
    assert "O10" not in {cell["cell"] for cell in last["reading"]["cells"]}


@pytest.mark.slow
def test_the_camera_reads_a_game_with_its_own_tile_set(client, make_game):
    """A Polish game's frames are read with the Polish letters (the real Polish board)."""
    from lab.truth import DEV_PHOTOS

    photo = (DEV_PHOTOS / "kristopalka__scrabble-solver__red_boards_013.jpg").read_bytes()
    letters: dict[str, set[str]] = {}
    for tiles in ("polish", "english"):
        game_id, auth = make_game(dict(TWO_PLAYERS, options={"tiles": tiles}))
        for _ in range(6):
            answer = client.post(f"/api/games/{game_id}/frames", data=photo, headers=auth,
                                 content_type="image/jpeg").get_json()
            if answer["reading"] is not None:
                break
        assert answer["reading"] is not None, answer["detail"]
        letters[tiles] = {cell["letter"] for cell in answer["reading"]["cells"]}
    assert len(letters["polish"] & set("ĄĆĘŁŃÓŚŹŻ")) >= 4
    assert not letters["english"] & set("ĄĆĘŁŃÓŚŹŻ")


@pytest.mark.slow
def test_a_camera_too_far_from_the_board_is_told_so_while_waiting(client, make_game):
    """An empty board's frame a third of its size (17 px a cell): the referee still reads it
    and waits for a play, and says why the reading may go wrong while the camera can still be
    moved. A frame of the full size says nothing."""
    from lab.truth import DEV_PHOTOS

    image = cv2.imread(str(DEV_PHOTOS / "jheidel__scrabble-opencv__IMG_20151016_165308.jpg"))
    details = {}
    for scale in (1.0, 0.3):
        game_id, auth = make_game()
        frame = jpeg(cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))
        for _ in range(6):
            answer = client.post(f"/api/games/{game_id}/frames", data=frame, headers=auth,
                                 content_type="image/jpeg").get_json()
            if answer["waiting_for"] == "a play":
                break
        assert answer["waiting_for"] == "a play", answer["detail"]
        details[scale] = answer["detail"]
    assert details[1.0] == ""
    assert re.fullmatch(r"board small in the photo \(cells 1\d px across, 20 or more read best\): "
                        r"move the camera closer or use a larger photo", details[0.3])


def test_a_tile_half_off_its_square_is_told_while_waiting_in_the_south_view(app, client,
                                                                            make_game):
    """The camera at West reads a tile half on the next square: while the table waits for a
    play it is told to straighten it, the cell named as the players' board names it. A camera
    too far from the board is told first; with nothing to put right nothing is said."""
    south = tiles_of(CAT_S)
    game_id, _ = make_game(dict(TWO_PLAYERS, table={"camera_side": "W"}, position={
        "board": format_board_text(south), "to_move": "N"}))
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    seen = {cell.name: tile.token for cell, tile in live.to_camera_frame(south, "W").items()}
    t_cell = next(iter(live.to_camera_frame(tiles_of({"I15": "T^"}), "W"))).name
    off = off_its_square(Cell.parse(t_cell))
    assert off.message == f"tile off its square on {t_cell} (half on the next one: read as " \
                          f"{t_cell}'s)"
    data = reading(seen, (off,))
    answer = [judge(service, game_id, table, data) for _ in range(2)][-1]
    assert answer["waiting_for"] == "a play" and answer["verdict"] is None
    assert answer["detail"] == "a tile lies half off its square on I15: push it onto its square"
    assert t_cell != "I15"  # the camera's own name for it is not the players'
    assert service.state(game_id)["live"]["detail"] == answer["detail"]
    assert service.state(game_id)["live"]["detail_cells"] == ["I15"]
    # The referee board rings the square it names, and no other.
    panel = client.get(f"/games/{game_id}/panel").get_data(as_text=True)
    assert ringed(panel) == ["I15"]

    small = small_board(15, 20, "move closer")
    assert small.message == ("board small in the photo (cells 15 px across, 20 or more read "
                             "best): move closer")
    assert live.waiting_detail([off, small], "W") == live.Detail(small.message)
    assert live.waiting_detail([off, off_its_square(Cell.parse("A1"))], "S") == live.Detail(
        f"tiles lie half off their squares on {t_cell}, A1: push them onto their squares",
        (t_cell, "A1"))
    assert live.waiting_detail([unsure_whether_tile(Cell.parse("K3"))], "S") == live.Detail()


def test_the_table_finds_its_squares_by_code_whatever_the_warnings_say(app, make_game) -> None:
    """Rewording a warning changes what the table reads, never which squares it names: the
    camera's doubts and the tiles half off their squares are found by code and cells."""
    cat = ("CAT", ["G15", "H15", "I15"])
    odd = [ReadingWarning("unsure-whether-tile", (Cell.parse("J15"),), "J15: tile or not?"),
           ReadingWarning("off-square", (Cell.parse("B2"),), "B2 wanders")]
    assert live.word_end_doubts(odd, "S", cat[1]) == ["J15"]
    assert live.waiting_detail(odd, "S", cat).cells == ("J15",)
    assert live.waiting_detail(odd, "S").cells == ("B2",)
    # A game knowing a tile on J15 keeps it where a frame reads the square as empty but says,
    # in whatever words, that it may hold one.
    south = tiles_of(dict(CAT_S, J15="S^"))
    game_id, _ = make_game(dict(TWO_PLAYERS, position={"board": format_board_text(south),
                                                       "to_move": "N"}))
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    seen = reading(CAT_S, tuple(odd[:1]))
    answer = [judge(service, game_id, table, seen) for _ in range(2)][-1]
    assert answer["kept"] == ["J15"]


@pytest.mark.slow
def test_a_hand_held_still_over_the_board_is_waited_out_not_read(client, make_game):
    """A still frame with a hand over the board is steady, but the referee does not read a
    board with a hole in it: it waits for a clear view and says why."""
    from pathlib import Path

    sample = Path(__file__).resolve().parents[1] / "samples" / "photos" / "hand-over-board.jpg"
    game_id, auth = make_game()
    for _ in range(6):
        answer = client.post(f"/api/games/{game_id}/frames", data=sample.read_bytes(),
                             headers=auth, content_type="image/jpeg").get_json()
        if answer["waiting_for"] != live.WAIT_STEADY:
            break
    assert answer["waiting_for"] == live.WAIT_BOARD
    assert answer["detail"].startswith("something lies over ")
    assert answer["verdict"] is None and answer["reading"] is None


def test_a_phantom_tile_corrected_away_stays_away_and_its_refusal_is_withdrawn(app, client,
                                                                                make_game):
    """The issue's D1: an empty square read as a blank. South lays CAT; the refusal the phantom
    causes is withdrawn when a player taps D1 empty, CAT is judged, and the phantom, read
    again (facing whoever is to move, or as a faint letter), makes no play nobody made. A tile
    read surely on D1 is a real change."""
    game_id, auth = make_game(dict(TWO_PLAYERS, options={"commit": "auto", "settle_s": 0}))
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    phantom = {**CAT_S, "D1": "?^"}
    refused = play_readings(service, game_id, table, phantom)[-1]["verdict"]
    assert refused["legal"] is False and refused["reason"] == "not-in-line"
    fixed = tap(client, game_id, auth, "D1", None)
    assert fixed["verdict"]["legal"] is True and fixed["verdict"]["words"][0]["word"] == "CAT"
    history = fixed["state"]["history"]
    assert history[0]["withdrawn"] == {"by": 2, "cell": "D1", "seen": "?^", "tile": None}
    assert [entry["legal"] for entry in history] == [False, True]
    panel = client.get(f"/games/{game_id}/panel").get_data(as_text=True)
    assert ("Withdrawn: Ann (South)&#39;s refused play, misread on D1." in panel
            and "The camera saw a blank on D1; the players said it is an empty square." in panel)
    # North to move: the phantom reads as North's blank now, then as an unsure letter.
    for token, confidence in (("?v", 1.0), ("?^", 1.0), ("Ov", 0.5)):
        later = [judge(service, game_id, table, reading(
            {**CAT_S, "D1": token}, confidence={"D1": confidence})) for _ in range(3)]
        assert [answer["verdict"] for answer in later] == [None] * 3, token
        assert "provisional" not in later[-1]
    assert len(service.state(game_id)["history"]) == 2
    # North puts HORSE down, its E a real tile on D1, read surely: North's play, judged.
    horse = {"H1": "Hv", "G1": "Ov", "F1": "Rv", "E1": "Sv", "D1": "Ev"}
    real = [judge(service, game_id, table, reading({**CAT_S, **horse})) for _ in range(2)][-1]
    assert real["verdict"]["legal"] is True and real["verdict"]["player"] == "N"
    assert real["verdict"]["words"][0]["word"] == "HORSE"


def test_a_correction_of_a_play_being_laid_is_not_judged(app, client, make_game):
    """North is laying DOG; the camera reads the O as a Q. The tap fixes what the table shows,
    nothing is judged until Done, and the camera's Q stays an O."""
    position = tiles_of(CAT_S)
    game_id, auth = make_game(dict(TWO_PLAYERS, position={
        "board": format_board_text(position), "to_move": "N"}))
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    misread = {**CAT_S, "I1": "Dv", "H1": "Qv", "G1": "Gv"}
    laying = play_readings(service, game_id, table, misread)[-1]
    assert laying["provisional"]["words"] == ["DQG"]
    answer = tap(client, game_id, auth, "H1", "Ov")
    assert answer["verdict"] is None
    assert answer["state"]["live"]["provisional"]["words"] == ["DOG"]
    assert answer["state"]["history"] == [] and answer["state"]["last_reading"] is None
    again = play_readings(service, game_id, table, misread)[-1]
    assert again["provisional"]["words"] == ["DOG"] and again["verdict"] is None
    verdict = done(service, game_id)["verdict"]
    assert verdict["legal"] is True and verdict["words"][0]["word"] == "DOG"
    assert [c["cell"] for c in service.state(game_id)["corrections"]] == ["H1"]


def test_hold_corrections_until_a_sure_change() -> None:
    overrides = {Cell.parse("D1"): ("?^", None), Cell.parse("J15"): (None, "s^")}
    doubts = live.Doubts(frozenset({Cell.parse("K15")}), {Cell.parse("D1"): 0.5})
    held = live.hold_corrections(tiles_of({"D1": "Qv"}), overrides, doubts, "S")
    assert held == tiles_of({"J15": "s^"})            # an unsure Q: still the phantom
    sure = live.Doubts(frozenset(), {Cell.parse("D1"): 0.95})
    assert live.hold_corrections(tiles_of({"D1": "Qv", "J15": "E^"}), overrides, sure,
                                 "S") == tiles_of({"D1": "Qv", "J15": "E^"})
    # The camera at North names D1 as L15: its doubts are in its own view.
    from_north = live.Doubts(frozenset(), {Cell.parse("L15"): 0.5})
    assert live.hold_corrections(tiles_of({"D1": "Qv"}), overrides, from_north, "N") == \
        tiles_of({"J15": "s^"})


CAPTURE = {"G7": "A^", "H7": "T^", "J8": "Dv", "I8": "Ov", "H8": "Gv", "I9": "Nv"}
"""RULES.md's worked example: South's TO down from H7 takes North's G on H8, captures DOG,
and J8 is lifted off."""


def test_undo_of_a_capture_lists_the_tiles_to_put_back_and_sees_them_back(app, client,
                                                                          make_game):
    game_id, auth = make_game(dict(TWO_PLAYERS, position={
        "board": format_board_text(tiles_of(CAPTURE)), "to_move": "S"}))
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    played = {**CAPTURE, "H8": "O^"}
    assert lay(service, game_id, table, played)["remove"] == ["J8"]
    lifted = {cell: token for cell, token in played.items() if cell != "J8"}
    assert play_readings(service, game_id, table, lifted)[-1]["waiting_for"] == "a play"
    state = client.post(f"/api/games/{game_id}/undo", headers=auth).get_json()
    assert state["restore"] == [{"cell": "H8", "tile": "Gv"}, {"cell": "J8", "tile": "Dv"}]
    assert state["waiting_for"] == "tiles to be put back" and state["to_move"] == "S"
    assert state["undone"]["verdict"]["words"][0]["word"] == "TO"
    panel = client.get(f"/games/{game_id}/panel").get_data(as_text=True)
    assert "Taken back: Ann (South)&#39;s TO." in panel and "Put these tiles back" in panel
    assert "Put back Bo (North)&#39;s G on H8 and Bo (North)&#39;s D on J8" in panel
    # The camera still sees the capture: it waits, says what to put back, and rings it.
    waiting = play_readings(service, game_id, table, lifted)[-1]
    assert waiting["waiting_for"] == "tiles to be put back" and "provisional" not in waiting
    assert waiting["detail"] == "put back Bo (North)'s G on H8 and Bo (North)'s D on J8"
    assert service.state(game_id)["live"]["detail_cells"] == ["H8", "J8"]
    from webui.errors import Conflict
    with pytest.raises(Conflict, match="put back .* first"):
        done(service, game_id)
    half = play_readings(service, game_id, table, {**lifted, "H8": "Gv"})[-1]
    assert half["detail"] == "put back Bo (North)'s D on J8"
    back = play_readings(service, game_id, table, CAPTURE)[-1]
    assert back["waiting_for"] == "a play" and "provisional" not in back
    state = service.state(game_id)
    assert state["restore"] == [] and state["waiting_for"] == "a play"
    assert [entry["legal"] for entry in state["history"]] == []
    assert lay(service, game_id, table, played)["legal"] is True     # South plays it again


def test_tiles_put_back_can_be_confirmed_by_hand(client, make_game):
    game_id, auth = make_game(dict(TWO_PLAYERS, position={
        "board": format_board_text(tiles_of(CAPTURE)), "to_move": "S"}))
    url = f"/api/games/{game_id}"
    assert client.post(f"{url}/restored", headers=auth).status_code == 409
    client.post(f"{url}/moves", headers=auth, json={"player": "S", "word": "TO", "at": "H7",
                                                     "dir": "down"})
    assert client.post(f"{url}/undo", headers=auth).get_json()["restore"] == [
        {"cell": "H8", "tile": "Gv"}, {"cell": "J8", "tile": "Dv"}]
    assert client.post(f"{url}/restored").status_code == 401
    state = client.post(f"{url}/restored", headers=auth).get_json()
    assert state["restore"] == [] and state["waiting_for"] == "a play"


@pytest.mark.parametrize("spec, moves", [
    ({"ruleset": "colonization", "players": [{"name": "Ann"}, {"name": "Bo"}],
      "options": {"seed": 3}},
     [{"player": "Ann", "language": "FLORBIX"}, {"player": "Bo", "language": "QUENDAR"}]),
    ({"ruleset": "firstdraft", "players": [{"name": "Ann"}, {"name": "Bo"}],
      "options": {"seed": 5, "line": ["CAT", "OX", "E", "SOFT", "JUMPY"]}},
     [{"player": "Ann", "coaster": 1}]),
])
def test_undo_takes_back_a_move_in_every_ruleset(client, make_game, spec, moves):
    game_id, auth = make_game(spec)
    url = f"/api/games/{game_id}"
    before = client.get(url).get_json()
    for move in moves:
        assert client.post(f"{url}/moves", headers=auth, json=move).get_json()["legal"]
    state = client.post(f"{url}/undo", headers=auth).get_json()
    assert len(state["history"]) == len(moves) - 1
    assert state["undone"]["move"] == moves[-1]
    if len(moves) == 1:
        assert {key: state[key] for key in before if key not in ("version", "live", "undone")} \
            == {key: before[key] for key in before if key not in ("version", "live", "undone")}
    screen = client.get(f"/table/{game_id}").get_data(as_text=True)
    assert 'data-action="undo"' in screen
