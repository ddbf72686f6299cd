"""Blanks and squares told by colour (vision.cells.facecolour.colour_evidence): on every truth photo
and on renders."""

from __future__ import annotations

import dataclasses
from functools import cache

import numpy as np
import pytest

from bench.bench_sheen import render_scene
from lab.render import RenderedPhoto, RenderOptions, random_position, render_board_photo
from lab.truth import (
    DEV_PHOTOS,
    UNLABELLED_PHOTOS,
    corrected_grid,
    load_errata,
    photos_with_truth,
    read_truth,
)
from referee.boardtext import Tile
from referee.cells import Cell
from referee.layouts import load_layout
from tests.support.occupancy import always_empty_model
from tests.support.scenes import house_in_shadow
from vision.board.rectify import RectifiedBoard, rectify
from vision.cells.cellgrid import symmetric_peers
from vision.cells.facecolour import (
    ColourEvidence,
    colour_blanks,
    colour_evidence,
    letters_on_bare_kinds,
    near_distance,
)
from vision.cells.letterevidence import board_letters
from vision.cells.occupancy import OccupancyModel, cell_features, game_rules
from vision.cells.tuning import (
    BLANK_NEAR_SPREADS,
    BLANK_PEER_SPREADS,
    DOUBTFUL_PEER_SPREADS,
    DOUBTFUL_TILE,
)
from vision.image import load_image
from vision.read import read_board
from vision.reading import BoardReading
from vision.tuning import DEFAULT_CONFIG

WOODEN_BLANK_PHOTO = "jheidel__scrabble-opencv__IMG_20151016_170028.jpg"
"""A wooden blank on the grey plain square O10 (truth orientation), beside the O on O9."""


def _rectified(image: np.ndarray, corners: np.ndarray) -> RectifiedBoard:
    return rectify(image, corners, cell_px=DEFAULT_CONFIG.cell_px,
                   margin_cells=DEFAULT_CONFIG.margin_cells, tile_lift=DEFAULT_CONFIG.tile_lift)


@cache
def _truth_photos() -> tuple[tuple[str, RectifiedBoard, np.ndarray, np.ndarray], ...]:
    """(photo, board, occupied, blank) per truth photo with corners: the board rectified on the
    truth corners (so in the truth's orientation), cells row-major, the errata applied (a cell
    the photo does not show counts as neither)."""
    errata = load_errata()
    out = []
    for photo in photos_with_truth(DEV_PHOTOS):
        truth = read_truth(photo)
        if truth.corners is None:  # 7 photos: scored on found corners by tileref eval
            continue
        grid = corrected_grid(truth, errata.get(photo.name, {}))
        occupied = np.zeros(225, bool)
        letterless = np.zeros(225, bool)
        for row in range(15):
            for col in range(15):
                cell = grid[row][col]
                if cell is not None and cell.letter is not None:
                    occupied[row * 15 + col] = True
                    letterless[row * 15 + col] = cell.blank
        out.append((photo.name, _rectified(load_image(photo), truth.corners), occupied,
                    letterless))
    return tuple(out)


def _word_under_a_sheen(seed: int, style: str, sheen: float
                        ) -> tuple[RenderedPhoto, dict[Cell, Tile]]:
    """A clean render of ``seed``'s random position on a ``style`` board with LOUSE along the
    far edge (F1-J1), under a ``sheen`` of that strength there; and its tiles."""
    tiles = random_position(np.random.default_rng(seed), words=8)
    for offset, letter in enumerate("LOUSE"):
        tiles[Cell(5 + offset, 0)] = Tile(letter, False, 0)
    return render_board_photo(tiles, seed=seed, options=RenderOptions.clean(
        board_style=style, sheen=sheen)), tiles


def _missed_without_a_word(reading: BoardReading, tiles: dict[Cell, Tile]) -> list[str]:
    """The ``tiles`` a reading neither read nor named as a square that may hold one."""
    seen, named = reading.tiles(), set(reading.warned_empty_cells())
    return [cell.name for cell in tiles if cell not in seen and cell.name not in named]


def _tiles_by_rules_alone(board: RectifiedBoard) -> np.ndarray:
    """(225,) bool: the tiles read from ``board`` by a model that calls every cell empty, so by
    the rules beside it (colour, sure letters) alone."""
    return always_empty_model().tile_probability(board).reshape(-1) \
        >= DEFAULT_CONFIG.occupancy_threshold


@pytest.mark.slow
def test_no_empty_square_of_any_truth_photo_is_taken_for_a_blank() -> None:
    flagged_blanks = 0
    for name, board, occupied, blanks in _truth_photos():
        flagged = colour_blanks(board, board_letters(board))
        assert not (flagged & ~occupied).any(), (name, np.flatnonzero(flagged & ~occupied))
        flagged_blanks += int((flagged & blanks).sum())
    # Measured: 17 of the 24 blanks of these 31 photos, 10 by their peers alone (most others
    # lie on squares of the tiles' own colour, or on photos too dim for chroma to tell; the
    # model finds many of them).
    assert flagged_blanks >= 17


@pytest.mark.slow
def test_a_blank_its_peers_do_not_tell_is_told_by_the_squares_around_it() -> None:
    # jheidel 170717: the wooden blank on the grey plain square O10 is 3.3 peer spreads from
    # its peers across the board (under BLANK_PEER_SPREADS), but far from the squares around it.
    (name, board, occupied, blanks), = [p for p in _truth_photos() if p[0].endswith("170717.jpg")]
    o10 = Cell.parse("O10")
    index = o10.row * 15 + o10.col
    assert blanks[index]
    evidence = colour_evidence(board, board_letters(board))
    assert evidence.blank[index] <= BLANK_PEER_SPREADS < evidence.near[index] * (
        BLANK_PEER_SPREADS / BLANK_NEAR_SPREADS)
    assert colour_blanks(board, board_letters(board))[index]
    tiles = _tiles_by_rules_alone(board)
    assert tiles[index] and not (tiles & ~occupied).any()


def test_the_squares_around_a_cell_are_its_second_nearest_letterless_neighbour() -> None:
    # Two blanks side by side on a plain grey board: each is the other's nearest, so the
    # second nearest is the yardstick. A cell with only tiles around it has none.
    chroma = np.zeros((225, 2))
    letterless = np.ones(225, bool)
    pair, plain, walled = [5 * 15 + 5, 5 * 15 + 6], 5 * 15 + 7, 12 * 15 + 12  # F6 G6, H6, M13
    chroma[pair] = (10.0, 0.0)
    ring = [c for c in range(225) if max(abs(c // 15 - 12), abs(c % 15 - 12)) in (1, 2)]
    letterless[ring] = False
    near = near_distance(chroma, letterless)
    assert list(near[pair]) == [10.0, 10.0]
    assert near[plain] == 0.0
    assert near[walled] == np.inf


@pytest.mark.slow
def test_a_blank_told_by_colour_is_a_tile_whatever_the_model_says() -> None:
    (name, board, occupied, blanks), = [p for p in _truth_photos() if p[0] == WOODEN_BLANK_PHOTO]
    assert blanks.sum() == 1
    tiles = _tiles_by_rules_alone(board)
    assert tiles[blanks].all()
    assert not (tiles & ~occupied).any()


@pytest.mark.slow
def test_a_blank_in_a_word_on_a_square_of_another_colour_is_found() -> None:
    # Wooden tiles on the white squares of the modern board, seen from each side: a blank
    # extends a word onto a plain square. Nothing else is ever taken for a blank; the blank is
    # found on most boards (measured: 5 of 6; on seed 0 its face is 2.09 tile spreads from the
    # tiles' colour, past the 2 of BLANK_TILE_SPREADS: the renderer tints every tile its own).
    layout = load_layout("classic")
    found = 0
    for seed in range(6):
        rng = np.random.default_rng(seed)
        tiles = random_position(rng, words=6)
        plain = [Cell(c, r) for r in range(15) for c in range(15)
                 if Cell(c, r) not in tiles and layout.get(Cell(c, r)) is None
                 and any(Cell(c + dc, r + dr) in tiles
                         for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)))]
        blank = plain[int(rng.integers(len(plain)))]
        tiles[blank] = Tile("E", True, 0)
        photo = render_board_photo(tiles, seed=seed, options=RenderOptions.clean(
            board_style="modern", tile_colour="wood", tilt=20, azimuth=float(90 * seed)))
        board = _rectified(photo.image, photo.corners)
        flagged = colour_blanks(board, board_letters(board)).reshape(15, 15)
        found += int(flagged[blank.row, blank.col])
        flagged[blank.row, blank.col] = False
        assert not flagged.any(), (seed, np.argwhere(flagged))
    assert found >= 4


@pytest.mark.slow
def test_an_empty_board_has_no_blanks_by_colour() -> None:
    # Fewer than three sure letter tiles: no tile colour to compare with.
    photo = render_board_photo({}, seed=5)
    board = _rectified(photo.image, photo.corners)
    assert not colour_blanks(board, board_letters(board)).any()
    assert not (OccupancyModel.load().tile_probability(board) >= 0.5).any()


@pytest.mark.slow
def test_colour_evidence_makes_a_blank_a_tile_and_half_of_it_a_doubt_the_reading_names() -> None:
    # Half the evidence of a blank keeps a cell empty, at a probability the reader names
    # ("unsure whether ... holds a tile"); the whole of it makes a tile.
    (name, board, occupied, blanks), = [p for p in _truth_photos() if p[0] == WOODEN_BLANK_PHOTO]
    features = cell_features(board)
    doubtful, blank, plain = 0 * 15 + 0, 0 * 15 + 3, 14 * 15 + 14  # A1, D1, O15: empty here
    assert not occupied[[doubtful, blank, plain]].any()
    evidence = np.zeros(225)
    evidence[doubtful] = (DOUBTFUL_PEER_SPREADS + BLANK_PEER_SPREADS) / 2
    evidence[blank] = BLANK_PEER_SPREADS + 1
    colour = ColourEvidence.none()._replace(blank=evidence)
    probability = game_rules(features, np.zeros(225), colour).reshape(-1)
    assert probability[doubtful] == DOUBTFUL_TILE
    assert DEFAULT_CONFIG.unsure_empty_above <= DOUBTFUL_TILE < DEFAULT_CONFIG.occupancy_threshold
    assert probability[blank] >= DEFAULT_CONFIG.occupancy_threshold
    assert probability[plain] == 0


@pytest.mark.slow
def test_no_tile_of_any_truth_photo_is_taken_for_a_square_by_colour() -> None:
    # A face far from the tiles' colour and nearer its own kind of square is no tile. On the
    # truth photos (truth corners) that is never a tile, and it names premium print that looked
    # like a letter (DeclanFinerty board_003: three squares of the bottom rows).
    squares_named = {}
    for name, board, occupied, _ in _truth_photos():
        square = colour_evidence(board, board_letters(board)).square
        assert not (square & occupied).any(), (name, np.flatnonzero(square & occupied))
        squares_named[name] = {Cell(i % 15, i // 15).name for i in np.flatnonzero(square)}
    assert {"E14", "B15", "F15"} <= squares_named["DeclanFinerty__scrabble-vision__board_003.jpeg"]


@pytest.mark.slow
def test_a_square_by_colour_is_no_tile_even_with_a_letter_like_blob() -> None:
    (name, board, occupied, _), = [p for p in _truth_photos() if p[0] == WOODEN_BLANK_PHOTO]
    features = cell_features(board)
    tile = int(np.flatnonzero(occupied)[0])
    square = np.zeros(225, bool)
    square[tile] = True
    sure = game_rules(features, np.ones(225)).reshape(-1)
    told = game_rules(features, np.ones(225),
                      ColourEvidence.none()._replace(square=square)).reshape(-1)
    assert sure[tile] == 1 and told[tile] == DOUBTFUL_TILE
    assert np.array_equal(np.delete(sure, tile), np.delete(told, tile))


@pytest.mark.slow
def test_a_tile_under_glare_is_not_taken_for_a_square() -> None:
    # Glare washes a tile's colour out towards white, far from the other tiles' and near its
    # square's: without the washed-out guard, 9 tiles of these 12 renders were called squares.
    called = []
    for seed in range(12):
        rng = np.random.default_rng(seed)
        tiles = random_position(rng, words=12)
        options = RenderOptions.clean(
            glare=0.9, board_style=("classic", "modern", "green")[seed % 3],
            tile_colour=("wood", "ivory", "beige", "white plastic")[seed % 4])
        photo = render_board_photo(tiles, seed=seed, options=options)
        board = _rectified(photo.image, photo.corners)
        square = colour_evidence(board, board_letters(board)).square.reshape(15, 15)
        called += [(seed, cell.name) for cell in tiles if square[cell.row, cell.col]]
    assert called == []


@pytest.mark.slow
def test_a_tile_washed_out_by_glare_is_named_where_it_is_read_as_empty() -> None:
    # Render 143 (glare 0.62): the glare greys the letters of H10 and F9, too faint beside the
    # board's other letters to be sure of, and whitens their faces, so the model read both as
    # squares and nothing named them. Their faint letters on faces whiter than the tiles' now
    # make each a doubt the reading names.
    rng = np.random.default_rng(143)
    tiles = random_position(rng, words=14)
    photo = render_board_photo(tiles, seed=143, width=1600, height=1200)
    board = _rectified(photo.image, photo.corners)
    washed = colour_evidence(board, board_letters(board)).washed.reshape(15, 15)
    assert {Cell.parse("H10"), Cell.parse("F9")} <= {cell for cell in tiles
                                                     if washed[cell.row, cell.col]}
    assert not [Cell(col, row) for row, col in np.argwhere(washed) if Cell(col, row) not in tiles]
    assert _missed_without_a_word(read_board(photo.image, corners=photo.corners), tiles) == []


@pytest.mark.slow
def test_tiles_under_a_sheen_far_lighter_than_their_squares_are_named() -> None:
    # A sheen whitens glossy tiles and greys their letters but leaves the matte squares dark:
    # here three tiles on plain dark green squares are whitened four fifths of the way to a
    # light grey, their letters too faint to show, their faces far from the tiles' colour.
    # Each is still far lighter than its own kind of square seen bare elsewhere, so named.
    layout = load_layout("classic")
    for seed in range(3):
        rng = np.random.default_rng(seed)
        tiles = random_position(rng, words=10)
        photo = render_board_photo(tiles, seed=seed, options=RenderOptions.clean(
            board_style="green", tile_colour="wood"))
        board = _rectified(photo.image, photo.corners)
        bare = {Cell(index % 15, index // 15) for index in range(225)} - set(tiles)
        shone = [cell for cell in sorted(tiles) if layout.get(cell) is None and len(bare & {
            Cell(index % 15, index // 15)
            for index in symmetric_peers()[cell.row * 15 + cell.col]}) >= 2][:3]
        image = board.image.copy()
        for cell in shone:
            x0, y0, x1, y1 = board.cell_box(cell.col, cell.row)
            image[y0:y1, x0:x1] = (0.2 * image[y0:y1, x0:x1] + 0.8 * 200).astype(np.uint8)
        board = dataclasses.replace(board, image=image)
        washed = colour_evidence(board, board_letters(board)).washed.reshape(15, 15)
        assert [cell.name for cell in shone if not washed[cell.row, cell.col]] == []
        assert not [Cell(col, row) for row, col in np.argwhere(washed)
                    if Cell(col, row) not in tiles]


@pytest.mark.slow
def test_tiles_whose_letters_a_sheen_greyed_on_light_squares_are_named() -> None:
    # A word along the far edge under a strong sheen, on the two boards with light squares: the
    # tiles' faces are no lighter than their squares, but each letter still shows, faintly (23-24
    # grey levels darker than the face), in a letter's shape. All five were read as empty
    # squares with no word said; now each is named, and no empty square is.
    for style in ("modern", "classic"):
        photo, tiles = _word_under_a_sheen(1, style, 0.95)
        reading = read_board(photo.image, corners=photo.corners)
        named = set(reading.warned_empty_cells())
        assert _missed_without_a_word(reading, tiles) == []
        assert {"F1", "G1", "H1", "I1", "J1"} <= named
        assert not named - {cell.name for cell in tiles}


@pytest.mark.slow
def test_a_letter_on_a_plain_square_is_named_though_its_face_looks_like_the_square() -> None:
    # A milder sheen leaves the letters plain (33 grey levels below the face) but takes the tiles'
    # colour to the light grey of the modern board's plain squares, so the model read the four
    # tiles on plain squares as squares, with no word said. A letter's shape on a kind of square
    # that shows no print where it is bare holds a tile: each is named now.
    photo, tiles = _word_under_a_sheen(2, "modern", 0.9)
    board = _rectified(photo.image, photo.corners)
    lettered = letters_on_bare_kinds(board_letters(board)).reshape(15, 15)
    assert {"F1", "G1", "I1", "J1"} <= {Cell(col, row).name for row, col in np.argwhere(lettered)}
    reading = read_board(photo.image, corners=photo.corners)
    named = set(reading.warned_empty_cells())
    assert _missed_without_a_word(reading, tiles) == []
    assert not named - {cell.name for cell in tiles}


@pytest.mark.slow
def test_no_empty_square_of_any_truth_photo_shows_a_letter_on_a_plain_kind() -> None:
    # Premium print is a letter's shape too, but its kind of square shows print where it is bare.
    for name, board, occupied, _ in _truth_photos():
        lettered = letters_on_bare_kinds(board_letters(board))
        assert not (lettered & ~occupied).any(), (name, np.flatnonzero(lettered & ~occupied))


@pytest.mark.slow
def test_a_faint_letter_on_a_plain_square_no_darker_than_the_tiles_is_named() -> None:
    # python -m bench sheen's render 515: a dark photo, a word along the far edge of a modern
    # board under a strong sheen. The letters of E1, F1 and G1 show 25-26 grey levels darker
    # than their faces, too faint to count as ink, and their faces are no lighter than the
    # tiles' (the light is dim), so no rule for a washed-out face took them: read as empty
    # squares with no word said. On a plain square's face no darker than the tiles' such a
    # letter is now named.
    photo, tiles = render_scene(515, sheen=True)
    reading = read_board(photo.image, corners=photo.corners, config=DEFAULT_CONFIG)
    named = set(reading.warned_empty_cells())
    assert {"E1", "F1", "G1"} <= named
    assert not named - {cell.name for cell in tiles}


@pytest.mark.slow
def test_the_grain_of_dark_plain_squares_is_no_letter_on_them() -> None:
    # Unlabelled photos, these squares empty (checked by eye): the grain or a tile's shadow on a
    # dark red plain square makes a letter's shape 30-44 grey levels darker than the face. A
    # sheen only lightens a tile, so a face far darker than the tiles' is not named for it.
    for name, squares in (("red_boards_001.jpg", {"C10"}), ("red_boards_014.jpg", {"D3", "D9"})):
        reading = read_board(UNLABELLED_PHOTOS / f"kristopalka__scrabble-solver__{name}",
                             tiles="polish")
        assert not squares & set(reading.warned_empty_cells()), name
        assert not squares & {cell.cell for cell in reading.cells}, name


@pytest.mark.slow
def test_tiles_of_a_real_photo_under_a_sheen_are_read_or_named() -> None:
    # kristopalka red_boards_014 (unlabelled; its top rows checked by eye): the tiles along the
    # far edge shine grey-white on the dark red squares, their letters faint. B1 and C1 were read
    # as empty with no word said.
    reading = read_board(UNLABELLED_PHOTOS / "kristopalka__scrabble-solver__red_boards_014.jpg",
                         tiles="polish")
    seen = {cell.name for cell in reading.tiles()} | set(reading.warned_empty_cells())
    assert not {"A1", "B1", "C1", "D1", "E1", "F1", "G1", "A2", "E2", "E3", "E4"} - seen


@pytest.mark.slow
def test_a_square_paler_than_dark_tiles_is_not_washed_out() -> None:
    # Render 37: wood tiles on beige squares, no glare, blurred. Premium print blurred into a
    # letter's shape on a square brighter than the tiles had been named on five squares.
    rng = np.random.default_rng(37)
    tiles = random_position(rng, words=14)
    photo = render_board_photo(tiles, seed=37, width=1600, height=1200)
    assert photo.options.glare == 0
    board = _rectified(photo.image, photo.corners)
    assert not colour_evidence(board, board_letters(board)).washed.any()


@pytest.mark.slow
def test_a_square_in_shadow_beside_a_tile_is_not_taken_for_a_blank() -> None:
    # A shadow shifts a*, b* as well as lightness: a beige square half in a tile's hard shadow
    # was a "blank" of 14 peer spreads (H7 and H9 here) before a face darker than the tiles'
    # was left out.
    image, corners = house_in_shadow((5.8, 6.8, 7.2, 8.2), 0.5)
    board = _rectified(image, corners)
    blanks = colour_blanks(board, board_letters(board)).reshape(15, 15)
    assert not blanks.any(), np.argwhere(blanks)
