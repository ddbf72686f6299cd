"""Light print on dark faces (``vision.polarity``, ``lettered_light``): black plastic tiles are
read on the board's negative, and a light-tile board with light labels is not."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.render import RenderOptions, render_board_photo
from lab.truth import DEV_PHOTOS, photos_with_truth, read_truth
from referee.boardtext import Tile
from referee.cells import Cell
from tests.support.occupancy import truth_board
from vision import read_board, rectify
from vision.cells.letterevidence import lettered_light
from vision.polarity import light_print

WORDS = {Cell.parse(cell): Tile.parse(tile) for cell, tile in {
    "F8": "Q^", "G8": "U^", "H8": "I^", "I8": "Z^", "H6": "J^", "H7": "O^", "H9": "K^",
    "H10": "E^", "D11": "W^", "E11": "A^", "F11": "X^"}.items()}
"""A few words over plain and premium squares, letters of many shapes."""


def crop(face: int, ink: int, letter: str = "R") -> np.ndarray:
    """A 48-px grey crop: ``letter`` in ``ink`` on a ``face``, as a tile."""
    image = np.full((48, 48), face, np.uint8)
    cv2.putText(image, letter, (12, 36), cv2.FONT_HERSHEY_SIMPLEX, 1.1, int(ink), 4)
    return image


def test_light_letters_on_dark_faces_are_told() -> None:
    stack = np.stack([crop(210, 40), crop(35, 230), np.full((48, 48), 120, np.uint8),
                      crop(35, 230, "O")])
    assert list(light_print(stack, 9)) == [False, True, False, True]


def test_a_light_tile_half_in_shadow_keeps_its_dark_letter() -> None:
    tile = crop(215, 45).astype(np.int16)
    tile[:, :28] -= 90                                     # an arm's shadow over its left part
    assert not light_print(np.clip(tile, 0, 255).astype(np.uint8)[None], 9)[0]


@pytest.mark.parametrize("style", ["modern", "green", "deluxe", "travel"])
def test_light_labels_on_a_light_tile_board_are_not_read_inverted(style: str) -> None:
    """These editions print their labels light (a white 3W on red): read inverted, each was a
    dark letter-sized mark, a phantom tile (226 more on the stress set when every cell chose its
    own polarity)."""
    photo = render_board_photo(WORDS, seed=3, width=1280, height=960, options=RenderOptions(
        board_style=style, premium_labels="codes", tilt=12.0))
    board = rectify(photo.image, np.asarray(photo.corners, np.float64))
    assert not lettered_light(board)
    reading = read_board(photo.image, corners=photo.corners)
    read = {cell.cell for cell in reading.cells if cell.letter}
    assert read == {cell.name for cell in WORDS}


@pytest.mark.parametrize(("style", "labels"), [("classic", "words"), ("green", "words"),
                                              ("travel", "none")])
def test_black_plastic_tiles_are_found_and_read(style: str, labels: str) -> None:
    """Before light print was inverted, every black tile's "ink" was its whole body and no
    letter was seen: the stress set's black tiles were 93 % of cells and 27 % of letters right
    with a model that had not seen them."""
    photo = render_board_photo(WORDS, seed=4, width=1280, height=960, options=RenderOptions(
        board_style=style, premium_labels=labels, tile_colour="black plastic", tilt=12.0))
    assert lettered_light(rectify(photo.image, np.asarray(photo.corners, np.float64)))
    reading = read_board(photo.image, corners=photo.corners)
    read = {cell.cell: (cell.letter, cell.rotation) for cell in reading.cells if cell.letter}
    assert read == {cell.name: (tile.letter, 0) for cell, tile in WORDS.items()}


def test_no_truth_photo_is_read_as_its_negative() -> None:
    """Every truth photo's tiles are lettered dark, among them wood tiles on a white board whose
    crops, edged with white board, pass for light print one by one."""
    boards = [truth_board(photo)[0] for photo in photos_with_truth(DEV_PHOTOS)
              if read_truth(photo).corners]
    assert len(boards) >= 31
    assert not any(lettered_light(board) for board in boards)
    # ...and read as their negative, their tiles' letters would be light print: so they are.
    negative = truth_board(DEV_PHOTOS / "DeclanFinerty__scrabble-vision__eval_board.jpeg")[0]
    assert lettered_light(replace(negative, image=255 - negative.image))


def test_the_black_plastic_sample_photo_reads_as_its_truth() -> None:
    """``samples/photos/black-plastic.jpg``, read as ``tileref read`` reads it (no corners):
    every tile, the blank played as I among them, as the renderer's truth sidecar says."""
    photo = Path(__file__).resolve().parents[1] / "samples" / "photos" / "black-plastic.jpg"
    truth = read_truth(photo)
    expected = {Cell(col, row).name: "?" if cell.blank else cell.letter
                for row, line in enumerate(truth.grid) for col, cell in enumerate(line)
                if cell.letter is not None}
    reading = read_board(str(photo))
    assert len(expected) == 26
    assert {cell.cell: cell.letter for cell in reading.cells} == expected
