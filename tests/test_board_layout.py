"""The premium layout as the board's own signature (:mod:`vision.board.layout`), and boards
found on plank tables whose seams and grain pass for grid lines (issue 33, point 3)."""

from __future__ import annotations

import numpy as np
import pytest

from lab.eval_corners import corner_errors_cells
from lab.render import RenderOptions, random_position, render_board_photo
from lab.woodtable import WoodTable, board_on_planks, on_wood
from vision import find_board
from vision.board.grid import GRID_CORNERS, is_grid_quad
from vision.board.layout import layout_fit, premium_kinds, resized, shifted
from vision.board.rectify import grid_homography
from vision.board.tuning import CONFIG


def _render(seed: int, **changes: object):
    tiles = random_position(np.random.default_rng(seed), words=int(seed % 20))
    options = RenderOptions.random(np.random.default_rng(seed), clutter=0, rack=False,
                                   hand=False, glare=0.0, shadow=0.0, **changes)
    return render_board_photo(tiles, seed=seed, width=1600, height=1200, options=options)


def test_every_known_layout_has_its_four_premium_kinds_symmetric() -> None:
    for kinds in premium_kinds():
        assert set(np.unique(kinds)) == {-1, 0, 1, 2, 3, 4}
        assert (kinds == kinds[::-1]).all() and (kinds == kinds.T).all()


def test_layout_fits_a_board_where_it_lies_and_says_how_far_a_grid_is_off() -> None:
    photo = _render(3)
    fit = layout_fit(photo.image, photo.corners)
    assert fit.score > 0.9
    assert fit.best_shift == (0, 0)
    assert fit.standing() > 5
    # The same grid moved two cells right and one up: the layout says to move it back.
    moved = shifted(photo.corners, (2, -1))
    assert layout_fit(photo.image, moved).best_shift == (-2, 1)
    assert layout_fit(photo.image, moved, reach=0).score < 0.7


def test_layout_does_not_fit_a_table() -> None:
    photo = _render(4)
    table = on_wood(photo, WoodTable(plank_cells=2.0), seed=4)
    # A 15 x 15 window of the table beside the board, as a grid on the seams would be.
    beside = shifted(photo.corners, (16, 0))
    fit = layout_fit(table, beside, reach=0)
    assert fit.score < CONFIG.min_layout_score


def test_grid_geometry_moves_and_resizes_in_the_grids_own_units() -> None:
    quad = np.array([[100.0, 120.0], [700.0, 100.0], [720.0, 690.0], [90.0, 700.0]])
    to_grid = np.linalg.inv(grid_homography(quad))

    def in_grid(points: np.ndarray) -> np.ndarray:
        homogeneous = np.column_stack([points, np.ones(4)]) @ to_grid.T
        return homogeneous[:, :2] / homogeneous[:, 2:]

    assert np.allclose(in_grid(shifted(quad, (1, -2))), GRID_CORNERS + [1, -2], atol=1e-6)
    grown = in_grid(resized(quad, 0, (-1, 1)))
    assert np.allclose(grown[:, 0], [-1, 16, 16, -1], atol=1e-6)
    assert np.allclose(grown[:, 1], GRID_CORNERS[:, 1], atol=1e-6)
    assert is_grid_quad(quad)
    assert not is_grid_quad(quad[[0, 2, 1, 3]])  # crossed
    assert not is_grid_quad(quad[::-1])  # anticlockwise
    assert not is_grid_quad(quad * 1e-3)  # under a pixel a cell


# Renders laid on plank tables (lab.woodtable) that the finder got wrong before the layout
# verified its grids: seeds 12 and 56 a whole number of cells off on the seams, 21 a cell too
# wide (5.2, 2.1 and 1.2 cells at worst). 23 and 33 were found before too: kept as boards the
# layout's own moves must not spoil. Seeds 0-79 are measured by `python -m bench wood`.
@pytest.mark.parametrize("seed", [12, 21, 23, 33, 56])
def test_board_on_a_plank_table_found(seed: int) -> None:
    image, expected = board_on_planks(seed)
    location = find_board(image)
    assert corner_errors_cells(location.corners, expected).max() < 0.35
