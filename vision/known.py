"""A reading settled by what is already known to lie on the board.

A single photo stands alone, and some of it the camera cannot tell: a blank whose face is the
colour of the square under it, a Q whose tail is lost in a dim corner. In a game in progress
that is not the whole story. Every tile the game has accepted is known, and tiles do not leave
the board on their own (the tiles a capture takes off have already left the game's board, and
are awaited by the referee, not by this module). So where the camera *doubts* and the game
*knows*, the known tile stands; where the camera is sure, it is believed, even against the game,
so a tile that really went missing or was swapped is still reported by the referee. A blank is
the exception: the camera cannot be sure one is gone (:func:`settle`).

This module knows boards as ``{Cell: Tile}`` and readings as plain data; it knows nothing of the
rules. The web service settles each camera frame with the game's board; ``tileref eval`` measures
the same on the photos that follow an earlier photo of the same game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.boardtext import Tile
from referee.cells import Cell
from vision.reading import BoardReading
from vision.tuning import KNOWN_TILE_SURE
from vision.warning import maybe_tile_cells, reading_warnings


@dataclass(frozen=True)
class Doubts:
    """Where a reading doubts itself: empty cells that may hold a tile, and each tile's
    confidence (a cell not listed was read surely)."""

    maybe_tiles: frozenset[Cell] = frozenset()
    confidence: Mapping[Cell, float] = field(default_factory=dict)

    @classmethod
    def of_reading(cls, reading: BoardReading) -> Doubts:
        return cls(frozenset(Cell.parse(name) for name in reading.warned_empty_cells()),
                   {Cell.parse(cell.cell): cell.confidence for cell in reading.cells})

    @classmethod
    def of_json(cls, data: Mapping[str, Any]) -> Doubts:
        """The doubts of a reading in ``tileref read --json`` form (its ``warning_details`` and
        its cells' confidences); what it does not say is taken as sure. Raises ``ValueError`` on
        a malformed cell, confidence or warning."""
        try:
            confidence = {Cell.parse(str(cell["cell"])): float(cell["confidence"])
                          for cell in data.get("cells") or () if "confidence" in cell}
        except (KeyError, TypeError) as error:
            raise ValueError(f"a reading's cells are malformed: {error}") from None
        warnings = reading_warnings(data)
        return cls(frozenset(Cell.parse(name) for name in maybe_tile_cells(warnings)),
                   confidence)


def _face(tile: Tile) -> str:
    """What a camera can see of a tile: its letter, or ``?`` for any blank."""
    return "?" if tile.blank else tile.letter


def settle(seen: Mapping[Cell, Tile], known: Mapping[Cell, Tile], doubts: Doubts,
           sure: float = KNOWN_TILE_SURE) -> tuple[dict[Cell, Tile], list[Cell]]:
    """The board ``seen``, with the known tiles put back where the reading doubts itself.

    A known tile is kept (as the game knows it, with a blank's letter) where the cell was read
    as empty but a warning says it may hold a tile, or where it was read as another letter less
    surely than ``sure`` and at the same rotation: a tile facing another seat is a capture or a
    real change, never a misread letter. A known tile without a rotation (scrabble) is compared
    by letter alone. Returns the settled board and the cells kept, in board order. ``seen``,
    ``known`` and ``doubts`` must be in the same view.

    A known blank read as empty is kept, doubted or not. A lettered tile read as gone is seen
    gone: its letter would show. A blank has only a face the colour of a tile, and the camera
    misses some with no doubt at all: of the known blanks read as empty on 163 renders (read as
    the live camera reads, corners given), 19 of 41 had no warning, and on a dim, soft truth
    photo (jheidel 170755, O15) one. Each would have reached the referee as a tile gone
    missing. A blank taken off by a capture has left the game's board before this is asked.
    """
    settled = dict(seen)
    kept: list[Cell] = []
    for cell in sorted(known, key=lambda c: (c.row, c.col)):
        tile, got = known[cell], seen.get(cell)
        if got is None:
            doubtful = tile.blank or cell in doubts.maybe_tiles
        else:
            doubtful = (_face(got) != _face(tile)
                        and doubts.confidence.get(cell, 1.0) < sure
                        and (tile.rotation is None or got.rotation == tile.rotation))
        if doubtful:
            settled[cell] = tile
            kept.append(cell)
    return settled, kept


__all__ = ["Doubts", "settle"]
