"""Disputes: a photo of the board with no game, what was read on it, and a play judged there.

The page keeps the photo (``webui.disputes``), shows what was read and where the board's grid
was found (drag the corners and read again), rings the squares the reader doubts, and judges a
play on the board as read or as the players fixed it. ``POST /api/read`` and ``POST /api/judge``
do the same for programs.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)

from referee.boardtext import parse_board_text
from vision import other_tile_sets, said_once, warned_cells
from webui.errors import ServiceError
from webui.photos import browser_jpeg, parse_corners, tile_set_option
from webui.screens import draw_board
from webui.services import services
from webui.views.common import TILE_SET_NAMES, client_address, image_bytes, json_body
from webui.wording import SEAT_NAMES, describe

bp = Blueprint("dispute", __name__)
log = logging.getLogger(__name__)


def _photo_path(photo_id: str) -> Path:
    path = services().disputes.path(photo_id)
    if path is None:
        abort(404)
    return path


def _corners(text: str | None, refusal: str) -> list[list[float]] | None:
    """Corners sent as JSON text (a form field, a query); ``refusal`` when they are no four
    points."""
    if not text:
        return None
    try:
        return parse_corners(json.loads(text))
    except (ValueError, RecursionError):  # not JSON, or nested thousands deep
        raise ServiceError(refusal) from None


@bp.get("/dispute")
def dispute() -> Any:
    return _upload_form()


def _upload_form(error: ServiceError | None = None, tiles: str = "english") -> Any:
    """The dispute page with only its upload form; with ``error``, the refusal said above the
    form, which stays there to try again (never a bare error page)."""
    page = render_template("dispute.html", photo_id=None, tiles=tiles,
                           tile_sets=TILE_SET_NAMES, upload_error=str(error) if error else None)
    return (page, error.status) if error else page


@bp.post("/dispute")
def dispute_upload() -> Any:
    chosen = request.form.get("tiles")
    try:
        tiles = tile_set_option(chosen)
        upload = request.files.get("photo")
        if upload is None or not upload.filename:
            raise ServiceError("choose a photo of the board")
        services().quotas.photos.take(client_address())
        photo_id = services().disputes.keep(upload.read())
    except ServiceError as error:
        return _upload_form(error, chosen if chosen in TILE_SET_NAMES else "english")
    return redirect(_dispute_url(photo_id, tiles))


def _dispute_url(photo_id: str, tiles: str) -> str:
    """A dispute photo's page; the tile set rides along in the query unless it is English."""
    if tiles == "english":
        return url_for("dispute.dispute_photo", photo_id=photo_id)
    return url_for("dispute.dispute_photo", photo_id=photo_id, tiles=tiles)


def _dispute_context(photo_id: str, corners_arg: str | None, tiles_arg: str | None
                     ) -> dict[str, Any]:
    path = _photo_path(photo_id)
    tiles = tile_set_option(tiles_arg)
    corners = _corners(corners_arg, "corners must be four [x, y] points")
    image = services().photos.photo(path.read_bytes())
    context: dict[str, Any] = {"photo_id": photo_id, "reading": None, "error": None,
                               "found": False, "overlay": None, "board_svg": None,
                               "corners": corners,
                               "size": [int(image.shape[1]), int(image.shape[0])],
                               "tiles": tiles, "tile_sets": TILE_SET_NAMES,
                               "photo_url": _dispute_url(photo_id, tiles)}
    try:
        read = services().disputes.read_image(image, corners, overlay=True, tiles=tiles)
    except ServiceError as error:
        context["error"] = str(error)
        found = getattr(error, "corners", None)
        if corners is None and found is not None:
            context["corners"] = _rounded(found)
            context["found"] = True
        return context
    except Exception:  # a reader bug: the players still get the photo and the corner editor
        log.exception("the board reader failed on dispute photo %s", photo_id)
        context["error"] = "The board reader failed on this photo: drag the corners and read " \
                           "it again, or take another photo."
        return context
    reading = read.reading
    warnings = list(reading.warning_details)
    # The squares a warning names are ringed on the board, so the players find them on the
    # table without matching names by hand.
    check = warned_cells(warnings)
    # Letters with marks the chosen set has none of (an Ä read as English): one tap reads the
    # photo again with each set that has such letters, the corners kept.
    kept: dict[str, Any] = {"corners": corners_arg} if corners_arg else {}
    context["other_sets"] = [
        {"label": TILE_SET_NAMES[name],
         "url": url_for("dispute.dispute_photo", photo_id=photo_id, tiles=name, **kept)}
        for name in other_tile_sets(warnings) if name in TILE_SET_NAMES]
    context.update(reading=reading, board_text=reading.board_text(), overlay=read.overlay_png,
                   size=list(read.size or ()),
                   warning_lines=[warning.message for warning in said_once(warnings)],
                   corners=_rounded(reading.corners), check=check,
                   board_svg=draw_board(reading.tiles(), {"tiles": tiles}, seated=True,
                                        marks={"check": check}, interactive=True))
    return context


def _rounded(corners: Any) -> list[list[float]]:
    """Corners as the corner editor gets them: image pixels to a tenth."""
    return [[round(float(x), 1), round(float(y), 1)] for x, y in corners]


@bp.get("/dispute/<photo_id>")
def dispute_photo(photo_id: str) -> Any:
    try:
        context = _dispute_context(photo_id, request.args.get("corners"),
                                   request.args.get("tiles"))
    except ServiceError as error:  # corners or a tile set that are no such thing
        return _upload_form(error)
    return render_template("dispute.html", **context)


@bp.get("/dispute/<photo_id>/image")
def dispute_image(photo_id: str) -> Any:
    """The uploaded photo as the browser can show it: JPEG, at most 1600 pixels a side (the
    corner editor maps its handles to the photo's own pixels through ``data-size``)."""
    data = browser_jpeg(services().photos.photo(_photo_path(photo_id).read_bytes()))
    if data is None:
        abort(500)
    return current_app.response_class(data, mimetype="image/jpeg")


@bp.post("/dispute/<photo_id>/judge")
def dispute_judge(photo_id: str) -> Any:
    form = request.form
    try:
        context = _dispute_context(photo_id, form.get("corners") or None, form.get("tiles"))
    except ServiceError as error:
        return _upload_form(error)
    ruleset = form.get("ruleset", "archipelago")
    player = form.get("player", "S").strip()
    move = {"player": player, "word": form.get("word", "").strip(),
            "at": form.get("at", "").strip(), "dir": form.get("dir", "across")}
    board_text = form.get("board") or context.get("board_text", "")
    try:
        judged, game = services().disputes.judge(
            {"ruleset": ruleset, "board": board_text, "move": move,
             "options": {"tiles": context["tiles"]}})
        verdict = judged.to_json()
        players = {player.id: SEAT_NAMES.get(player.id, player.id) for player in game.players}
        context["verdict"] = describe(verdict, move, players, game.standing) | {"raw": verdict}
        # The board the players fixed stays tappable; the play as judged is drawn below it.
        context["board_svg"] = draw_board(
            parse_board_text(board_text), {"tiles": context["tiles"]}, seated=True,
            marks={"check": context.get("check") or []}, interactive=True)
        words = verdict.get("words") or []
        context["judged_svg"] = draw_board(
            game.board.tiles, {"tiles": context["tiles"]}, seated=game.seated, marks={
                "placed": [cell for word in words[:1] for cell in word["cells"]],
                "remove": list(verdict.get("remove") or [])})
    except ServiceError as error:
        context["verdict"] = {"legal": False, "headline": "Cannot judge this play.",
                              "details": [str(error)], "remove": [], "raw": None}
    context["form"] = form
    return render_template("dispute.html", **context)


# -- the same for programs -------------------------------------------------------------------

@bp.post("/api/read")
def read_photo() -> Any:
    corners = _corners(request.form.get("corners") or request.args.get("corners"),
                       "'corners' must be JSON: four [x, y] points")
    overlay = request.args.get("overlay") == "1"
    tiles = request.form.get("tiles") or request.args.get("tiles") or "english"
    services().quotas.photos.take(client_address())
    read = services().disputes.read_photo(image_bytes(), corners, overlay=overlay, tiles=tiles)
    return jsonify(read.to_json() if overlay else read.reading.to_json())


@bp.post("/api/judge")
def judge() -> Any:
    verdict, _ = services().disputes.judge(json_body())
    return jsonify(verdict.to_json())
