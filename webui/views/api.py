"""The game's JSON API (FORMATS.md "The web API", docs/formats.md's additions).

Thin views: parse, call a service, return a dict. Every refusal is ``{"error": sentence}`` with a
4xx status (``ServiceError.status``); writes need ``Authorization: Bearer <token>``. The camera's
routes are ``webui.views.live``'s, the dispute's (a photo with no game) ``webui.views.dispute``'s.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from referee.boardtext import is_tile_letter
from referee.colonization import ENGLISH
from referee.game import find_ruleset
from webui import photos
from webui.errors import ServiceError
from webui.photos import tile_set_option
from webui.positions import check_position, read_position
from webui.screens import draw_board
from webui.services import services
from webui.views.common import authorise, client_address, image_bytes, json_body, uploaded
from webui.wording import sale_checks

bp = Blueprint("api", __name__, url_prefix="/api")


# -- games ---------------------------------------------------------------------------------

@bp.post("/games")
def create_game() -> Any:
    body = json_body()
    services().quotas.games.take(client_address())
    return jsonify(services().store.create_game(body)), 201


@bp.get("/games")
def list_games() -> Any:
    return jsonify({"games": services().store.game_ids()})


@bp.get("/games/<game_id>")
def game_state(game_id: str) -> Any:
    return jsonify(services().table.state(game_id))


@bp.post("/games/<game_id>/moves")
def post_move(game_id: str) -> Any:
    authorise(game_id)
    return jsonify(services().store.play(game_id, json_body(), source="api").to_json())


@bp.post("/games/<game_id>/undo")
def undo(game_id: str) -> Any:
    authorise(game_id)
    table = services().table
    table.undo(game_id)
    return jsonify(table.state(game_id))


@bp.post("/games/<game_id>/removed")
def tiles_removed(game_id: str) -> Any:
    authorise(game_id)
    services().store.confirm_removed(game_id)
    return jsonify(services().table.state(game_id))


@bp.post("/games/<game_id>/restored")
def tiles_restored(game_id: str) -> Any:
    authorise(game_id)
    services().store.confirm_restored(game_id)
    return jsonify(services().table.state(game_id))


@bp.post("/games/<game_id>/corrections")
def correct(game_id: str) -> Any:
    authorise(game_id)
    table = services().table
    verdict = table.correct(game_id, json_body())
    return jsonify({"verdict": verdict.to_json() if verdict is not None else None,
                    "state": table.state(game_id)})


@bp.get("/games/<game_id>/gcg")
def gcg(game_id: str) -> Any:
    from referee.gcg import write_gcg

    session = services().store.session_of(game_id, "scrabble",
                                          "GCG files are for scrabble games")
    try:
        text = write_gcg(session.game)
    except ValueError as error:
        raise ServiceError(str(error)) from None
    return Response(text, mimetype="text/plain", headers={
        "Content-Disposition": f'attachment; filename="tileref-{game_id}.gcg"'})


@bp.get("/games/<game_id>/events")
def events(game_id: str) -> Any:
    """Server-Sent Events: the state each time it changes (and a comment now and then).

    A stream holds a worker thread for as long as it is open, so at most ``SSE_STREAMS`` are
    open at once, each for at most ``SSE_SECONDS``; past that cap a screen gets the state once
    and is asked (``retry``) to come back in ``SSE_RETRY_MS``, and its browser's EventSource
    does so by itself. Three hundred idle screens thus cannot take the threads the cameras and
    the players need.
    """
    table, changes = services().table, services().store.changes
    services().store.session(game_id)
    config = current_app.config
    keepalive = float(config["SSE_KEEPALIVE"])
    lifetime = float(config["SSE_SECONDS"])
    retry = f"retry: {int(config['SSE_RETRY_MS'])}\n\n"
    slots = _stream_slots(current_app)
    once = request.args.get("once") == "1"

    def stream() -> Iterator[str]:
        # Counted once the stream runs: a response never started is never closed.
        admitted = not once and slots.acquire(blocking=False)
        try:
            version = changes.version(game_id)
            yield _sse(table.state(game_id))
            if not admitted:
                yield retry
                return
            ends = time.monotonic() + lifetime
            while (left := ends - time.monotonic()) > 0:
                new = changes.wait_for_change(game_id, version, min(keepalive, left))
                if new == version:
                    yield ": still here\n\n"
                    continue
                version = new
                yield _sse(table.state(game_id))
            yield retry
        finally:
            if admitted:
                slots.release()

    return Response(stream(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _stream_slots(app: Any) -> threading.BoundedSemaphore:
    """The app's open event streams, counted (``SSE_STREAMS`` at most)."""
    slots = app.extensions.get("tileref.streams")
    if slots is None:
        slots = app.extensions.setdefault(
            "tileref.streams", threading.BoundedSemaphore(int(app.config["SSE_STREAMS"])))
    return slots


def _sse(state: dict[str, Any]) -> str:
    return f"event: state\nid: {state.get('version', 0)}\ndata: {json.dumps(state)}\n\n"


@bp.post("/position")
def table_position() -> Any:
    """The tiles already on the table, as a new game's ``position``: a camera frame or photo
    (multipart ``image`` with ``ruleset``, ``tiles``, ``camera_side``, ``seats``, or a raw
    image body with them in the query), or board text as the players fixed it (JSON ``{"board",
    "ruleset", "tiles", "seats", "check"}``, ``check``: squares to ring) → the position in the
    South view, drawn, with its problems (docs/formats.md). Nothing is stored."""
    if request.mimetype == "multipart/form-data" or request.mimetype.startswith("image/"):
        fields = request.form if request.mimetype == "multipart/form-data" else request.args
        ruleset, preset = _ruleset_choice(fields.get("ruleset"))
        position = read_position(services().photos, image_bytes(), ruleset, fields.get("tiles"),
                                 fields.get("camera_side"), fields.get("seats"))
        tiles = fields.get("tiles")
    else:
        body = json_body()
        if not isinstance(body, dict):
            raise ServiceError("send {'board': board text, 'ruleset', 'tiles', 'seats'}")
        ruleset, preset = _ruleset_choice(body.get("ruleset"))
        position = check_position(body.get("board"), ruleset, body.get("tiles"),
                                  body.get("seats"), body.get("check"))
        tiles = body.get("tiles")
    svg = draw_board(position.tiles, {"tiles": tile_set_option(tiles), "preset": preset},
                     seated=find_ruleset(ruleset).seated, marks={"check": list(position.check)},
                     interactive=True)
    return jsonify(position.to_json() | {"board_svg": svg})


def _ruleset_choice(value: object) -> tuple[str, str]:
    """A ruleset as the new-game form names it (``scrabble-seed``: a ruleset and its preset)."""
    ruleset, _, preset = str(value or "archipelago").partition("-")
    return ruleset, preset


@bp.post("/wordlists")
def upload_wordlist() -> Any:
    data = uploaded("file", "send the word list as the multipart field 'file'")
    services().quotas.wordlists.take(client_address())
    return jsonify(services().wordlists.add(data)), 201


# -- the moves of colonization's and First Draft's own screens --------------------------------

@bp.post("/games/<game_id>/english")
def english_turn(game_id: str) -> Any:
    """English's turn: ``{}`` (the referee draws) or ``{"draws": ["R", ...]}`` (the table drew)."""
    authorise(game_id)
    body = json_body()
    if not isinstance(body, dict):
        raise ServiceError("English's turn is {} or {'draws': ['R', ...]}")
    move: dict[str, Any] = {"player": ENGLISH}
    if body.get("draws"):
        move["draws"] = body["draws"]
    return jsonify(services().store.play(game_id, move).to_json())


@bp.post("/games/<game_id>/playerboard")
def read_player_board_photo(game_id: str) -> Any:
    """A photo of one First Draft player's board → its rows and pool, letter by letter."""
    session = services().store.session_of(game_id, "firstdraft",
                                          "player boards are read in First Draft games")
    name = request.args.get("player") or request.form.get("player") or ""
    boards = session.game.state()["boards"]
    if name not in boards:
        raise ServiceError(f"no player {name!r} in this game")
    board = boards[name]
    image = services().photos.frame(image_bytes())
    reading = photos.read_player_board(image, (len(board["rows"][0]), len(board["rows"][1]),
                                               len(board["pool"]))).to_json()
    rows = ["".join(tile["letter"] for tile in row) for row in reading["rows"]]
    return jsonify(reading | {"player": name, "recorded": {"rows": board["rows"],
                                                           "pool": board["pool"]},
                              "checks": sale_checks(session.game, rows, board["rows"])})


@bp.post("/games/<game_id>/drawn-tiles")
def read_drawn_tiles(game_id: str) -> Any:
    """A photo of the tiles drawn for English (its letter, then any tie-break tiles, laid left
    to right) → their letters, for the table to check before entering the draw."""
    services().store.session_of(game_id, "colonization",
                                "tiles are drawn for English in colonization games")
    image = services().photos.frame(image_bytes())
    reading = photos.read_player_board(image, None).to_json()
    tiles = [tile for row in reading["rows"] for tile in row] + reading["pool"]
    if not tiles:
        raise ServiceError("no tile found in the photo: lay the drawn tiles on a dark cloth")
    return jsonify({"tiles": tiles, "letters": "".join(tile["letter"] for tile in tiles)})


@bp.post("/games/<game_id>/sale-check")
def sale_check(game_id: str) -> Any:
    """Rows as read (and confirmed by tapping) → may each be sold, and for how much."""
    session = services().store.session_of(game_id, "firstdraft",
                                          "sales are checked in First Draft games")
    body = json_body()
    rows = body.get("rows") if isinstance(body, dict) else None
    if not isinstance(rows, list) or len(rows) != 2 or not all(
            isinstance(row, str) and all(is_tile_letter(letter) for letter in row)
            for row in rows):
        raise ServiceError("send {'rows': [row 1, row 2]} as letters")
    recorded = body.get("recorded")
    if not (isinstance(recorded, list) and len(recorded) == 2
            and all(isinstance(row, str) for row in recorded)):
        recorded = None
    return jsonify({"checks": sale_checks(session.game, [r.upper() for r in rows], recorded)})
