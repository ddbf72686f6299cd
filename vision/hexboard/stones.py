"""Which cells hold a stone, and of which of the palette's eight colours, with how sure.

The decision is a small network (one hidden layer) over the numbers :mod:`vision.hexboard.cells`
measures, fitted offline on rendered boards (``python -m lab.hexrender.fit``; the renders'
seeds it saw are recorded in the model file, and the figures in ``bench`` are on others). It
gives every cell a probability for "empty" and for each colour; the reading takes the likeliest
and says so when the runner-up is close.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from vision.hexboard.cells import FEATURES

MODEL = Path(__file__).with_name("stones.json")
EMPTY = "."


@dataclass(frozen=True)
class StoneModel:
    """The fitted network: input scaling, layers, and the classes its outputs stand for."""

    classes: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """(cells, classes) probabilities for (cells, FEATURES) measurements."""
        values = (np.asarray(features, dtype=np.float64) - self.mean) / self.scale
        for index, (weights, bias) in enumerate(self.layers):
            values = values @ weights + bias
            if index < len(self.layers) - 1:
                values = np.maximum(values, 0.0)
        values = values - values.max(axis=1, keepdims=True)
        exp = np.exp(values)
        return exp / exp.sum(axis=1, keepdims=True)

    def to_json(self, **about: object) -> dict:
        return {
            "features": list(FEATURES), "classes": list(self.classes),
            "mean": self.mean.round(6).tolist(), "scale": self.scale.round(6).tolist(),
            "layers": [{"weights": w.round(6).tolist(), "bias": b.round(6).tolist()}
                       for w, b in self.layers],
            **about,
        }

    @classmethod
    def from_json(cls, data: dict) -> StoneModel:
        if tuple(data["features"]) != FEATURES:
            raise ValueError("the stone model was fitted on other measurements than "
                             "vision.hexboard.cells makes: fit it again")
        layers = tuple((np.array(layer["weights"], dtype=np.float64),
                        np.array(layer["bias"], dtype=np.float64)) for layer in data["layers"])
        return cls(tuple(data["classes"]), np.array(data["mean"], dtype=np.float64),
                   np.array(data["scale"], dtype=np.float64), layers)


@cache
def stone_model(path: Path = MODEL) -> StoneModel:
    """The committed model (loaded once)."""
    return StoneModel.from_json(json.loads(path.read_text(encoding="utf-8")))


__all__ = ["EMPTY", "MODEL", "StoneModel", "stone_model"]
