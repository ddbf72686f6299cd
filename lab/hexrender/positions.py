"""Positions to render: stones grown into islands, as a game of ``islands`` leaves them."""

from __future__ import annotations

import numpy as np

from referee.hexboard import PALETTE, HexBoard, HexCell, hex_grid


def random_position(rng: np.random.Generator, size: int = 7, *,
                    colours: str | None = None, fill: float | None = None) -> HexBoard:
    """A board a fraction ``fill`` full (drawn when None) of stones in ``colours`` (two to
    four palette colours, drawn when None), placed mostly beside stones of their own colour,
    so islands grow as in a game."""
    grid = hex_grid(size)
    letters = list(PALETTE)
    if colours is None:
        count = int(rng.choice([2, 3, 4, 8], p=[0.35, 0.3, 0.25, 0.1]))
        colours = "".join(rng.choice(letters, count, replace=False))
    if fill is None:
        fill = float(rng.uniform(0.05, 0.75))
    wanted = int(round(fill * len(grid)))
    stones: dict[HexCell, str] = {}
    empty = set(grid.cells)
    while len(stones) < wanted and empty:
        colour = str(colours[int(rng.integers(len(colours)))])
        beside = [n for cell, c in stones.items() if c == colour
                  for n in grid.neighbours(cell) if n in empty]
        if beside and rng.random() < 0.6:
            cell = beside[int(rng.integers(len(beside)))]
        else:
            pool = sorted(empty)
            cell = pool[int(rng.integers(len(pool)))]
        stones[cell] = colour
        empty.discard(cell)
    return HexBoard.from_stones(stones, size)


__all__ = ["random_position"]
