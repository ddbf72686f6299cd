"""A two-layer perceptron stored as plain arrays, and the folder the committed models lie in.

Both models of the reader are such perceptrons (the occupancy model of :mod:`vision.cells` and
the tile classifier of :mod:`vision.letters`), saved as ``.npz`` arrays under :data:`MODELS`, so
reading needs numpy only: no training library is ever imported to read a board.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.probabilities import softmax

MODELS = Path(__file__).resolve().parent / "models"
"""The committed models: ``occupancy.npz``, ``tiles.npz`` (and a ``tiles_cnn.npz`` if one is
trained, :mod:`vision.letters.cnn`)."""


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
        return softmax(self.logits(features), allowed)

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


__all__ = ["MODELS", "Mlp"]
