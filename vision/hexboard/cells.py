"""What each cell of a found board looks like, measured against the board itself.

A stone's colour in a photo is its own colour times the light where it lies: a lamp's fall-off,
a shadow across the board, a warm bulb. The board's own face is the one thing of known sameness
under that light, and it shows everywhere, even on a full board: a stone is narrower than its
cell, so the cell's six corners stay bare. Each cell's colour is therefore divided by the
board's colour at its corners and those of its neighbours, and multiplied back by the board's
colour over the whole board: the light's unevenness goes, the board's colour stays as the one
reference a white or a black stone can be told against.

The numbers measured per cell (:data:`FEATURES`) are what :mod:`vision.hexboard.stones` decides
on; they are plain numbers so that the offline fitting (``lab.hexrender.fit``) and the reader see
exactly the same ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from vision.hexboard.geometry import cell_points, neighbour_pairs, playing_radius

CELL_PPC = 16
"""Pixels per cell of the rectified colour copy the cells are measured in."""

CENTRE = 0.22  # cells: the disc a stone's colour is read in
RING = (0.30, 0.44)  # cells: where a stone's rim lies
HALO = (0.44, 0.50)  # cells: just outside a stone, inside the cell's edges
CORNER = 0.46  # cells from the centre towards each corner: bare board beside any stone
GLARE_LEVEL = 0.96  # a channel this bright (0-1) is burnt out
DARK_LEVEL = 0.06  # a pixel whose brightest channel is this dark shows nothing

FEATURES = (
    "centre_L", "centre_a", "centre_b",  # the centre's colour under the board's mean light
    "raw_L", "raw_a", "raw_b",  # the centre's colour as photographed
    "board_L", "board_a", "board_b",  # the board's colour at this cell's corners
    "mean_L", "mean_a", "mean_b",  # the board's colour over the whole board
    "delta_L", "delta_a", "delta_b",  # centre minus board, under even light
    "spread_L",  # how uneven the centre is (a glass bead's highlight, an outline)
    "rim",  # edge strength on a stone's rim over the cell's inside
    "hollow",  # the centre's lightness over the ring's (a cup is darker inside)
    "typical",  # how far this cell is from the board's commonest cell look
    "halo",  # lightness just outside a stone's edge over the corners' (a stone's shadow)
    "glare",  # share of burnt-out pixels over the cell
    "light",  # the board's brightness here over its mean (shadow < 1 < lamp)
)


@dataclass(frozen=True)
class CellLooks:
    """The measured numbers per cell (rows in :func:`cell_points` order, columns as
    :data:`FEATURES`), and for the warnings the share of the board burnt out about each cell
    and its light over the board's mean."""

    features: np.ndarray
    glare: np.ndarray
    light: np.ndarray


@cache
def _masks() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Offsets (pixels at CELL_PPC) of the centre disc, the rim ring, the inside, the six
    corner spots and the halo just outside a stone, of a cell."""
    reach = int(math.ceil(0.5 * CELL_PPC))
    ys, xs = np.mgrid[-reach:reach + 1, -reach:reach + 1].astype(np.float64)
    radius = np.hypot(xs, ys) / CELL_PPC
    centre = np.column_stack([xs[radius <= CENTRE], ys[radius <= CENTRE]])
    ring = np.column_stack([xs[(radius >= RING[0]) & (radius <= RING[1])],
                            ys[(radius >= RING[0]) & (radius <= RING[1])]])
    inside = np.column_stack([xs[radius < RING[0]], ys[radius < RING[0]]])
    around = (radius >= HALO[0]) & (radius <= HALO[1])
    halo = np.column_stack([xs[around], ys[around]])
    # A pointy-topped cell's corners: straight up, then every 60 degrees.
    angles = np.radians(np.arange(-90, 270, 60))
    spots = []
    for angle in angles:
        cx, cy = CORNER * CELL_PPC * math.cos(angle), CORNER * CELL_PPC * math.sin(angle)
        spots += [(cx + dx, cy + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    return centre, ring, inside, np.array(spots), halo


def rectify(image: np.ndarray, homography: np.ndarray, size: int) -> tuple[np.ndarray, float]:
    """The playing area seen straight on, ``CELL_PPC`` pixels a cell, as float32 BGR 0-1; and
    the extent (cells from the centre to the copy's edge). The board's part of the photo is
    first halved down to about twice that resolution so the warp does not alias fine texture."""
    extent = playing_radius(size) + 0.4
    side = int(math.ceil(2 * extent * CELL_PPC))
    square = np.array([[-extent, -extent, 1], [extent, -extent, 1], [extent, extent, 1],
                       [-extent, extent, 1]], np.float64) @ homography.T
    square = square[:, :2] / square[:, 2:3]
    # Only the board's part of the photo, halved (pixel averages, nearly free) while a cell
    # still spans more than twice the copy's.
    x0, y0 = np.floor(square.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(square.max(axis=0)).astype(int) + 2
    x0, y0 = max(int(x0), 0), max(int(y0), 0)
    x1, y1 = min(int(x1), image.shape[1]), min(int(y1), image.shape[0])
    source = image[y0:y1, x0:x1]
    span = float(np.linalg.norm(square[1] - square[0])) / (2 * extent)  # photo px per cell
    scale = 1.0
    while span * scale / 2 >= 2 * CELL_PPC and min(source.shape[:2]) >= 4:
        source = cv2.pyrDown(source)
        scale /= 2
    to_board = np.array([[1 / CELL_PPC, 0, -extent + 0.5 / CELL_PPC],
                         [0, 1 / CELL_PPC, -extent + 0.5 / CELL_PPC], [0, 0, 1]])
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    matrix = np.diag([scale, scale, 1.0]) @ shift @ homography @ to_board
    rectified = cv2.warpPerspective(source, matrix, (side, side),
                                    flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                    borderMode=cv2.BORDER_REPLICATE)
    return rectified.astype(np.float32) / 255, extent


def _gather(image: np.ndarray, centres: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Pixels of ``image`` at each centre plus each offset: (cells, offsets, channels)."""
    where = (centres[:, None, :] + offsets[None, :, :]).astype(np.float32)
    sampled = cv2.remap(image, where[..., 0], where[..., 1], cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
    return sampled.reshape(len(centres), len(offsets), -1)


def _lab(bgr: np.ndarray) -> np.ndarray:
    """float BGR 0-1, any shape (..., 3), to Lab (L 0-100)."""
    flat = np.clip(bgr.reshape(-1, 1, 3), 0, 1).astype(np.float32)
    return cv2.cvtColor(flat, cv2.COLOR_BGR2LAB).reshape(bgr.shape)


@cache
def _neighbourhoods(size: int) -> np.ndarray:
    """Each cell's index and its neighbours', padded with -1 to seven."""
    groups = np.full((len(cell_points(size)), 7), -1, dtype=np.int64)
    groups[:, 0] = np.arange(len(groups))
    filled = np.ones(len(groups), dtype=np.int64)
    for a, b in neighbour_pairs(size):
        groups[a, filled[a]] = b
        groups[b, filled[b]] = a
        filled[a] += 1
        filled[b] += 1
    return groups


def _neighbour_median(values: np.ndarray, size: int) -> np.ndarray:
    """Each cell's value pooled with its neighbours' (median), row per cell."""
    groups = _neighbourhoods(size)
    gathered = np.where((groups >= 0)[:, :, None], values[groups], np.nan)
    return np.nanmedian(gathered, axis=1)


def measure_cells(image: np.ndarray, homography: np.ndarray, size: int) -> CellLooks:
    """The numbers :data:`FEATURES` for every cell of the side-``size`` board that
    ``homography`` (board frame to photo pixels) places in ``image`` (BGR ``uint8``)."""
    rectified, extent = rectify(image, homography, size)
    centres = (cell_points(size) + extent) * CELL_PPC - 0.5
    centre_offsets, ring_offsets, inside_offsets, corner_offsets, halo_offsets = _masks()
    centre = _gather(rectified, centres, centre_offsets)
    corners = _gather(rectified, centres, corner_offsets)
    gray = cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY)
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    edges = cv2.magnitude(gx, gy)[:, :, None]
    rim = _gather(edges, centres, ring_offsets)[..., 0].mean(axis=1)
    inner = _gather(edges, centres, inside_offsets)[..., 0].mean(axis=1)
    ring_gray = _gather(gray[:, :, None], centres, ring_offsets)[..., 0]
    halo_gray = _gather(gray[:, :, None], centres, halo_offsets)[..., 0]

    # The board's colour at each cell: the brighter half of its corner spots (a stone's shadow
    # or side darkens some), pooled with the neighbours'.
    spots = corners.reshape(len(centres), 6, 9, 3).mean(axis=2)  # (cells, 6, BGR)
    order = np.argsort(spots.sum(axis=2), axis=1)
    brighter = np.take_along_axis(spots, order[:, 3:, None], axis=1).mean(axis=1)
    board = np.clip(_neighbour_median(brighter, size), 1e-3, None)
    mean_board = np.median(board, axis=0)
    colour = np.median(centre, axis=1)  # a glass bead's highlight is a few pixels only
    even = colour / board * mean_board  # under the board's mean light
    centre_lab, raw_lab = _lab(even), _lab(colour)
    board_lab, mean_lab = _lab(board), _lab(np.broadcast_to(mean_board, board.shape))
    spread = _lab(centre)[..., 0].std(axis=1)
    hollow = (np.median(centre.mean(axis=2), axis=1) + 1e-3) / (
        np.median(ring_gray, axis=1) + 1e-3)
    # The commonest look of a cell on this board: the centre's colour relative to the board,
    # taken where most cells agree (the empty ones, unless one colour covers most).
    relative = centre_lab - board_lab
    typical = np.median(relative, axis=0)
    for _ in range(2):
        distance = np.linalg.norm(relative - typical, axis=1)
        near = distance <= np.percentile(distance, 40)
        typical = np.median(relative[near], axis=0)
    distance = np.linalg.norm(relative - typical, axis=1)
    corner_gray = corners.mean(axis=2)
    halo = (np.median(halo_gray, axis=1) + 1e-3) / (np.median(corner_gray, axis=1) + 1e-3)
    glare = (np.concatenate([centre, corners], axis=1).min(axis=2) >= GLARE_LEVEL).mean(axis=1)
    # For the warnings, burnt out where the board shows: a white stone is bright itself, but
    # the board under a lamp's reflection is blown (and so is any stone there).
    board_glare = (corners.min(axis=2) >= GLARE_LEVEL).mean(axis=1)
    light = board.mean(axis=1) / max(float(mean_board.mean()), 1e-3)
    features = np.column_stack([
        centre_lab, raw_lab, board_lab, mean_lab, centre_lab - board_lab,
        spread, rim / (inner + 0.02), hollow, distance, halo, glare, light,
    ]).astype(np.float64)
    return CellLooks(features, board_glare, light)


__all__ = ["CELL_PPC", "FEATURES", "CellLooks", "measure_cells", "rectify"]
