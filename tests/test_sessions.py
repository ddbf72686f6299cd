"""Sessions and headers (issue 35): the cookie holds a session id and nothing else, the game
tokens are kept server-side, SameSite and frame protection on every page, CSRF on form posts,
cross-site writes refused, the last camera frame only for the game's token holder."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from tests.support.web import TWO_PLAYERS

NEW_GAME = {"name0": "Ann", "seat0": "S", "name1": "Bo", "seat1": "N", "ruleset": "archipelago"}


def page_token(client, path: str) -> str:
    found = re.search(r'data-token="([^"]*)"', client.get(path).get_data(as_text=True))
    assert found is not None
    return found.group(1)


def session_cookie(client) -> str:
    cookie = client.get_cookie("session")
    assert cookie is not None
    return cookie.value


@pytest.mark.slow
def test_a_hundred_and_ten_games_from_one_browser_keep_their_tokens(client):
    """The cookie carried every token once: past ~107 games it passed 4 KB and was dropped."""
    locations = []
    for _ in range(110):
        response = client.post("/games", data=NEW_GAME)
        assert response.status_code == 302
        locations.append(response.headers["Location"])
    assert len(session_cookie(client)) < 200
    first, last = locations[0], locations[-1]
    assert page_token(client, first) and page_token(client, last)
    assert page_token(client, first) != page_token(client, last)


def test_another_browser_gets_no_token(app, client):
    location = client.post("/games", data=NEW_GAME).headers["Location"]
    stranger = app.test_client()
    assert page_token(stranger, location) == ""


def test_an_old_cookie_with_its_tokens_keeps_them(client, make_game):
    game_id, auth = make_game()
    token = auth["Authorization"].split()[1]
    with client.session_transaction() as session:
        session["tokens"] = {game_id: token, "0000000000": "forged"}
    assert page_token(client, f"/games/{game_id}") == token
    with client.session_transaction() as session:
        assert "tokens" not in session and set(session) - {"_permanent"} == {"sid"}


def test_the_cookie_is_samesite_lax_and_http_only(client):
    client.post("/games", data=NEW_GAME)
    response = client.get("/")
    set_cookie = client.post("/games", data=NEW_GAME).headers.get("Set-Cookie", "")
    assert response.status_code == 200
    assert "SameSite=Lax" in set_cookie and "HttpOnly" in set_cookie


def test_pages_refuse_frames_and_sniffing(client, make_game):
    game_id, _ = make_game()
    for path in ("/", f"/games/{game_id}", "/api/games", "/nowhere"):
        response = client.get(path)
        assert response.headers["X-Frame-Options"] == "DENY", path
        assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
        assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_a_form_post_without_the_csrf_token_changes_nothing(client):
    response = client.post("/games", data=dict(NEW_GAME, csrf_token=None))
    assert response.status_code == 400 and b"reload the page" in response.data
    response = client.post("/games", data=dict(NEW_GAME, csrf_token="0" * 64))
    assert response.status_code == 400
    assert client.get("/api/games").json["games"] == []


def test_a_cross_site_post_is_refused_even_with_a_token(client):
    response = client.post("/games", data=NEW_GAME, headers={"Origin": "http://evil.example"})
    assert response.status_code == 403
    response = client.post("/api/games", json=TWO_PLAYERS,
                           headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 403 and "another site" in response.json["error"]
    response = client.post("/api/games", json=TWO_PLAYERS,
                           headers={"Origin": "http://evil.example"})
    assert response.status_code == 403
    assert client.get("/api/games").json["games"] == []
    same = client.post("/api/games", json=TWO_PLAYERS, headers={"Origin": "http://localhost"})
    assert same.status_code == 201


@pytest.mark.slow
def test_the_last_frame_needs_the_games_token(app, client, make_game):
    game_id, auth = make_game()
    frame = cv2.imencode(".jpg", np.full((480, 640, 3), 90, np.uint8))[1].tobytes()
    assert client.post(f"/api/games/{game_id}/frames", data=frame, headers=auth,
                       content_type="image/jpeg").status_code == 200
    path = f"/api/games/{game_id}/frame.jpg"
    assert client.get(path).status_code == 401
    assert client.get(path, headers={"Authorization": "Bearer wrong"}).status_code == 403
    response = client.get(path, headers=auth)
    assert response.status_code == 200 and response.data == frame
    # The browser that created a game sees its frame with no header: its session holds the token.
    location = client.post("/games", data=NEW_GAME).headers["Location"]
    own_id = location.rsplit("/", 1)[-1]
    own_auth = {"Authorization": f"Bearer {page_token(client, location)}"}
    client.post(f"/api/games/{own_id}/frames", data=frame, headers=own_auth,
                content_type="image/jpeg")
    assert client.get(f"/api/games/{own_id}/frame.jpg").status_code == 200
    assert app.test_client().get(f"/api/games/{own_id}/frame.jpg").status_code == 401
