"""The grid's own geometry, shared by every stage of finding it: its lines and corners in grid
units (a cell is 1), homographies applied to points, and a quad's cells measured in pixels."""

from __future__ import annotations

import numpy as np

from vision.board.rectify import SIZE, check_corners
from vision.errors import VisionError

LINES = SIZE + 1
"""Lines of each family: 16 for 15 cells."""
GRID_CORNERS = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], float)
"""TL TR BR BL of the grid in grid units."""


def apply_homography(h: np.ndarray, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Apply a homography to N x 2 points: (points, homogeneous w before division)."""
    ph = np.column_stack([pts, np.ones(len(pts))]) @ h.T
    w = ph[:, 2]
    safe = np.where(np.abs(w) < 1e-12, 1e-12, w)
    return ph[:, :2] / safe[:, None], w


def clockwise(corners: np.ndarray) -> np.ndarray:
    """The same four points ordered clockwise on screen (y down), starting anywhere."""
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    return corners[np.argsort(angles)]


def is_grid_quad(quad: np.ndarray) -> bool:
    """Whether four corners (TL TR BR BL) could be a photographed grid: what
    :func:`vision.board.rectify.check_corners` accepts of a user's (finite, convex, clockwise,
    a pixel a cell at least). A step of the finder can propose crossed or collapsed corners (a
    refinement on a smear or on noise): that step has failed, and the user, who gave no
    corners, must not hear about corners."""
    try:
        check_corners(quad)
    except VisionError:
        return False
    return True


def quad_cell_px(quad: np.ndarray) -> float:
    """A quad's mean side over 15: its cell size in pixels, roughly (perspective aside)."""
    return float(np.mean([np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)]) / SIZE)


__all__ = ["GRID_CORNERS", "LINES", "apply_homography", "clockwise", "is_grid_quad",
           "quad_cell_px"]
