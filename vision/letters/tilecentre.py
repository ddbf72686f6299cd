"""Where a tile's letter lies relative to its square: so a tile pushed off it is read whole.

Players push tiles about, and a grid found a little off moves every square against its tile:
a crop cut around the square then cuts the letter at its edge (a K's stem gone reads N). This
module looks at each occupied cell through a crop grown by half a cell on every side, finds the
letter as the letter-sized blob of ink nearest the cell's centre, and says how far its centre
lies from the cell's centre. Looked at from an empty cell, a letter off its centre that no tile
owns may be a tile pushed aside or lying half on the next square (:func:`stray_letters`). It
knows nothing of the game: only ink, sizes and distances.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from vision.blobs import label_maps
from vision.board.rectify import RectifiedBoard
from vision.letters.classify import ink_of_gray
from vision.letters.tuning import (
    LETTER_LONG,
    LETTER_REACH,
    LETTER_SHORT,
    LOCATOR_INK_LEVEL,
    LOOK_CELL_PX,
    LOOK_PAD,
    TILES_APART,
)


def _ink_of_looks(grey: np.ndarray) -> np.ndarray:
    """(N, s, s) ink maps of grown grey crops, levels taken from each crop's middle cell.

    The middle cell holds most of the tile even when it lies half a cell off; its bright end is
    the tile face and its dark end the letter, so the ink level does not depend on the light.
    """
    return ink_of_gray(grey, margin=grey.shape[1] // 4)[0]


def letter_offsets(board: RectifiedBoard, cells: list[tuple[int, int]]) -> np.ndarray:
    """(N, 2) how far (right, down; in cells) each cell's letter centre lies from its centre.

    The letter is the blob of ink of a letter's size whose centre lies nearest the cell's centre
    and within :data:`LETTER_REACH` of it; a cell with none (a blank tile, a letter too faint to
    see) gets (0, 0), so it is read as before. A letter sits a little off its tile's own centre
    (away from its value digit), so a tile on its square gives offsets of about 0.05 cell.
    """
    if not cells:
        return np.zeros((0, 2))
    # The whole board in grey at the locator's scale once, then a window per cell: a tenth of
    # the time of cutting, converting and shrinking each cell's crop.
    scale = LOOK_CELL_PX / board.cell_px
    side = round(board.image.shape[1] * scale)
    grey = cv2.resize(cv2.cvtColor(board.image, cv2.COLOR_BGR2GRAY), (side, side),
                      interpolation=cv2.INTER_AREA)
    # A cell's window starts half a cell before it; the border keeps edge cells' windows whole
    # on a board rectified with less than half a cell of margin.
    border = LOOK_CELL_PX
    grey = cv2.copyMakeBorder(grey, border, border, border, border, cv2.BORDER_REPLICATE)
    origin = np.array(cells, dtype=np.float64) * LOOK_CELL_PX + board.margin_px * scale
    start = np.rint(origin - LOOK_PAD * LOOK_CELL_PX).astype(int) + border
    span = np.arange(2 * LOOK_CELL_PX)
    grey = grey[(start[:, 1, None] + span)[:, :, None], (start[:, 0, None] + span)[:, None, :]]
    return offsets_in_ink(_ink_of_looks(grey) > LOCATOR_INK_LEVEL)


def offsets_in_ink(ink: np.ndarray) -> np.ndarray:
    """:func:`letter_offsets` of (N, s, s) binary ink maps, each spanning two cells with the
    cell in the middle; (N, 2) in cells."""
    n, side = ink.shape[:2]
    cell = side / 2
    blobs = label_maps(ink)
    x, y, w, h, _ = blobs.stats.T
    long, short = np.maximum(w, h) / cell, np.minimum(w, h) / cell
    touches = (x <= 0) | (y <= 0) | (x + w >= side) | (y + h >= side)
    centre = np.column_stack([x + w / 2, y + h / 2]) / cell - 1.0
    letter = np.flatnonzero(
        (LETTER_LONG[0] <= long) & (long <= LETTER_LONG[1]) & (short >= LETTER_SHORT)
        & ~touches & (np.abs(centre).max(axis=1, initial=0) <= LETTER_REACH))
    offsets = np.zeros((n, 2))
    if len(letter) == 0:
        return offsets
    distance = np.hypot(centre[letter, 0], centre[letter, 1])
    # Nearest first within each map; the first of each map is its letter.
    letter = letter[np.lexsort((distance, blobs.owner[letter]))]
    first = letter[np.diff(blobs.owner[letter], prepend=-1) != 0]
    offsets[blobs.owner[first]] = centre[first]
    return offsets


def stray_letters(board: RectifiedBoard, empty: Mapping[tuple[int, int], float],
                  tiles: list[tuple[int, int]]) -> list[tuple[tuple[int, int], np.ndarray]]:
    """The empty cells with a letter lying off their centre that is no tile's letter, each with
    that letter's offset (right, down; in cells): a tile pushed aside, or packed against its
    neighbours tighter than the squares are wide, which no cell was seen to hold.

    Why: the occupancy model looks at each cell as a square with a tile on it or not, and a tile
    lying half on two squares is neither. Tiles smaller than their squares, laid edge to edge,
    drift half a cell over five tiles (the unlabelled francescov1 IMG_0967: the alphabet in rows
    of five, two rows' fifth tiles read as empty, J with no warning at all). ``empty`` maps each
    cell to look at to the least offset its letter must lie at (:data:`PUSHED` or
    :data:`HALF_OFF`); the most is half a cell. ``tiles`` are the cells read as tiles, whose
    letters are not stray; of two empty cells seeing one letter, the first keeps it. Only ink is
    looked at here: whether the letter is a tile's is for the reader to judge.
    """
    if not empty:
        return []
    cells = list(empty)
    offsets = letter_offsets(board, [*tiles, *cells])  # one look at the board for both
    taken = list(np.array(tiles, dtype=np.float64).reshape(-1, 2) + offsets[:len(tiles)])
    found = []
    for cell, offset in zip(cells, offsets[len(tiles):], strict=True):
        far = float(np.abs(offset).max())
        if not empty[cell] <= far <= 0.5:
            continue
        where = np.asarray(cell, dtype=np.float64) + offset
        if any(float(np.abs(where - other).max()) < TILES_APART for other in taken):
            continue
        taken.append(where)
        found.append((cell, offset))
    return found


__all__ = ["letter_offsets", "offsets_in_ink", "stray_letters"]
