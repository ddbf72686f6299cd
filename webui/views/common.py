"""What the views share: reading a request (a JSON body, a photo, the bearer token) and the
game tokens this browser holds.

A game's token is returned once, at creation. The API's caller keeps it; a browser that created
the game from the new-game form has it kept under its session (:func:`remember_token`), so the
pages can hand it to their scripts (:func:`token_for`).
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import request, session

from referee.gamefile import has_lone_surrogate
from referee.tiles import load_tile_set, tile_set_names
from webui.errors import ServiceError
from webui.services import services

SESSION_KEY = "sid"


def json_body() -> Any:
    """The request's JSON (whatever its content type says); not JSON is one sentence."""
    try:
        body = request.get_json(silent=True, force=True)
    except RecursionError:  # nested thousands deep: no game's JSON is
        body = None
    if body is None:
        raise ServiceError("the body must be JSON")
    if has_lone_surrogate(body):
        raise ServiceError("the body holds a lone surrogate (such as \\ud800), which is no "
                           "character: send valid Unicode text")
    return body


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def authorise(game_id: str) -> None:
    """Writes need the game's token (401 without one, 403 with another game's)."""
    services().store.check_token(game_id, bearer_token())


def uploaded(field: str, missing: str) -> bytes:
    """An upload: the multipart ``field``, or the raw body; ``missing`` says which field when a
    multipart form lacks it."""
    if request.mimetype == "multipart/form-data":
        upload = request.files.get(field)
        if upload is None:
            raise ServiceError(missing)
        return upload.read()
    return request.get_data(cache=False)


def image_bytes() -> bytes:
    """The photo of a request: multipart field ``image``, or the raw body (``image/*``)."""
    data = uploaded("image", "send the photo as the multipart field 'image'")
    if not data:
        raise ServiceError("no image in the request")
    return data


def client_address() -> str:
    """Who sent the request, as the upload quotas count them: the peer's address (behind
    ``--https``'s TLS front, the address the front saw: ``webui.tls``)."""
    return request.remote_addr or ""


def session_id(create: bool = False) -> str | None:
    """This browser's session id, made (and set in its cookie) when ``create``.

    The cookie (Flask's signed session, so it cannot be forged) holds this random id and
    nothing else; the game tokens the browser holds are kept in the database under it. The
    cookie carried every token once: past about a hundred games it outgrew the 4 KB a browser
    keeps, and was dropped with them. A cookie of that time has its tokens moved over.
    """
    sid = session.get(SESSION_KEY)
    legacy = session.pop("tokens", None)
    if not isinstance(sid, str) and (create or legacy):
        sid = secrets.token_urlsafe(24)
        session[SESSION_KEY] = sid
        session.permanent = True
    if isinstance(legacy, dict) and isinstance(sid, str):
        for game_id, token in legacy.items():
            if isinstance(game_id, str) and isinstance(token, str):
                services().store.remember_browser_token(sid, game_id, token)
    return sid if isinstance(sid, str) else None


def remember_token(game_id: str, token: str) -> None:
    """This browser created the game: keep its token under the browser's session."""
    sid = session_id(create=True)
    assert sid is not None
    services().store.remember_browser_token(sid, game_id, token)


def token_for(game_id: str) -> str | None:
    """The game's token if this browser created the game (kept under its session)."""
    sid = session_id()
    return None if sid is None else services().store.browser_token(sid, game_id)


def _tile_set_label(name: str) -> str:
    """How a tile set is offered in a form: its name and the letters it adds to A-Z."""
    extra = [letter for letter in load_tile_set(name).letters if not "A" <= letter <= "Z"]
    return name.title() + (f" ({' '.join(extra)})" if extra else "")


TILE_SET_NAMES = {name: _tile_set_label(name) for name in tile_set_names()}
"""The tile sets a game or a dispute photo may use, by name, with the label forms show."""
