"""Rectification: cell boxes land where the contract says, and the tile-lift geometry is right."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.board.rectify import (
    SIZE,
    estimate_focal,
    grid_homography,
    lifted_homography,
    photo_cell_px,
    rectify,
)
from vision.errors import VisionError

MARK = (0, 0, 255)  # pure red in BGR


def _flat_board(cell: int = 40, marked: tuple[int, int] = (3, 5)) -> np.ndarray:
    """A 15x15 grid, one cell painted red, no margin: grid corner (0, 0) is pixel (0, 0)."""
    side = SIZE * cell
    board = np.full((side, side, 3), 200, np.uint8)
    col, row = marked
    board[row * cell:(row + 1) * cell, col * cell:(col + 1) * cell] = MARK
    for k in range(SIZE + 1):
        cv2.line(board, (k * cell, 0), (k * cell, side), (40, 40, 40), 1)
        cv2.line(board, (0, k * cell), (side, k * cell), (40, 40, 40), 1)
    return board


def _camera(tilt_deg: float, focal: float, size: tuple[int, int]) -> tuple[np.ndarray, ...]:
    """K, R, t of a camera looking at the board (grid units) from ``tilt_deg`` off vertical."""
    width, height = size
    k = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]], float)
    tilt = np.radians(tilt_deg)
    # Board frame: x right, y towards South, so z = x cross y points down into the table and
    # the camera (in front of the board, along +z of its own frame) sits on the -z side.
    rotation = np.array(
        [[1, 0, 0], [0, np.cos(tilt), -np.sin(tilt)], [0, np.sin(tilt), np.cos(tilt)]]
    )
    distance = 30.0
    centre = np.array([7.5, 7.5, 0.0])
    t = np.array([0.0, 0.0, distance]) - rotation @ centre
    return k, rotation, t


def _project(k: np.ndarray, r: np.ndarray, t: np.ndarray, points: np.ndarray) -> np.ndarray:
    cam = points @ r.T + t
    assert np.all(cam[:, 2] > 0), "points must lie in front of the camera"
    pix = cam @ k.T
    return pix[:, :2] / pix[:, 2:]


def test_cell_boxes_follow_the_contract() -> None:
    cell = 40
    board = _flat_board(cell)
    corners = [(0, 0), (SIZE * cell, 0), (SIZE * cell, SIZE * cell), (0, SIZE * cell)]
    result = rectify(board, corners, cell_px=32, margin_cells=0.5)
    assert result.margin_px == 16
    assert result.image.shape == (SIZE * 32 + 32, SIZE * 32 + 32, 3)
    x0, y0, x1, y1 = result.cell_box(3, 5)
    assert (x0, y0, x1, y1) == (16 + 3 * 32, 16 + 5 * 32, 16 + 4 * 32, 16 + 6 * 32)
    inner = result.image[y0 + 4:y1 - 4, x0 + 4:x1 - 4].reshape(-1, 3).mean(axis=0)
    assert np.allclose(inner, MARK, atol=10)
    assert result.cell_image(3, 5).shape == (32, 32, 3)
    assert result.cell_image(3, 5, pad=0.25).shape == (48, 48, 3)
    assert result.cell_image(0, 0, pad=1.0).shape == (16 + 64, 16 + 64, 3)  # clipped at the edge
    with pytest.raises(ValueError):
        result.cell_box(15, 0)


def test_oblique_turned_board_comes_out_upright() -> None:
    cell = 40
    board = _flat_board(cell, marked=(12, 2))
    side = SIZE * cell
    # Turn the board a quarter clockwise and tilt it: South view TL goes to the top-right.
    src = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    dst = np.float32([[900, 120], [1010, 760], [260, 820], [380, 160]])
    photo = cv2.warpPerspective(board, cv2.getPerspectiveTransform(src, dst), (1200, 900))
    result = rectify(photo, dst, cell_px=24)
    x0, y0, x1, y1 = result.cell_box(12, 2)
    inner = result.image[y0 + 5:y1 - 5, x0 + 5:x1 - 5].reshape(-1, 3).mean(axis=0)
    assert np.allclose(inner, MARK, atol=25)
    back = result.to_photo(np.array([[result.margin_px, result.margin_px]]))
    assert np.allclose(back[0], dst[0], atol=0.5)


@pytest.mark.slow
def test_big_photos_are_smoothed_before_warping() -> None:
    # A fine checkerboard inside each cell averages to grey instead of aliasing.
    cell = 160
    side = SIZE * cell
    yy, xx = np.mgrid[0:side, 0:side]
    checker = (((xx // 2) + (yy // 2)) % 2 * 255).astype(np.uint8)
    photo = cv2.cvtColor(checker, cv2.COLOR_GRAY2BGR)
    corners = [(0, 0), (side, 0), (side, side), (0, side)]
    result = rectify(photo, corners, cell_px=16, margin_cells=0)
    assert abs(float(result.image.mean()) - 127.5) < 6
    assert float(result.image.std()) < 20


@pytest.mark.parametrize(
    "corners",
    [
        [(0, 0), (10, 0), (10, 10)],  # three points
        [(0, 0), (100, 0), (0, 100), (100, 100)],  # self-crossing
        [(0, 0), (1, 0), (1, 1), (0, 1)],  # too small
        [(0, 0), (np.nan, 0), (100, 100), (0, 100)],
    ],
)
def test_bad_corners_are_refused(corners: list) -> None:
    with pytest.raises(VisionError):
        rectify(np.zeros((200, 200, 3), np.uint8), corners)


def test_focal_length_is_recovered_from_an_oblique_view() -> None:
    size = (1600, 1200)
    k, r, t = _camera(40, 1300.0, size)
    grid = np.array([[0, 0, 0], [SIZE, 0, 0], [SIZE, SIZE, 0], [0, SIZE, 0]], float)
    corners = _project(k, r, t, grid)
    focal = estimate_focal(grid_homography(corners), (size[1], size[0]))
    assert abs(focal - 1300.0) / 1300.0 < 0.02


def test_tile_lift_maps_raised_faces_onto_their_cells() -> None:
    size = (1600, 1200)
    k, r, t = _camera(45, 1400.0, size)
    grid = np.array([[0, 0, 0], [SIZE, 0, 0], [SIZE, SIZE, 0], [0, SIZE, 0]], float)
    corners = _project(k, r, t, grid)
    lift = 0.2
    faces = np.array([[x + 0.5, y + 0.5, -lift] for x in (0, 7, 14) for y in (0, 7, 14)])
    face_px = _project(k, r, t, faces)
    flat = grid_homography(corners)
    lifted = lifted_homography(flat, (size[1], size[0]), lift)

    def to_grid(h: np.ndarray) -> np.ndarray:
        pts = face_px.reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(h)).reshape(-1, 2)

    flat_error = np.abs(to_grid(flat) - faces[:, :2]).max()
    lifted_error = np.abs(to_grid(lifted) - faces[:, :2]).max()
    assert flat_error > 0.1  # at 45 degrees the faces sit visibly off their squares...
    assert lifted_error < 0.02  # ...and the lifted plane puts them back


def test_zero_lift_is_the_plain_homography() -> None:
    corners = [(100, 80), (900, 120), (950, 700), (60, 650)]
    h = grid_homography(corners)
    assert np.array_equal(lifted_homography(h, (800, 1000), 0.0), h)


def test_photo_cell_px_is_the_median_cells_shorter_side() -> None:
    # A square board 300 px a side: every cell 20 px.
    assert photo_cell_px([(10, 10), (310, 10), (310, 310), (10, 310)]) == pytest.approx(20)
    # Squashed to half its height: cells 20 x 10, the shorter side counts.
    assert photo_cell_px([(0, 0), (300, 0), (300, 150), (0, 150)]) == pytest.approx(10)
    # Seen steeply, the far rows are smaller than the near ones: the middle cell's size is
    # between them, and no cell of the board is as small as the far rows' pixels say.
    steep = [(100, 0), (200, 0), (300, 300), (0, 300)]
    assert 8 < photo_cell_px(steep) < 20
