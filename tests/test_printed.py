"""Premium print told by its repeating on the square's symmetric peers (``vision.cells.printed``):
an empty board printed with short labels has no tiles, and tiles on labelled squares are kept;
and labels the print check misses told by their colour (``vision.cells.facecolour``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from lab.render import RenderOptions, render_board_photo
from lab.stress import make_scene
from lab.stress.score import score_reading
from referee.boardtext import Tile
from referee.cells import Cell
from vision import DISPUTE_CONFIG, read_board, rectify
from vision.cells.printed import printed_squares

ON_DOUBLE_WORDS = {Cell.parse(cell): Tile.parse(tile) for cell, tile in {
    "B2": "C^", "C3": "A^", "D4": "T^", "E5": "S^", "K5": "E^", "H8": "O^", "L12": "R^",
    "M13": "E^", "N14": "Q^"}.items()}
"""Nine tiles, eight of them on double-word squares: each such square's print shows on at most
two of its three peers."""


@pytest.mark.parametrize(("labels", "at_most"), [("codes", 4), ("symbols", 0)])
@pytest.mark.parametrize("seed", [1, 2])
def test_an_empty_board_printed_with_short_labels_shows_few_tiles(labels: str, at_most: int,
                                                                   seed: int) -> None:
    """DW and TL, or a star and a diamond, in the middle of every premium square: 12 to 16 of
    them were read as tiles before. The codes' four left are the double words E5, K5, E11 and
    K11 (each other's peers), read as W: their prints did not all match at 0.9."""
    photo = render_board_photo({}, seed=seed, width=1280, height=960,
                               options=RenderOptions(tilt=15.0, premium_labels=labels))
    reading = read_board(photo.image, corners=photo.corners)
    assert len([cell for cell in reading.cells if cell.letter]) <= at_most


@pytest.mark.parametrize("labels", ["numbers", "symbols"])
def test_tiles_on_labelled_squares_are_not_taken_for_print(labels: str) -> None:
    photo = render_board_photo(ON_DOUBLE_WORDS, seed=5, width=1280, height=960,
                               options=RenderOptions(tilt=10.0, premium_labels=labels))
    board = rectify(photo.image, np.asarray(photo.corners, np.float64))
    found = printed_squares(board, np.ones(225, bool))
    printed = found.sure
    assert not any(printed[cell.row * 15 + cell.col] for cell in ON_DOUBLE_WORDS)
    assert not any(found.likely[cell.row * 15 + cell.col] for cell in ON_DOUBLE_WORDS)
    assert printed.sum() >= 20       # the labels of the squares left bare are print
    reading = read_board(photo.image, corners=photo.corners)
    read = {cell.cell: cell.letter for cell in reading.cells if cell.letter}
    placed = {cell.name: tile.letter for cell, tile in ON_DOUBLE_WORDS.items()}
    assert placed.items() <= read.items()


def test_only_the_cells_asked_about_are_looked_at() -> None:
    photo = render_board_photo({}, seed=1, width=1280, height=960,
                               options=RenderOptions(premium_labels="codes"))
    board = rectify(photo.image, np.asarray(photo.corners, np.float64))
    everywhere = printed_squares(board, np.ones(225, bool)).sure
    asked = np.zeros(225, bool)
    asked[np.flatnonzero(everywhere)[:3]] = True
    assert list(np.flatnonzero(printed_squares(board, asked).sure)) == list(np.flatnonzero(asked))


def test_a_label_one_of_whose_peers_shows_other_ink_is_likely_print() -> None:
    # D1 and its seven double-letter peers all print DL; a mark over one of them (a tile's letter,
    # an arm's shadow's edge) breaks the every-peer rule, not the all-but-one-in-three.
    photo = render_board_photo({}, seed=1, width=1280, height=960,
                               options=RenderOptions(premium_labels="codes"))
    board = rectify(photo.image, np.asarray(photo.corners, np.float64))
    px, margin = board.cell_px, board.margin_px
    label, peer = Cell.parse("D1"), Cell.parse("L1")
    before = printed_squares(board, np.ones(225, bool))
    assert before.sure[label.row * 15 + label.col]
    cv2.putText(board.image, "X", (margin + peer.col * px + px // 4, margin + px - px // 4),
                cv2.FONT_HERSHEY_SIMPLEX, px / 40, (20, 20, 20), max(1, px // 12))
    after = printed_squares(board, np.ones(225, bool))
    assert not after.sure[label.row * 15 + label.col]
    assert after.likely[label.row * 15 + label.col]
    # Two of its seven peers may be covered (two words crossing them), not three.
    for covered, likely in (("A4", True), ("O4", False)):
        cell = Cell.parse(covered)
        cv2.putText(board.image, "X", (margin + cell.col * px + px // 4,
                                       margin + cell.row * px + px - px // 4),
                    cv2.FONT_HERSHEY_SIMPLEX, px / 40, (20, 20, 20), max(1, px // 12))
        again = printed_squares(board, np.ones(225, bool))
        assert again.likely[label.row * 15 + label.col] == likely
        assert not again.sure[label.row * 15 + label.col]


@pytest.mark.slow
def test_labels_whose_peers_do_not_all_match_are_read_as_doubtful_squares() -> None:
    """A scene of the stress set: a classic board printed with codes, wood tiles under glare,
    found 0.22 of a cell off. Seven labels were read as tiles, each repeating on all its inked
    peers but one. They are squares now, each named as a doubt; no tile is lost."""
    scene = make_scene(100091)
    reading = read_board(scene.jpeg, config=DISPUTE_CONFIG)
    result = score_reading(scene, reading)
    assert result.found and result.missed_tiles == 0 and result.false_tiles <= 1
    named = {cell.name for warning in reading.warning_details for cell in warning.cells}
    assert {"G3", "I3", "G13", "I13"} <= named
    assert not {"G3", "I3", "G13", "I13"} & {cell.cell for cell in reading.cells}


@pytest.mark.slow
def test_labels_the_print_check_misses_are_squares_by_their_colour() -> None:
    """A scene of the stress set (``python -m bench stress``): a deluxe board printed with codes,
    a first word of black tiles, found 0.14 of a cell off at 45-60 degrees. The print check
    missed seven TW and DL labels, and the colour evidence took them for sure letter tiles,
    whose colour set the tiles': seven phantom tiles. The tiles' colour is the words' now (the
    board's largest group of tiles), and a red or blue square is far from it."""
    scene = make_scene(100239)
    result = score_reading(scene, read_board(scene.jpeg, config=DISPUTE_CONFIG))
    assert result.found and result.letters == 6
    assert result.false_tiles == 0 and result.missed_tiles == 0
