"""The rectified board with its light evened out where a shadow dims part of it.

Why: an arm, a head or a lamp's shade across part of the board took every tile in it below what
the occupancy model and the classifier had seen, and the reading dropped them all, naming their
squares only as "may hide a tile", though a person reads them easily (issue 33). A shadow
multiplies the light: what it dims is still all there, darker. So the board's light is measured
where it is and each part brought up to the board's lit level, before anything is read.

The light is what the board's surfaces send back, measured on the strongest colour channel (a red
or blue square is bright in its own colour, as in :func:`vision.quality.light_warnings`), with
thin dark strokes (letters, lines, printed words) removed by taking the brightest pixel of each
quarter cell; what each place is due is what the same place gets under the square's
symmetries (:func:`shade`). A part darker than its due by a clear factor (:data:`RELIGHT_FROM`)
is brought up to it, by at most :data:`RELIGHT_MAX`: below that the sensor's noise is most of
what is left, and those squares keep their shadow warning. A photo evenly lit, or lit with a
gentle gradient, is returned as it is, pixel for pixel.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.board.rectify import SIZE, RectifiedBoard
from vision.cells.tuning import RELIGHT_FROM, RELIGHT_MAX, RELIGHT_PEER_RANK, RELIGHT_REACH


@dataclass(frozen=True)
class Relit:
    """A board relit (:func:`relight`), and the gain each of its cells got."""

    board: RectifiedBoard
    gain: np.ndarray
    """(15, 15) the median factor a cell's pixels were multiplied by (1: untouched)."""

    def too_dark(self) -> np.ndarray:
        """(15, 15) which cells lay in shade deeper than relighting reaches (:data:`RELIGHT_MAX`):
        their reading is a guess, and they keep their shadow warning."""
        return self.gain >= RELIGHT_MAX * 0.999


def light_level(board: RectifiedBoard) -> np.ndarray:
    """The light falling on the board's grid, a value a quarter cell across ((60, 60), the
    frame and the table left out): the brightest of the strongest channel's grey levels in each
    quarter cell (see the module; a letter's or a line's stroke is thinner than a quarter)."""
    px, margin = board.cell_px, board.margin_px
    grid = board.image[margin:margin + SIZE * px, margin:margin + SIZE * px]
    # OpenCV's per-pixel max of the channels and dilation: numpy's reductions over short axes
    # took 30 ms a board, these a millisecond or two.
    blue, green, red = cv2.split(grid)
    strongest = cv2.max(cv2.max(blue, green), red)
    quarter = max(1, px // 4)
    brightest = cv2.dilate(strongest, np.ones((quarter, quarter), np.uint8),
                           anchor=(0, 0))
    picks = (np.arange(4 * SIZE) * px) // 4
    return brightest[np.ix_(picks, picks)].astype(np.float32)


def shade(level: np.ndarray) -> np.ndarray:
    """How much of its due light each part of the grid gets ((60, 60), 1 fully lit): its light
    over what the same place gets under the square's symmetries (:data:`RELIGHT_PEER_RANK` of
    the eight, from the bottom), then the median over :data:`RELIGHT_REACH` cells.

    Why the symmetries: boards print the same squares at the eight symmetric places, so there
    each gets the same light on an evenly lit board, whatever its colours (a dark green board's
    plain squares are far darker than its premium squares and tiles: against the board's lit
    level, most of it passed for shade). A shadow over a part of the board is rarely over the
    others too; a tile darker than the square under its symmetric images is a single cell, and
    the median over a few cells leaves it out.
    """
    images = np.stack([np.rot90(view, turn) for view in (level, level.T) for turn in range(4)])
    due = np.sort(images, axis=0)[RELIGHT_PEER_RANK]
    ratio = level / np.maximum(due, 1.0)
    window = int(round(RELIGHT_REACH * 4)) | 1
    return cv2.medianBlur(ratio.astype(np.float32), min(window, 5)) if window <= 5 else \
        _median(ratio.astype(np.float32), window)


def _median(values: np.ndarray, window: int) -> np.ndarray:
    """A median filter of float values over a ``window``-wide square (OpenCV's takes float only
    up to 5: the values are put on a byte scale, 0.5 % steps, which a gain needs no finer)."""
    scaled = np.clip(values * 100, 0, 255).astype(np.uint8)
    return cv2.medianBlur(scaled, window).astype(np.float32) / 100


def relight(board: RectifiedBoard) -> Relit:
    """The board with its shaded parts brought up to the light they are due (see the module)."""
    px, margin = board.cell_px, board.margin_px
    gain = np.clip(1 / np.maximum(shade(light_level(board)), 1e-3), 1.0, RELIGHT_MAX)
    # Only a clear shade is relit: a photo's gentle gradient or vignette is left as it is.
    gain = np.where(gain >= RELIGHT_FROM, gain, 1.0).astype(np.float32)
    if not (gain > 1.0).any():
        return Relit(board, np.ones((SIZE, SIZE), np.float32))
    gain = cv2.GaussianBlur(gain, (0, 0), 1.0)
    grid = cv2.resize(gain, (SIZE * px, SIZE * px), interpolation=cv2.INTER_LINEAR)
    full = cv2.copyMakeBorder(grid, margin, margin, margin, margin, cv2.BORDER_REPLICATE)
    image = cv2.multiply(board.image, cv2.merge([full] * board.image.shape[2]),
                         dtype=cv2.CV_8U)
    per_cell = grid.reshape(SIZE, px, SIZE, px)
    return Relit(replace(board, image=image),
                 np.median(per_cell, axis=(1, 3)).astype(np.float32))


__all__ = ["Relit", "light_level", "relight"]
