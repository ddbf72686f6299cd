"""Tiles lying half on the next square: found from their letter, read, and named."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from lab.truth import UNLABELLED_PHOTOS
from referee.cells import Cell
from tests.support.plainboard import CELL_PX, MARGIN_PX
from tests.support.plainboard import plain_board as _board
from tests.support.plainboard import tile_face as _face
from vision.board.rectify import RectifiedBoard
from vision.letters.classify import TileClassifier
from vision.letters.tilecentre import stray_letters
from vision.letters.tuning import HALF_OFF, PUSHED
from vision.read import read_board, read_rectified
from vision.tuning import DISPUTE_CONFIG, ReadConfig
from vision.warning import WarningCode

OFF = ReadConfig(off_square_sure=2.0)
"""The reading as it was before off-square tiles were looked for."""
WORD = "QUIZ"
ROW = 7
PUSH = -20
"""Pixels left every tile of :data:`WORD` is pushed: 0.42 of a 48 px cell, so the last tile
lies nearly half on the square of the one before it and the occupancy model misses it."""
ALPHABET = UNLABELLED_PHOTOS / "francescov1__scrabble-vision__IMG_0967.jpg"
"""A through Z in rows of five from F5 (Z alone on F10), tiles packed edge to edge: being
narrower than the squares, each row's fifth tile lies half on the fourth's square (checked by
eye; the photo has no truth file)."""


def _pushed_word() -> tuple[dict[tuple[int, int], np.ndarray], RectifiedBoard]:
    faces = {(5 + i, ROW): _face(letter) for i, letter in enumerate(WORD)}
    return faces, _board(faces, {cell: (PUSH, 0) for cell in faces})


def test_a_letter_on_an_empty_cells_edge_is_stray_unless_a_tile_owns_it() -> None:
    faces, board = _pushed_word()
    last = (5 + len(WORD) - 1, ROW)
    others = [cell for cell in faces if cell != last]
    empty = [(col, row) for row in range(15) for col in range(15) if (col, row) not in others]
    stray = stray_letters(board, dict.fromkeys(empty, HALF_OFF), others)
    assert [cell for cell, _ in stray] == [last]
    offset = stray[0][1]
    assert HALF_OFF <= abs(offset[0]) <= 0.5 and offset[0] < 0
    assert abs(offset[0] - PUSH / CELL_PX) < 0.1 and abs(offset[1]) < 0.1
    # Read as a tile, the last cell's letter is its own; on their squares no letter is stray.
    assert stray_letters(board, dict.fromkeys(empty, PUSHED), list(faces)) == []
    centred = _board(faces)
    assert stray_letters(centred, dict.fromkeys(empty, PUSHED), list(faces)) == []


def test_ink_too_near_a_tiles_letter_is_that_tile_not_another() -> None:
    """A dark bar of a letter's size half a cell left of an empty square: beside a tile whose
    letter lies half a cell from it (a tile's shadowed side), it is no tile of its own, since
    two tiles cannot overlap; with no tile there it is a stray letter."""
    faces = {(6, ROW): _face("E")}
    board = _board(faces)
    x = MARGIN_PX + 7 * CELL_PX + 2
    y = MARGIN_PX + ROW * CELL_PX + CELL_PX // 4
    board.image[y:y + CELL_PX // 2, x:x + 5] = (20, 20, 20)
    empty = [(col, row) for row in range(15) for col in range(15) if (col, row) != (6, ROW)]
    assert stray_letters(board, dict.fromkeys(empty, HALF_OFF), [(6, ROW)]) == []
    alone = _board({})
    alone.image[y:y + CELL_PX // 2, x:x + 5] = (20, 20, 20)
    assert [cell for cell, _ in stray_letters(alone, dict.fromkeys(empty, HALF_OFF), [])] == [
        (7, ROW)]


@pytest.mark.slow
def test_a_tile_half_on_the_next_square_is_read_and_named() -> None:
    """Without the search the last tile of the word is read as empty (here with a doubt named);
    with it the word is read whole and the tile carries the warning that it lies off its
    square, in place of the doubt."""
    classifier = TileClassifier.load()
    _, board = _pushed_word()
    last = Cell(5 + len(WORD) - 1, ROW).name
    before = read_rectified(board, np.zeros((4, 2)), classifier=classifier, config=OFF)
    assert "".join(cell.letter for cell in before.cells) == WORD[:-1]
    assert before.warnings == (f"unsure whether {last} holds a tile (read as empty)",)
    after = read_rectified(board, np.zeros((4, 2)), classifier=classifier)
    assert "".join(cell.letter for cell in after.cells) == WORD
    tile = next(cell for cell in after.cells if cell.cell == last)
    assert tile.warnings == (f"tile off its square on {last} (half on the next one: read as "
                             f"{last}'s)",)
    assert [(w.code, w.cells) for w in tile.warning_details] == [
        (WarningCode.OFF_SQUARE, (Cell.parse(last),))]
    assert after.warnings == tile.warnings


@pytest.mark.slow
def test_a_tile_half_on_two_empty_squares_is_named_not_placed() -> None:
    """An E below a word's last tile, pushed 0.42 cell left, half over the empty square beside
    its own: no tile stands beside it to say which square is its, so it is not read on either,
    but the cell it mostly lies on is named, where before nothing was said."""
    classifier = TileClassifier.load()
    faces = {(5, ROW): _face("Q"), (6, ROW): _face("U"), (7, ROW): _face("I"),
             (7, ROW + 1): _face("E")}
    board = _board(faces, {(7, ROW + 1): (PUSH, 0)})
    cell = Cell(7, ROW + 1).name
    before = read_rectified(board, np.zeros((4, 2)), classifier=classifier, config=OFF)
    after = read_rectified(board, np.zeros((4, 2)), classifier=classifier)
    for reading in (before, after):
        assert [tile.letter for tile in reading.cells] == ["Q", "U", "I"]
    assert before.warnings == ()
    assert after.warnings == (f"unsure whether {cell} holds a tile (read as empty)",)


@pytest.mark.slow
def test_tiles_pushed_aside_that_the_occupancy_model_missed_are_found() -> None:
    """A render of ``bench offsquare`` (tiles two cells apart, each pushed up to 0.35 cell its
    own way): the model alone missed six of its 32 tiles, their letters 0.17-0.38 cell off;
    the look where each letter lies finds four or five of them, each with its letter, and takes
    no square for a tile; a tile left unread is named as a doubt (five, until the tiles' colour
    was learnt on plain squares and the occupancy model retrained: G15 is named now). A tile
    mostly on its own square is read without a word: it is not half on another."""
    from bench.bench_offsquare import jittered_board

    photo = jittered_board(9111, "apart")
    truth = {cell.name: tile.letter for cell, tile in photo.tiles.items()}
    before = read_board(photo.image, corners=photo.corners, config=OFF)
    after = read_board(photo.image, corners=photo.corners)
    seen_before = {cell.cell: cell.letter for cell in before.cells}
    seen_after = {cell.cell: cell.letter for cell in after.cells}
    assert set(seen_before) <= set(seen_after) <= set(truth)
    found = {name: letter for name, letter in seen_after.items() if name not in seen_before}
    assert found == {name: truth[name] for name in found} and len(found) >= 4
    unread = set(truth) - set(seen_after)
    assert all(any(name in w for w in after.warnings) for name in unread)
    assert not any(w.code == WarningCode.OFF_SQUARE for w in after.warning_details)


@pytest.mark.slow
def test_a_photo_of_tiles_packed_tighter_than_the_squares_reads_every_letter() -> None:
    """The alphabet laid in rows of five: J and O, each half on the square before it, were
    read as empty (J with no warning at all); now they are read, those two named. Every other
    letter is read, or named as a doubt: since the occupancy model was retrained with the tiles'
    colour learnt on plain squares, the Y (J9) is "unsure whether J9 holds a tile"."""
    reading = read_board(ALPHABET, config=DISPUTE_CONFIG)
    letters = {cell.cell: cell.letter for cell in reading.cells}
    expected = {Cell(5 + i % 5, 4 + i // 5).name: chr(ord("A") + i) for i in range(26)}
    assert letters.items() <= expected.items() and len(letters) >= 25
    assert {"J6", "J7"} <= set(letters)
    assert all(any(cell in w for w in reading.warnings) for cell in set(expected) - set(letters))
    named = sorted(w.message for w in reading.warning_details if w.code == WarningCode.OFF_SQUARE)
    assert named == [f"tile off its square on {cell} (half on the next one: read as {cell}'s)"
                     for cell in ("J6", "J7")]
    before = read_board(ALPHABET, config=dataclasses.replace(DISPUTE_CONFIG, off_square_sure=2.0))
    assert {"J6", "J7"}.isdisjoint(cell.cell for cell in before.cells)
