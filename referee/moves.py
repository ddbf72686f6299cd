"""Moves as values: a play, a pass, an exchange, or a board snapshot to infer a play from.

Each move is a frozen dataclass with a JSON round trip in FORMATS.md's move shapes, so a game
file, the web API and a test all spell a move the same way. A move names its player by the id
the game uses (a seat letter where the ruleset has seats, else a name); whether that player may
move is the game's business, not the move's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.boardtext import (
    BoardTextError,
    Tile,
    format_board_text,
    is_tile_letter,
    parse_board_text,
)
from referee.cells import COLUMNS, Cell, Direction
from referee.errors import IllegalPlayError

MAX_EXCHANGE = 7


def _bad(message: str) -> IllegalPlayError:
    return IllegalPlayError("bad-move", message)


def _check_player(player: object) -> str:
    if not isinstance(player, str) or not player.strip():
        raise _bad(f"a move needs a player (a seat letter or a name), not {player!r}")
    return player.strip()


def _check_word(word: object) -> str:
    if not isinstance(word, str) or not word:
        raise _bad(f"a play needs a word, not {word!r}")
    if not all(is_tile_letter(letter) for letter in word):
        raise _bad(f"a word is letters only (lowercase for blanks), not {word!r}")
    return word


@dataclass(frozen=True)
class Play:
    """Put ``word`` on the board from ``at`` along ``direction`` in the mover's own frame.

    Uppercase letters are tiles, lowercase letters are blanks standing for that letter.
    """

    player: str
    word: str
    at: Cell
    direction: Direction

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", _check_player(self.player))
        _check_word(self.word)
        if not isinstance(self.at, Cell) or not self.at.on_board():
            raise _bad(f"a play starts on a board cell, not {self.at!r}")
        if not isinstance(self.direction, Direction):
            raise _bad(f"a play goes across or down, not {self.direction!r}")

    def tiles(self, rotation: int | None = None) -> list[Tile]:
        """The tiles spelling the word, in order, each turned by ``rotation``."""
        return [Tile(letter.upper(), letter.islower(), rotation) for letter in self.word]

    def notation(self) -> str:
        """Scrabble notation in the South frame: ``8H WORD`` across, ``H8 WORD`` down."""
        column, row = COLUMNS[self.at.col], str(self.at.row + 1)
        square = row + column if self.direction is Direction.ACROSS else column + row
        return f"{square} {self.word}"

    @classmethod
    def from_notation(cls, player: str, text: str) -> Play:
        """``Play.from_notation("S", "8H CAT")``: row first means across (FORMATS.md)."""
        parts = text.split()
        if len(parts) != 2:
            raise _bad(f"play notation is a square and a word, like '8H CAT', not {text!r}")
        square, word = parts
        square = square.upper()
        try:
            if square[0].isdigit():
                at = Cell.parse(square.lstrip("0123456789") + square.rstrip(COLUMNS))
                direction = Direction.ACROSS
            else:
                at = Cell.parse(square)
                direction = Direction.DOWN
        except (ValueError, IndexError):
            raise _bad(f"not a square in play notation: {square!r}") from None
        return cls(player, word, at, direction)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "word": self.word, "at": self.at.name,
                "dir": self.direction.value}


@dataclass(frozen=True)
class Pass:
    player: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", _check_player(self.player))

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "pass": True}


@dataclass(frozen=True)
class Exchange:
    """Swap ``count`` rack tiles with the bag; the referee never sees which."""

    player: str
    count: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", _check_player(self.player))
        if isinstance(self.count, bool) or not isinstance(self.count, int) \
                or not 1 <= self.count <= MAX_EXCHANGE:
            raise _bad(f"an exchange swaps 1 to {MAX_EXCHANGE} tiles, not {self.count!r}")

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "exchange": self.count}


@dataclass(frozen=True)
class Snapshot:
    """The whole board as it looks after the mover put tiles down; the referee infers the play."""

    player: str
    tiles: Mapping[Cell, Tile] = field(compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", _check_player(self.player))
        if not isinstance(self.tiles, Mapping):
            raise _bad("a board snapshot needs the board's tiles")
        object.__setattr__(self, "tiles", dict(self.tiles))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Snapshot):
            return NotImplemented
        return self.player == other.player and dict(self.tiles) == dict(other.tiles)

    def __hash__(self) -> int:
        return hash((self.player, frozenset(self.tiles.items())))

    @classmethod
    def from_text(cls, player: str, text: str) -> Snapshot:
        try:
            return cls(player, parse_board_text(text))
        except BoardTextError as error:
            raise _bad(f"the board snapshot cannot be read: {error}") from None

    def text(self) -> str:
        return format_board_text(dict(self.tiles))

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "board": self.text()}


Move = Play | Pass | Exchange | Snapshot
MOVE_TYPES = (Play, Pass, Exchange, Snapshot)


def move_from_json(data: object) -> Move:
    """A move from its FORMATS.md shape; anything malformed is ``IllegalPlayError("bad-move")``."""
    if not isinstance(data, dict):
        raise _bad(f"a move is a JSON object, not {type(data).__name__}")
    player = _check_player(data.get("player"))
    kinds = [key for key in ("word", "pass", "exchange", "board") if key in data]
    if len(kinds) != 1:
        raise _bad("a move has exactly one of 'word', 'pass', 'exchange' or 'board'"
                   f" (got {', '.join(kinds) or 'none'})")
    kind = kinds[0]
    if kind == "pass":
        if data["pass"] is not True:
            raise _bad(f"'pass' must be true, not {data['pass']!r}")
        return Pass(player)
    if kind == "exchange":
        return Exchange(player, data["exchange"])
    if kind == "board":
        if not isinstance(data["board"], str):
            raise _bad("'board' must be board text")
        return Snapshot.from_text(player, data["board"])
    word = _check_word(data["word"])
    at, direction = data.get("at"), data.get("dir")
    if not isinstance(at, str):
        raise _bad(f"a play needs 'at', a cell like 'H8', not {at!r}")
    if not isinstance(direction, str):
        raise _bad(f"a play needs 'dir', 'across' or 'down', not {direction!r}")
    try:
        cell = Cell.parse(at)
        parsed_direction = Direction.parse(direction)
    except ValueError as error:
        raise _bad(str(error)) from None
    return Play(player, word, cell, parsed_direction)


__all__ = ["MOVE_TYPES", "Exchange", "Move", "Pass", "Play", "Snapshot", "move_from_json"]
