"""Disputes: one photo, no game. ``POST /api/read`` and the dispute pages on real photos."""

from __future__ import annotations

import html as html_text
import io
import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.truth import DEV_PHOTOS as PHOTOS
from lab.truth import read_truth
from referee.tiles import load_tile_set

PHOTO = PHOTOS / "jheidel__scrabble-opencv__IMG_20141025_163920.jpg"
CELL = r"\b[A-O](?:1[0-5]|[1-9])\b"
"""A square's name inside a warning."""
SECOND = PHOTOS / "DeclanFinerty__scrabble-vision__board_001.jpeg"


def assert_error(response, status: int) -> None:
    assert response.status_code == status, response.data[:300]
    body = response.get_json()
    assert set(body) == {"error"} and "\n" not in body["error"]


@pytest.mark.slow
@pytest.mark.photos
def test_read_a_real_photo_with_its_corners(client):
    truth = read_truth(PHOTO)
    assert truth.orientation == 0 and truth.corners
    corners = json.dumps([[round(x), round(y)] for x, y in truth.corners])
    response = client.post("/api/read", data={"image": (PHOTO.open("rb"), PHOTO.name),
                                              "corners": corners},
                           content_type="multipart/form-data")
    assert response.status_code == 200, response.data[:300]
    reading = response.get_json()
    for key in ("board", "cells", "corners", "warnings"):
        assert key in reading
    assert len(reading["board"].strip().splitlines()) == 15
    assert np.allclose(reading["corners"], truth.corners, atol=2)
    for cell in reading["cells"]:
        assert re.fullmatch(r"[A-O]([1-9]|1[0-5])", cell["cell"])


@pytest.mark.slow
@pytest.mark.photos
def test_read_a_raw_jpeg_body_finds_the_board_or_says_why(client):
    response = client.post("/api/read", data=SECOND.read_bytes(), content_type="image/jpeg")
    assert response.status_code in (200, 422)
    if response.status_code == 200:
        assert len(response.get_json()["corners"]) == 4
    else:
        assert_error(response, 422)


@pytest.mark.parametrize("data,content_type", [
    (b"hello, this is text", "image/jpeg"),
    (b"", "image/jpeg"),
    (b"%PDF-1.4 not an image", "application/pdf"),
])
def test_non_images_are_400(client, data, content_type):
    assert_error(client.post("/api/read", data=data, content_type=content_type), 400)


@pytest.mark.photos
def test_truncated_jpeg_is_400(client):
    data = PHOTO.read_bytes()
    assert_error(client.post("/api/read", data=data[: len(data) // 2],
                             content_type="image/jpeg"), 400)


def test_huge_image_dimensions_are_400(client, huge_png):
    response = client.post("/api/read", data=huge_png, content_type="image/png")
    assert_error(response, 400)
    assert "too big" in response.get_json()["error"]


def test_a_50_megapixel_phone_photo_is_within_the_photo_caps(client, app, make_game):
    """Disputes take a phone's full-resolution photo; live frames are capped far lower."""
    from tests.support.web import png_claiming

    fifty = png_claiming(8160, 6120)   # a 50 MP sensor's photo (this one's pixels are broken)
    response = client.post("/api/read", data=fifty, content_type="image/png")
    assert_error(response, 400)
    assert "too big" not in response.get_json()["error"]
    game_id, auth = make_game()
    frame = client.post(f"/api/games/{game_id}/frames", data=fifty, headers=auth,
                        content_type="image/png")
    assert_error(frame, 400)
    assert "too big" in frame.get_json()["error"]


@pytest.mark.slow
def test_photo_without_a_board_is_422(client):
    rng = np.random.default_rng(3)
    noise = cv2.GaussianBlur(rng.integers(0, 255, (480, 640, 3), dtype=np.uint8), (31, 31), 0)
    ok, data = cv2.imencode(".jpg", noise)
    assert ok
    assert_error(client.post("/api/read", data=data.tobytes(), content_type="image/jpeg"), 422)


def test_bad_corners_are_400(client):
    ok, data = cv2.imencode(".jpg", np.zeros((64, 64, 3), np.uint8))
    response = client.post("/api/read", data={"image": (io.BytesIO(data.tobytes()), "a.jpg"),
                                              "corners": "[[1, 2], [3]]"},
                           content_type="multipart/form-data")
    assert_error(response, 400)


def test_multipart_without_image_field_is_400(client):
    response = client.post("/api/read", data={"photo": (io.BytesIO(b"x"), "a.jpg")},
                           content_type="multipart/form-data")
    assert_error(response, 400)


@pytest.mark.slow
@pytest.mark.photos
def test_dispute_page_shows_overlay_board_and_judges(client):
    page = client.get("/dispute")
    assert page.status_code == 200 and b'name="photo"' in page.data
    upload = client.post("/dispute", data={"photo": (PHOTO.open("rb"), PHOTO.name)},
                         content_type="multipart/form-data")
    assert upload.status_code == 302
    location = upload.headers["Location"]
    truth = read_truth(PHOTO)
    corners = json.dumps([[round(x), round(y)] for x, y in truth.corners])
    shown = client.get(location, query_string={"corners": corners})
    assert shown.status_code == 200
    html = shown.get_data(as_text=True)
    assert 'src="data:image/png;base64,' in html        # the overlay
    assert html.count('class="cell') == 225              # the board, drawn
    judged = client.post(location + "/judge", data={
        "ruleset": "scrabble", "player": "Player 1", "word": "ZZZZ", "at": "A1", "dir": "across",
        "board": "." * 15 + "\n" + ("." * 15 + "\n") * 14, "corners": corners})
    assert judged.status_code == 200
    assert "Not legal" in judged.get_data(as_text=True)
    # The players fixed the board text by hand; the play is judged on it and drawn on it.
    legal = client.post(location + "/judge", data={
        "ruleset": "scrabble", "player": "Player 1", "word": "CAT", "at": "H8", "dir": "across",
        "board": "." * 15 + "\n" + ("." * 15 + "\n") * 14, "corners": corners})
    html = legal.get_data(as_text=True)
    assert "Legal: Player 1 played CAT for" in html
    for cell, letter in (("H8", "C"), ("I8", "A"), ("J8", "T")):
        assert re.search(rf'<g class="cell mark-placed[^"]*" data-cell="{cell}" '
                         rf'data-tile="{letter}"', html), cell


def _dispute_page(client, photo: Path) -> tuple[str, str]:
    """Upload ``photo`` as a dispute; its page's address and HTML."""
    upload = client.post("/dispute", data={"photo": (photo.open("rb"), photo.name)},
                         content_type="multipart/form-data")
    location = upload.headers["Location"]
    return location, client.get(location).get_data(as_text=True)


@pytest.mark.slow
@pytest.mark.photos
def test_the_dispute_board_rings_every_square_a_warning_names(client):
    # A dim, soft photo read with warnings (blur, a tile half off its square, a doubtful empty
    # square): each square they name is ringed on the drawn board, and no other.
    _, html = _dispute_page(client, PHOTOS / "jheidel__scrabble-opencv__IMG_20151016_170755.jpg")
    warnings = re.findall(r"<li>([^<]*)</li>", html)
    named = {cell for warning in warnings for cell in re.findall(CELL, warning)}
    assert len(named) >= 2, warnings
    squares = html.split('<g class="cell')[1:]
    assert len(squares) == 225
    ringed = {re.search(r'data-cell="([A-O]\d+)"', square).group(1) for square in squares
              if '<rect class="check"' in square}
    assert ringed == named
    assert f"Ringed: the {len(named)} squares the warnings name." in html
    # Each thing is said once: warnings in the same words over several squares are one line.
    one_square = [re.sub(CELL, "", warning) for warning in warnings
                  if len(re.findall(CELL, warning)) == 1]
    assert len(set(one_square)) == len(one_square), warnings


@pytest.mark.slow
@pytest.mark.photos
def test_a_german_board_read_as_english_offers_to_read_it_again_as_german(client):
    # The umlauts' dots are seen above letters that English has no marked twin for: the page
    # offers each tile set that has such letters, and the German one reads the Ö as an Ö.
    location, html = _dispute_page(
        client, PHOTOS / "scrabscrap__scrabble-scraper__board-neu_board-00.jpg")
    assert "marks on" in html
    offered = dict(re.findall(r'<a class="button" href="([^"]+)">([^<]+)</a>', html))
    assert sorted(offered.values()) == ["German (Ä Ö Ü)", "Polish (Ą Ć Ę Ł Ń Ó Ś Ź Ż)"]
    german = next(url for url, label in offered.items() if label.startswith("German"))
    assert german.endswith("?tiles=german")
    again = client.get(german.replace("&amp;", "&")).get_data(as_text=True)
    assert "marks on" not in again and 'class="other-sets"' not in again
    assert re.search(r'data-tile="[ÄÖÜ]', again)
    # Corners dragged by hand ride along (here: those found, a pixel to the right).
    found = json.loads(html_text.unescape(re.search(r'data-corners="([^"]+)"', html).group(1)))
    corners = json.dumps([[round(x) + 1, round(y)] for x, y in found])
    dragged = client.get(location, query_string={"corners": corners})
    links = re.findall(r'<a class="button" href="([^"]+)">', dragged.get_data(as_text=True))
    assert links and all("tiles=" in link and "corners=" in link for link in links)


@pytest.mark.slow
@pytest.mark.parametrize("player, said", [
    ("", "name the player who made the play"),
    ("Q", "'Q' is not a player of this archipelago play: name the seat that played it"),
])
def test_a_dispute_play_with_no_such_player_says_so_in_the_players_words(client, player, said):
    # The page builds the position itself; its "position.to_move" is no field they filled in.
    location, _ = _dispute_page(client, PHOTO)
    judged = client.post(location + "/judge", data={
        "ruleset": "archipelago", "player": player, "word": "CAT", "at": "H8", "dir": "across",
        "board": ("." * 15 + "\n") * 15}).get_data(as_text=True)
    judged = html_text.unescape(judged)
    assert "Cannot judge this play." in judged and said in judged
    assert "position.to_move" not in judged


def test_dispute_upload_of_a_non_image_is_refused(client, app):
    response = client.post("/dispute", data={"photo": (io.BytesIO(b"nope"), "x.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert b"not an image" in response.data
    assert list(Path(app.config["UPLOAD_DIR"]).iterdir()) == []
    # A JPEG whose data is damaged inside decodes, half grey: it is refused as corrupt, not kept.
    whole = PHOTO.read_bytes()
    damaged = whole[:2000] + bytes(58000) + whole[60000:]
    response = client.post("/dispute", data={"photo": (io.BytesIO(damaged), "x.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert b"corrupt JPEG data" in response.data
    assert list(Path(app.config["UPLOAD_DIR"]).iterdir()) == []


@pytest.mark.slow
def test_dispute_photo_without_a_board_offers_the_corner_editor(client):
    rng = np.random.default_rng(4)
    noise = cv2.GaussianBlur(rng.integers(0, 255, (480, 640, 3), dtype=np.uint8), (31, 31), 0)
    ok, data = cv2.imencode(".jpg", noise)
    upload = client.post("/dispute", data={"photo": (io.BytesIO(data.tobytes()), "n.jpg")},
                         content_type="multipart/form-data")
    location = upload.headers["Location"]
    html = client.get(location).get_data(as_text=True)
    assert 'class="error-line"' in html and 'id="reread"' in html
    image = client.get(location + "/image")
    assert image.status_code == 200 and image.data[:3] == b"\xff\xd8\xff"


@pytest.mark.slow
@pytest.mark.photos
def test_a_photo_refused_after_its_board_was_found_shows_where_it_was_found(client):
    # Half out of focus: the board is found, then the photo refused for the soft half. The
    # corner editor starts at the grid found (within half a cell of the truth), not at a default
    # square in the middle of the photo, and the page says what the handles are.
    from lab.render import soft_focus
    from lab.truth import photo_corners
    from vision.board.rectify import photo_cell_px

    photo = PHOTOS / "jheidel__scrabble-opencv__IMG_20151016_170803.jpg"
    truth = photo_corners(read_truth(photo))
    soft = soft_focus(cv2.imread(str(photo)), truth, (8, 16), (-1, 16), 0.1)
    ok, data = cv2.imencode(".jpg", soft, [cv2.IMWRITE_JPEG_QUALITY, 92])
    upload = client.post("/dispute", data={"photo": (io.BytesIO(data.tobytes()), "soft.jpg")},
                         content_type="multipart/form-data")
    html = client.get(upload.headers["Location"]).get_data(as_text=True)
    assert "photo too blurry around" in html and "take the photo again" in html
    editor = re.search(r'class="corner-editor"[^>]*data-corners="([^"]*)"', html)
    found = np.array(json.loads(editor.group(1).replace("&#34;", '"')), float)
    assert found.shape == (4, 2)
    # The found grid's corners, in any order of turns, against the truth's.
    apart = min(np.abs(np.roll(found, k, axis=0) - truth).max() for k in range(4))
    assert apart < 0.5 * photo_cell_px(truth)
    response = client.post("/api/read", data=data.tobytes(), content_type="image/jpeg")
    assert_error(response, 422)


def test_a_reader_failure_is_one_sentence_and_the_dispute_page_still_helps(client, monkeypatch):
    """A bug in the reader must not show players a stack trace or a dead end."""
    import webui.photos

    def broken(*args, **kwargs):
        raise RuntimeError("operands could not be broadcast together")

    monkeypatch.setattr(webui.photos, "read_board", broken)
    ok, data = cv2.imencode(".jpg", np.full((120, 160, 3), 128, np.uint8))
    response = client.post("/api/read", data=data.tobytes(), content_type="image/jpeg")
    assert_error(response, 500)
    assert "broadcast" not in response.get_json()["error"]
    upload = client.post("/dispute", data={"photo": (io.BytesIO(data.tobytes()), "a.jpg")},
                         content_type="multipart/form-data")
    page = client.get(upload.headers["Location"])
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "The board reader failed on this photo" in html
    assert 'id="reread"' in html and "broadcast" not in html


POLISH = PHOTOS / "kristopalka__scrabble-solver__red_boards_013.jpg"
POLISH_LETTERS = set("ĄĆĘŁŃÓŚŹŻ")


def _national(reading: dict) -> set[str]:
    return {cell["letter"] for cell in reading["cells"]} & POLISH_LETTERS


@pytest.mark.slow
@pytest.mark.photos
def test_a_polish_board_is_read_with_the_polish_tile_set_when_asked(client):
    english = client.post("/api/read", data={"image": (POLISH.open("rb"), POLISH.name)},
                          content_type="multipart/form-data")
    assert english.status_code == 200 and _national(english.get_json()) == set()
    polish = client.post("/api/read?tiles=polish",
                         data={"image": (POLISH.open("rb"), POLISH.name)},
                         content_type="multipart/form-data")
    assert polish.status_code == 200
    assert len(_national(polish.get_json())) >= 4
    unknown = client.post("/api/read", data={"image": (POLISH.open("rb"), POLISH.name),
                                              "tiles": "klingon"},
                          content_type="multipart/form-data")
    assert_error(unknown, 400)
    assert "klingon" in unknown.get_json()["error"]


@pytest.mark.slow
@pytest.mark.photos
def test_a_dispute_photo_keeps_its_tile_set_through_reading_again_and_judging(client, app):
    upload = client.post("/dispute", data={"photo": (POLISH.open("rb"), POLISH.name),
                                           "tiles": "polish"},
                         content_type="multipart/form-data")
    assert upload.status_code == 302 and upload.headers["Location"].endswith("?tiles=polish")
    html = client.get(upload.headers["Location"]).get_data(as_text=True)
    values = load_tile_set("polish").values
    drawn = [(re.search(r'data-tile="(.)', cell), re.search(r'class="value"[^>]*>(\d+)<', cell))
             for cell in html.split('<g class="cell')[1:]]
    national = [(tile.group(1), value) for tile, value in drawn
                if tile and tile.group(1) in POLISH_LETTERS]
    assert len(national) >= 4       # drawn with the Polish values (an English set has none)
    assert all(value and int(value.group(1)) == values[letter] for letter, value in national)
    assert 'name="tiles" value="polish"' in html                 # the judge form carries it
    assert re.search(r'data-photo="[^"]*\?tiles=polish"', html)   # and "read again" does
    judge = upload.headers["Location"].split("?")[0] + "/judge"
    play = {"ruleset": "scrabble", "player": "Player 1", "word": "ŻÓŁW", "at": "G8",
            "dir": "across", "board": "\n".join(["." * 15] * 15)}
    as_polish = client.post(judge, data={**play, "tiles": "polish"}).get_data(as_text=True)
    as_english = client.post(judge, data=play).get_data(as_text=True)
    # Judged with the photo's tiles, the letters are fine and the (English) list says no.
    assert "ŻÓŁW is not in the word list ENABLE" in as_polish
    assert "The english set has 0" in as_english
    folder = app.config["UPLOAD_DIR"]
    before = sorted(p.name for p in Path(folder).iterdir())
    refused = client.post("/dispute", data={"photo": (PHOTO.open("rb"), PHOTO.name),
                                            "tiles": "klingon"},
                          content_type="multipart/form-data")
    assert refused.status_code == 400
    assert sorted(p.name for p in Path(folder).iterdir()) == before   # nothing kept


def test_a_dispute_photo_is_read_with_the_single_photo_settings_and_a_frame_fast(
        client, make_game, monkeypatch):
    """A photo read on request gets Tesseract's opinion and five occupancy looks, as
    ``tileref read`` and ``tileref eval`` read; a live frame is read fast (frames vote)."""
    import vision
    from vision import DEFAULT_CONFIG, DISPUTE_CONFIG

    configs = []

    def recording(image, **options):
        configs.append(options["config"])
        raise vision.VisionError("no board found in the photo")

    monkeypatch.setattr(vision, "read_board", recording)
    ok, data = cv2.imencode(".jpg", np.full((120, 160, 3), 128, np.uint8))
    assert_error(client.post("/api/read", data=data.tobytes(), content_type="image/jpeg"), 422)
    game_id, auth = make_game()
    service = client.application.extensions["tileref"].table
    table = service.live_table(game_id)
    monkeypatch.setattr(table, "check_view", lambda image: type("Steady", (), {"steady": True})())
    client.post(f"/api/games/{game_id}/frames", data=data.tobytes(), headers=auth,
                content_type="image/jpeg")
    assert configs == [DISPUTE_CONFIG, DEFAULT_CONFIG]


@pytest.mark.slow
def test_a_heic_photo_off_an_iphone_is_read_and_shown_as_jpeg(client):
    """A desktop browser sends an iPhone's HEIC as it is: the dispute page reads it as it reads
    the same photo as a JPEG, and the photo the corner editor shows comes back as a JPEG every
    browser can draw."""
    import pillow_heif
    from PIL import Image

    pillow_heif.register_heif_opener()
    buffer = io.BytesIO()
    Image.open(SECOND).save(buffer, "HEIF", quality=90)
    tiles = {}
    for name, data in (("IMG_0001.HEIC", buffer.getvalue()), (SECOND.name, SECOND.read_bytes())):
        upload = client.post("/dispute", data={"photo": (io.BytesIO(data), name)},
                             content_type="multipart/form-data")
        assert upload.status_code == 302
        location = upload.headers["Location"]
        html = client.get(location).get_data(as_text=True)
        assert 'src="data:image/png;base64,' in html and html.count('class="cell') == 225
        tiles[name] = len(re.findall(r'data-tile="[^"]', html))
        shown = client.get(location + "/image")
        assert shown.mimetype == "image/jpeg" and shown.data[:3] == b"\xff\xd8\xff"
    assert tiles["IMG_0001.HEIC"] == tiles[SECOND.name] > 50
