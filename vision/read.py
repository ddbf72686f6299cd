"""A photo in, a :class:`BoardReading` out: find the grid, rectify, find tiles, read them.

This is the one entry point the command line, the web API and the evaluation share, so they can
never disagree about what a photo shows. The stages are separate modules (locate, rectify,
occupancy, classify); this module only chains them and adds the per-cell warnings a person
needs to trust a reading (glare, shadow, blur, doubtful letters).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from referee.cells import Cell
from referee.tiles import TileSet, load_tile_set, tile_set_names
from vision.blankfacing import face_blanks
from vision.bytestats import ranked
from vision.classify import BLANK, BOARD_PRIOR_MIN_TILES, CROP_PAD, TileClassifier, TileGuess
from vision.cover import covered_groups
from vision.diacritics import marked_twins, marks_unread, read_marks
from vision.errors import ImageQualityError, VisionError
from vision.image import load_image
from vision.occupancy import OccupancyModel, other_peers
from vision.probabilities import pooled
from vision.reading import (
    DEFAULT_CONFIG,
    MAY_HIDE_A_TILE,
    OFF_SQUARE,
    OTHER_TILE_SET,
    SMALL_BOARD,
    UNSURE_WHETHER,
    BoardReading,
    CellReading,
    ReadConfig,
)
from vision.rectify import SIZE, RectifiedBoard, check_corners, photo_cell_px, rectify
from vision.tilecentre import HALF_OFF, PUSHED, letter_offsets, stray_letters

SOUTH_OPTIONS = ("bottom", "auto")


def _tile_set(tiles: str) -> TileSet:
    try:
        return load_tile_set(tiles)
    except ValueError as error:
        raise VisionError(str(error)) from None


def _light_warnings(board: RectifiedBoard, occupied: np.ndarray,
                    config: ReadConfig) -> dict[tuple[int, int], list[str]]:
    """Glare and shadow per cell, judged against this board's own brightness; ``occupied`` is
    the (15, 15) tile mask.

    Not grey: a shadow dims every channel, so a cell is shadowed when even its strongest
    channel is dark (a red triple-word or dark blue triple-letter square is dark in grey, but
    not in its own colour); glare washes every channel out, so a pixel is blown when even its
    weakest channel is at the top (a pale blue square is not).

    A shadow makes a cell darker than its own kind, so a tile is compared with the board's
    tiles and an empty square with its empty symmetric peers (the same kind of square, lit
    elsewhere): compared with the whole board, every dark teal triple-letter square of a
    DeclanFinerty board and every maroon square of a red kristopalka board full of light tiles
    was "in shadow". On the 38 truth photos (committed models) that took the shadow warnings
    from 21 to 4, none of them on a tile before or after; on an unlabelled red kristopalka
    board from 34 to 5.
    """
    px, margin = board.cell_px, board.margin_px

    def per_cell(channel: np.ndarray) -> np.ndarray:
        grid = channel[margin:margin + SIZE * px, margin:margin + SIZE * px]
        return grid.reshape(SIZE, px, SIZE, px).transpose(0, 2, 1, 3).reshape(SIZE, SIZE, -1)

    # OpenCV's per-pixel min and max of the channels: numpy's reduction over the short last
    # axis took 20 ms each on a 720 px board, these take 1 ms.
    blue, green, red = cv2.split(board.image)
    weakest = cv2.min(cv2.min(blue, green), red)
    strongest = per_cell(cv2.max(cv2.max(blue, green), red))
    blown = (per_cell(weakest) >= config.glare_level).mean(axis=2)
    # Medians counted from each cell's histogram of bytes (the mean of the middle two): the same
    # values as sorting, in half the time.
    middle = strongest.shape[2]
    low, high = ranked(strongest.reshape(SIZE * SIZE, -1), ((middle - 1) // 2, middle // 2))
    median = ((low.astype(np.float64) + high) / 2).reshape(-1)
    tiles = occupied.reshape(-1)
    expected = np.full(SIZE * SIZE, float(np.median(median)))
    if tiles.any():
        expected[tiles] = np.median(median[tiles])
    peers, other = other_peers()
    empty_peers = np.where(other & ~tiles[peers], median[peers], np.nan)
    known = ~tiles & ~np.isnan(empty_peers).all(axis=1)
    expected[known] = np.nanmedian(empty_peers[known], axis=1)
    glared = blown >= config.glare_fraction
    shadowed = ~glared & (median < expected * (1 - config.shadow_ratio)).reshape(SIZE, SIZE)
    warnings: dict[tuple[int, int], list[str]] = {}
    for row, col in zip(*np.nonzero(glared | shadowed), strict=True):
        what = "glare" if glared[row, col] else "shadow"
        warnings[(int(col), int(row))] = [f"{what} over {Cell(int(col), int(row)).name}"]
    return warnings


# Directions in which the blur of the tiles is judged, every 10 degrees: the direction of a
# motion blur is never more than 5 degrees from one of them, so the sharp edges that run along the
# smear add at most sin(5 deg) of their steepness to the steepest gradient across it.
_BLUR_DIRECTIONS = np.deg2rad(np.arange(0, 180, 10))
_BLUR_UNITS = np.stack([np.cos(_BLUR_DIRECTIONS), np.sin(_BLUR_DIRECTIONS)]).astype(np.float32)


_ALL_CELLS = [(col, row) for row in range(SIZE) for col in range(SIZE)]


def blur_px(board: RectifiedBoard, cells: list[tuple[int, int]], step: int = 1) -> float:
    """How many rectified pixels the edges in ``cells`` are smeared over, along the worst direction.

    An edge of contrast C spread over w pixels has a steepest gradient of C / w, so the cells'
    contrast (1st to 99th percentile of their grey) over their steepest gradients (the 99.5th
    percentile of the gradient along one direction) is the width of their sharpest edges in that
    direction; the largest such width over the directions is the blur. Motion blur smears one
    direction only, so a photo-wide figure averaged over directions hides it. Judged in the
    rectified board, so the figure is a share of the 48 px cell whatever the size of the board in
    the photo (small sharp boards measure as sharp). ``step`` > 1 samples every step-th row and
    column of pixels only (the gradients are still taken at full resolution). 0.0 for no cells.
    """
    return _Smear(board).blur_px(cells, step)


class _Smear:
    """A board's grey levels and gradients, taken once, to judge the blur of several groups of
    its cells (:func:`blur_px`)."""

    def __init__(self, board: RectifiedBoard) -> None:
        px, margin = board.cell_px, board.margin_px
        grey = cv2.cvtColor(board.image, cv2.COLOR_BGR2GRAY)
        # Scharr's kernels weigh a unit step 32: divided out, a gradient is grey levels per pixel.
        images = (grey, cv2.Scharr(grey, cv2.CV_32F, 1, 0) / 32,
                  cv2.Scharr(grey, cv2.CV_32F, 0, 1) / 32)
        # Each as a (row, y, col, x) view of the grid, to gather cells' pixels from.
        self.grids = [image[margin:margin + SIZE * px, margin:margin + SIZE * px].reshape(
            SIZE, px, SIZE, px) for image in images]
        self.px = px

    def blur_px(self, cells: list[tuple[int, int]], step: int = 1) -> float:
        if not cells:
            return 0.0
        # A cell's inside only: a 1/12-cell inset keeps the grid lines and the neighbours out.
        # Only the pixels' percentiles are taken, so the order they are gathered in does not
        # matter.
        inset = self.px // 12
        unique = list(dict.fromkeys(cells))
        rows = np.array([row for _, row in unique])
        cols = np.array([col for col, _ in unique])
        inside = slice(inset, self.px - inset, step)
        values, across_x, across_y = (grid[rows, inside, cols, inside].ravel()
                                      for grid in self.grids)
        steepest = _least_steep(across_x, across_y)
        # Order statistics of bytes from their histogram: the same values as a partition, a
        # fraction of the time.
        dark, bright = ranked(values[None], (len(values) // 100, len(values) * 99 // 100))
        return (int(bright[0]) - int(dark[0])) / max(steepest, 1e-3)


def _least_steep(across_x: np.ndarray, across_y: np.ndarray) -> float:
    """The smallest over the directions of the 99.5th percentile of the gradient along it.

    One direction at a time (its row fits in the cache: the 18-row outer product took 7 ms on a
    board of 100 tiles), and a direction is only partitioned when it can beat the best so far:
    its percentile is below the best only if more than ``steep`` of its values are.
    """
    steep = int(len(across_x) * 0.995)
    along = np.empty_like(across_x)
    other = np.empty_like(across_x)
    best = np.inf
    for unit_x, unit_y in _BLUR_UNITS.T:
        np.multiply(unit_x, across_x, out=along)
        np.multiply(unit_y, across_y, out=other)
        along += other
        np.abs(along, out=along)
        if best != np.inf and np.count_nonzero(along < best) <= steep:
            continue  # this direction's percentile is at least the best one's
        best = min(best, float(np.partition(along, steep)[steep]))
    return best


PART_CELLS = 5
"""The board is also judged for blur in parts of 5 x 5 cells (:func:`_judge_blur`)."""
MIN_PART_TILES = 5
"""A part with fewer tiles is not judged on its own: too few edges to measure."""
_PARTS = [[(col, row) for row in range(top, top + PART_CELLS)
           for col in range(left, left + PART_CELLS)]
          for top in range(0, SIZE, PART_CELLS) for left in range(0, SIZE, PART_CELLS)]


def _judge_blur(board: RectifiedBoard, occupied: list[tuple[int, int]], config: ReadConfig,
                cell_px: float) -> list[tuple[int, int]]:
    """Raise :class:`ImageQualityError` rather than read tiles too smeared to read; return the
    empty cells of the parts too soft to tell whether tiles are there.

    The tiles are judged, not the board (letters are what must be read; an empty board's print
    may be soft without harm). When no tile was found the board's print is judged instead, with
    its own, higher limit: a smear can hide every tile, and an empty reading is a guess too.

    Then the tiles of each part of the board (:data:`PART_CELLS`) on their own, by the same
    limit, from every other row and column of their pixels (a third of the time; the figures
    move by half a pixel): a lens focused on one half (a steep photo's near rows) leaves the
    other soft, and the sharp half's edges, which set the figure above, hide it. The 31 truth
    photos with corners, read as they are and with the grid right of column H blurred by 0.03 to
    0.12 of a cell, models trained without their source: of the tiles of parts measuring 8-10 px
    13 % were wrong (missed, false or misread), 10-12 px 35 %, 12-15 px 50 %, 15-20 px 79 %: 10
    is where a third go wrong, as for the whole photo. Of the 47 real photos as they are (truth
    corners where there are some, found ones elsewhere), no part measured over 8.3 px (the
    motion-blurred unlabelled ``IMG_20141025_164048`` aside, refused as a whole). Blurred by
    0.05, 0.08 and 0.12 of a cell, 5, 16 and 14 of the 31 are refused (``python -m bench cover``
    at 0.12). The rest at 0.12 are read, their soft half's tiles mostly not seen at all, so too
    few to judge: the print of such a part would tell, but a hand or a glare halo is as smooth,
    and judging the print refused 9 of 40 rendered hands and 1 clear board as blurred. So such a
    part's print is judged by the print limit, and its empty cells are returned, to be named as
    perhaps hiding a tile rather than refused: no part of the real photos measures over 15.2 by
    its print, the soft halves' parts 19.4 to 45.5.

    ``cell_px`` is the board's cell in the photo (:func:`vision.rectify.photo_cell_px`): a board
    too small in the photo (``config.small_cell_px``) is smeared by being enlarged to the 48 px
    cell as well as by the lens or the hand, so its refusal asks for a closer or larger photo
    too: at 0.35 of their size two truth photos are refused for a part just over the limit,
    whose trouble is their size (``python -m bench resolution``).
    """
    small = cell_px < config.small_cell_px
    size = (f"; the board's cells are {cell_px:.0f} px across in the photo, "
            f"{config.small_cell_px:.0f} or more read best" if small else "")
    closer = f"{_CLOSER}, and hold it still" if small else None
    smear = _Smear(board)
    if occupied:
        blur, limit = smear.blur_px(occupied), config.max_tile_blur_px
        what = "read the tiles"
    else:
        # A quarter of the grid's pixels: 20 ms instead of 70 on the live camera's empty board.
        blur, limit = smear.blur_px(_ALL_CELLS, step=2), config.max_print_blur_px
        what = "tell whether tiles are on the board"
    if blur > limit:
        raise ImageQualityError(f"photo too blurry to {what} "
                                f"{_smeared(blur, limit, board, size)}: "
                                f"{closer or 'hold the camera still'}")
    tiles = set(occupied)
    soft: list[tuple[int, int]] = []
    for part in _PARTS:
        in_part = [cell for cell in part if cell in tiles]
        if len(in_part) < MIN_PART_TILES:
            if smear.blur_px(part, step=2) > config.max_print_blur_px:
                soft.extend(cell for cell in part if cell not in tiles)
            continue
        blur, limit = smear.blur_px(in_part, step=2), config.max_tile_blur_px
        if blur > limit:
            middle = part[len(part) // 2]
            raise ImageQualityError(
                f"photo too blurry around {Cell(*middle).name} to read the tiles "
                f"{_smeared(blur, limit, board, size)}: "
                f"{closer or 'focus on the whole board and hold the camera still'}")
    return soft


def _smeared(blur: float, limit: float, board: RectifiedBoard, size: str) -> str:
    """How smeared the edges are, against the limit, as a blur refusal says it, and ``size``:
    how small the board's cells are in the photo, when that is why (else empty)."""
    return (f"(edges smeared over {blur:.0f} of a cell's {board.cell_px} px, {limit:.0f} at "
            f"most{size})")


_CLOSER = "move the camera closer or use a larger photo"
"""What a person does about a board too small in the photo (a refusal's and a warning's end)."""


def _sharpness(crops: list[np.ndarray]) -> list[float]:
    """Variance of the Laplacian of each crop (all crops share a size: one filter call)."""
    if not crops:
        return []
    side = crops[0].shape[0]
    column = cv2.cvtColor(np.concatenate(crops, axis=0), cv2.COLOR_BGR2GRAY)
    laplacian = cv2.Laplacian(column, cv2.CV_32F).reshape(len(crops), side, -1)
    # Each crop's own rows, minus the row it shares a border with its neighbour in the column.
    return [float(v) for v in laplacian[:, 1:-1].reshape(len(crops), -1).var(axis=1)]


BLANK_SHARPNESS_REACH = 2
"""A blank's sharpness is its lettered neighbours' within this many cells (see below)."""


def _blurred_tiles(cells: list[tuple[int, int]], crops: list[np.ndarray],
                   guesses: list[TileGuess], ratio: float) -> list[bool]:
    """Whether each tile is much softer (``ratio``) than the photo's typical lettered tile.

    A letter's ink is what shows blur, so a tile read as a blank, which has none, is judged by
    the lettered tiles around it (:data:`BLANK_SHARPNESS_REACH`; the median of them): blur is the
    lens's or the hand's and spreads over a part of the photo, and a letter blurred away reads as
    a blank among blurred neighbours. Judged by its own face, every sharp blank was "blurred":
    on the 38 truth photos, read as ``tileref eval`` reads them, 5 of the 7 blur warnings named a
    blank, the other two the thin I of the one soft photo. Too few lettered tiles (under 5) to
    say what typical is, and nothing is called blurred.
    """
    sharpness = np.array(_sharpness(crops))
    lettered = np.array([guess.letter != BLANK for guess in guesses], bool)
    if lettered.sum() < 5:
        return [False] * len(cells)
    typical = float(np.median(sharpness[lettered]))
    where = np.array(cells).reshape(-1, 2)
    judged = sharpness.copy()
    for i in np.flatnonzero(~lettered):
        near = lettered & (np.abs(where - where[i]).max(axis=1) <= BLANK_SHARPNESS_REACH)
        judged[i] = np.median(sharpness[near]) if near.any() else typical
    return [bool(value < typical * ratio) for value in judged]


Shift = tuple[int, int]
"""Rectified pixels (right, down) a tile's crop is moved from its square."""


def follow_letters(board: RectifiedBoard, cells: list[tuple[int, int]], crops: list[np.ndarray],
                   probs: np.ndarray, classifier: TileClassifier, letters: str,
                   config: ReadConfig) -> tuple[list[np.ndarray], np.ndarray, list[Shift]]:
    """The tiles' crops, readings and crop shifts (pixels right, down) after following letters.

    A tile pushed off its square, or a grid found a little off, puts the letter near the edge of
    the square's crop, which cuts it (a K without its stem reads N). Where the letter's centre
    (:func:`vision.tilecentre.letter_offsets`) lies more than ``config.recentre_beyond`` of a
    cell from the cell's centre on either axis (on its square a letter lies only about 0.05 cell
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
    Measured with ``tileref eval`` (leave-one-source-out), against none, with the tile models
    of five training seeds and with today's models: English letters +3, +0, +1, +0, +2 and +3
    (of 1457-1459), letters of every set +2, +1, +1, +1, +2 and +2, never fewer. A pad of 0.18
    read one letter fewer than none (two runs), 0.0 and 0.12 together one fewer (one run).
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
                     sure: float = 1.0) -> np.ndarray:
    """(15, 15) P(tile) of every cell, averaged over the grid where it was found and moved
    ``shift`` of a cell each way (none when 0), except where the grid as found sees a tile at
    least ``sure``: see ``ReadConfig.occupancy_shift`` and ``occupancy_shift_sure`` for why."""
    probability = occupancy.tile_probability(board)
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


MAYBE_MISSED = 0.01
"""An empty cell the occupancy model gave at least this is looked at again where a letter off its
centre lies (:func:`off_square_tiles`); under it, a letter-sized blob is nearly always premium
print (on the truth photos the search then weighed 64 stray letters instead of 699, and found
the same)."""


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

    A letter off an empty cell's centre that is no tile's (:func:`vision.tilecentre.stray_letters`)
    is a tile when both readers agree once it is looked at where it lies: the tile classifier,
    from a crop cut around the letter, reads a letter (not a blank) at least
    ``config.off_square_sure``, and the occupancy model, with the board moved to put that letter
    on the cell's centre, finds a tile (``config.occupancy_threshold``): on the truth photos the
    classifier alone took two squares' edges for Ls (``ReadConfig.off_square_sure``). Two kinds
    of cell are looked at: every empty cell beside a tile, for a letter on its edge (a tile half
    on the next square, :data:`vision.tilecentre.HALF_OFF`), and every empty cell the model gave
    :data:`MAYBE_MISSED` or more, for a letter a little off too (:data:`vision.tilecentre.PUSHED`).
    A tile half on the next square is read on the cell when that square holds a tile of its own
    (or is off the board), so it can be on no other; between two empty squares it is only a
    doubt, since half a cell off either way a letter's own offset on its tile decides which
    square looks nearer.
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
    tiles = [(int(col), int(row)) for row, col in zip(*np.nonzero(tile_mask), strict=True)]
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
        tile = float(occupancy.tile_probability(replace(board, image=moved))[cell[1], cell[0]])
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
    probability = tile_probability(board, occupancy, config.occupancy_shift,
                                   config.occupancy_shift_sure)
    tile_mask = probability >= config.occupancy_threshold
    pushed = off_square_tiles(board, probability, occupancy, classifier, letters, config)
    for (col, row), tile in pushed.read.items():
        probability[row, col], tile_mask[row, col] = tile, True
    for col, row in pushed.doubtful:  # named as a doubt by _unsure_empty
        probability[row, col] = max(probability[row, col], config.unsure_empty_above)
    light = _light_warnings(board, tile_mask, config)
    for col, row in pushed.half_off:
        name = Cell(col, row).name
        light.setdefault((col, row), []).append(
            f"{OFF_SQUARE} {name} (half on the next one: read as {name}'s)")
    timings["occupancy_ms"] = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    occupied = [(col, row) for row in range(SIZE) for col in range(SIZE) if tile_mask[row, col]]
    for col, row in _judge_blur(board, occupied, config, _cell_px(corners)):
        light.setdefault((col, row), []).append(f"blur over {Cell(col, row).name}")
    # After the blur check: a smeared photo has no edges anywhere, and is refused for its blur.
    for cell in _covered(board, tile_mask, config):
        light.setdefault(cell, []).append(f"something over {Cell(*cell).name}")
    crops = [board.cell_image(col, row, pad=CROP_PAD) for col, row in occupied]
    probs = classifier.tile_probabilities(crops, letters)
    crops, probs, centres = follow_letters(board, occupied, crops, probs, classifier, letters,
                                           config)
    probs = second_look(board, occupied, probs, classifier, letters, config, centres)
    probs = classifier.on_board(probs)
    guesses = classifier.guesses(probs)
    if config.ocr_second_opinion:
        from vision.ocr import ocr_available, second_opinion

        if ocr_available():
            guesses = second_opinion(crops, guesses, letters, config.ocr_below)
    guesses = read_marks(crops, guesses, probs, classifier, letters)
    other_set = _other_tile_set(marks_unread(crops, guesses, letters), tiles)
    timings["classify_ms"] = (time.perf_counter() - started) * 1000
    blurred = _blurred_tiles(occupied, crops, guesses, config.blur_ratio)
    blank_share = _blank_share(guesses, tile_set.blanks)
    lone = lone_turns(guesses)
    readings: list[CellReading] = []
    warnings: list[str] = list(other_set)  # about the whole photo: first, as SMALL_BOARD
    for (col, row), guess, soft, alone in zip(occupied, guesses, blurred, lone, strict=True):
        name = Cell(col, row).name
        cell_warnings = list(light.get((col, row), []))
        if soft:
            cell_warnings.append(f"blur over {name}")
        tile_p = float(probability[row, col])
        confidence = guess.confidence * min(1.0, 0.5 + tile_p / 2 if tile_p < 1 else 1.0)
        if guess.letter == BLANK:
            confidence = min(confidence, blank_share)
        # A blank has no letter to be unsure of: it is flagged as one of more than the set holds
        # (_blank_share), and then every one is, however surely read. Flagged by confidence,
        # three blanks of a set of two, each believed at most 2/3, had all passed as sure.
        least = config.lone_turn_confidence if alone else config.low_confidence
        if confidence < least if guess.letter != BLANK else blank_share < 1:
            cell_warnings.append(f"unsure of the letter on {name} ({guess.letter}, maybe "
                                 f"{guess.runner_up})")
        readings.append(CellReading(
            cell=name, letter=guess.letter, rotation=guess.rotation,
            confidence=round(float(np.clip(confidence, 0.0, 1.0)), 3),
            blank=guess.letter == BLANK, warnings=tuple(cell_warnings)))
        warnings.extend(cell_warnings)
    # A tile under glare, in shadow or under something is never silently read as empty: glare
    # can wash a letter out completely and a deep shadow take a tile's face down to a
    # square's, so every such cell read as empty is reported as possibly hiding one. (Shadow
    # is judged against the cell's own kind of square, so a dark premium square is not "in
    # shadow" and this names 4 squares on the 38 truth photos, not 21.)
    occupied_cells = set(occupied)
    for (col, row), cell_warnings in light.items():
        if (col, row) not in occupied_cells:
            warnings.extend(w + MAY_HIDE_A_TILE for w in cell_warnings)
    warnings.extend(_unsure_empty(probability, occupied_cells | set(light), config))
    if config.face_blanks:
        readings = face_blanks(readings)
    return BoardReading(tuple(readings), _points(corners), tuple(warnings), timings)


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


def lone_turns(guesses: list[TileGuess]) -> list[bool]:
    """Which tiles are turned unlike every other lettered tile of the board.

    The board's rotations back a letter read at a rotation other tiles share; a tile alone at
    its rotation has no such backing, and an upside-down Ö read as a Q is one
    (``ReadConfig.lone_turn_confidence``). Boards of fewer than
    :data:`vision.classify.BOARD_PRIOR_MIN_TILES` tiles say nothing of rotations, and blanks
    show no way up of their own.
    """
    if len(guesses) < BOARD_PRIOR_MIN_TILES:
        return [False] * len(guesses)
    turns = Counter(guess.rotation for guess in guesses if guess.letter != BLANK)
    return [guess.letter != BLANK and turns[guess.rotation] == 1 for guess in guesses]


def _covered(board: RectifiedBoard, tiles: np.ndarray, config: ReadConfig
             ) -> list[tuple[int, int]]:
    """The (col, row) cells something lies over (:mod:`vision.cover`), to be named; refuses the
    photo in one line when it hides a hand's worth of the board (``max_covered_squares``)."""
    groups = covered_groups(board, tiles)
    if groups and int(groups[0].sum()) > config.max_covered_squares:
        rows, cols = np.nonzero(groups[0])
        middle = int(np.argmin((rows - rows.mean()) ** 2 + (cols - cols.mean()) ** 2))
        raise ImageQualityError(
            f"something lies over {len(rows)} squares of the board, around "
            f"{Cell(int(cols[middle]), int(rows[middle])).name} (a hand?): take the photo again "
            "with the board clear")
    return [(int(col), int(row)) for group in groups for row, col in zip(*np.nonzero(group),
                                                                          strict=True)]


def _cell_px(corners: np.ndarray) -> float:
    """The board's median cell in the photo (:func:`vision.rectify.photo_cell_px`); infinite
    for a board rectified without a photo behind it (corners all zero, as tests make them)."""
    try:
        return photo_cell_px(corners)
    except VisionError:
        return float("inf")


def _small_board(corners: np.ndarray, config: ReadConfig) -> list[str]:
    """The warning for a board too small in the photo to read well (``config.small_cell_px``):
    a thumbnail or a chat app's copy had 2.6 % of its letters read wrong, and only the person
    who took the photo can fix that."""
    cell_px = photo_cell_px(corners)
    if cell_px >= config.small_cell_px:
        return []
    return [f"{SMALL_BOARD} (cells {cell_px:.0f} px across, {config.small_cell_px:.0f} or more "
            f"read best): {_CLOSER}"]


MARKS_FOR_ANOTHER_SET = 2
"""Tiles with a mark above their letter, on a board read with a set that has no such letter,
from which the reading says the photo may be of another set: one was seen on an English render
(:func:`vision.diacritics.marks_unread` has the figures)."""


def _other_tile_set(marks: int, tiles: str) -> list[str]:
    """The warning that the letters carry marks the tile set read with has none of (``marks``
    tiles show one), naming the sets that have such letters: their data, not a list here."""
    if marks < MARKS_FOR_ANOTHER_SET:
        return []
    marked = [name for name in tile_set_names() if marked_twins(load_tile_set(name).letters)]
    return [f"{OTHER_TILE_SET} {marks} letters, as on {' or '.join(marked)} tiles: read the "
            f"photo with its own tile set (this reading used {tiles})"]


def _unsure_empty(probability: np.ndarray, named: set[tuple[int, int]],
                  config: ReadConfig) -> list[str]:
    """A warning for each cell read as empty that the occupancy model thought might hold a tile
    (``config.unsure_empty_above``), unless already named (read as a tile, or under glare or
    shadow).

    Why: the tiles occupancy misses are blanks (no letter, only a face the colour of a tile), and
    a missed blank silently changes a word. On the 38 truth photos, read as ``tileref eval``
    reads them (leave-one-source-out models, found corners), 11 tiles were read as empty; this
    names 7 of them, and 26 empty cells (9 on one dim photo, none on 29 of the 38). Thresholds of
    0.1 and 0.2 (occupancy alone, same models) named 8 and 4 missed tiles, 34 and 15 empty cells.
    Chosen on those photos, so not a leave-one-source-out figure. ``tileref eval`` now prints
    what the warnings name; since blanks are also told by colour (a whole blank's evidence makes
    a tile, half of it a doubt: :data:`vision.occupancy.DOUBTFUL_PEER_SPREADS`), 6 of the 8
    tiles still read as empty, and 25 empty squares on 9 of the 38 photos (29 on 12 with the
    shadows that may hide a tile, :func:`_light_warnings`). Read from five occupancy looks
    (``ReadConfig.occupancy_shift``, as ``tileref eval`` reads), 6 of the 7 missed tiles and 39
    empty squares on 15 photos: averaged looks leave more cells half believed. A threshold of
    0.2 or 0.25 would name 5 of the 7 and 30 or 20 squares; the missed tile matters more.
    """
    return [f"{UNSURE_WHETHER} {Cell(col, row).name} holds a tile (read as empty)"
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
        from vision.locate import find_board

        corners = find_board(image).corners
    quad = check_corners(corners)
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
        raise ImageQualityError(str(error), _points(quad)) from None
    reading.timings_ms.update(timings)
    small = _small_board(quad, config)
    if small:
        reading = replace(reading, warnings=(*small, *reading.warnings))
    if south == "auto":
        reading = reading.turned(upright_turns(reading))
    return reading


__all__ = ["SOUTH_OPTIONS", "blur_px", "follow_letters", "lone_turns", "read_board",
           "read_rectified", "second_look", "tile_probability", "upright_turns"]
