"""What the views share: reading a request (a JSON body, a photo, the bearer token) and the
game tokens this browser holds.

A game's token is returned once, at creation. The API's caller keeps it; a browser that created
the game from the new-game form keeps it in its signed session (:func:`remember_token`), so the
pages can hand it to their scripts (:func:`token_for`).
"""

from __future__ import annotations

from typing import Any

from flask import request, session

from referee.tiles import load_tile_set, tile_set_names
from webui.errors import ServiceError
from webui.services import services


def json_body() -> Any:
    """The request's JSON (whatever its content type says); not JSON is one sentence."""
    try:
        body = request.get_json(silent=True, force=True)
    except RecursionError:  # nested thousands deep: no game's JSON is
        body = None
    if body is None:
        raise ServiceError("the body must be JSON")
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


def remember_token(game_id: str, token: str) -> None:
    """This browser created the game: keep its token in the signed session."""
    tokens = dict(session.get("tokens", {}))
    tokens[game_id] = token
    session["tokens"] = tokens


def token_for(game_id: str) -> str | None:
    """The game's token if this browser created the game (kept in its signed session)."""
    return session.get("tokens", {}).get(game_id)


def _tile_set_label(name: str) -> str:
    """How a tile set is offered in a form: its name and the letters it adds to A-Z."""
    extra = [letter for letter in load_tile_set(name).letters if not "A" <= letter <= "Z"]
    return name.title() + (f" ({' '.join(extra)})" if extra else "")


TILE_SET_NAMES = {name: _tile_set_label(name) for name in tile_set_names()}
"""The tile sets a game or a dispute photo may use, by name, with the label forms show."""
