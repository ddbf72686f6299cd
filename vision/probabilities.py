"""Class probabilities from scores, and readings of one tile pooled into one.

Shared by every model that reads a tile (the perceptron, the network) and by the reader's second
look, so a reading means the same thing whichever produced it.
"""

from __future__ import annotations

import numpy as np


def softmax(logits: np.ndarray, allowed: np.ndarray | None = None) -> np.ndarray:
    """Rows of (N, classes) scores as probabilities; classes outside ``allowed`` (a bool mask
    over the classes) get 0, so a tile set's letters alone share the probability."""
    if allowed is not None:
        logits = np.where(allowed[None, :], logits, -np.inf)
    logits = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(logits)
    return exp / exp.sum(axis=1, keepdims=True)


def pooled(readings: np.ndarray, axis: int) -> np.ndarray:
    """Several readings of the same tiles (stacked along ``axis``) as one, by averaging their
    log-probabilities: a class that any reading all but rules out stays unlikely, where an
    average of probabilities would let one confident reading outvote the rest."""
    logp = np.log(readings + 1e-6).mean(axis=axis)
    pooled = np.exp(logp - logp.max(axis=1, keepdims=True))
    return pooled / pooled.sum(axis=1, keepdims=True)


__all__ = ["pooled", "softmax"]
