"""What the hex reader says about a photo, as plain data: the board, each stone, the corners
and the doubts. FORMATS.md's ``tileref read --islands --json`` is :meth:`HexReading.to_json`."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from referee.hexboard import HexBoard, HexCell


@dataclass(frozen=True)
class StoneReading:
    """A stone read on ``cell`` (``d4``): its colour letter and how sure the reader is (0-1)."""

    cell: str
    colour: str
    confidence: float

    def to_json(self) -> dict[str, Any]:
        return {"cell": self.cell, "colour": self.colour,
                "confidence": round(float(self.confidence), 2)}


@dataclass(frozen=True)
class HexReading:
    """A hexhex board read from a photo.

    ``stones`` are in reading order (line ``a`` first); ``corners`` are the playing area's six
    corners in photo pixels, clockwise from the left end of the edge nearest the photo's top
    (line ``a``'s); ``warnings`` are sentences a player can act on.
    """

    size: int
    stones: tuple[StoneReading, ...]
    corners: tuple[tuple[float, float], ...]
    warnings: tuple[str, ...] = ()
    doubtful: frozenset[str] = field(default_factory=frozenset)
    """Cells a warning names (a stone read unsure, or glare over it): the overlay rings them."""

    def board(self) -> HexBoard:
        return HexBoard.from_stones({HexCell.parse(stone.cell): stone.colour
                                     for stone in self.stones}, self.size)

    def board_text(self) -> str:
        """FORMATS.md's islands board text, spaced and indented."""
        return self.board().text()

    def to_json(self) -> dict[str, Any]:
        return {
            "board": self.board_text(),
            "stones": [stone.to_json() for stone in self.stones],
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "warnings": list(self.warnings),
        }

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), indent=2)


__all__ = ["HexReading", "StoneReading"]
