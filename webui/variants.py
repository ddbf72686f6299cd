"""The table screens of Colonization Mode and First Draft (RULES.md §3–§4, issue 6).

The board page of a ``colonization`` or ``firstdraft`` game comes here. Like ``pages``, nothing
here knows the rules: the referee judges every move (posted by ``variants.js`` to the JSON API),
and this module turns the game's state and verdicts into what the table reads — sentences,
coloured words, a coaster line, the tally. A few JSON routes serve these screens alone:
English's turn (the referee draws, or the table enters the tiles it drew), a photo of the tiles
drawn for English, a photo of one First Draft player's board read into
letters, and the sale check of rows read from such a photo (after unsure tiles were tapped).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    get_template_attribute,
    jsonify,
    render_template,
    request,
    session,
)

from referee.boardtext import BoardTextError, is_tile_letter, parse_board_text
from referee.cells import Cell
from referee.tiles import load_tile_set
from webui.service import ServiceError, Unreadable, get_service

log = logging.getLogger(__name__)

bp = Blueprint("variants", __name__)

RULESETS = ("colonization", "firstdraft")
"""The rulesets whose board page (``/games/<id>``) is sent to these screens."""
ENGLISH = "English"
"""Colonization's non-player, as the referee names it in moves, scores and the turn order."""
PLAYER_COLOURS = ("S", "W", "N", "E")
"""Players are coloured by turn order with the four seat colours of ``style.css``."""
NO_VERDICT: dict[str, Any] = {}


@dataclass(frozen=True)
class ScreenConfig:
    """What the screens show; every number in one place."""

    recent_moves: int = 10


CONFIG = ScreenConfig()


@bp.errorhandler(ServiceError)
def service_error(error: ServiceError) -> Any:
    if request.path.startswith("/api/"):
        return jsonify({"error": str(error)}), error.status
    return render_template("error.html", status=error.status, message=str(error)), error.status


# -- words for the table ---------------------------------------------------------------------

def sentence(text: object) -> str:
    """The referee's reason as one sentence: capital first letter, a full stop at the end."""
    line = " ".join(str(text or "").split())
    if not line:
        return ""
    line = line[0].upper() + line[1:]
    return line if line.endswith((".", "!", "?")) else line + "."


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def illegal_lines(verdict: dict[str, Any]) -> dict[str, Any]:
    who = verdict.get("player") or "?"
    return {"legal": False, "headline": f"Not legal: {who}'s move.",
            "details": [sentence(verdict.get("message") or verdict.get("reason"))],
            "reason": verdict.get("reason")}


def _legal(headline: str, details: list[str]) -> dict[str, Any]:
    return {"legal": True, "headline": headline, "details": details, "reason": None}


def describe_colonization(verdict: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    """A colonization verdict as the sentences the table reads."""
    if not verdict.get("legal"):
        return illegal_lines(verdict)
    who = str(verdict.get("player"))
    if "language" in verdict:
        return _legal(f"{who} speaks {verdict['language']}.", [])
    if "agree" in verdict:
        if verdict["agree"]:
            return _legal("The table agrees.", [])
        taken = ", ".join(word.upper() for word in verdict.get("taken_back") or [])
        return _legal(f"Taken back: {taken}.", ["The table did not agree; the same player"
                                                " plays again."])
    if "transform" in verdict:
        target = verdict["transform"]
        values = verdict.get("values") or {}
        duel = (f"Duel: {who}'s {move.get('actor_tile', '?')} ({values.get('actor')}) against"
                f" {target['owner']}'s {move.get('owner_tile', '?')} ({values.get('owner')}).")
        if verdict.get("transformed"):
            details = [f"{target['word'].upper()} turns English: its {target['points']} points"
                       f" go from {target['owner']} to English."]
        else:
            details = ["The actor's tile is not higher: nothing happens."]
        if verdict.get("english_joins"):
            details.append(f"English joins the game, just before {who}.")
        return _legal(duel, details)
    if who == ENGLISH and "drawn" in verdict:
        return _describe_english_turn(verdict)
    if "adjustments" in verdict:
        changes = ", ".join(f"{name} {change:+d}" for name, change in
                            (verdict.get("adjustments") or {}).items())
        return _legal("The racks left are counted.", [f"Scores change: {changes}."]
                      if changes else [])
    words = verdict.get("words") or []
    if not words:
        if "exchange" in move:
            return _legal(f"{who} exchanged {plural(int(move['exchange']), 'tile')}.", [])
        return _legal(f"{who} passed.", [])
    main = words[0]
    details = []
    if len(words) > 1:
        details.append("Also formed: " + ", ".join(w["word"].upper() for w in words[1:]) + ".")
    for english in verdict.get("english") or []:
        if english.get("why") == "english-word":
            details.append(f"{english['word'].upper()} is an English word: it goes to English"
                           f" with its {english['points']} points.")
        else:
            details.append(f"{english['word'].upper()} takes {who} past 50: it goes to English"
                           f" with its {english['points']} points.")
    if verdict.get("english_joins"):
        details.append(f"English joins the game, just before {who}.")
    return _legal(f"{who} played {main['word'].upper()} for {verdict.get('score', 0)}.", details)


def _describe_english_turn(verdict: dict[str, Any]) -> dict[str, Any]:
    draws = verdict.get("draws") or []
    entered = bool(draws) and all(draw.get("entered") for draw in draws)
    how = "drawn at the table" if entered else f"drawn by the referee, seed {verdict.get('seed')}"
    letter = verdict.get("drawn")
    details = []
    candidates = verdict.get("candidates") or []
    if not candidates:
        details.append(f"No player's word touching English has {letter}: nothing happens.")
    elif len(candidates) > 1:
        details.append("Candidates: " + ", ".join(c["word"].upper() for c in candidates) + ".")
    for number, tiebreak in enumerate(verdict.get("tiebreaks") or [], start=1):
        drawn = ", ".join(f"{t['word'].upper()} drew {t['tile']} ({t['value']})" for t in tiebreak)
        details.append(f"Tie-break {number}: {drawn}.")
    claimed = verdict.get("claimed")
    if claimed:
        details.append(f"English claims {claimed['word'].upper()}: its {claimed['points']}"
                       f" points go from {claimed['owner']} to English.")
    return _legal(f"English drew {letter} ({how}).", details)


def describe_firstdraft(verdict: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    """A First Draft verdict as the sentences the table reads."""
    if not verdict.get("legal"):
        return illegal_lines(verdict)
    who = str(verdict.get("player"))
    if "sold" in verdict:
        sold = verdict["sold"]
        return _legal(f"{who} sold {sold['word']} (row {sold['row']}) for"
                      f" {plural(sold['coins'], 'coin')}.", [])
    if "discarded" in verdict:
        gone = verdict["discarded"]
        return _legal(f"{who} turned row {gone['row']} ({gone['letters']}) face down.",
                      [f"It costs {plural(len(gone['letters']), 'coin')} at the end."])
    if "coaster" in verdict:
        taken = verdict["coaster"]
        details = []
        if taken["cost"]:
            details.append(f"Paid {plural(taken['cost'], 'coin')}, one on each coaster passed"
                           " over.")
        if taken["coins_taken"]:
            details.append(f"Picked up {plural(taken['coins_taken'], 'coin')} from it.")
        return _legal(f"{who} took coaster {taken['position']} ({taken['letters']}).", details)
    rows = " · ".join(row or "—" for row in verdict.get("rows") or [])
    now = f"rows {rows}, pool {verdict.get('pool') or '—'}"
    details = []
    if verdict.get("face_down"):
        details.append(f"Face down: {verdict['face_down']}.")
    refill = verdict.get("refill")
    if verdict.get("game_over"):
        details.append("The bag cannot fill the next coaster: the game is over. Everyone may"
                       " still sell.")
    elif refill:
        details.append(f"New coaster {refill['coaster']} at the end of the line:"
                       f" {refill['letters']}.")
    if refill is None:
        return _legal(f"{who} moved pool letters into rows: {now}.", details)
    return _legal(f"{who} placed the letters: {now}.", details)


def recent(state: dict[str, Any], describe: Any) -> list[dict[str, Any]]:
    pairs = list(zip(state["history"], state["moves"], strict=False))[-CONFIG.recent_moves:]
    return [describe(verdict, entry["move"]) | {"source": entry["source"]}
            for entry, verdict in reversed(pairs)]


def _last(state: dict[str, Any], describe: Any) -> dict[str, Any] | None:
    if not state["moves"]:
        return None
    return describe(state["moves"][-1], state["history"][-1]["move"])


# -- colonization ----------------------------------------------------------------------------

def owner_colours(state: dict[str, Any]) -> dict[str, str]:
    colours = {p["id"]: PLAYER_COLOURS[i % len(PLAYER_COLOURS)]
               for i, p in enumerate(state["players"])}
    colours[ENGLISH] = "english"
    return colours


def cell_owners(words: list[dict[str, Any]], colours: dict[str, str]) -> dict[str, str]:
    """The colour of each tile: white once any word through it is English, else the colour of
    the first word laid through it (the player who put the tile down)."""
    owners: dict[str, str] = {}
    for word in words:
        for name in word["cells"]:
            if word["owner"] == ENGLISH:
                owners[name] = colours[ENGLISH]
            else:
                owners.setdefault(name, colours.get(word["owner"], "none"))
    return owners


def colonization_context(game_id: str) -> dict[str, Any]:
    from webui.pages import DrawnCell, board_context, premium_layout

    service = get_service()
    state = service.state(game_id)
    options = service.session(game_id).spec.get("options") or {}
    colours = owner_colours(state)
    words = state.get("words") or []
    owners = cell_owners(words, colours)
    last = state["moves"][-1] if state["moves"] else NO_VERDICT
    placed = {name for word in (last.get("words") or [])[:1] for name in word["cells"]} \
        if last.get("legal") else set()
    try:
        tiles = parse_board_text(state["board"])
    except BoardTextError:
        tiles = {}
    premiums = premium_layout("colonization", options)
    tile_set = load_tile_set("english")
    geometry = board_context()
    cells = []
    for row in range(geometry["SIZE"]):
        for col in range(geometry["SIZE"]):
            cell = Cell(col, row)
            tile = tiles.get(cell)
            cells.append(DrawnCell(
                name=cell.name, x=geometry["MARGIN"] + col * geometry["CELL"],
                y=geometry["MARGIN"] + row * geometry["CELL"],
                premium=premiums.get(cell), tile=tile,
                value=tile_set.value(tile.letter, tile.blank) if tile else 0,
                owner=owners.get(cell.name) if tile else None,
                marks=("placed",) if cell.name in placed else ()))
    scores = state.get("scores") or {}
    languages = state.get("languages") or {}
    to_move = state.get("to_move")
    players = []
    for player in state["players"]:
        pid = player["id"]
        players.append({
            "id": pid, "name": player["name"], "colour": colours[pid],
            "language": languages.get(pid), "score": scores.get(pid, 0),
            "words": [w for w in words if w["owner"] == pid], "to_move": to_move == pid,
            "transform_used": pid in (state.get("transforms_used") or [])})
    english = {"present": ENGLISH in (state.get("order") or []),
               "score": scores.get(ENGLISH, 0), "to_move": to_move == ENGLISH,
               "words": [w for w in words if w["owner"] == ENGLISH]}
    if state.get("winner") is not None or (to_move is None and state["moves"]):
        phase = "over"
    elif len(languages) < len(state["players"]):
        phase = "languages"
    elif state.get("awaiting_agreement"):
        phase = "agree"
    elif to_move == ENGLISH:
        phase = "english"
    else:
        phase = "play"
    last_play = None
    if phase == "agree":
        last_play = next((entry["move"] for entry in reversed(state["history"])
                          if entry["legal"]), None)
    targets = [w | {"dir": "down" if len(w["cells"]) > 1 and w["cells"][0][0] ==
                    w["cells"][1][0] else "across"}
               for w in words if w["owner"] not in (to_move, ENGLISH)
               and to_move not in (state.get("transforms_used") or [])]
    ranking = sorted(([p["name"], p["score"]] for p in players), key=lambda r: -r[1])
    if english["present"]:
        ranking = sorted(ranking + [[ENGLISH, english["score"]]], key=lambda r: -r[1])
    return {
        "game_id": game_id, "state": state, "cells": cells, "players": players,
        "english": english, "phase": phase, "to_move": to_move, "targets": targets,
        "order": state.get("order") or [], "colours": colours,
        "last": _last(state, describe_colonization), "last_play": last_play,
        "agree_by": (last_play or {}).get("player") or (state["players"][0]["id"]),
        "recent": recent(state, describe_colonization), "ranking": ranking,
        "winner": state.get("winner"), "unnamed": [p for p in players if not p["language"]],
        "racks_to_count": phase == "over" and "adjustments" not in state,
        **geometry,
    }


# -- first draft -----------------------------------------------------------------------------

def firstdraft_context(game_id: str) -> dict[str, Any]:
    service = get_service()
    state = service.state(game_id)
    game = service.session(game_id).game
    to_move = state.get("to_move")
    over = to_move is None
    in_hand = state.get("in_hand")
    players = player_rows(state, state["boards"])
    mover_coins = next((p["board"]["coins"] for p in players if p["id"] == to_move), 0)
    line = [coaster | {"position": index, "cost": index - 1,
                       "affordable": index - 1 <= mover_coins}
            for index, coaster in enumerate(state.get("line") or [], start=1)]
    tally = []
    if over:
        scores = state.get("scores") or {}
        for player in players:
            board = player["board"]
            unsold = sum(game.sale_price(row) or 0 for row in board["rows"])
            tally.append({"name": player["name"], "coins": board["coins"], "unsold": unsold,
                          "face_down": board["face_down"], "total": scores.get(player["id"], 0)})
        tally.sort(key=lambda row: -row["total"])
    pool_size = game.rules.pool_size
    placing = None
    if in_hand is not None and to_move is not None:
        mover = next(p for p in players if p["id"] == to_move)["board"]
        letters = "".join(sorted(mover["pool"] + in_hand["letters"]))
        placing = {"letters": in_hand["letters"], "rows": mover["rows"],
                   "pool": letters[:pool_size], "face_down": letters[pool_size:]}
    return {
        "game_id": game_id, "state": state, "players": players, "line": line,
        "in_hand": in_hand, "to_move": to_move, "over": over, "placing": placing,
        "tally": tally, "winner": state.get("winner"), "pool_size": pool_size,
        "row_length": game.rules.row_length,
        "last": _last(state, describe_firstdraft),
        "recent": recent(state, describe_firstdraft),
    }


def player_rows(state: dict[str, Any], boards: dict[str, Any]) -> list[dict[str, Any]]:
    """The service's player list joined with the referee's boards (keyed by name)."""
    return [{"id": player["id"], "name": player["name"], "board": boards[player["id"]],
             "colour": PLAYER_COLOURS[index % len(PLAYER_COLOURS)],
             "to_move": state.get("to_move") == player["id"]}
            for index, player in enumerate(state["players"])]


# -- routes ----------------------------------------------------------------------------------

def _token_for(game_id: str) -> str | None:
    return session.get("tokens", {}).get(game_id)


def _context(game_id: str) -> tuple[str, dict[str, Any]]:
    ruleset = get_service().session(game_id).ruleset
    if ruleset not in RULESETS:
        raise ServiceError(f"game {game_id} is a {ruleset} game: its board is at"
                           f" /games/{game_id}")
    context = colonization_context if ruleset == "colonization" else firstdraft_context
    return ruleset, context(game_id)


@bp.get("/table/<game_id>")
def table(game_id: str) -> Any:
    ruleset, context = _context(game_id)
    get_service().mark_active(game_id)
    return render_template(f"{ruleset}.html", token=_token_for(game_id), game_id=game_id,
                           c=context)


@bp.get("/table/<game_id>/panel")
def panel(game_id: str) -> Any:
    ruleset, context = _context(game_id)
    return get_template_attribute(f"{ruleset}.html", "panel")(context)


@bp.post("/api/games/<game_id>/english")
def english_turn(game_id: str) -> Any:
    """English's turn: ``{}`` (the referee draws) or ``{"draws": ["R", ...]}`` (the table drew)."""
    from webui.api import authorise, json_body

    authorise(game_id)
    body = json_body()
    if not isinstance(body, dict):
        raise ServiceError("English's turn is {} or {'draws': ['R', ...]}")
    move: dict[str, Any] = {"player": ENGLISH}
    if body.get("draws"):
        move["draws"] = body["draws"]
    return jsonify(get_service().play(game_id, move))


@bp.post("/api/games/<game_id>/playerboard")
def read_player_board_photo(game_id: str) -> Any:
    """A photo of one First Draft player's board → its rows and pool, letter by letter."""
    from webui.api import image_bytes

    session_ = get_service().session_of(game_id, "firstdraft",
                                        "player boards are read in First Draft games")
    name = request.args.get("player") or request.form.get("player") or ""
    boards = session_.game.state()["boards"]
    if name not in boards:
        raise ServiceError(f"no player {name!r} in this game")
    board = boards[name]
    reading = read_photo(image_bytes(), (len(board["rows"][0]), len(board["rows"][1]),
                                         len(board["pool"])))
    rows = ["".join(tile["letter"] for tile in row) for row in reading["rows"]]
    return jsonify(reading | {"player": name, "recorded": {"rows": board["rows"],
                                                           "pool": board["pool"]},
                              "checks": sale_checks(session_.game, rows, board["rows"])})


@bp.post("/api/games/<game_id>/drawn-tiles")
def read_drawn_tiles(game_id: str) -> Any:
    """A photo of the tiles drawn for English (its letter, then any tie-break tiles, laid left
    to right) → their letters, for the table to check before entering the draw."""
    from webui.api import image_bytes

    get_service().session_of(game_id, "colonization",
                             "tiles are drawn for English in colonization games")
    reading = read_photo(image_bytes(), None)
    tiles = [tile for row in reading["rows"] for tile in row] + reading["pool"]
    if not tiles:
        raise ServiceError("no tile found in the photo: lay the drawn tiles on a dark cloth")
    return jsonify({"tiles": tiles, "letters": "".join(tile["letter"] for tile in tiles)})


@bp.post("/api/games/<game_id>/sale-check")
def sale_check(game_id: str) -> Any:
    """Rows as read (and confirmed by tapping) → may each be sold, and for how much."""
    from webui.api import json_body

    session_ = get_service().session_of(game_id, "firstdraft",
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
    return jsonify({"checks": sale_checks(session_.game, [r.upper() for r in rows], recorded)})


def sale_checks(game: Any, rows: list[str], recorded: list[str] | None) -> list[dict[str, Any]]:
    """One sentence per row: what it sells for, or why it cannot be sold."""
    checks = []
    for number, row in enumerate(rows, start=1):
        price = game.sale_price(row) if row else None
        if not row:
            text = f"Row {number} is empty."
        elif price is None:
            text = (f"Row {number} ({row}) cannot be sold: it is not one word of"
                    f" {game.rules.min_word} to {game.rules.row_length} letters in the word list.")
        else:
            text = f"Row {number} ({row}) sells for {plural(price, 'coin')}."
        if recorded is not None and recorded[number - 1] != row:
            text += f" The referee has {recorded[number - 1] or 'nothing'} in row {number}."
        checks.append({"row": number, "word": row, "coins": price, "sentence": text})
    return checks


def read_photo(data: bytes, expected: tuple[int, int, int] | None) -> dict[str, Any]:
    """A photo → the player-board reader's JSON (letters, confidences, the unsure flags)."""
    from vision import ImageError, VisionError, load_image, read_player_board

    service = get_service()
    try:
        image = load_image(data, max_bytes=service.live_config.max_frame_bytes,
                           max_pixels=service.live_config.max_frame_pixels)
    except ImageError as error:
        raise ServiceError(str(error)) from None
    try:
        reading = read_player_board(image, expected=expected)
    except VisionError as error:
        raise ServiceError(str(error)) from None
    except Exception:  # a reader bug must not look like the player's fault: log it, say so
        log.exception("the player-board reader failed on a photo")
        raise Unreadable("the tile reader failed on this photo; type the letters instead"
                         ) from None
    return reading.to_json()
