"""The rectified board cut into its 225 cells, and which cells are the same kind of square.

Every per-cell measure of :mod:`vision.cells.letterevidence`, :mod:`vision.cells.facecolour`
and :mod:`vision.cells.occupancy` starts from these cuts: the whole grid resampled once and the
cells cut from it, which is many times faster than 225 crops. A cell's symmetric peers are the
squares of its own kind: the premium layout looks the same under each of the square's symmetries.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from vision.board.layout import premium_kinds
from vision.board.rectify import SIZE, RectifiedBoard
from vision.cells.tuning import STATS_PX
from vision.tuning import WORK_PX


def work_cells(board: RectifiedBoard, grow: float, *, gray: bool = False) -> np.ndarray:
    """(225, WORK_PX, WORK_PX, 3) pixels of every cell grown by ``grow`` of a cell on each side
    (up to the board's margin), resampled so a grown cell is WORK_PX square; (225, WORK_PX,
    WORK_PX) grey levels if ``gray``.

    The grid is resampled once and the cells cut from it: 225 resizes and 225 colour conversions
    of separate crops took 5-10 ms a board. With the committed settings (48-px cells, grown by
    half a cell to 96 px and halved) the pixels are the same as a crop's own resampling."""
    px, margin = board.cell_px, board.margin_px
    extra = int(round(grow * px))
    if extra > margin:
        raise ValueError(f"cells cannot grow past the {margin} px margin")
    scale = WORK_PX / (px + 2 * extra)
    region = board.image[margin - extra:margin + SIZE * px + extra,
                         margin - extra:margin + SIZE * px + extra]
    side = int(round(region.shape[0] * scale))
    if side != region.shape[0]:
        region = cv2.resize(region, (side, side), interpolation=cv2.INTER_AREA)
    if gray:
        region = cv2.cvtColor(region, cv2.COLOR_BGR2GRAY)
    if extra == 0:  # cells side by side: one reshaping copy
        return np.ascontiguousarray(region[:SIZE * WORK_PX, :SIZE * WORK_PX].reshape(
            SIZE, WORK_PX, SIZE, WORK_PX, -1).transpose(0, 2, 1, 3, 4)).reshape(
            SIZE * SIZE, WORK_PX, WORK_PX, *region.shape[2:])
    # Overlapping cells: 225 plain slice copies (gathering them from a sliding-window view took
    # 30-110 ms a board: numpy walks the odd strides element by element).
    cells = np.empty((SIZE * SIZE, WORK_PX, WORK_PX, *region.shape[2:]), region.dtype)
    starts = np.minimum(np.round(np.arange(SIZE) * px * scale).astype(int), side - WORK_PX)
    for row, top in enumerate(starts):
        for col, left in enumerate(starts):
            cells[row * SIZE + col] = region[top:top + WORK_PX, left:left + WORK_PX]
    return cells


def stats_grid(board: RectifiedBoard) -> np.ndarray:
    """The board's grid (no margin) resampled to :data:`STATS_PX` pixels a cell, BGR."""
    px, margin = board.cell_px, board.margin_px
    grid = board.image[margin:margin + SIZE * px, margin:margin + SIZE * px]
    return cv2.resize(grid, (SIZE * STATS_PX, SIZE * STATS_PX), interpolation=cv2.INTER_AREA)

@cache
def symmetric_peers() -> np.ndarray:
    """(225, 8) row-major indices of each cell's images under the square's eight symmetries.

    A board's printed squares look the same under every symmetry of the square (the premium
    layout is symmetric, which is also why pixels cannot say where South is), so a cell and its
    images are the same kind of square. The first column is the cell itself.
    """
    row, col = np.divmod(np.arange(SIZE * SIZE), SIZE)
    last = SIZE - 1
    images = [(row, col), (col, last - row), (last - row, last - col), (last - col, row),
              (row, last - col), (col, row), (last - row, col), (last - col, last - row)]
    return np.stack([r * SIZE + c for r, c in images], axis=1)


@cache
def plain_squares() -> np.ndarray:
    """(225,) row-major: the squares plain in every known premium layout, the centre aside. No
    board prints anything on them, so print seen there is a tile's (read-only)."""
    plain = np.logical_and.reduce([kinds.reshape(-1) == 0 for kinds in premium_kinds()])
    plain.flags.writeable = False
    return plain


@cache
def other_peers() -> tuple[np.ndarray, np.ndarray]:
    """(225, 7) :func:`symmetric_peers` but the cell itself, and whether each is another cell
    seen for the first time: a cell on a diagonal or a middle line is its own image, or meets
    the same peer twice."""
    peers = symmetric_peers()[:, 1:]
    other = peers != np.arange(SIZE * SIZE)[:, None]
    for k in range(1, peers.shape[1]):
        other[:, k] &= ~(peers[:, :k] == peers[:, k:k + 1]).any(axis=1)
    return peers, other


__all__ = ["other_peers", "plain_squares", "stats_grid", "symmetric_peers", "work_cells"]
