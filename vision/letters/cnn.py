"""A small convolutional network over a tile crop's pixels, run with numpy alone.

The network reads the same crop the perceptron of :mod:`vision.letters.classify` reads, as an ink
map (the crop's darkness against its own tile face, so light and contrast cancel) shrunk to
``INPUT_PX`` square, and gives one score per (letter, rotation) class, the perceptron's classes.
It is trained with torch (:mod:`lab.train_cnn`, an optional extra); reading needs only these
stored arrays and numpy: three strided convolutions and two dense layers, each convolution one
matrix product over the patches of the whole batch (~6 ms for 100 crops on one core; cv2.dnn
reading the same network from ONNX took longer, 34 ms for 400 crops against ~25).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.probabilities import softmax

INPUT_PX = 32
"""The ink map is shrunk to this square before the network sees it (from 48 px: a letter ~17 px
tall, its digit ~5 px), so ~100 tiles read in a few milliseconds on one core."""
CONVS = ((5, 2, 16), (3, 2, 32), (3, 2, 64))
"""(kernel, stride, channels out) of each convolution; each pads kernel // 2 on every side."""
HIDDEN = 96
"""Units of the dense layer between the last convolution and the classes."""


INPUT_MODES = ("crop", "glyph", "both")
GLYPH_FILL = 0.5
"""In the letter-centred channel, the letter's longer side spans this share of the input."""


def network_inputs(inks: np.ndarray, boxes: np.ndarray | None, mode: str) -> np.ndarray:
    """(N, C, INPUT_PX, INPUT_PX) float32 network inputs from (N, S, S) ink maps.

    ``inks`` are :func:`vision.letters.classify.ink_maps` (0 face .. 1 ink: the light cancels) and
    ``boxes`` (N, 4) the letters' x0, y0, x1, y1 in them
    (:func:`vision.letters.classify.letter_boxes`; only the ``glyph`` channel uses them). ``crop``:
    the ink map shrunk by area averaging.
    ``glyph``: the ink map moved and scaled so the letter sits in the middle at a fixed size, its
    value digit still inside: what makes the perceptron's features carry across tile sets and
    crops cut off centre. ``both``: the two as channels.
    """
    n, side = len(inks), inks.shape[-1] if inks.ndim == 3 else 0
    if mode not in INPUT_MODES:
        raise ValueError(f"unknown network input {mode!r}")
    out = []
    if mode in ("crop", "both"):
        # Stacked in one column, the maps shrink in one call (each as it would alone).
        column = cv2.resize(np.ascontiguousarray(inks, np.float32).reshape(n * side, side),
                            (INPUT_PX, n * INPUT_PX), interpolation=cv2.INTER_AREA) if n else None
        out.append(np.zeros((0, INPUT_PX, INPUT_PX), np.float32) if column is None
                   else column.reshape(n, INPUT_PX, INPUT_PX))
    if mode in ("glyph", "both"):
        if boxes is None:
            raise ValueError("the glyph input needs the letters' boxes")
        x0, y0, x1, y1 = np.asarray(boxes, np.float64).reshape(n, 4).T
        scale = GLYPH_FILL * INPUT_PX / (np.maximum(x1 - x0, y1 - y0) + 2)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        zero = np.zeros(n)
        matrices = np.stack([np.column_stack([scale, zero, INPUT_PX / 2 - cx * scale]),
                             np.column_stack([zero, scale, INPUT_PX / 2 - cy * scale])],
                            axis=1)
        out.append(np.array([cv2.warpAffine(ink, matrix, (INPUT_PX, INPUT_PX),
                                            flags=cv2.INTER_LINEAR, borderValue=0)
                             for ink, matrix in zip(inks, matrices, strict=True)],
                            np.float32).reshape(n, INPUT_PX, INPUT_PX))
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
        return softmax(self.logits(inputs), allowed)

    def save(self, path: Path) -> None:
        """Stored as float16, half the bytes (:func:`lab.train_cnn.to_cnn` rounds the trained
        weights so, before anything is measured with them)."""
        arrays: dict[str, np.ndarray] = {"strides": np.array(self.strides),
                                         "labels": np.array(self.labels),
                                         "mode": np.array(self.mode)}
        for i, (weight, bias) in enumerate(self.convs):
            arrays[f"conv{i}_w"], arrays[f"conv{i}_b"] = weight, bias
        arrays.update(w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2)
        stored: dict[str, Any] = {name: value.astype(np.float16) if value.dtype.kind == "f"
                                  else value for name, value in arrays.items()}
        np.savez_compressed(path, **stored)

    @classmethod
    def load(cls, path: Path) -> Cnn:
        with np.load(path, allow_pickle=False) as data:
            def get(name: str) -> np.ndarray:
                return data[name].astype(np.float32)

            strides = tuple(int(s) for s in data["strides"])
            return cls(tuple((get(f"conv{i}_w"), get(f"conv{i}_b")) for i in range(len(strides))),
                       strides, get("w1"), get("b1"), get("w2"), get("b2"),
                       tuple(str(label) for label in data["labels"]), str(data["mode"]))


__all__ = ["CONVS", "Cnn", "HIDDEN", "INPUT_MODES", "INPUT_PX", "network_inputs"]
