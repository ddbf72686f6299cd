"""A photo in, a :class:`BoardReading` out: find the grid, rectify, find tiles, read them.

This is the one entry point the command line, the web API and the evaluation share, so they can
never disagree about what a photo shows. The stages are separate modules (locate, rectify,
occupancy, classify, and quality for glare, shadow and blur); this module chains them, looks
again where a first look cuts a letter or misses a tile pushed off its square, and adds the
per-cell warnings a person needs to trust a reading (doubtful letters, cells that may hold a
tile).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from referee.cells import Cell
from referee.tiles import TileSet, load_tile_set, tile_set_names
from vision.board.rectify import SIZE, RectifiedBoard, check_corners, rectify
from vision.cells.cover import covered_groups
from vision.cells.facecolour import marks_on_bare_kinds
from vision.cells.letterevidence import lettered_light
from vision.cells.occupancy import OccupancyModel
from vision.cells.relight import Relit, relight
from vision.errors import ImageQualityError, VisionError
from vision.image import load_image
from vision.letters.blankfacing import face_blanks
from vision.letters.classify import BLANK, TileClassifier, TileGuess
from vision.letters.diacritics import marked_twins, marks_unread, read_marks, unseen_letters
from vision.letters.tilecentre import letter_offsets, stray_letters
from vision.letters.tuning import BOARD_PRIOR_MIN_TILES, CROP_PAD, HALF_OFF, PUSHED
from vision.probabilities import pooled
from vision.quality import (
    blurred_tiles,
    judge_blur,
    light_warnings,
    photo_cell_px_or_inf,
    small_board_warnings,
)
from vision.reading import BoardReading, CellReading
from vision.tuning import (
    CORNER_SLACK,
    DEFAULT_CONFIG,
    MARKS_FOR_ANOTHER_SET,
    MAYBE_MISSED,
    ReadConfig,
)
from vision.warning import (
    ReadingWarning,
    blur_over,
    may_hide_a_tile,
    maybe_tile_cells,
    off_its_square,
    other_tile_set,
    something_over,
    unsure_of_letter,
    unsure_whether_tile,
)

SOUTH_OPTIONS = ("bottom", "auto")


def _tile_set(tiles: str) -> TileSet:
    try:
        return load_tile_set(tiles)
    except ValueError as error:
        raise VisionError(str(error)) from None


Shift = tuple[int, int]
"""Rectified pixels (right, down) a tile's crop is moved from its square."""


def follow_letters(board: RectifiedBoard, cells: list[tuple[int, int]], crops: list[np.ndarray],
                   probs: np.ndarray, classifier: TileClassifier, letters: str,
                   config: ReadConfig) -> tuple[list[np.ndarray], np.ndarray, list[Shift]]:
    """The tiles' crops, readings and crop shifts (pixels right, down) after following letters.

    A tile pushed off its square, or a grid found a little off, puts the letter near the edge of
    the square's crop, which cuts it (a K without its stem reads N). Where the letter's centre
    (:func:`vision.letters.tilecentre.letter_offsets`) lies more than ``config.recentre_beyond`` of
    a cell from the cell's centre on either axis (on its square a letter lies only about 0.05 cell
    off), the tile is read again from a crop cut around the letter, and the surer of the two
    readings is kept: the blob taken for the letter can be the dark side of a tilted tile or the
    edge of a coloured square, and a crop around that reads the tile less surely than its square.
    ``crops`` and ``probs`` are the squares' (rows of :meth:`TileClassifier.tile_probabilities`).
    """
    shifts: list[Shift] = [(0, 0)] * len(cells)
    if config.recentre_beyond >= 1 or not cells:
        return crops, probs, shifts
    offsets = letter_offsets(board, cells)
    far = np.flatnonzero(np.abs(offsets).max(axis=1) > config.recentre_beyond)
    if len(far) == 0:
        return crops, probs, shifts
    moved = np.rint(offsets[far] * board.cell_px).astype(int)
    # A crop is not moved past the rectified image's edge: a clipped crop is smaller than the
    # others, and their sharpness is measured in one call (a blank found on a corner square,
    # its tile's side taken for a letter below it, crashed the reading).
    grow = int(round(CROP_PAD * board.cell_px))
    boxes = np.array([board.cell_box(*cells[i]) for i in far])
    moved = np.clip(moved, grow - boxes[:, :2], board.image.shape[0] - grow - boxes[:, 2:])
    followed = [board.cell_image(*cells[i], pad=CROP_PAD, shift=(int(dx), int(dy)))
                for i, (dx, dy) in zip(far, moved, strict=True)]
    looks = classifier.tile_probabilities(followed, letters)
    surer = looks.max(axis=1) > probs[far].max(axis=1)
    crops, probs = list(crops), probs.copy()
    for k in np.flatnonzero(surer):
        i = int(far[k])
        crops[i], probs[i], shifts[i] = followed[k], looks[k], (int(moved[k, 0]), int(moved[k, 1]))
    return crops, probs, shifts


def second_look(board: RectifiedBoard, cells: list[tuple[int, int]], probs: np.ndarray,
                classifier: TileClassifier, letters: str, config: ReadConfig,
                centres: list[Shift] | None = None) -> np.ndarray:
    """``probs`` with each doubtful tile read again from crops shifted around its cell.

    A tile that lies off its square, or a grid found a little off, cuts the letter at the
    crop's edge (an O read as C or S, an E as R, a Q as O). A tile whose likeliest (letter,
    rotation) has less than ``config.second_look_below`` is read again from its crop moved
    ``config.second_look_shift`` of a cell to each of the eight neighbouring positions, and the
    nine readings vote as the four turns of one crop do (log-probabilities averaged). Rows are
    :meth:`TileClassifier.tile_probabilities`, before the board's rotations weigh in.
    ``centres`` are the first reading's crop shifts (:func:`follow_letters`), which the eight
    shifts move from; none: the squares.

    One more reading comes from the crop grown ``config.second_look_pad`` of a cell on each
    side (instead of :data:`CROP_PAD`), which takes in a letter the shifted crops still cut.
    It reads a few letters more (``tileref eval``; docs/tuning.md).
    """
    step = int(round(config.second_look_shift * board.cell_px))
    doubtful = np.flatnonzero(probs.max(axis=1) < config.second_look_below)
    if step <= 0 or len(doubtful) == 0:
        return probs
    shifts = [(dx, dy) for dy in (-step, 0, step) for dx in (-step, 0, step) if dx or dy]
    views = [(CROP_PAD, shift) for shift in shifts]
    if config.second_look_pad > 0:
        views.append((config.second_look_pad, (0, 0)))
    centres = centres or [(0, 0)] * len(cells)
    crops = [board.cell_image(*cells[i], pad=pad,
                              shift=(centres[i][0] + dx, centres[i][1] + dy))
             for i in doubtful for pad, (dx, dy) in views]
    looks = classifier.tile_probabilities(crops, letters).reshape(len(doubtful), len(views), -1)
    looks = np.concatenate([probs[doubtful, None], looks], axis=1)
    out = probs.copy()
    out[doubtful] = pooled(looks, axis=1)
    return out


def tile_probability(board: RectifiedBoard, occupancy: OccupancyModel, shift: float,
                     sure: float = 1.0, first: np.ndarray | None = None) -> np.ndarray:
    """(15, 15) P(tile) of every cell, averaged over the grid where it was found and moved
    ``shift`` of a cell each way (none when 0), except where the grid as found sees a tile at
    least ``sure``: see ``ReadConfig.occupancy_shift`` and ``occupancy_shift_sure`` for why.
    ``first`` is the grid as found's, where the caller has it already."""
    probability = occupancy.tile_probability(board) if first is None else first
    step = int(round(shift * board.cell_px))
    if step == 0:
        return probability
    looks = [probability]
    height, width = board.image.shape[:2]
    for dx, dy in ((step, 0), (-step, 0), (0, step), (0, -step)):
        move = np.array([[1, 0, dx], [0, 1, dy]], dtype=np.float32)
        moved = cv2.warpAffine(board.image, move, (width, height),
                               borderMode=cv2.BORDER_REPLICATE)
        looks.append(occupancy.tile_probability(replace(board, image=moved)))
    return np.where(probability >= sure, probability, np.mean(looks, axis=0))


class OffSquareTiles(NamedTuple):
    """Tiles found off their squares on cells read as empty (:func:`off_square_tiles`)."""

    read: dict[tuple[int, int], float]
    """Cells read as holding one, each with its probability of a tile."""
    half_off: list[tuple[int, int]]
    """Those of them whose tile lies half on the next square (named in a warning)."""
    doubtful: list[tuple[int, int]]
    """Cells that may hold one, half on another empty cell: which of the two is a guess."""


def off_square_tiles(board: RectifiedBoard, probability: np.ndarray, occupancy: OccupancyModel,
                     classifier: TileClassifier, letters: str, config: ReadConfig
                     ) -> OffSquareTiles:
    """Cells read as empty (``probability`` under ``config.occupancy_threshold``) that hold a tile
    pushed off its square, found from its letter.

    A letter off an empty cell's centre that is no tile's
    (:func:`vision.letters.tilecentre.stray_letters`) is a tile when both readers agree once it is
    looked at where it lies: the tile classifier, from a crop cut around the letter, reads a letter
    (not a blank) at least ``config.off_square_sure``, and the occupancy model, with the board moved
    to put that letter on the cell's centre, finds a tile (``config.occupancy_threshold``): on the
    truth photos the classifier alone took two squares' edges for Ls
    (``ReadConfig.off_square_sure``). Two kinds of cell are looked at: every empty cell beside a
    tile, for a letter on its edge (a tile half on the next square,
    :data:`vision.letters.tuning.HALF_OFF`), and every empty cell the model gave
    :data:`vision.tuning.MAYBE_MISSED` or more, for a letter a little off too
    (:data:`vision.letters.tuning.PUSHED`). A tile half on the next square is read on the cell when
    that square holds a tile of its own (or is off the board), so it can be on no other; between two
    empty squares it is only a doubt, since half a cell off either way a letter's own offset on its
    tile decides which square looks nearer.
    """
    found = OffSquareTiles({}, [], [])
    if config.off_square_sure > 1:
        return found
    tile_mask = probability >= config.occupancy_threshold
    beside = cv2.dilate(tile_mask.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    least = {(int(col), int(row)): HALF_OFF
             for row, col in zip(*np.nonzero(beside & ~tile_mask), strict=True)}
    least.update({(int(col), int(row)): PUSHED for row, col in zip(
        *np.nonzero((probability >= MAYBE_MISSED) & ~tile_mask), strict=True)})
    tiles = _cells_of(tile_mask)
    stray = stray_letters(board, least, tiles)
    if not stray:
        return found
    moves: list[Shift] = [(int(dx), int(dy)) for dx, dy in
                          (np.rint(offset * board.cell_px) for _, offset in stray)]
    crops = [board.cell_image(*cell, pad=CROP_PAD, shift=move)
             for (cell, _), move in zip(stray, moves, strict=True)]
    guesses = classifier.guesses(classifier.tile_probabilities(crops, letters))
    height, width = board.image.shape[:2]
    for (cell, offset), (dx, dy), guess in zip(stray, moves, guesses, strict=True):
        if guess.letter == BLANK or guess.confidence < config.off_square_sure:
            continue
        move = np.array([[1, 0, -dx], [0, 1, -dy]], dtype=np.float32)
        moved = cv2.warpAffine(board.image, move, (width, height), borderMode=cv2.BORDER_REPLICATE)
        alone = np.zeros(SIZE * SIZE, bool)
        alone[cell[1] * SIZE + cell[0]] = True
        tile = float(occupancy.tile_probability(replace(board, image=moved),
                                                print_cells=alone)[cell[1], cell[0]])
        if tile < config.occupancy_threshold:
            continue
        if np.abs(offset).max() < HALF_OFF:
            found.read[cell] = tile
            continue
        axis = int(np.argmax(np.abs(offset)))
        step = int(np.sign(offset[axis]))
        side = Cell(*cell).offset(*((step, 0) if axis == 0 else (0, step)))
        if side.on_board() and not tile_mask[side.row, side.col]:
            found.doubtful.append(cell)
        else:
            found.read[cell] = tile
            found.half_off.append(cell)
    return found


def letters_read_as_empty(board: RectifiedBoard, evidence: np.ndarray, probability: np.ndarray,
                          classifier: TileClassifier, letters: str, config: ReadConfig
                          ) -> list[tuple[int, int]]:
    """Cells read as empty, not even doubted (``probability`` under
    ``config.unsure_empty_above``), that show a letter-sized mark on a square that prints none
    (:func:`vision.cells.facecolour.marks_on_bare_kinds`, of the letter ``evidence``) and that
    the tile classifier reads as a letter, not a blank, at least ``config.letter_on_empty_sure``:
    the reader names them as doubts.

    Why: the occupancy model weighs a face's colour against the photo's other tiles, and a tile
    whose face the light or a thing beside it changed is far from them: on the stress set it
    gave 0.00-0.13 to 15 tiles that no warning named (black tiles greyed by a washed-out far row,
    an I in a head's shadow, an O by a cup). A plain square prints nothing a letter's
    shape comes from, but the grain, a shadow's edge or a hand's does; the classifier, which
    knows letters, tells most of those from a tile (docs/tuning.md, "Letters read as empty
    squares").
    """
    if config.letter_on_empty_sure > 1:
        return []
    candidates = (marks_on_bare_kinds(evidence).reshape(SIZE, SIZE)
                  & (probability < config.unsure_empty_above))
    cells = _cells_of(candidates)
    if not cells:
        return []
    crops = [board.cell_image(col, row, pad=CROP_PAD) for col, row in cells]
    guesses = classifier.guesses(classifier.tile_probabilities(crops, letters))
    return [cell for cell, guess in zip(cells, guesses, strict=True)
            if guess.letter != BLANK and guess.confidence >= config.letter_on_empty_sure]


def read_rectified(board: RectifiedBoard, corners: np.ndarray, *, tiles: str = "english",
                   config: ReadConfig = DEFAULT_CONFIG,
                   occupancy: OccupancyModel | None = None,
                   classifier: TileClassifier | None = None) -> BoardReading:
    """Read a board already rectified (South = the rectified image's bottom)."""
    tile_set = _tile_set(tiles)
    letters = tile_set.letters
    occupancy = occupancy or OccupancyModel.load()
    classifier = classifier or TileClassifier.load()
    timings: dict[str, float] = {}
    started = time.perf_counter()
    # Shade evened out first: a tile in an arm's shadow is read, not dropped (vision.cells.relight).
    # Blur and covers are judged on the board as photographed: relit, the skin of a hand over
    # the board passed for shade brought up, and the hand sample's 52 hidden squares were read
    # as 14 named and the rest empty (samples/photos/hand-over-board.jpg).
    photographed = board
    relit = relight(board) if config.relight else Relit(board, np.ones((SIZE, SIZE), np.float32))
    # Light letters on dark tiles (black plastic) are read on the board's negative: every measure
    # of ink counts what is darker than its face (vision.cells.letterevidence.lettered_light).
    # Glare and shadow are judged on the board as it is.
    lit = relit.board
    board = replace(lit, image=255 - lit.image) if lettered_light(lit) else lit
    assessed = occupancy.assess(board)
    probability = tile_probability(board, occupancy, config.occupancy_shift,
                                   config.occupancy_shift_sure, assessed.probability)
    tile_mask = probability >= config.occupancy_threshold
    pushed = off_square_tiles(board, probability, occupancy, classifier, letters, config)
    for (col, row), tile in pushed.read.items():
        probability[row, col], tile_mask[row, col] = tile, True
    # Named as doubts by _unsure_empty: a tile half on either of two squares, and a letter on a
    # square that prints none.
    for col, row in pushed.doubtful + letters_read_as_empty(
            board, assessed.letters, probability, classifier, letters, config):
        probability[row, col] = max(probability[row, col], config.unsure_empty_above)
    light = light_warnings(lit, tile_mask, config, relit.too_dark())
    for col, row in pushed.half_off:
        light.setdefault((col, row), []).append(off_its_square(Cell(col, row)))
    timings["occupancy_ms"] = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    occupied = [(col, row) for row in range(SIZE) for col in range(SIZE) if tile_mask[row, col]]
    for col, row in judge_blur(photographed, occupied, config, photo_cell_px_or_inf(corners)):
        light.setdefault((col, row), []).append(blur_over(Cell(col, row)))
    # After the blur check: a smeared photo has no edges anywhere, and is refused for its blur.
    for cell in _covered(photographed, tile_mask, config):
        light.setdefault(cell, []).append(something_over(Cell(*cell)))
    crops = [board.cell_image(col, row, pad=CROP_PAD) for col, row in occupied]
    probs = classifier.tile_probabilities(crops, letters)
    crops, probs, centres = follow_letters(board, occupied, crops, probs, classifier, letters,
                                           config)
    probs = second_look(board, occupied, probs, classifier, letters, config, centres)
    probs = classifier.on_board(probs)
    guesses = classifier.guesses(probs)
    if config.ocr_second_opinion:
        from vision.letters.ocr import second_opinion

        guesses = second_opinion(crops, guesses, letters, config.ocr_below)
    guesses = read_marks(crops, guesses, probs, classifier, letters)
    marks = marks_unread(crops, guesses, letters)
    unseen = (_unseen_letters_read(board, occupied, crops, centres, classifier, letters, config)
              if config.unseen_letters_after <= marks < MARKS_FOR_ANOTHER_SET else "")
    other_set = _other_tile_set(marks, unseen, tiles)
    timings["classify_ms"] = (time.perf_counter() - started) * 1000
    blurred = blurred_tiles(occupied, crops, guesses, config.blur_ratio)
    blank_share = _blank_share(guesses, tile_set.blanks)
    lone = lone_turns(guesses)
    readings: list[CellReading] = []
    warnings: list[ReadingWarning] = list(other_set)  # about the whole photo: first
    for (col, row), guess, soft, alone in zip(occupied, guesses, blurred, lone, strict=True):
        name = Cell(col, row).name
        cell_warnings = list(light.get((col, row), []))
        if soft:
            cell_warnings.append(blur_over(Cell(col, row)))
        tile_p = float(probability[row, col])
        confidence = guess.confidence * min(1.0, 0.5 + tile_p / 2 if tile_p < 1 else 1.0)
        if guess.letter == BLANK:
            confidence = min(confidence, blank_share)
        # A blank has no letter to be unsure of: it is flagged as one of more than the set holds
        # (_blank_share), and then every one is, however surely read. Flagged by confidence,
        # three blanks of a set of two, each believed at most 2/3, had all passed as sure.
        least = config.lone_turn_confidence if alone else config.low_confidence
        if confidence < least if guess.letter != BLANK else blank_share < 1:
            cell_warnings.append(unsure_of_letter(Cell(col, row), guess.letter, guess.runner_up))
        readings.append(CellReading(
            cell=name, letter=guess.letter, rotation=guess.rotation,
            confidence=round(float(np.clip(confidence, 0.0, 1.0)), 3),
            blank=guess.letter == BLANK, warning_details=tuple(cell_warnings)))
        warnings.extend(cell_warnings)
    # A tile under glare, in shadow or under something is never silently read as empty: glare
    # can wash a letter out completely and a deep shadow take a tile's face down to a
    # square's, so every such cell read as empty is reported as possibly hiding one. (Shadow
    # is judged against the cell's own kind of square, so a dark premium square is not "in
    # shadow" and this names 4 squares on the 38 truth photos, not 21.)
    occupied_cells = set(occupied)
    for (col, row), cell_warnings in light.items():
        if (col, row) not in occupied_cells:
            warnings.extend(may_hide_a_tile(warning) for warning in cell_warnings)
    warnings.extend(_unsure_empty(probability, occupied_cells | set(light), config))
    if config.face_blanks:
        readings = face_blanks(readings)
    return BoardReading(tuple(readings), _points(corners), tuple(warnings), timings,
                        _empty_confidence(probability, occupied_cells, warnings, config))


def _on_the_photo(quad: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``quad``, refused when it puts the grid's corners off the photo: read there, the board came
    out empty with no word said (a fuzzing helper's find)."""
    height, width = shape[:2]
    slack = CORNER_SLACK * max(height, width)
    x, y = quad[:, 0], quad[:, 1]
    if (x < -slack).any() or (x > width + slack).any() or (y < -slack).any() or (
            y > height + slack).any():
        raise VisionError(f"corners lie off the photo ({width}x{height} pixels): give the "
                          "playing grid's four corners on it")
    return quad


def _points(corners: np.ndarray) -> tuple[tuple[float, float], ...]:
    """Four corners as plain (x, y) pairs."""
    return tuple((float(x), float(y)) for x, y in np.asarray(corners, dtype=float).reshape(4, 2))


def _blank_share(guesses: list[TileGuess], blanks_in_set: int) -> float:
    """The most any tile read as a blank can be believed, given how many the tile set has.

    A tile whose letter is too faint to see (far off on a steep photo, washed out) has no ink,
    and the classifier takes it for a blank, surely: on a steep unlabelled photo seven tiles
    were read as blanks at 0.94-0.98, of a set with two. With more blanks read than the set
    holds, at least the extra ones are letters, and nothing tells which: each is a blank with
    at most the set's blanks over those read, and is flagged as unsure.

    Nothing tells which surely, that is. On 163 renders with at most two blanks (read as the
    live camera reads, corners given), 12 were read with more: of the 26 blanks beyond each
    board's two most confident, 23 were empty squares or letters, but 6 of the 24 most confident
    were empty squares too. And on a real photo (jheidel 170725, found corners) the three read
    are two empty squares and the real blank, all believed 0.667.
    """
    read = sum(guess.letter == BLANK for guess in guesses)
    return 1.0 if read <= blanks_in_set else blanks_in_set / read


def _empty_confidence(probability: np.ndarray, occupied: set[tuple[int, int]],
                      warnings: list[ReadingWarning], config: ReadConfig) -> dict[str, float]:
    """How sure the reading is that each cell read as empty is empty: one less the occupancy
    model's probability of a tile, and no surer than a cell named as a doubt
    (``config.unsure_empty_above``) where a warning says it may hide a tile (glare, shadow,
    blur or something over it), since there the model's look was spoilt."""
    named = set(maybe_tile_cells(warnings))
    doubt = 1.0 - config.unsure_empty_above
    empty = {}
    for row in range(SIZE):
        for col in range(SIZE):
            if (col, row) in occupied:
                continue
            name = Cell(col, row).name
            sure = 1.0 - float(probability[row, col])
            empty[name] = round(min(sure, doubt) if name in named else sure, 3)
    return empty


def lone_turns(guesses: list[TileGuess]) -> list[bool]:
    """Which tiles are turned unlike every other lettered tile of the board.

    The board's rotations back a letter read at a rotation other tiles share; a tile alone at
    its rotation has no such backing, and an upside-down Ö read as a Q is one
    (``ReadConfig.lone_turn_confidence``). Boards of fewer than
    :data:`vision.letters.tuning.BOARD_PRIOR_MIN_TILES` tiles say nothing of rotations, and blanks
    show no way up of their own.
    """
    if len(guesses) < BOARD_PRIOR_MIN_TILES:
        return [False] * len(guesses)
    turns = Counter(guess.rotation for guess in guesses if guess.letter != BLANK)
    return [guess.letter != BLANK and turns[guess.rotation] == 1 for guess in guesses]


def _covered(board: RectifiedBoard, tiles: np.ndarray, config: ReadConfig
             ) -> list[tuple[int, int]]:
    """The (col, row) cells something lies over (:mod:`vision.cells.cover`: a hand's bare cells,
    then a thing's far in colour), to be named; refuses the photo in one line when its bare cells
    hide a hand's worth of the board (``max_covered_squares``)."""
    covers = covered_groups(board, tiles)
    groups = covers.bare
    if groups and int(groups[0].sum()) > config.max_covered_squares:
        rows, cols = np.nonzero(groups[0])
        middle = int(np.argmin((rows - rows.mean()) ** 2 + (cols - cols.mean()) ** 2))
        around = Cell(int(cols[middle]), int(rows[middle]))
        raise ImageQualityError(
            f"something lies over {len(rows)} squares of the board, around {around.name} (a "
            "hand?): take the photo again with the board clear", cells=(around,),
            reason="covered")
    cells = [cell for group in groups for cell in _cells_of(group)]
    return cells + [cell for group in covers.foreign for cell in _cells_of(group)
                    if cell not in cells]


def _cells_of(mask: np.ndarray) -> list[tuple[int, int]]:
    """The (col, row) cells of a (15, 15) mask, row by row."""
    return [(int(col), int(row)) for row, col in zip(*np.nonzero(mask), strict=True)]


@cache
def _unseen_in_other_sets(letters: str) -> str:
    """The letters of every other tile set that ``letters`` lacks and that carry a mark, but not
    above them (:func:`vision.letters.diacritics.unseen_letters`): Ą, Ę, Ł against English."""
    return "".join(dict.fromkeys("".join(unseen_letters(letters, load_tile_set(name).letters)
                                         for name in tile_set_names())))


def _unseen_letters_read(board: RectifiedBoard, cells: list[tuple[int, int]],
                         crops: list[np.ndarray], centres: list[Shift],
                         classifier: TileClassifier, letters: str, config: ReadConfig) -> str:
    """The letters of other tile sets that ``letters`` lacks and that carry no mark above (Ł, Ą,
    Ę against English), as the tiles read once those letters are allowed: one a tile so read.

    Why: a Polish board read as English showed one mark above (its Ż), one short of the warning,
    and its Ł, which has no mark above to see, read as L: nothing said the set was wrong, though
    read as Polish the same tile is an Ł. The tiles are read again as the board was (crops,
    second look, the board's rotations), so this costs a second reading: the live camera asks it
    only of a board that already shows a mark above one letter but not two, a photo read on
    request of every board (``ReadConfig.unseen_letters_after``).
    """
    unseen = _unseen_in_other_sets(letters)
    if not unseen:
        return ""
    wider = letters + unseen
    probs = classifier.tile_probabilities(crops, wider)
    probs = second_look(board, cells, probs, classifier, wider, config, centres)
    guesses = classifier.guesses(classifier.on_board(probs))
    return "".join(guess.letter for guess in guesses if guess.letter in unseen)


def _other_tile_set(marks: int, unseen: str, tiles: str) -> list[ReadingWarning]:
    """The warning that the letters carry marks the tile set read with has none of (``marks``
    tiles show one above their letter, and ``unseen`` are the letters of other sets some tiles
    read as), naming the sets that have such letters: their data, not a list here."""
    if marks + len(unseen) < MARKS_FOR_ANOTHER_SET:
        return []
    sets = [name for name in tile_set_names()
            if (marks and marked_twins(load_tile_set(name).letters))
            or any(letter in load_tile_set(name).letters for letter in unseen)]
    return [other_tile_set(marks + len(unseen), sets, tiles)]


def _unsure_empty(probability: np.ndarray, named: set[tuple[int, int]],
                  config: ReadConfig) -> list[ReadingWarning]:
    """A warning for each cell read as empty that the occupancy model thought might hold a tile
    (``config.unsure_empty_above``), unless already named (read as a tile, or under glare or
    shadow).

    Why: the tiles occupancy misses are blanks (no letter, only a face the colour of a tile), and
    a missed blank silently changes a word. How the threshold was chosen (``tileref eval``) is in
    docs/tuning.md.
    """
    return [unsure_whether_tile(Cell(col, row))
            for row in range(SIZE) for col in range(SIZE)
            if (col, row) not in named
            and config.unsure_empty_above <= probability[row, col] < config.occupancy_threshold]


def upright_turns(reading: BoardReading) -> int:
    """Quarter turns (clockwise) of the view that make most letters upright."""
    votes = Counter(r.rotation for r in reading.cells if not r.blank)
    if not votes:
        return 0
    rotation = votes.most_common(1)[0][0]
    return (4 - rotation // 90) % 4


def read_board(image: np.ndarray | str | Path | bytes, *, corners=None, tiles: str = "english",
               south: str = "bottom", config: ReadConfig = DEFAULT_CONFIG,
               occupancy: OccupancyModel | None = None,
               classifier: TileClassifier | None = None) -> BoardReading:
    """Read every tile of a board photo.

    ``corners`` (TL, TR, BR, BL of the playing grid, South = image bottom) skip the board
    search. ``south="auto"`` turns the reading so most letters stand upright: for a dispute photo
    taken from the side of the table. ``occupancy``/``classifier`` replace the committed models
    (the evaluation reads each photo with models that never saw its repository). Raises a
    :class:`VisionError` (a ``ValueError``) with one line for anything a user can fix.
    """
    if south not in SOUTH_OPTIONS:
        raise VisionError(f"south must be 'bottom' or 'auto', not {south!r}")
    _tile_set(tiles)
    timings: dict[str, float] = {}
    started = time.perf_counter()
    if not isinstance(image, np.ndarray):
        image = load_image(image)
    timings["load_ms"] = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    if corners is None:
        from vision.board.locate import find_board

        corners = find_board(image).corners
        quad = check_corners(corners)
    else:
        quad = _on_the_photo(check_corners(corners), image.shape)
    timings["locate_ms"] = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    board = rectify(image, quad, cell_px=config.cell_px, margin_cells=config.margin_cells,
                    tile_lift=config.tile_lift)
    timings["rectify_ms"] = (time.perf_counter() - started) * 1000
    try:
        reading = read_rectified(board, quad, tiles=tiles, config=config, occupancy=occupancy,
                                 classifier=classifier)
    except ImageQualityError as error:
        # Refused after the board was found (a blur, a hand): say where it was found.
        raise ImageQualityError(str(error), _points(quad), error.cells,
                                reason=error.reason) from None
    reading.timings_ms.update(timings)
    small = small_board_warnings(quad, config)
    if small:
        reading = replace(reading, warning_details=(*small, *reading.warning_details))
    if south == "auto":
        reading = reading.turned(upright_turns(reading))
    return reading


__all__ = ["SOUTH_OPTIONS", "follow_letters", "lone_turns", "read_board",
           "read_rectified", "second_look", "tile_probability", "upright_turns"]
