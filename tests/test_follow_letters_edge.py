"""Following a letter (vision.read.follow_letters) never moves a crop past the board's image."""

from __future__ import annotations

import numpy as np
import pytest

import vision.read as read
from vision import quality
from vision.board.rectify import SIZE, RectifiedBoard
from vision.letters.tuning import CROP_PAD
from vision.tuning import DEFAULT_CONFIG

CELL_PX, MARGIN_PX = 48, 24


class _SurerWhenMoved:
    """A stand-in tile reader that is surer of every later reading: each followed crop is kept."""

    def __init__(self) -> None:
        self.calls = 0

    def tile_probabilities(self, crops: list[np.ndarray], letters: str) -> np.ndarray:
        self.calls += 1
        return np.full((len(crops), 2), 0.1 * self.calls, np.float32)


@pytest.mark.parametrize("offset", [0.45, -0.45])
def test_a_letter_followed_off_a_corner_square_keeps_the_crop_whole(
        monkeypatch: pytest.MonkeyPatch, offset: float) -> None:
    # A blank on a corner square whose tile side was taken for its letter, half a cell out: the
    # crop followed it past the image's edge, came out clipped, and measuring the sharpness of
    # all crops at once (one array) crashed the reading.
    side = SIZE * CELL_PX + 2 * MARGIN_PX
    board = RectifiedBoard(np.full((side, side, 3), 128, np.uint8), CELL_PX, MARGIN_PX, np.eye(3))
    cells = [(0, 0), (14, 0), (0, 14), (14, 14), (7, 7)]
    monkeypatch.setattr(read, "letter_offsets",
                        lambda board, cells: np.full((len(cells), 2), offset))
    crops = [board.cell_image(col, row, pad=CROP_PAD) for col, row in cells]
    reader = _SurerWhenMoved()
    probs = reader.tile_probabilities(crops, "AB")
    followed, _, shifts = read.follow_letters(board, cells, crops, probs, reader,  # type: ignore[arg-type]
                                              "AB", DEFAULT_CONFIG)
    assert all(crop.shape == crops[0].shape for crop in followed)
    assert all(shift != (0, 0) for shift in shifts)
    assert len(quality.sharpness(followed)) == len(cells)
