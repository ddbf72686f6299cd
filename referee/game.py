"""A game's history and turn order, apart from any one ruleset's rules.

``Game`` keeps what every board ruleset shares: the players and whose turn it is, the board, the
word list, the moves pushed so far and an exact undo. A ruleset is a small subclass that
examines a play without changing anything (:meth:`Game.examine_play`), then commits it
(:meth:`Game.commit_play`), and decides how the game ends (:meth:`Game.after_move`). Rulesets
are found by name in :data:`RULESETS`, so a game file or the web API only needs the name.

Because examining never mutates, ``check`` and ``is_legal`` are free of side effects by
construction, and ``judge`` can report an illegal move while leaving the position as it was.
"""

from __future__ import annotations

import copy
import itertools
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, Protocol, TypeVar

from referee import inference, moves
from referee.board import Board, Problem
from referee.boardtext import BoardTextError, Tile
from referee.cells import Cell, Seat
from referee.errors import PRECEDENCE, IllegalPlayError, SetupError
from referee.moves import Exchange, Move, Pass, Play, Snapshot
from referee.tiles import TileSet, load_tile_set
from referee.wordlist import load_word_list


class WordSource(Protocol):
    """What a game needs of a word list (``referee.wordlist.WordList`` is the real one)."""

    name: str

    def __contains__(self, word: object) -> bool: ...


class NoWords:
    """The word source of a ruleset that judges no words."""

    name = "none"

    def __contains__(self, word: object) -> bool:
        return False


NO_WORDS = NoWords()


@dataclass(frozen=True)
class Player:
    """A person at the table. ``seat`` is None in rulesets without seats (scrabble)."""

    name: str
    seat: Seat | None = None

    @property
    def id(self) -> str:
        """How moves and verdicts name this player: the seat letter, else the name."""
        return self.seat.value if self.seat is not None else self.name


class FormedWord(NamedTuple):
    """A word a play formed: its letters (lowercase for blanks), cells in reading order, value."""

    word: str
    cells: tuple[Cell, ...]
    value: int


class CapturedWord(NamedTuple):
    owner: str
    word: str
    cells: tuple[Cell, ...]


def _names(cells: Iterable[Cell]) -> list[str]:
    return [cell.name for cell in cells]


@dataclass
class Verdict:
    """The referee's answer to one move (FORMATS.md's verdict, plus snapshot extensions)."""

    legal: bool
    player: str
    words: list[FormedWord] = field(default_factory=list)
    captured_tiles: list[Cell] = field(default_factory=list)
    captured_words: list[CapturedWord] = field(default_factory=list)
    remove: list[Cell] = field(default_factory=list)
    score: int = 0
    eliminated: list[str] = field(default_factory=list)
    reason: str | None = None
    message: str | None = None
    move: Move | None = None
    """For a snapshot: the play the referee read from the board."""
    blank_offers: dict[Cell, str] = field(default_factory=dict)
    unexpected: list[inference.Change] = field(default_factory=list)
    gaps: list[Cell] = field(default_factory=list)
    """For a snapshot whose tiles leave a gap: its empty squares, where a tile may be unseen."""
    placed: dict[Cell, Tile] = field(default_factory=dict)
    """The tiles the play put down (not part of the JSON: the words' cells say it)."""

    @classmethod
    def illegal(cls, player: str, error: IllegalPlayError) -> Verdict:
        details = error.details
        return cls(legal=False, player=player, reason=error.reason, message=error.message,
                   move=details.get("move"), blank_offers=dict(details.get("blank_offers", {})),
                   unexpected=list(details.get("unexpected", [])),
                   gaps=list(details.get("gaps", [])))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any]
        if self.legal:
            data = {
                "legal": True,
                "player": self.player,
                "words": [{"word": w.word, "cells": _names(w.cells), "value": w.value}
                          for w in self.words],
                "captured_tiles": _names(self.captured_tiles),
                "captured_words": [{"owner": w.owner, "word": w.word, "cells": _names(w.cells)}
                                   for w in self.captured_words],
                "remove": _names(self.remove),
                "score": self.score,
                "eliminated": list(self.eliminated),
            }
        else:
            data = {"legal": False, "player": self.player, "reason": self.reason,
                    "message": self.message}
        if self.move is not None:
            data["move"] = self.move.to_json()
        if self.blank_offers:
            data["blank_offers"] = {cell.name: letter for cell, letter in
                                    sorted(self.blank_offers.items())}
        if self.unexpected:
            data["unexpected"] = [change.to_json() for change in self.unexpected]
        if self.gaps:
            data["gaps"] = _names(self.gaps)
        return data


class Game:
    """History, turn order and undo shared by every board ruleset; subclasses add the rules."""

    ruleset: ClassVar[str] = ""
    seated: ClassVar[bool] = True
    """Players sit at sides of the board and are named by seat letter."""
    captures: ClassVar[bool] = False
    """A play may put a tile over an opponent's (archipelago)."""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    table_board: ClassVar[bool] = True
    """Played on the one board on the table, which a camera can watch (First Draft: on each
    player's own board)."""
    standing: ClassVar[str] = "score"
    """What the table calls a player's figure in :meth:`standings` (archipelago: strength)."""
    shared_attributes: ClassVar[frozenset[str]] = frozenset(
        {"players", "word_list", "options", "tile_set", "layout", "history", "_undo"})
    """Attributes that never change during play, so undo need not copy them."""
    uses_word_list: ClassVar[bool] = True
    """The ruleset judges words, so :func:`new_game` loads ``options.wordlist`` (islands,
    a game of stones, loads none)."""
    board_kind: ClassVar[str] = "square"
    """The board a camera reads and a screen draws: ``square`` (the 15x15 board of lettered
    tiles, :attr:`board`) or ``hex`` (a hexhex board of coloured stones: islands)."""
    coloured: ClassVar[bool] = False
    """Each player owns a colour of the palette (``players[].colour``: islands)."""

    def __init__(self, players: list[Player], word_list: WordSource,
                 options: Mapping[str, Any] | None = None,
                 position: Mapping[str, Any] | None = None) -> None:
        if not self.min_players <= len(players) <= self.max_players:
            raise SetupError(f"{self.ruleset or 'this game'} needs {self.min_players} to "
                             f"{self.max_players} players, not {len(players)}")
        ids = [player.id for player in players]
        if len(set(ids)) != len(ids):
            raise SetupError("every player needs a different "
                             + ("seat" if self.seated else "name"))
        if self.seated and any(player.seat is None for player in players):
            raise SetupError(f"every {self.ruleset} player needs a seat (S, W, N or E)")
        self.players = list(players)
        self.word_list = word_list
        self.options: dict[str, Any] = dict(options or {})
        self.tile_set: TileSet = self._load_tile_set()
        self.board = Board()
        self.eliminated: list[str] = []
        self.winner: str | None = None
        self.over = False
        self.lifted: dict[Cell, Tile] = {}
        """Tiles the last play told the players to take off: a snapshot that still shows one is
        told so, unless putting it back makes a legal play (see :meth:`_examine_snapshot`)."""
        self._turn = 0
        self.history: list[tuple[Move, Verdict]] = []
        self._undo: list[dict[str, Any]] = []
        position = position or {}
        if not isinstance(position, Mapping):
            raise SetupError("'position' must be an object with 'board', 'to_move', 'active'")
        board = position.get("board")
        if board is not None:
            if not isinstance(board, str):
                raise SetupError("'position.board' must be board text")
            try:
                self.board = Board.from_text(board)
            except BoardTextError as error:
                raise SetupError(f"position: {error}") from None
        to_move = position.get("to_move")
        if to_move is not None:
            try:
                self._turn = self.players.index(self.player(str(to_move)))
            except ValueError:
                raise SetupError(f"position.to_move: no player {to_move!r}") from None
        self.setup(position)

    def _load_tile_set(self) -> TileSet:
        try:
            return load_tile_set(str(self.options.get("tiles", "english")))
        except ValueError as error:
            raise SetupError(str(error)) from None

    # -- hooks a ruleset overrides ----------------------------------------------------------

    @classmethod
    def read_players(cls, data: object) -> list[Player]:
        """The players of FORMATS.md's ``players`` list (a ruleset may read more: a colour)."""
        return players_from_json(data, cls.seated)

    def setup(self, position: Mapping[str, Any]) -> None:
        """Read the ruleset's part of ``position`` (the board and ``to_move`` are read already)."""

    def examine_play(self, player: Player, play: Play) -> Verdict:
        """The verdict ``play`` would get, without changing anything; raises IllegalPlayError."""
        raise IllegalPlayError("bad-move", f"{self.ruleset or 'this game'} has no word plays")

    def commit_play(self, player: Player, verdict: Verdict) -> None:
        """Apply a verdict :meth:`examine_play` returned."""
        raise NotImplementedError

    def after_move(self, player: Player, move: Move, verdict: Verdict) -> None:
        """Decide the end of the game (``self.over``, ``self.winner``) after a legal move."""

    def extra_state(self) -> dict[str, Any]:
        """The ruleset's part of :meth:`state` (archipelago: active words and strength)."""
        return {}

    def standings(self) -> dict[str, int]:
        """Each player's figure (:attr:`standing`) by player id, as the table shows it; empty
        where the ruleset shows none beside the board."""
        return {}

    def standing_words(self, player_id: str) -> list[str]:
        """The words behind a player's figure, shown under their name (archipelago: their
        active words, lowercase letters for blanks)."""
        return []

    def standing_parts(self, player_id: str) -> list[tuple[str, int]]:
        """The words behind a player's figure with what each adds to it, in the order of
        :meth:`standing_words`, so the table can show the figure as a sum that adds up
        (archipelago: each active word's value); empty where the figure is no such sum."""
        return []

    def faces(self, player: Player, tile: Tile) -> bool:
        """Whether ``tile`` looks like one ``player`` put down (its rotation is theirs)."""
        if player.seat is None:
            return True
        return tile.rotation == player.seat.rotation

    @classmethod
    def move_from_json(cls, data: object) -> Any:
        """A move of this ruleset from JSON: the ruleset module's ``move_from_json`` if it has
        its own move kinds (First Draft's sell, discard, ...), else the board moves."""
        module = sys.modules.get(cls.__module__)
        parser = getattr(module, "move_from_json", None)
        if parser is None or parser is Game.move_from_json or module is sys.modules[__name__]:
            return moves.move_from_json(data)
        return parser(data)

    def check_cross_word(self, main_word: str, word: str, cell: Cell) -> None:
        """Refuse a play whose tile on ``cell`` also makes ``word``, unless the list has it."""
        if word not in self.word_list:
            raise IllegalPlayError("invalid-cross-word",
                                   f"{main_word.upper()} also makes {word.upper()} through {cell},"
                                   f" which is not in the word list {self.word_list.name}")

    def word_tile(self, player: Player, tile: Tile) -> bool:
        """Whether ``tile`` joins ``player``'s words: their own where seated, else every tile."""
        return self.faces(player, tile) if self.seated else True

    # -- the public interface ---------------------------------------------------------------

    @property
    def to_move(self) -> Player | None:
        return None if self.over else self.players[self._turn]

    @property
    def is_over(self) -> bool:
        return self.over

    def player(self, id: str) -> Player:
        """The player a move names: by seat letter in seated rulesets, else by name."""
        for player in self.players:
            if player.id == id:
                return player
        for player in self.players:
            if player.name == id or (player.seat is not None and player.seat.value == id.upper()):
                return player
        raise ValueError(f"no player {id!r} in this game (players: "
                         f"{', '.join(p.id for p in self.players)})")

    def check(self, move: Move) -> None:
        """Raise :class:`IllegalPlayError` if ``move`` is illegal now; never changes anything."""
        self._examine(move)

    def is_legal(self, move: Move) -> bool:
        try:
            self._examine(move)
        except IllegalPlayError:
            return False
        return True

    def push(self, move: Move) -> Verdict:
        """Validate and apply ``move``; raises :class:`IllegalPlayError` and changes nothing."""
        player, verdict = self._examine(move)
        self._undo.append(self._save())
        try:
            if isinstance(move, Play | Snapshot):
                self.commit_play(player, verdict)
            self.after_move(player, move, verdict)
            self._advance()
        except BaseException:
            self._restore(self._undo.pop())
            raise
        self.history.append((move, verdict))
        return verdict

    def examine(self, move: Move) -> Verdict:
        """The verdict ``move`` would get now, changing nothing; an illegal move comes back as
        ``Verdict(legal=False)``. A table shows a play being laid (the words it makes so far)
        before its player says it is finished, and only then is it judged for the record."""
        try:
            return self._examine(move)[1]
        except IllegalPlayError as error:
            return Verdict.illegal(getattr(move, "player", "?"), error)

    def judge(self, move: Move) -> Verdict:
        """Like :meth:`push`, but an illegal move comes back as ``Verdict(legal=False)``."""
        try:
            return self.push(move)
        except IllegalPlayError as error:
            return Verdict.illegal(getattr(move, "player", "?"), error)

    def pop(self) -> Move:
        """Undo the last move exactly (a misread tile, a successful challenge)."""
        if not self.history:
            raise ValueError("no move to undo")
        move, _ = self.history.pop()
        self._restore(self._undo.pop())
        return move

    @property
    def verdicts(self) -> list[Verdict]:
        return [verdict for _, verdict in self.history]

    def state(self) -> dict[str, Any]:
        """FORMATS.md's ``final``: the board, the ruleset's figures, who is out, to move, won."""
        data: dict[str, Any] = {"board": self.board.text()}
        data.update(self.extra_state())
        to_move = self.to_move
        data.update({"eliminated": list(self.eliminated),
                     "to_move": to_move.id if to_move else None,
                     "winner": self.winner})
        return data

    def lifted_off(self) -> None:
        """The players have taken off the tiles the last play captured (a camera saw their
        squares empty): a tile seen there again is a new one, not one left behind."""
        self.lifted = {}

    def status(self) -> list[Problem]:
        """Every problem with the current board (see :meth:`Board.status`)."""
        seats = [p.seat for p in self.players if p.seat is not None] if self.seated else None
        return self.board.status(self.tile_set, seats, centred=not self.captures)

    # -- the machinery ----------------------------------------------------------------------

    def _examine(self, move: Move) -> tuple[Player, Verdict]:
        if not isinstance(move, Play | Pass | Exchange | Snapshot):
            raise IllegalPlayError("bad-move", f"not a move: {move!r}")
        try:
            player = self.player(move.player)
        except ValueError as error:
            raise IllegalPlayError("bad-move", str(error)) from None
        if self.over:
            raise IllegalPlayError("game-over", "the game is over"
                                   + (f"; {self.winner} won" if self.winner else ""))
        if player.id in self.eliminated:
            raise IllegalPlayError("player-eliminated", f"{player.id} has been eliminated")
        if player != self.to_move:
            raise IllegalPlayError("not-your-turn",
                                   f"it is {self.to_move.id}'s turn, not {player.id}'s"
                                   if self.to_move else "nobody is to move")
        if isinstance(move, Play):
            return player, self.examine_play(player, move)
        if isinstance(move, Snapshot):
            return player, self._examine_snapshot(player, move)
        return player, Verdict(legal=True, player=player.id)

    def _examine_snapshot(self, player: Player, snapshot: Snapshot) -> Verdict:
        """Infer the play from the board after it, then examine that play.

        A tile the last play told the players to lift off, seen again on its square, is either
        left behind or lifted and put back as part of this play: the camera cannot tell. It is
        taken as put back when that makes a legal play, and is otherwise named as left behind,
        the likelier slip and the clearer message.
        """
        before, after = self.board.tiles, snapshot.tiles
        if not self.seated:  # without seats a tile's rotation means nothing: ignore it
            before, after = _unturned(before), _unturned(after)
        lifted = {cell: tile for cell, tile in self.lifted.items()
                  if cell not in before and after.get(cell) == tile}
        try:
            return self._infer_play(player, before, after, lifted)
        except IllegalPlayError as left_behind:
            if not lifted:
                raise
            try:
                return self._infer_play(player, before, after, {})
            except IllegalPlayError as put_back:
                if put_back.reason == "blank-undesignated":
                    raise  # put back, the placement stands: only a blank's letter is missing
                raise left_behind from None

    def _infer_play(self, player: Player, before: Mapping[Cell, Tile],
                    after: Mapping[Cell, Tile], lifted: Mapping[Cell, Tile]) -> Verdict:
        seat = player.seat or Seat.S
        placed, unexpected = inference.compare(
            before, after, player.id, lambda tile: self.faces(player, tile), self.captures,
            lifted)
        if unexpected:
            first = unexpected[0].message
            more = f" (and {len(unexpected) - 1} more changes)" if len(unexpected) > 1 else ""
            raise IllegalPlayError("board-mismatch",
                                   f"the board changed where no play explains it: {first}{more}",
                                   unexpected=unexpected)
        found = inference.read_word(after, placed, player.id, seat,
                                    lambda tile: self.word_tile(player, tile))
        if found.blank_cells:
            return self._examine_blanks(player, found)
        play = Play(player.id, found.word, found.at, found.direction)
        try:
            verdict = self.examine_play(player, play)
        except IllegalPlayError as error:
            error.details.setdefault("move", play)
            raise
        verdict.move = play
        return verdict

    def _examine_blanks(self, player: Player, found: inference.InferredWord) -> Verdict:
        """A play with undesignated blanks: judge the placement, and offer the only letters."""
        blanks = found.blank_cells
        letters = [letter for letter in self.tile_set.letters if letter.isalpha()]
        legal: list[dict[Cell, str]] = []
        for choice in itertools.product(letters, repeat=len(blanks)):
            designation = dict(zip(blanks, choice, strict=True))
            play = Play(player.id, found.designated(designation), found.at, found.direction)
            try:
                self.examine_play(player, play)
            except IllegalPlayError as error:
                if _ranks_before(error.reason, "blank-undesignated"):
                    raise  # the placement itself is wrong: no letter can help
                continue
            legal.append(designation)
        offers = {cell: legal[0][cell] for cell in blanks
                  if legal and len({choice[cell] for choice in legal}) == 1}
        names = ", ".join(cell.name for cell in blanks)
        if offers and len(offers) == len(blanks):
            hint = "; only " + ", ".join(f"{letter} on {cell}" for cell, letter in offers.items()) \
                   + " makes every word valid"
        elif legal:
            hint = f"; {len(legal)} choices make every word valid"
        else:
            hint = "; no letter makes every word valid"
        question = (f"say which letter the blank on {names} stands for" if len(blanks) == 1
                    else f"say which letters the blanks on {names} stand for")
        raise IllegalPlayError("blank-undesignated", question + hint, blank_offers=offers)

    def _advance(self) -> None:
        """Pass the turn to the next player still in the game."""
        if self.over:
            return
        for step in range(1, len(self.players) + 1):
            index = (self._turn + step) % len(self.players)
            if self.players[index].id not in self.eliminated:
                self._turn = index
                return
        self.over = True

    def _save(self) -> dict[str, Any]:
        return {name: copy.deepcopy(value) for name, value in vars(self).items()
                if name not in self.shared_attributes}

    def _restore(self, saved: dict[str, Any]) -> None:
        self.__dict__.update(saved)


def _unturned(tiles: Mapping[Cell, Tile]) -> dict[Cell, Tile]:
    return {cell: Tile(tile.letter, tile.blank) for cell, tile in tiles.items()}


def _ranks_before(reason: str, other: str) -> bool:
    order = {code: index for index, code in enumerate(PRECEDENCE)}
    return order.get(reason, len(order)) < order[other]


RULESETS: dict[str, type[Game]] = {}
GameT = TypeVar("GameT", bound=type[Game])


def register_ruleset(name: str) -> Callable[[GameT], GameT]:
    """Class decorator: make a ruleset findable by ``name`` in game files and the web API."""

    def register(cls: GameT) -> GameT:
        cls.ruleset = name
        RULESETS[name] = cls
        return cls

    return register


SUGGESTED_SEATS = {2: "SN", 3: "SWN", 4: "SWNE"}
MAX_NAME_CHARS = 40
"""A player's name is said on every screen and in every verdict: twelve names of 24 MB each
once made the games' list 288 MB."""
MAX_PLAYERS = 8


def players_from_json(data: object, seated: bool) -> list[Player]:
    """Players from FORMATS.md's ``players`` list; seats default to the suggested ones."""
    if not isinstance(data, list) or not data:
        raise SetupError("'players' must be a non-empty list of {\"name\", \"seat\"} objects")
    if not all(isinstance(entry, dict) for entry in data):
        raise SetupError("each player is an object like {\"name\": \"Ann\", \"seat\": \"S\"}")
    if len(data) > MAX_PLAYERS:
        raise SetupError(f"a game has at most {MAX_PLAYERS} players, not {len(data)}")
    players = []
    given = [entry.get("seat") for entry in data]
    suggested = SUGGESTED_SEATS.get(len(data), "SWNE")
    for index, entry in enumerate(data):
        name = entry.get("name", given[index] if seated and given[index] else None)
        if not isinstance(name, str) or not name.strip():
            raise SetupError(f"player {index + 1} needs a name")
        if len(name.strip()) > MAX_NAME_CHARS:
            raise SetupError(f"player {index + 1}'s name is {len(name.strip()):,} characters "
                             f"long: at most {MAX_NAME_CHARS}")
        seat = None
        if seated:
            if all(value is None for value in given) and index < len(suggested):
                seat = Seat(suggested[index])
            elif isinstance(given[index], str):
                try:
                    seat = Seat.parse(given[index])
                except ValueError as error:
                    raise SetupError(f"player {name}: {error}") from None
            else:
                raise SetupError(f"player {name} needs a seat (S, W, N or E)")
        players.append(Player(name.strip(), seat))
    return players


def load_words(spec: object, base_dir: Path | None) -> WordSource:
    """``options.wordlist``: a built-in list's name or a file relative to ``base_dir``."""
    if not isinstance(spec, str | Path):
        raise SetupError(f"'options.wordlist' must be a name or a file, not {spec!r}")
    try:
        return load_word_list(spec, base_dir)
    except ValueError as error:
        raise SetupError(str(error)) from None


def new_game(ruleset: str, players: list[dict[str, Any]], options: dict[str, Any] | None = None,
             position: dict[str, Any] | None = None, base_dir: Path | None = None) -> Game:
    """A game from plain data (a game file, the web API); bad data is one-line SetupError."""
    if not isinstance(ruleset, str):
        raise SetupError(f"'ruleset' must be a name; known: {', '.join(known_rulesets())}")
    cls = find_ruleset(ruleset)
    if options is not None and not isinstance(options, dict):
        raise SetupError("'options' must be an object")
    options = dict(options or {})
    word_list = load_words(options.get("wordlist", "enable"), base_dir) \
        if cls.uses_word_list else NO_WORDS
    return cls(cls.read_players(players), word_list, options, position)


RULESET_MODULES = {
    "archipelago": "referee.archipelago",
    "scrabble": "referee.scrabble",
    "colonization": "referee.colonization",
    "firstdraft": "referee.firstdraft",
    "islands": "referee.islands",
}
"""Where each ruleset lives, so a game loads only the module it needs."""


def find_ruleset(name: str) -> type[Game]:
    """The ruleset class registered as ``name``; an unknown name lists the known ones."""
    if name not in RULESETS and name in RULESET_MODULES:
        _import_ruleset(RULESET_MODULES[name])
    if name not in RULESETS:
        raise SetupError(f"unknown ruleset {name!r}; known: {', '.join(known_rulesets())}")
    return RULESETS[name]


def known_rulesets() -> list[str]:
    """Every ruleset that loads (one still being written, or broken, is left out)."""
    for module in RULESET_MODULES.values():
        try:
            _import_ruleset(module)
        except Exception:  # noqa: BLE001 - a listing must not fail because one ruleset does
            continue
    return sorted(RULESETS)


def _import_ruleset(module: str) -> None:
    import importlib

    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name != module:
            raise


__all__ = [
    "RULESETS",
    "CapturedWord",
    "FormedWord",
    "Game",
    "Player",
    "Verdict",
    "WordSource",
    "find_ruleset",
    "known_rulesets",
    "new_game",
    "players_from_json",
    "register_ruleset",
]
