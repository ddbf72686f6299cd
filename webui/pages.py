"""The HTML screens: new game, the referee board, live camera, and disputes from a photo.

Pages are rendered on the server (one renderer for the board: ``macros.html``); a little plain
JavaScript refreshes the board panel when the game's event stream says it changed, posts camera
frames, and sends corrections through the JSON API. Nothing here knows the rules: verdicts come
from the service and are put into plain words by :func:`describe_verdict`.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from referee.boardtext import BoardTextError, Tile, parse_board_text
from referee.cells import COLUMNS, SIZE, Cell, Seat
from referee.tiles import load_tile_set, tile_set_names
from vision import other_tile_sets, reading_warnings, said_once, warned_cells
from webui.live import tile_question
from webui.service import ServiceError, get_service, parse_corners, tile_set_option

bp = Blueprint("pages", __name__)
log = logging.getLogger(__name__)

SEAT_NAMES = {"S": "South", "W": "West", "N": "North", "E": "East"}
SUGGESTED_SEATS = {1: "S", 2: "SN", 3: "SWN", 4: "SWNE"}
CELL = 40          # SVG units per cell
MARGIN = 22        # room for the coordinates around the grid
KEEP_UPLOADS = 50  # dispute photos kept in the instance folder


def _tile_set_label(name: str) -> str:
    """How a tile set is offered in a form: its name and the letters it adds to A-Z."""
    extra = [letter for letter in load_tile_set(name).letters if not "A" <= letter <= "Z"]
    return name.title() + (f" ({' '.join(extra)})" if extra else "")


TILE_SET_NAMES = {name: _tile_set_label(name) for name in tile_set_names()}
"""The tile sets a game or a dispute photo may use, by name, with the label forms show."""


@bp.errorhandler(ServiceError)
def service_error(error: ServiceError) -> Any:
    return render_template("error.html", status=error.status, message=str(error)), error.status


# -- the board as drawn ------------------------------------------------------------------------

@dataclass(frozen=True)
class DrawnCell:
    """Everything the SVG needs for one square."""

    name: str
    x: int
    y: int
    premium: str | None
    tile: Tile | None
    value: int
    owner: str | None
    marks: tuple[str, ...]   # "remove", "captured", "placed", "seen", "missing", "check"
    ghost: str | None = None  # the letter of a tile still to be lifted off (no longer in play)

    @property
    def css(self) -> str:
        classes = ["cell"] + [f"mark-{mark}" for mark in self.marks]
        if self.owner:
            classes.append(f"owner-{self.owner}")
        return " ".join(classes)


def premium_layout(ruleset: str, options: dict[str, Any]) -> dict[Cell, str]:
    """Premium squares as drawn: ``classic`` unless the game's preset is ``seed``."""
    try:
        from referee.layouts import load_layout
        layout = load_layout("seed" if options.get("preset") == "seed" else "classic")
    except (ImportError, ValueError):
        return {}
    return {cell: premium.value for cell, premium in layout.premiums.items()}


def draw_board(board_text: str | dict[Cell, Tile], ruleset: str, options: dict[str, Any],
               marks: dict[str, list[str]] | None = None,
               ghosts: dict[str, str] | None = None) -> list[DrawnCell]:
    if isinstance(board_text, dict):
        tiles = board_text
    else:
        try:
            tiles = parse_board_text(board_text)
        except BoardTextError:
            tiles = {}
    premiums = premium_layout(ruleset, options)
    tile_set = load_tile_set(str(options.get("tiles") or "english"))
    by_cell: dict[str, list[str]] = {}
    for mark, cells in (marks or {}).items():
        for name in cells:
            by_cell.setdefault(name, []).append(mark)
    drawn = []
    for row in range(SIZE):
        for col in range(SIZE):
            cell = Cell(col, row)
            tile = tiles.get(cell)
            owner = None
            if tile is not None and tile.rotation is not None and ruleset != "scrabble":
                owner = Seat.from_rotation(tile.rotation).value
            drawn.append(DrawnCell(
                name=cell.name, x=MARGIN + col * CELL, y=MARGIN + row * CELL,
                premium=premiums.get(cell), tile=tile,
                value=tile_set.value(tile.letter, tile.blank) if tile else 0,
                owner=owner, marks=tuple(by_cell.get(cell.name, ())),
                ghost=(ghosts or {}).get(cell.name) if tile is None else None))
    return drawn


def board_context() -> dict[str, Any]:
    return {"CELL": CELL, "MARGIN": MARGIN, "SIZE": SIZE, "COLUMNS": COLUMNS,
            "board_size": 2 * MARGIN + SIZE * CELL}


# -- verdicts in plain words ---------------------------------------------------------------------

def player_label(state: dict[str, Any], pid: str | None) -> str:
    for player in state.get("players", []):
        if player["id"] == pid:
            if player.get("seat"):
                return f"{player['name']} ({SEAT_NAMES.get(player['seat'], player['seat'])})"
            return str(player["name"])
    return str(pid)


def sentence(text: str) -> str:
    """The referee's messages are clauses ("there is a gap ..."); the table reads sentences."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def describe_verdict(state: dict[str, Any], verdict: dict[str, Any],
                     move: dict[str, Any] | None) -> dict[str, Any]:
    """A verdict as sentences for the table: headline, details, and the tiles to lift."""
    who = player_label(state, verdict.get("player"))
    if not verdict.get("legal"):
        details = [sentence(verdict.get("message") or verdict.get("reason") or "")]
        for cell, letters in (verdict.get("blank_offers") or {}).items():
            details.append(f"Tap {cell} to name the blank there"
                           + (f" (it could be {letters})." if letters else "."))
        gaps = verdict.get("gaps") or []
        if gaps:
            details.append(sentence(tile_question(", ".join(gaps))))
        if verdict.get("unexpected"):
            cells = ", ".join(change["cell"] for change in verdict["unexpected"][:8])
            details.append(f"Misread? Tap a square to correct it: {cells}.")
        return {"legal": False, "headline": f"Not legal: {who}'s play.",
                "details": details, "reason": verdict.get("reason"), "remove": []}
    move = move or {}
    words = verdict.get("words") or []
    if not words:
        if "exchange" in move:
            headline = f"{who} exchanged {move['exchange']} tile(s)."
        else:
            headline = f"{who} passed."
        return {"legal": True, "headline": headline, "details": [], "reason": None, "remove": []}
    main = words[0]
    headline = f"{who} played {main['word'].upper()} for {verdict.get('score', 0)}."
    details = []
    if len(words) > 1:
        details.append("Also formed: " + ", ".join(w["word"].upper() for w in words[1:]) + ".")
    for captured in verdict.get("captured_words") or []:
        owner = player_label(state, captured.get("owner"))
        details.append(f"Captured {owner}'s {captured['word'].upper()}.")
    if verdict.get("captured_tiles"):
        details.append("Tiles taken over: " + ", ".join(verdict["captured_tiles"]) + ".")
    for out in verdict.get("eliminated") or []:
        details.append(f"{player_label(state, out)} is eliminated.")
    return {"legal": True, "headline": headline, "details": details, "reason": None,
            "remove": list(verdict.get("remove") or [])}


@dataclass(frozen=True)
class SeenBoard:
    """The camera's refused reading drawn over the game's board, so a misread can be tapped."""

    tiles: dict[Cell, Tile]
    seen: list[str]       # cells where the reading differs from the game (drawn dashed)
    missing: list[str]    # cells the game has and the reading lacks
    blanks: list[str]     # blanks read but not yet named


def seen_board(state: dict[str, Any], reading_is_latest: bool) -> SeenBoard | None:
    """What to draw after an illegal camera play: the reading, its differences marked."""
    last = state["moves"][-1] if state["moves"] else None
    if not (reading_is_latest and last and not last.get("legal") and state.get("last_reading")):
        return None
    try:
        reading = parse_board_text(state["last_reading"])
        board = parse_board_text(state["board"])
    except BoardTextError:
        return None
    seen = sorted((cell for cell, tile in reading.items() if board.get(cell) != tile),
                  key=lambda cell: (cell.row, cell.col))
    missing = sorted((cell for cell in board if cell not in reading),
                     key=lambda cell: (cell.row, cell.col))
    if not seen and not missing:
        return None
    return SeenBoard(tiles={**board, **reading}, seen=[cell.name for cell in seen],
                     missing=[cell.name for cell in missing],
                     blanks=[cell.name for cell in seen if reading[cell].letter == "?"])


def panel_context(game_id: str) -> dict[str, Any]:
    service = get_service()
    state = service.state(game_id)
    game_session = service.session(game_id)
    options = game_session.spec.get("options") or {}
    last = state["moves"][-1] if state["moves"] else None
    last_move = state["history"][-1]["move"] if state["history"] else None
    marks: dict[str, list[str]] = {"remove": state["pending_remove"]}
    if last and last.get("legal"):
        placed = [cell for word in (last.get("words") or [])[:1] for cell in word["cells"]]
        marks["placed"] = placed
        marks["captured"] = list(last.get("captured_tiles") or [])
    elif last:
        marks["check"] = list(last.get("gaps") or [])  # where a tile may lie unseen
    latest = bool(state["history"]) and game_session.last_reading_seq == state["history"][-1]["seq"]
    seen = seen_board(state, latest)
    if seen is not None:
        marks["seen"] = seen.seen
        marks["missing"] = seen.missing
    table = state.get("live") or {}
    if (not state["pending_remove"] and table.get("detail")
            and table.get("waiting_for") == state["waiting_for"]):
        # The squares the table is told about while it waits (a tile half off its square, a
        # tile the last word may have that went unseen) are ringed on the board, as the panel
        # shows the words (_panel.html).
        marks["check"] = [*marks.get("check", []), *table.get("detail_cells", [])]
    ghosts = {}
    for verdict in state["moves"][-1:]:
        for captured in verdict.get("captured_words") or []:
            for letter, cell in zip(captured["word"], captured["cells"], strict=False):
                ghosts[cell] = letter.upper()
    players = []
    for player in state["players"]:
        pid = player["id"]
        row = {"id": pid, "label": player_label(state, pid), "seat": player.get("seat"),
               "to_move": state.get("to_move") == pid,
               "eliminated": pid in (state.get("eliminated") or [])}
        if "strength" in state:
            row["figure"] = state["strength"].get(pid, 0)
            row["words"] = [w["word"].upper() for w in state.get("active", {}).get(pid, [])]
        elif "scores" in state:
            row["figure"] = state["scores"].get(pid, state["scores"].get(player["name"], 0))
            row["words"] = []
        players.append(row)
    recent = []
    for entry, verdict in list(zip(state["history"], state["moves"], strict=False))[-8:]:
        recent.append(describe_verdict(state, verdict, entry["move"]) | {
            "source": entry["source"]})
    described = describe_verdict(state, last, last_move) if last else None
    if described is not None and seen is not None:
        offered = set((last or {}).get("blank_offers") or {})
        unnamed = [cell for cell in seen.blanks if cell not in offered]
        if unnamed:
            described["details"].append(
                f"Tap {', '.join(unnamed)} to name the blank there (its letter in lower case).")
        described["details"].append("Dashed tiles are what the camera read: tap one to "
                                    "correct it.")
    return {
        "game_id": game_id,
        "state": state,
        "cells": draw_board(seen.tiles if seen is not None else state["board"],
                            state["ruleset"], options, marks, ghosts),
        "last": described,
        "players": players,
        "recent": list(reversed(recent)),
        "figure_name": "strength" if "strength" in state else "score",
        "to_move_label": player_label(state, state.get("to_move")) if state.get("to_move")
        else None,
        "winner_label": player_label(state, state.get("winner")) if state.get("winner") else None,
        **board_context(),
    }


# -- routes ----------------------------------------------------------------------------------

@bp.get("/")
def index() -> Any:
    service = get_service()
    return render_template("index.html", games=service.game_ids(12), seats=SEAT_NAMES,
                           profiles=service.calibration_profiles(), tile_sets=TILE_SET_NAMES)


@bp.post("/games")
def create_game() -> Any:
    form = request.form
    names = [form.get(f"name{i}", "").strip() for i in range(4)]
    seats = [form.get(f"seat{i}", "").strip() for i in range(4)]
    chosen = [(name, seat) for name, seat in zip(names, seats, strict=True) if name]
    if not chosen:
        raise ServiceError("name at least one player")
    ruleset = form.get("ruleset", "archipelago")
    options: dict[str, Any] = {}
    if ruleset.startswith("scrabble"):
        options["preset"] = "seed" if ruleset == "scrabble-seed" else "classic"
        ruleset = "scrabble"
        players = [{"name": name} for name, _ in chosen]
    elif ruleset in ("colonization", "firstdraft"):  # issue 6: players by name, no seats
        players = [{"name": name} for name, _ in chosen]
    else:
        suggested = SUGGESTED_SEATS.get(len(chosen), "SWNE")
        players = [{"name": name, "seat": seat or suggested[i]}
                   for i, (name, seat) in enumerate(chosen)]
    tiles = tile_set_option(form.get("tiles"))
    if tiles != "english":
        options["tiles"] = tiles
    service = get_service()
    upload = request.files.get("wordlist_file")
    if form.get("wordlist") == "upload":
        if upload is None or not upload.filename:
            raise ServiceError("choose a word list file to upload")
        options["wordlist"] = service.add_wordlist(upload.read())["wordlist"]
    created = service.create_game({"ruleset": ruleset, "players": players, "options": options,
                                   "table": {"camera_side": form.get("camera_side", "S"),
                                             "calibration": form.get("calibration") or None}})
    tokens = dict(session.get("tokens", {}))
    tokens[created["id"]] = created["token"]
    session["tokens"] = tokens
    return redirect(url_for("pages.board", game_id=created["id"]))


def _token_for(game_id: str) -> str | None:
    return session.get("tokens", {}).get(game_id)


@bp.get("/games/<game_id>")
def board(game_id: str) -> Any:
    if get_service().session(game_id).ruleset in ("colonization", "firstdraft"):  # issue 6
        return redirect(url_for("variants.table", game_id=game_id))
    context = panel_context(game_id)
    get_service().mark_active(game_id)
    return render_template("board.html", token=_token_for(game_id), **context)


def _boardless(game_id: str) -> bool:
    """First Draft has no board to draw or to watch: its own screen stands for both."""
    return get_service().session(game_id).ruleset == "firstdraft"


@bp.get("/games/<game_id>/panel")
def panel(game_id: str) -> Any:
    if _boardless(game_id):
        return redirect(url_for("variants.table", game_id=game_id))
    return render_template("_panel.html", **panel_context(game_id))


@bp.get("/games/<game_id>/live")
def live_page(game_id: str) -> Any:
    if _boardless(game_id):
        return redirect(url_for("variants.table", game_id=game_id))
    context = panel_context(game_id)
    get_service().mark_active(game_id)
    return render_template("live.html", token=_token_for(game_id),
                           server_camera=current_app.config.get("CAMERA") is not None, **context)


# -- disputes: one photo, no game ---------------------------------------------------------------

def _upload_dir() -> Path:
    return Path(current_app.config["UPLOAD_DIR"])


def _photo_path(photo_id: str) -> Path:
    if not (len(photo_id) == 16 and all(c in "0123456789abcdef" for c in photo_id)):
        abort(404)
    path = _upload_dir() / f"{photo_id}.img"
    if not path.is_file():
        abort(404)
    return path


@bp.get("/dispute")
def dispute() -> Any:
    return render_template("dispute.html", photo_id=None, tiles="english",
                           tile_sets=TILE_SET_NAMES)


@bp.post("/dispute")
def dispute_upload() -> Any:
    tiles = tile_set_option(request.form.get("tiles"))
    upload = request.files.get("photo")
    if upload is None or not upload.filename:
        raise ServiceError("choose a photo of the board")
    data = upload.read()
    if not data:
        raise ServiceError("the photo is empty")
    get_service().load_photo(data)  # refuse non-images (and too big ones) before keeping any
    photo_id = hashlib.sha256(data).hexdigest()[:16]
    folder = _upload_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{photo_id}.img").write_bytes(data)
    old = sorted(folder.glob("*.img"), key=lambda p: p.stat().st_mtime)[:-KEEP_UPLOADS]
    for path in old:
        path.unlink(missing_ok=True)
    return redirect(_dispute_url(photo_id, tiles))


def _dispute_url(photo_id: str, tiles: str) -> str:
    """A dispute photo's page; the tile set rides along in the query unless it is English."""
    if tiles == "english":
        return url_for("pages.dispute_photo", photo_id=photo_id)
    return url_for("pages.dispute_photo", photo_id=photo_id, tiles=tiles)


def _dispute_context(photo_id: str, corners_arg: str | None, tiles_arg: str | None
                     ) -> dict[str, Any]:
    path = _photo_path(photo_id)
    tiles = tile_set_option(tiles_arg)
    corners = None
    if corners_arg:
        try:
            corners = parse_corners(json.loads(corners_arg))
        except (ValueError, RecursionError):  # not JSON, or nested thousands deep
            raise ServiceError("corners must be four [x, y] points") from None
    service = get_service()
    image = service.load_photo(path.read_bytes())
    context: dict[str, Any] = {"photo_id": photo_id, "reading": None, "error": None,
                               "found": False, "overlay": None, "cells": None,
                               "corners": corners,
                               "size": [int(image.shape[1]), int(image.shape[0])],
                               "tiles": tiles, "tile_sets": TILE_SET_NAMES,
                               "photo_url": _dispute_url(photo_id, tiles),
                               **board_context()}
    try:
        result = service.read_image(image, corners, overlay=True, tiles=tiles)
    except ServiceError as error:
        context["error"] = str(error)
        found = getattr(error, "corners", None)
        if corners is None and found is not None:
            context["corners"] = [[round(x, 1), round(y, 1)] for x, y in found]
            context["found"] = True
        return context
    except Exception:  # a reader bug: the players still get the photo and the corner editor
        log.exception("the board reader failed on dispute photo %s", photo_id)
        context["error"] = "The board reader failed on this photo: drag the corners and read " \
                           "it again, or take another photo."
        return context
    reading = result["reading"]
    warnings = reading_warnings(reading)
    # The squares a warning names are ringed on the board, so the players find them on the
    # table without matching names by hand.
    check = warned_cells(warnings)
    # Letters with marks the chosen set has none of (an Ä read as English): one tap reads the
    # photo again with each set that has such letters, the corners kept.
    kept: dict[str, Any] = {"corners": corners_arg} if corners_arg else {}
    context["other_sets"] = [
        {"label": TILE_SET_NAMES[name],
         "url": url_for("pages.dispute_photo", photo_id=photo_id, tiles=name, **kept)}
        for name in other_tile_sets(warnings) if name in TILE_SET_NAMES]
    context.update(reading=reading, overlay=result["overlay_png"], size=result["size"],
                   warning_lines=[warning.message for warning in said_once(warnings)],
                   corners=reading.get("corners"), check=check,
                   cells=draw_board(reading["board"], "archipelago", {"tiles": tiles},
                                    {"check": check}))
    return context


@bp.get("/dispute/<photo_id>")
def dispute_photo(photo_id: str) -> Any:
    return render_template("dispute.html", **_dispute_context(
        photo_id, request.args.get("corners"), request.args.get("tiles")))


@bp.get("/dispute/<photo_id>/image")
def dispute_image(photo_id: str) -> Any:
    """The uploaded photo as the browser can show it: JPEG, at most 1600 pixels a side (the
    corner editor maps its handles to the photo's own pixels through ``data-size``)."""
    import cv2

    image = get_service().load_photo(_photo_path(photo_id).read_bytes())
    height, width = image.shape[:2]
    scale = min(1.0, 1600 / max(height, width))
    if scale < 1.0:
        image = cv2.resize(image, (round(width * scale), round(height * scale)),
                           interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        abort(500)
    return current_app.response_class(data.tobytes(), mimetype="image/jpeg")


@bp.post("/dispute/<photo_id>/judge")
def dispute_judge(photo_id: str) -> Any:
    form = request.form
    context = _dispute_context(photo_id, form.get("corners") or None, form.get("tiles"))
    ruleset = form.get("ruleset", "archipelago")
    player = form.get("player", "S").strip()
    move = {"player": player, "word": form.get("word", "").strip(),
            "at": form.get("at", "").strip(), "dir": form.get("dir", "across")}
    board_text = form.get("board") or (context["reading"] or {}).get("board", "")
    try:
        verdict, after = get_service().judge_position_and_board(
            {"ruleset": ruleset, "board": board_text, "move": move,
             "options": {"tiles": context["tiles"]}})
        context["verdict"] = describe_verdict({"players": []}, verdict, move) | {"raw": verdict}
        # The board as judged (the players may have fixed misreads in the text), the play lit.
        words = verdict.get("words") or []
        context["cells"] = draw_board(after, ruleset, {"tiles": context["tiles"]}, {
            "placed": [cell for word in words[:1] for cell in word["cells"]],
            "remove": list(verdict.get("remove") or []),
            "check": context.get("check") or []})
    except ServiceError as error:
        context["verdict"] = {"legal": False, "headline": "Cannot judge this play.",
                              "details": [str(error)], "remove": [], "raw": None}
    context["form"] = form
    return render_template("dispute.html", **context)
