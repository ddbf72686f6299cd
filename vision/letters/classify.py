"""Letter and rotation of one tile face, from a rectified cell crop.

Measured, not assumed (``python -m lab.train --evaluate``, leave-one-source-out on real tiles):
gradient-orientation histograms of the letter's own box, a coarse ink map, the ink in each corner
where the value digit sits, fed to a small two-layer perceptron, beat the same features with nearest
neighbours. The perceptron is trained on rendered faces (bold sans fonts and every lettering style
of the stress scenes, the value digit in the corner, four rotations, lighting, blur, JPEG, too few
pixels, offsets), tiles cut from rendered board photos, and real crops; it is stored as plain arrays
in ``vision/models/tiles.npz``, so reading needs numpy only. One class is one (letter, rotation)
pair, so the corner digit that tells a turned-over N from a Z takes part in every decision, and
every crop is read in its four turns, which then vote.

A small convolutional network over the crop's own ink map (:mod:`vision.letters.cnn`, trained on the
same crops by :mod:`lab.train_cnn`) reads each crop once more, its log-probabilities averaged with
the perceptron's vote; it is stored beside the perceptron as ``tiles_cnn.npz``. Trained on the
stress scenes' lettering styles and tile colours too, it earns its place where the perceptron's
hand-made features stop: with each style or colour held out of both models' training (``python -m
bench stress --held-out``), the pair reads 5012 of 5199 letters of the held-out scenes where the
perceptron alone reads 4935 of 5200, no row worse (wood tiles 514 -> 532 of 536, sans faces 455 ->
471 of 478); on the truth photos, leave-one-source-out, 1457 of 1461 English letters (1456 alone),
for about 3 % more time a photo (docs/tuning.md, "The tile network, kept").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.blobs import Blobs, label_maps
from vision.bytestats import percentiles
from vision.letters.cnn import Cnn, network_inputs
from vision.letters.tuning import (
    BOARD_PRIOR_MIN_TILES,
    BOARD_PRIOR_ROUNDS,
    BOARD_PRIOR_SMOOTHING,
    FAINT_CONTRAST,
    FAINT_ODDS,
    GLYPH_INK_LEVEL,
    GLYPH_PX,
    NO_LETTER_ODDS,
)
from vision.perceptron import MODELS, Mlp
from vision.probabilities import pooled
from vision.tuning import CORE_MARGIN, FACE_PERCENTILE, WORK_PX

BLANK = "?"
ROTATIONS = (0, 90, 180, 270)


def _orientation_histograms(glyphs: np.ndarray, cells: int = 4, bins: int = 8) -> np.ndarray:
    """(N, cells * cells * bins) signed gradient-orientation histograms of (N, s, s) maps over a
    ``cells`` x ``cells`` grid (HOG-like).

    Signed directions (0..360) keep a letter apart from its upside-down twin. The whole batch
    in one pass: each map gets OpenCV's own reflected border, the maps lie side by side in one
    row for a single Sobel per direction, and one bincount sums every map's cells (their bins
    offset per map). On a 98-tile board: 7.5 ms one map at a time, 3.7 batched.
    """
    n, side = glyphs.shape[:2]
    pitch = side + 2
    # Side by side, with a margin on the right so no map falls in the filter's unvectorised
    # tail: the gradients then equal one map's to the last bit (stacked in a column, the
    # y-gradients differed in the 7th digit, and a bin of rounding noise shows after the sqrt).
    row = np.zeros((pitch, n * pitch + 32), np.float32)
    row[:, :n * pitch] = np.pad(glyphs, ((0, 0), (1, 1), (1, 1)), mode="reflect").transpose(
        1, 0, 2).reshape(pitch, n * pitch)  # reflect = OpenCV's default BORDER_REFLECT_101

    def gradient(dx: int, dy: int) -> np.ndarray:
        full = cv2.Sobel(row, cv2.CV_32F, dx, dy, ksize=3)[:, :n * pitch]
        return full.reshape(pitch, n, pitch).transpose(1, 0, 2)[:, 1:-1, 1:-1]

    gx, gy = gradient(1, 0), gradient(0, 1)
    magnitude = np.sqrt(gx * gx + gy * gy)
    angle = (np.arctan2(gy, gx) + np.pi) * (bins / (2 * np.pi))
    low = np.floor(angle).astype(np.int64) % bins
    high = (low + 1) % bins
    weight_high = angle - np.floor(angle)
    step = side // cells
    cy = np.minimum(np.arange(side) // step, cells - 1)
    flat = (cy[:, None] * cells + cy[None, :])[None] + (np.arange(n) * cells * cells)[:, None, None]
    size = n * cells * cells * bins
    # bincount, not np.add.at: the same sums, an order of magnitude faster.
    hist = np.bincount((flat * bins + low).ravel(), (magnitude * (1 - weight_high)).ravel(),
                       minlength=size)
    hist += np.bincount((flat * bins + high).ravel(), (magnitude * weight_high).ravel(),
                        minlength=size)
    hist = hist.reshape(n, -1)
    norm = np.sqrt(np.einsum("ij,ij->i", hist, hist))
    return np.sqrt(hist / (norm[:, None] + 1e-6))


@dataclass(frozen=True)
class GlyphParts:
    """Where the letter is in a work-size ink map, and which way its value digit lies."""

    box: tuple[float, float, float, float]  # x0, y0, x1, y1 of the letter (with diacritics)
    digit: tuple[float, float]  # mean offset of the value digit from the letter, in letter sizes
    digit_weight: float  # ink area of the digit (0: none seen)


def _ink_blobs(inks: np.ndarray) -> Blobs:
    """The blobs of ink in (N, h, w) ink maps, all in one labelling pass (:mod:`vision.blobs`):
    finding the letters and digits of a 98-tile board took 10.8 ms a map at a time, 1.5 ms so."""
    return label_maps(inks > GLYPH_INK_LEVEL)


@dataclass(frozen=True)
class _Glyphs:
    """The letters of a batch of ink maps as arrays; row i is :class:`GlyphParts` of map i."""

    found: np.ndarray  # (N,) bool: a letter was seen
    box: np.ndarray  # (N, 4) int x0, y0, x1, y1 (0 where none)
    digit: np.ndarray  # (N, 2) offset of the value digit from the letter, in letter sizes
    digit_weight: np.ndarray  # (N,) ink area of the digit

    def parts(self, i: int) -> GlyphParts | None:
        if not self.found[i]:
            return None
        x0, y0, x1, y1 = (int(v) for v in self.box[i])
        return GlyphParts((x0, y0, x1, y1), (float(self.digit[i, 0]), float(self.digit[i, 1])),
                          float(self.digit_weight[i]))


def _find_glyphs(shape: tuple[int, int, int], blobs: Blobs) -> _Glyphs:
    """:func:`find_glyph` of every map at once, from their blobs.

    The same tests as one map at a time, as masks over all the blobs; the digit's offsets are
    summed in the same order (bincount adds in its input's order), so the sums are the same.

    Tried and not kept: leaving out thin lines as long as three quarters of the crop (the gap
    between tiles packed edge to edge, which joins the letter "beside and centred on it" like an
    accent and stretches its box to the crop's height). On an unlabelled photo of the alphabet
    (francescov1 IMG_0967) the first look then read V and X surely, not as A; but the rest of the
    reading had already put them right, and ``tileref eval`` (models retrained) read as many
    letters (1455 English, 1685 of every set; one B put right, one I put wrong) with fewer right
    letters flagged (55 -> 49) and one wrong letter fewer flagged (5 -> 4 of 6).
    """
    n, height, width = shape
    owner, centres = blobs.owner, blobs.centres
    x, y, w, h, area = blobs.stats.T
    big = area >= 6
    touches = (x <= 0) | (y <= 0) | (x + w >= width) | (y + h >= height)
    blob = big & ~touches
    # A letter shifted against the crop's edge (a tile off its square, a grid a little off):
    # still the letter when central, but never the digit (neighbours' ink is).
    cut = big & touches & (np.maximum(w, h) < 0.7 * width) & (np.minimum(w, h) > 0.15 * width)

    def near_middle(px: np.ndarray, py: np.ndarray) -> np.ndarray:
        return (np.abs(px - width / 2) < 0.3 * width) & (np.abs(py - height / 2) < 0.3 * height)

    # Central by its ink or by its box: a heavy T's ink sits in its bar, and a T on a tile lying
    # high in its square was passed over for its own value digit (read as C, Y or I: 4-5 of the
    # 41 English letter errors, leave-one-source-out; none since).
    central = np.flatnonzero((blob | cut) & (near_middle(centres[:, 0], centres[:, 1])
                                             | near_middle(x + w / 2, y + h / 2)))
    # The biggest; of equal ones a whole blob before a cut one, then the first labelled.
    central = central[np.lexsort((central, cut[central], -area[central], owner[central]))]
    first = np.diff(owner[central], prepend=-1) != 0
    letter_of = np.full(n, -1)
    letter_of[owner[central[first]]] = central[first]
    found = letter_of >= 0
    box = np.zeros((n, 4), np.int64)
    lead = letter_of[found]
    box[found] = np.column_stack([x[lead], y[lead], x[lead] + w[lead], y[lead] + h[lead]])
    letter_size = np.zeros(n, np.int64)
    letter_size[found] = np.maximum(w[lead], h[lead])
    # Every other whole blob of a lettered map, no bigger than its letter: part of the letter
    # when inside its box or beside it and centred on it (the dots of Ä, the accent of Ś), else
    # the value digit, whose direction is what tells a turned-over N from a Z.
    other = np.flatnonzero(blob & (letter_of[owner] >= 0))
    lead = letter_of[owner[other]]
    keep = (other != lead) & (area[other] <= area[lead])
    other, lead = other[keep], lead[keep]
    offset = centres[other] - centres[lead]
    rx = np.abs(offset[:, 0]) / np.maximum(w[lead] / 2, 1)
    ry = np.abs(offset[:, 1]) / np.maximum(h[lead] / 2, 1)
    size = np.maximum(w[lead], h[lead])
    inside = (rx < 1) & (ry < 1)
    beside = ((rx >= 1) & (ry < 0.45)) | ((ry >= 1) & (rx < 0.45))
    joins = (inside | beside) & (np.abs(offset).max(axis=1, initial=0) < 0.9 * size)
    part, owners = other[joins], owner[other[joins]]
    np.minimum.at(box[:, 0], owners, x[part])
    np.minimum.at(box[:, 1], owners, y[part])
    np.maximum.at(box[:, 2], owners, x[part] + w[part])
    np.maximum.at(box[:, 3], owners, y[part] + h[part])
    digit_of = owner[other[~joins]]
    weights = area[other[~joins]]
    digit = np.column_stack([np.bincount(digit_of, offset[~joins, k] * weights, minlength=n)
                             for k in (0, 1)])
    weight = np.bincount(digit_of, weights.astype(np.float64), minlength=n)
    has_digit = weight > 0
    digit[has_digit] = (digit[has_digit] / weight[has_digit, None]
                        / np.maximum(letter_size[has_digit, None], 1))
    return _Glyphs(found, box, digit, weight)


def find_glyph(ink: np.ndarray) -> GlyphParts | None:
    """The letter as the biggest central blob of ink, with the blobs that belong to it.

    A blob inside the letter's box, or beside it and centred on it (the dots of Ä, the accent
    of Ś), is part of the letter; a blob off towards a corner is the value digit, whose
    direction is what tells a turned-over N from a Z. ``None`` when no letter is seen (blank).
    """
    return _find_glyphs((1, *ink.shape), _ink_blobs(ink[None])).parts(0)


def ink_maps(crops: list[np.ndarray] | np.ndarray) -> np.ndarray:
    """(N, WORK_PX, WORK_PX) darkness against the tile face, 0 (face) to 1 (ink).

    Letters are always darker than their tile, so the bright end of the crop's centre is the
    face; dividing by the centre's own contrast cancels the light. All crops at once: one
    percentile call.
    """
    return ink_and_levels(crops)[0]


def ink_and_levels(crops: list[np.ndarray] | np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`ink_maps` with each crop's face and dark levels (grey values, :func:`ink_of_gray`),
    for a reader that also asks how much darker than its face a crop's ink is."""
    if len(crops) == 0:
        return np.zeros((0, WORK_PX, WORK_PX), np.float32), np.zeros(0), np.zeros(0)
    return ink_of_gray(_gray_levels(crops))


def gray_stack(crops: list[np.ndarray] | np.ndarray) -> np.ndarray:
    """(N, WORK_PX, WORK_PX) float32 grey crops; one colour conversion when sizes agree."""
    return _gray_levels(crops).astype(np.float32)


def _gray_levels(crops: list[np.ndarray] | np.ndarray) -> np.ndarray:
    """:func:`gray_stack` in the crops' own type (bytes for photos' crops).

    Crops of one size are converted and resampled in one call each, stacked in a column: the
    crop's side maps onto WORK_PX rows at the same fractions in every crop of the column, so
    each comes out as resampled alone (225 resize calls took a millisecond a board).
    """
    shapes = {crop.shape for crop in crops}
    if len(shapes) == 1 and len(next(iter(shapes))) == 3:
        h, w = next(iter(shapes))[:2]
        column = cv2.cvtColor(np.concatenate(list(crops), axis=0), cv2.COLOR_BGR2GRAY)
        if (h, w) != (WORK_PX, WORK_PX):
            column = cv2.resize(column, (WORK_PX, len(crops) * WORK_PX),
                                interpolation=cv2.INTER_AREA)
        return column.reshape(len(crops), WORK_PX, WORK_PX)
    grays = [crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
             for crop in crops]
    return np.asarray([gray if gray.shape[:2] == (WORK_PX, WORK_PX) else
                       cv2.resize(gray, (WORK_PX, WORK_PX), interpolation=cv2.INTER_AREA)
                       for gray in grays])


def ink_of_gray(stack: np.ndarray, margin: int = CORE_MARGIN
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ink maps of a grey stack (0 face .. 1 ink), with each crop's face and dark levels (grey
    values), measured inside ``margin`` pixels of each crop's edge."""
    side = stack.shape[1]
    core = stack[:, margin:side - margin, margin:side - margin]
    rows = core.reshape(len(stack), -1)
    if stack.dtype == np.uint8:  # counted, not selected: np.percentile's values, faster
        face, dark = percentiles(rows, (FACE_PERCENTILE, 2))
    else:
        face, dark = np.percentile(rows, [FACE_PERCENTILE, 2], axis=1)
    ink = (face[:, None, None] - stack) / np.maximum(face - dark, 24.0)[:, None, None]
    return np.clip(ink, 0.0, 1.0).astype(np.float32), face, dark


def _digit_corners(n: int, blobs: Blobs, box: np.ndarray, found: np.ndarray) -> np.ndarray:
    """:func:`digit_corners` of every map at once: (N, 4), from their blobs and each map's letter
    box (float32 sums in the blobs' order, as one map at a time)."""
    owner, stats, centres = blobs.owner, blobs.stats, blobs.centres
    x0, y0, x1, y1 = box.T.astype(np.float64)
    size = np.maximum(np.maximum(x1 - x0, y1 - y0), 1)[owner]
    w, h, area = stats[:, 2], stats[:, 3], stats[:, 4]
    dx = (centres[:, 0] - ((x0 + x1) / 2)[owner]) / size
    dy = (centres[:, 1] - ((y0 + y1) / 2)[owner]) / size
    near = found[owner] & (area >= 4) & (np.maximum(w, h) <= 0.6 * size) & (
        (0.25 < np.abs(dx)) & (np.abs(dx) < 0.95) & (0.2 < np.abs(dy)) & (np.abs(dy) < 0.95))
    corner = np.where(dy > 0, np.where(dx > 0, 0, 1), np.where(dx < 0, 2, 3))
    out = np.zeros((n, 4), np.float32)
    np.add.at(out, (owner[near], corner[near]),
              (area[near] / (size[near] * size[near])).astype(np.float32))
    return out


def digit_corners(ink: np.ndarray, parts: GlyphParts | None) -> np.ndarray:
    """Ink of small blobs where a value digit sits, per corner of the letter.

    Order bottom-right, bottom-left, top-left, top-right: the corner the digit moves to when the
    tile turns 0, 90, 180, 270 degrees clockwise. Only blobs diagonal to the letter and within a
    letter's size count, so a neighbour's digit beside the crop does not vote.
    """
    found = np.array([parts is not None])
    box = np.array([parts.box if parts is not None else (0, 0, 0, 0)], np.float64)
    return _digit_corners(1, _ink_blobs(ink[None]), box, found)[0]


def tile_features(crop: np.ndarray) -> np.ndarray:
    """The feature vector of one tile crop (BGR or grey, any size, letter in any rotation)."""
    return features_of_ink(ink_maps([crop])[0])


def tile_features_batch(crops: list[np.ndarray]) -> np.ndarray:
    return features_batch(ink_maps(crops))


def features_of_ink(ink: np.ndarray) -> np.ndarray:
    """Features from one ink map (see :func:`features_batch`)."""
    return features_batch(ink[None])[0]


def features_batch(inks: np.ndarray) -> np.ndarray:
    """(N, F) features of (N, WORK_PX, WORK_PX) ink maps (see :func:`features_and_boxes`)."""
    return features_and_boxes(inks)[0]


def letter_boxes(inks: np.ndarray) -> np.ndarray:
    """(N, 4) x0, y0, x1, y1 of each map's letter, the middle half of the map where none is seen.

    The box the perceptron's glyph features are cut from, for the network's letter-centred
    input (:func:`vision.letters.cnn.network_inputs`).
    """
    return _boxes(_find_glyphs(inks.shape, _ink_blobs(inks)))


def _boxes(glyphs: _Glyphs) -> np.ndarray:
    quarter = WORK_PX / 4
    return np.where(glyphs.found[:, None], glyphs.box,
                    (quarter, quarter, 3 * quarter, 3 * quarter))


def features_and_boxes(inks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N, F) features of (N, WORK_PX, WORK_PX) ink maps, and the letters' boxes
    (:func:`letter_boxes`), found once for both.

    The letter's own box is cut out and scaled to a fixed square, so the features do not
    depend on how big the letters of a tile set are or where the tile sits in its square:
    that is what carries a model from one board to another. All maps at once (one labelling,
    one Sobel, one resize per map size): a 98-tile board's four turns took 29 ms one map at a
    time, 6.5 ms batched.
    """
    n = len(inks)
    if n == 0:
        return np.zeros((0, _PARTS[3] + 4), np.float32), np.zeros((0, 4))
    blobs = _ink_blobs(inks)
    glyphs = _find_glyphs(inks.shape, blobs)
    box = _boxes(glyphs)
    x0, y0, x1, y1 = box.T
    box_w, box_h = x1 - x0, y1 - y0
    scale = GLYPH_PX / (np.maximum(box_w, box_h) + 2)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    zero = np.zeros(n)
    matrices = np.stack([np.column_stack([scale, zero, GLYPH_PX / 2 - cx * scale]),
                         np.column_stack([zero, scale, GLYPH_PX / 2 - cy * scale])],
                        axis=1).astype(np.float32)
    # One warp a map: 0.6 ms a 98-tile board, not worth a batched resampler of our own.
    glyph = np.stack([cv2.warpAffine(ink, matrix, (GLYPH_PX, GLYPH_PX), flags=cv2.INTER_AREA,
                                     borderValue=0)
                      for ink, matrix in zip(inks, matrices, strict=True)])
    extra = np.column_stack([
        ~glyphs.found, glyphs.digit, np.minimum(glyphs.digit_weight / 40.0, 1.0),
        box_w / WORK_PX, box_h / WORK_PX, box_w / np.maximum(box_h, 1)]).astype(np.float32)
    # Whole-number shrink factors: each output pixel is the mean of its own block, so the maps
    # stacked in one column shrink in one call exactly as one by one.
    coarse = cv2.resize(glyph.reshape(n * GLYPH_PX, GLYPH_PX), (COARSE_PX, n * COARSE_PX),
                        interpolation=cv2.INTER_AREA).reshape(n, -1)
    whole = cv2.resize(inks.reshape(n * WORK_PX, WORK_PX), (WHOLE_PX, n * WHOLE_PX),
                       interpolation=cv2.INTER_AREA).reshape(n, -1)
    digits = np.sqrt(_digit_corners(n, blobs, glyphs.box, glyphs.found)) * 3
    hog = _orientation_histograms(glyph, HOG_CELLS, HOG_BINS)
    return np.concatenate([hog, coarse, extra * 2, whole * 0.5, digits], axis=1).astype(
        np.float32), box


HOG_CELLS, HOG_BINS, COARSE_PX, WHOLE_PX = 4, 8, 12, 8
_PARTS = np.cumsum([HOG_CELLS * HOG_CELLS * HOG_BINS, COARSE_PX * COARSE_PX, 7,
                    WHOLE_PX * WHOLE_PX])


def _turn_permutations() -> np.ndarray:
    """(4, F) indices: feature j of a crop turned k quarter turns is feature perm[k, j] of it.

    Built once by turning index maps the way the features turn; the seven "extra" features
    (digit direction, box sizes) do not permute and are fixed up in :func:`turned_features`.
    """
    n_hog, n_coarse = HOG_CELLS * HOG_CELLS * HOG_BINS, COARSE_PX * COARSE_PX
    hog = np.arange(n_hog).reshape(HOG_CELLS, HOG_CELLS, HOG_BINS)
    coarse = np.arange(n_coarse).reshape(COARSE_PX, COARSE_PX) + _PARTS[0]
    extra = np.arange(7) + _PARTS[1]
    whole = np.arange(WHOLE_PX * WHOLE_PX).reshape(WHOLE_PX, WHOLE_PX) + _PARTS[2]
    digits = np.arange(4) + _PARTS[3]
    return np.stack([np.concatenate([
        np.roll(np.rot90(hog, k=-k, axes=(0, 1)), 2 * k, axis=2).ravel(),
        np.rot90(coarse, k=-k).ravel(), extra, np.rot90(whole, k=-k).ravel(),
        np.roll(digits, k)]) for k in range(4)])


_TURNS = _turn_permutations()


def turned_features(ink: np.ndarray) -> np.ndarray:
    """(4, F): the features of ``ink`` turned 0, 1, 2 and 3 quarter turns clockwise.

    Computed once and turned arithmetically (cells and maps rotate, orientation bins shift by a
    quarter of the circle, the digit's corner moves on), not by finding the letter four times:
    a quarter of the work for the four-turn vote. Equal to :func:`features_of_ink` of the turned
    ink up to half a pixel of resampling.
    """
    return turn_features(features_batch(ink[None]))[0]


def turn_features(features: np.ndarray) -> np.ndarray:
    """(N, 4, F): :func:`turned_features` from (N, F) features of unturned maps."""
    out = features[:, _TURNS]
    first = _PARTS[1]
    dx, dy = features[:, first + 1], features[:, first + 2]
    box_w, box_h = features[:, first + 4], features[:, first + 5]
    # The digit's direction turns clockwise with the tile; width and height swap on odd turns.
    out[:, 1, first + 1:first + 3] = np.column_stack([-dy, dx])
    out[:, 2, first + 1:first + 3] = np.column_stack([-dx, -dy])
    out[:, 3, first + 1:first + 3] = np.column_stack([dy, -dx])
    for k in (1, 3):
        out[:, k, first + 4:first + 6] = np.column_stack([box_h, box_w])
        # extra[6] = 2 * width / max(height, 1), widths and heights stored as 2 * px / WORK_PX.
        out[:, k, first + 6] = 2 * box_h / np.maximum(box_w, np.float32(2 / WORK_PX))
    return out


def class_label(letter: str, rotation: int) -> str:
    return f"{letter}{rotation}"


def parse_label(label: str) -> tuple[str, int]:
    return label[0], int(label[1:])


@dataclass(frozen=True)
class TileGuess:
    """The classifier's answer for one crop; ``letter`` is ``"?"`` for a blank tile."""

    letter: str
    rotation: int
    confidence: float
    runner_up: str


class TileClassifier:
    """Reads crops with a stored :class:`Mlp`, limited to the letters of one tile set.

    Each crop is read four times, turned by each quarter turn, and the four answers vote (their
    log-probabilities, mapped back to the crop's own rotation, are averaged). A letter read the
    same way from four directions is far more often right: on repositories the model never saw,
    the vote took letters from 93.3 % to 94.5 % and letter + rotation from 91.1 % to 92.2 %.
    With a ``network`` (:class:`vision.letters.cnn.Cnn`, the same classes; the committed one is
    loaded with the perceptron, see the module's notes) each crop is also read by it, once, and
    its log-probabilities are averaged with the vote's.
    """

    def __init__(self, model: Mlp, network: Cnn | None = None) -> None:
        if network is not None and network.labels != model.labels:
            raise ValueError("the network and the perceptron must name the same classes")
        self.model = model
        self.network = network
        self._parsed = [parse_label(label) for label in model.labels]
        index = {label: i for i, label in enumerate(model.labels)}
        # _turned[k][j]: the class a crop of class j shows once turned k quarter turns clockwise.
        self._turned = np.array([
            [index.get(class_label(letter, (rotation + 90 * k) % 360), j)
             for j, (letter, rotation) in enumerate(self._parsed)]
            for k in range(4)])
        # Class masks every board's reading needs, made once: built from the labels per call,
        # they made the guesses of a 98-tile board 1.3 ms, not 0.6.
        class_letters = np.array([letter for letter, _ in self._parsed])
        self._lettered = class_letters != BLANK
        self._rotation_of = np.array([rotation // 90 for _, rotation in self._parsed])
        self._letters = sorted({letter for letter, _ in self._parsed})
        # _member[i, j]: class j is of letter _letters[i].
        self._member = class_letters[None, :] == np.array(self._letters)[:, None]

    @classmethod
    def load(cls, path: Path | None = None) -> TileClassifier:
        """The perceptron stored at ``path`` (the committed one when None), with the network
        stored beside it as ``<stem>_cnn.npz`` when there is one (:func:`network_path`)."""
        return _load_classifier(str(path or MODELS / "tiles.npz"))

    def allowed(self, letters: str | None) -> np.ndarray | None:
        """The mask of classes whose letter is in ``letters`` (the blank always is)."""
        if letters is None:
            return None
        keep = set(letters.upper()) | {BLANK}
        return np.array([letter in keep for letter, _ in self._parsed])

    def probabilities(self, crops: list[np.ndarray], letters: str | None = None) -> np.ndarray:
        """(N, classes) probabilities of each crop's (letter, rotation), four turns voting,
        weighed by the rotations of the board's tiles (:meth:`on_board`)."""
        return self.on_board(self.tile_probabilities(crops, letters))

    def tile_probabilities(self, crops: list[np.ndarray],
                           letters: str | None = None) -> np.ndarray:
        """(N, classes): each crop read on its own, four turns voting, before the board's say.

        Apart from :meth:`probabilities` so that a reader may take another look at a doubtful
        tile (:func:`vision.read.read_rectified` reads it again from shifted crops) before the
        board's rotations weigh in once, over every tile.
        """
        inks, face, dark = ink_and_levels(crops)
        features, boxes = features_and_boxes(inks)
        turned = turn_features(features).reshape(-1, features.shape[1])
        allowed = self.allowed(letters)
        probs = self.vote(self.model.probabilities(turned, allowed))
        if self.network is not None and len(crops):
            # The network reads each crop once (it learnt the four turns as classes), and its
            # log-probabilities are averaged with the perceptron's four-turn vote.
            probs = pooled(np.stack([probs, self.network.probabilities(
                network_inputs(inks, boxes, self.network.mode), allowed)]), axis=0)
        # No central blob of ink at all: almost surely a blank, whatever the model makes of the
        # texture (a strong prior, not a rule, so the confidence stays honest). The features'
        # first extra says so: the letters are not looked for twice.
        no_letter = features[:, _PARTS[1]] > 0
        faint = (face - dark) < FAINT_CONTRAST * np.maximum(face, 1)
        odds = np.where(faint, FAINT_ODDS, np.where(no_letter, NO_LETTER_ODDS, 1.0))
        doubted = odds < 1
        if doubted.any():
            probs[np.ix_(doubted, self._lettered)] *= odds[doubted, None]
            probs[doubted] /= probs[doubted].sum(axis=1, keepdims=True)
        return probs

    def on_board(self, probs: np.ndarray) -> np.ndarray:
        """:meth:`with_board_rotations` when the board has enough tiles to tell, else ``probs``."""
        if len(probs) >= BOARD_PRIOR_MIN_TILES:
            return self.with_board_rotations(probs)
        return probs

    def with_board_rotations(self, probs: np.ndarray) -> np.ndarray:
        """Weigh each rotation by its share of this board's tiles (empirical Bayes, EM rounds).

        A turned-over O, S or N is told only by its small corner digit, so on its own it is
        often read the wrong way up; but the tiles of one board are not turned at random (one
        rotation per player). The shares are estimated from the tiles themselves, so four
        players with a quarter each leave every rotation as likely as before, while a board all
        read from one seat settles its doubtful tiles that way. Measured leave-one-source-out on
        1669 real tiles with the same models: 57 rotations wrong without, 5 with (letters 7
        better); four-seat renders lost nothing.
        """
        rotation_of, lettered = self._rotation_of, self._lettered
        one_hot = (rotation_of[:, None] == np.arange(4)[None, :]) & lettered[:, None]
        posterior = probs
        for _ in range(BOARD_PRIOR_ROUNDS):
            share = (posterior @ one_hot).sum(axis=0) + BOARD_PRIOR_SMOOTHING
            share = 4 * share / share.sum()
            posterior = probs * np.where(lettered, share[rotation_of], 1.0)[None, :]
            posterior /= posterior.sum(axis=1, keepdims=True)
        return posterior

    def vote(self, turned_probs: np.ndarray) -> np.ndarray:
        """Combine the rows of four turns per crop (crop-major) into one row per crop."""
        logp = np.log(turned_probs.reshape(-1, 4, turned_probs.shape[1]) + 1e-6)
        total = np.asarray(sum(logp[:, k][:, self._turned[k]] for k in range(4))) / 4
        total -= total.max(axis=1, keepdims=True)
        probs = np.exp(total)
        return probs / probs.sum(axis=1, keepdims=True)

    def classify(self, crops: list[np.ndarray], letters: str | None = None) -> list[TileGuess]:
        if len(crops) == 0:
            return []
        return self.guesses(self.probabilities(crops, letters))

    def letter_probabilities(self, probs: np.ndarray) -> tuple[list[str], np.ndarray]:
        """The letters, and (N, letters) each one's probability over its four rotations."""
        return self._letters, probs @ self._member.T.astype(probs.dtype)

    def guesses(self, probs: np.ndarray) -> list[TileGuess]:
        """One :class:`TileGuess` per row of class probabilities.

        The letter is the one with the most probability over its four rotations (a blank, with
        no rotation to read, spreads over all four), then its likeliest rotation is taken.
        """
        member = self._member
        letters, by_letter = self.letter_probabilities(probs)
        order = np.argsort(by_letter, axis=1)[:, ::-1]
        best = np.argmax(np.where(member[order[:, 0]], probs, -1.0), axis=1)
        guesses = []
        for i, (first, second) in enumerate(order[:, :2] if len(letters) > 1 else
                                            np.repeat(order[:, :1], 2, axis=1)):
            letter = letters[first]
            # The joint probability of letter and rotation: both matter (the rotation says who
            # owns the tile). A blank has no rotation to read, so its rotations pool.
            confidence = float(by_letter[i, first] if letter == BLANK else probs[i, best[i]])
            guesses.append(TileGuess(letter, self._parsed[best[i]][1], confidence,
                                     letters[second]))
        return guesses


def network_path(path: Path) -> Path:
    """Where the network that reads with the perceptron stored at ``path`` is stored."""
    return path.with_name(path.name.removesuffix(".npz") + "_cnn.npz")


@cache
def _load_classifier(path: str) -> TileClassifier:
    network = network_path(Path(path))
    return TileClassifier(Mlp.load(Path(path)), Cnn.load(network) if network.exists() else None)


__all__ = [
    "BLANK",
    "GlyphParts",
    "TileClassifier",
    "TileGuess",
    "class_label",
    "digit_corners",
    "features_and_boxes",
    "features_batch",
    "features_of_ink",
    "find_glyph",
    "letter_boxes",
    "network_path",
    "parse_label",
    "tile_features",
    "tile_features_batch",
    "turn_features",
    "turned_features",
    "gray_stack",
    "ink_and_levels",
    "ink_maps",
    "ink_of_gray",
]
