"""What the camera saw: one value per occupied cell, and the board they make.

A reading is plain data at the border between pixels and rules: the referee, the web UI and the
JSON of ``tileref read --json`` (FORMATS.md) all consume it, and none of them needs OpenCV. How a
photo is read (:class:`vision.tuning.ReadConfig`) is the reader's business, not the reading's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from referee.boardtext import Tile, format_board_text, rotate_tiles
from referee.cells import ARROWS, Cell
from vision.warning import ReadingWarning, maybe_tile_cells


@dataclass(frozen=True)
class CellReading:
    """One occupied cell as read: ``letter`` upper case, ``"?"`` for a blank tile.

    ``rotation`` is where the top of the letter points in the South view (0, 90, 180, 270
    degrees clockwise): in the archipelago game it says who owns the tile.
    """

    cell: str
    letter: str
    rotation: int = 0
    confidence: float = 1.0
    blank: bool = False
    warning_details: tuple[ReadingWarning, ...] = ()

    @property
    def warnings(self) -> tuple[str, ...]:
        """What :attr:`warning_details` say of this tile, as a person reads it."""
        return tuple(warning.message for warning in self.warning_details)

    def __post_init__(self) -> None:
        Cell.parse(self.cell)
        if self.rotation not in ARROWS:
            raise ValueError(f"rotation must be 0, 90, 180 or 270, not {self.rotation!r}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be 0..1, not {self.confidence!r}")

    @property
    def tile(self) -> Tile:
        if self.blank or self.letter == "?":
            return Tile("?", True, self.rotation)
        return Tile(self.letter.upper(), False, self.rotation)

    def to_json(self) -> dict:
        return {
            "cell": self.cell,
            "letter": self.letter,
            "rotation": self.rotation,
            "confidence": round(float(self.confidence), 3),
        }


@dataclass(frozen=True)
class BoardReading:
    """Every occupied cell of one photo, where the grid was, and what looked doubtful.

    ``empty`` is how sure the reader is that each cell read as empty is empty ({"A1": 0.99}),
    so that every cell of the board has a confidence, the occupied ones in ``cells``.
    ``warning_details`` are the warnings as data (:class:`vision.warning.ReadingWarning`): the
    whole photo's first, then each tile's, then the squares read as empty.
    """

    cells: tuple[CellReading, ...]
    corners: tuple[tuple[float, float], ...]
    warning_details: tuple[ReadingWarning, ...] = ()
    timings_ms: dict[str, float] = field(default_factory=dict, compare=False)
    empty: dict[str, float] = field(default_factory=dict)

    @property
    def warnings(self) -> tuple[str, ...]:
        """The warnings as a person reads them, one sentence each (FORMATS.md's ``warnings``)."""
        return tuple(warning.message for warning in self.warning_details)

    def tiles(self) -> dict[Cell, Tile]:
        return {Cell.parse(reading.cell): reading.tile for reading in self.cells}

    def board_text(self) -> str:
        """The board in FORMATS.md's spaced form, every tile with its rotation arrow."""
        return format_board_text(self.tiles(), spaced=True)

    def to_json(self) -> dict:
        """The object ``tileref read --json`` prints (FORMATS.md)."""
        return {
            "board": self.board_text(),
            "cells": [reading.to_json() for reading in self.cells],
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "warnings": list(self.warnings),
            "warning_details": [warning.to_json() for warning in self.warning_details],
            "empty": [{"cell": name, "confidence": round(float(confidence), 3)}
                      for name, confidence in sorted(self.empty.items(), key=_board_order)],
        }

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    def warned_empty_cells(self) -> list[str]:
        """Cells read as empty that a warning says may hold a tile (glare or shadow that may hide
        one, a possible blank), in the order named: where a person should look again."""
        read = {reading.cell for reading in self.cells}
        return [name for name in maybe_tile_cells(self.warning_details) if name not in read]

    def turned(self, quarter_turns: int) -> BoardReading:
        """The same reading with the board turned clockwise (cells move, rotations follow).

        Corners are re-ordered so that they still start at the new view's top-left.
        """
        quarter_turns %= 4
        if quarter_turns == 0:
            return self
        moved = rotate_tiles({Cell.parse(r.cell): Tile("A", False, r.rotation) for r in self.cells},
                             quarter_turns)
        cells = []
        for reading in self.cells:
            new = Cell.parse(reading.cell).turned(quarter_turns)
            cells.append(
                CellReading(
                    cell=new.name,
                    letter=reading.letter,
                    rotation=moved[new].rotation or 0,
                    confidence=reading.confidence,
                    blank=reading.blank,
                    warning_details=_turned(reading.warning_details, quarter_turns),
                )
            )
        cells.sort(key=lambda r: (Cell.parse(r.cell).row, Cell.parse(r.cell).col))
        # Turning the view clockwise by k: the new top-left is the old corner k places earlier.
        corners = tuple(self.corners[(i - quarter_turns) % 4] for i in range(4))
        empty = {Cell.parse(name).turned(quarter_turns).name: confidence
                 for name, confidence in self.empty.items()}
        return BoardReading(tuple(cells), corners, _turned(self.warning_details, quarter_turns),
                            dict(self.timings_ms), empty)


def _board_order(item: tuple[str, float]) -> tuple[int, int]:
    """Row by row, left to right: the order ``cells`` are listed in."""
    cell = Cell.parse(item[0])
    return cell.row, cell.col


def _turned(warnings: tuple[ReadingWarning, ...], quarter_turns: int
           ) -> tuple[ReadingWarning, ...]:
    """Warnings naming the cells of the turned view (:meth:`ReadingWarning.turned`)."""
    return tuple(warning.turned(quarter_turns) for warning in warnings)


__all__ = ["BoardReading", "CellReading"]
