"""Tiles and squares told by the colour of a cell's face, beside the occupancy model.

Each photo is its own yardstick: its sure letter tiles
(:func:`vision.cells.letterevidence.sure_letter_tiles`) give the tiles' colour, a cell's symmetric
peers (:func:`vision.cells.cellgrid.symmetric_peers`) its own kind of square's, and the squares
around it the light it lies in. A face of the tiles' colour far from its own kind of square is a
blank; a face far from the tiles' and near its square's is a square whatever its ink; a letter
greyed or a face lifted towards white by glare or a sheen is a doubt to name
(:class:`ColourEvidence`). The model weighs colour against everything else it learnt from few real
blanks, so these rules stand beside it; how each was measured is in docs/tuning.md ("Colour
evidence").
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import cv2
import numpy as np

from vision.board.rectify import SIZE, RectifiedBoard
from vision.cells.cellgrid import other_peers, plain_squares, stats_grid
from vision.cells.letterevidence import (
    CENTRE,
    LetterFeature,
    board_letters,
    letter_shaped,
    sure_letter_tiles,
)
from vision.cells.tuning import (
    BARE_PRINT_CONTRAST,
    BLANK_NEAR_SPREADS,
    BLANK_PEER_RANK,
    BLANK_PEER_SPREADS,
    BLANK_TILE_SPREADS,
    BLOWN_OUT_LIGHTNESS,
    CHROMA_NOISE,
    DOUBTFUL_PEER_SPREADS,
    FAINT_LETTER_CONTRAST,
    MARK_MIN_THICKNESS,
    MIN_SURE_TILES,
    MIXED_SURE_SPREADS,
    NEAR_RADIUS,
    PLAIN_FAINT_LETTER_CONTRAST,
    SHEEN_ABOVE_PEERS,
    SPARSE_LIGHTNESS_SPREAD,
    SQUARE_TILE_SPREADS,
    STATS_PX,
    SURE_MIN_CONTRAST,
    WASHED_LIGHTNESS,
    WASHED_OUT_SPREADS,
)


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

    def doubtful(self) -> np.ndarray:
        """(225,) bool: cells to name, not to read: half a blank's evidence
        (:data:`DOUBTFUL_PEER_SPREADS`) or a washed-out letter or face."""
        return (self.blank > DOUBTFUL_PEER_SPREADS) | self.washed

    def blanks(self) -> np.ndarray:
        """(225,) bool: blanks by colour, far from their own kind of square or from the
        squares around them."""
        return (self.blank > BLANK_PEER_SPREADS) | (self.near > BLANK_NEAR_SPREADS)


def colour_blanks(board: RectifiedBoard, letters: np.ndarray) -> np.ndarray:
    """(225,) bool: letterless cells beside a sure letter tile whose face is the tiles' colour
    and not the colour of their own kind of square -- blanks, whatever the model made of them
    (:func:`colour_evidence`)."""
    return colour_evidence(board, letters).blanks()


def face_colours(board: RectifiedBoard) -> tuple[np.ndarray, np.ndarray]:
    """(225,) mean L* and (225, 2) mean a*, b* of each cell's face: the brighter half of its core
    (the centre of :func:`vision.cells.occupancy.cell_features`), so no ink or shadow of a letter
    counts."""
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
    contrast (:attr:`LetterFeature.CONTRAST`) of the :data:`BLANK_PEER_RANK`-th faintest of its
    symmetric peers among ``squares``; infinite where it has too few such peers."""
    return _ranked_among_peers(letters[:, LetterFeature.CONTRAST], squares)


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
    sure = sure_letter_tiles(letters)
    return _lettered(letters) & ~sure & _plain_kinds(letters, sure)


def marks_on_bare_kinds(letters: np.ndarray) -> np.ndarray:
    """(225,) bool: a letter-sized mark as dark as a letter, not a line
    (:data:`MARK_MIN_THICKNESS`) nor the centre's star, on a square that prints nothing: plain in
    every known layout (:func:`vision.cells.cellgrid.plain_squares`) or of a kind that shows no
    print where bare (:data:`BARE_PRINT_CONTRAST`). Looser than :func:`letters_on_bare_kinds` on
    both counts, for the reader to ask the tile classifier of
    (:func:`vision.read.letters_read_as_empty`): a thin I has no letter's width, and a plain
    square's peers bare elsewhere may lie in shade."""
    sure = sure_letter_tiles(letters)
    thickness = np.minimum(letters[:, LetterFeature.LETTER_HEIGHT],
                           letters[:, LetterFeature.LETTER_WIDTH])
    marked = ((letters[:, LetterFeature.LETTER_SIZED] > 0) & (thickness >= MARK_MIN_THICKNESS)
              & (letters[:, LetterFeature.CONTRAST] >= SURE_MIN_CONTRAST)
              & (letters[:, LetterFeature.STAR] == 0))
    return marked & (plain_squares() | _plain_kinds(letters, sure))


def _plain_kinds(letters: np.ndarray, sure: np.ndarray) -> np.ndarray:
    """(225,) bool: cells whose own kind of square shows no print where it is bare
    (:data:`BARE_PRINT_CONTRAST`), its bare cells being those not ``sure`` letter tiles."""
    return peer_print(letters, ~sure) < BARE_PRINT_CONTRAST


def _lettered(letters: np.ndarray) -> np.ndarray:
    """(225,) bool: a letter's shape (:func:`vision.cells.letterevidence.letter_shaped`) that is not
    the centre's star."""
    return letter_shaped(letters) & (letters[:, LetterFeature.STAR] == 0)


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


def colour_evidence(board: RectifiedBoard, letters: np.ndarray,
                    likely: np.ndarray | None = None) -> ColourEvidence:
    """Blanks and squares told by the colour of a cell's face against this photo's sure letter
    tiles and against its own kind of square (its symmetric peers); ``letters`` is every cell's
    letter evidence (:func:`vision.cells.letterevidence.board_letters`), which says where the sure
    letter tiles are.

    Why: the perceptron weighs colour against everything else it learnt, and the only real
    photos with a blank on a square of another colour than the tiles (jheidel 2015: a wooden
    blank on a grey plain square, O10 in nine photos) are all one source, so left out of its
    training when that source is tested: it missed those blanks. The evidence is plain, though,
    when each photo is its own yardstick. Only chroma (a*, b*) of a cell's face (its brighter
    half, so no ink or shadow) is compared: lightness is the light's, chroma the material's.

    A cell is a blank when its face is far from its own kind of square (:data:`BLANK_PEER_SPREADS`
    of this photo's spread, the :data:`BLANK_PEER_RANK`-th nearest peer) or from the squares around
    it (``near``, :func:`near_distance`, :data:`BLANK_NEAR_SPREADS`), near the sure tiles' colour
    (:data:`BLANK_TILE_SPREADS`), not in shade (:data:`WASHED_OUT_SPREADS`), and beside a sure
    letter tile: a blank is part of a word. The other way round, a cell read as a tile whose face
    is far from the tiles' colour (:data:`SQUARE_TILE_SPREADS`) and nearer its peers is a square.
    A letter greyed by glare or a sheen on a face lifted above the tiles' (:data:`WASHED_LIGHTNESS`,
    :data:`SHEEN_ABOVE_PEERS`, :data:`FAINT_LETTER_CONTRAST`, :data:`PLAIN_FAINT_LETTER_CONTRAST`,
    :func:`letters_on_bare_kinds`) is ``washed``: a doubt, named, never a tile by this alone. A
    board with fewer than :data:`vision.cells.tuning.MIN_SURE_TILES` sure letter tiles (the first
    moves) takes the tiles' colour from ``likely``, the cells the model finds likely tiles.

    Measured by ``tileref eval`` (both ways: found corners and ``--given-corners``) and ``python
    -m bench blanks``, ``early`` and ``sheen``; each rule's figures, and the thresholds' choice,
    are in docs/tuning.md ("Colour evidence", and the sections of its knobs).
    """
    sure = sure_letter_tiles(letters)
    letterless = letters[:, LetterFeature.HAS_LETTER] == 0
    if sure.sum() < MIN_SURE_TILES:
        if likely is None:
            return ColourEvidence.none()
        return _sparse_evidence(board, letters, sure | likely)
    colours = face_colours(board)
    faces = _faces_against(colours, sure, letterless)
    to_peer, to_near, to_tile = faces.to_peer, faces.to_near, faces.to_tile
    tile_spread = max(float(np.median(to_tile[sure])), 1e-6)
    square = _squares(colours, faces, tile_spread, sure,
                      sure if likely is None else sure | likely, letterless)
    lettered = _lettered(letters)
    glared = lettered & (faces.lightness >= WASHED_LIGHTNESS)
    shone = (faces.lightness < WASHED_LIGHTNESS) & (
        faces.lightness - peer_lightness(faces.lightness, letterless & ~sure) > SHEEN_ABOVE_PEERS)
    # A sheen takes a face towards white, never below the tiles' own lightness.
    on_plain = ~faces.darker(least_spread=SPARSE_LIGHTNESS_SPREAD) & _plain_kinds(letters, sure)
    faint = _faint_letters(board, letters, ~sure & (faces.brighter() | (
        on_plain & (letters[:, LetterFeature.CONTRAST] >= PLAIN_FAINT_LETTER_CONTRAST))))
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


def _squares(colours: tuple[np.ndarray, np.ndarray], faces: _Faces, spread: float,
             sure: np.ndarray, tiles: np.ndarray, letterless: np.ndarray) -> np.ndarray:
    """(225,) bool: :attr:`ColourEvidence.square`, faces far from the tiles' colour
    (:data:`SQUARE_TILE_SPREADS`) and nearer their own kind of square's, not washed out;
    ``faces`` measures them against every ``sure`` letter tile (:func:`_faces_against`), and
    ``spread`` is those tiles' own median distance from their colour.

    Unless those tiles are of mixed colours: a premium square's short label (TW, DL) or number
    looks like a letter, and where the grid is found a little off the print check misses it
    (:mod:`vision.cells.printed`). Such squares were sure letter tiles too, on a board of black
    tiles more of them than real tiles, and the tiles' "colour" and its spread were theirs, so
    no square was told (stress scene 100073: 16 red and blue squares read as tiles). They lie
    alone, or a few together, never in the board's largest group of ``tiles`` joined side by
    side, the words. So where the words' sure tiles are :data:`MIXED_SURE_SPREADS` times more
    alike than all of them, the words give the tiles' colour and spread. Not always: one group
    of a board lit unevenly is more alike than all its tiles, and its colour is no other
    group's (a render of ``python -m bench sheen`` lost 13 tiles so)."""
    count, groups = cv2.connectedComponents(tiles.reshape(SIZE, SIZE).view(np.uint8),
                                            connectivity=4)
    words = np.zeros_like(sure)
    if count > 1:
        sizes = np.bincount(groups.reshape(-1), minlength=count)[1:]
        largest = sure & (groups.reshape(-1) == 1 + int(np.argmax(sizes)))
        if largest.sum() >= MIN_SURE_TILES:
            to_words = _to_colour_of(colours[1], largest)
            words_spread = max(float(np.median(to_words[largest])), CHROMA_NOISE)
            if spread > MIXED_SURE_SPREADS * words_spread:
                faces = _faces_against(colours, largest, letterless)
                spread, words = words_spread, largest
    # The words' own tiles are the yardstick, never squares by it.
    return ((faces.to_tile > SQUARE_TILE_SPREADS * spread) & (faces.to_peer < faces.to_tile)
            & ~faces.brighter() & ~words)


def _faint_letters(board: RectifiedBoard, letters: np.ndarray, candidates: np.ndarray
                   ) -> np.ndarray:
    """(225,) bool: the ``candidates`` showing a letter's shape in print too faint to count as a
    letter (:data:`vision.cells.tuning.SURE_MIN_CONTRAST`) but at least
    :data:`FAINT_LETTER_CONTRAST` darker than its face. Only those cells' letters are looked at
    again, with that fainter print counted as ink: on the truth photos (20 of 38 have such a cell)
    the whole board's took 8.5 ms a call, theirs alone 1.3 ms."""
    contrast = letters[:, LetterFeature.CONTRAST]
    faint = candidates & (contrast >= FAINT_LETTER_CONTRAST) & (contrast < SURE_MIN_CONTRAST)
    if faint.any():
        faint[faint] = letter_shaped(board_letters(board, faint, FAINT_LETTER_CONTRAST),
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


def _faces_against(colours: tuple[np.ndarray, np.ndarray], tiles: np.ndarray,
                   letterless: np.ndarray, *,
                   nearest_of_few: bool = False, least_spread: float = 0.0) -> _Faces:
    """Every face's colour (``colours``: :func:`face_colours`) against the faces of ``tiles`` and
    against its own kind of square and the ``letterless`` squares around it; ``least_spread``
    is the least deviation of the tiles' L* to count with (few tiles give none of their own)."""
    lightness, chroma = colours
    tile_lightness = lightness[tiles]
    middle = float(np.median(tile_lightness))
    return _Faces(lightness, peer_distance(chroma, tiles, nearest_of_few=nearest_of_few),
                  near_distance(chroma, letterless & ~tiles),
                  _to_colour_of(chroma, tiles), middle,
                  max(float(np.median(np.abs(tile_lightness - middle))), least_spread))


def _to_colour_of(chroma: np.ndarray, tiles: np.ndarray) -> np.ndarray:
    """(225,) each face's chroma distance to the median chroma of ``tiles``' faces."""
    return np.linalg.norm(chroma - np.median(chroma[tiles], axis=0), axis=1)


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
    lettered = letters[:, LetterFeature.LETTER_SIZED] > 0
    letterless = letters[:, LetterFeature.HAS_LETTER] == 0
    centre = np.zeros(SIZE * SIZE, bool)
    centre[CENTRE] = lettered[CENTRE] and letters[CENTRE, LetterFeature.STAR] == 0
    tiles = tiles | centre
    if not tiles.any():
        return ColourEvidence.none()
    faces = _faces_against(face_colours(board), tiles, letterless, nearest_of_few=True,
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


__all__ = ["ColourEvidence", "colour_blanks", "colour_evidence", "face_colours",
           "letters_on_bare_kinds", "marks_on_bare_kinds", "near_distance", "peer_distance",
           "peer_lightness", "peer_print"]
