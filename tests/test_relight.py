"""Reading through shade (issue 33, point 4): the board's light evened out before it is read
(:mod:`vision.cells.relight`), and no tile in a shadow dropped or read as an empty square."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from lab.render import RenderOptions, random_position, render_board_photo
from referee.cells import Cell
from vision import DEFAULT_CONFIG, read_board, rectify
from vision.cells.relight import relight
from vision.letters.classify import BLANK


def _photo(seed: int, **light: object):
    position = random_position(np.random.default_rng(seed), words=16)
    options = RenderOptions.random(np.random.default_rng(seed), hand=False, glare=0.0,
                                   shadow=0.0, blur=0.4, rack=False, clutter=0)
    return render_board_photo(position, seed=seed, width=1600, height=1200,
                              options=replace(options, **light))


def _rectified(photo):
    config = DEFAULT_CONFIG
    return rectify(photo.image, photo.corners, cell_px=config.cell_px,
                   margin_cells=config.margin_cells, tile_lift=config.tile_lift)


@pytest.mark.parametrize("style", ["classic", "modern", "green"])
def test_an_evenly_lit_board_is_left_as_it_is(style: str) -> None:
    # The green board's plain squares are far darker than its premium squares and tiles: judged
    # against the board's lit level they passed for shade. Judged against their symmetric
    # images, they do not.
    photo = _photo(5, board_style=style, light_gradient=0.2)
    board = _rectified(photo)
    relit = relight(board)
    assert (relit.gain == 1).all()
    assert relit.board.image is board.image


def test_a_shadow_is_brought_up_to_the_light_around_it() -> None:
    photo = _photo(209, shadow=0.85)
    relit = relight(_rectified(photo))
    # The renderer's shadow takes a half plane down to 0.28 of its light (1 - 0.85 x 0.85).
    assert relit.gain.max() > 3
    assert (relit.gain == 1).sum() > 100  # the lit half is untouched
    assert not relit.too_dark().any()


# Seeds 200-211 read before the relighting: 27 tiles in shadow missed (named "may hide a tile")
# and 4 missed silently, 6 empty squares read as tiles; after it, every tile found and all 482
# letters right with the bold sans tile model, 481 with the one trained on every style too
# (seed 207's G10, a Y read as W: a letter, not the light; python -m bench light, 1102 -> 1101
# of its 1120 shadowed tiles right), 480 with the one trained on crops taken small too (seed
# 211's J4, an H read as M, flagged unsure; bench light 1100).
@pytest.mark.parametrize("seed", [207, 209, 211])
def test_tiles_in_a_shadow_are_read(seed: int) -> None:
    photo = _photo(seed, shadow=(0.5, 0.7, 0.85)[seed % 3])
    reading = read_board(photo.image, corners=photo.corners)
    read = {Cell.parse(cell.cell): cell.letter for cell in reading.cells}
    want = {cell: BLANK if tile.blank else tile.letter for cell, tile in photo.tiles.items()}
    assert set(read) == set(want)                 # no tile dropped, no empty square read as one
    misread = [cell for cell in want if read[cell] != want[cell]]
    assert len(misread) <= {207: 1, 211: 1}.get(seed, 0)


def test_the_reader_before_relighting_missed_them() -> None:
    """What the bench compares against: without relighting, seed 209's shadowed tiles go."""
    photo = _photo(209, shadow=0.85)
    reading = read_board(photo.image, corners=photo.corners,
                         config=replace(DEFAULT_CONFIG, relight=False))
    assert len(reading.cells) < len(photo.tiles) - 10
