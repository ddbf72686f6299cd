"""Warnings name the right cells: after the view is turned, and for tiles read as empty."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from lab.render import RenderOptions, render_board_photo, soft_focus
from lab.truth import DEV_PHOTOS, photo_corners, read_truth
from referee.boardtext import Tile
from referee.cells import Cell
from tests.support.occupancy import DoubtingOccupancy
from vision.errors import ImageQualityError
from vision.known import Doubts
from vision.letters.classify import BLANK, TileGuess
from vision.letters.tuning import BOARD_PRIOR_MIN_TILES
from vision.overlay import DOUBT_BGR, draw_overlay
from vision.read import lone_turns, read_board
from vision.reading import BoardReading, CellReading
from vision.tuning import ReadConfig
from vision.warning import (
    ReadingWarning,
    WarningCode,
    blur_over,
    glare_over,
    may_hide_a_tile,
    maybe_tile_cells,
    off_its_square,
    off_square_cells,
    other_tile_set,
    other_tile_sets,
    reading_warnings,
    said_once,
    shadow_over,
    small_board,
    unsure_of_letter,
    unsure_whether_tile,
    warned_cells,
)

K3 = Cell.parse("K3")

def test_turning_a_reading_renames_the_cells_its_warnings_name() -> None:
    # South "auto" turns a sideways dispute photo upright: "glare over K3" has to follow the tile
    # to its new name, or the player is sent to the wrong square.
    on_k3 = (glare_over(K3), unsure_of_letter(K3, "B", "E"))
    k3 = CellReading(cell="K3", letter="B", rotation=0, confidence=0.4, warning_details=on_k3)
    reading = BoardReading((k3,), ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)),
                           (*on_k3, may_hide_a_tile(shadow_over(Cell.parse("A1"))),
                            unsure_whether_tile(Cell.parse("O15"))))
    assert reading.warnings == ("glare over K3", "unsure of the letter on K3 (B, maybe E)",
                                "shadow over A1 (may hide a tile)",
                                "unsure whether O15 holds a tile (read as empty)")
    turned = reading.turned(1)
    (cell,) = turned.cells
    assert cell.cell == "M11"  # column K, row 3 -> column 15 - 3 = M, row K = 11
    assert cell.warnings == ("glare over M11", "unsure of the letter on M11 (B, maybe E)")
    assert turned.warnings == ("glare over M11", "unsure of the letter on M11 (B, maybe E)",
                               "shadow over O1 (may hide a tile)",
                               "unsure whether A15 holds a tile (read as empty)")
    # The data turns with the words: the codes stay, the cells follow the tiles.
    assert [(w.code, [c.name for c in w.cells]) for w in turned.warning_details] == [
        ("glare", ["M11"]), ("unsure-letter", ["M11"]), ("shadow-may-hide-a-tile", ["O1"]),
        ("unsure-whether-tile", ["A15"])]
    # Four quarter turns are the reading itself.
    again = turned.turned(1).turned(1).turned(1)
    assert again.warning_details == reading.warning_details
    assert again.cells[0].warning_details == k3.warning_details


def test_a_warning_said_of_several_squares_is_said_once_naming_them_all() -> None:
    # A glossy photo's reading (kristopalka red_boards_014): twenty lines, of which seven say
    # "unsure whether ... holds a tile" and five "shadow over ...". A person reads four.
    cell = Cell.parse
    warnings = [unsure_of_letter(cell("A1"), "?", "K"), unsure_of_letter(cell("F1"), "?", "G"),
                *(may_hide_a_tile(shadow_over(cell(name))) for name in ("B2", "F2", "L4")),
                *(unsure_whether_tile(cell(name)) for name in ("B1", "C1", "E11")),
                off_its_square(K3), blur_over(K3), may_hide_a_tile(shadow_over(cell("B2")))]
    said = said_once(warnings)
    assert [warning.message for warning in said] == [
        "unsure of the letter on A1 (a blank, maybe K)",
        "unsure of the letter on F1 (a blank, maybe G)",
        "shadow over B2, F2 and L4 (may hide a tile)",
        "unsure whether B1, C1 or E11 holds a tile (read as empty)",
        "tile off its square on K3 (half on the next one: read as K3's)", "blur over K3"]
    # Said once, a warning names all its squares as data too, in the order first named.
    assert [[c.name for c in warning.cells] for warning in said][2:4] == [
        ["B2", "F2", "L4"], ["B1", "C1", "E11"]]
    assert warned_cells(said) == warned_cells(warnings)
    # The same letter doubted on two tiles is said once; a warning about the whole photo names
    # no square and stands as it is.
    small = small_board(12, 20, "move closer")
    assert [w.message for w in said_once([small, unsure_of_letter(cell("A1"), "E", "F"),
                                          blur_over(cell("A1")),
                                          unsure_of_letter(cell("C3"), "E", "F")])] == [
        small.message, "unsure of the letter on A1 and C3 (E, maybe F)", "blur over A1"]



def test_consumers_find_cells_by_code_so_a_reworded_warning_names_the_same_squares() -> None:
    # The words are for people and may change; what a program does with a warning must not.
    as_made = [may_hide_a_tile(glare_over(K3)), unsure_whether_tile(Cell.parse("B1")),
               off_its_square(Cell.parse("H8")), blur_over(Cell.parse("C3")),
               other_tile_set(3, ["german", "polish"], "english")]
    reworded = [ReadingWarning(w.code, w.cells, f"reworded {i}: the cells are not named here",
                               w.tile_sets) for i, w in enumerate(as_made)]
    for warnings in (as_made, reworded):
        assert maybe_tile_cells(warnings) == ["K3", "B1"]
        assert off_square_cells(warnings) == ["H8"]
        assert warned_cells(warnings) == ["K3", "B1", "H8", "C3"]
        assert other_tile_sets(warnings) == ["german", "polish"]
        assert [w.cells for w in said_once(warnings)] == [w.cells for w in as_made]
        reading = BoardReading((), ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)),
                               tuple(warnings))
        assert reading.warned_empty_cells() == ["K3", "B1"]
        assert Doubts.of_json(reading.to_json()).maybe_tiles == {K3, Cell.parse("B1")}
    # Two alike warnings reworded alike are still said once, naming both squares.
    twice = [ReadingWarning(WarningCode.UNSURE_WHETHER_TILE, (cell,), f"{cell.name}: a tile?")
             for cell in (K3, Cell.parse("B1"))]
    (once,) = said_once(twice)
    assert once.cells == (K3, Cell.parse("B1")) and once.message == "K3 or B1: a tile?"


def test_a_warning_goes_to_json_and_back_as_it_was() -> None:
    warnings = [may_hide_a_tile(glare_over(K3)), unsure_of_letter(K3, "Q", "O"),
                other_tile_set(2, ["german", "polish"], "english"),
                small_board(12, 20, "move the camera closer")]
    for warning in warnings:
        assert ReadingWarning.from_json(warning.to_json()) == warning
    assert warnings[0].to_json() == {"code": "glare-may-hide-a-tile", "cells": ["K3"],
                                     "message": "glare over K3 (may hide a tile)"}
    assert warnings[2].to_json()["tile_sets"] == ["german", "polish"]
    assert "tile_sets" not in warnings[3].to_json() and warnings[3].cells == ()
    # A code a newer reader gives is kept, and a reading's JSON gives its warnings back.
    future = {"code": "lens-dirty", "cells": ["A1", "O15"], "message": "wipe the lens"}
    assert ReadingWarning.from_json(future).to_json() == future
    assert reading_warnings({"warnings": ["wipe the lens"], "warning_details": [future]}) == [
        ReadingWarning.from_json(future)]
    assert reading_warnings({"warnings": []}) == []


@pytest.mark.parametrize("detail", [
    "glare over K3", {"cells": ["K3"], "message": "glare"}, {"code": "", "message": "x"},
    {"code": "glare", "cells": ["Z99"], "message": "x"}, {"code": "glare", "cells": "K3",
                                                         "message": "x"},
    {"code": "glare", "cells": [], "message": None},
    {"code": "other-tile-set", "message": "x", "tile_sets": "german"}])
def test_a_malformed_warning_is_a_value_error(detail) -> None:
    with pytest.raises(ValueError):
        ReadingWarning.from_json(detail)
    with pytest.raises(ValueError):
        reading_warnings({"warning_details": [detail]})


@pytest.mark.slow
def test_an_empty_cell_that_might_hold_a_tile_is_named() -> None:
    # A blank missed by occupancy looks like this: no letter, a tile's face, a probability under
    # one half. The reading keeps it empty but says so, rather than change a word silently.
    tiles = {Cell(col, 7): Tile(letter, False, None)
             for col, letter in zip(range(5, 10), "HOUSE", strict=True)}
    photo = render_board_photo(tiles, seed=5, width=1600, height=1200,
                               options=RenderOptions.clean())
    doubts = {Cell.parse("C3"): 0.3, Cell.parse("M12"): 0.1}
    reading = read_board(photo.image, corners=photo.corners,
                         occupancy=DoubtingOccupancy(doubts))  # type: ignore[arg-type]
    assert "".join(r.letter for r in reading.cells) == "HOUSE"
    unsure = [w for w in reading.warnings if w.startswith("unsure whether")]
    assert unsure == ["unsure whether C3 holds a tile (read as empty)"]
    # Every cell read as empty says how sure: one less the model's probability of a tile.
    assert reading.empty["C3"] == 0.7 and reading.empty["M12"] == 0.9
    assert len(reading.empty) == 225 - 5 and reading.empty["A1"] == 1.0


def test_the_overlay_boxes_the_empty_cells_warnings_name() -> None:
    corners = ((100.0, 100.0), (850.0, 100.0), (850.0, 850.0), (100.0, 850.0))  # 50 px cells
    h8 = CellReading(cell="H8", letter="A", rotation=0, confidence=0.95,
                     warning_details=(glare_over(Cell.parse("H8")),))
    warned = BoardReading((h8,), corners, (glare_over(Cell.parse("H8")),
                                           may_hide_a_tile(glare_over(Cell.parse("C3"))),
                                           shadow_over(Cell.parse("K5")),
                                           unsure_whether_tile(Cell.parse("M12"))))
    # A shadow the model saw no tile under is light, not a square to check again.
    assert warned.warned_empty_cells() == ["C3", "M12"]
    plain = BoardReading((h8,), corners, (glare_over(Cell.parse("H8")),))
    assert plain.warned_empty_cells() == []
    photo = np.full((950, 950, 3), 255, np.uint8)

    def doubt_pixels(reading: BoardReading, cell: Cell) -> int:
        drawn = draw_overlay(photo, reading)
        x0, y0 = 100 + 50 * cell.col, 100 + 50 * cell.row
        inside = drawn[y0 + 3:y0 + 47, x0 + 3:x0 + 47].reshape(-1, 3)
        return int(np.all(np.abs(inside.astype(int) - DOUBT_BGR) < 40, axis=1).sum())

    for name in ("C3", "M12"):
        assert doubt_pixels(warned, Cell.parse(name)) > 50
        assert doubt_pixels(plain, Cell.parse(name)) == 0


@pytest.mark.slow
def test_a_board_small_in_the_photo_is_read_with_a_warning_that_says_so() -> None:
    # A chat app's copy of a real photo, a third of its size: 12 px a cell, where about one
    # letter in twenty is read wrong (ReadConfig.small_cell_px). The full-size photo (35 px a
    # cell) reads without that warning.
    photo = DEV_PHOTOS / "jheidel__scrabble-opencv__IMG_20151016_170803.jpg"
    corners = photo_corners(read_truth(photo))
    image = cv2.imread(str(photo))
    full = read_board(image, corners=corners)
    assert not [w for w in full.warnings if w.startswith("board small")]
    small = read_board(cv2.resize(image, None, fx=0.35, fy=0.35, interpolation=cv2.INTER_AREA),
                       corners=corners * 0.35)
    assert small.warnings[0] == ("board small in the photo (cells 12 px across, 20 or more read "
                                 "best): move the camera closer or use a larger photo")
    assert len(small.cells) >= 90  # still read: the warning tells, it does not refuse
    # It names no cell, so turning the reading (south "auto") leaves it as it is.
    assert small.turned(1).warnings[0] == small.warnings[0]


@pytest.mark.slow
def test_a_small_photo_refused_for_blur_asks_for_a_closer_or_larger_photo() -> None:
    # The same photo at 0.35 of its size and a little soft, as a chat app's copy can be: enlarged
    # to the 48 px cell, its 13 px cells smear past the limit, and a steadier hand alone would
    # not mend that, so the refusal says how small the cells are and asks for a closer photo.
    photo = DEV_PHOTOS / "jheidel__scrabble-opencv__IMG_20151016_170755.jpg"
    corners = photo_corners(read_truth(photo))
    image = cv2.resize(cv2.imread(str(photo)), None, fx=0.35, fy=0.35,
                       interpolation=cv2.INTER_AREA)
    with pytest.raises(ImageQualityError) as refused:
        read_board(cv2.GaussianBlur(image, (0, 0), 0.8), corners=corners * 0.35)
    assert re.fullmatch(r"photo too blurry to read the tiles \(edges smeared over 1\d of a "
                        r"cell's 48 px, 10 at most; the board's cells are 13 px across in the "
                        r"photo, 20 or more read best\): move the camera closer or use a larger "
                        r"photo, and hold it still", str(refused.value))
    # A board of a fair size, as blurred, is still told to hold the camera still.
    with pytest.raises(ImageQualityError, match=r"10 at most\): hold the camera still$"):
        read_board(cv2.GaussianBlur(cv2.imread(str(photo)), (0, 0), 3.0), corners=corners)


def _blanks_board(count: int):
    """A clean render of a word with ``count`` blank tiles (no letter printed) after it."""
    tiles = {Cell(col, 7): Tile(letter, False, None)
             for col, letter in zip(range(3, 8), "WORDS", strict=True)}
    tiles.update({Cell(col, 7): Tile("E", True, None) for col in range(8, 8 + count)})
    return render_board_photo(tiles, seed=8, width=1600, height=1200,
                              options=RenderOptions.clean())


@pytest.mark.slow
def test_more_blanks_than_the_set_holds_are_each_unsure() -> None:
    # An English set has two blanks. Read four, and at least two of them are letters too faint
    # to see: each is believed at most 2/4 and flagged, where two blanks read stand unflagged.
    two = _blanks_board(2)
    reading = read_board(two.image, corners=two.corners)
    blanks = [c for c in reading.cells if c.blank]
    assert len(blanks) == 2 and all(c.confidence > 0.5 for c in blanks)
    assert not [w for w in reading.warnings if w.startswith("unsure of the letter")]
    for count in (3, 4):
        # Each is flagged however surely it was read: three are believed up to 2/3, above the
        # confidence a letter is flagged under.
        board = _blanks_board(count)
        reading = read_board(board.image, corners=board.corners)
        blanks = [c for c in reading.cells if c.blank]
        assert len(blanks) == count and all(c.confidence <= round(2 / count, 3)
                                            for c in blanks)
        for cell in blanks:
            assert any(w.startswith(f"unsure of the letter on {cell.cell} (a blank, maybe ")
                       for w in reading.warnings)
        assert [c.letter for c in reading.cells if not c.blank] == list("WORDS")


@pytest.mark.slow
def test_blur_is_named_where_the_photo_is_soft_and_never_on_a_sharp_blank() -> None:
    # Two words, each with a blank after it: WORDS? on row 4 and FIELD? on row 10, columns C-H.
    # Sharp, no tile is called blurred, the blanks included (a blank has no ink to be sharp
    # with). With the photo soft from column F in rows 1-6, the tiles there are named, and so is
    # the blank among them (a letter blurred away reads as a blank); the rest is not.
    tiles = {Cell(col, 3): Tile(letter, False, None)
             for col, letter in zip(range(2, 7), "WORDS", strict=True)}
    tiles.update({Cell(col, 9): Tile(letter, False, None)
                  for col, letter in zip(range(2, 7), "FIELD", strict=True)})
    tiles[Cell(7, 3)] = tiles[Cell(7, 9)] = Tile("E", True, None)
    photo = render_board_photo(tiles, seed=11, width=1600, height=1200,
                               options=RenderOptions.clean())
    sharp = read_board(photo.image, corners=photo.corners)
    assert sorted(c.cell for c in sharp.cells if c.blank) == ["H10", "H4"]
    assert not [w for w in sharp.warnings if w.startswith("blur over")]
    soft = read_board(soft_focus(photo.image, photo.corners, (5, 16), (-1, 6), 0.04),
                      corners=photo.corners)
    assert [c.cell for c in soft.cells] == [c.cell for c in sharp.cells]
    named = [w.removeprefix("blur over ") for w in soft.warnings if w.startswith("blur over")]
    assert named == ["F4", "G4", "H4"]


@pytest.mark.slow
def test_a_sharp_blank_on_a_real_photo_is_not_called_blurred() -> None:
    # jheidel 170717: a sharp photo with a wooden blank on O10 and another on O15. Judged by its
    # own face (no ink, so little detail) each blank was "blur over O10"; judged by the lettered
    # tiles around it, as blur is, neither is, and no other tile either.
    photo = DEV_PHOTOS / "jheidel__scrabble-opencv__IMG_20151016_170717.jpg"
    reading = read_board(cv2.imread(str(photo)), corners=photo_corners(read_truth(photo)))
    assert {"O10", "O15"} <= {c.cell for c in reading.cells if c.blank}
    assert not [w for w in reading.warnings if w.startswith("blur over")]


@pytest.mark.slow
def test_a_tile_turned_unlike_every_other_is_found_and_weighed_by_its_own_bar() -> None:
    # Eight tiles facing South and one facing North: the board's rotations back the eight, not
    # the one, so it needs ReadConfig.lone_turn_confidence to pass unflagged. A bar above any
    # confidence flags it, and it alone; the everyday bar leaves this sharp render unflagged.
    tiles = {Cell(3 + i, 7): Tile(letter, rotation=0) for i, letter in enumerate("STANDING")}
    tiles[Cell(7, 8)] = Tile("K", rotation=180)
    photo = render_board_photo(tiles, seed=4243, width=1600, height=1200)
    everyday = read_board(photo.image, corners=photo.corners)
    read = {cell.cell: cell for cell in everyday.cells}
    assert read["H9"].letter == "K" and read["H9"].rotation == 180
    assert not [w for w in everyday.warnings if w.startswith("unsure of the letter")]
    strict = read_board(photo.image, corners=photo.corners,
                        config=ReadConfig(lone_turn_confidence=1.01))
    (flag,) = [w for w in strict.warnings if w.startswith("unsure of the letter")]
    assert flag.startswith("unsure of the letter on H9 (K, maybe ")


def test_only_a_lettered_tile_alone_at_its_rotation_on_a_big_enough_board_is_lone() -> None:
    guesses = [TileGuess("A", 0, 0.99, "R")] * 7 + [TileGuess("Q", 180, 0.7, "O"),
                                                     TileGuess(BLANK, 90, 0.9, "I")]
    # The blank faces a way of its own but shows no way up; the Q is the one tile turned alone.
    assert lone_turns(guesses) == [False] * 7 + [True, False]
    # Two tiles turned alike back each other.
    assert lone_turns([*guesses, TileGuess("U", 180, 0.9, "V")])[7] is False
    # Under BOARD_PRIOR_MIN_TILES tiles the board says nothing of rotations.
    few = guesses[:BOARD_PRIOR_MIN_TILES - 2] + [guesses[7]]
    assert not any(lone_turns(few))
