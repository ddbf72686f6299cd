"""Draw a hex reading over its photo: the playing area found, every cell, each stone's colour.

A person checks a reading at a glance this way: a lattice half a cell off, a red stone read as
orange, or line ``a`` along the wrong edge shows on the photo itself. Each stone read gets a
disc of the colour read (its letter inside) ringed green when sure, orange when doubtful; cells
a warning names are ringed orange.
"""

from __future__ import annotations

import cv2
import numpy as np

from referee.hexboard import HexCell, hex_grid
from vision.hexboard.geometry import (
    SQRT3,
    apply_homography,
    cell_points,
    hexagon,
    playing_radius,
)
from vision.hexboard.reading import HexReading

OUTLINE_BGR = (255, 200, 0)
SURE_BGR = (40, 200, 40)
DOUBT_BGR = (0, 150, 255)
COLOUR_BGR = {
    "R": (40, 40, 220), "B": (200, 90, 20), "G": (60, 170, 40), "Y": (40, 220, 240),
    "W": (245, 245, 245), "K": (25, 25, 25), "O": (20, 130, 255), "P": (150, 40, 140),
}


def draw_hex_overlay(image: np.ndarray, reading: HexReading) -> np.ndarray:
    """A copy of ``image`` (BGR) with the reading drawn over it."""
    canvas = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    size = reading.size
    corners = np.array(reading.corners, dtype=np.float64)
    homography, _ = cv2.findHomography(hexagon(playing_radius(size)), corners)
    cell_px = float(np.linalg.norm(corners[0] - corners[1])) / playing_radius(size)
    thickness = max(1, int(round(cell_px / 30)))
    cv2.polylines(canvas, [np.round(corners).astype(np.int32)], True, OUTLINE_BGR,
                  thickness + 1, cv2.LINE_AA)
    # Each cell's outline, thin.
    cell_outline = hexagon(1 / SQRT3)[:, ::-1]  # a pointy-topped cell
    points = cell_points(size)
    for centre in points:
        outline = apply_homography(homography, cell_outline * 0.96 + centre)
        cv2.polylines(canvas, [np.round(outline).astype(np.int32)], True, OUTLINE_BGR,
                      max(1, thickness // 2), cv2.LINE_AA)
    # Line a's edge marked with its letter, so the reading's orientation shows.
    top = apply_homography(homography, np.array([[0.0, -(size - 1) * SQRT3 / 2 - 1.0]]))[0]
    scale = max(0.4, cell_px / 45)
    cv2.putText(canvas, "a", (int(top[0]), int(top[1])), cv2.FONT_HERSHEY_DUPLEX, scale,
                OUTLINE_BGR, thickness, cv2.LINE_AA)
    grid = hex_grid(size)
    for stone in reading.stones:
        centre = points[grid.index[HexCell.parse(stone.cell)]]
        x, y = apply_homography(homography, centre[None, :])[0]
        radius = int(round(cell_px * 0.22))
        ring = SURE_BGR if stone.cell not in reading.doubtful else DOUBT_BGR
        cv2.circle(canvas, (int(x), int(y)), radius, COLOUR_BGR.get(stone.colour, (128, 128, 128)),
                   -1, cv2.LINE_AA)
        cv2.circle(canvas, (int(x), int(y)), radius, ring, thickness + 1, cv2.LINE_AA)
        text_colour = (0, 0, 0) if stone.colour in "WYO" else (255, 255, 255)
        (w, h), _ = cv2.getTextSize(stone.colour, cv2.FONT_HERSHEY_DUPLEX, scale * 0.7, 1)
        cv2.putText(canvas, stone.colour, (int(x - w / 2), int(y + h / 2)),
                    cv2.FONT_HERSHEY_DUPLEX, scale * 0.7, text_colour, 1, cv2.LINE_AA)
    stone_cells = {stone.cell for stone in reading.stones}
    for name in sorted(reading.doubtful - stone_cells):
        centre = points[grid.index[HexCell.parse(name)]]
        x, y = apply_homography(homography, centre[None, :])[0]
        cv2.circle(canvas, (int(x), int(y)), int(round(cell_px * 0.3)), DOUBT_BGR,
                   thickness + 1, cv2.LINE_AA)
    return canvas


__all__ = ["draw_hex_overlay"]
