"""Four ArUco markers beside the board: corners found in milliseconds, and South for free.

The markers are printed on one sheet (``marker_sheet``), cut out and laid by the four corners of
the board: id 0 by the corner at the top-left of South's view (North-West), id 1 North-East,
id 2 South-East, id 3 South-West. Exactly where they lie does not matter: calibration measures
each marker's position in grid units once (from a photo where the grid itself is found), and
afterwards any frame where two or more markers are seen gives the grid by a homography. Because
every id is distinct, the markers also say which side is South, which the symmetric premium
layout cannot.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

DICTIONARY_NAME = "DICT_4X4_50"
CORNER_IDS = (0, 1, 2, 3)  # NW (South-view TL), NE (TR), SE (BR), SW (BL)
CORNER_NAMES = {
    0: "NW - top-left as South sees the board",
    1: "NE - top-right as South sees the board",
    2: "SE - South's right-hand corner",
    3: "SW - South's left-hand corner",
}


def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY_NAME))


@dataclass(frozen=True)
class DetectedMarker:
    """One marker seen in an image: ``corners`` 4x2 in its own clockwise order from its TL."""

    marker_id: int
    corners: np.ndarray

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)


def detect_markers(image: np.ndarray) -> dict[int, DetectedMarker]:
    """The tileref markers (ids 0-3) visible in a BGR or grey image, by id."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(dictionary(), parameters)
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, DetectedMarker] = {}
    if ids is None:
        return found
    for quad, raw_id in zip(corners, ids.ravel(), strict=True):
        marker_id = int(raw_id)
        if marker_id in CORNER_IDS and marker_id not in found:
            found[marker_id] = DetectedMarker(marker_id, quad.reshape(4, 2).astype(np.float64))
    return found


def marker_sheet(*, dpi: int = 150, marker_mm: float = 40.0) -> np.ndarray:
    """A printable A4 page (grey image) with the four markers, labelled with where each goes."""
    mm = dpi / 25.4
    width, height = int(round(210 * mm)), int(round(297 * mm))
    page = np.full((height, width), 255, np.uint8)
    side = int(round(marker_mm * mm))
    quiet = int(round(6 * mm))  # white border the detector needs around each marker
    cells = [(0, 0), (1, 0), (1, 1), (0, 1)]  # NW NE SE SW on the page too
    cell_w, cell_h = width // 2, (height - int(30 * mm)) // 2
    top = int(30 * mm)
    font = cv2.FONT_HERSHEY_SIMPLEX
    big, small = 0.9 * dpi / 150, 0.7 * dpi / 150
    thick = max(1, int(round(dpi / 100)))
    header = (
        "tileref board markers (ArUco 4x4_50, ids 0-3).",
        "Cut out, lay one by each board corner as labelled;",
        "keep the white border. South = the side of ids 2 and 3.",
    )
    for number, line in enumerate(header):
        cv2.putText(page, line, (int(10 * mm), int((8 + 7 * number) * mm)), font, big, 0, thick)
    for marker_id, (cx, cy) in zip(CORNER_IDS, cells, strict=True):
        marker = cv2.aruco.generateImageMarker(dictionary(), marker_id, side, borderBits=1)
        x0 = cx * cell_w + (cell_w - side) // 2
        y0 = top + cy * cell_h + (cell_h - side) // 2
        page[y0:y0 + side, x0:x0 + side] = marker
        cv2.rectangle(page, (x0 - quiet, y0 - quiet), (x0 + side + quiet, y0 + side + quiet),
                      160, 1)
        name, _, where = CORNER_NAMES[marker_id].partition(" - ")
        for number, line in enumerate((f"id {marker_id}: {name} corner", where)):
            cv2.putText(page, line, (cx * cell_w + int(8 * mm),
                                     y0 + side + quiet + int((7 + 6 * number) * mm)),
                        font, small, 0, thick)
    return page


SHEET_SUFFIXES = (".png", ".pdf")


def write_marker_sheet(path: Path | str, *, dpi: int = 150) -> Path:
    """Write the marker sheet as a PNG or as a one-page A4 PDF (which prints at true size)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SHEET_SUFFIXES:
        raise ValueError(f"{path.name}: the marker sheet is written as .png or .pdf")
    page = marker_sheet(dpi=dpi)
    path.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".pdf":
        from PIL import Image  # Pillow writes PDF; OpenCV cannot

        Image.fromarray(page).save(path, "PDF", resolution=float(dpi))
    elif not cv2.imwrite(str(path), page):
        raise OSError(f"{path}: cannot write the marker sheet")
    return path


def grid_from_markers(
    seen: dict[int, DetectedMarker], positions: dict[int, np.ndarray]
) -> np.ndarray | None:
    """Grid corners (TL TR BR BL of the South view, image pixels) from markers whose positions
    in grid units are known; None when fewer than two known markers are seen."""
    pairs = [(positions[i], seen[i].corners) for i in seen if i in positions]
    if len(pairs) < 2:
        return None
    grid_pts = np.vstack([np.asarray(g, np.float64) for g, _ in pairs])
    image_pts = np.vstack([img for _, img in pairs])
    h, _ = cv2.findHomography(grid_pts, image_pts, 0)
    if h is None:
        return None
    square = np.array([[[0, 0]], [[15, 0]], [[15, 15]], [[0, 15]]], np.float64)
    return cv2.perspectiveTransform(square, h).reshape(4, 2)


def marker_positions(
    seen: dict[int, DetectedMarker], grid_corners: np.ndarray
) -> dict[int, np.ndarray]:
    """Each seen marker's four corners in grid units, given the grid corners in the same image."""
    square = np.array([[0, 0], [15, 0], [15, 15], [0, 15]], np.float32)
    to_grid = cv2.getPerspectiveTransform(np.asarray(grid_corners, np.float32), square)
    return {
        marker_id: cv2.perspectiveTransform(
            marker.corners.reshape(-1, 1, 2).astype(np.float64), to_grid
        ).reshape(4, 2)
        for marker_id, marker in seen.items()
    }


def order_by_markers(corners: np.ndarray, seen: dict[int, DetectedMarker]) -> np.ndarray:
    """Relabel clockwise grid corners so the marker ids say which is which (id i nearest
    corner i after the relabelling, in the least-squares sense); unchanged without markers."""
    quad = np.asarray(corners, np.float64)
    if not seen:
        return quad
    best, best_cost = quad, np.inf
    for shift in range(4):
        rolled = np.roll(quad, -shift, axis=0)
        cost = sum(
            float(np.linalg.norm(rolled[i] - seen[i].centre)) for i in CORNER_IDS if i in seen
        )
        if cost < best_cost:
            best, best_cost = rolled, cost
    return best
