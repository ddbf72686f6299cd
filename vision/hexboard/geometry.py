"""The shape of a hexhex board in its own frame, where the reader measures everything.

The board frame has the centre cell at the origin and the cell width (the distance between two
neighbouring cells' centres) as its unit; lines of cells run along x, line ``a`` at the top
(negative y, as in a picture). The playing area is the flat-topped hexagon through the edge
cells' outer tips: circumradius ``size - 1 + 2/3``, its top edge 1/sqrt(3) above line ``a``'s
centres (their pointed tops touch it). Its six corners are what a reading reports, clockwise
from the top left: TL, TR, R, BR, BL, L.

Cell names and their order come from :mod:`referee.hexboard` (plain types, no rules).
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from referee.hexboard import HexCell, hex_grid

SQRT3 = math.sqrt(3)

LATTICE = np.array([[1.0, 0.0], [0.5, SQRT3 / 2]])
"""The lattice's two steps: to the right along a line, and down-right to the next line."""


def playing_radius(size: int) -> float:
    """The playing area's circumradius in cell widths."""
    return size - 1 + 2 / 3


def hexagon(radius: float) -> np.ndarray:
    """A flat-topped hexagon's corners, clockwise on the page from the top left (6, 2)."""
    angles = np.radians([240, 300, 0, 60, 120, 180])
    return np.column_stack([radius * np.cos(angles), radius * np.sin(angles)])


@cache
def cell_points(size: int) -> np.ndarray:
    """Every cell's centre in the board frame, in :class:`referee.hexboard.HexGrid` order."""
    grid = hex_grid(size)
    points = []
    for cell in grid:
        q, r = grid.axial(cell)
        points.append(q * LATTICE[0] + r * LATTICE[1])
    points_array = np.array(points, dtype=np.float64)
    points_array.setflags(write=False)
    return points_array


@cache
def cells(size: int) -> tuple[HexCell, ...]:
    return hex_grid(size).cells


@cache
def neighbour_pairs(size: int) -> np.ndarray:
    """(N, 2) indices of neighbouring cells, each pair once."""
    grid = hex_grid(size)
    pairs = [(i, j) for i, near in enumerate(grid.neighbour_indices) for j in near if j > i]
    return np.array(pairs, dtype=np.int64)


def apply_homography(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(N, 2) points through a 3x3 homography."""
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    mapped = np.column_stack([points, np.ones(len(points))]) @ homography.T
    return mapped[:, :2] / mapped[:, 2:3]


def top_edge(corners: np.ndarray) -> int:
    """Which edge of a hexagon (given clockwise, edge i from corner i to i + 1) lies nearest
    the top of the photo: the one whose ends have the least mean y."""
    return int(np.argmin([(corners[i, 1] + corners[(i + 1) % 6, 1]) / 2 for i in range(6)]))


def turn(points: np.ndarray, degrees: float) -> np.ndarray:
    """Points turned clockwise on the page (y down) about the origin."""
    angle = math.radians(degrees)
    c, s = math.cos(angle), math.sin(angle)
    return np.asarray(points, dtype=np.float64) @ np.array([[c, s], [-s, c]])


__all__ = [
    "LATTICE",
    "SQRT3",
    "apply_homography",
    "cell_points",
    "cells",
    "hexagon",
    "neighbour_pairs",
    "playing_radius",
    "top_edge",
    "turn",
]
