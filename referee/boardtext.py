"""Board text (FORMATS.md "Board text"): the one spelling of a position shared by every tool.

Both spellings are always accepted on input: compact (15 characters a line) and spaced (15 tokens
a line). A token is ``.``, a tile letter (uppercase), a blank played as a letter (lowercase) or an
undesignated blank ``?``, each optionally followed by an arrow giving the tile's rotation.
Letters beyond A-Z (national tile sets: Ä, Ł, ...) are accepted the same way, so another
language's board reads without a code change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from referee.cells import ARROWS, ROTATION_OF_ARROW, SIZE, Cell, all_cells


class BoardTextError(ValueError):
    """Board text that cannot be read; the message names the line and what is wrong."""


def is_tile_letter(char: str) -> bool:
    """Whether ``char`` is one letter that can stand on a tile: a letter whose capital is one
    letter too. Not ß (SS), ﬁ (FI) or ǰ (J and a combining caron): ``str.isalpha`` takes them,
    and a move naming one was stored in its capitals, which no longer read back as the move
    (a fuzzing helper's find: the game could not be rebuilt from its log)."""
    return len(char) == 1 and char.isalpha() and len(char.upper()) == 1 and char.upper().isalpha()


@dataclass(frozen=True)
class Tile:
    """A tile as it lies on the board.

    ``letter`` is the uppercase letter it stands for, or ``"?"`` for a blank not yet designated.
    ``rotation`` is the direction its top points in the South view (0, 90, 180, 270 degrees
    clockwise), or ``None`` where the source carries no rotation (scrabble, compact text).
    """

    letter: str
    blank: bool = False
    rotation: int | None = None

    def __post_init__(self) -> None:
        if self.letter != "?" and not (len(self.letter) == 1 and self.letter.isalpha()):
            raise ValueError(f"a tile's letter must be one letter or '?', not {self.letter!r}")
        if self.letter != "?" and self.letter != self.letter.upper():
            raise ValueError(f"a tile's letter is stored in upper case, not {self.letter!r}")
        if self.letter == "?" and not self.blank:
            object.__setattr__(self, "blank", True)
        if self.rotation is not None and self.rotation not in ARROWS:
            raise ValueError(f"rotation must be 0, 90, 180 or 270, not {self.rotation!r}")

    @classmethod
    def parse(cls, token: str) -> Tile:
        """``Tile.parse("Q>")``, ``Tile.parse("e")``, ``Tile.parse("?v")``."""
        rotation = None
        if len(token) == 2 and token[1] in ROTATION_OF_ARROW:
            rotation = ROTATION_OF_ARROW[token[1]]
            token = token[0]
        if token != "?" and not is_tile_letter(token):
            raise ValueError(f"not a tile: {token!r}")
        if token == "?":
            return cls("?", True, rotation)
        return cls(token.upper(), token.islower(), rotation)

    @property
    def token(self) -> str:
        """The board-text token: the letter (lowercase for a blank) and the arrow, if any."""
        face = self.letter.lower() if self.blank and self.letter != "?" else self.letter
        return face + (ARROWS[self.rotation] if self.rotation is not None else "")

    def rotated(self, quarter_turns: int) -> Tile:
        """The same tile seen after turning the whole board clockwise by ``quarter_turns``."""
        if self.rotation is None:
            return self
        return Tile(self.letter, self.blank, (self.rotation + 90 * quarter_turns) % 360)

    def __repr__(self) -> str:
        return f"Tile.parse({self.token!r})"


def _tokens(line: str, number: int) -> list[str]:
    if " " in line.strip():
        tokens = line.split()
    else:
        chars = list(line.strip())
        # A compact line may carry arrows after letters: "Q>A^..." is still unambiguous, but
        # "v" is both the 180-degree arrow and a blank V. Read it as an arrow unless only the
        # blank reading gives a full row.
        merged: list[str] = []
        for char in chars:
            if char in ROTATION_OF_ARROW and merged and merged[-1] != "." and len(merged[-1]) == 1:
                merged[-1] += char
            else:
                merged.append(char)
        tokens = merged
        if len(merged) != SIZE and "v" in chars:
            as_blanks: list[str] = []
            for char in chars:
                if char in "^<>" and as_blanks and as_blanks[-1] != "." \
                        and len(as_blanks[-1]) == 1:
                    as_blanks[-1] += char
                else:
                    as_blanks.append(char)
            if len(as_blanks) == SIZE:
                tokens = as_blanks
    if len(tokens) != SIZE:
        raise BoardTextError(f"board text line {number} has {len(tokens)} cells, expected {SIZE}")
    return tokens


def parse_board_text(text: str) -> dict[Cell, Tile]:
    """Read board text into the occupied cells; raises :class:`BoardTextError` with the line."""
    lines = [line.rstrip("\r") for line in text.splitlines()]
    rows = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if len(rows) != SIZE:
        raise BoardTextError(f"board text has {len(rows)} rows, expected {SIZE}")
    tiles: dict[Cell, Tile] = {}
    for row, line in enumerate(rows):
        for col, token in enumerate(_tokens(line, row + 1)):
            if token == ".":
                continue
            try:
                tiles[Cell(col, row)] = Tile.parse(token)
            except ValueError:
                raise BoardTextError(
                    f"board text row {row + 1}: {token!r} at {Cell(col, row)} is not a cell token"
                ) from None
    return tiles


def format_board_text(tiles: Mapping[Cell, Tile], spaced: bool | None = None) -> str:
    """Write board text; spaced form whenever any tile carries a rotation (or when asked)."""
    if spaced is None:
        spaced = any(tile.rotation is not None for tile in tiles.values())
    separator = " " if spaced else ""
    lines = []
    for row in range(SIZE):
        tokens = []
        for col in range(SIZE):
            tile = tiles.get(Cell(col, row))
            tokens.append(tile.token if tile else ".")
        lines.append(separator.join(tokens))
    return "\n".join(lines) + "\n"


def rotate_tiles(tiles: dict[Cell, Tile], quarter_turns: int) -> dict[Cell, Tile]:
    """Turn a whole position clockwise: cells move and every tile's rotation follows."""
    return {cell.turned(quarter_turns): tile.rotated(quarter_turns)
            for cell, tile in tiles.items()}


__all__ = [
    "BoardTextError",
    "Tile",
    "all_cells",
    "format_board_text",
    "is_tile_letter",
    "parse_board_text",
    "rotate_tiles",
]
