"""Draw what the program saw over the photo: the grid it found and every letter it read.

A person checks a reading at a glance this way: a grid line off by half a cell, a letter in red
(low confidence) or an arrow pointing the wrong way is obvious on the photo itself, where the
board text would need counting. Colours: green sure, orange doubtful, red unsure; an empty
square a warning names (glare or shadow that may hide a tile, a possible blank) is boxed orange.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import ArrayLike

from referee.cells import Cell
from vision.board.rectify import SIZE, grid_homography
from vision.errors import ImageError
from vision.reading import BoardReading
from vision.tuning import DEFAULT_CONFIG

GRID_BGR = (255, 200, 0)
SURE_BGR = (40, 200, 40)
DOUBT_BGR = (0, 150, 255)
UNSURE_BGR = (0, 0, 230)
ARROW_STEP = {0: (0.0, -0.42), 90: (0.42, 0.0), 180: (0.0, 0.42), 270: (-0.42, 0.0)}


def _to_photo(homography: np.ndarray, points: ArrayLike) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, homography).reshape(-1, 2)


def _colour(confidence: float) -> tuple[int, int, int]:
    if confidence >= 0.85:
        return SURE_BGR
    if confidence >= DEFAULT_CONFIG.low_confidence:
        return DOUBT_BGR
    return UNSURE_BGR


def draw_overlay(image: np.ndarray, reading: BoardReading) -> np.ndarray:
    """A copy of ``image`` with the grid, letters, rotation arrows and warned cells drawn on."""
    canvas = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    homography = grid_homography(np.array(reading.corners, dtype=np.float64))
    cell_px = float(np.linalg.norm(_to_photo(homography, [[0, 0], [1, 0]])[1]
                                   - _to_photo(homography, [[0, 0]])[0]))
    thickness = max(1, int(round(cell_px / 30)))
    for i in range(SIZE + 1):
        for line in (((i, 0), (i, SIZE)), ((0, i), (SIZE, i))):
            a, b = _to_photo(homography, np.array(line, dtype=np.float64))
            cv2.line(canvas, tuple(int(v) for v in a), tuple(int(v) for v in b), GRID_BGR,
                     thickness, cv2.LINE_AA)
    scale = max(0.3, cell_px / 40)
    for cell_reading in reading.cells:
        cell = Cell.parse(cell_reading.cell)
        colour = _colour(cell_reading.confidence)
        centre = np.array([cell.col + 0.5, cell.row + 0.5])
        dx, dy = ARROW_STEP[cell_reading.rotation]
        tail, head = _to_photo(homography, np.array([centre, centre + (dx, dy)]))
        cv2.arrowedLine(canvas, tuple(int(v) for v in tail), tuple(int(v) for v in head), colour,
                        thickness, cv2.LINE_AA, tipLength=0.35)
        text = cell_reading.letter if cell_reading.letter.isascii() else "*"
        anchor = _to_photo(homography, np.array([[cell.col + 0.08, cell.row + 0.45]]))[0]
        cv2.putText(canvas, text, (int(anchor[0]), int(anchor[1])), cv2.FONT_HERSHEY_DUPLEX,
                    scale, (0, 0, 0), thickness + 2, cv2.LINE_AA)
        cv2.putText(canvas, text, (int(anchor[0]), int(anchor[1])), cv2.FONT_HERSHEY_DUPLEX,
                    scale, colour, thickness, cv2.LINE_AA)
        if cell_reading.warning_details:
            box = _to_photo(homography, np.array(
                [[cell.col, cell.row], [cell.col + 1, cell.row], [cell.col + 1, cell.row + 1],
                 [cell.col, cell.row + 1]], dtype=np.float64))
            cv2.polylines(canvas, [box.astype(np.int32)], True, UNSURE_BGR, thickness,
                          cv2.LINE_AA)
    for name in reading.warned_empty_cells():
        cell = Cell.parse(name)
        low, high = 0.15, 0.85  # inside the square, apart from its grid lines
        box = _to_photo(homography, np.array(
            [[low, low], [high, low], [high, high], [low, high]]) + [cell.col, cell.row])
        cv2.polylines(canvas, [box.astype(np.int32)], True, DOUBT_BGR, thickness, cv2.LINE_AA)
    return canvas


def save_overlay(overlay: np.ndarray, path: str | Path) -> None:
    """Write the overlay as PNG (or whatever the suffix says); one-line error if that fails."""
    path = Path(path)
    if path.suffix.lower() not in (".png", ".jpg", ".jpeg", ".webp"):
        raise ImageError(f"overlay file must end in .png, .jpg or .webp, not {path.name!r}")
    try:
        ok = cv2.imwrite(str(path), overlay)
    except cv2.error:
        ok = False
    if not ok:
        raise ImageError(f"cannot write the overlay to {path}")


__all__ = ["draw_overlay", "save_overlay"]
