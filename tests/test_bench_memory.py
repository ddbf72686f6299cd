"""The benchmarks' memory figure is the reading process's own peak, not the benchmark's."""

from __future__ import annotations

import resource

import numpy as np
import pytest

from bench import peak_mb

pytestmark = pytest.mark.slow


def test_peak_is_the_childs_own_not_its_parents() -> None:
    # Grow this process well past what a bare interpreter needs: a child's getrusage peak would
    # then carry this process's, which is what the benchmark printed for every photo read.
    ballast = np.ones(200 * 2**20, np.uint8)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 >= 200
    assert peak_mb("pass") < 100
    assert ballast.sum() == ballast.size


def test_peak_counts_what_the_child_holds() -> None:
    assert peak_mb("held = bytearray(150 * 2**20)\nheld[::4096] = b'x' * len(held[::4096])") >= 150
