"""The JSON API (FORMATS.md "The web API") and the additions the screens need.

Thin views: parse, call the service, return a dict. Every refusal is ``{"error": sentence}``
with a 4xx status (``ServiceError.status``); writes need ``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from webui.service import ServiceError, get_service, parse_corners

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.errorhandler(ServiceError)
def service_error(error: ServiceError) -> Any:
    return jsonify({"error": str(error)}), error.status


def json_body() -> Any:
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
    get_service().check_token(game_id, bearer_token())


def image_bytes() -> bytes:
    """The photo of a request: multipart field ``image``, or the raw body (``image/*``)."""
    if request.mimetype == "multipart/form-data":
        upload = request.files.get("image")
        if upload is None:
            raise ServiceError("send the photo as the multipart field 'image'")
        data = upload.read()
    else:
        data = request.get_data(cache=False)
    if not data:
        raise ServiceError("no image in the request")
    return data


@bp.post("/games")
def create_game() -> Any:
    return jsonify(get_service().create_game(json_body())), 201


@bp.get("/games")
def list_games() -> Any:
    return jsonify({"games": get_service().game_ids()})


@bp.get("/games/<game_id>")
def game_state(game_id: str) -> Any:
    return jsonify(get_service().state(game_id))


@bp.post("/games/<game_id>/moves")
def post_move(game_id: str) -> Any:
    authorise(game_id)
    return jsonify(get_service().play(game_id, json_body(), source="api"))


@bp.post("/games/<game_id>/frames")
def post_frame(game_id: str) -> Any:
    authorise(game_id)
    return jsonify(get_service().frame(game_id, image_bytes()))


@bp.post("/games/<game_id>/undo")
def undo(game_id: str) -> Any:
    authorise(game_id)
    return jsonify(get_service().undo(game_id))


@bp.post("/games/<game_id>/removed")
def tiles_removed(game_id: str) -> Any:
    authorise(game_id)
    return jsonify(get_service().confirm_removed(game_id))


@bp.post("/games/<game_id>/corrections")
def correct(game_id: str) -> Any:
    authorise(game_id)
    return jsonify(get_service().correct(game_id, json_body()))


@bp.post("/games/<game_id>/corners")
def set_corners(game_id: str) -> Any:
    authorise(game_id)
    return jsonify(get_service().set_corners(game_id, json_body()))


@bp.get("/games/<game_id>/frame.jpg")
def last_frame(game_id: str) -> Any:
    frame = get_service().last_frame_jpeg(game_id)
    if frame is None:
        return jsonify({"error": "no camera frame yet"}), 404
    return Response(frame, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/games/<game_id>/gcg")
def gcg(game_id: str) -> Any:
    from referee.gcg import write_gcg

    session = get_service().session_of(game_id, "scrabble", "GCG files are for scrabble games")
    try:
        text = write_gcg(session.game)
    except ValueError as error:
        raise ServiceError(str(error)) from None
    return Response(text, mimetype="text/plain", headers={
        "Content-Disposition": f'attachment; filename="tileref-{game_id}.gcg"'})


@bp.get("/games/<game_id>/events")
def events(game_id: str) -> Any:
    """Server-Sent Events: the state each time it changes (and a comment now and then)."""
    service = get_service()
    service.session(game_id)
    keepalive = float(current_app.config["SSE_KEEPALIVE"])
    once = request.args.get("once") == "1"

    def stream() -> Iterator[str]:
        version = service.version(game_id)
        yield _sse(service.state(game_id))
        if once:
            return
        while True:
            new = service.wait_for_change(game_id, version, keepalive)
            if new == version:
                yield ": still here\n\n"
                continue
            version = new
            yield _sse(service.state(game_id))

    return Response(stream(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _sse(state: dict[str, Any]) -> str:
    return f"event: state\nid: {state.get('version', 0)}\ndata: {json.dumps(state)}\n\n"


@bp.post("/read")
def read_photo() -> Any:
    corners = request.form.get("corners") or request.args.get("corners")
    parsed = None
    if corners:
        try:
            parsed = parse_corners(json.loads(corners))
        except (ValueError, RecursionError):  # not JSON, or nested thousands deep
            raise ServiceError("'corners' must be JSON: four [x, y] points") from None
    overlay = request.args.get("overlay") == "1"
    tiles = request.form.get("tiles") or request.args.get("tiles") or "english"
    result = get_service().read_photo(image_bytes(), parsed, overlay=overlay, tiles=tiles)
    if overlay:
        return jsonify(result)
    return jsonify(result["reading"])


@bp.post("/judge")
def judge() -> Any:
    return jsonify(get_service().judge_position(json_body()))


@bp.post("/wordlists")
def upload_wordlist() -> Any:
    if request.mimetype == "multipart/form-data":
        upload = request.files.get("file")
        if upload is None:
            raise ServiceError("send the word list as the multipart field 'file'")
        data = upload.read()
    else:
        data = request.get_data(cache=False)
    return jsonify(get_service().add_wordlist(data)), 201
