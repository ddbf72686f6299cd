"""Tile or empty square, for all 225 cells of a rectified board at once.

"Has dark ink" alone calls 40-45 % of premium squares tiles: DOUBLE WORD SCORE is ink too. A tile
shows ONE dark central letter of a tile letter's size on a uniform face; a premium square shows
several small words or none, a plain square nothing. So each cell is described by its colour and
by that letter evidence (the biggest central blob of ink, its size, how many small word-sized
blobs there are), and its face colour is compared with the face colour of this photo's sure
letter tiles (all tiles of a set share one colour). A small perceptron trained on real boards
(``python -m vision.train``) weighs it all; its weights are in ``vision/models/occupancy.npz``.

Measured leave-one-source-out on the 31 truth photos (a repository's photos never in training):
the earlier design (colour standardised per photo, k-means colour groups) got 391 of 6975 cells
wrong; letter evidence got 137; a stricter "sure letter tile" (below), no absolute lightness and
sure tiles counted as tiles get 69 (``python -m vision.train --evaluate``, truth corners). Looking
for the letter in the cell grown by half a cell (tiles sit off their squares, and a found grid is
up to 0.3 cell off) and an upper size for a sure letter (merged premium print) took ``tileref eval``
(found corners, 8550 cells) from 75 to 43 wrong cells, truth corners (6975 cells) from 69 to 54.
Training on boards rectified with jittered truth corners made it worse (48 -> 62-74). The centre
star, letter-sized ink, was read as a tile on full boards (one real photo, classic-style renders);
it is now told by its shape (:func:`_is_star`). Tried and dropped: at most two letterless tiles a
board (real tiles whose letter went unseen were dropped: 49 -> 59), raising tile-coloured
letterless cells beside tiles as blanks (6 blanks found, as many squares taken: 50 -> 48 with
found corners, 54 -> 59 with truth corners).

The biggest central blob was often no letter: a tile's edge, the shadow it casts on the square
below or its whole outline is bigger than its letter (a clear A and Z missed, shadowed squares
taken for tiles). Lines and outlines are now no letter (:data:`LINE_WIDTH`, :data:`FRAME_FILL`),
and a national letter's two dots may stand beside its value (:data:`MAX_TILE_WORD_BLOBS`: three
umlaut tiles had been missed). Leave-one-source-out: found corners 47 -> 39 wrong of 8550 cells,
truth corners 53 -> 48 of 6975.

A blank on a premium square was still missed: compared with the board's letterless cells at large,
a beige blank on a red triple-word square is as close to the beige plain squares as to the tiles.
Its own symmetric peers (:func:`_peer_likeness`) are red. With that feature, and occupancy trained
on the truth with its errata applied (``bench/truth_errata.csv``: blanks the truth left out, cells
under a sticky note), leave-one-source-out (tile models unchanged): found corners 31 -> 30 wrong
of 8550 cells against the truth files, 25 -> 22 against the corrected truth; truth corners
40 -> 34 and 34 -> 24 (missed tiles 14 -> 6). Each half alone helped too (truth corners,
corrected: peers 27, errata 28).

Most false tiles left were a thin blob taken for the letter: a tile's edge or the shadow it casts
beside an empty square (0.6-0.8 of a cell long, two pixels of 24 thick: shorter than a line),
or a line of premium print ("DOUBLE", "PODWOJNA") merged into one flat blob. The perceptron saw
the blob's height and width, not its shape whichever way it is turned; the blob's thickness
(its smaller side) and its aspect (smaller over larger side) are now features of their own.
Leave-one-source-out (``tileref eval``, found corners, 8550 cells) with the perceptrons averaged
over ten seeds and trained 80 epochs (:data:`vision.train.OCCUPANCY_SEEDS`): see the commit
that made this change for the figures; a scratch run of occupancy alone measured 22 -> 13 wrong
against the corrected truth (13 -> 6 false tiles, 9 -> 7 missed), the training change alone
22 -> 20, the features alone 22 -> 15-17 over three seed offsets. Counting merged print lines
as a feature (several flat blobs on a premium square) measured no better and was dropped.

A blank on a plain square (jheidel 2015, O10 in nine photos) was missing from the truth and is now
in the errata, so occupancy is trained and scored with it as a tile. Scratch run of occupancy
alone, leave-one-source-out, ten perceptrons averaged, summed over three seed offsets (0, 10, 20),
against the corrected truth with those nine blanks: found corners 65 -> 45 wrong (18 -> 12 false
tiles, 47 -> 33 missed), truth corners 83 -> 50 (38 -> 23 false, 45 -> 27 missed), with
:data:`PEER_LIGHTNESS_WEIGHT` a quarter (was a half) and :data:`CENTRAL_OFFSET` 0.5 (was 0.45).
Each alone: lightness 51 / 55 (found / truth corners), offset 59 / 68. ``tileref eval`` (found
corners, one seed offset, corrected truth): 22 -> 15 wrong of 8550 (7 -> 4 false tiles, 15 -> 11
missed). Tried and dropped: peers
compared by face colour rather than the cell's mean (45 / 48, no better), lightness counted a
quarter in the face-colour likeness too (51 / 54), a likeness to the nearest tiles and letterless
cells within three squares (worse: 13 -> 18 for one seed offset, before the errata), a hairline
blob (one pixel thick) chosen as the letter only when nothing thicker is there (39 -> 40 / 51 ->
49, before the errata: noise).

Those blanks were still missed in most photos: no other source has a blank on a square of
another colour, so the model never learnt to trust colour that far. A rule beside the model now
finds a blank by its face's chroma against its own peers and the photo's tiles, and a square
taken for a tile the other way round (:func:`colour_evidence`): ``tileref eval`` 15 -> 12 wrong
cells of 8550 against the corrected truth (three blanks found, no cell taken), and with the truth
corners given (``--given-corners``) 20 -> 14.

What is left: occupancy alone (``python -m bench occupancy``: found corners, the grid's five looks,
models trained without the photo's source, no letters read) is 9 cells wrong of 8550 for each of
three seeds of the perceptrons, the same cells every time: the jheidel blank on O10 in five photos
(1.4-3.3 peer spreads from its plain square, the model's probability 0.02-0.34), the blurred
170755's blank on O15 and I on A13 (which the reader then finds off its square), and 170725's D11
and C12 beside a tile in an oblique view. Tried and dropped, each worse for all three seeds (9
wrong before): the tile-face distance of :func:`_letter_features` with lightness counted a quarter,
as between peers (12; on 100 renders fewer tiles missed, 99 -> 94, but more of them silently, 21 ->
24); the letter blob's offset from the cell's centre as a feature (10-11); the ring of
:func:`_body_likeness` with the middle three quarters of the cell masked, not the middle half
(11-13); every feature taken from the board's own plane, or 0.08 cell above it, instead of the tile
faces' (9-10, both of 170725's squares still taken; 10-11); 60 rendered boards with four blanks
each in training instead of 20 with two (14; on the renders 99 -> 83 tiles missed). No better:
:data:`SURE_MIN_CONTRAST` 0.35 (9: D11 read empty, as no real letter on a truth tile is under 0.35,
but a ssetser square taken). Measured by hand and not built, on the jheidel 2015 photos: a blank's
wood grain (median absolute high-pass of its face at 48 px a cell: 0.6-3.1 on the blanks, the empty
squares' median 0.5-1.1 and 90th percentile 0.7-2.8) and the printed line between O10 and the empty
O11 below it, which the blank might hide (brighter than the dimmest tenth of the lines between two
empty squares on two of eight photos, within 5 grey levels of it on four more): neither tells this
blank from its square.

What told it was a nearer yardstick: the squares around the blank, in the same light, rather than
its peers across the board (:func:`near_distance`, :data:`BLANK_NEAR_SPREADS`). Occupancy alone 9
-> 6 wrong for each of the three seeds (the blank on O10 found in three more photos), ``tileref
eval`` 8 -> 5 of 8550 against the corrected truth (found corners; no cell taken) and 12 -> 8 with
the corners given. Left: O10 in 170737 and 170803 (the squares around it 3.1-3.4 of this photo's
spreads in the grid as found, under the 3.5 that no empty square reaches), 170755's O15 and A13,
170725's D11 and C12.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from vision.blobs import label_maps
from vision.bytestats import percentiles
from vision.classify import MODELS, Mlp
from vision.rectify import SIZE, RectifiedBoard

WORK_PX = 48
"""Cells (and grown cells) are resampled to this square before letters are looked for. Occupancy's
own, not the letter reader's: the perceptron's weights were learnt at this size."""
CORE_MARGIN = WORK_PX // 5
"""A cell's face and dark levels are measured inside this margin (the grid lines are not it)."""
FACE_PERCENTILE = 80
"""A cell's face is this bright percentile of its core (a letter is darker)."""
LETTER_SIZES = (0.3, 0.8)
"""A tile letter's height or width as a fraction of the cell; premium-square print is smaller."""
WORD_LETTER_HEIGHT = (0.06, 0.25)
"""The height of one printed letter of DOUBLE WORD SCORE, as a fraction of the cell."""
LOCAL_FEATURES = 14
"""Colour, ink and edge features come first in :func:`cell_features`, letter evidence after."""
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
"""A tile's letter is centred within this much of a cell of its square's centre. Was 0.45: a K on
a tile pushed half a cell off its square (0.47) was then no letter, and its biggest central blob a
tile's edge (missed with the truth corners). 0.5 with :data:`PEER_LIGHTNESS_WEIGHT` 0.25, scratch
run of occupancy alone, three seed offsets summed, corrected truth: see the module docstring."""
CENTRE = SIZE * SIZE // 2
"""Row-major index of the centre square (H8), the one with a printed star."""
STAR_SELF_MATCH = 0.6
"""Overlap (intersection over union) of the star with itself a fifth of a turn on."""
STAR_TILE = 0.05
"""The probability of a tile on a centre square whose star is in view: a tile would hide it. Under
``unsure_empty_above``: at 0.25 (the earlier cap) every board with its star in view but read as a
letter by the model had "unsure whether H8 holds a tile" (2 of the 39 empty squares warnings
named, leave-one-source-out), about a square the photo shows bare."""
MIN_SURE_TILES = 3
"""Sure letter tiles needed before this board's tile colour is trusted (blanks need it)."""


def _work_cells(board: RectifiedBoard, grow: float, *, gray: bool = False) -> np.ndarray:
    """(225, WORK_PX, WORK_PX, 3) pixels of every cell grown by ``grow`` of a cell on each side
    (up to the board's margin), resampled so a grown cell is WORK_PX square; (225, WORK_PX,
    WORK_PX) grey levels if ``gray``.

    The grid is resampled once and the cells cut from it: 225 resizes and 225 colour conversions
    of separate crops took 5-10 ms a board. With the committed settings (48-px cells, grown by
    half a cell to 96 px and halved) the pixels are the same as a crop's own resampling."""
    px, margin = board.cell_px, board.margin_px
    extra = int(round(grow * px))
    if extra > margin:
        raise ValueError(f"cells cannot grow past the {margin} px margin")
    scale = WORK_PX / (px + 2 * extra)
    region = board.image[margin - extra:margin + SIZE * px + extra,
                         margin - extra:margin + SIZE * px + extra]
    side = int(round(region.shape[0] * scale))
    if side != region.shape[0]:
        region = cv2.resize(region, (side, side), interpolation=cv2.INTER_AREA)
    if gray:
        region = cv2.cvtColor(region, cv2.COLOR_BGR2GRAY)
    if extra == 0:  # cells side by side: one reshaping copy
        return np.ascontiguousarray(region[:SIZE * WORK_PX, :SIZE * WORK_PX].reshape(
            SIZE, WORK_PX, SIZE, WORK_PX, -1).transpose(0, 2, 1, 3, 4)).reshape(
            SIZE * SIZE, WORK_PX, WORK_PX, *region.shape[2:])
    # Overlapping cells: 225 plain slice copies (gathering them from a sliding-window view took
    # 30-110 ms a board: numpy walks the odd strides element by element).
    cells = np.empty((SIZE * SIZE, WORK_PX, WORK_PX, *region.shape[2:]), region.dtype)
    starts = np.minimum(np.round(np.arange(SIZE) * px * scale).astype(int), side - WORK_PX)
    for row, top in enumerate(starts):
        for col, left in enumerate(starts):
            cells[row * SIZE + col] = region[top:top + WORK_PX, left:left + WORK_PX]
    return cells


STATS_PX = 24
"""Colour, ink and edge statistics are taken on the grid shrunk to this many pixels a cell."""


def _box_stats(image: np.ndarray, px: int, *insets: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """(225, C) mean and standard deviation of each cell of a ``uint8`` grid image, per ``inset``
    cut off.

    Integral images: every cell's sums from four lookups, where per-cell numpy reductions over
    a strided axis took ten times as long. Of bytes, not floats: OpenCV's integral of a float
    image took 5-10 ms, of the same values as bytes 0.7 ms.
    """
    channels = 1 if image.ndim == 2 else image.shape[2]
    total, squares = cv2.integral2(image, sdepth=cv2.CV_32S, sqdepth=cv2.CV_64F)
    total = total.reshape(total.shape[0], total.shape[1], channels)
    squares = squares.reshape(squares.shape[0], squares.shape[1], channels)
    out = []
    for inset in insets:
        cut = int(round(inset * px))
        low = np.arange(SIZE) * px + cut
        high = np.arange(SIZE) * px + px - cut

        def box(table: np.ndarray, low: np.ndarray = low, high: np.ndarray = high) -> np.ndarray:
            return (table[high][:, high] - table[low][:, high] - table[high][:, low]
                    + table[low][:, low]).reshape(SIZE * SIZE, channels)

        area = float((px - 2 * cut) ** 2)
        mean = box(total) / area
        out.append((mean, np.sqrt(np.maximum(box(squares) / area - mean * mean, 0.0))))
    return out


def stats_grid(board: RectifiedBoard) -> np.ndarray:
    """The board's grid (no margin) resampled to :data:`STATS_PX` pixels a cell, BGR."""
    px, margin = board.cell_px, board.margin_px
    grid = board.image[margin:margin + SIZE * px, margin:margin + SIZE * px]
    return cv2.resize(grid, (SIZE * STATS_PX, SIZE * STATS_PX), interpolation=cv2.INTER_AREA)


def cell_features(board: RectifiedBoard) -> np.ndarray:
    """A (225, F) feature matrix, row = row * 15 + col, for the occupancy model."""
    grid = stats_grid(board)
    lab = cv2.cvtColor(grid, cv2.COLOR_BGR2LAB)
    # Means and mean + 1.28 sd (the 90th percentile of a normal spread), not medians and
    # percentiles: the same information at a fraction of the time (no sorting of 225 cells).
    (centre, _), (whole, spread) = _box_stats(lab, STATS_PX, 0.22, 0.08)
    bright = whole[:, 0] + 1.28 * spread[:, 0]
    threshold = np.repeat(np.repeat((bright - 45).reshape(SIZE, SIZE), STATS_PX, axis=0),
                          STATS_PX, axis=1)
    dark = (lab[..., 0] < threshold).view(np.uint8)
    edges = (cv2.Canny(cv2.cvtColor(grid, cv2.COLOR_BGR2GRAY), 60, 140) > 0).view(np.uint8)
    both = np.dstack([dark, edges])
    (dark_edges, _), = _box_stats(both, STATS_PX, 0.08)
    chroma_c = np.hypot(centre[:, 1] - 128, centre[:, 2] - 128)[:, None]
    chroma_w = np.hypot(whole[:, 1] - 128, whole[:, 2] - 128)[:, None]
    # Ring versus centre: a tile's face runs to its edges; a premium square's print does not.
    border = np.abs(whole - centre)
    # No absolute lightness (centre, whole, bright): exposure and board colour change it from
    # photo to photo, and a model given it learnt "tiles are light" (orange tiles all missed).
    local = np.concatenate([centre[:, 1:], whole[:, 1:], spread, chroma_c, chroma_w, dark_edges,
                            border], axis=1)
    letters = _board_letters(board)
    sure = _sure_letter_tiles(letters)
    body = _body_likeness(board, letters, sure)
    peers = _peer_likeness(whole, sure)
    return np.concatenate([local / 100.0, letters, body[:, None], peers[:, None]],
                          axis=1).astype(np.float32)


BODY_CELL_PX = 8  # a cell's side in the small copy the rings are compared at (Lab colour)
BODY_EXTRA_PX = 2  # ...and how far a ring reaches beyond the cell: a quarter cell
BODY_NEIGHBOUR = 3  # distances to the 3rd-nearest sure tile and plain cell (1 or 2 may be a fluke)


def _body_likeness(board: RectifiedBoard, letters: np.ndarray, sure: np.ndarray) -> np.ndarray:
    """(225,) in -1..1: how much more a cell's ring looks like this photo's sure letter tiles
    (``sure``, :func:`_sure_letter_tiles` of ``letters``) than like its letterless cells.

    Why: a blank tile has no ink, and its face's colour alone does not tell it from a plain or
    premium square (on several boards the squares are as beige as the tiles). What it shares
    with the photo's lettered tiles is its body: the tile's edges, its side and shadow, the gap
    to the printed lines, all in the same light. So each cell's ring -- its edges and a quarter
    cell around, the letter's middle masked out -- is compared (L1, Lab, 12 pixels a
    side) with the rings of the sure letter tiles and of the letterless cells of the same photo.

    On the 31 truth photos (``tileref eval``, models trained without each photo's source) the
    missed tiles fell from 30 to 16 (most of them blanks) and the false tiles stayed at 16 (3
    more on one dark, low-contrast board, 3 fewer elsewhere). On rendered boards every blank
    scores above every empty cell. The ring's reach (a quarter cell, of 0, 0.1, 0.25), its size
    (12 px, of 8, 12) and the neighbour (3rd, of 3, 5) were chosen looking at those photos.
    """
    px, margin = board.cell_px, board.margin_px
    extra = int(round(BODY_EXTRA_PX / BODY_CELL_PX * px))
    grid = board.image[margin:margin + SIZE * px, margin:margin + SIZE * px]
    outer = board.image[max(0, margin - extra):margin + SIZE * px + extra,
                        max(0, margin - extra):margin + SIZE * px + extra]
    if outer.shape[:2] != (grid.shape[0] + 2 * extra, grid.shape[1] + 2 * extra):
        outer = cv2.copyMakeBorder(grid, extra, extra, extra, extra, cv2.BORDER_REPLICATE)
    side = SIZE * BODY_CELL_PX + 2 * BODY_EXTRA_PX
    # One area-averaging resize (a small-copy pixel is the mean of its block of the cell's own
    # pixels), then Lab on the small copy: 4x cheaper than Lab at full size, the same feature
    # to a few thousandths.
    small = cv2.cvtColor(cv2.resize(outer, (side, side), interpolation=cv2.INTER_AREA),
                         cv2.COLOR_BGR2LAB)
    ring_px = BODY_CELL_PX + 2 * BODY_EXTRA_PX
    # Every cell's ring window at once: (15, 15, 3, ring_px, ring_px) views of the small copy.
    windows = np.lib.stride_tricks.sliding_window_view(small, (ring_px, ring_px), axis=(0, 1))
    windows = windows[::BODY_CELL_PX, ::BODY_CELL_PX].transpose(0, 1, 3, 4, 2)
    ring = np.ones((ring_px, ring_px), bool)
    q = ring_px // 4
    ring[q + 1:ring_px - q - 1, q + 1:ring_px - q - 1] = False
    rings = np.ascontiguousarray(windows[:, :, ring].reshape(SIZE * SIZE, -1))
    tiles = np.flatnonzero(sure)
    plain = np.flatnonzero(letters[:, 0] == 0)
    if min(len(tiles), len(plain)) <= BODY_NEIGHBOUR:
        return np.zeros(len(rings), np.float32)
    to_tile, to_plain = _kth_nearest(rings, tiles), _kth_nearest(rings, plain)
    return ((to_plain - to_tile) / (to_plain + to_tile + 1e-6)).astype(np.float32)


PEER_LIGHTNESS_WEIGHT = 0.25
"""Lightness counts a quarter as much as colour between peers: they lie on different sides of the
board, in different light (the corners of a photo are darker), while a tile's colour is its own.
Was a half: on a board full of tiles an empty plain square's one empty peer lay across the board
in other light, and its lightness made it look more like the tiles (peer-likeness 0.6-0.8, as
high as the blanks'). A quarter found more blanks on plain and triple-word squares; a tenth as
many but more false tiles (see the module docstring)."""


@cache
def symmetric_peers() -> np.ndarray:
    """(225, 8) row-major indices of each cell's images under the square's eight symmetries.

    A board's printed squares look the same under every symmetry of the square (the premium
    layout is symmetric, which is also why pixels cannot say where South is), so a cell and its
    images are the same kind of square. The first column is the cell itself.
    """
    row, col = np.divmod(np.arange(SIZE * SIZE), SIZE)
    last = SIZE - 1
    images = [(row, col), (col, last - row), (last - row, last - col), (last - col, row),
              (row, last - col), (col, row), (last - row, col), (last - col, last - row)]
    return np.stack([r * SIZE + c for r, c in images], axis=1)


@cache
def other_peers() -> tuple[np.ndarray, np.ndarray]:
    """(225, 7) :func:`symmetric_peers` but the cell itself, and whether each is another cell
    seen for the first time: a cell on a diagonal or a middle line is its own image, or meets
    the same peer twice."""
    peers = symmetric_peers()[:, 1:]
    other = peers != np.arange(SIZE * SIZE)[:, None]
    for k in range(1, peers.shape[1]):
        other[:, k] &= ~(peers[:, :k] == peers[:, k:k + 1]).any(axis=1)
    return peers, other


def _peer_likeness(colours: np.ndarray, sure: np.ndarray) -> np.ndarray:
    """(225,) in -1..1: how much more a cell's mean colour (Lab, ``colours``) looks like this
    photo's sure letter tiles (``sure``, :func:`_sure_letter_tiles`) than like its nearest
    symmetric peer (:func:`symmetric_peers`) that is no sure tile.

    Why: a blank tile on a premium square was missed when compared with the board's letterless
    cells at large (a beige blank on a red triple-word square is as close to the beige plain
    squares as to the tiles), while its own peers, the other triple-word squares, are red. An
    empty square, whatever kind it is, looks like its empty peers; a tile looks like the tiles.
    Mean colours, not pixels: premium print is not turned with the board, so peers' pixels
    differ. Peers are the cells that are not sure tiles (not the letterless ones: premium words
    are ink, which left premium squares without peers). Zero where a cell has no such peer or
    the photo too few sure tiles to give a tile colour.

    Measured leave-one-source-out with the truth errata in training (``tileref eval`` and a
    scratch run with the truth corners): see the module docstring. Nothing here was tuned on
    the photos: the lightness weight and the 3rd-nearest tile are :func:`_body_likeness`'s.
    On 12 rendered boards with two blanks on premium squares each, blanks outrank empty cells
    with an AUC of 0.996 (``tests/test_occupancy.py``).
    """
    weight = np.array([PEER_LIGHTNESS_WEIGHT, 1.0, 1.0])
    lab = colours * weight
    out = np.zeros(len(lab), np.float32)
    if sure.sum() <= BODY_NEIGHBOUR:
        return out
    peers, other = other_peers()
    apart = np.linalg.norm(lab[:, None, :] - lab[peers], axis=2)
    to_peer = np.where(other & ~sure[peers], apart, np.inf).min(axis=1)
    to_tile = _kth_nearest(lab, np.flatnonzero(sure))
    known = np.isfinite(to_peer)
    out[known] = (to_peer[known] - to_tile[known]) / (to_peer[known] + to_tile[known] + 1e-6)
    return out


BLANK_PEER_SPREADS = 4.0
"""A blank's face colour is at least this many times farther from its square's peers than this
photo's empty squares typically are from theirs (:func:`colour_evidence`)."""
BLANK_TILE_SPREADS = 2.0
"""...and nearer the tiles' colour than twice the typical sure tile is (:func:`colour_evidence`)."""
CHROMA_NOISE = 0.5
"""Peer spreads are counted in at least this many a*/b* units: below it a camera's noise and
JPEG decide. On the truth photos the median spread is 0.5-2.7 units; on a noiseless render it
was 0.04-0.2, and a square a shade off its peers beside a darkened tile was a "blank" of five
spreads (tests/test_read.py)."""
BLANK_PEER_RANK = 2
"""The peer a blank is measured against is its second nearest: one odd peer (another blank, a
square in a tile's shadow) is no yardstick for what this kind of square looks like. Among the
squares around a cell (:func:`near_distance`) it is the second nearest too: one may be a blank."""
NEAR_RADIUS = 2
"""The squares around a cell, a blank's second yardstick: the cells at most this many rows and
columns away that show no letter (:func:`near_distance`)."""
BLANK_NEAR_SPREADS = 3.5
"""A blank's face chroma is at least this many times farther from the squares around it than this
photo's letterless cells typically are from theirs (:func:`colour_evidence`). Chosen from empty
squares alone: the farthest such candidate of the truth photos is 1.8 with the corners found and
3.15 with the truth corners (jheidel 170737 N1, a grey square tinted by the red frame beside it);
on 120 renders of ``bench blanks``' kind (corners given) three empty squares lie farther (4.0,
4.8, 7.0), and the reading takes none of them for a tile that it did not take before. 3.0 and
2.5 found one blank more on the truth photos (jheidel 170737 O10; ``python -m bench occupancy`` 5
wrong, not 6), but 3.0 takes 170737 N1 with the truth corners and 2.5 a square of a render.

A doubt at 2.5 (kept empty but named, as :data:`DOUBTFUL_PEER_SPREADS` does) was tried and not
kept: ``tileref eval`` as before with found corners, two empty squares more named with the corners
given (37 -> 39) and no missed tile more; on 100 renders (seeds 2000-2099, corners given) one
silent miss fewer (17 -> 16)."""
DOUBTFUL_PEER_SPREADS = BLANK_PEER_SPREADS / 2
"""Half as far makes a cell doubtful: kept empty, but raised to :data:`DOUBTFUL_TILE` so the
reading names it ("unsure whether O10 holds a tile"). Leave-one-source-out, found corners: of the
8 blanks still missed, 6 named instead of 4, and 25 empty cells instead of 23 (on 9 photos of 38;
1.5-3 peer spreads measured 5-6 and 23-27).

A doubt the other way round was tried and not kept: a whole blank's peer spreads from its square
but up to twice :data:`BLANK_TILE_SPREADS` from the tiles' colour (a blank whose face blur or a
red square has tinted). ``tileref eval`` then named the one missed tile no warning names (jheidel
170755 O15) and one empty square more (truth corners given: one missed tile and three squares
more). But on 100 renders, corners given, it named only 2 of the 21 tiles missed silently, named
3 squares more and took 2 squares for tiles (the raised probability tipped the grid's averaged
looks over one half)."""
SPARSE_LIGHTNESS_SPREAD = 8.0
"""The least spread of L* among a sparse board's tiles (:func:`colour_evidence`): one or two
tiles give no spread of their own, and a bold letter darkened a rendered tile's face by 34."""
BLOWN_OUT_LIGHTNESS = 250
"""L* (0-255) from which a face is blown out by glare: a square as white as a white tile. On a
board with few tiles its colour is no evidence (:func:`colour_evidence`): in a scratch run of
100 renders of one or two words under strong glare, one such square beside a washed-out tile
was taken for a blank."""
WASHED_LIGHTNESS = 215
"""L* (0-255) from which a face brighter than the tiles' is washed out by glare, not a square
paler than the tiles (:attr:`ColourEvidence.washed`). Glare whitens: on 400 renders the letters
too faint to be sure of on faces brighter than the tiles' were 87 tiles at L* 197-255 (one under
215) and 9 empty squares: 6 at 180-209 on boards with no glare at all (wood tiles on beige
squares, blurred print), one at 210, and two at 238 and 248 under glare; on the truth photos
two empty squares, at 200 and 201."""
LIKELY_TILE = 0.5
"""The model's probability from which a cell counts as a tile when a board has too few sure
letter tiles to give the tiles' colour by themselves (:func:`colour_evidence`)."""
DOUBTFUL_TILE = 0.3
"""The probability of a doubtful cell: under one half (empty), over ``unsure_empty_above``."""
SQUARE_TILE_SPREADS = 5.5
"""A face this many tile spreads from the tiles' colour, and nearer its own kind of square's, is
a square whatever ink it shows (:func:`colour_evidence`)..."""
WASHED_OUT_SPREADS = 2.0
"""...unless it is brighter than the tiles' faces by more than this many of their median absolute
deviations: glare washes a tile's colour out to its square's (two glared tiles of an unlabelled
photo, kristopalka red_boards_014 D1 and E1, were 4.5 deviations brighter; the four squares this
rule tells on the truth photos 0.3 or less). Nor is a face this much darker than the tiles'
a blank: shadow moves a*, b* as well (the blanks it finds on the photos are within 1.3)."""


SHEEN_ABOVE_PEERS = 80
"""L* (0-255) by which a face lighter than the tiles' but short of glare's white
(:data:`WASHED_LIGHTNESS`) is lighter still than its own kind of square seen bare elsewhere
(:func:`peer_lightness`): a tile whose letter a sheen has taken, named
(:attr:`ColourEvidence.washed`). On an unlabelled photo (kristopalka red_boards_014) the glossy
tiles along the board's far edge shone grey-white over matte dark red squares, their letters faint
or gone: L* 160-175, 107-131 above their squares, and the model read B1 and C1 as empty with no
word said. On the truth photos no empty square lighter than the tiles is more than 52 above
(ssetser IMG_2677 I6 and F9, white squares whose peers lie in the tiles' shadows); 80 is about the
middle. Without the cap at :data:`WASHED_LIGHTNESS` a glare's halo on dark squares was named too.
Empty squares named, corners given: on 60 renders under glare 0.15-0.9 (seeds 300-359, each board
style) 854 before, 865 now, 894 without the cap; on 100 renders of random conditions (seeds
2000-2099) 976, 981 and 1001. Neither set has a tile read or missed differently: the renderer's
glare whitens tiles and squares alike. ``python -m bench blanks``: one more of the blanks it misses
is named (a classic render's; 5 -> 4 of 15 missed silently), squares taken 28 as before.
``python -m bench sheen`` (renders with the sheen itself, read as the live camera reads): tiles
missed with no warning 85 -> 79 of 833, all on the green board's dark squares (17 -> 11); squares
named there 92 -> 111, and 73 -> 93 on the same green scenes without a sheen (a glare's halo), on
the light boards 11 more of 806. Most of the sheen's silent misses, on light squares, are left:
a tile whose letter is washed away is no lighter than its square there."""

FAINT_LETTER_CONTRAST = 0.17
"""Print at least this much darker than its face (the letter-evidence feature 7, grey levels / 100)
but short of :data:`SURE_MIN_CONTRAST`, in a letter's shape on a face brighter than the tiles'
(:data:`WASHED_OUT_SPREADS`), is a letter a sheen or glare has greyed
(:attr:`ColourEvidence.washed`): named, never read by this alone. Such print is no ink to the model
(the texture of a plain square reaches 0.18), so a tile whose letter a sheen had greyed that far, on
a light square no darker than the washed face, was read as empty with no word said. On ``python -m
bench sheen``'s renders the tiles so missed that showed a letter's shape on a brighter face were
0.16-0.28; empty squares that did were 0.10-0.16 and one at 0.22, and on the truth photos (found
corners) 0.08-0.16 and one at 0.18. Measured: ``python -m bench sheen``, tiles missed with no
warning 79 -> 63 of 833 (classic 22 -> 14, green 11 -> 10, modern 46 -> 39), one empty square more
named on the modern boards with the sheen and one without; ``tileref eval`` as before in every
column with found corners, and with the corners given two empty squares more named on jheidel 170725
(10 -> 12; one checked by eye, a grey plain square whose texture makes a letter-sized blob).
Unchanged: ``python -m bench blanks``, and 100 renders of random conditions (seeds 2000-2099,
corners given: 97 tiles missed, 80 of them named, 981 squares named, 2 taken). Left: letters washed
away entirely, and a sheen that leaves the letter plain but takes the face's colour to its square's,
so that the model reads a square; on a plain square that is named since
(:data:`BARE_PRINT_CONTRAST`)."""

BARE_PRINT_CONTRAST = 0.08
"""A kind of square whose bare cells' print is fainter than this (the letter-evidence feature 7,
grey levels / 100; :func:`peer_print`) is a plain one, with no print to take for a letter: a
letter's shape on one is a doubt the reading names (:func:`letters_on_bare_kinds`).

Why: a sheen that leaves a tile's letter plain (30-90 grey levels darker than its face) can still
take its face's colour to a light plain square's, and the model then read it as a square, with no
word said (whole words along a board's far edge). Measured on renders: such missed tiles' kinds of
square were 0.01-0.05 where bare (the second faintest peer, :data:`BLANK_PEER_RANK`); premium
squares whose print made a letter's shape 0.11 or more, and on the truth photos (found corners) 0.38
or more; 0.08 lies between. On the truth photos with their corners it picks four cells, all tiles
(jheidel 170755's blurred I and T). On three unlabelled photos (kristopalka red_boards_001 C10,
red_boards_014 D3 and D9, checked by eye) the grain or a tile's shadow on a dark red plain square
made a letter's shape at 0.30-0.44, so a face much darker than the tiles' (more than
:data:`WASHED_OUT_SPREADS` of their spread, at least :data:`SPARSE_LIGHTNESS_SPREAD`) is left out: a
sheen only lightens. Scratch run of 90 clean renders, a word along the far edge under a sheen of
0.6-1.0 (three board styles, six seeds): tiles missed with no warning 137 -> 91 of 2235, empty
squares named 5 as before. ``python -m bench sheen``: 63 -> 61 of 833 (modern 39 -> 37), no square
more named. Unchanged: ``tileref eval`` both ways, ``python -m bench blanks`` and ``early``, 100
renders of random conditions (seeds 2000-2099)."""

PLAIN_FAINT_LETTER_CONTRAST = 0.22
"""A faint letter's shape (:data:`FAINT_LETTER_CONTRAST`) on a plain square
(:data:`BARE_PRINT_CONTRAST`) whose face is no darker than the tiles' but not brighter either (a
dim photo: the sheen greys the letter without lifting the face above the tiles') is a letter a
sheen greyed, named, from this contrast. On such faces the texture of empty squares made a
letter's shape at 0.17-0.21 (four on the truth photos with found corners; four on 220 renders),
tiles greyed by a sheen 0.20-0.29 (``python -m bench sheen``). Measured: ``python -m bench
sheen`` tiles missed with no warning 61 -> 56 of 833 (classic 14 -> 13, modern 37 -> 33), no
square more named; ``tileref eval`` both ways, ``python -m bench early``, 100 renders of random
conditions and the unlabelled photos read as before. From 0.17 instead, ``tileref eval`` (found
corners) named one empty square more (jheidel 165902) and ``bench early``'s clean renders two."""


class ColourEvidence(NamedTuple):
    """What the colour of each cell's face says, beside the model (:func:`colour_evidence`)."""

    blank: np.ndarray
    """(225,) how far a candidate blank's face is from its own kind of square, in this photo's
    peer spreads; 0 where a cell is no candidate (it has a letter, no sure letter tile beside it,
    or a face not of the tiles' colour). On a board with too few sure letter tiles a letter too
    thin to be sure of is a candidate too (:func:`colour_evidence`'s ``likely``)."""
    near: np.ndarray
    """(225,) how far a candidate blank's face is from the letterless squares around it
    (:func:`near_distance`), in this photo's typical such distance; 0 where a cell is no
    candidate."""
    square: np.ndarray
    """(225,) bool: a face far from the tiles' colour (:data:`SQUARE_TILE_SPREADS`) and nearer
    its own kind of square's: no tile, whatever the ink on it looks like."""
    washed: np.ndarray
    """(225,) bool: a letter's shape too faint to be sure of, on a face washed out brighter than
    the tiles' (:data:`WASHED_OUT_SPREADS`): a tile under glare, which greys its letter and
    takes its colour away; or a face brighter than the tiles' far lighter than its own kind of
    square (:data:`SHEEN_ABOVE_PEERS`), a tile whose letter a sheen took; or a letter on a plain
    square (:func:`letters_on_bare_kinds`), or a faint one (:data:`PLAIN_FAINT_LETTER_CONTRAST`),
    on a face no darker than the tiles', a tile whose colour a sheen took. Doubtful, so named,
    not read (:func:`colour_evidence`)."""

    @classmethod
    def none(cls) -> ColourEvidence:
        """No evidence either way: a board with no yardstick of its own."""
        return cls(np.zeros(SIZE * SIZE), np.zeros(SIZE * SIZE), np.zeros(SIZE * SIZE, bool),
                   np.zeros(SIZE * SIZE, bool))

    def blanks(self) -> np.ndarray:
        """(225,) bool: blanks by colour, far from their own kind of square or from the
        squares around them."""
        return (self.blank > BLANK_PEER_SPREADS) | (self.near > BLANK_NEAR_SPREADS)


def colour_blanks(board: RectifiedBoard, features: np.ndarray) -> np.ndarray:
    """(225,) bool: letterless cells beside a sure letter tile whose face is the tiles' colour
    and not the colour of their own kind of square -- blanks, whatever the model made of them
    (:func:`colour_evidence`)."""
    return colour_evidence(board, features).blanks()


def face_colours(board: RectifiedBoard) -> tuple[np.ndarray, np.ndarray]:
    """(225,) mean L* and (225, 2) mean a*, b* of each cell's face: the brighter half of its
    core (the centre of :func:`cell_features`), so no ink or shadow of a letter counts."""
    lab = cv2.cvtColor(stats_grid(board), cv2.COLOR_BGR2LAB)
    cut = int(round(0.22 * STATS_PX))
    cores = lab.reshape(SIZE, STATS_PX, SIZE, STATS_PX, 3).transpose(0, 2, 1, 3, 4)[
        :, :, cut:STATS_PX - cut, cut:STATS_PX - cut].reshape(SIZE * SIZE, -1, 3)
    lightness = cores[..., 0]
    face = lightness >= np.median(lightness, axis=1, keepdims=True)
    # Each face's mean L*, a*, b* as one batched product (a fifth of the time of masked sums).
    means = np.matmul(face[:, None, :].astype(np.float32),
                      cores.astype(np.float32))[:, 0] / face.sum(axis=1)[:, None]
    return means[:, 0], means[:, 1:]


def peer_distance(chroma: np.ndarray, sure: np.ndarray, *, nearest_of_few: bool = False
                  ) -> np.ndarray:
    """(225,) how far each cell's face chroma (:func:`face_colours`) is from its own kind of
    square: its :data:`BLANK_PEER_RANK`-th nearest symmetric peer that is no sure letter tile
    (``sure``); infinite where it has too few such peers. ``nearest_of_few``: the nearest where
    only two are left, of which the farther may well be a tile that is not sure (the four
    squares around the centre on a board with its first word)."""
    peers, other = other_peers()
    usable = other & ~sure[peers]
    apart = np.sort(np.where(usable, np.linalg.norm(chroma[peers] - chroma[:, None], axis=2),
                             np.inf), axis=1)
    rank = np.full(len(apart), BLANK_PEER_RANK - 1)
    if nearest_of_few:
        rank[usable.sum(axis=1) <= BLANK_PEER_RANK] = 0
    return apart[np.arange(len(apart)), rank]


def peer_lightness(lightness: np.ndarray, squares: np.ndarray) -> np.ndarray:
    """(225,) how light each cell's own kind of square is where it is bare: the
    :data:`BLANK_PEER_RANK`-th lightest of its symmetric peers among ``squares`` (one may be
    a tile nobody is sure of, or glared itself); infinite where it has too few such peers."""
    darkness = _ranked_among_peers(-lightness, squares)
    return np.where(np.isfinite(darkness), -darkness, np.inf)


def peer_print(letters: np.ndarray, squares: np.ndarray) -> np.ndarray:
    """(225,) how dark the print of each cell's own kind of square is where it is bare: the
    contrast (letter-evidence feature 7) of the :data:`BLANK_PEER_RANK`-th faintest of its
    symmetric peers among ``squares``; infinite where it has too few such peers."""
    return _ranked_among_peers(letters[:, 7], squares)


def _ranked_among_peers(values: np.ndarray, squares: np.ndarray) -> np.ndarray:
    """(225,) the :data:`BLANK_PEER_RANK`-th least of ``values`` over each cell's symmetric
    peers among ``squares``; infinite where it has too few such peers."""
    peers, other = other_peers()
    usable = other & squares[peers]
    return np.sort(np.where(usable, values[peers], np.inf), axis=1)[:, BLANK_PEER_RANK - 1]


def letters_on_bare_kinds(letters: np.ndarray) -> np.ndarray:
    """(225,) bool: a letter's shape, not the centre's star, on a cell whose own kind of
    square shows no print where it is bare (:data:`BARE_PRINT_CONTRAST`): a plain square with
    a letter on it holds a tile, whatever its face's colour says, unless the shape is the grain
    or a shadow of a dark square (:attr:`ColourEvidence.washed` takes only faces no darker
    than the tiles')."""
    sure = _sure_letter_tiles(letters)
    return _lettered(letters) & ~sure & _plain_kinds(letters, sure)


def _plain_kinds(letters: np.ndarray, sure: np.ndarray) -> np.ndarray:
    """(225,) bool: cells whose own kind of square shows no print where it is bare
    (:data:`BARE_PRINT_CONTRAST`), its bare cells being those not ``sure`` letter tiles."""
    return peer_print(letters, ~sure) < BARE_PRINT_CONTRAST


def _lettered(letters: np.ndarray) -> np.ndarray:
    """(225,) bool: a letter's shape (:func:`_letter_shaped`) that is not the centre's star."""
    return _letter_shaped(letters) & (letters[:, 13] == 0)


@cache
def _near() -> tuple[np.ndarray, np.ndarray]:
    """(225, 24) row-major indices of the cells at most :data:`NEAR_RADIUS` rows and columns
    from each cell (not itself), and whether each lies on the board (an index off it is 0)."""
    row, col = np.divmod(np.arange(SIZE * SIZE), SIZE)
    steps = [(dr, dc) for dr in range(-NEAR_RADIUS, NEAR_RADIUS + 1)
             for dc in range(-NEAR_RADIUS, NEAR_RADIUS + 1) if (dr, dc) != (0, 0)]
    rows = row[:, None] + np.array([dr for dr, _ in steps])
    cols = col[:, None] + np.array([dc for _, dc in steps])
    on_board = (rows >= 0) & (rows < SIZE) & (cols >= 0) & (cols < SIZE)
    return np.where(on_board, rows * SIZE + cols, 0), on_board


def near_distance(chroma: np.ndarray, letterless: np.ndarray) -> np.ndarray:
    """(225,) how far each cell's face chroma (:func:`face_colours`) is from the squares around
    it: its :data:`BLANK_PEER_RANK`-th nearest among the ``letterless`` cells within
    :data:`NEAR_RADIUS`; infinite where it has too few such cells.

    Why: a blank's symmetric peers (:func:`peer_distance`) lie across the board, in other light
    and at another angle to the camera, and their spread is the whole photo's; the squares around
    it share its light. Any kind of square counts, as premium squares are far in chroma from a
    plain one (so never the nearest) and a plain square has plain squares around it."""
    near, on_board = _near()
    usable = on_board & letterless[near]
    apart = np.where(usable, np.linalg.norm(chroma[near] - chroma[:, None], axis=2), np.inf)
    return np.partition(apart, BLANK_PEER_RANK - 1, axis=1)[:, BLANK_PEER_RANK - 1]


def colour_evidence(board: RectifiedBoard, features: np.ndarray,
                    likely: np.ndarray | None = None) -> ColourEvidence:
    """Blanks and squares told by the colour of a cell's face against this photo's sure letter
    tiles and against its own kind of square (its symmetric peers).

    Why: the perceptron weighs colour against everything else it learnt, and the only real
    photos with a blank on a square of another colour than the tiles (jheidel 2015: a wooden
    blank on a grey plain square, O10 in nine photos) are all one source, so left out of its
    training when that source is tested: it missed those blanks. The evidence is plain, though,
    when each photo is its own yardstick. Only chroma (a*, b*) of a cell's face (its brighter
    half, so no ink or shadow) is compared: lightness is the light's, chroma the material's.

    A cell is a blank when it is farther from its symmetric peers (:func:`symmetric_peers`,
    the same kind of square; the second nearest, :data:`BLANK_PEER_RANK`) than
    :data:`BLANK_PEER_SPREADS` times the median of that distance over the photo's letterless
    cells; nearer the median sure tile than :data:`BLANK_TILE_SPREADS` times the sure tiles'
    own median distance to it, and nearer it than to that peer (on a board whose squares are
    the tiles' colour, a clean render, a shade of difference was otherwise five spreads); not
    darker than the tiles' faces by :data:`WASHED_OUT_SPREADS` of their deviations (a shadow
    shifts a*, b* too: a beige square half in a tile's shadow was a blank of 14 spreads); and
    beside a sure letter tile (a blank is part of a word; a washed-out square under a glare
    halo drifts to a white tile's chroma too).

    Measured on the truth photos, leave-one-source-out models, found corners (8550 cells): three
    missed blanks found, no empty cell taken (jheidel 170028 O10, 170320 O10, 170725 O15); with
    the truth corners two found (170320 O10, ssetser I4), none taken. The thresholds were chosen
    on every source but jheidel and on 20 renders (found and truth corners, thresholds 3-6 and
    1.5-3): there 3, 4 and 5 peer spreads tied (two tiles found, no empty cell taken), 2.5 tile
    spreads took an empty square of a render; 4 is the middle of the tie. Without the neighbour
    rule eight empty cells of the renders were taken (glare halos); with the nearest peer instead
    of the second, two on the jheidel photos and one on a render (an empty square whose only
    unsure peer was a blank).

    The other way round, a cell read as a tile whose face is :data:`SQUARE_TILE_SPREADS` from
    the tiles' colour and nearer its peers is a square: premium print or a shadow taken for a
    letter (unless the face is washed out, :data:`WASHED_OUT_SPREADS`). Leave-one-source-out
    with the truth corners (as a calibration profile or dragged corners give them) it took back
    four false tiles (DeclanFinerty board_003 E14, B15, F15 and jheidel 170248 D1, 6.3-19
    spreads) and lost no tile on the photos or the 20 renders; at 4 spreads it lost two (ssetser
    IMG_2687 L10, L13), at 7 it took back two: 5.5 is the middle of the range that loses none and
    takes back all four. With found corners it changes nothing.

    A tile under glare is the other way about: its letter greyed, too faint beside the photo's
    other letters to be sure of, and its face whitened, far from the tiles' colour. The model took
    such tiles for squares and nothing named them, though "a tile under glare is never silently
    read as empty": glare is only said where pixels are blown out, and these were short of that.
    So a letter's shape too faint to be sure of, on a face brighter than the tiles' by
    :data:`WASHED_OUT_SPREADS` and at least :data:`WASHED_LIGHTNESS`, is ``washed``: a doubt,
    named, never read as a tile by this alone. On 163 renders of ``bench blanks``' kind (corners
    given) lettered tiles read as empty with no warning went from 15 to 9 both as the live camera
    and as ``tileref read`` read, on 182 renders of random positions and conditions from 27 to
    21; no empty square more was named on either, nor on the truth photos (``tileref eval``, both
    ways: every figure unchanged). What is left: letters washed away entirely, a thin I (no
    letter's shape), tiles in a dark photo. A letter a sheen took entirely, on a glossy tile over
    a dark matte square, is named too: the face lighter than the tiles' and far lighter than its
    own kind of square bare elsewhere (:data:`SHEEN_ABOVE_PEERS`); the truth photos read as
    before (``tileref eval``, both ways), and a real photo's silent B1 and C1 are named. And so
    is a letter greyed fainter than the model counts as ink but still in a letter's shape, on a
    face lighter than the tiles' (:data:`FAINT_LETTER_CONTRAST`, :func:`_faint_letters`): on light
    squares, where a sheened face is no lighter than its square; or, a little darker still
    (:data:`PLAIN_FAINT_LETTER_CONTRAST`), on a plain square's face no darker than the tiles'. A
    letter's shape on a plain square, on such a face, is named too (:func:`letters_on_bare_kinds`).

    A blank's own kind of square can be far off across the board, in other light: the wooden
    blank on the jheidel photos' grey plain square O10 was 1.3-3.6 peer spreads from its peers,
    a doubt at most. The squares around it, in the same light, are a second yardstick
    (:func:`near_distance`): a candidate as above, nearer the tiles' colour than the squares
    around it, and :data:`BLANK_NEAR_SPREADS` farther from them than this photo's letterless cells
    typically are from theirs, is a blank too (``near``). Measured leave-one-source-out: ``tileref
    eval`` 8 -> 5 wrong cells of 8550 against the corrected truth, 12 -> 8 with the truth corners
    given (O10 found on 3 and 4 more photos, no cell taken); with the truth corners 17 of the 24
    blanks of 31 photos are told by colour alone instead of 10, three of them DeclanFinerty's
    (``tests/test_colour_blanks.py``). On 80 renders (``python -m bench blanks``) blanks missed
    16 -> 15, 6 -> 5 of them silently, squares taken 28 as before.

    A board with fewer than :data:`MIN_SURE_TILES` sure letter tiles (the first moves of every
    game) has no such yardstick, and there the model alone missed whole first words: a thin I,
    a blank, and then the centre tile too, halved as a lone centre (:func:`game_rules`). So with
    ``likely`` (the cells the model finds likely tiles) the tiles it finds, and a letter on the
    centre that is not the star, give the tiles' colour instead (``_sparse_evidence``). Measured
    by ``python -m bench early`` (60 positions of one to four words, each rendered under random
    conditions and clean): letters missed 11 -> 5 of 360 and 12 -> 3 of 410, blanks missed
    17 -> 9 of 35 and 19 -> 12 of 37, no square taken for a tile before or after. The truth
    photos, all boards well into a game, read exactly as before (``tileref eval``, both ways).
    The squares around a cell judge there too: blanks missed 9 -> 7 and 12 -> 10 (a blank on the
    centre, which has no peers; ``tests/test_first_moves.py``), no square taken.
    """
    letters = features[:, LOCAL_FEATURES:]
    sure = _sure_letter_tiles(letters)
    letterless = letters[:, 0] == 0
    if sure.sum() < MIN_SURE_TILES:
        if likely is None:
            return ColourEvidence.none()
        return _sparse_evidence(board, letters, sure | likely)
    faces = _faces_against(board, sure, letterless)
    to_peer, to_near, to_tile = faces.to_peer, faces.to_near, faces.to_tile
    tile_spread = max(float(np.median(to_tile[sure])), 1e-6)
    square = (to_tile > SQUARE_TILE_SPREADS * tile_spread) & (to_peer < to_tile) & ~faces.brighter()
    lettered = _lettered(letters)
    glared = lettered & (faces.lightness >= WASHED_LIGHTNESS)
    shone = (faces.lightness < WASHED_LIGHTNESS) & (
        faces.lightness - peer_lightness(faces.lightness, letterless & ~sure) > SHEEN_ABOVE_PEERS)
    # A sheen takes a face towards white, never below the tiles' own lightness.
    on_plain = ~faces.darker(least_spread=SPARSE_LIGHTNESS_SPREAD) & _plain_kinds(letters, sure)
    faint = _faint_letters(board, letters, ~sure & (faces.brighter() | (
        on_plain & (letters[:, 7] >= PLAIN_FAINT_LETTER_CONTRAST))))
    # On a plain square, a letter on a face no darker than the tiles' (letters_on_bare_kinds).
    washed = ~sure & ((faces.brighter() & (glared | shone)) | faint | (on_plain & lettered))
    beside = cv2.dilate(sure.reshape(SIZE, SIZE).view(np.uint8),
                        cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))).reshape(-1) > 0
    candidate = (letterless & beside & ~faces.darker()
                 & (to_tile < BLANK_TILE_SPREADS * tile_spread))
    blank, near = (_in_typical(distance, letterless,
                               candidate & np.isfinite(distance) & (to_tile < distance))
                   for distance in (to_peer, to_near))
    return ColourEvidence(blank, near, square, washed)


def _faint_letters(board: RectifiedBoard, letters: np.ndarray, candidates: np.ndarray
                   ) -> np.ndarray:
    """(225,) bool: the ``candidates`` showing a letter's shape in print too faint to count as
    a letter (:data:`SURE_MIN_CONTRAST`) but at least :data:`FAINT_LETTER_CONTRAST` darker than
    its face. Only those cells' letters are looked at again, with that fainter print counted as
    ink: on the truth photos (20 of 38 have such a cell) the whole board's took 8.5 ms a call,
    theirs alone 1.3 ms."""
    contrast = letters[:, 7]
    faint = candidates & (contrast >= FAINT_LETTER_CONTRAST) & (contrast < SURE_MIN_CONTRAST)
    if faint.any():
        faint[faint] = _letter_shaped(_board_letters(board, faint, FAINT_LETTER_CONTRAST),
                                      FAINT_LETTER_CONTRAST)
    return faint


class _Faces(NamedTuple):
    """Each cell's face measured against a set of tiles (:func:`_faces_against`)."""

    lightness: np.ndarray
    """(225,) L* of each face (:func:`face_colours`)."""
    to_peer: np.ndarray
    """(225,) chroma distance to its own kind of square (:func:`peer_distance`)..."""
    to_near: np.ndarray
    """(225,) ...and to the letterless squares around it that are none of the tiles
    (:func:`near_distance`)."""
    to_tile: np.ndarray
    """(225,) chroma distance to the tiles' median chroma."""
    tile_lightness: float
    """The tiles' median L*..."""
    lightness_spread: float
    """...and their median absolute deviation from it."""

    def brighter(self) -> np.ndarray:
        """Faces washed out: brighter than the tiles' by :data:`WASHED_OUT_SPREADS` deviations."""
        return self.lightness > self.tile_lightness + WASHED_OUT_SPREADS * self.lightness_spread

    def darker(self, least_spread: float = 0.0) -> np.ndarray:
        """Faces in shadow: as much darker than the tiles', counting their deviation as at least
        ``least_spread``."""
        return self.lightness < self.tile_lightness - WASHED_OUT_SPREADS * max(
            self.lightness_spread, least_spread)


def _in_typical(distance: np.ndarray, letterless: np.ndarray, candidates: np.ndarray
                ) -> np.ndarray:
    """(225,) each of the ``candidates``' ``distance`` in units of the :func:`_typical` distance
    of the ``letterless`` cells that have one; 0 elsewhere, and everywhere if none has."""
    evidence = np.zeros(SIZE * SIZE)
    known = letterless & np.isfinite(distance)
    if known.any():
        evidence[candidates] = distance[candidates] / _typical(distance, known)
    return evidence


def _typical(distance: np.ndarray, known: np.ndarray) -> float:
    """The typical ``distance`` of the ``known`` cells to their yardstick, the unit of evidence
    (at least :data:`CHROMA_NOISE`)."""
    return max(float(np.median(distance[known])), CHROMA_NOISE)


def _faces_against(board: RectifiedBoard, tiles: np.ndarray, letterless: np.ndarray, *,
                   nearest_of_few: bool = False, least_spread: float = 0.0) -> _Faces:
    """Every face's colour against the faces of ``tiles`` and against its own kind of square and
    the ``letterless`` squares around it; ``least_spread`` is the least deviation of the tiles'
    L* to count with (few tiles give none of their own)."""
    lightness, chroma = face_colours(board)
    tile_lightness = lightness[tiles]
    middle = float(np.median(tile_lightness))
    return _Faces(lightness, peer_distance(chroma, tiles, nearest_of_few=nearest_of_few),
                  near_distance(chroma, letterless & ~tiles),
                  np.linalg.norm(chroma - np.median(chroma[tiles], axis=0), axis=1), middle,
                  max(float(np.median(np.abs(tile_lightness - middle))), least_spread))


def _sparse_evidence(board: RectifiedBoard, letters: np.ndarray, tiles: np.ndarray
                     ) -> ColourEvidence:
    """:func:`colour_evidence` on a board with too few sure letter tiles.

    ``tiles`` (the sure ones and those the model finds likely) give the tiles' colour, and so
    does a letter on the centre square that is not its star: the centre has no peers to be
    measured against, but a letter there is on a tile. A cell nearer the tiles' colour than its
    own kind of square's, far from that kind of square and joined to those tiles through such
    cells, is a tile whether it shows no letter (a blank) or a letter too thin to be sure of (an
    I). Peers are fewer here (the tiles take some), so of the last two the nearer is the yardstick.
    The squares around a cell are a yardstick the same way (``near``): the centre has no peers.
    """
    lettered = letters[:, 5] > 0
    letterless = letters[:, 0] == 0
    centre = np.zeros(SIZE * SIZE, bool)
    centre[CENTRE] = lettered[CENTRE] and letters[CENTRE, 13] == 0
    tiles = tiles | centre
    if not tiles.any():
        return ColourEvidence.none()
    faces = _faces_against(board, tiles, letterless, nearest_of_few=True,
                           least_spread=SPARSE_LIGHTNESS_SPREAD)
    # A face in shadow, or blown out by glare, has the light's colour more than its own.
    shown = (~tiles & ~faces.darker() & (faces.lightness < BLOWN_OUT_LIGHTNESS)
             & (letterless | lettered))
    blank, near = (_in_typical(distance, letterless, _in_a_word(
        shown & np.isfinite(distance) & (faces.to_tile < distance), tiles))
                   for distance in (faces.to_peer, faces.to_near))
    blank[centre] = 2 * BLANK_PEER_SPREADS  # one of the tiles, so never a candidate above
    return ColourEvidence.none()._replace(blank=blank, near=near)


def _in_a_word(coloured: np.ndarray, tiles: np.ndarray) -> np.ndarray:
    """(225,) bool: the ``coloured`` cells joined to ``tiles`` through coloured cells, side by
    side: the cells of one word."""
    _, groups = cv2.connectedComponents((coloured | tiles).reshape(SIZE, SIZE).view(np.uint8),
                                        connectivity=4)
    return coloured & np.isin(groups.reshape(-1), np.unique(groups.reshape(-1)[tiles]))


def _kth_nearest(rows: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Per row of ``rows``, the distance to its ``BODY_NEIGHBOUR``-th nearest row among
    ``rows[reference]``, itself not counted.

    Rows of bytes (the rings' pixels) are compared by L1, through OpenCV's batchDistance: 0.6 ms
    for a board, where numpy's 225 x 225 x 384 differences took 20. Rows of floats (a few colour
    channels) are compared by Euclidean distance in numpy, in float64 (batchDistance has no
    float64, and the peer feature's model learnt these values).
    """
    if rows.dtype == np.uint8:
        distance, index = cv2.batchDistance(rows, rows[reference], cv2.CV_32S,
                                            normType=cv2.NORM_L1, K=BODY_NEIGHBOUR + 1)
        candidates = reference[index]
        distance = distance.astype(np.float64)
    else:
        distance = np.linalg.norm(rows[:, None, :] - rows[reference][None], axis=2)
        candidates = np.broadcast_to(reference, distance.shape)
    distance = np.where(candidates == np.arange(len(rows))[:, None], np.inf, distance)
    return np.sort(distance, axis=1)[:, BODY_NEIGHBOUR - 1]


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


def _board_letters(board: RectifiedBoard, chosen: np.ndarray | None = None,
                   least_contrast: float = SURE_MIN_CONTRAST) -> np.ndarray:
    """(N, 16) the letter evidence (:func:`_letter_features`) of every cell of ``board``, or of
    the ``chosen`` ones (a (225,) bool mask), counting print at least ``least_contrast`` darker
    than its face as ink. For chosen cells only a cell's own letter (features 0-8, 14 and 15)
    means anything: the rest compare it with the board's other cells."""
    pad = min(LETTER_PAD, board.margin_px / board.cell_px)
    cells, around = _work_cells(board, 0.0), _work_cells(board, pad, gray=True)
    if chosen is not None:
        cells, around = cells[chosen], around[chosen]
    return _letter_features(cells, around, pad, least_contrast)


def _letter_features(cells: np.ndarray, around: np.ndarray, pad: float,
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
    sure = _sure_letter_tiles(out)
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


def _letter_shaped(letters: np.ndarray, least_contrast: float = SURE_MIN_CONTRAST
                   ) -> np.ndarray:
    """Cells showing a letter's shape: a central letter-sized blob, no more small blobs than a
    value's digits, and print darker than the faint texture of a plain square (by
    ``least_contrast``). A sure letter tile is one whose print is also nearly as dark as the
    photo's other letters'."""
    return (letters[:, 5] > 0) & (letters[:, 6] <= MAX_TILE_WORD_BLOBS / 10) & (
        np.minimum(letters[:, 1], letters[:, 2]) >= SURE_LETTER_THICKNESS) & (
        np.maximum(letters[:, 1], letters[:, 2]) <= SURE_LETTER_EXTENT) & (
        letters[:, 7] >= least_contrast)


def _sure_letter_tiles(letters: np.ndarray) -> np.ndarray:
    """Cells that are tiles beyond doubt: a central letter-sized blob, no more small blobs than a
    value's digits, and dark print, not the faint texture of a plain square.

    Requiring no small blob at all (the earlier rule) rejected nearly every real tile, since its
    value digit is one, and took blurred premium print and textured plain squares for tiles: the
    photo's "tile colour" was then a square's (an orange-tile photo lost all 21 tiles). On the 31
    truth photos this picks 1361 of 1630 tiles and 5 empty cells (two of them centre stars).
    """
    base = _letter_shaped(letters)
    if base.sum() < MIN_SURE_TILES:
        return base
    typical = np.percentile(letters[base, 7], 75)
    return base & (letters[:, 7] >= SURE_CONTRAST * typical)


class OccupancyModel:
    """Probability that each cell holds a tile, from :func:`cell_features`."""

    def __init__(self, model: Mlp) -> None:
        self.model = model

    @classmethod
    def load(cls, path: Path | None = None) -> OccupancyModel:
        return _load(str(path or MODELS / "occupancy.npz"))

    def tile_probability(self, board: RectifiedBoard) -> np.ndarray:
        """(15, 15) array [row, col] of P(tile), with rules of the game on top of the model.

        A tile with no letter is a blank, and a blank is told from a plain square by its face
        colour, which only this board's letter tiles can show: with fewer than three sure letter
        tiles there is no such colour, and an inkless cell is not taken for a tile (measured
        leave-one-source-out: 143 -> 137 wrong cells of 6975, no tile lost). And the centre star
        is a dark letter-sized blob on an empty board; a tile alone on the centre cannot happen in
        play (the first word has at least two letters), so when the centre is the only likely
        tile it is the star. Either way the probability is halved, not zeroed. A sure letter
        tile (:func:`_sure_letter_tiles`) is raised to at least one half: the model, trained on
        few boards, missed all nine clear tiles of some sparse boards leave-one-source-out
        (112 -> 69 wrong cells of 6975). So is a blank told by its colour alone
        (:func:`colour_blanks`), and a cell whose colour only half says so is doubtful
        (:data:`DOUBTFUL_PEER_SPREADS`), as is a faint letter washed out by glare or a sheen,
        or a letter on a plain square on a face no darker than the tiles'
        (:func:`letters_on_bare_kinds`); a face of its square's colour is no tile whatever its
        ink (:class:`ColourEvidence`), but still a doubt if it is one of those.
        """
        features = cell_features(board)
        probability = self.probability_of(features)
        return game_rules(features, probability,
                          colour_evidence(board, features, probability >= LIKELY_TILE))

    def probability_of(self, features: np.ndarray) -> np.ndarray:
        probs = self.model.probabilities(features)
        return probs[:, list(self.model.labels).index("tile")]


def game_rules(features: np.ndarray, probability: np.ndarray,
               colour: ColourEvidence | None = None) -> np.ndarray:
    """(15, 15) probabilities after the rules of :meth:`OccupancyModel.tile_probability`; ``colour``
    (:func:`colour_evidence`) raises blanks like sure letter tiles and doubtful cells (half a
    blank's evidence, a washed-out letter) to :data:`DOUBTFUL_TILE`, and lowers squares to it. A
    centre that shows no print at all on a board with likely tiles elsewhere is raised to it too:
    the first word covers the centre. On 100 renders of random conditions (seeds 2000-2099, two
    blanks each, corners given) a blank on the centre was one of the 17 tiles missed with no warning
    (17 -> 16, no square more named); of the tiles ``python -m bench early``'s random renders miss
    with no warning one of two on the centre (6 -> 5, squares named 389 as before); the truth photos
    read as before (``tileref eval``, both ways). Taking a print-less centre for a tile outright
    would be wrong on photos of tiles laid out of play (kristopalka red_boards_013, ssetser
    IMG_2687: many tiles, the centre bare)."""
    probability = probability.copy()
    letters = features[:, LOCAL_FEATURES:]
    few_sure = letters[:, 12] < MIN_SURE_TILES / 10
    probability[(letters[:, 0] == 0) & few_sure] /= 2
    sure = _sure_letter_tiles(letters)
    if colour is not None:
        doubtful = (colour.blank > DOUBTFUL_PEER_SPREADS) | colour.washed
        probability[doubtful] = np.maximum(probability[doubtful], DOUBTFUL_TILE)
        sure = sure | colour.blanks()
    probability[sure] = (1 + probability[sure]) / 2
    if colour is not None:
        probability[colour.square] = np.minimum(probability[colour.square], DOUBTFUL_TILE)
    # The centre's star is letter-sized ink on a square; a tile on the centre hides it.
    star = letters[:, 13] > 0
    probability[star] = np.minimum(probability[star], STAR_TILE)
    probability = probability.reshape(SIZE, SIZE)
    likely = probability >= 0.5
    centre = SIZE // 2
    # Unless a letter shows beside it: then the centre begins a word whose other tiles the model
    # doubted (a thin I), and halving it would lose the whole first word.
    lettered = ((letters[:, 5] > 0) & (letters[:, 7] >= SURE_MIN_CONTRAST)).reshape(SIZE, SIZE)
    beside = lettered[[centre - 1, centre + 1, centre, centre],
                      [centre, centre, centre - 1, centre + 1]].any()
    if likely[centre, centre] and likely.sum() == 1 and not beside:
        probability[centre, centre] /= 2
    # The other way round: the first word covers the centre and hides its star, so with tiles
    # elsewhere a centre that shows no print at all (nothing as dark as a faint letter: a faint
    # star on a pink square of an unlabelled photo is 0.28) holds a tile (a blank, most likely).
    if letters[CENTRE, 7] < FAINT_LETTER_CONTRAST and likely.sum() > likely[centre, centre]:
        probability[centre, centre] = max(probability[centre, centre], DOUBTFUL_TILE)
    return probability


@cache
def _load(path: str) -> OccupancyModel:
    return OccupancyModel(Mlp.load(Path(path)))


__all__ = ["STATS_PX", "ColourEvidence", "OccupancyModel", "cell_features", "colour_blanks",
           "colour_evidence", "face_colours", "game_rules", "letters_on_bare_kinds",
           "near_distance", "peer_distance", "peer_lightness", "peer_print", "stats_grid"]
