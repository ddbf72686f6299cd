"""Train (and honestly evaluate) the occupancy and tile models: ``python -m lab.train``.

Data: rendered tile faces (lab.tileface: several bold sans fonts, the value in the corner, four
rotations, lighting, offsets; blur, a shaken hand, too few pixels and JPEG from lab.cropcamera),
tiles cut from rendered board photos (lab.render: all four seats' rotations), plus real cells cut
from ``../shared/photos`` with their truth corners. Evaluation is leave-one-source-out: a model is
trained without one repository's photos and tested on them, so no photo is ever both trained and
tested on. ``--evaluate`` prints those figures (and a nearest-neighbour baseline on the same
features); without it the models are trained on everything and written to ``vision/models/``.
``tileref eval`` reads every photo with such leave-one-source-out models (:func:`loso_models`,
cached). Photos are read, never copied.

Reproduce the committed weights (byte for byte; about two minutes on one core, 405 s on two cores
shared with other work)::

    OPENBLAS_NUM_THREADS=1 .venv/bin/python -m lab.train --out vision/models

One BLAS thread, as ``tileref`` runs: with a thread per core the order of the sums in the
products changes from run to run, and so do the weights' last digits (up to 0.02 in a weight).
Byte for byte on the same kind of processor only: BLAS picks its kernels by processor, and on an
AMD EPYC the committed tile weights came out up to 0.03 apart in a weight (reading the same
letters in ``tests/test_second_look.py``; 0.05 on another, with OpenCV 5.0.0 and numpy 2.4.6,
whose leave-one-source-out models read one English letter fewer in ``tileref eval``);
``occupancy.npz`` was last trained on one.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import sys
import time
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from lab.cropcamera import photographed
from lab.truth import (
    DEV_PHOTOS,
    ERRATA,
    SIZE,
    load_errata,
    photos_with_truth,
    read_truth,
    tile_set_for,
)
from referee.tiles import load_tile_set, tile_set_names
from vision import DEFAULT_CONFIG, ReadConfig, load_image, rectify
from vision.cells.facecolour import ColourEvidence, colour_evidence
from vision.cells.occupancy import LOCAL_FEATURES, OccupancyModel, cell_features, game_rules
from vision.letters.classify import (
    BLANK,
    ROTATIONS,
    TileClassifier,
    class_label,
    features_batch,
    ink_maps,
    letter_boxes,
    network_path,
    tile_features_batch,
    turn_features,
)
from vision.letters.cnn import Cnn
from vision.letters.tuning import CROP_PAD
from vision.perceptron import MODELS, Mlp
from vision.tuning import WORK_PX


@dataclass
class RealBoard:
    """One truth photo, rectified in its truth orientation: features and labelled tile crops."""

    photo: str
    source: str
    occupancy_features: np.ndarray  # (225, F)
    colour: ColourEvidence  # occupancy.colour_evidence, for the rules beside the model
    occupied: np.ndarray  # (225,) bool
    scored: np.ndarray  # (225,) bool: False where the photo does not show the cell (errata)
    crops: list[np.ndarray]
    letters: list[str]  # "?" blank face, "" unknown (truth '?'), else the printed letter
    rotations: list[int]
    tiles: str = "english"  # the tile set a user would name for this board


def photo_source(photo: Path | str) -> str:
    """The repository a photo came from: its name up to the second ``__``."""
    return "__".join(Path(photo).name.split("__")[:2])


def load_real_boards(folder: Path, config: ReadConfig = DEFAULT_CONFIG) -> list[RealBoard]:
    """Every truth photo of ``folder``: occupancy labels and features, and labelled tile crops.

    Occupancy learns from the corrected truth (:data:`lab.truth.ERRATA`, each cell
    checked by eye): a blank the truth left out is a tile, not an empty square, and a cell under
    a sticky note is no example at all. Leave-one-source-out figures stay honest: a source's
    own errata only reach models that are not tested on it. The tile crops are the truth
    file's, as before: with the errata's nine crops added, a retrained tile model read 12 fewer
    of the cut letters of ``tests/test_second_look.py`` back (one retraining swings that much,
    see :data:`TILE_SEEDS`), so letters with errata want a measurement of their own.
    """
    errata = load_errata()
    boards = []
    for photo in photos_with_truth(folder):
        truth = read_truth(photo)
        if truth.corners is None:
            continue
        board = rectify(load_image(photo), truth.corners, cell_px=config.cell_px,
                        margin_cells=config.margin_cells, tile_lift=config.tile_lift)
        corrections = errata.get(photo.name, {})
        occupied = np.zeros(SIZE * SIZE, dtype=bool)
        scored = np.ones(SIZE * SIZE, dtype=bool)
        crops, letters, rotations = [], [], []
        for row in range(SIZE):
            for col in range(SIZE):
                cell = truth.grid[row][col]
                corrected = corrections.get((col, row), cell)
                if corrected is None:
                    scored[row * SIZE + col] = False
                else:
                    occupied[row * SIZE + col] = corrected.letter is not None
                if cell.letter is None:
                    continue
                crops.append(board.cell_image(col, row, pad=CROP_PAD).copy())
                if cell.blank:
                    letters.append(BLANK)
                elif cell.letter == "?":
                    letters.append("")
                else:
                    letters.append(cell.letter)
                rotations.append(cell.rotation or 0)
        features = cell_features(board)
        colour = colour_evidence(board, features[:, LOCAL_FEATURES:])
        boards.append(RealBoard(photo.name, photo_source(photo), features, colour, occupied,
                                scored, crops, letters, rotations, tile_set_for(truth)))
    return boards


def all_letter_values() -> dict[str, list[int]]:
    """Every letter of every tile set with the values it is printed with."""
    values: dict[str, list[int]] = {}
    for name in tile_set_names():
        for letter, value in load_tile_set(name).values.items():
            values.setdefault(letter, [])
            if value not in values[letter]:
                values[letter].append(value)
    return values


def _random_colour(rng: np.random.Generator, light: tuple[int, int], sat: tuple[int, int]
                   ) -> tuple[int, int, int]:
    hsv = np.array([[[rng.integers(0, 40) if rng.random() < 0.8 else rng.integers(0, 180),
                      rng.integers(*sat), rng.integers(*light)]]], dtype=np.uint8)
    blue, green, red = (int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
    return blue, green, red


TRAINING_LETTER_SCALE = 0.52
"""Height of a training face's capitals as a share of the face (:func:`render_tile_face` draws it
12 % either way), chosen to draw the letters as big as real tiles' letters.

Measured in docs/tuning.md ("The tile model's faces"); ``tests/test_training_faces.py`` keeps
the rendered letters as tall as real ones.
"""


def letter_heights(crops: list[np.ndarray]) -> np.ndarray:
    """How tall each crop's letter box is (:func:`vision.letters.classify.letter_boxes`: the letter
    the reader looks at, with its marks) as a share of the cell the crop was cut around."""
    boxes = letter_boxes(ink_maps(crops))
    return (boxes[:, 3] - boxes[:, 1]) / WORK_PX * (1 + 2 * CROP_PAD)


def render_crop(letter: str, value: int | None, rng: np.random.Generator, cell_px: int,
                blank: bool = False, font: Path | None = None,
                colour: str | None = None) -> np.ndarray:
    """One training crop like a real cell: a tile face, a little off centre, on a board square.

    ``font`` and ``colour`` (a tile colour's name, :mod:`lab.tileface`) pin the face's lettering
    and colour; by default both are drawn from the bold sans faces and the usual colours. Black
    plastic (lettered light) comes as its negative, as the reader reads its board.
    """
    from lab.tileface import MORE_TILE_COLOURS_BGR, render_tile_face

    side = int(round(cell_px * (1 + 2 * CROP_PAD)))
    board_colour = _random_colour(rng, (60, 250), (0, 200))
    canvas = np.empty((side, side, 3), np.float32)
    canvas[:] = board_colour
    face_px = int(round(cell_px * rng.uniform(0.84, 1.0)))
    face = render_tile_face(letter if not blank else "A", value=None if blank else value,
                            size=face_px, blank=blank, rng=rng, font=font, colour=colour,
                            tile_bgr=_random_colour(rng, (120, 250), (10, 120)),
                            ink_bgr=_random_colour(rng, (0, 80), (0, 120)),
                            letter_scale=TRAINING_LETTER_SCALE)
    shift = rng.uniform(-0.07, 0.07, size=2) * cell_px
    x0 = int(round((side - face_px) / 2 + shift[0]))
    y0 = int(round((side - face_px) / 2 + shift[1]))
    x0, y0 = min(max(x0, 0), side - face_px), min(max(y0, 0), side - face_px)
    canvas[y0:y0 + face_px, x0:x0 + face_px] = face
    # Light: a gradient across the cell and an overall gain.
    ramp = np.linspace(-1, 1, side, dtype=np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    gradient = np.cos(angle) * ramp[None, :] + np.sin(angle) * ramp[:, None]
    canvas *= (rng.uniform(0.55, 1.2) + rng.uniform(0, 0.25) * gradient)[:, :, None]
    canvas += rng.normal(0, rng.uniform(0, 6), canvas.shape)
    image = photographed(np.clip(canvas, 0, 255).astype(np.uint8), rng)
    return 255 - image if colour in MORE_TILE_COLOURS_BGR else image


def rotated_features(crops: list[np.ndarray], letters: list[str], rotations: list[int]
                     ) -> tuple[np.ndarray, list[str]]:
    """Every crop in all four rotations, labelled (letter, rotation) for each.

    The turns are made the way the reader makes them
    (:func:`vision.letters.classify.turn_features`), so training and reading see the same numbers.
    All crops at once: features are batched.
    """
    features = turn_features(features_batch(ink_maps(crops)))
    labels = [class_label(letter, (rotation + 90 * turns) % 360)
              for letter, rotation in zip(letters, rotations, strict=True) for turns in range(4)]
    return features.reshape(-1, features.shape[-1]), labels


def train_mlp(x: np.ndarray, labels: list[str], *, hidden: int = 256, epochs: int = 20,
              seed: int = 0, weights: np.ndarray | None = None, lr: float = 2e-3,
              decay: float = 1e-4) -> Mlp:
    """Softmax perceptron with one ReLU layer, trained by Adam on mini-batches (numpy only)."""
    rng = np.random.default_rng(seed)
    names = tuple(sorted(set(labels)))
    index = {name: i for i, name in enumerate(names)}
    y = np.array([index[label] for label in labels])
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    xs = ((x - mean) / scale).astype(np.float32)
    weights = np.ones(len(y), np.float32) if weights is None else weights.astype(np.float32)
    n_in, n_out = xs.shape[1], len(names)
    params = {
        "w1": (rng.normal(0, np.sqrt(2 / n_in), (n_in, hidden))).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": (rng.normal(0, np.sqrt(1 / hidden), (hidden, n_out))).astype(np.float32),
        "b2": np.zeros(n_out, np.float32),
    }
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    step = 0
    batch = 256
    for epoch in range(epochs):
        order = rng.permutation(len(y))
        rate = lr * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))
        for start in range(0, len(y), batch):
            idx = order[start:start + batch]
            xb, yb, wb = xs[idx], y[idx], weights[idx]
            h_pre = xb @ params["w1"] + params["b1"]
            h = np.maximum(h_pre, 0)
            logits = h @ params["w2"] + params["b2"]
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            p[np.arange(len(yb)), yb] -= 1
            g_logits = p * (wb / wb.sum())[:, None]
            grads = {
                "w2": h.T @ g_logits + decay * params["w2"],
                "b2": g_logits.sum(axis=0),
            }
            g_h = (g_logits @ params["w2"].T) * (h_pre > 0)
            grads["w1"] = xb.T @ g_h + decay * params["w1"]
            grads["b1"] = g_h.sum(axis=0)
            step += 1
            for key, grad in grads.items():
                m, v = moments[key]
                m *= 0.9
                m += 0.1 * grad
                v *= 0.999
                v += 0.001 * grad * grad
                m_hat = m / (1 - 0.9 ** step)
                v_hat = v / (1 - 0.999 ** step)
                params[key] -= rate * m_hat / (np.sqrt(v_hat) + 1e-8)
    return Mlp(mean.astype(np.float32), scale.astype(np.float32), params["w1"], params["b1"],
               params["w2"], params["b2"], names)


def knn_predict(train_x: np.ndarray, train_labels: list[str], test_x: np.ndarray, k: int = 1
                ) -> list[str]:
    """Nearest neighbour on the same features: the baseline the perceptron must beat."""
    a = train_x / (np.linalg.norm(train_x, axis=1, keepdims=True) + 1e-6)
    b = test_x / (np.linalg.norm(test_x, axis=1, keepdims=True) + 1e-6)
    out: list[str] = []
    for start in range(0, len(b), 512):
        sims = b[start:start + 512] @ a.T
        out.extend(train_labels[i] for i in sims.argmax(axis=1))
    return out


def _real_letter_data(boards: list[RealBoard]) -> tuple[np.ndarray, list[str], list[str]]:
    """Four-rotation features of every readable real tile, their labels and sources."""
    feats, labels, sources = [], [], []
    for board in boards:
        keep = [i for i, letter in enumerate(board.letters) if letter]
        if not keep:
            continue
        x, y = rotated_features([board.crops[i] for i in keep], [board.letters[i] for i in keep],
                                [board.rotations[i] for i in keep])
        feats.append(x)
        labels += y
        sources += [board.source] * len(y)
    return np.concatenate(feats), labels, sources


TILE_SEEDS = 3
"""Tile perceptrons averaged into one model (:func:`average_mlps`).

A single perceptron's letters on a held-out repository swing with the seed alone: scored
leave-one-source-out on the 1461 English tiles of the truth photos cut at found corners, single
seeds read 1410-1425 right; averages of three read 1429 and 1425 (seeds 0-2, 3-5). Averaging
more, or wider layers (512 hidden), did not read more (1421). Reading costs one wider product.
"""


REAL_TILE_WEIGHT = 3.0
"""How much a real tile cut from a truth photo counts in training against a rendered one.

Every real tile counts the same, whatever its letter. Weighting the real tiles of rare letters
up (by the square root of how much rarer than the median letter each is, at most three times
more; a scratch run of ``tileref eval``, 2026-11-27, with the training letters still drawn at
0.62, before :data:`TRAINING_LETTER_SCALE`) did not mend the jheidel game's Q, read as R
or G on four photos: the few real Qs of the other repositories are not lettered like it. It
mended one German Ö (read as B) and lost a tile on the blurred 170755 (read as empty), so English
letters went from 1453/1461 to 1452/1460 and letters of every set against the corrected truth
from 1675/1688 to 1675/1687. Not kept.
"""


def train_tiles(render_x: np.ndarray, render_labels: list[str], real_x: np.ndarray | None,
                real_labels: list[str], seed: int = 0, epochs: int = 25,
                seeds: int = TILE_SEEDS) -> Mlp:
    """The tile perceptron: :data:`TILE_SEEDS` of them trained on the rendered and real tiles'
    features (real ones weighing :data:`REAL_TILE_WEIGHT`) and averaged."""
    xs, labels = [render_x], list(render_labels)
    weights = [np.ones(len(render_labels), np.float32)]
    if real_x is not None and len(real_labels):
        xs.append(real_x)
        labels += real_labels
        weights.append(np.full(len(real_labels), REAL_TILE_WEIGHT, np.float32))
    x, w = np.concatenate(xs), np.concatenate(weights)
    return average_mlps([train_mlp(x, labels, weights=w, seed=seed + k, epochs=epochs)
                         for k in range(seeds)])


OCCUPANCY_SEEDS = 10
"""Occupancy perceptrons averaged into one model.

With a source left out few boards remain, and one perceptron's leave-one-source-out errors
swung with the seed alone (95-177 wrong cells of 6975 with the earlier features, 66-74 then); the
average of five did not depend on a lucky seed (69). With the letter blob's shape features
(:mod:`vision.cells.occupancy`) five still swung by two cells of 8550 with the seeds (15-17 wrong
against the corrected truth, found corners, scratch run of occupancy alone); ten gave 15 for each
of three seed offsets.
"""
OCCUPANCY_EPOCHS = 80
"""Epochs of each occupancy perceptron. Scratch run of occupancy alone, leave-one-source-out,
found corners, ten seeds, against the corrected truth: 40 epochs 15 wrong cells of 8550, 80
epochs 13 (for two seed offsets), 120 epochs 13, 64 hidden units instead of 32 no better (14 at
40 epochs, 13 at 80). With the earlier features 80 epochs gave 20 (21-23 at 40)."""

OCCUPANCY_RENDERS = 20
"""Rendered boards (two blanks each) that join the real ones in training occupancy: the real
photos hold a dozen blanks and no rendered premium print. Measured on 16 other renders, the
model trained on real boards alone called 25 squares tiles and missed 21 tiles (13 of 31 blanks
found); with 20 renders 4 and 18 (15 of 31), leave-one-source-out on the real photos unchanged
(49 wrong cells of 8550 with found corners)."""
OCCUPANCY_RENDER_SEED = 5000


class RenderedBoard(NamedTuple):
    """A rendered board the occupancy model learns from: its edition (a key of
    :data:`lab.render.BOARD_STYLES`), its cells' features and which cells hold a tile."""
    edition: str
    features: np.ndarray
    occupied: np.ndarray


@cache
def rendered_occupancy_boards(count: int = OCCUPANCY_RENDERS, seed: int = OCCUPANCY_RENDER_SEED
                              ) -> tuple[RenderedBoard, ...]:
    """``count`` rendered boards with two blanks each, hands left out (a hidden cell has no
    answer to learn); each knows its edition, so that one can be held out
    (:mod:`lab.stress.heldout`)."""
    from lab.render import random_position, render_board_photo

    boards = []
    for render_seed in range(seed, seed + count):
        rng = np.random.default_rng(render_seed)
        tiles = random_position(rng, words=int(rng.integers(4, 18)))
        cells = list(tiles)
        for i in rng.choice(len(cells), min(2, len(cells)), replace=False):
            tile = tiles[cells[i]]
            tiles[cells[i]] = type(tile)(tile.letter, True, tile.rotation)
        photo = render_board_photo(tiles, seed=render_seed)
        if photo.covered:
            continue
        occupied = np.zeros(SIZE * SIZE, dtype=bool)
        for cell in tiles:
            occupied[cell.row * SIZE + cell.col] = True
        config = DEFAULT_CONFIG
        board = rectify(photo.image, photo.corners, cell_px=config.cell_px,
                        margin_cells=config.margin_cells, tile_lift=config.tile_lift)
        boards.append(RenderedBoard(photo.options.board_style, cell_features(board), occupied))
    return tuple(boards)


def train_occupancy(boards: list[RealBoard], seed: int = 0, renders: int = OCCUPANCY_RENDERS,
                    editions: Collection[str] | None = None) -> Mlp:
    """The occupancy model, learnt from the real boards and ``renders`` rendered ones (of the
    ``editions`` only, when given: every edition but one, to measure that one unseen)."""
    rendered = [board for board in (rendered_occupancy_boards(renders) if renders else ())
                if editions is None or board.edition in editions]
    x = np.concatenate([board.occupancy_features[board.scored] for board in boards]
                       + [board.features for board in rendered])
    y = ["tile" if v else "empty" for board in boards for v in board.occupied[board.scored]]
    y += ["tile" if v else "empty" for board in rendered for v in board.occupied]
    return average_mlps([train_mlp(x, y, hidden=32, epochs=OCCUPANCY_EPOCHS, seed=seed + k,
                                   lr=3e-3, decay=1e-3) for k in range(OCCUPANCY_SEEDS)])


def average_mlps(models: list[Mlp]) -> Mlp:
    """One perceptron whose logits are the mean of ``models``' logits (same inputs and labels).

    Their hidden layers side by side and their output weights divided by their number: the
    committed file keeps the plain :class:`Mlp` format, and reading it costs one wider product.
    """
    first = models[0]
    for model in models[1:]:
        if model.labels != first.labels or not (np.array_equal(model.mean, first.mean)
                                                and np.array_equal(model.scale, first.scale)):
            raise ValueError("only perceptrons trained on the same data can be averaged")
    count = np.float32(len(models))
    return Mlp(first.mean, first.scale,
               np.concatenate([m.w1 for m in models], axis=1),
               np.concatenate([m.b1 for m in models]),
               np.concatenate([m.w2 for m in models], axis=0) / count,
               np.asarray(sum(m.b2 for m in models) / count, dtype=np.float32), first.labels)


LETTERINGS = ("bold sans", "every style", "both")
"""How training faces are lettered and coloured: "bold sans" (the faces of
:data:`lab.tileface.BOLD_SANS_NAMES` on the four light tile colours, as the models learnt before
the stress set), "every style" (every lettering style and tile colour of the stress scenes,
:data:`lab.stress.FONT_FILES`, in turn) or "both" (the bold sans faces, then half as many again
in every style, a :data:`EVERY_STYLE_SHARE` as many: what the committed models learn)."""

EVERY_STYLE_SHARE = 0.25
"""With "both", every-style faces beside the bold sans ones, as a share of ``per_letter``: as
many as the truth photos bear without losing letters beyond the seeds' noise, measured in
docs/tuning.md ("The tile model's faces")."""


def rendered_faces(per_letter: int, seed: int, cell_px: int, lettering: str = "bold sans"
                   ) -> tuple[list[np.ndarray], list[str], list[str], list[str]]:
    """Rendered single tile faces, each turned to a random rotation, their class labels, and the
    lettering style and tile colour each was drawn in ("" where drawn at random).

    With "every style" the faces of each letter take the styles and colours in turn, so every
    pair is drawn about equally often.
    """
    if lettering not in LETTERINGS[:2]:  # "both" is two calls (rendered_face_crops)
        raise ValueError(f"lettering must be one of {', '.join(LETTERINGS[:2])}, "
                         f"not {lettering!r}")
    rng = np.random.default_rng(seed)
    values = all_letter_values()
    styles: list[str] = [""]
    colours: list[str] = [""]
    if lettering == "every style":
        from lab.stress.axes import FONT_FILES, axis_named, installed_fonts
        from lab.tileface import find_font

        styles = [style for style in FONT_FILES if installed_fonts(style)]
        colours = list(axis_named("tile colour").values)
    turned_crops, labels, style_of, colour_of = [], [], [], []
    for letter in sorted(values) + [BLANK]:
        count = per_letter if letter != BLANK else per_letter // 2
        for i in range(count):
            style = styles[i % len(styles)]
            colour = colours[(i // len(styles)) % len(colours)]
            font = None
            if style:
                fonts = installed_fonts(style)
                font = find_font(fonts[int(rng.integers(len(fonts)))])
            rotation = int(rng.choice(ROTATIONS))
            if letter == BLANK:
                crop = render_crop("A", None, rng, cell_px, blank=True, font=font,
                                   colour=colour or None)
            else:
                crop = render_crop(letter, int(rng.choice(values[letter])), rng, cell_px,
                                   font=font, colour=colour or None)
            turned_crops.append(np.ascontiguousarray(np.rot90(crop, k=-(rotation // 90))))
            labels.append(class_label(letter, rotation))
            style_of.append(style)
            colour_of.append(colour)
    return turned_crops, labels, style_of, colour_of


def rendered_face_crops(per_letter: int, seed: int, cell_px: int, lettering: str = "bold sans"
                        ) -> tuple[list[np.ndarray], list[str]]:
    """Rendered single tile faces, each turned to a random rotation, and their class labels.

    Shared by every tile model's training (the perceptron's features, the network's pixels), so
    both learn from the same faces.
    """
    if lettering == "both":
        crops, labels, _, _ = rendered_faces(per_letter, seed, cell_px, "bold sans")
        more, more_labels, _, _ = rendered_faces(int(per_letter * EVERY_STYLE_SHARE), seed + 1,
                                                 cell_px, "every style")
        return crops + more, labels + more_labels
    crops, labels, _, _ = rendered_faces(per_letter, seed, cell_px, lettering)
    return crops, labels


def _rendered_four_rotations(per_letter: int, seed: int, cell_px: int, boards: int = 0,
                             lettering: str = "bold sans") -> tuple[np.ndarray, list[str]]:
    """Features of rendered training tiles: single faces, then tiles cut from board renders."""
    turned_crops, labels = rendered_face_crops(per_letter, seed, cell_px, lettering)
    x = tile_features_batch(turned_crops)
    if boards:
        board_x, board_labels = rotated_features(*rendered_board_tiles(boards, seed, cell_px))
        x = np.concatenate([x, board_x])
        labels += board_labels
    return x, labels


def _vote_predictions(model: Mlp, crops: list[np.ndarray], letters: str) -> list[str]:
    """Labels read for ``crops`` exactly as the product reads them (four turns voting)."""
    classifier = TileClassifier(model)
    return [class_label(g.letter, g.rotation) for g in classifier.classify(crops, letters)]


def board_render_seeds(seed: int, count: int) -> range:
    """The render seeds of the ``count`` board photos whose tiles train the tile models."""
    return range(seed * 1000, seed * 1000 + count)


def training_render_seeds(settings: TrainingSettings | None = None) -> set[int]:
    """Every render seed a model trained with ``settings`` (the committed ones if None) learnt
    from: its tile boards' and the occupancy model's. A benchmark that scores renders must use
    none of them, or it scores the models on photos they were trained on."""
    settings = settings or TrainingSettings()
    occupancy = range(OCCUPANCY_RENDER_SEED, OCCUPANCY_RENDER_SEED + OCCUPANCY_RENDERS)
    return set(board_render_seeds(settings.seed, settings.boards)) | set(occupancy)


def rendered_board_tiles(count: int, seed: int, cell_px: int
                         ) -> tuple[list[np.ndarray], list[str], list[int]]:
    """Tile crops cut from whole rendered board photos (all four seats' rotations).

    Faces rendered alone never show what a board photo does to a tile: perspective, the tile's
    side, its shadow, a neighbour's edge, a digit printed close to a big letter. These do.
    Returned in the South view, like a real board read with South at the bottom.
    """
    from lab.render import random_position, render_board_photo
    from referee.cells import Cell, Seat

    crops, letters, rotations = [], [], []
    for render_seed in board_render_seeds(seed, count):
        tiles = random_position(np.random.default_rng(render_seed), words=14, seats=list(Seat))
        photo = render_board_photo(tiles, seed=render_seed, width=1600, height=1200)
        board = rectify(photo.image, photo.corners, cell_px=cell_px,
                        margin_cells=DEFAULT_CONFIG.margin_cells,
                        tile_lift=DEFAULT_CONFIG.tile_lift)
        for cell, tile in tiles.items():
            if cell in photo.covered or not isinstance(cell, Cell):
                continue
            crops.append(board.cell_image(cell.col, cell.row, pad=CROP_PAD).copy())
            letters.append(BLANK if tile.blank else tile.letter)
            rotations.append(tile.rotation or 0)
    return crops, letters, rotations


def evaluate(boards: list[RealBoard], render_x: np.ndarray, render_labels: list[str],
             epochs: int) -> None:
    """Leave-one-source-out figures for occupancy and letters, printed as a table.

    Letters are scored on each test tile once, read as the product reads it; the nearest-
    neighbour baseline uses the same features without the four-turn vote.
    """
    real_x, real_labels, real_sources = _real_letter_data(boards)
    sources = sorted({board.source for board in boards})
    print("source                              occ_err/cells  letters  +rot   knn_letters")
    totals = np.zeros(6)
    confusions: Counter = Counter()
    for source in sources:
        train_boards = [b for b in boards if b.source != source]
        test_boards = [b for b in boards if b.source == source]
        occ_model = OccupancyModel(train_occupancy(train_boards))
        # Scored as the product decides: the model, then the rules of the game on top.
        occ_err = sum(int(((game_rules(b.occupancy_features,
                                       occ_model.probability_of(b.occupancy_features),
                                       b.colour)
                            .reshape(-1) >= DEFAULT_CONFIG.occupancy_threshold)
                           != b.occupied)[b.scored].sum()) for b in test_boards)
        cells = sum(int(b.scored.sum()) for b in test_boards)
        mask_train = np.array([s != source for s in real_sources])
        model = train_tiles(render_x, render_labels, real_x[mask_train],
                            [label for label, m in zip(real_labels, mask_train, strict=False) if m],
                            epochs=epochs)
        letters = load_tile_set(test_boards[0].tiles).letters
        test_crops, test_labels = [], []
        for board in test_boards:
            for crop, letter, rotation in zip(board.crops, board.letters, board.rotations,
                                              strict=True):
                if letter:
                    test_crops.append(crop)
                    test_labels.append(class_label(letter, rotation))
        predicted = _vote_predictions(model, test_crops, letters)
        allowed = TileClassifier(model).allowed(letters)
        assert allowed is not None  # a tile set's letters were given
        pool_x = np.concatenate([render_x, real_x[mask_train]])
        pool_labels = render_labels + [label for label, m
                                       in zip(real_labels, mask_train, strict=True) if m]
        keep = [i for i, label in enumerate(pool_labels) if allowed[model.labels.index(label)]]
        knn = knn_predict(pool_x[keep], [pool_labels[i] for i in keep],
                          tile_features_batch(test_crops))
        confusions.update((t[0], p[0]) for p, t in zip(predicted, test_labels, strict=True)
                          if p[0] != t[0])
        n = len(test_labels)
        letter_ok = sum(p[0] == t[0] for p, t in zip(predicted, test_labels, strict=False))
        full_ok = sum(p == t for p, t in zip(predicted, test_labels, strict=False))
        knn_ok = sum(p[0] == t[0] for p, t in zip(knn, test_labels, strict=False))
        totals += [occ_err, cells, letter_ok, full_ok, knn_ok, n]
        print(f"{source:36s} {occ_err:5d}/{cells:<6d} {letter_ok / max(n, 1):7.1%} "
              f"{full_ok / max(n, 1):6.1%} {knn_ok / max(n, 1):8.1%}   (n={n})")
        sys.stdout.flush()
    wrong_cells, all_cells, letters_right, both_right, knn_right, tiles = (int(t) for t in totals)
    print(f"{'TOTAL':36s} {wrong_cells:5d}/{all_cells:<6d} {letters_right / tiles:7.1%} "
          f"{both_right / tiles:6.1%} {knn_right / tiles:8.1%}")
    print("confusions (truth, read):", confusions.most_common(25))


@dataclass(frozen=True)
class TrainingSettings:
    """What a training run depends on besides the photos and the code (``per_letter`` and the
    seed measured in docs/tuning.md, "The tile model's faces")."""

    per_letter: int = 480
    epochs: int = 20
    seed: int = 1
    boards: int = 20  # whole rendered board photos whose tiles join the training set
    lettering: str = "both"  # the faces' lettering and colours (LETTERINGS)


ALL_SOURCES = "__all__"
"""The key of the model trained on every source (what is committed)."""
CACHE_DIR = Path(os.environ.get("TILEREF_CACHE", Path.home() / ".cache" / "tileref")) / "loso"


MODEL_CODE = ("lab.train", "vision.letters.classify", "vision.perceptron", "vision.cells.occupancy",
              "vision.cells.cellgrid", "vision.cells.letterevidence", "vision.cells.facecolour",
              "vision.tuning", "vision.cells.tuning", "vision.letters.tuning",
              "lab.tileface", "lab.cropcamera", "lab.render.options", "lab.render.camera",
              "lab.render.surfaces", "lab.render.solids", "lab.render.scene",
              "lab.render.positions", "vision.board.rectify", "lab.truth")
"""The modules whose code a trained model depends on (:func:`training_key`): the features, the
models, the renders and the truth they learn from."""


def training_key(photos: Path, settings: TrainingSettings) -> str:
    """A digest of everything a model depends on: code, truth files, settings.

    Cached leave-one-source-out models are reused only while this is unchanged, so an edited
    feature or a corrected truth file can never be scored with a stale model.
    """
    geometry = (DEFAULT_CONFIG.cell_px, DEFAULT_CONFIG.margin_cells, DEFAULT_CONFIG.tile_lift)
    digest = hashlib.sha256(repr((settings, geometry)).encode())
    for module in MODEL_CODE:
        digest.update(Path(importlib.import_module(module).__file__ or "").read_bytes())
    # The errata correct the occupancy labels (load_real_boards), so they are training data too.
    digest.update(ERRATA.read_bytes() if ERRATA.exists() else b"")
    for photo in photos_with_truth(photos):
        digest.update(photo.name.encode())
        for sidecar in sorted(photo.parent.glob(photo.name + "*.txt")):
            digest.update(sidecar.read_bytes())
    return digest.hexdigest()[:16]


def loso_models(sources: set[str], photos: Path = DEV_PHOTOS, *,
                settings: TrainingSettings = TrainingSettings(), cache_dir: Path = CACHE_DIR,
                progress: bool = True) -> dict[str, tuple[OccupancyModel, TileClassifier]]:
    """For each source, models trained on every truth photo except that source's.

    Trained once and cached under ``cache_dir`` (keyed by :func:`training_key`); a source with
    no photos in ``photos`` gets the model trained on everything (it never saw that source).
    """
    folder = cache_dir / training_key(photos, settings)
    data: dict = {}

    def training_data() -> dict:
        if not data:
            if progress:
                print("training leave-one-source-out models (cached for next time) ...",
                      file=sys.stderr, flush=True)
            data["boards"] = load_real_boards(photos)
            data["render"] = _rendered_four_rotations(settings.per_letter, settings.seed,
                                                      DEFAULT_CONFIG.cell_px, settings.boards,
                                                      settings.lettering)
            data["real"] = _real_letter_data(data["boards"])
        return data

    known = {truth.source for truth in map(read_truth, photos_with_truth(photos))
             if truth.corners is not None}
    models = {}
    for source in sorted(sources):
        key = source if source in known else ALL_SOURCES
        occ_path, tiles_path = folder / f"{key}.occupancy.npz", folder / f"{key}.tiles.npz"
        if not (occ_path.exists() and tiles_path.exists()):
            occ, tiles = _train_without(training_data(), key, settings)
            folder.mkdir(parents=True, exist_ok=True)
            occ.save(occ_path)
            tiles.save(tiles_path)
        models[source] = (OccupancyModel(Mlp.load(occ_path)),
                          TileClassifier(Mlp.load(tiles_path), loso_network(key)))
    return models


LOSO_NETWORKS = MODELS / "loso"
"""Where the tile networks trained without each source go, ``<source>_cnn.npz``.

Training a network needs torch (:mod:`lab.train_cnn`), reading with one does not: so that
``tileref eval`` could score a reader with a network leave-one-source-out on any machine, the
networks trained without each source would be committed here with the product's one (the
perceptrons, numpy-trained in minutes, are trained and cached by :func:`loso_models`). ``python -m
lab.train_cnn --out vision/models`` writes them all with the product's network.
"""


def loso_network(key: str) -> Cnn | None:
    """The tile network trained without source ``key`` (:data:`ALL_SOURCES`: the committed one);
    None when the product reads without a network."""
    product = network_path(MODELS / "tiles.npz")
    if not product.exists():
        return None
    path = product if key == ALL_SOURCES else LOSO_NETWORKS / f"{key}_cnn.npz"
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: retrain the networks with "
                                "python -m lab.train_cnn --out vision/models")
    return Cnn.load(path)


def _train_without(data: dict, source: str, settings: TrainingSettings) -> tuple[Mlp, Mlp]:
    boards = [board for board in data["boards"] if board.source != source]
    real_x, real_labels, real_sources = data["real"]
    keep = np.array([s != source for s in real_sources])
    render_x, render_labels = data["render"]
    tiles = train_tiles(render_x, render_labels, real_x[keep],
                        [label for label, k in zip(real_labels, keep, strict=False) if k],
                        epochs=settings.epochs)
    return train_occupancy(boards), tiles


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.train",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=Path, default=DEV_PHOTOS)
    parser.add_argument("--out", type=Path, default=MODELS)
    parser.add_argument("--per-letter", type=int, default=TrainingSettings.per_letter)
    parser.add_argument("--epochs", type=int, default=TrainingSettings.epochs)
    parser.add_argument("--seed", type=int, default=TrainingSettings.seed)
    parser.add_argument("--boards", type=int, default=TrainingSettings.boards,
                        help="rendered board photos whose tiles join the training set")
    parser.add_argument("--lettering", choices=LETTERINGS, default=TrainingSettings.lettering,
                        help="the training faces' lettering and colours")
    parser.add_argument("--evaluate", action="store_true",
                        help="print leave-one-source-out figures instead of writing models")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    boards = load_real_boards(args.photos)
    print(f"{len(boards)} real boards, {sum(len(b.crops) for b in boards)} tiles "
          f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    render_x, render_labels = _rendered_four_rotations(args.per_letter, args.seed,
                                                       DEFAULT_CONFIG.cell_px, args.boards,
                                                       args.lettering)
    print(f"{len(render_labels)} rendered crops ({time.perf_counter() - started:.0f} s)",
          file=sys.stderr)
    if args.evaluate:
        evaluate(boards, render_x, render_labels, args.epochs)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    train_occupancy(boards).save(args.out / "occupancy.npz")
    real_x, real_labels, _ = _real_letter_data(boards)
    train_tiles(render_x, render_labels, real_x, real_labels, epochs=args.epochs).save(
        args.out / "tiles.npz")
    print(f"models written to {args.out} ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
