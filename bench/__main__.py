"""Run every benchmark in turn; each prints its own table.

A benchmark is a module ``bench/bench_*.py`` with a ``main() -> int``. Figures are medians over
repeated runs, with ratios against a baseline measured in the same process, because these
machines are noisy: absolute milliseconds from two runs are not comparable, ratios are.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time

import bench


def main() -> int:
    names = sorted(
        info.name for info in pkgutil.iter_modules(bench.__path__) if info.name.startswith("bench_")
    )
    failures = 0
    for name in names:
        print(f"\n=== {name} ===", flush=True)
        started = time.perf_counter()
        module = importlib.import_module(f"bench.{name}")
        code = module.main()
        failures += bool(code)
        print(f"({name} took {time.perf_counter() - started:.1f} s)", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
