"""Rough grids from the premium squares (vision.board.premiums): a board whose grid lines the line
search misses is found by its coloured squares on the second look, and a lattice or colour noise,
which have no premium layout, gives no such grid."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from lab.render import RenderOptions, random_position, render_board_photo
from lab.stress import make_scene
from lab.stress.score import score_reading
from vision import DISPUTE_CONFIG, read_board
from vision.board.grid import GRID_CORNERS, quad_cell_px
from vision.board.layout import premium_kinds
from vision.board.locate import downscale
from vision.board.premiums import enclosing_quad, premium_quads
from vision.board.tuning import CONFIG

_SEEN = np.float32([[210, 90], [590, 120], [640, 470], [150, 430]])
"""A board's grid corners in a photo, seen at a slant."""


def _to_photo(points: np.ndarray) -> np.ndarray:
    homography = cv2.getPerspectiveTransform(np.float32(GRID_CORNERS), _SEEN)
    return cv2.perspectiveTransform(np.float32(points).reshape(-1, 1, 2), homography).reshape(-1, 2)


def _corner_error_cells(quad: np.ndarray, truth: np.ndarray) -> float:
    distances = np.linalg.norm(quad[:, None] - truth[None], axis=2).min(axis=1)
    return float(distances.max() / quad_cell_px(truth))


@pytest.mark.parametrize("layout", range(len(premium_kinds())))
@pytest.mark.parametrize("hidden", [0, 1, 2])
def test_the_enclosing_quad_runs_through_the_outer_cells_centres(layout: int, hidden: int) -> None:
    # Every known layout's outermost premium squares lie on the edge rows and columns; with the
    # squares nearest a corner under tiles, the hull's other edges still meet at that corner.
    rows, cols = np.nonzero(premium_kinds()[layout])
    centres = np.column_stack([cols + 0.5, rows + 0.5])
    near_corner = np.hypot(centres[:, 0], centres[:, 1]) < 4.5
    shown = centres[~near_corner] if hidden else centres
    if hidden == 2:
        shown = shown[np.hypot(shown[:, 0] - 15, shown[:, 1] - 15) >= 4.5]
    quad = enclosing_quad(_to_photo(shown))
    outer = _to_photo(np.array([[0.5, 0.5], [14.5, 0.5], [14.5, 14.5], [0.5, 14.5]]))
    assert quad is not None
    assert _corner_error_cells(quad, outer) < 0.1


def test_a_rendered_boards_premium_grid_lies_on_its_grid() -> None:
    tiles = random_position(np.random.default_rng(5), words=4)
    options = RenderOptions.random(np.random.default_rng(5), hand=False, glare=0.0, shadow=0.0)
    photo = render_board_photo(tiles, seed=5, width=1600, height=1200, options=options)
    copy = downscale(photo.image, 0.4)
    quads = premium_quads(copy, CONFIG)
    assert quads, "no premium grid on a plain rendered board"
    assert _corner_error_cells(quads[0] / 0.4, np.asarray(photo.corners, float)) < 0.5


def test_ruled_paper_and_colour_noise_give_no_premium_grid() -> None:
    # Every square of ruled paper is a blob alike, and colour noise is blobs anywhere: the share
    # of blobs on a layout's premium squares stays at chance (0.12-0.20), far under the gate.
    paper = np.full((480, 640, 3), 235, np.uint8)
    for k in range(0, 640, 19):
        cv2.line(paper, (k, 0), (k, 480), (180, 140, 120), 1)
    for k in range(0, 480, 19):
        cv2.line(paper, (0, k), (640, k), (180, 140, 120), 1)
    noise = cv2.resize(np.random.default_rng(1).integers(0, 256, (30, 40, 3), dtype=np.uint8),
                       (640, 480), interpolation=cv2.INTER_CUBIC)
    for image in (paper, noise):
        assert premium_quads(image, CONFIG) == []


@pytest.mark.slow
def test_a_board_on_fine_wood_the_lines_miss_is_found_by_its_squares() -> None:
    """A scene of the stress set (``python -m bench stress``): a red-framed board, top-down but
    for 15-30 degrees, on a finely grained table, an arm's shadow across it. No grid the line
    search proposed lay within four cells of the board (the grain out-weighs the thin lines),
    and it was "no Scrabble board found"; its premium squares place it."""
    scene = make_scene(100147)
    result = score_reading(scene, read_board(scene.jpeg, config=DISPUTE_CONFIG))
    assert result.found and result.corner_error is not None and result.corner_error < 0.3
    assert result.occupancy_wrong == 0
