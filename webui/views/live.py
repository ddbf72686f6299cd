"""The live camera: its page, its frames, the last frame, and the board corners set by hand.

A phone or tablet at the table opens the live page; its script posts steady frames to
``/api/games/<id>/frames`` (``tileref serve --camera N`` feeds a USB webcam's frames to the same
:class:`webui.table.Table` instead). Writes need the game's token, as every write does.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, url_for

from webui.boardkinds import kind_of
from webui.screens import panel_context
from webui.services import services
from webui.views.common import authorise, bearer_token, image_bytes, json_body, token_for
from webui.views.table import boardless, live_screen, render_screen
from webui.wording import describe, labels

bp = Blueprint("live", __name__)


@bp.get("/games/<game_id>/live")
def live_page(game_id: str) -> Any:
    if boardless(game_id):
        return redirect(url_for("table.screen", game_id=game_id))
    if live_screen(game_id):
        return render_screen(game_id, live=True)
    context = panel_context(services(), game_id)
    services().table.mark_active(game_id)
    return render_template("live.html", token=token_for(game_id),
                           server_camera=current_app.config.get("CAMERA") is not None, **context)


@bp.post("/api/games/<game_id>/frames")
def post_frame(game_id: str) -> Any:
    authorise(game_id)
    return jsonify(_with_words(game_id, services().table.frame(game_id, image_bytes()).to_json()))


@bp.post("/api/games/<game_id>/done")
def done(game_id: str) -> Any:
    """The mover's play is finished (the Done button, the space bar): judge what the camera
    sees (FORMATS.md's turn protocol)."""
    authorise(game_id)
    answer = services().table.done(game_id, json_body()).to_json()
    return jsonify(_with_words(game_id, {key: answer[key] for key in ("verdict", "waiting_for")}))


def _with_words(game_id: str, answer: dict[str, Any]) -> dict[str, Any]:
    """The answer with ``said``: its verdict in the words the referee board shows it in
    (docs/formats.md), so the live page words a verdict as the board does."""
    verdict = answer["verdict"]
    game = services().store.session(game_id).game
    answer["said"] = None if verdict is None else describe(
        verdict, None, labels(game.players), game.standing, kind_of(game).corrects)
    return answer


@bp.get("/api/games/<game_id>/frame.jpg")
def last_frame(game_id: str) -> Any:
    """The camera's last frame: a photo of the players' table, so only for whoever holds the
    game's token (sent as a bearer token, or held by this browser's session)."""
    services().store.check_token(game_id, bearer_token() or token_for(game_id))
    frame = services().table.last_frame_jpeg(game_id)
    if frame is None:
        return jsonify({"error": "no camera frame yet"}), 404
    return Response(frame, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.post("/api/games/<game_id>/corners")
def set_corners(game_id: str) -> Any:
    authorise(game_id)
    table = services().table
    table.set_corners(game_id, json_body())
    return jsonify(table.state(game_id))
