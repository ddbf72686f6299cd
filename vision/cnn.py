"""A small convolutional network over a tile crop's pixels, run with numpy alone.

The network reads the same crop the perceptron of :mod:`vision.classify` reads, as an ink map
(the crop's darkness against its own tile face, so light and contrast cancel) shrunk to
``INPUT_PX`` square, and gives one score per (letter, rotation) class, the perceptron's classes.
It is trained with torch (:mod:`vision.train_cnn`, an optional extra); reading needs only these
stored arrays and numpy: three strided convolutions and two dense layers, each convolution one
matrix product over the patches of the whole batch.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.classify import (
    WORK_PX,
    TileClassifier,
    _find_glyphs,
    _gray_levels,
    _ink_blobs,
    ink_of_gray,
)

INPUT_PX = 32
"""The ink map is shrunk to this square before the network sees it (a 48 px map cost 2.25 times
the products for no letters more in a first trial)."""
CONVS = ((5, 2, 16), (3, 2, 32), (3, 2, 64))
"""(kernel, stride, channels out) of each convolution; each pads kernel // 2 on every side."""
HIDDEN = 96
"""Units of the dense layer between the last convolution and the classes."""


INPUT_MODES = ("crop", "glyph", "both")
GLYPH_FILL = 0.5
"""In the letter-centred channel, the letter's longer side spans this share of the input."""


def network_inputs(gray: np.ndarray, mode: str = "crop") -> np.ndarray:
    """(N, C, INPUT_PX, INPUT_PX) float32 network inputs from (N, WORK_PX, WORK_PX) grey crops.

    ``crop``: the ink map of :func:`vision.classify.ink_of_gray`, shrunk by area averaging.
    ``glyph``: the ink map moved and scaled so the letter (as the perceptron finds it) sits in
    the middle at a fixed size, its value digit inside the window: what makes the perceptron's
    features carry across tile sets and crops cut off centre. ``both``: the two as channels.
    """
    n = len(gray)
    channels = 2 if mode == "both" else 1
    if n == 0:
        return np.zeros((0, channels, INPUT_PX, INPUT_PX), np.float32)
    ink = ink_of_gray(gray)[0]
    out = []
    if mode in ("crop", "both"):
        column = cv2.resize(ink.reshape(n * WORK_PX, WORK_PX), (INPUT_PX, n * INPUT_PX),
                            interpolation=cv2.INTER_AREA)
        out.append(column.reshape(n, INPUT_PX, INPUT_PX))
    if mode in ("glyph", "both"):
        glyphs = _find_glyphs(ink.shape, _ink_blobs(ink))
        quarter = WORK_PX / 4
        box = np.where(glyphs.found[:, None], glyphs.box,
                       (quarter, quarter, 3 * quarter, 3 * quarter)).astype(np.float64)
        x0, y0, x1, y1 = box.T
        scale = GLYPH_FILL * INPUT_PX / (np.maximum(x1 - x0, y1 - y0) + 2)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        zero = np.zeros(n)
        matrices = np.stack([np.column_stack([scale, zero, INPUT_PX / 2 - cx * scale]),
                             np.column_stack([zero, scale, INPUT_PX / 2 - cy * scale])],
                            axis=1)
        out.append(np.stack([cv2.warpAffine(m, matrix, (INPUT_PX, INPUT_PX),
                                            flags=cv2.INTER_LINEAR, borderValue=0)
                             for m, matrix in zip(ink, matrices, strict=True)]))
    return np.ascontiguousarray(np.stack(out, axis=1), dtype=np.float32)


def _conv_relu(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, stride: int) -> np.ndarray:
    """ReLU of a zero-padded strided convolution of (N, H, W, C) maps, channels last.

    ``weight`` is (out, in, k, k) as torch stores it. The patches of every map are multiplied
    in one product (cross-correlation, as torch's Conv2d).
    """
    out_channels, in_channels, k, _ = weight.shape
    pad = k // 2
    padded = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    n, height, width, _ = padded.shape
    out_h = (height - k) // stride + 1
    out_w = (width - k) // stride + 1
    # One strided slice per kernel offset, side by side: k * k block copies, where gathering
    # every patch element by element took three times as long.
    patches = np.concatenate([padded[:, dy:dy + stride * out_h:stride,
                                     dx:dx + stride * out_w:stride]
                              for dy in range(k) for dx in range(k)], axis=3)
    matrix = weight.transpose(2, 3, 1, 0).reshape(k * k * in_channels, out_channels)
    out = patches.reshape(n * out_h * out_w, -1) @ matrix
    out += bias
    np.maximum(out, 0.0, out=out)
    return out.reshape(n, out_h, out_w, out_channels)


@dataclass(frozen=True)
class Cnn:
    """The network's weights as plain arrays (torch's layouts), and its class labels."""

    convs: tuple[tuple[np.ndarray, np.ndarray], ...]  # (weight (out, in, k, k), bias) each
    strides: tuple[int, ...]
    w1: np.ndarray  # (hidden, flattened) as torch's Linear
    b1: np.ndarray
    w2: np.ndarray  # (classes, hidden)
    b2: np.ndarray
    labels: tuple[str, ...]
    mode: str = "crop"  # what :func:`network_inputs` gives it

    def logits(self, inputs: np.ndarray) -> np.ndarray:
        """(N, classes) scores of (N, C, INPUT_PX, INPUT_PX) inputs (:func:`network_inputs`)."""
        x = np.asarray(inputs, np.float32).transpose(0, 2, 3, 1)
        for (weight, bias), stride in zip(self.convs, self.strides, strict=True):
            x = _conv_relu(x, weight, bias, stride)
        # torch flattens channels first: (N, C, H, W).
        flat = x.transpose(0, 3, 1, 2).reshape(len(x), -1)
        hidden = np.maximum(flat @ self.w1.T + self.b1, 0.0)
        return hidden @ self.w2.T + self.b2

    def probabilities(self, inputs: np.ndarray, allowed: np.ndarray | None = None) -> np.ndarray:
        """Softmax over the classes; classes outside ``allowed`` (a bool mask) get 0."""
        logits = self.logits(inputs)
        if allowed is not None:
            logits = np.where(allowed[None, :], logits, -np.inf)
        logits = logits - logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=1, keepdims=True)

    def save(self, path: Path) -> None:
        """Stored as float16 (half the bytes; the scores move by a few thousandths)."""
        arrays: dict[str, np.ndarray] = {"strides": np.array(self.strides),
                                         "labels": np.array(self.labels),
                                         "mode": np.array(self.mode)}
        for i, (weight, bias) in enumerate(self.convs):
            arrays[f"conv{i}_w"], arrays[f"conv{i}_b"] = weight, bias
        arrays.update(w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2)
        np.savez_compressed(path, **{name: value.astype(np.float16) if value.dtype.kind == "f"
                                     else value for name, value in arrays.items()})

    @classmethod
    def load(cls, path: Path) -> Cnn:
        with np.load(path, allow_pickle=False) as data:
            def get(name: str) -> np.ndarray:
                return data[name].astype(np.float32)

            strides = tuple(int(s) for s in data["strides"])
            return cls(tuple((get(f"conv{i}_w"), get(f"conv{i}_b")) for i in range(len(strides))),
                       strides, get("w1"), get("b1"), get("w2"), get("b2"),
                       tuple(str(label) for label in data["labels"]), str(data["mode"]))


def network_probabilities(cnn: Cnn, classifier: TileClassifier, crops: list[np.ndarray],
                          letters: str | None = None, turns: int = 4) -> np.ndarray:
    """(N, classes) of the crops read by the network, in ``classifier``'s classes.

    With ``turns=4`` each crop is read in its four quarter turns, which vote as the perceptron's
    do (:meth:`TileClassifier.vote`); turning the input turns the ink map exactly (its levels
    come from the crop's centre square, and area shrinking by 1.5 is symmetric).
    """
    inputs = network_inputs(_gray_levels(crops), cnn.mode)
    allowed = classifier.allowed(letters)
    if turns == 1:
        return cnn.probabilities(inputs, allowed)
    turned = np.stack([np.rot90(inputs, -k, axes=(2, 3)) for k in range(4)], axis=1)
    return classifier.vote(cnn.probabilities(turned.reshape(-1, *inputs.shape[1:]), allowed))


def combine(*probs: np.ndarray) -> np.ndarray:
    """Rows of class probabilities pooled by averaging their logarithms."""
    logp = np.mean([np.log(p + 1e-6) for p in probs], axis=0)
    pooled = np.exp(logp - logp.max(axis=1, keepdims=True))
    return pooled / pooled.sum(axis=1, keepdims=True)


__all__ = ["CONVS", "Cnn", "HIDDEN", "INPUT_PX", "combine", "network_inputs",
           "network_probabilities"]
