"""The HTML screens through the test client: set-up form, referee board, live page, errors."""

from __future__ import annotations

import io
import re

import pytest

TWO_PLAYERS = {"ruleset": "archipelago",
               "players": [{"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "N"}]}


def form(**fields: str) -> dict[str, str]:
    base = {"ruleset": "archipelago", "name0": "Ann", "name1": "Bo", "name2": "", "name3": "",
            "seat0": "", "seat1": "", "seat2": "", "seat3": "", "wordlist": "enable",
            "camera_side": "S"}
    base.update(fields)
    return base


def test_index_offers_a_new_game_and_disputes(client):
    page = client.get("/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    for name in ('name="ruleset"', 'name="name0"', 'name="wordlist"', 'name="camera_side"',
                 "/dispute"):
        assert name in html


@pytest.mark.parametrize("names,seats", [
    (["Ann", "Bo"], ["S", "N"]),
    (["Ann", "Bo", "Cy"], ["S", "W", "N"]),
    (["Ann", "Bo", "Cy", "Di"], ["S", "W", "N", "E"]),
])
def test_new_game_form_suggests_seats_clockwise(client, names, seats):
    fields = form(**{f"name{i}": name for i, name in enumerate(names)})
    response = client.post("/games", data=fields)
    assert response.status_code == 302
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    state = client.get(f"/api/games/{game_id}").get_json()
    assert [p["seat"] for p in state["players"]] == seats
    # The creating device keeps the token (in its session) and may write.
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert re.search(r'data-token="[\w-]{10,}"', board)


@pytest.mark.slow
def test_scrabble_seed_preset_and_uploaded_word_list(client):
    fields = form(ruleset="scrabble-seed", wordlist="upload")
    fields["wordlist_file"] = (io.BytesIO(b"CAT\nDOG\n"), "words.txt")
    response = client.post("/games", data=fields, content_type="multipart/form-data")
    assert response.status_code == 302
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["ruleset"] == "scrabble" and "scores" in state
    assert state["wordlist"] and state["wordlist"] != "ENABLE"
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    gcg = re.search(r'href="([^"]+/gcg)"', html)
    assert gcg is not None
    download = client.get(gcg.group(1))
    assert download.status_code == 200 and "#player1 Ann" in download.get_data(as_text=True)


@pytest.mark.slow
def test_gcg_button_only_where_a_gcg_file_can_be_written(client):
    """GCG records two players: a three-player scrabble game offers no broken download."""
    response = client.post("/games", data=form(ruleset="scrabble-classic", name2="Cy"))
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "/gcg" not in html
    assert client.get(f"/api/games/{game_id}/gcg").status_code == 400
    assert client.get("/static/favicon.svg").status_code == 200


def test_form_without_players_is_a_clear_error(client):
    response = client.post("/games", data=form(name0="", name1=""))
    assert response.status_code == 400
    assert "name at least one player" in response.get_data(as_text=True)
    assert client.get("/api/games").get_json()["games"] == []


def test_referee_board_draws_every_square_and_the_tiles_to_lift(client, make_game):
    from referee.boardtext import Tile, format_board_text
    from referee.cells import Cell

    tiles = {Cell.parse("G7"): Tile("A", False, 0), Cell.parse("H7"): Tile("T", False, 0),
             Cell.parse("J8"): Tile("D", False, 180), Cell.parse("I8"): Tile("O", False, 180),
             Cell.parse("H8"): Tile("G", False, 180), Cell.parse("I9"): Tile("N", False, 180)}
    game_id, auth = make_game(dict(TWO_PLAYERS, position={"board": format_board_text(tiles),
                                                          "to_move": "S"}))
    client.post(f"/api/games/{game_id}/moves", headers=auth,
                json={"player": "S", "word": "TO", "at": "H7", "dir": "down"})
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert html.count('class="cell') == 225
    assert "Lift these tiles off" in html and ">J8<" in html
    assert "Ann (South) played TO, worth 2." in html
    assert "Captured Bo (North)&#39;s DOG." in html
    assert re.search(r'<g class="cell mark-remove"[^>]*data-cell="J8"', html)
    assert 'rotate(180' in html                 # North's tiles drawn upside down
    panel = client.get(f"/games/{game_id}/panel").get_data(as_text=True)
    assert "<html" not in panel and "Lift these tiles off" in panel


def test_live_page_has_the_camera_and_the_board(client, make_game):
    game_id, _ = make_game()
    html = client.get(f"/games/{game_id}/live").get_data(as_text=True)
    assert '<video id="video"' in html and "live.js" in html
    assert html.count('class="cell') == 225


def test_unknown_game_page_is_404_html(client):
    response = client.get("/games/0123456789")
    assert response.status_code == 404
    assert b"no game" in response.data and b"Traceback" not in response.data
    assert client.get("/no/such/page").status_code == 404
    assert client.post("/dispute/0123456789abcdef/judge", data={}).status_code == 404


def test_a_game_set_up_with_polish_tiles_scores_and_draws_them(client):
    page = client.get("/").get_data(as_text=True)
    assert '<option value="polish">Polish (Ą Ć Ę Ł Ń Ó Ś Ź Ż)</option>' in page
    response = client.post("/games", data=form(ruleset="scrabble", tiles="polish"))
    assert response.status_code == 302
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    from webui.services import services

    with client.application.app_context():
        assert services().store.session(game_id).game.tile_set.name == "polish"
    refused = client.post("/games", data=form(tiles="klingon"))
    assert refused.status_code == 400 and "klingon" in refused.get_data(as_text=True)
