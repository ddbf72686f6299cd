"""Tile or empty square, for all 225 cells of a rectified board at once.

"Has dark ink" alone calls 40-45 % of premium squares tiles: DOUBLE WORD SCORE is ink too. What
sets a tile apart is first its colour *relative to the rest of this board* (all tiles of a set
share one face colour; plain and premium squares have theirs), then ink and edges. So every
feature is measured per cell and also standardised against the same photo's 225 cells, and the
photo's cells are clustered by colour so a cell also knows how its colour group looks as a whole
(a group of cream squares full of letters is the tiles). A small perceptron trained on real boards
(``python -m vision.train``) weighs it all; its weights are in ``vision/models/occupancy.npz``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.classify import MODELS, WORK_PX, Mlp, find_glyph, ink_maps
from vision.rectify import RectifiedBoard

SIZE = 15
CLUSTERS = 5


def _cell_stack(board: RectifiedBoard, inset: float) -> np.ndarray:
    """(225, h, w, 3) pixels of every cell, shrunk by ``inset`` of a cell on each side."""
    px, margin = board.cell_px, board.margin_px
    grid = board.image[margin:margin + SIZE * px, margin:margin + SIZE * px]
    cut = int(round(inset * px))
    cells = grid.reshape(SIZE, px, SIZE, px, 3).transpose(0, 2, 1, 3, 4)
    cells = cells[:, :, cut:px - cut, cut:px - cut]
    return cells.reshape(SIZE * SIZE, px - 2 * cut, px - 2 * cut, 3)


def _robust_z(values: np.ndarray) -> np.ndarray:
    median = np.median(values, axis=0)
    mad = np.median(np.abs(values - median), axis=0) * 1.4826 + 1e-3
    return (values - median) / np.maximum(mad, 2.0)


def _kmeans_groups(colours: np.ndarray, k: int = CLUSTERS) -> np.ndarray:
    """Cluster labels of the cells' colours (deterministic: fixed seed, k-means++)."""
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.5)
    cv2.setRNGSeed(7)
    _, labels, _ = cv2.kmeans(colours.astype(np.float32), k, None, criteria, 3,
                              cv2.KMEANS_PP_CENTERS)
    return labels.ravel()


def cell_features(board: RectifiedBoard) -> np.ndarray:
    """A (225, F) feature matrix, row = row * 15 + col, for the occupancy model."""
    inner = _cell_stack(board, 0.22)
    ring = _cell_stack(board, 0.08)
    lab_inner = cv2.cvtColor(inner.reshape(-1, inner.shape[2], 3), cv2.COLOR_BGR2LAB).reshape(
        inner.shape).astype(np.float32)
    lab_ring = cv2.cvtColor(ring.reshape(-1, ring.shape[2], 3), cv2.COLOR_BGR2LAB).reshape(
        ring.shape).astype(np.float32)
    n = SIZE * SIZE
    # Means and mean + 1.28 sd (the 90th percentile of a normal spread), not medians and
    # percentiles: the same information at a fraction of the time (no sorting of 225 cells).
    centre = lab_inner.reshape(n, -1, 3).mean(axis=1)
    whole = lab_ring.reshape(n, -1, 3).mean(axis=1)
    spread = lab_ring.reshape(n, -1, 3).std(axis=1)
    lightness = lab_ring[..., 0].reshape(n, -1)
    bright = whole[:, 0] + 1.28 * spread[:, 0]
    ink = (lightness < (bright - 45)[:, None]).mean(axis=1)
    gray = cv2.cvtColor(ring.reshape(-1, ring.shape[2], 3), cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(gray, 60, 140).reshape(n, -1).mean(axis=1) / 255.0
    chroma_c = np.hypot(centre[:, 1] - 128, centre[:, 2] - 128)[:, None]
    chroma_w = np.hypot(whole[:, 1] - 128, whole[:, 2] - 128)[:, None]
    # Ring versus centre: a tile's face runs to its edges; a premium square's print does not.
    border = np.abs(whole - centre)
    local = np.concatenate([centre, whole, spread, chroma_c, chroma_w, ink[:, None],
                            edges[:, None], bright[:, None], border], axis=1)
    relative = _robust_z(local)
    # Colour groups of this photo: each cell also carries its group's averages.
    groups = _kmeans_groups(np.concatenate([whole, chroma_w], axis=1))
    group_features = np.zeros((n, 5), dtype=np.float32)
    for label in np.unique(groups):
        members = groups == label
        group_features[members] = [
            members.mean(),
            float(ink[members].mean()),
            float(edges[members].mean()),
            float(chroma_w[members].mean()),
            float(spread[members].mean()),
        ]
    group_relative = _robust_z(group_features[:, 1:])
    group_relative = _robust_z(group_features[:, 1:])
    glyphs = _glyph_features(_cell_stack(board, 0.0))
    return np.concatenate([local / 100.0, relative, group_features, group_relative, glyphs],
                          axis=1).astype(np.float32)


def _glyph_features(cells: np.ndarray) -> np.ndarray:
    """Letter evidence per cell, and how close its face colour is to this photo's tile colour.

    A tile shows one dark central letter of a typical size (and a digit) on a uniform face;
    premium squares show several small words or none. The cells that look most like tiles
    teach the photo's own tile-face colour, which then tells doubtful cells apart.
    """
    n = cells.shape[0]
    lab = cv2.cvtColor(cells.reshape(-1, cells.shape[2], 3), cv2.COLOR_BGR2LAB).reshape(
        n, -1, 3).astype(np.float32)
    inks = ink_maps(list(cells))
    out = np.zeros((n, 10), np.float32)
    side = cells.shape[1]
    small = inks if side == WORK_PX else np.stack(
        [cv2.resize(ink, (side, side), interpolation=cv2.INTER_AREA) for ink in inks])
    face_mask = (small < 0.25).reshape(n, -1, 1).astype(np.float32)
    mask_count = face_mask.sum(axis=1)
    faces = (lab * face_mask).sum(axis=1) / np.maximum(mask_count, 1.0)
    face_l = lab[..., 0]
    mean_l = faces[:, :1]
    spread = np.sqrt(((face_l - mean_l) ** 2 * face_mask[..., 0]).sum(axis=1)
                     / np.maximum(mask_count[:, 0], 1.0))
    out[:, 0] = (inks > 0.45).reshape(n, -1).mean(axis=1)
    out[:, 2] = np.where(mask_count[:, 0] > 4, spread, 50.0)
    for i in np.flatnonzero(out[:, 0] > 0.004):  # a cell without ink has no letter to find
        parts = find_glyph(inks[i])
        if parts is not None:
            x0, y0, x1, y1 = parts.box
            out[i, 3] = 1.0
            out[i, 4] = (x1 - x0) / WORK_PX
            out[i, 5] = (y1 - y0) / WORK_PX
            out[i, 6] = min(parts.digit_weight / 40.0, 1.0)
    letter_like = (out[:, 3] > 0) & (np.maximum(out[:, 4], out[:, 5]) > 0.3) & (
        np.maximum(out[:, 4], out[:, 5]) < 0.8)
    board_face = np.median(faces, axis=0)
    tile_face = np.median(faces[letter_like], axis=0) if letter_like.sum() >= 3 else board_face
    to_tile = np.linalg.norm(faces - tile_face, axis=1)
    to_board = np.linalg.norm(faces - board_face, axis=1)
    out[:, 7] = to_tile / 50.0
    out[:, 8] = to_board / 50.0
    out[:, 9] = (to_board - to_tile) / (to_board + to_tile + 5.0)
    out[:, 2] /= 50.0
    return out


class OccupancyModel:
    """Probability that each cell holds a tile, from :func:`cell_features`."""

    def __init__(self, model: Mlp) -> None:
        self.model = model

    @classmethod
    def load(cls, path: Path | None = None) -> OccupancyModel:
        return _load(str(path or MODELS / "occupancy.npz"))

    def tile_probability(self, board: RectifiedBoard) -> np.ndarray:
        """(15, 15) array [row, col] of P(tile)."""
        return self.probability_of(cell_features(board)).reshape(SIZE, SIZE)

    def probability_of(self, features: np.ndarray) -> np.ndarray:
        probs = self.model.probabilities(features)
        return probs[:, list(self.model.labels).index("tile")]


@cache
def _load(path: str) -> OccupancyModel:
    return OccupancyModel(Mlp.load(Path(path)))


__all__ = ["OccupancyModel", "cell_features"]
