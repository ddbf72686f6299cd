"""The dispute page for people: the form stays on every error, the overlay's marks have a
legend, the board is tapped to correct it (``POST /api/position`` draws it again), a blank is
named as a blank."""

from __future__ import annotations

import io
import re

import cv2
import pytest

from lab.render import RenderOptions, render_board_photo
from referee.boardtext import Tile
from referee.cells import Cell

BOARD = {"G8": "C^", "H8": "a^", "I8": "T^"}


def photo() -> bytes:
    tiles = {Cell.parse(cell): Tile.parse(token) for cell, token in BOARD.items()}
    image = render_board_photo(tiles, seed=4, width=1024, height=768,
                               options=RenderOptions(tilt=10.0, noise=0.5,
                                                     board_style="modern")).image
    return cv2.imencode(".jpg", image)[1].tobytes()


def upload(client, data: bytes, **fields: str):
    return client.post("/dispute", data={"photo": (io.BytesIO(data), "board.jpg"), **fields},
                       content_type="multipart/form-data")


def test_a_bad_upload_keeps_the_form_and_says_why(client):
    for response, said in ((upload(client, b"no picture"), "not an image"),
                           (upload(client, photo(), tiles="klingon"), "unknown tile set"),
                           (client.post("/dispute", data={}), "choose a photo of the board")):
        html = response.get_data(as_text=True)
        assert response.status_code == 400
        assert 'id="upload-error"' in html and said in html
        assert 'name="photo"' in html and 'class="upload"' in html     # try again from here


def test_bad_corners_keep_the_form(client):
    location = upload(client, photo()).headers["Location"]
    response = client.get(location, query_string={"corners": "[[1, 2]]"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "corners must be four [x, y] points" in html and 'name="photo"' in html


@pytest.mark.slow
def test_the_overlays_legend_names_the_colours_it_is_drawn_in(client):
    from vision import overlay

    html = client.get(upload(client, photo()).headers["Location"]).get_data(as_text=True)
    legend = html[html.index('id="overlay-legend"'):]
    legend = legend[:legend.index("</ul>")]
    shown = set(re.findall(r"#([0-9a-f]{6})", legend))

    def hexed(bgr: tuple[int, int, int]) -> str:
        return "{:02x}{:02x}{:02x}".format(*reversed(bgr))

    assert shown == {hexed(colour) for colour in (overlay.GRID_BGR, overlay.SURE_BGR,
                                                  overlay.DOUBT_BGR, overlay.UNSURE_BGR)}
    for words in ("read surely", "doubtfully", "unsurely", "may hold a tile", "whose tile"):
        assert words in legend


@pytest.mark.slow
def test_the_dispute_board_is_tappable_and_drawn_again_when_fixed(client):
    html = client.get(upload(client, photo()).headers["Location"]).get_data(as_text=True)
    assert '<svg class="board interactive"' in html and 'id="fix-dialog"' in html
    assert "Tap a square to correct what was read there." in html
    assert re.search(r'data-cell="H8" data-tile="\?\^"', html)      # the blank, as read
    board = re.search(r'<textarea name="board"[^>]*>([^<]*)</textarea>', html).group(1)
    fixed = "\n".join(" ".join("a^" if (row, col) == (7, 7) else token
                               for col, token in enumerate(line.split()))
                      for row, line in enumerate(board.strip().split("\n")))
    drawn = client.post("/api/position", json={"board": fixed, "check": ["B2"]}).get_json()
    assert 'data-cell="H8" data-tile="a^"' in drawn["board_svg"]
    ringed = [re.search(r'data-cell="(\w+)"', square).group(1)
              for square in drawn["board_svg"].split('<g class="cell')[1:]
              if '<rect class="check"' in square]
    assert ringed == ["B2"]
    refused = client.post("/api/position", json={"board": fixed, "check": "B2"})
    assert refused.status_code == 400


@pytest.mark.slow
def test_a_dispute_judged_shows_the_fixed_board_and_the_play_apart(client):
    location = upload(client, photo()).headers["Location"]
    html = client.get(location).get_data(as_text=True)
    board = re.search(r'<textarea name="board"[^>]*>([^<]*)</textarea>', html).group(1)
    judged = client.post(location + "/judge", data={
        "ruleset": "archipelago", "player": "S", "word": "CATS", "at": "G8",
        "dir": "across", "board": board.replace("?^", "a^")}).get_data(as_text=True)
    assert "Legal: South played CATS, worth" in judged, judged
    assert 'id="judged-board"' in judged and 'id="dispute-board"' in judged
    assert judged.count('<svg class="board interactive"') == 1   # only the board to fix
