"""The game pages: the new-game form, the referee board and its panel, and the own screens of
the rulesets that have one (Colonization, First Draft: ``webui.screens.SCREENS``).

Pages are rendered on the server; a little plain JavaScript refreshes the panel when the game's
event stream says it changed and sends the table's actions through the JSON API.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, get_template_attribute, redirect, render_template, request, url_for

from referee.errors import SetupError
from referee.game import find_ruleset
from referee.hexboard import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, PALETTE
from referee.islands import DEFAULT_COLOURS
from webui.errors import ServiceError
from webui.photos import tile_set_option
from webui.positions import check_position
from webui.screens import SCREENS, panel_context, recent_games
from webui.services import services
from webui.views.common import TILE_SET_NAMES, client_address, remember_token, token_for
from webui.wording import SEAT_NAMES

bp = Blueprint("table", __name__)

SUGGESTED_SEATS = {1: "S", 2: "SN", 3: "SWN", 4: "SWNE"}
GAME_CHOICES = {
    "archipelago": "Archipelago (word capture)",
    "scrabble-classic": "Scrabble, classic board",
    "scrabble-seed": "Scrabble, seed layout",
    "colonization": "Colonization Mode (English takes words over)",
    "firstdraft": "First Draft (coasters, two rows, sell words)",
    "islands": "Islands (coloured stones on a hexagonal board)",
}
"""The new-game form's choices: a ruleset, or a ruleset and its preset, with their labels."""


def form_features(ruleset: str) -> list[str]:
    """What the new-game form asks for a ruleset, by what its referee says of it: ``seated``
    (a seat per player), ``coloured`` (a colour per player), ``words`` (a word list and tile
    set), ``squares`` (a camera side and the tiles already on the board, which the square
    board's reader reads), the ruleset's own name (its options: :data:`RULESET_OPTIONS`)."""
    try:
        game = find_ruleset(ruleset)
    except SetupError:
        return ["seated", "words", "squares"]
    named = {"seated": game.seated, "coloured": game.coloured, "words": game.uses_word_list,
             "squares": game.board_kind == "square"}
    return [feature for feature, wanted in named.items() if wanted] + [ruleset]


@bp.get("/")
def index() -> Any:
    choices = [(value, label, form_features(value.partition("-")[0]))
               for value, label in GAME_CHOICES.items()]
    return render_template("index.html", games=recent_games(services(), 12), seats=SEAT_NAMES,
                           choices=choices, profiles=services().table.calibration_profiles(),
                           tile_sets=TILE_SET_NAMES, palette=PALETTE, sizes=SIZES,
                           suggested_colours=DEFAULT_COLOURS)


@bp.post("/games")
def create_game() -> Any:
    form = request.form
    names = [form.get(f"name{i}", "").strip() for i in range(4)]
    seats = [form.get(f"seat{i}", "").strip() for i in range(4)]
    colours = [form.get(f"colour{i}", "").strip() for i in range(4)]
    chosen = [(name, seat, colour) for name, seat, colour in zip(names, seats, colours,
                                                                  strict=True) if name]
    if not chosen:
        raise ServiceError("name at least one player")
    # A choice is a ruleset, or a ruleset and its preset ("scrabble-seed").
    ruleset, _, preset = form.get("ruleset", "archipelago").partition("-")
    options: dict[str, Any] = {"preset": preset} if preset else {}
    features = form_features(ruleset)
    if "seated" in features:
        suggested = SUGGESTED_SEATS.get(len(chosen), "SWNE")
        players = [{"name": name, "seat": seat or suggested[i]}
                   for i, (name, seat, _) in enumerate(chosen)]
    elif "coloured" in features:
        players = [{"name": name, "colour": colour or DEFAULT_COLOURS[i]}
                   for i, (name, _, colour) in enumerate(chosen)]
    else:
        players = [{"name": name} for name, _, _ in chosen]
    if ruleset in RULESET_OPTIONS:
        options.update(RULESET_OPTIONS[ruleset](form, len(players)))
    tiles = tile_set_option(form.get("tiles")) if "words" in features else "english"
    if tiles != "english":
        options["tiles"] = tiles
    upload = request.files.get("wordlist_file")
    if form.get("wordlist") == "upload" and "words" in features:
        if upload is None or not upload.filename:
            raise ServiceError("choose a word list file to upload")
        services().quotas.wordlists.take(client_address())
        options["wordlist"] = services().wordlists.add(upload.read())["wordlist"]
    spec: dict[str, Any] = {
        "ruleset": ruleset, "players": players, "options": options,
        "table": {"camera_side": form.get("camera_side", "S"),
                  "calibration": form.get("calibration") or None}}
    if form.get("start_from") == "table" and "squares" in features:
        spec["position"] = _table_position(form, ruleset, tiles, players)
    services().quotas.games.take(client_address())
    created = services().store.create_game(spec)
    remember_token(created["id"], created["token"])
    return redirect(url_for("table.board", game_id=created["id"]))


def _islands_options(form: Any, players: int) -> dict[str, Any]:
    """Islands' options from the form: the board's side (3 to 10) and, with 3 or 4 players,
    whether players whose rank can no longer change are frozen (RULES.md §5)."""
    try:
        size = int(form.get("size") or DEFAULT_SIZE)
    except ValueError:
        raise ServiceError("the board's side is a number of cells, 3 to 10") from None
    options: dict[str, Any] = {"size": size}
    if players >= 3:
        options["frozen"] = form.get("frozen") == "on"
    return options


RULESET_OPTIONS: dict[str, Callable[[Any, int], dict[str, Any]]] = {
    "islands": _islands_options,
}
"""The rulesets whose options the new-game form asks for (in a fieldset of their own), and
what reads them from the form, given the number of players."""
SIZES = range(MIN_SIZE, MAX_SIZE + 1)


def _table_position(form: Any, ruleset: str, tiles: str, players: list[dict[str, Any]]
                    ) -> dict[str, Any]:
    """The position the players read from the table and fixed (the form's ``position_board``)
    and who plays next (``to_move``: the index of a player row, in turn order)."""
    board = form.get("position_board", "")
    if not board.strip():
        raise ServiceError("read the tiles on the table first (or start from an empty board)")
    seats = "".join(player.get("seat", "") for player in players)
    position = check_position(board, ruleset, tiles, seats or None)
    blockers = position.blockers()
    if blockers:
        raise ServiceError(f"{blockers[0]}: tap the square and give its letter, then start")
    try:
        mover = players[int(form.get("to_move", "0"))]
    except (ValueError, IndexError):
        raise ServiceError("choose who plays next") from None
    return {"board": position.board_text(), "to_move": mover.get("seat") or mover["name"]}


def own_screen(game_id: str) -> str | None:
    """The ruleset of a game played on a screen of its own, else None (the referee board)."""
    ruleset = services().store.session(game_id).ruleset
    return ruleset if ruleset in SCREENS else None


def live_screen(game_id: str) -> bool:
    """A game whose own screen hosts the live camera (islands): its live page is that screen
    with the camera on."""
    ruleset = own_screen(game_id)
    return ruleset is not None and SCREENS[ruleset].live


def boardless(game_id: str) -> bool:
    """A game played on the players' own boards (First Draft) has no table board to draw or
    to watch: its own screen stands for both."""
    return not services().store.session(game_id).game.table_board


@bp.get("/games/<game_id>")
def board(game_id: str) -> Any:
    if own_screen(game_id):
        return redirect(url_for("table.screen", game_id=game_id))
    context = panel_context(services(), game_id)
    services().table.mark_active(game_id)
    return render_template("board.html", token=token_for(game_id), **context)


@bp.get("/games/<game_id>/panel")
def panel(game_id: str) -> Any:
    if boardless(game_id):
        return redirect(url_for("table.screen", game_id=game_id))
    return render_template("_panel.html", **panel_context(services(), game_id))


# -- the screens of their own ----------------------------------------------------------------

def _screen_context(game_id: str) -> tuple[str, dict[str, Any]]:
    ruleset = own_screen(game_id)
    if ruleset is None:
        ruleset = services().store.session(game_id).ruleset
        raise ServiceError(f"game {game_id} is a {ruleset} game: its board is at"
                           f" /games/{game_id}")
    screen = SCREENS[ruleset]
    asked = {name: request.args[name] for name in screen.asks if request.args.get(name)}
    return ruleset, screen.context(services(), game_id, **asked)


def render_screen(game_id: str, live: bool = False) -> Any:
    """A ruleset's own screen (``live``: with the live camera, where the screen hosts it)."""
    ruleset, context = _screen_context(game_id)
    services().table.mark_active(game_id)
    return render_template(f"{ruleset}.html", token=token_for(game_id), game_id=game_id,
                           c=context, live=live)


@bp.get("/table/<game_id>")
def screen(game_id: str) -> Any:
    return render_screen(game_id)


@bp.get("/table/<game_id>/panel")
def screen_panel(game_id: str) -> Any:
    ruleset, context = _screen_context(game_id)
    return get_template_attribute(f"{ruleset}.html", "panel")(context)
