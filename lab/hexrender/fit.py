"""Fit the hex reader's stone model on renders: ``python -m lab.hexrender.fit``.

The reader's decision per cell (empty, or which of the eight colours) is a small network over
the numbers :func:`vision.hexboard.cells.measure_cells` takes. It is fitted here, on renders of
the seeds ``--seeds`` (0-299 by default) and never on the seeds the bench reports on (10000 and
up), and written to ``vision/hexboard/stones.json`` with the seeds it saw.

The cells are measured through each render's true homography nudged by up to a tenth of a cell
(as the reader's own fit is off by that much), so the model learns the cells as the reader
sees them, and no failure to find a board leaves a render out.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from lab.hexrender.scene import render_scene
from referee.hexboard import PALETTE
from vision.hexboard.cells import FEATURES, measure_cells
from vision.hexboard.geometry import hexagon, playing_radius
from vision.hexboard.stones import EMPTY, MODEL, StoneModel

CLASSES = (EMPTY, *PALETTE)


def cells_of(seed: int, size: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """The measurements and true classes of every cell of render ``seed``."""
    image, truth = render_scene(seed, size)
    rng = np.random.default_rng([seed, 99])
    radius = playing_radius(size)
    cell_px = float(np.linalg.norm(truth.corners[0] - truth.corners[1])) / radius
    nudged = truth.corners + rng.normal(0, 0.05 * cell_px, truth.corners.shape)
    homography, _ = cv2.findHomography(hexagon(radius), nudged)
    looks = measure_cells(image, homography, size)
    labels = np.array([CLASSES.index(colour or EMPTY) for colour in truth.board.colours])
    return looks.features, labels


def gather(seeds: range, size: int = 7) -> tuple[np.ndarray, np.ndarray]:
    features, labels = [], []
    for index, seed in enumerate(seeds, start=1):
        x, y = cells_of(seed, size)
        features.append(x)
        labels.append(y)
        print(f"\r{index}/{len(seeds)} renders measured", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return np.vstack(features), np.concatenate(labels)


def train(features: np.ndarray, labels: np.ndarray, *, hidden: int = 48, epochs: int = 300,
          seed: int = 0) -> StoneModel:
    """A one-hidden-layer network by full-batch Adam on cross-entropy, classes weighted so the
    few stones of a colour count as much as the many empty cells."""
    rng = np.random.default_rng(seed)
    mean = features.mean(axis=0)
    scale = features.std(axis=0) + 1e-6
    x = (features - mean) / scale
    classes = len(CLASSES)
    onehot = np.eye(classes)[labels]
    counts = np.bincount(labels, minlength=classes).astype(np.float64)
    weight = (len(labels) / (classes * np.maximum(counts, 1)))[labels]
    weight = np.sqrt(weight)
    w1 = rng.normal(0, np.sqrt(2 / x.shape[1]), (x.shape[1], hidden))
    b1 = np.zeros(hidden)
    w2 = rng.normal(0, np.sqrt(1 / hidden), (hidden, classes))
    b2 = np.zeros(classes)
    params = [w1, b1, w2, b2]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    rate, beta1, beta2, decay = 0.01, 0.9, 0.999, 1e-4
    for step in range(1, epochs + 1):
        hidden_in = x @ params[0] + params[1]
        hidden_out = np.maximum(hidden_in, 0)
        logits = hidden_out @ params[2] + params[3]
        logits -= logits.max(axis=1, keepdims=True)
        prob = np.exp(logits)
        prob /= prob.sum(axis=1, keepdims=True)
        delta = (prob - onehot) * weight[:, None] / weight.sum()
        grads = [None, None, hidden_out.T @ delta, delta.sum(axis=0)]
        back = (delta @ params[2].T) * (hidden_in > 0)
        grads[0] = x.T @ back
        grads[1] = back.sum(axis=0)
        for i, (param, grad) in enumerate(zip(params, grads, strict=True)):
            grad = grad + decay * param
            moments[i] = beta1 * moments[i] + (1 - beta1) * grad
            squares[i] = beta2 * squares[i] + (1 - beta2) * grad ** 2
            corrected = moments[i] / (1 - beta1 ** step)
            spread = squares[i] / (1 - beta2 ** step)
            param -= rate * corrected / (np.sqrt(spread) + 1e-8)
        if step % 50 == 0:
            loss = -float((np.log(prob[np.arange(len(labels)), labels] + 1e-12)
                           * weight).sum() / weight.sum())
            accuracy = float((prob.argmax(axis=1) == labels).mean())
            print(f"step {step}: loss {loss:.4f}, accuracy {accuracy:.4f}", file=sys.stderr)
    return StoneModel(CLASSES, mean, scale, ((params[0], params[1]), (params[2], params[3])))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.hexrender.fit",
                                     description="Fit the hex reader's stone model on renders.")
    parser.add_argument("--seeds", default="0-299", help="render seeds to fit on, as A-B")
    parser.add_argument("--cache", type=Path, help="keep the measurements in this .npz")
    parser.add_argument("--out", type=Path, default=MODEL)
    parser.add_argument("--epochs", type=int, default=800)
    args = parser.parse_args(argv)
    first, last = (int(part) for part in args.seeds.split("-"))
    if last >= 10000:
        print("error: seeds 10000 and up are the bench's held-out renders", file=sys.stderr)
        return 2
    if args.cache and args.cache.exists():
        stored = np.load(args.cache)
        features, labels = stored["features"], stored["labels"]
    else:
        features, labels = gather(range(first, last + 1))
        if args.cache:
            np.savez_compressed(args.cache, features=features, labels=labels)
    if features.shape[1] != len(FEATURES):
        print("error: the cached measurements are not those cells.py makes now", file=sys.stderr)
        return 2
    model = train(features, labels, epochs=args.epochs)
    about = {"fitted_on": f"lab.hexrender renders, seeds {first}-{last} (side 7)",
             "cells": int(len(labels))}
    args.out.write_text(json.dumps(model.to_json(**about)) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
