"""The islands' hexhex board worked out afresh, to check the referee's against."""

from __future__ import annotations

import math


def drawn_neighbours(size: int) -> dict[str, set[str]]:
    """Neighbours as FORMATS.md defines them, worked out afresh from the drawing: line k is
    indented half a cell for each cell it has fewer than the middle line, lines are sqrt(3)/2
    apart, and two pointy-topped hexagons touch when their centres are one width apart."""
    centres = {}
    for line in range(2 * size - 1):
        length = 2 * size - 1 - abs(line - (size - 1))
        for place in range(length):
            name = f"{'abcdefghijklmnopqrs'[line]}{place + 1}"
            centres[name] = ((2 * size - 1 - length) / 2 + place, line * math.sqrt(3) / 2)
    return {name: {other for other, (x, y) in centres.items()
                   if other != name and abs(math.dist((x, y), centres[name]) - 1) < 1e-9}
            for name in centres}
