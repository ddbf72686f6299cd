"""Premium squares' print, told by its repeating: a label on a square shows on its peers too.

A board whose premium squares print a short label -- DW, TL, 2W, 3L, a star, a diamond -- shows a
dark, letter-sized mark in the middle of an empty square, and the occupancy model, which learnt
premium print from boards that spell it out in small words, took it for a tile's letter: on the
stress set (``python -m bench stress``) 463 of the 466 cells wrongly read as tiles were premium
squares printed with codes, numbers or symbols, dozens on a board, as the issue that asked for the
set saw on real photos. What no tile does is repeat: every square of a kind is printed alike, and
a square's symmetric peers (:func:`vision.cells.cellgrid.symmetric_peers`) are squares of its
kind, while the letters of tiles differ, and sit where a hand put them. So a cell whose ink is
found again in every one of its inked peers, two at least (turned a quarter or not: some boards
turn their labels to face each side; anywhere within a quarter cell: a grid found a little off,
or bent by the lens, does not cut every square alike), is print, not a tile. Every peer, not
two: letters repeat too, and on a crowded board two of a tile's seven peers hold its letter
often enough (7.6 % of the stress set's tiles matched two peers at 0.9, 0.06 % every one).

The sizes and the match (a normalised correlation of 0.9, then 0.85 once black tiles were read
and the whole reader could be measured again) were chosen on the stress set's phantom tiles and
tiles and the truth photos' tiles together (``docs/tuning.md``): measure them on what they were
not chosen on before trusting them further.

Every peer is a lot to ask of a label, though: one of its peers may lie under a tile, a cup or an
arm's shadow, or sit where the lens bent the grid most, and two of seven when two words cross its
kind of square. So a cell whose ink repeats on all its inked peers but one in
``PRINT_PEERS_PER_UNMATCHED`` (one of three to five, two of six or seven) is *likely* print, and
only on a square that is a premium square in some known layout: plain squares carry no label,
and the four round the centre, each the others' peer, often all hold tiles, whose letters matched
two of their three peers often enough to lose 4 tiles of the stress set. Likely print is read as
a square, and named as a doubt (:data:`vision.cells.tuning.PRINT_LIKELY_TILE`).
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.board.rectify import SIZE, RectifiedBoard
from vision.cells.cellgrid import other_peers, plain_squares
from vision.cells.tuning import (
    PRINT_INK_CONTRAST,
    PRINT_MATCH,
    PRINT_PEERS,
    PRINT_PEERS_PER_UNMATCHED,
    PRINT_PX,
    PRINT_SLACK,
)


class PrintedSquares(NamedTuple):
    """Which cells show premium print (:func:`printed_squares`), (225,) bool each, row-major."""

    sure: np.ndarray
    """Ink found again in every inked peer, ``PRINT_PEERS`` at least."""
    likely: np.ndarray
    """Not sure, but found again in all inked peers but one in ``PRINT_PEERS_PER_UNMATCHED``
    (three or more of them), on a square premium in some known layout."""


def printed_squares(board: RectifiedBoard, asked: np.ndarray) -> PrintedSquares:
    """Whether each cell ``asked`` ((225,) bool: the cells that might be read as tiles; looking
    costs up to 0.2 ms a cell) has ink found again in every one of its inked symmetric peers,
    ``PRINT_PEERS`` at least, as a premium square's print is and a tile's letter is not
    (``sure``), or in all but one of them on a premium square (``likely``)."""
    px, margin = board.cell_px, board.margin_px
    slack = min(int(round(PRINT_SLACK * px)), margin)
    region = board.image[margin - slack:margin + SIZE * px + slack,
                         margin - slack:margin + SIZE * px + slack]
    if region.ndim == 3:
        region = cv2.cvtColor(region, cv2.COLOR_BGR2GRAY)
    scale = PRINT_PX / px
    side = int(round(region.shape[0] * scale))
    small = cv2.resize(region, (side, side), interpolation=cv2.INTER_AREA).astype(np.float32)
    reach = int(round(slack * scale))
    # The cell but its edges is the template (a whole label or letter: a smaller piece of a
    # letter's strokes is found in other letters); the peer's cell grown by the slack is where
    # it is looked for.
    middle = PRINT_PX // 8
    cells = small[reach:reach + SIZE * PRINT_PX, reach:reach + SIZE * PRINT_PX].reshape(
        SIZE, PRINT_PX, SIZE, PRINT_PX).transpose(0, 2, 1, 3).reshape(SIZE * SIZE, PRINT_PX,
                                                                      PRINT_PX)
    templates = cells[:, middle:PRINT_PX - middle, middle:PRINT_PX - middle]
    inked = templates.std(axis=(1, 2)) >= PRINT_INK_CONTRAST

    def window(cell: int) -> np.ndarray:
        top, left = reach + (cell // SIZE) * PRINT_PX, reach + (cell % SIZE) * PRINT_PX
        return small[top - reach:top + PRINT_PX + reach, left - reach:left + PRINT_PX + reach]

    peers, other = other_peers()
    # Premium in some known layout: every square but the plain ones (the centre, its own only
    # peer, never has enough peers to be print).
    premium = ~plain_squares()
    sure, likely = np.zeros(SIZE * SIZE, bool), np.zeros(SIZE * SIZE, bool)
    for cell in np.flatnonzero(inked & np.asarray(asked, bool).reshape(-1)):
        looked = [peer for peer, counted in zip(peers[cell], other[cell], strict=True)
                  if counted and inked[peer]]
        if len(looked) < PRINT_PEERS:
            continue
        turned = [np.ascontiguousarray(np.rot90(templates[cell], turns)) for turns in range(4)]
        allowed = len(looked) // PRINT_PEERS_PER_UNMATCHED if premium[cell] else 0
        unmatched = 0
        for peer in looked:
            if not any(cv2.matchTemplate(window(peer), template, cv2.TM_CCOEFF_NORMED).max()
                       >= PRINT_MATCH for template in turned):
                unmatched += 1
                if unmatched > allowed:
                    break
        sure[cell] = unmatched == 0
        likely[cell] = 0 < unmatched <= allowed
    return PrintedSquares(sure, likely)


__all__ = ["PrintedSquares", "printed_squares"]
