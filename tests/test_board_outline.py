"""The board's outline as a rough grid (``vision.board.outline``): found on a drawn picture,
and a board lying on checked cloth -- whose lattice took the line search -- found by it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from lab.eval_corners import corner_errors_cells
from lab.stress.scene import make_scene
from lab.stress.score import FOUND_WITHIN
from vision.board.locate import find_board
from vision.board.outline import outline_quads
from vision.board.tuning import CONFIG


def checked_cloth(height: int, width: int, check: int) -> np.ndarray:
    """Two tones of checks, ``check`` pixels a side: a lattice of strong straight edges."""
    rows, cols = np.indices((height, width)) // check
    return np.where((rows + cols) % 2 == 0, 70, 150).astype(np.uint8)


def test_the_biggest_four_sided_outline_is_the_board_on_a_checked_cloth() -> None:
    gray = checked_cloth(480, 640, 24)
    board = np.array([[180, 70], [520, 110], [480, 430], [140, 400]], np.float64)
    cv2.fillConvexPoly(gray, board.astype(np.int32), 215)
    cv2.polylines(gray, [board.astype(np.int32)], True, 40, 3)
    quads = outline_quads(gray, CONFIG)
    assert 1 <= len(quads) <= CONFIG.outline_candidates
    nearest = min(np.linalg.norm(quads[0] - np.roll(board, k, axis=0), axis=1).max()
                  for k in range(4))
    assert nearest < 6.0            # pixels: on the drawn edge, whichever corner comes first


def test_no_outline_on_a_cloth_alone() -> None:
    """The cloth's checks are four-sided too, but far too small to be a board."""
    assert outline_quads(checked_cloth(480, 640, 24), CONFIG) == []


@pytest.mark.parametrize("seed", [701, 702, 704, 709])
def test_a_board_on_checked_cloth_is_found(seed: int) -> None:
    """Rendered scenes (not the stress benchmark's seeds) of a board on checked cloth, sharp
    and evenly lit: the line search alone called each "cut off", the cloth's lattice running
    off the photo. Found by its outline, to within the benchmark's tolerance."""
    scene = make_scene(seed, table="checked cloth", occlusion="none", focus="sharp",
                       motion="still", size="1024 px", light="even")
    found = np.asarray(find_board(scene.photo.image).corners, np.float64)
    truth = np.asarray(scene.photo.corners, np.float64)
    worst = min(float(corner_errors_cells(np.roll(found, k, axis=0), truth).max())
                for k in range(4))
    assert worst <= FOUND_WITHIN
