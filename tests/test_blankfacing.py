"""A blank faces the way the tiles laid beside it face, not the classifier's guess."""

from __future__ import annotations

import cv2
import pytest

from lab.render import RenderOptions, render_board_photo
from lab.truth import DEV_PHOTOS, photo_corners, read_truth
from referee.boardtext import Tile
from referee.cells import Cell, Seat
from vision.letters.blankfacing import face_blanks
from vision.read import read_board
from vision.reading import CellReading


def cells(spec: str) -> list[CellReading]:
    """``"H8:A0 I8:?90"``: cell, letter (``?`` a blank), rotation."""
    out = []
    for item in spec.split():
        cell, face = item.split(":")
        out.append(CellReading(cell, face[0], int(face[1:]), blank=face[0] == "?"))
    return out


def rotations(readings: list[CellReading]) -> dict[str, int]:
    return {reading.cell: reading.rotation for reading in readings}


def test_a_blank_faces_the_longest_line_of_tiles_beside_it():
    # North's CA? runs left of the blank (two tiles facing 180); a South tile touches it below.
    board = cells("F8:C180 G8:A180 H8:?90 H9:S0 J12:X0 K12:Y0")
    assert rotations(face_blanks(board))["H8"] == 180
    # With South's line below it longer, South's it is.
    board = cells("F8:C180 G8:A180 H8:?90 H9:S0 H10:O0 H11:N0")
    assert rotations(face_blanks(board))["H8"] == 0


def test_a_tie_beside_a_blank_goes_the_boards_way_and_a_tie_there_keeps_the_guess():
    tied = "G8:A180 H8:?90 I8:T0"
    assert rotations(face_blanks(cells(tied + " A1:B270 A2:C270")))["H8"] == 270
    assert rotations(face_blanks(cells(tied)))["H8"] == 90  # 180 and 0 tie: the guess stays
    assert rotations(face_blanks(cells("H8:?90 A1:Q0 A2:Z0 A4:E90")))["H8"] == 0  # nothing beside


def test_lettered_tiles_and_blanks_beside_blanks_are_left_as_read():
    board = cells("G8:A180 H8:?90 I8:?270 J8:T0 K8:O0")
    faced = rotations(face_blanks(board))
    assert faced == {"G8": 180, "H8": 180, "I8": 0, "J8": 0, "K8": 0}


@pytest.mark.slow
def test_a_blank_in_norths_word_on_a_rendered_two_seat_board_faces_north():
    # South's WORDS along row 8, North's J, T and a blank on column H, through South's O: the
    # blank on H10 is North's. Read alone, its face says nothing about which way is up (the
    # classifier's guess on this render is 90).
    tiles = {Cell(col, 7): Tile(letter, False, Seat.S.rotation)
             for col, letter in zip(range(6, 11), "WORDS", strict=True)}
    north = Seat.N.rotation
    tiles.update({Cell(7, 8): Tile("T", False, north), Cell(7, 9): Tile("E", True, north),
                  Cell(7, 6): Tile("J", False, north)})
    photo = render_board_photo(tiles, seed=6, width=1600, height=1200,
                               options=RenderOptions.clean())
    reading = read_board(photo.image, corners=photo.corners)
    blanks = {c.cell: c.rotation for c in reading.cells if c.blank}
    assert blanks == {"H10": 180}


@pytest.mark.slow
def test_the_blanks_of_a_real_board_face_the_way_its_tiles_do():
    # jheidel 170717 and 170320: every tile faces the camera's far side, blanks on O10 and O15.
    # The classifier's own guesses for them, once turned: 180 and 90 on 170717, 180 and 0 on
    # 170320.
    for name in ("IMG_20151016_170717.jpg", "IMG_20151016_170320.jpg"):
        photo = DEV_PHOTOS / f"jheidel__scrabble-opencv__{name}"
        truth = read_truth(photo)
        reading = read_board(cv2.imread(str(photo)), corners=photo_corners(truth))
        turned = reading.turned(truth.orientation // 90)
        blanks = {c.cell: c.rotation for c in turned.cells if c.blank}
        assert blanks == {"O10": 0, "O15": 0}, name
