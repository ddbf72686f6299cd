"""Where things lie on a hexhex board, in world units (cell widths, centre cell at the origin).

The renderer keeps its own copy of this geometry rather than borrowing the reader's, so that a
render's truth (which cell is which, where the six corners are) is worked out independently of
what it is used to check; the cell names and lines come from :mod:`referee.hexboard`.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from referee.hexboard import HexCell, hex_grid

SQRT3 = math.sqrt(3)


def outer_radius(size: int) -> float:
    """The circumradius of the playing area: the flat-topped hexagon through the outer tips of
    the edge cells, ``size - 1 + 2/3`` cell widths (its top edge touches the top line's cells'
    pointed tops, 1/sqrt(3) above their centres)."""
    return size - 1 + 2 / 3


def hexagon(radius: float) -> np.ndarray:
    """A flat-topped hexagon's six corners, clockwise on the page (y down) from the top left:
    TL, TR, R, BR, BL, L."""
    angles = np.radians([240, 300, 0, 60, 120, 180])
    return np.column_stack([radius * np.cos(angles), radius * np.sin(angles)])


@cache
def cell_centres(size: int) -> dict[HexCell, tuple[float, float]]:
    """Each cell's centre with the board turned upright (line ``a`` at the top)."""
    grid = hex_grid(size)
    middle_x = grid.lines / 2
    middle_y = (size - 1) * SQRT3 / 2 + 1 / SQRT3
    centres = {}
    for cell in grid:
        x, y = grid.centre(cell)
        centres[cell] = (x - middle_x, y - middle_y)
    return centres


def turn_points(points: np.ndarray, degrees: float) -> np.ndarray:
    """Points turned about the origin by ``degrees``, clockwise on the page (y down)."""
    angle = math.radians(degrees)
    c, s = math.cos(angle), math.sin(angle)
    return np.asarray(points, dtype=np.float64) @ np.array([[c, s], [-s, c]])


def turned_cells(size: int, sixths: int) -> dict[HexCell, HexCell]:
    """Which cell each cell becomes when the board is turned by ``sixths`` x 60 degrees
    clockwise: found by where its centre lands, so no formula of names can be wrong."""
    centres = cell_centres(size)
    cells = list(centres)
    points = np.array([centres[cell] for cell in cells])
    moved = turn_points(points, 60 * sixths)
    distance = np.linalg.norm(moved[:, None, :] - points[None, :, :], axis=2)
    nearest = distance.argmin(axis=1)
    if not np.allclose(distance[np.arange(len(cells)), nearest], 0, atol=1e-6):
        raise AssertionError("a hexhex board turned by 60 degrees is the same board")
    return {cell: cells[int(index)] for cell, index in zip(cells, nearest, strict=True)}


__all__ = ["SQRT3", "cell_centres", "hexagon", "outer_radius", "turn_points", "turned_cells"]
