"""The board's outline as a rough grid: the biggest four-sided contours of the photo.

The line search (:mod:`vision.board.roughgrids`) pairs families of equally spaced lines, and a
table with a lattice of its own -- checked cloth, a newspaper's columns, planks a cell apart --
can out-weigh the board's thin grid lines: on the stress set's scenes refused as "no board" or
"cut off", the lattice found was the cloth's, and no hypothesis lay on the board at all. Yet the
board's edge, or its grid's outer line, is the strongest closed outline in nearly every such
photo: a four-sided contour lay within 2.5 cells of the grid's corners on 37 of the 51. These
outlines are offered as more hypotheses; the refinement, the premium layout and the judging
decide among them as among the others, so an outline that is a tray, a book or a plank is
refused like any other grid that shows no board.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board.tuning import LocateConfig


def outline_quads(gray: np.ndarray, config: LocateConfig) -> list[np.ndarray]:
    """The biggest convex four-sided outlines of ``gray`` (work-copy pixels, 4x2 each), biggest
    first, at most ``config.outline_candidates``."""
    blurred = cv2.GaussianBlur(gray, (5, 5), 0)
    edges = cv2.Canny(blurred, config.outline_canny_low, 3 * config.outline_canny_low)
    # Closed over a pixel's gap: a tile or a JPEG block breaks an edge, not the outline.
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    area_of_photo = float(gray.shape[0] * gray.shape[1])
    found: list[tuple[float, np.ndarray]] = []
    for contour in contours:
        hull = cv2.convexHull(contour)
        area = float(cv2.contourArea(hull))
        if not config.outline_min_area <= area / area_of_photo <= config.outline_max_area:
            continue
        corners = cv2.approxPolyDP(hull, config.outline_approx * cv2.arcLength(hull, True), True)
        if len(corners) == 4:
            found.append((area, corners.reshape(4, 2).astype(np.float64)))
    found.sort(key=lambda item: -item[0])
    return [quad for _, quad in found[:config.outline_candidates]]
