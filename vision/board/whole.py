"""Whether a grid found is a whole board on the photo, and the refusals when it is not.

A lattice of 16 lines a family can be extrapolated from part of a board: one that runs off the
photo ("cut off"), or a plank table's (no board). These checks judge a grid the search settled on
(:mod:`vision.board.locate`) by its lines and where it lies on the photo.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.board.grid import apply_homography, quad_cell_px
from vision.board.rectify import SIZE, grid_homography
from vision.board.refine import doubled_grid
from vision.board.tuning import LocateConfig
from vision.errors import BoardNotFoundError

NO_BOARD = "no Scrabble board found in the photo"
"""The refusal of a photo without a board, or with none that shows a board's squares."""
CUT_OFF = "board is cut off by the image edge: get all of it in the photo"
"""The refusal of a photo whose board runs off its edge."""


def check_whole(
    quad: np.ndarray, hits: np.ndarray, width: int, height: int, config: LocateConfig,
    layout: Callable[[], float],
) -> None:
    """Refuse a grid that is only part of a board: every other line missing, or the lines
    near one end hardly seen.

    Such a lattice was extrapolated from part of a board: either the board runs off the photo
    (its visible part fits 15 cells only by reaching over the table), or it is no board. The
    outermost line is left out of the judgement: on many boards it is a band, not a line. But
    lines near one end hardly seen on a grid wholly on the photo whose squares show the premium
    layout clearly (``layout``, the fit of :func:`vision.board.layout.layout_fit`, at least
    ``layout_whole``) are the far rows of a steep or soft photo, not a table: a lattice
    extrapolated over the table has no premium squares there.
    """
    margin = config.cut_off_margin_cells * quad_cell_px(quad)

    def beyond(points: np.ndarray) -> bool:
        return bool(((points[:, 0] < margin) | (points[:, 1] < margin)
                     | (points[:, 0] > width - 1 - margin)
                     | (points[:, 1] > height - 1 - margin)).any())

    # Every other line missing: the squares are twice this size, so this is part of a board.
    bigger = doubled_grid(quad, hits, config)
    if bigger is not None:
        if beyond(bigger):
            raise BoardNotFoundError(CUT_OFF, reason="cut off")
        raise BoardNotFoundError(NO_BOARD)
    grid = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], float)
    to_photo = grid_homography(quad)
    block = slice(1, 1 + config.end_block_lines)
    for axis in (0, 1):
        for end in (0, 1):
            line = hits[axis] if end == 0 else hits[axis][::-1]
            seen = line[block].mean()
            if seen >= max(config.min_end_support, config.end_support_ratio * np.median(line)):
                continue
            # The far side of the grid (opposite the missing lines): at or beyond the photo's
            # edge means the board goes on out of the picture.
            far = grid.copy()
            far[:, axis] = SIZE * (1 - end) + (1 if end == 0 else -1)
            if beyond(apply_homography(to_photo, far)[0]):
                raise BoardNotFoundError(CUT_OFF, reason="cut off")
            if layout() < config.layout_whole:
                raise BoardNotFoundError(NO_BOARD)


def off_photo(quad: np.ndarray, width: int, height: int, config: LocateConfig) -> bool:
    """Whether a corner of the grid lies off the photo by more than ``cut_off_margin_cells``."""
    tolerance = config.cut_off_margin_cells * quad_cell_px(quad)
    outside = (
        (quad[:, 0] < -tolerance)
        | (quad[:, 1] < -tolerance)
        | (quad[:, 0] > width - 1 + tolerance)
        | (quad[:, 1] > height - 1 + tolerance)
    )
    return bool(outside.any())


def check_inside(quad: np.ndarray, width: int, height: int, config: LocateConfig) -> None:
    """Refuse a grid with a corner off the photo (:func:`off_photo`) as cut off."""
    if off_photo(quad, width, height, config):
        raise BoardNotFoundError(CUT_OFF, reason="cut off")


__all__ = ["CUT_OFF", "NO_BOARD", "check_inside", "check_whole", "off_photo"]
