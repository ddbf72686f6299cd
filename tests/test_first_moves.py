"""The first words of a game, read with no photo-wide yardstick of the tiles' colour yet.

With fewer than three sure letter tiles, a blank or a thin I was told from a square by the model
alone, which has seen few such boards: whole first words were missed (``python -m bench early``).
Each case below was read wrongly, on every seed listed, before the tiles the model found likely
and a letter on the centre gave the tiles' colour (:func:`vision.cells.facecolour.colour_evidence`).
"""

from __future__ import annotations

import numpy as np
import pytest

from lab.render import RenderOptions, random_position, render_board_photo
from lab.truth import UNLABELLED_PHOTOS
from referee.boardtext import Tile
from referee.cells import Cell, Seat
from vision.board.rectify import rectify
from vision.cells.occupancy import OccupancyModel
from vision.read import read_board
from vision.tuning import DEFAULT_CONFIG

pytestmark = pytest.mark.slow


def across_the_centre(word: str, start: int = 6) -> dict[Cell, Tile]:
    """``word`` on row 8 from column ``start``; ``?`` before a letter makes that letter a blank."""
    tiles, col, blank = {}, start, False
    for letter in word:
        if letter == "?":
            blank = True
            continue
        tiles[Cell(col, 7)] = Tile(letter, blank, 0)
        col, blank = col + 1, False
    return tiles


def read_cells(tiles: dict[Cell, Tile], seed: int) -> set[Cell]:
    photo = render_board_photo(tiles, seed=seed, width=1600, height=1200,
                               options=RenderOptions.clean())
    reading = read_board(photo.image, corners=photo.corners)
    return {Cell.parse(cell.cell) for cell in reading.cells}


@pytest.mark.parametrize("seed", [2, 4, 5, 6])
def test_a_first_word_with_a_thin_i_on_the_centre_is_read_whole(seed: int) -> None:
    # LIT: the I on the centre was missed (before: G8 and I8 only).
    tiles = across_the_centre("LIT")
    assert read_cells(tiles, seed) == set(tiles)


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_a_blank_in_the_first_word_is_found_by_the_colour_of_the_tiles_beside_it(
        seed: int) -> None:
    # ?CAT: the blank C on G8 was missed (before: H8 and I8 only).
    tiles = across_the_centre("?CAT")
    assert read_cells(tiles, seed) == set(tiles)


@pytest.mark.parametrize("seed", [2, 6, 7])
def test_a_letter_on_the_centre_gives_the_tiles_colour_when_nothing_else_does(seed: int) -> None:
    # I and a blank T: no sure letter tile at all, and nothing was read (before: no cell).
    tiles = across_the_centre("I?T", start=7)
    assert read_cells(tiles, seed) == set(tiles)


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_a_blank_on_the_centre_is_found_by_the_squares_around_it(seed: int) -> None:
    # ?NUW from the centre: the centre has no symmetric peers to be measured against, so the
    # blank N on it was missed on every seed (before: I8 and J8 only). The squares around it
    # are the yardstick.
    tiles = across_the_centre("?NUW", start=7)
    assert read_cells(tiles, seed) == set(tiles)


def test_the_centre_alone_is_still_doubted_but_not_when_a_letter_shows_beside_it() -> None:
    # A tile alone on the centre cannot be played, so the centre as the only likely tile is
    # halved (the star of an empty board read as a letter). A letter beside it, even one the
    # model doubts, says a word begins there: halving then lost the whole first word.
    occupancy = OccupancyModel.load()
    centre_only = across_the_centre("H", start=7)
    with_an_i = across_the_centre("HI", start=7)
    for tiles, halved in ((centre_only, True), (with_an_i, False)):
        photo = render_board_photo(tiles, seed=4, width=1600, height=1200,
                                   options=RenderOptions.clean())
        board = rectify(photo.image, photo.corners, cell_px=DEFAULT_CONFIG.cell_px,
                        margin_cells=DEFAULT_CONFIG.margin_cells,
                        tile_lift=DEFAULT_CONFIG.tile_lift)
        centre = occupancy.tile_probability(board)[7, 7]
        assert (centre < DEFAULT_CONFIG.occupancy_threshold) == halved, (tiles, centre)


def test_a_square_blown_out_by_glare_beside_a_first_word_is_no_blank() -> None:
    # A render whose glare washes most of the board out: only the K of the first word is seen,
    # and the square left of it, as white as the tile, was taken for a blank.
    rng = np.random.default_rng(280)
    tiles = random_position(rng, words=int(rng.integers(1, 3)), seats=[Seat.S, Seat.N])
    options = RenderOptions.random(np.random.default_rng(281), glare=1.0, hand=False)
    photo = render_board_photo(tiles, seed=280, width=1600, height=1200, options=options)
    reading = read_board(photo.image, corners=photo.corners)
    assert Cell(2, 7) in tiles and Cell(1, 7) not in tiles  # the K on C8; B8 is empty
    assert {Cell.parse(cell.cell) for cell in reading.cells} <= set(tiles)


def test_an_empty_board_is_still_empty_under_every_render() -> None:
    occupancy = OccupancyModel.load()
    for seed in range(6):
        photo = render_board_photo({}, seed=seed, width=1600, height=1200)
        board = rectify(photo.image, photo.corners, cell_px=DEFAULT_CONFIG.cell_px,
                        margin_cells=DEFAULT_CONFIG.margin_cells,
                        tile_lift=DEFAULT_CONFIG.tile_lift)
        probability = occupancy.tile_probability(board)
        assert not (probability >= DEFAULT_CONFIG.occupancy_threshold).any(), (
            seed, np.argwhere(probability >= DEFAULT_CONFIG.occupancy_threshold))


def test_a_blank_on_the_centre_of_a_board_with_tiles_is_named() -> None:
    # Render 2001 of random conditions: five tiles, dark and blurred, blanks on H7 and H8. The
    # first word covers the centre, hiding its star, but H8 showed no print, no tile's colour
    # its squares could tell, and was read as empty with no word said. A centre with no print
    # on a board with tiles elsewhere is now named.
    rng = np.random.default_rng(2001)
    tiles = random_position(rng, words=int(rng.integers(3, 15)))
    cells = sorted(tiles, key=lambda cell: (cell.row, cell.col))
    for index in rng.choice(len(cells), 2, replace=False):
        tile = tiles[cells[index]]
        tiles[cells[index]] = Tile(tile.letter, True, tile.rotation)
    assert {cell.name for cell, tile in tiles.items() if tile.blank} == {"H7", "H8"}
    photo = render_board_photo(tiles, seed=2001, width=1600, height=1200)
    reading = read_board(photo.image, corners=photo.corners)
    assert "H8" in {cell.cell for cell in reading.cells} | set(reading.warned_empty_cells())


@pytest.mark.parametrize("seed", range(1, 7))
def test_a_first_word_read_as_nothing_still_names_the_centre(seed: int) -> None:
    # A blank on the centre and a thin I beside it: no sure letter, so no tiles' colour, and on
    # most clean renders nothing read at all. The centre's star is hidden, so H8 is named.
    photo = render_board_photo(across_the_centre("?II", start=7), seed=seed, width=1600,
                               height=1200, options=RenderOptions.clean())
    reading = read_board(photo.image, corners=photo.corners)
    assert "H8" in {cell.cell for cell in reading.cells} | set(reading.warned_empty_cells())


def test_an_empty_board_showing_its_star_names_no_centre() -> None:
    for seed in range(1, 4):
        photo = render_board_photo({}, seed=seed, width=1600, height=1200,
                                   options=RenderOptions.clean())
        reading = read_board(photo.image, corners=photo.corners)
        assert not reading.cells and "H8" not in reading.warned_empty_cells(), seed


def test_a_centre_showing_its_star_beside_tiles_is_not_named() -> None:
    # Tiles laid off the centre (not a game, but photographed all the same): the star shows, so
    # the centre is empty and nothing asks about it.
    tiles = {Cell(col, 2): Tile(letter, False, 0) for col, letter in enumerate("CAT", start=3)}
    photo = render_board_photo(tiles, seed=1, width=1600, height=1200,
                               options=RenderOptions.clean())
    reading = read_board(photo.image, corners=photo.corners)
    assert {cell.cell for cell in reading.cells} == {"D3", "E3", "F3"}
    assert "H8" not in reading.warned_empty_cells()


def test_a_faint_star_is_print_enough_to_show_the_centre_bare() -> None:
    # An unlabelled photo of tiles laid out of play (kristopalka green_boards_004, checked by
    # eye): a light pink star on a pink centre, 28 grey levels darker than the square. It is
    # no letter, but it is print, so the centre is not asked about.
    name = "kristopalka__scrabble-solver__green_boards_004_board_agh_wiet_tele_rotated_letters"
    reading = read_board(UNLABELLED_PHOTOS / f"{name}.jpg", tiles="polish")
    assert "H8" not in {cell.cell for cell in reading.cells}
    assert "H8" not in reading.warned_empty_cells()
