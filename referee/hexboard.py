"""The hexhex board of ``islands`` (FORMATS.md "islands"): cells, neighbours and board text.

A hexhex board of side n is 2n-1 lines of pointy-topped hexagons, each line offset by half a
cell from the next: n cells on the top line, one more on each line down to 2n-1 on the middle
line, then one fewer each line. A cell is named by its line's letter (``a`` at the top) and its
place in the line from the left, from 1: ``d4``. Two cells are neighbours when they touch on the
drawn hexagon.

Inside, a cell also has axial coordinates (q, r) with the centre at (0, 0), r the line less the
middle line's and q growing to the right along a line; the six neighbours are then the same six
offsets everywhere, which is what makes the geometry one formula instead of two halves.

Nothing here knows the rules: the camera may read a board into a :class:`HexBoard` and a web page
may draw :meth:`HexGrid.to_json`; :mod:`referee.islands` judges.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

MIN_SIZE = 3
MAX_SIZE = 10
DEFAULT_SIZE = 7
LINE_LETTERS = "abcdefghijklmnopqrstuvwxyz"
EMPTY = "."

PALETTE: dict[str, str] = {
    "R": "red", "B": "blue", "G": "green", "Y": "yellow",
    "W": "white", "K": "black", "O": "orange", "P": "purple",
}
"""The colour letters players and the camera share (FORMATS.md), with their names in words."""



def colour_name(letter: str | None) -> str:
    """``red`` for ``R``; a letter outside the palette stands for itself."""
    return PALETTE.get(letter or "", str(letter))


AXIAL_STEPS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The six neighbours' offsets in axial coordinates, clockwise from the right-hand one."""


class HexBoardTextError(ValueError):
    """Board text that cannot be read as a hexhex board; the message names the line."""


@dataclass(frozen=True, order=True)
class HexCell:
    """One cell of a hexhex board by its name's parts: ``line`` and ``place`` count from 0.

    A cell knows its name, not the board it is on: whether ``z9`` exists depends on the board's
    size (:meth:`HexGrid.__contains__`).
    """

    line: int
    place: int

    @classmethod
    def parse(cls, name: str) -> HexCell:
        """``HexCell.parse("d4")``: a line letter and a place from 1; raises ``ValueError``."""
        text = name.strip().lower() if isinstance(name, str) else ""
        if len(text) < 2 or text[0] not in LINE_LETTERS or not text[1:].isdigit() \
                or not text[1:].isascii() or text[1] == "0":
            raise ValueError(f"not a cell name: {name!r} (a line letter and a place from 1,"
                             " like d4)")
        return cls(LINE_LETTERS.index(text[0]), int(text[1:]) - 1)

    @property
    def name(self) -> str:
        if not 0 <= self.line < len(LINE_LETTERS) or self.place < 0:
            raise ValueError(f"{self!r} has no name")
        return f"{LINE_LETTERS[self.line]}{self.place + 1}"

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        if not 0 <= self.line < len(LINE_LETTERS) or self.place < 0:
            return f"HexCell({self.line}, {self.place})"
        return f"HexCell.parse({self.name!r})"


@dataclass(frozen=True)
class HexGrid:
    """The shape of a hexhex board of side ``size``: its cells in reading order and who touches
    whom. Cells have an index (their place in :attr:`cells`), which the island counting uses."""

    size: int
    cells: tuple[HexCell, ...] = field(init=False, repr=False, compare=False)
    index: Mapping[HexCell, int] = field(init=False, repr=False, compare=False)
    neighbour_indices: tuple[tuple[int, ...], ...] = field(init=False, repr=False,
                                                           compare=False)
    by_axial: Mapping[tuple[int, int], HexCell] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.size, bool) or not isinstance(self.size, int) \
                or not MIN_SIZE <= self.size <= MAX_SIZE:
            raise ValueError(f"a hexhex board's side is {MIN_SIZE} to {MAX_SIZE} cells, not"
                             f" {self.size!r}")
        cells = tuple(HexCell(line, place) for line in range(self.lines)
                      for place in range(self.line_length(line)))
        index = {cell: number for number, cell in enumerate(cells)}
        by_axial = {self.axial(cell): number for number, cell in enumerate(cells)}
        neighbours = []
        for cell in cells:
            q, r = self.axial(cell)
            neighbours.append(tuple(sorted(
                by_axial[(q + dq, r + dr)] for dq, dr in AXIAL_STEPS
                if (q + dq, r + dr) in by_axial)))
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "neighbour_indices", tuple(neighbours))
        object.__setattr__(self, "by_axial", {axial: cells[number]
                                              for axial, number in by_axial.items()})

    @property
    def lines(self) -> int:
        return 2 * self.size - 1

    def line_length(self, line: int) -> int:
        """Cells on ``line`` (0 is the top): n, n+1, ..., 2n-1 on the middle line, ..., n."""
        return self.lines - abs(line - (self.size - 1))

    def __contains__(self, cell: object) -> bool:
        return isinstance(cell, HexCell) and cell in self.index

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self) -> Iterator[HexCell]:
        return iter(self.cells)

    def axial(self, cell: HexCell) -> tuple[int, int]:
        """(q, r) with the centre at (0, 0): r down the lines, q to the right along a line."""
        r = cell.line - (self.size - 1)
        return max(-(self.size - 1), -(self.size - 1) - r) + cell.place, r

    def turned(self, cell: HexCell, sixths: int) -> HexCell:
        """Where ``cell`` is once the board is turned by ``sixths`` sixths of a full turn about
        its centre. A plain hexhex board looks the same turned by 60 degrees, so a camera that
        names line ``a`` after the edge nearest the top of its picture may see the game's cells
        turned so."""
        q, r = self.axial(cell)
        for _ in range(sixths % 6):
            q, r = -r, q + r
        return self.by_axial[(q, r)]

    def neighbours(self, cell: HexCell) -> tuple[HexCell, ...]:
        """The cells touching ``cell`` (three to six), in reading order."""
        return tuple(self.cells[n] for n in self.neighbour_indices[self.index[cell]])

    def centre(self, cell: HexCell) -> tuple[float, float]:
        """Where to draw ``cell``: its centre in cell widths from the top-left corner of the
        board's bounding box (pointy-topped hexagons: lines are sqrt(3)/2 widths apart)."""
        indent = (self.lines - self.line_length(cell.line)) / 2
        return indent + cell.place + 0.5, cell.line * math.sqrt(3) / 2 + 1 / math.sqrt(3)

    def to_json(self) -> dict[str, Any]:
        """Everything a page needs to draw the board: each cell, its centre and neighbours."""
        cells = []
        for cell in self.cells:
            x, y = self.centre(cell)
            cells.append({"cell": cell.name, "x": round(x, 4), "y": round(y, 4),
                          "neighbours": [n.name for n in self.neighbours(cell)]})
        return {"size": self.size, "lines": self.lines, "cells": cells}


@cache
def hex_grid(size: int = DEFAULT_SIZE) -> HexGrid:
    """The grid of side ``size`` (built once per size); ``ValueError`` outside 3-10."""
    return HexGrid(size)


def _colour_token(token: str, where: str) -> str | None:
    if token == EMPTY:
        return None
    if len(token) == 1 and token.isascii() and token.isalpha():
        return token.upper()
    raise HexBoardTextError(f"{where}: {token!r} is neither '.' nor a colour letter")


@dataclass(frozen=True)
class HexBoard:
    """Stones on a hexhex board: a colour letter or None for each cell of ``grid``, in order.

    Immutable, so a game's history can keep every position it passed through and undo is just
    going back to one. ``HexBoard.parse(text)`` and :meth:`text` are the board text round trip.
    """

    grid: HexGrid
    colours: tuple[str | None, ...]

    def __post_init__(self) -> None:
        if len(self.colours) != len(self.grid):
            raise ValueError(f"a side-{self.grid.size} board has {len(self.grid)} cells,"
                             f" not {len(self.colours)}")

    @classmethod
    def empty(cls, size: int = DEFAULT_SIZE) -> HexBoard:
        grid = hex_grid(size)
        return cls(grid, (None,) * len(grid))

    @classmethod
    def from_stones(cls, stones: Mapping[HexCell, str], size: int = DEFAULT_SIZE) -> HexBoard:
        return cls.empty(size).with_stones(stones.items())

    @classmethod
    def parse(cls, text: str, size: int | None = None) -> HexBoard:
        """Read board text: 2n-1 lines of '.' and colour letters, spaced or not; leading
        spaces, blank lines and ``#`` comment lines are ignored. Without ``size`` the number of
        lines says it; raises :class:`HexBoardTextError`."""
        lines = [line for line in text.splitlines()
                 if line.strip() and not line.lstrip().startswith("#")]
        if len(lines) % 2 == 0 or not MIN_SIZE <= (len(lines) + 1) // 2 <= MAX_SIZE:
            raise HexBoardTextError(f"board text has {len(lines)} lines; a hexhex board of side"
                                    f" {MIN_SIZE} to {MAX_SIZE} has an odd number, 5 to 19")
        found = (len(lines) + 1) // 2
        if size is not None and found != size:
            raise HexBoardTextError(f"board text has {len(lines)} lines, a board of side"
                                    f" {found}; this board's side is {size}"
                                    f" ({2 * size - 1} lines)")
        grid = hex_grid(found)
        colours: list[str | None] = []
        for number, line in enumerate(lines):
            tokens = line.split() if " " in line.strip() else list(line.strip())
            expected = grid.line_length(number)
            if len(tokens) != expected:
                raise HexBoardTextError(f"board text line {LINE_LETTERS[number]} has"
                                        f" {len(tokens)} cells, expected {expected}")
            where = f"line {LINE_LETTERS[number]}"
            colours += [_colour_token(token, where) for token in tokens]
        return cls(grid, tuple(colours))

    def text(self) -> str:
        """Board text, spaced, each line indented so the hexagon shows (FORMATS.md)."""
        out = []
        position = 0
        for line in range(self.grid.lines):
            length = self.grid.line_length(line)
            tokens = [colour or EMPTY for colour in self.colours[position:position + length]]
            position += length
            out.append(" " * (self.grid.lines - length) + " ".join(tokens))
        return "\n".join(out) + "\n"

    @property
    def size(self) -> int:
        return self.grid.size

    def __getitem__(self, cell: HexCell) -> str | None:
        return self.colours[self.grid.index[cell]]

    def get(self, cell: HexCell) -> str | None:
        """The stone's colour on ``cell``, None when it is empty or not on this board."""
        number = self.grid.index.get(cell)
        return None if number is None else self.colours[number]

    @property
    def stones(self) -> dict[HexCell, str]:
        """The occupied cells and their colours, in reading order."""
        return {cell: colour for cell, colour in zip(self.grid.cells, self.colours, strict=True)
                if colour is not None}

    def empty_cells(self) -> list[HexCell]:
        return [cell for cell, colour in zip(self.grid.cells, self.colours, strict=True)
                if colour is None]

    def is_full(self) -> bool:
        return None not in self.colours

    def __len__(self) -> int:
        """The number of stones on the board."""
        return sum(colour is not None for colour in self.colours)

    def with_stones(self, stones: Iterable[tuple[HexCell, str]]) -> HexBoard:
        """A new board with ``stones`` added (or changed); the caller has checked the cells."""
        colours = list(self.colours)
        for cell, colour in stones:
            colours[self.grid.index[cell]] = colour
        return HexBoard(self.grid, tuple(colours))

    def __repr__(self) -> str:
        return f"HexBoard.parse({self.text()!r})"


__all__ = [
    "DEFAULT_SIZE",
    "EMPTY",
    "MAX_SIZE",
    "MIN_SIZE",
    "PALETTE",
    "HexBoard",
    "HexBoardTextError",
    "HexCell",
    "HexGrid",
    "colour_name",
    "hex_grid",
]
