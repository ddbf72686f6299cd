"""What a prankster on the club's wifi sent (issue 35), each refused in one line, fast, with
nothing changed: absurd image shapes, huge names and options, lone surrogates, a calibration
name the file system refuses, word-list uploads in a race and in a loop, and game files that are
pipes, devices or sparse giants. Every case is small (a 1 x 100000 PNG is 100 bytes) and stays
on this machine."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.support.web import TWO_PLAYERS, png_claiming
from vision import ImageError, load_image, load_thumbnail

ROOT = Path(__file__).resolve().parents[1]

STRIPS = [(1, 100_000), (1, 60_000), (2, 30_000), (30_000, 2)]


def games_in(client) -> int:
    return len(client.get("/api/games").json["games"])


# -- images ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("width", "height"), STRIPS)
def test_a_strip_is_refused_from_its_header(width, height):
    data = png_claiming(width, height)
    for load in (lambda: load_image(data), lambda: load_thumbnail(data, 160)):
        with pytest.raises(ImageError, match="long and thin"):
            load()


@pytest.mark.parametrize(("width", "height"), STRIPS)
def test_a_strip_is_a_400_everywhere_a_photo_goes(client, make_game, width, height):
    data = png_claiming(width, height)
    game_id, auth = make_game()
    for path, headers in ((f"/api/games/{game_id}/frames", auth), ("/api/read", {})):
        response = client.post(path, data=data, content_type="image/png", headers=headers)
        assert response.status_code == 400, (path, response.json)
        assert "long and thin" in response.json["error"]
    response = client.post("/dispute", data={"photo": (__import__("io").BytesIO(data), "a.png")},
                           content_type="multipart/form-data")
    assert response.status_code == 400 and b"long and thin" in response.data
    assert client.get(f"/api/games/{game_id}").json["live"] is None  # no live table made


@pytest.mark.slow
def test_tileref_read_refuses_a_strip_in_one_line(tmp_path):
    path = tmp_path / "strip.png"
    path.write_bytes(png_claiming(1, 100_000))
    result = subprocess.run([sys.executable, "-m", "webui", "read", str(path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "long and thin" in result.stderr


def _jpeg_claiming(width: int, height: int) -> bytes:
    """A small real JPEG whose frame header is rewritten to claim ``width`` x ``height``."""
    ok, encoded = cv2.imencode(".jpg", np.full((64, 64, 3), 128, np.uint8))
    data = bytearray(encoded.tobytes())
    start = data.find(b"\xff\xc0")
    struct.pack_into(">HH", data, start + 5, height, width)
    return bytes(data)


@pytest.mark.slow
def test_a_200_megapixel_jpeg_header_is_within_the_limits():
    """16320 x 12240 (a 200 MP phone) was refused as "image dimensions too big" by Pillow's
    own bomb check before the reduced decoding could take it; its header now passes, and only
    the (fake) data fails to decode."""
    with pytest.raises(ImageError) as refused:
        load_image(_jpeg_claiming(16_320, 12_240))
    assert "too big" not in str(refused.value)
    assert "corrupt JPEG data" in str(refused.value)
    with pytest.raises(ImageError, match="too big"):  # past 64 x 52 MP: still refused
        load_image(_jpeg_claiming(65_000, 60_000))


def test_a_thumbnail_is_small_and_the_picture_it_shows():
    image = np.zeros((960, 1280, 3), np.uint8)
    image[:, 640:] = 255
    data = cv2.imencode(".jpg", image)[1].tobytes()
    thumb = load_thumbnail(data, 160)
    assert thumb.shape == (120, 160, 3)
    assert thumb[:, :70].mean() < 10 and thumb[:, 90:].mean() > 245


# -- names, options, surrogates, calibration names ----------------------------------------

@pytest.mark.slow
def test_names_are_at_most_40_characters(client):
    before = games_in(client)
    long_name = {"ruleset": "archipelago", "players": [{"name": "A" * 41, "seat": "S"},
                                                       {"name": "Bo", "seat": "N"}]}
    response = client.post("/api/games", json=long_name)
    assert response.status_code == 400 and "at most 40" in response.json["error"]
    huge = dict(long_name, players=[{"name": "x" * 24_000_000, "seat": "S"}])
    response = client.post("/api/games", data=json.dumps(huge), content_type="application/json")
    assert response.status_code == 400 and len(response.json["error"]) < 200
    assert games_in(client) == before
    ok = dict(long_name, players=[{"name": "A" * 40, "seat": "S"}, {"name": "Bo", "seat": "N"}])
    assert client.post("/api/games", json=ok).status_code == 201


def test_the_new_game_form_caps_names_too(client):
    response = client.post("/games", data={"name0": "N" * 500, "seat0": "S", "name1": "Bo",
                                           "seat1": "N", "ruleset": "archipelago"})
    assert response.status_code == 400 and b"at most 40" in response.data
    assert games_in(client) == 0


def test_options_are_capped(client):
    spec = dict(TWO_PLAYERS, options={"note": "x" * 30_000})
    response = client.post("/api/games", json=spec)
    assert response.status_code == 400 and "at most 20,000" in response.json["error"]
    assert games_in(client) == 0


def test_a_lone_surrogate_is_refused_at_the_json_edge(client, make_game):
    body = '{"ruleset": "archipelago", "players": [{"name": "\\ud800", "seat": "S"}, ' \
           '{"name": "Bo", "seat": "N"}]}'
    response = client.post("/api/games", data=body, content_type="application/json")
    assert response.status_code == 400 and "surrogate" in response.json["error"]
    assert client.get("/").status_code == 200
    game_id, auth = make_game()
    move = '{"player": "S", "word": "\\udfff", "at": "H8", "dir": "across"}'
    response = client.post(f"/api/games/{game_id}/moves", data=move, headers=auth,
                           content_type="application/json")
    assert response.status_code == 400 and "surrogate" in response.json["error"]
    assert client.get(f"/api/games/{game_id}").json["moves"] == []


@pytest.mark.slow
def test_tileref_judge_refuses_a_surrogate_in_one_line(tmp_path):
    path = tmp_path / "game.json"
    path.write_text('{"ruleset": "archipelago", "players": [{"name": "\\ud800", "seat": "S"},'
                    ' {"name": "Bo", "seat": "N"}], "moves": []}')
    result = subprocess.run([sys.executable, "-m", "webui", "judge", str(path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "surrogate" in result.stderr


def test_a_calibration_name_past_the_file_systems_is_one_line_400(client):
    spec = dict(TWO_PLAYERS, table={"calibration": "c" * 300})
    response = client.post("/api/games", json=spec)
    assert response.status_code == 400 and "at most 64" in response.json["error"]
    assert games_in(client) == 0


def test_a_game_whose_stored_profile_name_is_too_long_still_reads_frames(app, make_game):
    """A game stored before the cap with a 300-character profile name: its frames are read
    (the board searched for), not a 500."""
    from webui.services import EXTENSION

    game_id, _ = make_game()
    table = app.extensions[EXTENSION].table
    session = app.extensions[EXTENSION].store.session(game_id)
    session.spec["table"]["calibration"] = "c" * 300
    assert table._profile_corners(session, np.zeros((10, 10, 3), np.uint8)) is None


# -- word lists -------------------------------------------------------------------------------

WORDS = b"cat\ndog\ncats\ndogs\n"


def test_the_same_list_uploaded_at_once_from_four_threads_is_one_list(app):
    from webui.services import EXTENSION

    wordlists = app.extensions[EXTENSION].wordlists
    answers, errors = [], []

    def upload() -> None:
        for _ in range(10):
            try:
                answers.append(wordlists.add(WORDS + b"race\n"))
            except Exception as error:  # noqa: BLE001 - any failure is the finding
                errors.append(error)

    threads = [threading.Thread(target=upload) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and len(answers) == 40
    assert len({answer["wordlist"] for answer in answers}) == 1
    assert [path.name for path in wordlists.folder.iterdir()] == [answers[0]["wordlist"]]


def test_word_list_uploads_have_a_quota(client):
    codes = [client.post("/api/wordlists", data=WORDS + ("w" + "a" * n + "\n").encode(),
                         content_type="text/plain").status_code for n in range(12)]
    assert codes[:10] == [201] * 10 and codes[10:] == [429, 429]
    response = client.post("/api/wordlists", data=b"zzz\n", content_type="text/plain")
    assert "too many word list uploads" in response.json["error"]


def test_the_word_list_folder_has_a_quota(app, monkeypatch):
    from webui import wordlists as module
    from webui.errors import TooMany
    from webui.services import EXTENSION

    monkeypatch.setattr(module, "MAX_WORDLISTS", 2)
    lists = app.extensions[EXTENSION].wordlists
    lists.add(b"one\n")
    lists.add(b"two\n")
    with pytest.raises(TooMany, match="2 word lists already"):
        lists.add(b"three\n")
    assert lists.add(b"one\n")["words"] == 1  # one it keeps is still fine


def test_judge_errors_name_no_server_path(client, app):
    response = client.post("/api/judge", json={
        "ruleset": "archipelago", "board": "", "move": {"player": "S", "word": "CAT",
                                                        "at": "H8", "dir": "across"},
        "options": {"wordlist": "0123456789abcdef.txt"}})
    assert response.status_code == 400
    assert app.instance_path not in response.json["error"] and "/" not in response.json["error"]


# -- game files -------------------------------------------------------------------------------

def judge(path: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "webui", "judge", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.slow
def test_judge_refuses_a_fifo_without_waiting(tmp_path):
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    result = judge(fifo)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "not a regular file" in result.stderr


@pytest.mark.slow
def test_judge_refuses_a_device(tmp_path):
    result = judge("/dev/zero")
    assert result.returncode == 2 and "not a regular file" in result.stderr


@pytest.mark.slow
def test_judge_refuses_a_sparse_giant_before_reading_it(tmp_path):
    path = tmp_path / "game.json"
    with path.open("wb") as sparse:
        sparse.truncate(2_000_000_000)
    result = judge(path)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "too big for a game file" in result.stderr


@pytest.mark.slow
def test_judge_refuses_a_word_list_that_is_a_pipe(tmp_path):
    fifo = tmp_path / "words.txt"
    os.mkfifo(fifo)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(dict(TWO_PLAYERS, options={"wordlist": "words.txt"}, moves=[])))
    result = judge(path)
    assert result.returncode == 2 and "not a regular file" in result.stderr


def test_a_game_stored_with_a_lone_surrogate_before_they_were_refused_still_lists(app, client):
    """A name with a lone surrogate, stored before such names were refused (straight into the
    database here), is shown mended, never a 500 for everyone who opens the home page."""
    from webui import db

    spec = {"ruleset": "archipelago", "players": [{"name": "\ud800nn", "seat": "S"},
                                                  {"name": "Bo", "seat": "N"}], "options": {}}
    with db.closing_connection(app.config["DATABASE"]) as connection:
        db.insert_game(connection, "0123abcd", "x" * 64, spec)
    page = client.get("/")
    assert page.status_code == 200 and "\ufffdnn" in page.get_data(as_text=True)
    state = client.get("/api/games/0123abcd")
    assert state.status_code == 200 and state.json["players"][0]["name"] == "\ufffdnn"
