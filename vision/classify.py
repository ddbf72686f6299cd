"""Letter and rotation of one tile face, from a rectified cell crop.

Measured, not assumed (``python -m vision.train --evaluate``): gradient-orientation histograms
plus a coarse ink map, fed to a small two-layer perceptron, beat the same features with nearest
neighbours on tiles from repositories the model never saw. The perceptron is trained once on
rendered faces (several bold sans fonts, the value digit in the corner, four rotations, lighting,
blur, JPEG, offsets) plus real crops, and stored as plain arrays in ``vision/models/tiles.npz``;
reading needs numpy only. One class is one (letter, rotation) pair, so the corner digit that tells
a turned-over N from a Z takes part in every decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

MODELS = Path(__file__).resolve().parent / "models"
CROP_PAD = 0.06
"""Cells are cut this fraction of a cell wider on each side: tiles overhang their squares."""
BLANK = "?"
ROTATIONS = (0, 90, 180, 270)


@dataclass(frozen=True)
class Mlp:
    """A two-layer perceptron (ReLU hidden layer, softmax out) as plain arrays.

    ``mean``/``scale`` standardise the features; ``labels`` names the output classes.
    """

    mean: np.ndarray
    scale: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    labels: tuple[str, ...]

    def logits(self, features: np.ndarray) -> np.ndarray:
        x = (np.asarray(features, dtype=np.float32) - self.mean) / self.scale
        hidden = np.maximum(x @ self.w1 + self.b1, 0.0)
        return hidden @ self.w2 + self.b2

    def probabilities(self, features: np.ndarray, allowed: np.ndarray | None = None) -> np.ndarray:
        """Softmax over the classes; classes outside ``allowed`` (a bool mask) get 0."""
        logits = self.logits(features)
        if allowed is not None:
            logits = np.where(allowed[None, :], logits, -np.inf)
        logits = logits - logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=1, keepdims=True)

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path, mean=self.mean, scale=self.scale, w1=self.w1, b1=self.b1, w2=self.w2,
            b2=self.b2, labels=np.array(self.labels),
        )

    @classmethod
    def load(cls, path: Path) -> Mlp:
        with np.load(path, allow_pickle=False) as data:
            return cls(
                mean=data["mean"].astype(np.float32), scale=data["scale"].astype(np.float32),
                w1=data["w1"].astype(np.float32), b1=data["b1"].astype(np.float32),
                w2=data["w2"].astype(np.float32), b2=data["b2"].astype(np.float32),
                labels=tuple(str(label) for label in data["labels"]),
            )


def _orientation_histograms(ink: np.ndarray, cells: int = 4, bins: int = 8) -> np.ndarray:
    """Signed gradient-orientation histograms over a ``cells`` x ``cells`` grid (HOG-like).

    Signed directions (0..360) keep a letter apart from its upside-down twin.
    """
    gx = cv2.Sobel(ink, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(ink, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = np.sqrt(gx * gx + gy * gy)
    angle = (np.arctan2(gy, gx) + np.pi) * (bins / (2 * np.pi))
    low = np.floor(angle).astype(np.int64) % bins
    high = (low + 1) % bins
    weight_high = angle - np.floor(angle)
    step = ink.shape[0] // cells
    cy = np.minimum(np.arange(ink.shape[0]) // step, cells - 1)
    flat = (cy[:, None] * cells + cy[None, :]).ravel()
    # bincount, not np.add.at: the same sums, an order of magnitude faster.
    hist = np.bincount(flat * bins + low.ravel(), (magnitude * (1 - weight_high)).ravel(),
                       minlength=cells * cells * bins)
    hist += np.bincount(flat * bins + high.ravel(), (magnitude * weight_high).ravel(),
                        minlength=cells * cells * bins)
    hist = hist.ravel()
    return np.sqrt(hist / (np.linalg.norm(hist) + 1e-6))


WORK_PX = 48
"""Crops are resampled to this square before the letter is looked for."""
GLYPH_PX = 24
"""The letter's own box is scaled to this square: size and offset on the tile cancel out."""


@dataclass(frozen=True)
class GlyphParts:
    """Where the letter is in a work-size ink map, and which way its value digit lies."""

    box: tuple[float, float, float, float]  # x0, y0, x1, y1 of the letter (with diacritics)
    digit: tuple[float, float]  # mean offset of the value digit from the letter, in letter sizes
    digit_weight: float  # ink area of the digit (0: none seen)


def find_glyph(ink: np.ndarray) -> GlyphParts | None:
    """The letter as the biggest central blob of ink, with the blobs that belong to it.

    A blob inside the letter's box, or beside it and centred on it (the dots of Ä, the accent
    of Ś), is part of the letter; a blob off towards a corner is the value digit, whose
    direction is what tells a turned-over N from a Z. ``None`` when no letter is seen (blank).
    """
    binary = (ink > 0.45).astype(np.uint8)
    count, _, stats, centres = cv2.connectedComponentsWithStats(binary, connectivity=8)
    height, width = ink.shape
    blobs = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < 6:
            continue
        touches = x <= 0 or y <= 0 or x + w >= width or y + h >= height
        if not touches:
            blobs.append((x, y, w, h, area, centres[i]))
    central = [b for b in blobs
               if abs(b[5][0] - width / 2) < 0.3 * width and abs(b[5][1] - height / 2) < 0.3 * height]
    if not central:
        return None
    letter = max(central, key=lambda b: b[4])
    lx, ly, lw, lh, larea, lcentre = letter
    x0, y0, x1, y1 = lx, ly, lx + lw, ly + lh
    size = max(lw, lh)
    digit = np.zeros(2)
    weight = 0.0
    for blob in blobs:
        if blob is letter or blob[4] > larea:
            continue
        x, y, w, h, area, centre = blob
        offset = centre - lcentre
        rx = abs(offset[0]) / max(lw / 2, 1)
        ry = abs(offset[1]) / max(lh / 2, 1)
        inside = rx < 1 and ry < 1
        beside = (rx >= 1 and ry < 0.45) or (ry >= 1 and rx < 0.45)
        if (inside or beside) and max(abs(offset[0]), abs(offset[1])) < 0.9 * size:
            x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x + w), max(y1, y + h)
        else:
            digit += offset * area
            weight += area
    if weight:
        digit = digit / weight / max(size, 1)
    return GlyphParts((x0, y0, x1, y1), (float(digit[0]), float(digit[1])), weight)


def ink_maps(crops: list[np.ndarray] | np.ndarray) -> np.ndarray:
    """(N, WORK_PX, WORK_PX) darkness against the tile face, 0 (face) to 1 (ink).

    Letters are always darker than their tile, so the bright end of a crop is the face; dividing
    by the crop's own contrast cancels the light. All crops at once: one percentile call.
    """
    grays = []
    for crop in crops:
        gray = crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        if gray.shape[:2] != (WORK_PX, WORK_PX):
            gray = cv2.resize(gray, (WORK_PX, WORK_PX), interpolation=cv2.INTER_AREA)
        grays.append(gray)
    stack = np.asarray(grays, dtype=np.float32)
    if len(stack) == 0:
        return stack.reshape(0, WORK_PX, WORK_PX)
    levels = np.percentile(stack.reshape(len(stack), -1), [85, 3], axis=1)
    face, dark = levels[0][:, None, None], levels[1][:, None, None]
    return np.clip((face - stack) / np.maximum(face - dark, 24.0), 0.0, 1.0).astype(np.float32)


def tile_features(crop: np.ndarray) -> np.ndarray:
    """The feature vector of one tile crop (BGR or grey, any size, letter in any rotation)."""
    return features_of_ink(ink_maps([crop])[0])


def tile_features_batch(crops: list[np.ndarray]) -> np.ndarray:
    return np.stack([features_of_ink(ink) for ink in ink_maps(crops)])


def features_of_ink(ink: np.ndarray) -> np.ndarray:
    """Features from one ink map.

    The letter's own box is cut out and scaled to a fixed square, so the features do not
    depend on how big the letters of a tile set are or where the tile sits in its square:
    that is what carries a model from one board to another.
    """
    parts = find_glyph(ink)
    extra = np.zeros(7, np.float32)
    if parts is None:
        quarter = WORK_PX / 4
        parts = GlyphParts((quarter, quarter, 3 * quarter, 3 * quarter), (0.0, 0.0), 0.0)
        extra[0] = 1.0
    x0, y0, x1, y1 = parts.box
    box_w, box_h = x1 - x0, y1 - y0
    side = max(box_w, box_h) + 2
    scale = GLYPH_PX / side
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    matrix = np.float32([[scale, 0, GLYPH_PX / 2 - cx * scale],
                         [0, scale, GLYPH_PX / 2 - cy * scale]])
    glyph = cv2.warpAffine(ink, matrix, (GLYPH_PX, GLYPH_PX), flags=cv2.INTER_AREA,
                           borderValue=0)
    extra[1:3] = parts.digit
    extra[3] = min(parts.digit_weight / 40.0, 1.0)
    extra[4:7] = (box_w / WORK_PX, box_h / WORK_PX, box_w / max(box_h, 1))
    coarse = cv2.resize(glyph, (12, 12), interpolation=cv2.INTER_AREA).ravel()
    whole = cv2.resize(ink, (8, 8), interpolation=cv2.INTER_AREA).ravel()
    return np.concatenate([_orientation_histograms(glyph), coarse, extra * 2,
                           whole * 0.5]).astype(np.float32)


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
    """Reads crops with a stored :class:`Mlp`, limited to the letters of one tile set."""

    def __init__(self, model: Mlp) -> None:
        self.model = model
        self._parsed = [parse_label(label) for label in model.labels]

    @classmethod
    def load(cls, path: Path | None = None) -> TileClassifier:
        return _load_classifier(str(path or MODELS / "tiles.npz"))

    def allowed(self, letters: str | None) -> np.ndarray | None:
        """The mask of classes whose letter is in ``letters`` (the blank always is)."""
        if letters is None:
            return None
        keep = set(letters.upper()) | {BLANK}
        return np.array([letter in keep for letter, _ in self._parsed])

    def classify(self, crops: list[np.ndarray], letters: str | None = None) -> list[TileGuess]:
        if not crops:
            return []
        features = tile_features_batch(crops)
        return self.classify_features(features, letters)

    def classify_features(self, features: np.ndarray, letters: str | None = None) -> list[TileGuess]:
        probs = self.model.probabilities(features, self.allowed(letters))
        guesses = []
        for row in probs:
            order = np.argsort(row)[::-1]
            letter, rotation = self._parsed[order[0]]
            # The joint probability of letter and rotation: both matter (the rotation says who
            # owns the tile). A blank has no rotation to read, so its rotations pool.
            confidence = float(row[order[0]])
            if letter == BLANK:
                confidence = float(sum(p for (l, _), p in zip(self._parsed, row) if l == BLANK))
            runner_up = next((self._parsed[i][0] for i in order[1:]
                              if self._parsed[i][0] != letter), letter)
            guesses.append(TileGuess(letter, rotation, confidence, runner_up))
        return guesses


@cache
def _load_classifier(path: str) -> TileClassifier:
    return TileClassifier(Mlp.load(Path(path)))


__all__ = [
    "BLANK",
    "CROP_PAD",
    "GLYPH_PX",
    "GlyphParts",
    "Mlp",
    "TileClassifier",
    "TileGuess",
    "class_label",
    "find_glyph",
    "parse_label",
    "tile_features",
    "tile_features_batch",
    "ink_maps",
]
