"""Which way a blank tile faces: the way the tiles laid beside it face.

A blank has no letter and no value in its corner, so nothing on its face says which way is up,
and the rotation the classifier gives one is a guess. That guess matters where rotation means
ownership (in archipelago a tile faces its owner), and it was little better than chance.

Tiles laid together face the same way (one player lays a word, and their tiles face them), so a
blank is turned the way of the longest lines of like-facing lettered tiles that start beside it:
each of its four neighbours counts with the tiles beyond it, in the same direction, that face as
it does. Where two ways tie, the way most of the board's lettered tiles face decides, and where
that ties too the classifier's guess stays. A blank where two players' words meet can still
face the wrong one.

Measured by ``python -m bench blanks`` (blanks read facing the right way, guess -> this): on
rendered archipelago boards with two seats 16 -> 53 of 66, with four 21 -> 48 of 64; on the 38
truth photos, read by models that never saw their repository, 7 -> 27 of 29. (Until the
benchmark's renders moved off the tile models' own training boards, 16 -> 64 of 70 and 22 -> 46
of 68.) In a scratch run over 40 renders of each, counting only the four neighbours, one each
(the same tie-breaks), got 67 of 74 and 50 of 75 right where the lines got 68 and 56: a blank
at the end of its own word is told from one that merely touches another seat's tile.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from referee.cells import Cell
from vision.reading import CellReading

_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def face_blanks(cells: Sequence[CellReading]) -> list[CellReading]:
    """``cells`` with every blank turned the way the tiles beside it face (see the module)."""
    where = {_position(reading): reading for reading in cells}
    board = Counter(reading.rotation for reading in cells if not reading.blank)
    faced = []
    for reading in cells:
        if reading.blank:
            lines = _lines_beside(_position(reading), where)
            rotation = _clear_winner(lines)
            if rotation is None:
                rotation = _clear_winner(board)
            if rotation is not None:
                reading = replace(reading, rotation=rotation)
        faced.append(reading)
    return faced


def _position(reading: CellReading) -> tuple[int, int]:
    cell = Cell.parse(reading.cell)
    return cell.col, cell.row


def _lines_beside(at: tuple[int, int], where: dict[tuple[int, int], CellReading]
                  ) -> Counter[int]:
    """For each rotation, how many like-facing lettered tiles run out from ``at``'s sides."""
    lines: Counter[int] = Counter()
    col, row = at
    for step_col, step_row in _STEPS:
        first = where.get((col + step_col, row + step_row))
        if first is None or first.blank:
            continue
        length = 1
        while True:
            tile = where.get((col + step_col * (length + 1), row + step_row * (length + 1)))
            if tile is None or tile.blank or tile.rotation != first.rotation:
                break
            length += 1
        lines[first.rotation] += length
    return lines


def _clear_winner(counts: Counter[int]) -> int | None:
    """The rotation counted most, or None when there is none or two tie for the most."""
    top = counts.most_common(2)
    if not top or (len(top) == 2 and top[0][1] == top[1][1]):
        return None
    return top[0][0]


__all__ = ["face_blanks"]
