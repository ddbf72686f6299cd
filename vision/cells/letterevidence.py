"""The letter evidence of each cell: the ink in its middle, and whether it is a tile's letter.

A tile shows ONE dark central letter of a tile letter's size on a uniform face; a premium square
shows several small words (DOUBLE WORD SCORE) or none, a plain square nothing. So each cell is
described by the biggest central blob of ink, its size, and how many word-sized blobs lie around
it (:func:`letter_features`); the cells that show a letter beyond doubt are this photo's sure
letter tiles (:func:`sure_letter_tiles`), the yardstick of the tiles' colour for
:mod:`vision.cells.facecolour` and :mod:`vision.cells.occupancy`. How each rule was measured is in
:mod:`vision.cells.occupancy`'s docstring, which weighs this evidence.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.blobs import label_maps
from vision.board.cellgrid import WORK_PX, work_cells
from vision.board.rectify import SIZE, RectifiedBoard
from vision.bytestats import percentiles

CORE_MARGIN = WORK_PX // 5
"""A cell's face and dark levels are measured inside this margin (the grid lines are not it)."""
FACE_PERCENTILE = 80
"""A cell's face is this bright percentile of its core (a letter is darker)."""
LETTER_SIZES = (0.3, 0.8)
"""A tile letter's height or width as a fraction of the cell; premium-square print is smaller."""
WORD_LETTER_HEIGHT = (0.06, 0.25)
"""The height of one printed letter of DOUBLE WORD SCORE, as a fraction of the cell."""
MAX_TILE_WORD_BLOBS = 3
"""Small blobs beside a tile's letter: its value digits ("10" is two) or a national letter's two
dots and its digit (Ä 6); a premium square has more."""
SURE_LETTER_THICKNESS = 0.2
"""A sure letter's blob is at least this high and wide (of the cell): a blurred line of premium
print ("DOUBLE WORD") is as wide as a letter but flat.
Only an I is thinner; it is not needed."""
SURE_LETTER_EXTENT = 0.7
"""A sure letter's blob is at most this high and wide (of the cell): the whole block of blurred
premium print, merged into one blob, is 0.7-0.8 of a cell; 3 of 1491 sure letters were over."""
SURE_MIN_CONTRAST = 0.3
"""A sure letter is at least 30 grey levels darker than its face (the letter-evidence feature 7 is
that difference / 100); the texture of a plain square that ink detection blows up is 4-18."""
SURE_CONTRAST = 0.6
"""A sure tile's letter is at least this share as dark against its face as the photo's typical
sure letter (the upper quartile): textured or blurred print is letter-sized but faint."""
LETTER_PAD = 0.5
"""The letter is looked for in the cell grown by this much of a cell on each side (at most the
rectified board's margin). Measured leave-one-source-out with found corners: 0.25 -> 74 wrong
cells, 0.3 -> 59-66, 0.5 -> 48-51; a neighbour's letter still touches the grown crop's edge."""
LINE_WIDTH = 0.3
"""A blob longer than a letter and thinner than this (of a cell) is a line, not a letter: a tile's
edge or the shadow it casts, which is bigger than the letter beside it and hid it. The sure
letter's thickness, chosen before measuring: 0.15 / 0.2 / 0.25 / 0.3 measured 44 / 43 / 42 / 45
wrong cells of 8550 (found corners, this rule alone), 0.2 / 0.3 39 / 38 with the rules below; too
close to pick by. Raised to 0.3 because a tile's side in a dim render (the dark band below the
letter, as wide as the tile) measured 0.21-0.25 of a cell thick and hid a Q and an I
(``tests/test_occupancy.py``); on the photos the shadow a tile casts on the plain square below
is as thick (two false tiles on one board). Leave-one-source-out with found corners: 39 -> 37
wrong cells of 8550 (13 -> 11 false tiles, 26 missed)."""
FRAME_FILL = 0.25
"""Nor is a blob longer than a letter that fills less than this of its box: a tile's outline."""
CENTRAL_OFFSET = 0.5
"""A tile's letter is centred within this much of a cell of its square's centre. Was 0.45: a K on a
tile pushed half a cell off its square (0.47) was then no letter, and its biggest central blob a
tile's edge (missed with the truth corners). 0.5 with
:data:`vision.cells.occupancy.PEER_LIGHTNESS_WEIGHT` 0.25, scratch run of occupancy alone, three
seed offsets summed, corrected truth: see the module docstring."""
CENTRE = SIZE * SIZE // 2
"""Row-major index of the centre square (H8), the one with a printed star."""
STAR_SELF_MATCH = 0.6
"""Overlap (intersection over union) of the star with itself a fifth of a turn on."""
MIN_SURE_TILES = 3
"""Sure letter tiles needed before this board's tile colour is trusted (blanks need it)."""

def _gray(cells: np.ndarray) -> np.ndarray:
    """(N, h, w) uint8 grey of (N, h, w, 3) BGR cells, one colour conversion for all."""
    n, h, w = cells.shape[:3]
    return cv2.cvtColor(cells.reshape(n * h, w, 3), cv2.COLOR_BGR2GRAY).reshape(n, h, w)


def _levels(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each WORK_PX grey cell's face (bright) and dark levels, measured inside CORE_MARGIN."""
    core = gray[:, CORE_MARGIN:WORK_PX - CORE_MARGIN, CORE_MARGIN:WORK_PX - CORE_MARGIN]
    # Percentiles counted from each core's histogram: np.percentile's values, bit for bit, in a
    # fraction of the time (its selection is slow on 225 rows of 784).
    face, dark = percentiles(core.reshape(len(gray), -1), (FACE_PERCENTILE, 2))
    return face, dark


def _ink_grey(face: np.ndarray, dark: np.ndarray, ink: float) -> np.ndarray:
    """(N, 1, 1) grey level at ``ink`` of each cell's way from face (0) to dark (1).

    A cell's ink is (face - grey) / contrast (at least 24 grey levels); only its levels are used
    (over 0.5 is ink, under 0.2 is face), so grey is compared with these thresholds instead of
    making float ink maps: the same pixels, a third of the time."""
    return (face - ink * np.maximum(face - dark, 24.0))[:, None, None]


def _below(gray: np.ndarray, level: np.ndarray) -> np.ndarray:
    """``gray < level`` for bytes and the float levels of :func:`_ink_grey` (all under 255).

    A byte is below a level exactly when it is below the level rounded up, and bytes compared
    with bytes take a seventh of the time of bytes compared with floats."""
    return gray < np.clip(np.ceil(level), 0, 255).astype(np.uint8)


def _above(gray: np.ndarray, level: np.ndarray) -> np.ndarray:
    """``gray > level`` for bytes and float levels under 255, compared as bytes (see
    :func:`_below`): a byte is above a level exactly when it is at least its floor plus one."""
    return gray >= np.clip(np.floor(level) + 1, 0, 255).astype(np.uint8)


def board_letters(board: RectifiedBoard, chosen: np.ndarray | None = None,
                   least_contrast: float = SURE_MIN_CONTRAST) -> np.ndarray:
    """(N, 16) the letter evidence (:func:`letter_features`) of every cell of ``board``, or of
    the ``chosen`` ones (a (225,) bool mask), counting print at least ``least_contrast`` darker
    than its face as ink. For chosen cells only a cell's own letter (features 0-8, 14 and 15)
    means anything: the rest compare it with the board's other cells."""
    pad = min(LETTER_PAD, board.margin_px / board.cell_px)
    cells, around = work_cells(board, 0.0), work_cells(board, pad, gray=True)
    if chosen is not None:
        cells, around = cells[chosen], around[chosen]
    return letter_features(cells, around, pad, least_contrast)


def letter_features(cells: np.ndarray, around: np.ndarray, pad: float,
                     least_contrast: float = SURE_MIN_CONTRAST) -> np.ndarray:
    """Letter evidence per cell, and how close its face colour is to this photo's tile colour.

    The letter is looked for in ``around``, each cell grown by ``pad`` of a cell: tiles sit off
    their squares by up to a third of a cell (players' hands, a grid found 0.3 cell off), and a
    letter cut by the cell's edge was no letter (clear tiles missed). Sizes and offsets below are
    in cells. The cells that look most like tiles (one central blob of a letter's size, no
    word-sized print around it) teach the photo's own tile-face colour, which then tells doubtful
    cells apart: a plain square the colour of the board is not a tile however smudged it is.
    """
    n = cells.shape[0]
    cell = WORK_PX / (1 + 2 * pad)  # pixels of one cell in the grown crops at WORK_PX
    # Face and dark levels are the cell's own (its centre): the grown crop's would count the
    # neighbours' letters and the grid lines, and premium print came out as dark as a letter.
    gray = _gray(cells)
    face_level, dark_level = _levels(gray)
    out = np.zeros((n, 16), np.float32)
    binary = _below(around, _ink_grey(face_level, dark_level, 0.5)).view(np.uint8)
    # Cells with a few stray pixels of ink (under 0.2 %) have no blobs worth measuring.
    inked = binary.reshape(n, -1).mean(axis=1) > 0.002
    blobs = label_maps(binary)
    owner, centres = blobs.owner, blobs.centres
    x, y, w, h, area = blobs.stats.T
    offset = (np.abs(centres - WORK_PX / 2) / cell).max(axis=1)
    # Blobs touching the crop's edge are grid lines or a neighbour's edge; tiny ones noise.
    inside = inked[owner] & (x > 0) & (y > 0) & (x + w < WORK_PX) & (y + h < WORK_PX) & (
        area >= 4)
    words = inside & (offset < 0.5) & (h >= WORD_LETTER_HEIGHT[0] * cell) & (
        h <= WORD_LETTER_HEIGHT[1] * cell) & (w < 0.3 * cell)
    out[:, 6] = np.minimum(np.bincount(owner[words], minlength=n), 10) / 10
    # Each cell's biggest central blob (the first of equal ones, as labelled), lines aside.
    longer = np.maximum(w, h) > LETTER_SIZES[1] * cell
    line = longer & ((np.minimum(w, h) < LINE_WIDTH * cell) | (area < FRAME_FILL * w * h))
    central = np.flatnonzero(inside & (offset < CENTRAL_OFFSET) & ~line)
    central = central[np.lexsort((central, -area[central], owner[central]))]
    first = central[np.r_[True, owner[central][1:] != owner[central][:-1]]] if len(
        central) else central
    cells_with = owner[first]
    bw, bh, barea = w[first], h[first], area[first]
    out[cells_with, 0] = 1.0
    out[cells_with, 1] = bh / cell
    out[cells_with, 2] = bw / cell
    out[cells_with, 3] = barea / cell ** 2
    out[cells_with, 4] = barea / np.maximum(bw * bh, 1)
    # Its shape whichever way it is turned: a letter is at least a stroke thick for its length,
    # a line of premium print merged into one blob or a tile's edge is long and thin.
    out[cells_with, 14] = np.minimum(bw, bh) / np.maximum(np.maximum(bw, bh), 1)
    out[cells_with, 15] = np.minimum(bw, bh) / cell
    out[cells_with, 5] = (LETTER_SIZES[0] <= np.maximum(bw, bh) / cell) & (
        np.maximum(bw, bh) / cell <= LETTER_SIZES[1])
    if CENTRE < n and CENTRE in cells_with:
        blob = blobs.labels[CENTRE] == first[cells_with == CENTRE][0] + 1
        out[CENTRE, 13] = float(_is_star(blob))
    out[:, 7] = (face_level - dark_level) / 100
    # Ink is measured relative to each cell's own contrast, so a plain square's faint texture
    # comes out as blobs; under SURE_MIN_CONTRAST they are no letter evidence.
    faint = out[:, 7] < least_contrast
    out[faint, 0:7] = 0
    out[faint, 14:16] = 0
    # The face colour and the share of ink are the cell's own, not its neighbours'.
    m = CORE_MARGIN
    out[:, 8] = _below(gray, _ink_grey(face_level, dark_level, 0.5)).reshape(n, -1).mean(axis=1)
    core = np.ascontiguousarray(cells[:, m:WORK_PX - m, m:WORK_PX - m])
    side = WORK_PX - 2 * m
    lab = cv2.cvtColor(core.reshape(-1, side, 3), cv2.COLOR_BGR2LAB).reshape(n, -1, 3)
    face_mask = _above(gray[:, m:WORK_PX - m, m:WORK_PX - m],
                       _ink_grey(face_level, dark_level, 0.2)).reshape(n, 1, -1)
    # Mean face colour as a batched product (sums of bytes, exact in float32): a tenth of the
    # time of masking and summing.
    faces = (face_mask.astype(np.float32) @ lab.astype(np.float32))[:, 0] / np.maximum(
        face_mask.sum(axis=2), 1)
    sure = sure_letter_tiles(out)
    board_face = np.median(faces, axis=0)
    tile_face = np.median(faces[sure], axis=0) if sure.sum() >= MIN_SURE_TILES else board_face
    to_tile = np.linalg.norm(faces - tile_face, axis=1)
    to_board = np.linalg.norm(faces - board_face, axis=1)
    out[:, 9] = to_tile / 50
    out[:, 10] = to_board / 50
    out[:, 11] = (to_board - to_tile) / (to_board + to_tile + 5)
    # How many sure letter tiles the board has: with none or one there is no tile colour to
    # compare with, and a lone letter-sized blob (the centre star of an empty board) is suspect.
    out[:, 12] = min(int(sure.sum()), 10) / 10
    return out


def _is_star(blob: np.ndarray) -> bool:
    """Whether a blob is the centre square's five-pointed star, not a letter on a tile.

    A star matches itself turned a fifth of a turn and not turned a tenth (points onto notches);
    no letter does both (an O matches itself either way).
    """
    ys, xs = np.nonzero(blob)
    if len(xs) < 20:
        return False
    centre = (float(xs.mean()), float(ys.mean()))
    mask = blob.astype(np.uint8)

    def overlap(degrees: float) -> float:
        turned = cv2.warpAffine(mask, cv2.getRotationMatrix2D(centre, degrees, 1.0),
                                mask.shape[::-1], flags=cv2.INTER_NEAREST)
        return cv2.countNonZero(cv2.bitwise_and(turned, mask)) / max(
            cv2.countNonZero(cv2.bitwise_or(turned, mask)), 1)

    return overlap(72) >= STAR_SELF_MATCH and overlap(36) < STAR_SELF_MATCH


def letter_shaped(letters: np.ndarray, least_contrast: float = SURE_MIN_CONTRAST
                   ) -> np.ndarray:
    """Cells showing a letter's shape: a central letter-sized blob, no more small blobs than a
    value's digits, and print darker than the faint texture of a plain square (by
    ``least_contrast``). A sure letter tile is one whose print is also nearly as dark as the
    photo's other letters'."""
    return (letters[:, 5] > 0) & (letters[:, 6] <= MAX_TILE_WORD_BLOBS / 10) & (
        np.minimum(letters[:, 1], letters[:, 2]) >= SURE_LETTER_THICKNESS) & (
        np.maximum(letters[:, 1], letters[:, 2]) <= SURE_LETTER_EXTENT) & (
        letters[:, 7] >= least_contrast)


def sure_letter_tiles(letters: np.ndarray) -> np.ndarray:
    """Cells that are tiles beyond doubt: a central letter-sized blob, no more small blobs than a
    value's digits, and dark print, not the faint texture of a plain square.

    Requiring no small blob at all (the earlier rule) rejected nearly every real tile, since its
    value digit is one, and took blurred premium print and textured plain squares for tiles: the
    photo's "tile colour" was then a square's (an orange-tile photo lost all 21 tiles). On the 31
    truth photos this picks 1361 of 1630 tiles and 5 empty cells (two of them centre stars).
    """
    base = letter_shaped(letters)
    if base.sum() < MIN_SURE_TILES:
        return base
    typical = np.percentile(letters[base, 7], 75)
    return base & (letters[:, 7] >= SURE_CONTRAST * typical)


__all__ = ["CENTRE", "LETTER_PAD", "MIN_SURE_TILES", "SURE_MIN_CONTRAST", "board_letters",
           "letter_features", "letter_shaped", "sure_letter_tiles"]
