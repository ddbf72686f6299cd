"""The letter evidence of each cell: the ink in its middle, and whether it is a tile's letter.

A tile shows ONE dark central letter of a tile letter's size on a uniform face; a premium square
shows several small words (DOUBLE WORD SCORE) or none, a plain square nothing. So each cell is
described by the biggest central blob of ink, its size, and how many word-sized blobs lie around
it (:func:`letter_features`); the cells that show a letter beyond doubt are this photo's sure
letter tiles (:func:`sure_letter_tiles`), the yardstick of the tiles' colour for
:mod:`vision.cells.facecolour` and :mod:`vision.cells.occupancy`. How each rule was measured is in
docs/tuning.md ("How the occupancy model was measured").
"""

from __future__ import annotations

from enum import IntEnum

import cv2
import numpy as np

from vision.blobs import label_maps
from vision.board.rectify import SIZE, RectifiedBoard
from vision.bytestats import percentiles
from vision.cells.cellgrid import plain_squares, work_cells
from vision.cells.tuning import (
    CELL_FACE_LEVEL,
    CELL_INK_LEVEL,
    CENTRAL_OFFSET,
    FRAME_FILL,
    LETTER_PAD,
    LETTER_SIZES,
    LIGHT_TILES_LEAST,
    LINE_WIDTH,
    MAX_TILE_WORD_BLOBS,
    MIN_SURE_TILES,
    STAR_SELF_MATCH,
    SURE_CONTRAST,
    SURE_LETTER_EXTENT,
    SURE_LETTER_THICKNESS,
    SURE_MIN_CONTRAST,
    WORD_LETTER_HEIGHT,
)
from vision.polarity import light_print
from vision.tuning import CORE_MARGIN, FACE_PERCENTILE, WORK_PX


class LetterFeature(IntEnum):
    """The columns of :func:`letter_features`: what each number of a cell's evidence says."""

    HAS_LETTER = 0  # 1 where a central blob (the cell's letter, if any) was found
    LETTER_HEIGHT = 1  # the blob's height, in cells
    LETTER_WIDTH = 2  # its width, in cells
    LETTER_AREA = 3  # its area, in square cells
    LETTER_FILL = 4  # its area over its box's
    LETTER_SIZED = 5  # 1 where its longer side is a tile letter's (LETTER_SIZES)
    WORD_BLOBS = 6  # word-sized blobs of print around it, in tenths (10 at most)
    CONTRAST = 7  # the cell's face level less its dark level, in hundreds of grey levels
    INK_SHARE = 8  # the share of the cell's own pixels that are ink
    TO_TILE_FACE = 9  # its face colour's distance to the photo's tile colour, in fifties
    TO_BOARD_FACE = 10  # ...and to the board's usual face colour
    TILE_LIKENESS = 11  # (to board - to tile) / (to board + to tile + 5)
    SURE_TILES = 12  # the board's sure letter tiles, in tenths (10 at most)
    STAR = 13  # 1 where the centre square's blob is its printed star
    LETTER_SQUARENESS = 14  # the blob's smaller side over its larger, whichever way it turns
    LETTER_THICKNESS = 15  # its smaller side, in cells

CENTRE = SIZE * SIZE // 2
"""Row-major index of the centre square (H8), the one with a printed star."""

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
    (:data:`~vision.cells.tuning.CELL_INK_LEVEL` and :data:`~vision.cells.tuning.CELL_FACE_LEVEL`),
    so grey is compared with these thresholds instead of
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
    """(N, 16) the letter evidence (:class:`LetterFeature`) of every cell of ``board``, or of
    the ``chosen`` ones (a (225,) bool mask), counting print at least ``least_contrast`` darker
    than its face as ink. For chosen cells only a cell's own letter (the features up to
    ``INK_SHARE``, ``LETTER_SQUARENESS`` and ``LETTER_THICKNESS``) means anything: the rest
    compare it with the board's other cells."""
    cells, around, pad = letter_crops(board)
    plain = plain_squares()
    if chosen is not None:
        cells, around, plain = cells[chosen], around[chosen], plain[chosen]
    return letter_features(cells, around, pad, least_contrast, plain)


def letter_crops(board: RectifiedBoard) -> tuple[np.ndarray, np.ndarray, float]:
    """Every cell's pixels (BGR), the cells grown by the pad a letter is looked for in (grey),
    and that pad in cells: what :func:`letter_features` reads."""
    pad = min(LETTER_PAD, board.margin_px / board.cell_px)
    return work_cells(board, 0.0), work_cells(board, pad, gray=True), pad


def lettered_light(board: RectifiedBoard) -> bool:
    """Whether this board's tiles carry light letters on dark faces (black plastic), so that the
    board is read as its negative (:func:`vision.read.read_rectified`).

    Every measure of ink counts what is darker than the face; on black tiles that was the whole
    tile, and no letter was seen. Why the board decides, not each cell or crop: many boards print
    their premium squares' labels light on a dark colour (a white TW on red), and inverted, each
    was a dark letter-sized mark, a tile to the occupancy model (on the stress set, 226 more
    phantom tiles on light-tile boards when every cell chose for itself); and a wood tile on a
    white board, its crop edged with white board, passed for light print. All tiles of a set are
    lettered alike, and plain squares carry no print: so the tiles are lettered light when
    letter-shaped light print (:func:`vision.polarity.light_print`, read inverted) shows on at least
    :data:`LIGHT_TILES_LEAST` squares plain in every known layout, and on more of them than
    letter-shaped dark print does.
    """
    cells, around, pad = letter_crops(board)
    plain = plain_squares()
    light = light_print(_gray(cells), CORE_MARGIN)

    def shaped(asked: np.ndarray, inverted: bool) -> int:
        if np.count_nonzero(asked) == 0:
            return 0
        crops, grown = cells[asked], around[asked]
        if inverted:
            crops, grown = 255 - crops, 255 - grown
        return int(np.count_nonzero(letter_shaped(letter_features(crops, grown, pad))))

    # Most boards' plain squares show no light print at all: then nothing more is looked at.
    if np.count_nonzero(light & plain) < LIGHT_TILES_LEAST:
        return False
    lit = shaped(light & plain, True)
    return lit >= LIGHT_TILES_LEAST and lit > shaped(~light & plain, False)


def letter_features(cells: np.ndarray, around: np.ndarray, pad: float,
                     least_contrast: float = SURE_MIN_CONTRAST,
                     plain: np.ndarray | None = None) -> np.ndarray:
    """Letter evidence per cell, and how close its face colour is to this photo's tile colour,
    learnt first from the ``plain`` cells ((N,) bool: :func:`vision.cells.cellgrid.plain_squares`).

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
    out = np.zeros((n, len(LetterFeature)), np.float32)
    binary = _below(around, _ink_grey(face_level, dark_level, CELL_INK_LEVEL)).view(np.uint8)
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
    out[:, LetterFeature.WORD_BLOBS] = np.minimum(np.bincount(owner[words], minlength=n), 10) / 10
    # Each cell's biggest central blob (the first of equal ones, as labelled), lines aside.
    longer = np.maximum(w, h) > LETTER_SIZES[1] * cell
    line = longer & ((np.minimum(w, h) < LINE_WIDTH * cell) | (area < FRAME_FILL * w * h))
    central = np.flatnonzero(inside & (offset < CENTRAL_OFFSET) & ~line)
    central = central[np.lexsort((central, -area[central], owner[central]))]
    first = central[np.r_[True, owner[central][1:] != owner[central][:-1]]] if len(
        central) else central
    cells_with = owner[first]
    bw, bh, barea = w[first], h[first], area[first]
    out[cells_with, LetterFeature.HAS_LETTER] = 1.0
    out[cells_with, LetterFeature.LETTER_HEIGHT] = bh / cell
    out[cells_with, LetterFeature.LETTER_WIDTH] = bw / cell
    out[cells_with, LetterFeature.LETTER_AREA] = barea / cell ** 2
    out[cells_with, LetterFeature.LETTER_FILL] = barea / np.maximum(bw * bh, 1)
    # Its shape whichever way it is turned: a letter is at least a stroke thick for its length,
    # a line of premium print merged into one blob or a tile's edge is long and thin.
    out[cells_with, LetterFeature.LETTER_SQUARENESS] = np.minimum(bw, bh) / np.maximum(
        np.maximum(bw, bh), 1)
    out[cells_with, LetterFeature.LETTER_THICKNESS] = np.minimum(bw, bh) / cell
    longest = np.maximum(bw, bh) / cell
    out[cells_with, LetterFeature.LETTER_SIZED] = (LETTER_SIZES[0] <= longest) & (
        longest <= LETTER_SIZES[1])
    if CENTRE < n and CENTRE in cells_with:
        blob = blobs.labels[CENTRE] == first[cells_with == CENTRE][0] + 1
        out[CENTRE, LetterFeature.STAR] = float(_is_star(blob))
    out[:, LetterFeature.CONTRAST] = (face_level - dark_level) / 100
    # Ink is measured relative to each cell's own contrast, so a plain square's faint texture
    # comes out as blobs; under SURE_MIN_CONTRAST they are no letter evidence.
    faint = out[:, LetterFeature.CONTRAST] < least_contrast
    out[faint, :LetterFeature.CONTRAST] = 0  # no blob, no print around it
    out[faint, LetterFeature.LETTER_SQUARENESS:] = 0
    # The face colour and the share of ink are the cell's own, not its neighbours'.
    m = CORE_MARGIN
    ink = _below(gray, _ink_grey(face_level, dark_level, CELL_INK_LEVEL))
    out[:, LetterFeature.INK_SHARE] = ink.reshape(n, -1).mean(axis=1)
    core = np.ascontiguousarray(cells[:, m:WORK_PX - m, m:WORK_PX - m])
    side = WORK_PX - 2 * m
    lab = cv2.cvtColor(core.reshape(-1, side, 3), cv2.COLOR_BGR2LAB).reshape(n, -1, 3)
    face_mask = _above(gray[:, m:WORK_PX - m, m:WORK_PX - m],
                       _ink_grey(face_level, dark_level, CELL_FACE_LEVEL)).reshape(n, 1, -1)
    # Mean face colour as a batched product (sums of bytes, exact in float32): a tenth of the
    # time of masking and summing.
    faces = (face_mask.astype(np.float32) @ lab.astype(np.float32))[:, 0] / np.maximum(
        face_mask.sum(axis=2), 1)
    sure = sure_letter_tiles(out)
    board_face = np.median(faces, axis=0)
    # The tiles' colour from the sure tiles on plain squares where there are enough: a premium
    # square's short label (3W, DL) passes for a sure letter, and on a board of few tiles its
    # squares' colour outvoted the tiles'.
    trusted = sure & plain if plain is not None else sure
    if trusted.sum() < MIN_SURE_TILES:
        trusted = sure
    tile_face = np.median(faces[trusted], axis=0) if trusted.sum() >= MIN_SURE_TILES else board_face
    to_tile = np.linalg.norm(faces - tile_face, axis=1)
    to_board = np.linalg.norm(faces - board_face, axis=1)
    out[:, LetterFeature.TO_TILE_FACE] = to_tile / 50
    out[:, LetterFeature.TO_BOARD_FACE] = to_board / 50
    out[:, LetterFeature.TILE_LIKENESS] = (to_board - to_tile) / (to_board + to_tile + 5)
    # How many sure letter tiles the board has: with none or one there is no tile colour to
    # compare with, and a lone letter-sized blob (the centre star of an empty board) is suspect.
    out[:, LetterFeature.SURE_TILES] = min(int(sure.sum()), 10) / 10
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
    height, width = letters[:, LetterFeature.LETTER_HEIGHT], letters[:, LetterFeature.LETTER_WIDTH]
    return (letters[:, LetterFeature.LETTER_SIZED] > 0) & (
        letters[:, LetterFeature.WORD_BLOBS] <= MAX_TILE_WORD_BLOBS / 10) & (
        np.minimum(height, width) >= SURE_LETTER_THICKNESS) & (
        np.maximum(height, width) <= SURE_LETTER_EXTENT) & (
        letters[:, LetterFeature.CONTRAST] >= least_contrast)


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
    typical = np.percentile(letters[base, LetterFeature.CONTRAST], 75)
    return base & (letters[:, LetterFeature.CONTRAST] >= SURE_CONTRAST * typical)


__all__ = ["CENTRE", "board_letters", "letter_crops", "letter_features", "letter_shaped",
           "lettered_light", "sure_letter_tiles"]
