"""What each table screen shows: its template context, built from the game's state.

The referee board (archipelago, scrabble) draws the board with its marks and a panel of players,
the last verdict and the recent moves; Colonization and First Draft have screens of their own
(:data:`SCREENS`). Nothing here knows the rules: verdicts are worded by ``webui.wording``, the
board is drawn by ``webui.boardsvg``, and what differs between rulesets (seats, the figure beside
a player's name) is asked of the referee's game.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee.boardtext import Tile
from referee.cells import Cell, Seat
from referee.colonization import ENGLISH
from referee.errors import IllegalPlayError
from referee.hexboard import HexBoard, HexCell, colour_name
from referee.tiles import load_tile_set
from webui import boardsvg, hexsvg
from webui.wording import (
    ENDED,
    and_list,
    describe,
    labels,
    logged,
    provisional_said,
    put_back,
    recent,
    sentence,
    stones_laying_said,
    taken_back,
)

if TYPE_CHECKING:
    from webui.events import GameSession
    from webui.services import Services

PLAYER_COLOURS = ("S", "W", "N", "E")
"""Players are coloured by turn order with the four seat colours of ``style.css``."""
NO_VERDICT: dict[str, Any] = {}


@dataclass(frozen=True)
class ScreenConfig:
    """What the screens show; every number in one place."""

    recent_moves: int = 10
    """Moves listed on Colonization's and First Draft's screens..."""
    board_recent_moves: int = 8
    """...and on the referee board."""


CONFIG = ScreenConfig()


# -- the board as drawn ------------------------------------------------------------------------

def premium_layout(options: Mapping[str, Any]) -> dict[Cell, str]:
    """Premium squares as drawn: ``classic`` unless the game's preset is ``seed``."""
    try:
        from referee.layouts import load_layout
        layout = load_layout("seed" if options.get("preset") == "seed" else "classic")
    except (ImportError, ValueError):
        return {}
    return {cell: premium.value for cell, premium in layout.premiums.items()}


def draw_board(tiles: Mapping[Cell, Tile], options: Mapping[str, Any], *, seated: bool = False,
               owners: Mapping[Cell, str] | None = None,
               marks: Mapping[str, Iterable[str]] | None = None,
               ghosts: Mapping[str, str] | None = None, interactive: bool = False,
               edges: Mapping[str, str] | None = None) -> str:
    """The SVG of a game's board: the premium squares of its preset and the tile values of
    its tile set (``options``); ``seated``: players sit at sides, so a tile is coloured as the
    seat its top faces (``referee.game.Game.seated``), unless ``owners`` colour the tiles;
    ``edges``: the player sitting at each side (seat letter → name), written along it."""
    tile_set = load_tile_set(str(options.get("tiles") or "english"))
    if owners is None and seated:
        owners = {cell: Seat.from_rotation(tile.rotation).value for cell, tile in tiles.items()
                  if tile.rotation is not None}
    return boardsvg.board(
        tiles, premiums=premium_layout(options), owners=owners, marks=marks, ghosts=ghosts,
        values={cell: tile_set.value(tile.letter, tile.blank) for cell, tile in tiles.items()},
        interactive=interactive, edges=edges)


# -- the referee board ------------------------------------------------------------------------

@dataclass(frozen=True)
class SeenBoard:
    """The camera's refused reading drawn over the game's board, so a misread can be tapped."""

    tiles: dict[Cell, Tile]
    seen: list[str]       # cells where the reading differs from the game (drawn dashed)
    missing: list[str]    # cells the game has and the reading lacks
    blanks: list[str]     # blanks read but not yet named


def seen_board(session: GameSession) -> SeenBoard | None:
    """What to draw after an illegal camera play: the reading, its differences marked."""
    last = session.verdicts[-1] if session.verdicts else None
    reading = session.last_reading
    latest = bool(session.history) and session.last_reading_seq == session.history[-1]["seq"] \
        and not session.history[-1].get("withdrawn")
    if not (latest and last and not last.get("legal") and reading is not None):
        return None
    board = session.game.board.tiles
    seen = sorted((cell for cell, tile in reading.items() if board.get(cell) != tile),
                  key=lambda cell: (cell.row, cell.col))
    missing = sorted((cell for cell in board if cell not in reading),
                     key=lambda cell: (cell.row, cell.col))
    if not seen and not missing:
        return None
    return SeenBoard(tiles={**board, **reading}, seen=[cell.name for cell in seen],
                     missing=[cell.name for cell in missing],
                     blanks=[cell.name for cell in seen if reading[cell].letter == "?"])


RULESET_NAMES = {"archipelago": "Archipelago", "scrabble": "Scrabble",
                 "colonization": "Colonization", "firstdraft": "First Draft", "islands": "Islands"}


def recent_games(services: Services, count: int) -> list[dict[str, Any]]:
    """The home page's recent games, newest first, each told apart at a glance: when it was
    started, what is played, who plays with what figure, and where it stands."""
    from webui.errors import ServiceError

    games = []
    for listed in services.store.game_ids(count):
        row = {"id": listed["id"], "ruleset": RULESET_NAMES.get(listed["ruleset"],
                                                                 str(listed["ruleset"])),
               "started": time.strftime("%d %b %Y, %H:%M", time.localtime(listed["created_at"])),
               "players": ", ".join(str(player.get("name") or player.get("seat") or "?")
                                    for player in listed["players"] or []),
               "moves": 0, "standing": "", "figures": ""}
        try:
            game = services.store.session(listed["id"]).game
        except ServiceError as error:
            row["standing"] = f"cannot be rebuilt: {error}"
            games.append(row)
            continue
        names = labels(game.players)
        figures = game.standings()
        row["moves"] = len(game.history)
        row["figures"] = " · ".join(f"{names[player.id]} {figures[player.id]}"
                                    for player in game.players if player.id in figures)
        mover = game.to_move
        if game.is_over or mover is None:
            row["standing"] = f"over: {names.get(game.winner, game.winner)} won" \
                if game.winner else "over"
        else:
            row["standing"] = f"{names.get(mover.id, mover.id)} to play"
        games.append(row)
    return games


def panel_context(services: Services, game_id: str) -> dict[str, Any]:
    state = services.table.state(game_id)
    game_session = services.store.session(game_id)
    options = game_session.spec.get("options") or {}
    last = state["moves"][-1] if state["moves"] else None
    marks: dict[str, list[str]] = {"remove": state["pending_remove"],
                                   "restore": [item["cell"] for item in state["restore"]]}
    if last and last.get("legal"):
        placed = [cell for word in (last.get("words") or [])[:1] for cell in word["cells"]]
        marks["placed"] = placed
        marks["captured"] = list(last.get("captured_tiles") or [])
    elif last:
        marks["check"] = list(last.get("gaps") or [])  # where a tile may lie unseen
    seen = seen_board(game_session)
    if seen is not None:
        marks["seen"] = seen.seen
        marks["missing"] = seen.missing
    table = state.get("live") or {}
    laying = table.get("provisional") \
        if not (state["pending_remove"] or state["restore"]) else None
    drawn = seen.tiles if seen is not None else dict(game_session.game.board.tiles)
    if laying:
        # The play being laid, drawn as the camera sees it, its new tiles outlined: not judged.
        drawn.update({Cell.parse(name): Tile.parse(token)
                      for name, token in laying.get("tiles", {}).items()})
        marks["provisional"] = list(laying.get("placed") or [])
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
    game = game_session.game
    names = labels(game.players)
    seat_labels = {player.seat.value: names[player.id] for player in game.players
                   if player.seat is not None}
    figures = game.standings()
    players = []
    for player in state["players"]:
        pid = player["id"]
        row = {"id": pid, "label": names.get(pid, pid), "seat": player.get("seat"),
               "to_move": state.get("to_move") == pid,
               "eliminated": pid in (state.get("eliminated") or [])}
        if figures:
            row["figure"] = figures.get(pid, 0)
            row["words"] = [word.upper() for word in game.standing_words(pid)]
            row["parts"] = [(word.upper(), value) for word, value in game.standing_parts(pid)]
        players.append(row)
    described = logged(state["history"][-1], last, names, game.standing) if last else None
    restore = put_back({item["cell"]: item["tile"] for item in state["restore"]}, game.players)
    if state.get("undone"):
        described = taken_back(state["undone"], names, restore)
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
        "spoken": spoken(described, state) if described is not None else None,
        "board_svg": draw_board(drawn, options, seated=game.seated, marks=marks, ghosts=ghosts,
                                interactive=True, edges=seat_labels),
        "last": described,
        "laying": provisional_said(laying, names, game_session.commit) if laying else None,
        "restore_words": restore,
        "seat_labels": seat_labels,
        "commit": game_session.commit,
        "players": players,
        "recent": recent(state["history"], state["moves"], names, CONFIG.board_recent_moves,
                         game.standing),
        "figure_name": game.standing,
        "seated": game.seated,
        "to_move_label": names.get(state["to_move"], state["to_move"]) if state.get("to_move")
        else None,
        "winner_label": names.get(state["winner"], state["winner"]) if state.get("winner")
        else None,
    }


def spoken(said: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, str]:
    """What the table says aloud of its latest news (a verdict, an undo, a refusal withdrawn),
    for players who do not look at the tablet: ``{"key"}``, which changes only with the news,
    and ``{"text"}``, the verdict's words and the tiles to lift off."""
    text = " ".join([said["headline"], *said["details"]])
    if said.get("remove"):
        text += f" Lift off {and_list(said['remove'])}."
    history = state.get("history") or []
    last = history[-1] if history else {}
    key = f"{last.get('seq', 0)}{'-undone' if state.get('undone') else ''}" \
          f"{'-withdrawn' if last.get('withdrawn') else ''}"
    return {"key": key, "text": text}


def _last(state: dict[str, Any]) -> dict[str, Any] | None:
    if not state["moves"]:
        return None
    return describe(state["moves"][-1], state["history"][-1]["move"])


def _recent(state: dict[str, Any]) -> list[dict[str, Any]]:
    return recent(state["history"], state["moves"], None, CONFIG.recent_moves)


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


def colonization_context(services: Services, game_id: str) -> dict[str, Any]:
    state = services.table.state(game_id)
    session = services.store.session(game_id)
    game, options = session.game, session.spec.get("options") or {}
    colours = owner_colours(state)
    words = state.get("words") or []
    owners = cell_owners(words, colours)
    last = state["moves"][-1] if state["moves"] else NO_VERDICT
    placed = {name for word in (last.get("words") or [])[:1] for name in word["cells"]} \
        if last.get("legal") else set()
    tiles = game.board.tiles
    # Colouring tiles by the words' owners; the values printed are English's, as always here.
    board_svg = draw_board(tiles, {**options, "tiles": "english"},
                           owners={cell: owners[cell.name] for cell in tiles
                                   if cell.name in owners},
                           marks={"placed": placed})
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
        "game_id": game_id, "state": state, "board_svg": board_svg, "players": players,
        "english": english, "phase": phase, "to_move": to_move, "targets": targets,
        "order": state.get("order") or [], "colours": colours,
        "last": _last(state), "last_play": last_play,
        "agree_by": (last_play or {}).get("player") or (state["players"][0]["id"]),
        "recent": _recent(state), "ranking": ranking,
        "winner": state.get("winner"), "unnamed": [p for p in players if not p["language"]],
        "racks_to_count": phase == "over" and "adjustments" not in state,
    }


# -- first draft -----------------------------------------------------------------------------

def firstdraft_context(services: Services, game_id: str) -> dict[str, Any]:
    state = services.table.state(game_id)
    game = services.store.session(game_id).game
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
        "last": _last(state),
        "recent": _recent(state),
    }


def player_rows(state: dict[str, Any], boards: dict[str, Any]) -> list[dict[str, Any]]:
    """The state's player list joined with the referee's boards (keyed by name)."""
    return [{"id": player["id"], "name": player["name"], "board": boards[player["id"]],
             "colour": PLAYER_COLOURS[index % len(PLAYER_COLOURS)],
             "to_move": state.get("to_move") == player["id"]}
            for index, player in enumerate(state["players"])]


# -- islands ---------------------------------------------------------------------------------

def islands_context(services: Services, game_id: str, place: str | None = None,
                    colour: str | None = None) -> dict[str, Any]:
    """Islands at the table: the hexhex board with its stones and islands, each player's
    islands, bonus and rank, whose turn and how many stones may still go down, and the stones
    being laid: tapped on this screen (``place``: ``[["d4", "R"], ...]`` as JSON, with the
    colour chosen to tap, ``colour``) or else seen by the camera, drawn with the islands they
    would make and the referee's preview of them (``Game.examine``), judged by nobody yet."""
    state = services.table.state(game_id)
    session = services.store.session(game_id)
    game = session.game
    names = labels(game.players)
    mover = game.to_move
    laying, tapped, refused = _stones_laid(game, state, place)
    stones = {cell.name: stone for cell, stone in game.stones.stones.items()}
    marks: dict[str, list[str]] = {}
    last = state["moves"][-1] if state["moves"] else None
    if last and last.get("legal") and not state.get("undone"):
        marks["placed"] = [cell for cell, _ in last.get("placed") or []]
    if not (last or {}).get("legal", True):
        marks["check"] = [change["cell"] for change in (last or {}).get("unexpected") or []]
    islands = state["island_cells"]
    said = None
    if laying is not None:
        stones.update(dict(laying["stones"]))
        marks["provisional"] = [cell for cell, _ in laying["stones"]]
        islands = _islands_of(game, stones)
        said = stones_laying_said(laying["stones"], laying["preview"], mover.id if mover else "",
                                  names, session.commit, tapped)
    colours = dict(game.colours)
    players = [row | {"label": names[row["name"]], "to_move": mover is not None
                      and row["name"] == mover.id, "colour_name": colour_name(row["colour"]),
                      "look": hexsvg.stone_look(row["colour"])}
               for row in game.ranking()]
    # Tapping a cell places a stone here: a refusal does not ask for a cell to be corrected.
    described = logged(state["history"][-1], last, names, game.standing, corrects=False) \
        if last else None
    if state.get("undone"):
        described = taken_back(state["undone"], names)
    mover_colour = colours.get(mover.id) if mover else None
    placing = laying["stones"] if laying is not None and tapped else []
    chosen = colour if colour in colours.values() else mover_colour
    over = game.is_over
    return {
        "game_id": game_id, "state": state, "players": players, "over": over,
        "board_svg": hexsvg.board(game.grid.to_json(), stones, islands=islands, marks=marks,
                                  interactive=not over, label=_board_label(game, names)),
        "to_move": mover.id if mover else None,
        "to_move_label": names[mover.id] if mover else None,
        "mover_colour": mover_colour, "chosen": chosen,
        "mover_look": hexsvg.stone_look(mover_colour) if mover_colour else None,
        "palette": [(letter, colour_name(letter), hexsvg.stone_look(letter))
                    for letter in colours.values()],
        "allowed": game.allowed, "laying": said, "tapped": tapped, "refused": refused,
        "placing": placing, "left": (game.allowed or 0) - len(placing),
        "spoken": spoken(described, state) if described is not None else None,
        "last": described, "recent": recent(state["history"], state["moves"], names,
                                            CONFIG.board_recent_moves, game.standing),
        "commit": session.commit, "ended": ENDED.get(str(state.get("ended")))
        if over else None,
        "winner_label": names.get(state["winner"]) if state.get("winner") else None,
        "first": [row["label"] for row in players if row["rank"] == 1],
        "moves": len(state["history"]),
    }


def _stones_laid(game: Any, state: Mapping[str, Any], place: str | None
                 ) -> tuple[dict[str, Any] | None, bool, str | None]:
    """The stones being laid and their preview: tapped (``place``), else the camera's
    provisional ones; whether they were tapped; why the tapped ones cannot be shown, if so."""
    mover = game.to_move
    if mover is None:
        return None, False, None
    if place:
        try:
            stones = json.loads(place)
            move = type(game).move_from_json({"player": mover.id, "place": stones})
        except (ValueError, IllegalPlayError) as error:
            return None, True, sentence(getattr(error, "message", None) or
                                        "the stones tapped cannot be read")
        if stones:
            return {"stones": [[str(cell), str(stone).upper()] for cell, stone in stones],
                    "preview": game.examine(move).to_json()}, True, None
    provisional = (state.get("live") or {}).get("provisional")
    if provisional and provisional.get("placed"):
        seen = provisional.get("tiles") or {}
        return {"stones": [[cell, seen.get(cell, "?")] for cell in provisional["placed"]],
                "preview": provisional.get("preview")}, False, None
    return None, bool(place), None


def _islands_of(game: Any, stones: Mapping[str, str]) -> dict[str, list[list[str]]]:
    """Each colour's islands if ``stones`` were the board (the game's, with the stones being
    laid)."""
    try:
        board = HexBoard.from_stones({HexCell.parse(cell): stone for cell, stone
                                      in stones.items()}, game.grid.size)
        found = game.island_cells(board)
    except (ValueError, KeyError):  # a cell off this board: drawn without outlines
        return {}
    return {colour: [sorted(cell.name for cell in island) for island in islands]
            for colour, islands in found.items()}


def _board_label(game: Any, names: Mapping[str, str]) -> str:
    """What a screen reader calls the board: its size and who plays which colour."""
    return (f"the board, {game.grid.size} cells a side: "
            + ", ".join(names[player.id] for player in game.players))


@dataclass(frozen=True)
class Screen:
    """A ruleset's screen of its own: what builds its context, the query arguments it takes
    (``/table/<id>/panel?place=...``), and whether it hosts the live camera itself
    (``/games/<id>/live`` shows it, with the camera)."""

    context: Callable[..., dict[str, Any]]
    asks: tuple[str, ...] = ()
    live: bool = False


SCREENS: dict[str, Screen] = {
    "colonization": Screen(colonization_context),
    "firstdraft": Screen(firstdraft_context),
    "islands": Screen(islands_context, asks=("place", "colour"), live=True),
}
"""The rulesets with a screen of their own (``/table/<id>``, template ``<ruleset>.html``), and
what builds its context; the others are played on the referee board."""
