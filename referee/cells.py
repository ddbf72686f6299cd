"""Cells, directions and seats: the geometry every board ruleset shares (RULES.md §0).

The absolute frame is the board seen from South. Each seat sees the board turned by a whole number
of quarter turns, so one transform per seat lets a single algorithm serve all four players: rules
are written once in a seat's own frame and mapped to absolute cells at the border.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

SIZE = 15
COLUMNS = "ABCDEFGHIJKLMNO"
CENTRE_INDEX = SIZE // 2


@dataclass(frozen=True, order=True)
class Cell:
    """One square of the 15x15 grid in the South view; ``col`` and ``row`` count from 0."""

    col: int
    row: int

    @classmethod
    def parse(cls, name: str) -> Cell:
        """``Cell.parse("H8")`` is the centre; raises ``ValueError`` on anything else."""
        text = name.strip().upper()
        if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
            raise ValueError(f"not a cell name: {name!r} (expected A1 to O15)")
        row = int(text[1:])
        if not 1 <= row <= SIZE:
            raise ValueError(f"not a cell name: {name!r} (rows run 1 to 15)")
        return cls(COLUMNS.index(text[0]), row - 1)

    @property
    def name(self) -> str:
        # An off-board cell has no name (COLUMNS[-1] would quietly say "O").
        if not self.on_board():
            raise ValueError(f"{self!r} is off the board and has no name")
        return f"{COLUMNS[self.col]}{self.row + 1}"

    def __str__(self) -> str:
        return self.name if self.on_board() else repr(self)

    def __repr__(self) -> str:
        if not self.on_board():
            return f"Cell({self.col}, {self.row})"
        return f"Cell.parse({self.name!r})"

    def on_board(self) -> bool:
        return 0 <= self.col < SIZE and 0 <= self.row < SIZE

    def offset(self, dcol: int, drow: int) -> Cell:
        return Cell(self.col + dcol, self.row + drow)

    def turned(self, quarter_turns: int) -> Cell:
        """The same square once the board is turned ``quarter_turns`` clockwise (A1 -> O1)."""
        col, row = self.col, self.row
        for _ in range(quarter_turns % 4):
            col, row = SIZE - 1 - row, col
        return Cell(col, row)

    def neighbours(self) -> Iterator[Cell]:
        """The orthogonal neighbours that lie on the board."""
        for dcol, drow in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            cell = self.offset(dcol, drow)
            if cell.on_board():
                yield cell


def parse_cell(name: str) -> Cell:
    return Cell.parse(name)


def cell_name(cell: Cell) -> str:
    return cell.name


def all_cells() -> Iterator[Cell]:
    """Every cell, row by row from the top-left of the South view."""
    for row in range(SIZE):
        for col in range(SIZE):
            yield Cell(col, row)


CENTRE = Cell(CENTRE_INDEX, CENTRE_INDEX)


class Direction(enum.Enum):
    ACROSS = "across"
    DOWN = "down"

    @property
    def step(self) -> tuple[int, int]:
        """(dx, dy) of one step along this direction, in whatever frame it is used."""
        return (1, 0) if self is Direction.ACROSS else (0, 1)

    @property
    def other(self) -> Direction:
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS

    @classmethod
    def parse(cls, text: str) -> Direction:
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise ValueError(f"direction must be 'across' or 'down', not {text!r}") from None


ARROWS = {0: "^", 90: ">", 180: "v", 270: "<"}
ROTATION_OF_ARROW = {arrow: rotation for rotation, arrow in ARROWS.items()}


class Seat(enum.Enum):
    """A side of the board. The value is the seat letter used in files and on screen.

    ``quarter_turns`` is how far the seat's view is turned clockwise from South's: a tile that
    seat places looks rotated clockwise by that many quarter turns when seen from South.
    """

    S = "S"
    W = "W"
    N = "N"
    E = "E"

    @property
    def quarter_turns(self) -> int:
        return "SWNE".index(self.value)

    @property
    def rotation(self) -> int:
        """Degrees clockwise by which this seat's tiles look rotated in the South view."""
        return 90 * self.quarter_turns

    @property
    def arrow(self) -> str:
        return ARROWS[self.rotation]

    @classmethod
    def parse(cls, text: str) -> Seat:
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise ValueError(f"seat must be one of S, W, N, E, not {text!r}") from None

    @classmethod
    def from_rotation(cls, rotation: int) -> Seat:
        """The seat whose tiles look rotated by ``rotation`` degrees in the South view."""
        return list(cls)[(rotation // 90) % 4]

    def to_absolute(self, x: int, y: int) -> Cell:
        """Map (x, y) in this seat's frame (x across, y down from its far-left) to a cell."""
        for _ in range(self.quarter_turns):
            x, y = SIZE - 1 - y, x
        return Cell(x, y)

    def to_frame(self, cell: Cell) -> tuple[int, int]:
        """Inverse of :meth:`to_absolute`: where a cell lies in this seat's own frame."""
        x, y = cell.col, cell.row
        for _ in range(self.quarter_turns):
            x, y = y, SIZE - 1 - x
        return x, y

    @property
    def home_centre(self) -> Cell:
        return self.to_absolute(CENTRE_INDEX, SIZE - 1)

    def is_home_row(self, cell: Cell) -> bool:
        return self.to_frame(cell)[1] == SIZE - 1

    def line(self, start: Cell, direction: Direction, length: int) -> list[Cell]:
        """``length`` cells from ``start`` along ``direction`` as this seat reads it.

        Cells may fall off the board; callers check with :meth:`Cell.on_board`.
        """
        x, y = self.to_frame(start)
        dx, dy = direction.step
        return [self.to_absolute(x + i * dx, y + i * dy) for i in range(length)]

    def step(self, cell: Cell, direction: Direction, count: int = 1) -> Cell:
        """The cell ``count`` steps along ``direction`` (negative: backwards) in this frame."""
        x, y = self.to_frame(cell)
        dx, dy = direction.step
        return self.to_absolute(x + count * dx, y + count * dy)


SEAT_ORDER = (Seat.S, Seat.W, Seat.N, Seat.E)
