"""Hex readings built as data, in the shape of ``vision.hexboard.HexReading``: what the live
islands tests feed the table in place of the camera."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.hexboard import HexBoard, HexCell


@dataclass(frozen=True)
class StoneSeen:
    """A stone as the hex reader reports it (``vision.hexboard.StoneReading``)."""

    cell: str
    colour: str
    confidence: float = 0.97

    def to_json(self) -> dict[str, Any]:
        return {"cell": self.cell, "colour": self.colour, "confidence": self.confidence}


@dataclass(frozen=True)
class HexSeen:
    """A reading in the shape of ``vision.hexboard.HexReading``."""

    size: int
    stones: tuple[StoneSeen, ...]
    corners: tuple[tuple[float, float], ...] = ((0, 0),) * 6
    warnings: tuple[str, ...] = ()
    doubtful: frozenset[str] = field(default_factory=frozenset)

    def board_text(self) -> str:
        return HexBoard.from_stones({HexCell.parse(stone.cell): stone.colour
                                     for stone in self.stones}, self.size).text()

    def to_json(self) -> dict[str, Any]:
        return {"board": self.board_text(), "stones": [s.to_json() for s in self.stones],
                "corners": [list(corner) for corner in self.corners],
                "warnings": list(self.warnings)}


def seen(stones: dict[str, str], size: int = 4, warnings: tuple[str, ...] = ()) -> HexSeen:
    return HexSeen(size, tuple(StoneSeen(cell, colour) for cell, colour in stones.items()),
                   warnings=warnings)
