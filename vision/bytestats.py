"""Order statistics and percentiles of rows of bytes, counted instead of sorted.

Reading a board takes medians and percentiles of many small rows of grey levels (every cell's
face and dark levels, every tile crop's, every cell's brightness). The values are bytes, so a
row's k-th smallest value is found from its histogram: one ``bincount`` over all rows and a
cumulative sum, where sorting each row (numpy's radix sort) or selecting in it (``np.percentile``)
took two to five times as long. The results are numpy's own to the last bit.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def ranked(rows: np.ndarray, ranks: Sequence[int]) -> list[np.ndarray]:
    """For each rank k, the k-th smallest value (0 = the least) of every row of ``rows``.

    ``rows`` is (N, ...) ``uint8``; each row is everything after the first axis. Returns one
    (N,) ``uint8`` array per rank, what ``np.sort(rows, axis=1)[:, k]`` holds.
    """
    n = len(rows)
    flat = rows.reshape(n, -1)
    keys = flat + (np.arange(n, dtype=np.int32) * 256)[:, None]
    counts = np.bincount(keys.ravel(), minlength=n * 256).reshape(n, 256)
    # The k-th smallest is the least value v with more than k values <= v, which is the number of
    # values v whose count of values <= v is k or less.
    at_most = np.cumsum(counts, axis=1)
    return [np.count_nonzero(at_most <= rank, axis=1).astype(np.uint8) for rank in ranks]


def percentiles(rows: np.ndarray, percents: Sequence[float]) -> list[np.ndarray]:
    """``np.percentile(rows, percents, axis=1)`` (linear method) of (N, L) bytes, bit for bit.

    numpy's own arithmetic on the two order statistics each percent needs. Equally numpy's
    answer for the same values held as ``float32`` (a difference of bytes is exact either way).
    """
    length = rows.shape[1]
    wanted = []
    for percent in percents:
        quantile = float(np.true_divide(percent, 100))
        # numpy's virtual index for the linear method, its floor and gamma.
        virtual = (length - 1) * quantile
        below = min(max(int(np.floor(virtual)), 0), length - 1)
        above = min(below + 1, length - 1) if virtual >= 0 else 0
        gamma = virtual - np.floor(virtual) if 0 <= virtual < length - 1 else 0.0
        wanted.append((below, above, gamma))
    ranks = sorted({rank for below, above, _ in wanted for rank in (below, above)})
    by_rank = dict(zip(ranks, ranked(rows, ranks), strict=True))
    results = []
    for below, above, gamma in wanted:
        low, high = by_rank[below], by_rank[above]
        step = high - low  # low <= high: never negative
        if gamma >= 0.5:
            results.append(high - step * (1 - gamma))
        else:
            results.append(low + step * gamma)
    return results


__all__ = ["percentiles", "ranked"]
