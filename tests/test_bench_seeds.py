"""Benchmarks score renders the models never learnt from."""

from __future__ import annotations

from bench import (
    bench_blanks,
    bench_cover,
    bench_early,
    bench_ocr,
    bench_offsquare,
    bench_reading,
    bench_rotations,
    bench_tilesets,
)
from lab.train import training_render_seeds


def _from(first: int, count: int) -> set[int]:
    return set(range(first, first + count))


def _benchmark_seeds() -> dict[str, set[int]]:
    offsquare: set[int] = set()
    for first in bench_offsquare.FIRST_SEEDS.values():
        offsquare |= _from(first, bench_offsquare.BOARDS)
    return {
        "blanks": _from(bench_blanks.FIRST_SEED, bench_blanks.RENDERS),
        "cover": _from(bench_cover.FIRST_SEED, bench_cover.RENDERS),
        "early": _from(bench_early.FIRST_SEED, bench_early.RENDERS),
        "ocr": _from(bench_ocr.FIRST_SEED, bench_ocr.RENDERS),
        "offsquare": offsquare,
        "reading": set(bench_reading.RENDER_SEEDS),
        "rotations": _from(bench_rotations.FIRST_SEED, bench_rotations.RENDERS),
        "tilesets": _from(bench_tilesets.FIRST_SEED, bench_tilesets.RENDERS),
    }


def test_no_benchmark_renders_a_training_board() -> None:
    trained = training_render_seeds()
    # The committed tile models' boards and the occupancy model's renders are both in the set.
    assert 1000 in trained and 5000 in trained
    for name, seeds in _benchmark_seeds().items():
        shared = sorted(seeds & trained)
        assert not shared, f"bench {name} renders training boards {shared}"
