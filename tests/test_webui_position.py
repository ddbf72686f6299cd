"""A game started from the tiles already on the table (FORMATS.md's ``position``).

The new-game form reads the board from a camera frame or a photo (``POST /api/position``),
shows it drawn, lets the players fix it, and starts the game with it; a frame that then shows
that position is no play.
"""

from __future__ import annotations

import io

import cv2
import pytest

from lab.render import RenderOptions, render_board_photo
from referee.boardtext import Tile, format_board_text, parse_board_text
from referee.cells import Cell
from vision import BoardReading, CellReading

ON_THE_TABLE = {"G15": "C^", "H15": "A^", "I15": "T^", "I1": "Dv", "H1": "Ov", "G1": "Gv",
                "J15": "S^", "F1": "Sv", "I14": "O^"}


def tiles_of(spec: dict[str, str]) -> dict[Cell, Tile]:
    return {Cell.parse(cell): Tile.parse(token) for cell, token in spec.items()}


def photo_of(spec: dict[str, str], turned: bool = False) -> bytes:
    """A rendered photo of the board from South's side (or, ``turned``, from North's)."""
    image = render_board_photo(tiles_of(spec), seed=12, width=1280, height=960,
                               options=RenderOptions(tilt=15.0, noise=0.5,
                                                     board_style="modern")).image
    if turned:
        image = cv2.rotate(image, cv2.ROTATE_180)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return data.tobytes()


def read(client, photo: bytes, **fields: str):
    return client.post("/api/position", data={"image": (io.BytesIO(photo), "table.jpg"),
                                               **fields}, content_type="multipart/form-data")


@pytest.mark.slow
def test_a_photo_of_the_table_is_read_as_the_position_in_the_south_view(client):
    """A camera at North's side sees the board upside down; the position is the South view."""
    answer = read(client, photo_of(ON_THE_TABLE, turned=True), ruleset="archipelago",
                  camera_side="N", seats="SN")
    assert answer.status_code == 200, answer.get_json()
    position = answer.get_json()
    assert parse_board_text(position["board"]) == tiles_of(ON_THE_TABLE)
    assert position["tiles"] == 9 and position["problems"] == [] and position["blockers"] == []
    assert position["board_svg"].startswith('<svg class="board interactive"')
    assert 'data-cell="I14" data-tile="O^"' in position["board_svg"]


def test_the_players_fixes_are_checked_again(client):
    board = tiles_of(ON_THE_TABLE) | {Cell.parse("H8"): Tile.parse("?^")}
    answer = client.post("/api/position", json={"board": format_board_text(board),
                                                "ruleset": "archipelago", "seats": "SN"})
    position = answer.get_json()
    assert position["blockers"] == ["the blank on H8 has no letter yet"]
    west = client.post("/api/position", json={"board": format_board_text(
        board | {Cell.parse("H8"): Tile.parse("e>")}), "ruleset": "archipelago",
        "seats": "SN"}).get_json()
    assert west["blockers"] == [] and any("West" in line or "H8" in line
                                          for line in west["problems"])
    scrabble = client.post("/api/position", json={"board": format_board_text(tiles_of(
        {"H8": "Q^", "I8": "I>"})), "ruleset": "scrabble-seed"}).get_json()
    assert parse_board_text(scrabble["board"]) == {Cell.parse("H8"): Tile("Q", False, None),
                                                   Cell.parse("I8"): Tile("I", False, None)}


@pytest.mark.parametrize("request_kwargs, refusal", [
    ({"json": {"board": "not a board"}}, "15"),
    ({"json": {"board": "\n".join(["." * 15] * 15), "ruleset": "chess"}},
     "unknown ruleset 'chess'"),
    ({"json": ["a list"]}, "send {'board'"),
    ({"data": {"image": (io.BytesIO(b"no picture"), "x.jpg")},
      "content_type": "multipart/form-data"}, "not an image"),
])
def test_bad_positions_are_refused_in_one_sentence(client, request_kwargs, refusal):
    answer = client.post("/api/position", **request_kwargs)
    assert answer.status_code == 400
    assert refusal in answer.get_json()["error"]


def new_game_form(**extra: str) -> dict[str, str]:
    return {"ruleset": "archipelago", "name0": "Ann", "name1": "Bo", "seat0": "", "seat1": "",
            "wordlist": "enable", "camera_side": "S", **extra}


def test_the_new_game_form_starts_from_the_position_read_and_fixed(app, client):
    response = client.post("/games", data=new_game_form(
        start_from="table", position_board=format_board_text(tiles_of(ON_THE_TABLE)),
        to_move="1"))
    assert response.status_code == 302, response.get_data(as_text=True)
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    state = client.get(f"/api/games/{game_id}").get_json()
    assert parse_board_text(state["board"]) == tiles_of(ON_THE_TABLE)
    assert state["to_move"] == "N" and state["strength"] == {"S": 6, "N": 6}
    # The camera sees the position: no play, nothing provisional.
    service = app.extensions["tileref"].table
    table = service.live_table(game_id)
    seen = BoardReading(tuple(CellReading(cell.name, tile.letter, tile.rotation or 0)
                              for cell, tile in tiles_of(ON_THE_TABLE).items()), ())
    answers = [service.judge_reading(game_id, table, seen).to_json() for _ in range(2)]
    assert answers[-1]["waiting_for"] == "a play" and "provisional" not in answers[-1]
    assert client.get(f"/api/games/{game_id}").get_json()["history"] == []


def test_a_position_with_an_unnamed_blank_is_not_started(client):
    board = tiles_of(ON_THE_TABLE) | {Cell.parse("H8"): Tile.parse("?^")}
    response = client.post("/games", data=new_game_form(
        start_from="table", position_board=format_board_text(board), to_move="0"))
    assert response.status_code == 400
    assert "the blank on H8 has no letter yet: tap the square" in response.get_data(as_text=True)
    assert client.get("/api/games").get_json()["games"] == []
    empty = client.post("/games", data=new_game_form(start_from="table", position_board=""))
    assert empty.status_code == 400 and client.get("/api/games").get_json()["games"] == []
