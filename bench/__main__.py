"""Run every benchmark in turn; each prints its own table.

A benchmark is a module ``bench/bench_*.py`` with a ``main() -> int``. Figures are medians over
repeated runs, with ratios against a baseline measured in the same process, because these
machines are noisy: absolute milliseconds from two runs are not comparable, ratios are.

``python -m bench`` runs them all (``make bench``); ``python -m bench referee reading`` runs
``bench_referee`` and ``bench_reading`` only.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time

import bench


def main(argv: list[str] | None = None) -> int:
    names = sorted(
        info.name for info in pkgutil.iter_modules(bench.__path__) if info.name.startswith("bench_")
    )
    wanted = sys.argv[1:] if argv is None else argv
    unknown = [name for name in wanted if f"bench_{name}" not in names]
    if unknown:
        print(f"no benchmark named {unknown[0]!r} (there are: "
              f"{', '.join(name.removeprefix('bench_') for name in names)})", file=sys.stderr)
        return 2
    if wanted:
        names = [name for name in names if name.removeprefix("bench_") in wanted]
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
