"""Tile or empty square, for all 225 cells of a rectified board at once.

"Has dark ink" alone calls 40-45 % of premium squares tiles: DOUBLE WORD SCORE is ink too. A tile
shows ONE dark central letter of a tile letter's size on a uniform face; a premium square shows
several small words or none, a plain square nothing. So each cell is described by its colour and
by that letter evidence (:mod:`vision.cells.letterevidence`: the biggest central blob of ink, its
size, how many small word-sized blobs there are), and its face colour is compared with the face
colour of this photo's sure letter tiles (all tiles of a set share one colour). A small perceptron
trained on real boards (``python -m lab.train``) weighs it all; its weights are in
``vision/models/occupancy.npz``. Rules beside it (:mod:`vision.cells.facecolour`) tell by colour
what it learnt from too few real photos: blanks, squares, tiles washed out by glare or a sheen.

Each feature and rule is here because it measured better than the design before it,
leave-one-source-out on the truth photos: ``python -m bench occupancy`` scores occupancy alone in
about a minute (found corners, three seeds of the perceptrons), ``tileref eval`` the whole reader.
The history, with what was tried and dropped and the figures, is in docs/tuning.md ("How the
occupancy model was measured").
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from vision.board.rectify import SIZE, RectifiedBoard
from vision.cells.cellgrid import other_peers, stats_grid
from vision.cells.facecolour import ColourEvidence, colour_evidence
from vision.cells.letterevidence import CENTRE, LetterFeature, board_letters, sure_letter_tiles
from vision.cells.printed import printed_squares
from vision.cells.tuning import (
    BODY_CELL_PX,
    BODY_EXTRA_PX,
    BODY_NEIGHBOUR,
    DOUBTFUL_TILE,
    FAINT_LETTER_CONTRAST,
    LIKELY_TILE,
    MIN_SURE_TILES,
    PEER_LIGHTNESS_WEIGHT,
    PRINT_LIKELY_TILE,
    PRINT_TILE,
    STAR_TILE,
    STATS_PX,
    SURE_MIN_CONTRAST,
)
from vision.perceptron import MODELS, Mlp
from vision.tuning import MAYBE_MISSED

LOCAL_FEATURES = 14
"""Colour, ink and edge features come first in :func:`cell_features`, letter evidence after."""


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
    letters = board_letters(board)
    sure = sure_letter_tiles(letters)
    body = body_likeness(board, letters, sure)
    peers = peer_likeness(whole, sure)
    return np.concatenate([local / 100.0, letters, body[:, None], peers[:, None]],
                          axis=1).astype(np.float32)


def body_likeness(board: RectifiedBoard, letters: np.ndarray, sure: np.ndarray) -> np.ndarray:
    """(225,) in -1..1: how much more a cell's ring looks like this photo's sure letter tiles
    (``sure``, :func:`vision.cells.letterevidence.sure_letter_tiles` of ``letters``) than like its
    letterless cells.

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
    plain = np.flatnonzero(letters[:, LetterFeature.HAS_LETTER] == 0)
    if min(len(tiles), len(plain)) <= BODY_NEIGHBOUR:
        return np.zeros(len(rings), np.float32)
    to_tile, to_plain = _kth_nearest(rings, tiles), _kth_nearest(rings, plain)
    return ((to_plain - to_tile) / (to_plain + to_tile + 1e-6)).astype(np.float32)


def peer_likeness(colours: np.ndarray, sure: np.ndarray) -> np.ndarray:
    """(225,) in -1..1: how much more a cell's mean colour (Lab, ``colours``) looks like this
    photo's sure letter tiles (``sure``, :func:`vision.cells.letterevidence.sure_letter_tiles`) than
    like its nearest symmetric peer (:func:`vision.cells.cellgrid.symmetric_peers`) that is no sure
    tile.

    Why: a blank tile on a premium square was missed when compared with the board's letterless
    cells at large (a beige blank on a red triple-word square is as close to the beige plain
    squares as to the tiles), while its own peers, the other triple-word squares, are red. An
    empty square, whatever kind it is, looks like its empty peers; a tile looks like the tiles.
    Mean colours, not pixels: premium print is not turned with the board, so peers' pixels
    differ. Peers are the cells that are not sure tiles (not the letterless ones: premium words
    are ink, which left premium squares without peers). Zero where a cell has no such peer or
    the photo too few sure tiles to give a tile colour.

    Measured leave-one-source-out with the truth errata in training (``tileref eval`` and a
    scratch run with the truth corners): see docs/tuning.md. Nothing here was tuned on
    the photos: the lightness weight and the 3rd-nearest tile are :func:`body_likeness`'s.
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


class Occupancy(NamedTuple):
    """What :meth:`OccupancyModel.assess` tells of a board."""

    probability: np.ndarray
    """(15, 15) P(tile) [row, col]."""
    letters: np.ndarray
    """(225, 16) every cell's letter evidence, row-major
    (:class:`vision.cells.letterevidence.LetterFeature`)."""


class OccupancyModel:
    """Probability that each cell holds a tile, from :func:`cell_features`."""

    def __init__(self, model: Mlp) -> None:
        self.model = model

    @classmethod
    def load(cls, path: Path | None = None) -> OccupancyModel:
        return _load(str(path or MODELS / "occupancy.npz"))

    def tile_probability(self, board: RectifiedBoard, *,
                         print_cells: np.ndarray | None = None) -> np.ndarray:
        """(15, 15) array [row, col] of P(tile): :meth:`assess`'s ``probability``."""
        return self.assess(board, print_cells=print_cells).probability

    def assess(self, board: RectifiedBoard, *,
               print_cells: np.ndarray | None = None) -> Occupancy:
        """P(tile) of every cell, with rules of the game on top of the model, and the letter
        evidence it was told from (the reader asks it again of cells read as empty).

        A tile with no letter is a blank, and a blank is told from a plain square by its face
        colour, which only this board's letter tiles can show: with fewer than three sure letter
        tiles there is no such colour, and an inkless cell is not taken for a tile (measured
        leave-one-source-out: 143 -> 137 wrong cells of 6975, no tile lost). And the centre star is
        a dark letter-sized blob on an empty board; a tile alone on the centre cannot happen in play
        (the first word has at least two letters), so when the centre is the only likely tile it is
        the star. Either way the probability is halved, not zeroed. A sure letter tile
        (:func:`vision.cells.letterevidence.sure_letter_tiles`) is raised to at least one half: the
        model, trained on few boards, missed all nine clear tiles of some sparse boards
        leave-one-source-out (112 -> 69 wrong cells of 6975). So is a blank told by its colour alone
        (:func:`vision.cells.facecolour.colour_blanks`), and a cell whose colour only half says so
        is doubtful (:data:`vision.cells.tuning.DOUBTFUL_PEER_SPREADS`), as is a faint letter
        washed out by glare or a sheen, or a letter on a plain square on a face no darker than the
        tiles' (:func:`vision.cells.facecolour.letters_on_bare_kinds`); a face of its square's
        colour is no tile whatever its ink (:class:`vision.cells.facecolour.ColourEvidence`), but
        still a doubt if it is one of those. Last, a square whose ink repeats on every inked
        peer of it is premium print, a short label the model took for a letter, and one whose ink
        repeats on all but one is likely print, read as a square but named as a doubt
        (:mod:`vision.cells.printed`), asked of the cells the model may read as tiles among
        ``print_cells`` ((225,) bool, row-major; all when None): a caller that wants one cell's
        probability asks about that cell only (0.2 ms, where the whole board's cost 8).
        """
        features = cell_features(board)
        probability = self.probability_of(features)
        probability = game_rules(features, probability,
                                 colour_evidence(board, features[:, LOCAL_FEATURES:],
                                                 probability >= LIKELY_TILE))
        # A square whose print repeats on its peers shows its print: no tile hides it. Asked of
        # the cells that may be read as tiles (the off-square search looks again at those).
        asked = probability.reshape(-1) >= MAYBE_MISSED
        if print_cells is not None:
            asked &= np.asarray(print_cells, bool).reshape(-1)
        printed = printed_squares(board, asked)
        sure, likely = printed.sure.reshape(SIZE, SIZE), printed.likely.reshape(SIZE, SIZE)
        probability[sure] = np.minimum(probability[sure], PRINT_TILE)
        probability[likely] = np.minimum(probability[likely], PRINT_LIKELY_TILE)
        return Occupancy(probability, features[:, LOCAL_FEATURES:])

    def probability_of(self, features: np.ndarray) -> np.ndarray:
        probs = self.model.probabilities(features)
        return probs[:, list(self.model.labels).index("tile")]


def game_rules(features: np.ndarray, probability: np.ndarray,
               colour: ColourEvidence | None = None) -> np.ndarray:
    """(15, 15) probabilities after the rules of :meth:`OccupancyModel.tile_probability`; ``colour``
    (:func:`vision.cells.facecolour.colour_evidence`) raises blanks like sure letter tiles and
    doubtful cells (half a blank's evidence, a washed-out letter) to :data:`DOUBTFUL_TILE`, and
    lowers squares to it. A centre that shows no print at all is raised to it too: the first word
    covers the centre and hides its star. With likely tiles elsewhere: on 100 renders of random
    conditions (seeds 2000-2099, two blanks each, corners given) a blank on the centre was one of
    the 17 tiles missed with no warning (17 -> 16, no square more named); of the tiles ``python -m
    bench early``'s random renders miss with no warning one of two on the centre (6 -> 5, squares
    named 389 as before); the truth photos read as before (``tileref eval``, both ways). And with
    none: a first word of a blank on the centre and a thin I was read as an empty board with no word
    said (``bench early``'s seed 30, random and clean: 5 -> 4 tiles missed silently each; clean
    renders of it from the centre, ``tests/test_first_moves.py``: 4 of 6), as was a board of two
    blanks (render 2061 of the 100 above: 16 -> 15). An empty board shows its star: of 180 empty
    renders (random conditions and clean) two showed no print on the centre, both under glare the
    reading already names, so no square more is named; nor on the truth photos' empty board. Taking
    a print-less centre for a tile outright would be wrong on photos of tiles laid out of play
    (kristopalka red_boards_013, ssetser IMG_2687: many tiles, the centre bare)."""
    probability = probability.copy()
    letters = features[:, LOCAL_FEATURES:]
    few_sure = letters[:, LetterFeature.SURE_TILES] < MIN_SURE_TILES / 10
    probability[(letters[:, LetterFeature.HAS_LETTER] == 0) & few_sure] /= 2
    sure = sure_letter_tiles(letters)
    if colour is not None:
        doubtful = colour.doubtful()
        probability[doubtful] = np.maximum(probability[doubtful], DOUBTFUL_TILE)
        sure = sure | colour.blanks()
    probability[sure] = (1 + probability[sure]) / 2
    if colour is not None:
        probability[colour.square] = np.minimum(probability[colour.square], DOUBTFUL_TILE)
    # The centre's star is letter-sized ink on a square; a tile on the centre hides it.
    star = letters[:, LetterFeature.STAR] > 0
    probability[star] = np.minimum(probability[star], STAR_TILE)
    probability = probability.reshape(SIZE, SIZE)
    likely = probability >= 0.5
    centre = SIZE // 2
    # Unless a letter shows beside it: then the centre begins a word whose other tiles the model
    # doubted (a thin I), and halving it would lose the whole first word.
    lettered = ((letters[:, LetterFeature.LETTER_SIZED] > 0)
                & (letters[:, LetterFeature.CONTRAST] >= SURE_MIN_CONTRAST)).reshape(SIZE, SIZE)
    beside = lettered[[centre - 1, centre + 1, centre, centre],
                      [centre, centre, centre - 1, centre + 1]].any()
    if likely[centre, centre] and likely.sum() == 1 and not beside:
        probability[centre, centre] /= 2
    # The other way round: the first word covers the centre and hides its star, so a centre that
    # shows no print at all (nothing as dark as a faint letter: a faint star on a pink square of
    # an unlabelled photo is 0.28) may hold a tile (a blank, most likely), tiles elsewhere or not.
    if letters[CENTRE, LetterFeature.CONTRAST] < FAINT_LETTER_CONTRAST:
        probability[centre, centre] = max(probability[centre, centre], DOUBTFUL_TILE)
    return probability


@cache
def _load(path: str) -> OccupancyModel:
    return OccupancyModel(Mlp.load(Path(path)))


__all__ = ["LOCAL_FEATURES", "Occupancy", "OccupancyModel", "body_likeness", "cell_features",
           "game_rules", "peer_likeness"]
