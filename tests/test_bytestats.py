"""Counted order statistics and percentiles of bytes are numpy's, to the last bit."""

import numpy as np
import pytest

from vision.bytestats import percentiles, ranked


@pytest.mark.parametrize("length", [2304, 900, 784, 30, 2, 1])
@pytest.mark.parametrize("low, high", [(0, 256), (100, 110), (250, 256)])
def test_ranked_values_are_the_sorted_rows(length: int, low: int, high: int) -> None:
    rows = np.random.default_rng(length + low).integers(low, high, (500, length)).astype(np.uint8)
    ordered = np.sort(rows, axis=1)
    ranks = sorted({0, length - 1, length // 2, (length - 1) // 2})
    for rank, values in zip(ranks, ranked(rows, ranks), strict=True):
        assert values.dtype == np.uint8
        assert np.array_equal(values, ordered[:, rank])


@pytest.mark.slow
@pytest.mark.parametrize("length", [900, 784, 30, 2, 1])
def test_percentiles_are_numpys_bit_for_bit(length: int) -> None:
    # The face and dark levels of cells and crops: as bytes (cells) and as float32 (tile crops).
    rows = np.random.default_rng(length).integers(0, 256, (2000, length)).astype(np.uint8)
    for percents in ((80, 2), (0, 100), (99.5, 0.1, 50)):
        got = percentiles(rows, percents)
        for as_type in (np.uint8, np.float32):
            want = np.percentile(rows.astype(as_type), list(percents), axis=1)
            for expected, actual in zip(want, got, strict=True):
                assert actual.dtype == expected.dtype
                assert np.array_equal(actual, expected)
