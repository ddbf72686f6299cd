"""The mark above a national letter: found on real tiles, never made up on bare ones."""

from __future__ import annotations

import numpy as np
import pytest

from lab.render import RenderOptions, render_board_photo
from lab.truth import DEV_PHOTOS, UNLABELLED_PHOTOS, read_truth, tile_set_for
from referee.boardtext import Tile
from referee.cells import Cell
from referee.tiles import load_tile_set
from vision.board.rectify import rectify
from vision.image import load_image
from vision.letters.classify import TileClassifier, TileGuess, class_label
from vision.letters.diacritics import (
    mark_above,
    marked_twins,
    marks_above,
    marks_unread,
    read_marks,
    unseen_letters,
)
from vision.letters.tuning import CROP_PAD, MIN_MARK
from vision.read import read_board
from vision.reading import BoardReading
from vision.tuning import DEFAULT_CONFIG, DISPUTE_CONFIG
from vision.warning import WarningCode, maybe_tile_cells

POLISH = load_tile_set("polish").letters
POLISH_BOARD = DEV_PHOTOS / "kristopalka__scrabble-solver__red_boards_013.jpg"


def test_twins_come_from_unicode_not_from_a_list_per_language() -> None:
    assert marked_twins(POLISH) == {"C": ("Ć",), "N": ("Ń",), "O": ("Ó",), "S": ("Ś",),
                                    "Z": ("Ź", "Ż")}  # Ą, Ę (below) and Ł (through) are not
    assert marked_twins(load_tile_set("german").letters) == {"A": ("Ä",), "O": ("Ö",),
                                                            "U": ("Ü",)}
    assert marked_twins(load_tile_set("english").letters) == {}


def test_letters_a_set_cannot_see_are_those_of_another_set_with_no_mark_above() -> None:
    english, german = load_tile_set("english").letters, load_tile_set("german").letters
    assert unseen_letters(english, POLISH) == "ĄĘŁ"  # Ć, Ń, ... are seen by their marks
    assert unseen_letters(english, german) == ""
    assert unseen_letters(POLISH, german) == ""  # nor Q, V, X: no letter with a mark
    assert unseen_letters(POLISH, POLISH) == ""


def _letter_with(*extra: tuple[int, int, int, int]) -> np.ndarray:
    """A 48 px ink map with a letter-sized bar in the middle and small extra blobs (x, y, w, h)."""
    ink = np.zeros((48, 48), np.float32)
    ink[16:36, 16:32] = 1.0
    for x, y, w, h in extra:
        ink[y:y + h, x:x + w] = 1.0
    return ink


def test_a_mark_hugging_the_letters_top_counts_and_a_tiles_edge_does_not() -> None:
    assert mark_above(_letter_with()) == 0.0
    accent = mark_above(_letter_with((22, 12, 4, 3)))       # 1 px above the letter
    assert accent == pytest.approx(12 / 320)
    assert mark_above(_letter_with((22, 6, 4, 3))) == 0.0    # far above: a speck, no mark
    assert mark_above(_letter_with((8, 12, 32, 2))) == 0.0   # a strip: the tile's own edge
    assert mark_above(_letter_with((22, 38, 4, 3))) == 0.0   # below the letter
    assert mark_above(_letter_with((22, 14, 1, 1))) == 0.0   # one pixel of noise


def _polish_crops() -> tuple[list[np.ndarray], list[str], list[int]]:
    """Every tile of the real Polish board cut upright from its truth corners, with its truth
    letter and rotation."""
    truth = read_truth(POLISH_BOARD)
    board = rectify(load_image(POLISH_BOARD), np.array(truth.corners),
                    cell_px=DEFAULT_CONFIG.cell_px, margin_cells=DEFAULT_CONFIG.margin_cells,
                    tile_lift=DEFAULT_CONFIG.tile_lift)
    crops, letters, rotations = [], [], []
    for col, row in truth.occupied():
        cell = truth.grid[row][col]
        assert cell.letter is not None
        crops.append(board.cell_image(col, row, pad=CROP_PAD))
        letters.append(cell.letter)
        rotations.append(cell.rotation or 0)
    return crops, letters, rotations


def test_real_polish_tiles_read_as_bare_letters_are_turned_into_their_marked_twins() -> None:
    # As a model that never saw a Polish tile reads them: every Ń, Ó, Ć, Ż, Ź as its bare letter
    # at 0.98, the twin at 0.01. Their marks make them national letters again, with the
    # classifier's low share as the confidence; the board's bare N, C, O, S, Z stay as they are.
    crops, truth, rotations = _polish_crops()
    classifier = TileClassifier.load()
    labels = list(classifier.model.labels)
    twins = marked_twins(POLISH)
    guesses, rows = [], []
    for letter, rotation in zip(truth, rotations, strict=True):
        bare = next((base for base, marked in twins.items() if letter in marked), letter)
        probs = np.zeros(len(labels))
        probs[labels.index(class_label(bare, rotation))] = 0.98
        for twin in twins.get(bare, ()):
            probs[labels.index(class_label(twin, rotation))] = 0.01
        guesses.append(TileGuess(bare, rotation, 0.98, twins.get(bare, ("?",))[0]))
        rows.append(probs)
    read = read_marks(crops, guesses, np.array(rows), classifier, POLISH)
    national = [i for i, letter in enumerate(truth) if letter in "ŃÓĆŚŹŻ"]
    assert len(national) == 5
    for i in national:
        assert read[i].letter in twins[guesses[i].letter], (truth[i], read[i])
        assert read[i].confidence < 0.1 and read[i].runner_up == guesses[i].letter
    # Of the two twins of Z the one the classifier found likelier is taken: here a tie.
    assert sum(read[i].letter == truth[i] for i in national) >= 4
    bare_twins = [i for i, letter in enumerate(truth) if letter in twins]
    assert len(bare_twins) >= 15
    assert all(read[i] == guesses[i] for i in bare_twins)
    assert all(mark_above(np.rot90(crop_ink, rotations[i] // 90)) < MIN_MARK
               for i, crop_ink in _inks(crops, bare_twins))


def _inks(crops: list[np.ndarray], which: list[int]) -> list[tuple[int, np.ndarray]]:
    from vision.letters.classify import ink_maps

    return list(zip(which, ink_maps([crops[i] for i in which]), strict=True))


def test_letters_without_marked_twins_are_left_alone() -> None:
    crops, truth, rotations = _polish_crops()
    classifier = TileClassifier.load()
    guesses = [TileGuess("E", rotation, 0.9, "F") for rotation in rotations]
    probs = np.full((len(crops), len(classifier.model.labels)), 1e-3)
    assert read_marks(crops, guesses, probs, classifier, POLISH) == guesses


GERMAN_BOARD = DEV_PHOTOS / "scrabscrap__scrabble-scraper__board-neu_board-00.jpg"
ENGLISH_BOARD = DEV_PHOTOS / "jheidel__scrabble-opencv__IMG_20151016_170803.jpg"


@pytest.mark.slow
@pytest.mark.parametrize("photo", [GERMAN_BOARD, POLISH_BOARD])
def test_a_marked_set_read_as_english_says_it_may_be_another_set(photo) -> None:
    corners = read_truth(photo).corners
    reading = read_board(photo, corners=corners, tiles="english")
    first = reading.warning_details[0]
    assert first.code == WarningCode.OTHER_TILE_SET and first.message.startswith("marks on ")
    assert "german or polish tiles" in first.message
    assert "this reading used english" in first.message
    assert first.tile_sets == ("german", "polish")
    assert maybe_tile_cells([first]) == [] and first.cells == ()  # about the photo: no cell
    own = read_board(photo, corners=corners, tiles=tile_set_for(read_truth(photo)))
    assert not _other_set(own)


POLISH_UNLABELLED = UNLABELLED_PHOTOS / "kristopalka__scrabble-solver__red_boards_001.jpg"


@pytest.mark.slow
@pytest.mark.photos
def test_a_polish_board_showing_one_mark_above_and_an_l_with_a_stroke_says_so() -> None:
    # ŻABKA crosses SŁONECZKO: the Ż's dot is the only mark above a letter, one short of the
    # warning, and the Ł's stroke is no mark above. Read with Ł allowed, its tile is an Ł.
    english = read_board(POLISH_UNLABELLED, tiles="english")
    assert english.warnings[0].startswith("marks on 2 letters, as on german or polish")
    assert _other_set(english) == [english.warnings[0]]
    assert {cell.cell: cell.letter for cell in english.cells}["I8"] == "L"
    polish = read_board(POLISH_UNLABELLED, tiles="polish")
    assert {cell.cell: cell.letter for cell in polish.cells}["I8"] == "Ł"
    assert not _other_set(polish)


def _crossing(across: str, down: str) -> dict[Cell, Tile]:
    tiles = {Cell(4 + i, 7): Tile(letter, False, 0) for i, letter in enumerate(across)}
    tiles.update({Cell(4, 7 + i): Tile(letter, False, 0) for i, letter in enumerate(down)})
    return tiles


def _other_set(reading: BoardReading) -> list[str]:
    """What a reading says of another tile set: the messages of its other-tile-set warnings."""
    return [w.message for w in reading.warning_details if w.code == WarningCode.OTHER_TILE_SET]


def _other_set_warnings(tiles: dict[Cell, Tile], tile_set: str, config) -> list[str]:
    photo = render_board_photo(tiles, seed=12, options=RenderOptions.clean(tile_set=tile_set))
    return _other_set(read_board(photo.image, corners=photo.corners, tiles="english",
                                 config=config))


@pytest.mark.slow
def test_letters_with_no_mark_above_are_looked_for_in_a_photo_read_on_request() -> None:
    # ŁĄKA crossing ŁĘG: not one mark above a letter, so the live camera (which looks for an Ł
    # only once a mark above is seen) says nothing, and a photo read on request names polish.
    polish = _crossing("ŁĄKA", "ŁĘG")
    assert _other_set_warnings(polish, "polish", DEFAULT_CONFIG) == []
    assert _other_set_warnings(polish, "polish", DISPUTE_CONFIG) == [
        "marks on 3 letters, as on polish tiles: read the photo with its own tile set "
        "(this reading used english)"]
    assert _other_set_warnings(_crossing("LAKE", "LEG"), "english", DISPUTE_CONFIG) == []


@pytest.mark.slow
def test_an_english_board_read_as_english_is_not_taken_for_another_set() -> None:
    reading = read_board(ENGLISH_BOARD, tiles="english")
    assert len(reading.cells) > 90
    assert not _other_set(reading)


def test_marks_are_only_counted_where_the_set_has_no_letter_for_them() -> None:
    guesses = [TileGuess("A", 0, 0.99, "B")]
    crop = np.full((52, 52, 3), 230, np.uint8)
    crop[18:40, 18:34] = 20     # a letter ...
    crop[13:17, 23:28] = 20     # ... with a dot hugging its top
    assert marks_unread([crop], guesses, load_tile_set("english").letters) == 1
    assert marks_unread([crop], guesses, load_tile_set("german").letters) == 0


def test_a_batch_of_maps_finds_the_marks_each_map_alone_has() -> None:
    # One labelling call for a board's tiles must find, map by map, what a call a map finds.
    maps = [_letter_with(), _letter_with((22, 12, 4, 3)), _letter_with((22, 4, 4, 3)),
            _letter_with((18, 12, 3, 3), (27, 12, 3, 3))]
    twin = np.zeros((48, 48), np.float32)   # two letters of one size: the first is the letter
    twin[16:26, 14:22] = twin[16:26, 26:34] = 1.0
    twin[12:15, 16:19] = 1.0
    maps.append(twin)
    batch = marks_above(np.stack(maps))
    alone = [marks_above(ink[None])[0] for ink in maps]
    assert batch.tolist() == alone
    assert batch[0] == 0 and batch[1] > 0 and batch[2] == 0 and batch[3] > batch[1]
    assert batch[4] > 0
    # Maps with no letter at all, alone or in a batch of them, have no mark (a blank tile's).
    empty = np.zeros((48, 48), np.float32)
    assert marks_above(np.stack([empty, empty])).tolist() == [0.0, 0.0]
    assert marks_above(np.stack([empty, maps[1]])).tolist() == [0.0, alone[1]]
