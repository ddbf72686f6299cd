"""Where the board's hexagonal plate might be in a photo: candidate outlines, best first.

A board lies on a table that may be as busy as the board itself (wood grain, a checked cloth,
tiles), so no single cue finds it. Candidates come from colour: the plate is one material, so
some colour cluster of the photo (k-means in Lab on a small copy), closed over the stones and
cell marks on it, is a solid hexagon-shaped blob. Each blob that a hexagon fits well is a
candidate; :mod:`vision.hexboard.lattice` then keeps the first one holding a lattice of cells of
the board's size, which a patch of table never does.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MASK_SIDE = 200
"""Pixels along the longer side of the copy the colour blobs are found in."""

CLUSTERS = 6
MIN_AREA = 0.03  # of the photo: smaller blobs are not a board one could read
MIN_FILL = 0.6  # the blob's area over its hexagon's: a board is solid once closed


@dataclass(frozen=True)
class Outline:
    """A candidate plate: its hexagon's corners (photo pixels, clockwise from any corner),
    how well a hexagon fits the blob (``fit``, 1 perfect) and whether the blob runs off the
    photo (``cut`` names the photo's edges it touches)."""

    corners: np.ndarray
    fit: float
    cut: tuple[str, ...] = ()


@dataclass(frozen=True)
class Blob:
    """A large solid blob no hexagon fits (a plate merged with its shadow, or split by a
    lamp's light): its ellipse (OpenCV's rotated rectangle, photo pixels) is still a view of
    the board's tilt and size for the lattice to start from."""

    ellipse: tuple[tuple[float, float], tuple[float, float], float]
    area: float


def _hexagon_of(hull: np.ndarray) -> np.ndarray | None:
    """Six corners approximating a convex hull, or None if it is no hexagon."""
    perimeter = cv2.arcLength(hull, True)
    for share in (0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.065, 0.08):
        approx = cv2.approxPolyDP(hull, share * perimeter, True)
        if len(approx) == 6:
            return approx.reshape(6, 2).astype(np.float64)
        if len(approx) < 6:
            return None
    return None


def _clockwise(corners: np.ndarray) -> np.ndarray:
    """The corners in clockwise order on the page (y down)."""
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    return corners[np.argsort(angles)]


def _regularity(corners: np.ndarray) -> float:
    """How like a hexagon seen in perspective six corners are: opposite sides near parallel
    and of similar length (1 for a regular hexagon, lower the worse)."""
    sides = np.roll(corners, -1, axis=0) - corners
    lengths = np.linalg.norm(sides, axis=1)
    if lengths.min() <= 0:
        return 0.0
    score = 1.0
    for i in range(3):
        a, b = sides[i], sides[i + 3]
        cos = -float(a @ b) / (lengths[i] * lengths[i + 3])
        score *= max(0.0, cos) ** 4
        ratio = min(lengths[i], lengths[i + 3]) / max(lengths[i], lengths[i + 3])
        score *= ratio
    # Consecutive sides of a hexagon turn by 60 degrees; in perspective by 25 to 95.
    for i in range(6):
        a, b = sides[i], sides[(i + 1) % 6]
        turn = np.degrees(np.arccos(np.clip(float(a @ b) / (lengths[i] * lengths[(i + 1) % 6]),
                                            -1, 1)))
        if not 20 <= turn <= 100:
            return 0.0
    return score


def _edges_touched(contour: np.ndarray, width: int, height: int) -> tuple[str, ...]:
    points = contour.reshape(-1, 2)
    touched = []
    for name, hit in (("left", points[:, 0] <= 1), ("top", points[:, 1] <= 1),
                      ("right", points[:, 0] >= width - 2),
                      ("bottom", points[:, 1] >= height - 2)):
        if int(hit.sum()) >= 3:
            touched.append(name)
    return tuple(touched)


def _masks(small: np.ndarray) -> list[np.ndarray]:
    """Binary masks that may hold the plate as one blob: each colour cluster, each pair of
    clusters (a lamp or a shadow splits one material in two), and the inside of every closed
    loop of edges (a plate the colour of its table still has an outline)."""
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    pixels = lab.reshape(-1, 3)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 12, 1.0)
    cv2.setRNGSeed(7)
    data = np.ascontiguousarray(pixels[::3])
    _, _, centres = cv2.kmeans(data, CLUSTERS, np.zeros((len(data), 1), np.int32), criteria, 1,
                               cv2.KMEANS_PP_CENTERS)
    distance = np.linalg.norm(lab[:, :, None, :] - centres[None, None, :, :], axis=3)
    nearest = distance.argmin(axis=2)
    members = [nearest == k for k in range(CLUSTERS)]
    masks = list(members)
    for a in range(CLUSTERS):
        for b in range(a + 1, CLUSTERS):
            masks.append(members[a] | members[b])
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(gray, 30, 90)
    edges = cv2.dilate(edges, np.ones((2, 2), np.uint8))
    contours, hierarchy = cv2.findContours(edges, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is not None:
        holes = np.zeros(gray.shape, np.uint8)
        for contour, links in zip(contours, hierarchy[0], strict=True):
            if links[3] >= 0:  # a hole: the inside of a closed loop of edges
                cv2.drawContours(holes, [contour], -1, 255, -1)
        masks.append(holes > 0)
    return masks


def outlines(image: np.ndarray) -> tuple[list[Outline], list[Blob]]:
    """Candidate plates in ``image`` (BGR), the likeliest first, at most a dozen; and the
    large blobs no hexagon fits, the largest first."""
    height, width = image.shape[:2]
    scale = MASK_SIDE / max(height, width)
    small = cv2.resize(image, (max(8, round(width * scale)), max(8, round(height * scale))),
                       interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0)
    side = min(small.shape[:2])
    close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, side // 14) | 1,) * 2)
    tidy = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, side // 40) | 1,) * 2)
    found: list[Outline] = []
    blobs: list[Blob] = []
    for mask in _masks(small):
        solid = cv2.morphologyEx(mask.astype(np.uint8) * 255, cv2.MORPH_CLOSE, close)
        solid = cv2.morphologyEx(solid, cv2.MORPH_OPEN, tidy)
        contours, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            area = cv2.contourArea(contour)
            if area < MIN_AREA * small.shape[0] * small.shape[1]:
                continue
            hull = cv2.convexHull(contour)
            if area > 0.8 * cv2.contourArea(hull) and len(hull) >= 5 \
                    and area < 0.8 * small.shape[0] * small.shape[1]:
                (cx, cy), (w, h), angle = cv2.fitEllipse(hull)
                blobs.append(Blob((((cx + 0.5) / scale - 0.5, (cy + 0.5) / scale - 0.5),
                                   (w / scale, h / scale), angle), area / scale ** 2))
            corners = _hexagon_of(hull)
            if corners is None:
                continue
            corners = _clockwise(corners)
            hexagon_area = cv2.contourArea(corners.astype(np.float32))
            fill = area / max(hexagon_area, 1.0)
            cover = hexagon_area / max(cv2.contourArea(hull), 1.0)
            if fill < MIN_FILL or not 0.9 <= cover <= 1.1:
                continue
            regular = _regularity(corners)
            if regular <= 0.05:
                continue
            fit = regular * fill * (1 - abs(1 - cover))
            cut = _edges_touched(contour, small.shape[1], small.shape[0])
            found.append(Outline((corners + 0.5) / scale - 0.5, fit, cut))
    found.sort(key=lambda outline: -outline.fit)
    unique: list[Outline] = []
    for outline in found:
        if all(np.abs(outline.corners.mean(axis=0) - other.corners.mean(axis=0)).max()
               > 0.02 * max(height, width)
               or abs(_spread(outline.corners) / _spread(other.corners) - 1) > 0.05
               for other in unique):
            unique.append(outline)
    blobs.sort(key=lambda blob: -blob.area)
    distinct: list[Blob] = []
    for blob in blobs:
        if all(np.hypot(blob.ellipse[0][0] - other.ellipse[0][0],
                        blob.ellipse[0][1] - other.ellipse[0][1]) > 0.03 * max(height, width)
               or abs(blob.area / other.area - 1) > 0.15 for other in distinct):
            distinct.append(blob)
    return unique[:12], distinct[:6]


def _spread(corners: np.ndarray) -> float:
    return float(np.linalg.norm(corners - corners.mean(axis=0), axis=1).mean())


__all__ = ["Blob", "Outline", "outlines"]
