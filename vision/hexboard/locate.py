"""Where a hexhex board lies in a photo, or why it cannot be found: one line for a person.

Candidates for the plate come from :mod:`vision.hexboard.outline`; each is kept only if a
lattice of cells of the board's size fits inside it (:mod:`vision.hexboard.lattice`), and of
those the one whose cells agree best with each other and whose sides look most alike wins.
The result is turned so that the board edge nearest the top of the photo is line ``a``
(FORMATS.md), since a plain hexhex board looks the same turned by 60 degrees.

The photo's faults are named for what they are: too dark, too blurry, the board cut off by
the photo's edge, or no board at all.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.errors import BoardNotFoundError, ImageQualityError
from vision.hexboard.geometry import apply_homography, hexagon, playing_radius, top_edge, turn
from vision.hexboard.lattice import Lattice, fit_lattice, lattice_starts
from vision.hexboard.outline import outlines

WORK_SIDE = 1600
"""Photos are looked at no larger than this along their longer side."""

DARK_P99 = 30.0  # the brightest 1 % of the photo below this grey: too dark
BLUR_SHARPNESS = 12.0  # variance of the Laplacian of an 800 px copy below this: too blurry
MIN_COHERENCE = 0.5  # a lattice whose cells agree less than this is not a board
CANDIDATES = 4  # plate candidates tried, the likeliest first
CLEAR_COHERENCE = 0.75  # a lattice this coherent ...
CLEAR_SYMMETRY = 0.6  # ... and sides this alike is taken without trying the other candidates
CUT_SLACK = 0.01  # of the photo's longer side: a corner this near the edge is on it


@dataclass(frozen=True)
class BoardPose:
    """A found board: ``homography`` maps the board frame (cell widths, centre cell at the
    origin, line ``a`` at the top) to photo pixels; ``corners`` are the playing area's six
    corners in the photo, clockwise from the left end of line ``a``'s edge; ``coherence`` and
    ``cell_coherence`` how well the cells agree with the lattice (all and each)."""

    homography: np.ndarray
    corners: np.ndarray
    coherence: float
    cell_coherence: np.ndarray
    size: int

    @property
    def cell_px(self) -> float:
        """A cell's width in the photo, on average over the playing area's sides."""
        sides = np.linalg.norm(self.corners - np.roll(self.corners, 1, axis=0), axis=1)
        return float(sides.mean()) / playing_radius(self.size)


def check_light(gray: np.ndarray) -> None:
    """Refuse a photo too dark to find anything in (judged on its brightest 1 %)."""
    brightest = float(np.percentile(gray[::4, ::4], 99))
    if brightest < DARK_P99:
        raise ImageQualityError(
            f"photo too dark to find the board (brightest parts {brightest:.0f} of 255)",
            reason="too dark")


def sharpness(gray: np.ndarray) -> float:
    """Variance of the Laplacian of an 800-pixel copy: low for a photo with no sharp edge."""
    scale = 800 / max(gray.shape)
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1 else gray
    return float(cv2.Laplacian(small, cv2.CV_32F).var())


def _upright(lattice: Lattice, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The lattice's homography turned so line ``a`` runs along the edge nearest the photo's
    top, and the playing area's corners in reading order."""
    corners = apply_homography(lattice.homography, hexagon(playing_radius(size)))
    sixths = top_edge(corners)
    turning = np.eye(3)
    turning[:2, :2] = turn(np.eye(2), 60 * sixths).T
    homography = lattice.homography @ turning
    return homography, np.roll(corners, -sixths, axis=0)


def _cut_sides(corners: np.ndarray, width: int, height: int) -> list[str]:
    """The photo's edges a hexagon reaches past (or touches)."""
    slack = CUT_SLACK * max(width, height)
    sides = []
    if corners[:, 0].min() < slack:
        sides.append("left")
    if corners[:, 0].max() > width - 1 - slack:
        sides.append("right")
    if corners[:, 1].min() < slack:
        sides.append("top")
    if corners[:, 1].max() > height - 1 - slack:
        sides.append("bottom")
    return sides


def locate_board(image: np.ndarray, size: int) -> BoardPose:
    """The side-``size`` board in ``image`` (BGR ``uint8``); raises :class:`VisionError`
    subclasses with one line when it cannot be read: the photo too dark or too blurry, the
    board cut off by the photo's edge, or no board."""
    height, width = image.shape[:2]
    scale = min(1.0, WORK_SIDE / max(height, width))
    work = image if scale >= 1 else cv2.resize(image, None, fx=scale, fy=scale,
                                                interpolation=cv2.INTER_AREA)
    gray8 = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    check_light(gray8)
    gray = gray8.astype(np.float32)
    to_photo = np.diag([1 / scale, 1 / scale, 1.0])
    whole: list[tuple[float, BoardPose]] = []
    cut_off: list[tuple[float, list[str]]] = []

    def consider(lattice: Lattice | None) -> bool:
        """Keep a lattice that is a board; True when it is as clear a board as photos show."""
        if lattice is None or lattice.coherence < MIN_COHERENCE:
            return False
        score = lattice.coherence + 0.5 * lattice.symmetry
        homography, corners = _upright(lattice, size)
        corners = corners / scale
        cut = _cut_sides(corners, width, height)
        if cut:  # a board running off the photo, or a lattice placed wrong: look on
            cut_off.append((score, cut))
            return False
        whole.append((score, BoardPose(to_photo @ homography, corners, lattice.coherence,
                                       lattice.cell_coherence, size)))
        return lattice.coherence >= CLEAR_COHERENCE and lattice.symmetry >= CLEAR_SYMMETRY

    candidates, blobs = outlines(work)
    for candidate in candidates[:CANDIDATES]:
        if consider(fit_lattice(gray, work, size, corners=candidate.corners)):
            break  # the other candidates cannot beat it
    if not whole:  # no hexagon held a board: the large blobs' ellipses, then the cells alone
        for blob in blobs[:CANDIDATES]:
            consider(fit_lattice(gray, work, size, ellipse=blob.ellipse))
    if not whole:
        for start in lattice_starts(gray, size):
            consider(fit_lattice(gray, work, size, start=start))
    if whole:
        return max(whole, key=lambda item: item[0])[1]
    if cut_off:
        cut = max(cut_off, key=lambda item: item[0])[1]
        raise BoardNotFoundError(
            f"the board is cut off by the photo's {' and '.join(cut)} edge: step back or "
            "move the camera so all six corners show", reason="cut off")
    if sharpness(gray8) < BLUR_SHARPNESS:
        raise ImageQualityError(
            f"photo too blurry to find the board (sharpness {sharpness(gray8):.0f})",
            reason="too blurry")
    raise BoardNotFoundError(f"no hexagonal board with {size} cells a side found in the photo")


__all__ = ["BoardPose", "check_light", "locate_board", "sharpness"]
