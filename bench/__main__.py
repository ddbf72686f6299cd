"""Run every benchmark in turn; each prints its own table, under its name and the line of
:func:`bench.environment` (the versions and processor its figures hold for).

A benchmark is a module ``bench/bench_*.py`` with a ``main() -> int``. Figures are medians over
repeated runs, with ratios against a baseline measured in the same process, because these
machines are noisy: absolute milliseconds from two runs are not comparable, ratios are.

``python -m bench`` runs them all (``make bench``); ``python -m bench referee reading`` runs
``bench_referee`` and ``bench_reading`` only; options after one name are that benchmark's own
(``python -m bench club --tables 20``). Several are run each in a process of its own, so
that what one reports of its process (the reading's peak memory) is not another's: run in one
process after the board finder's benchmark, the reader's peak read 702 MB instead of 289.
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import time

import bench


def main(argv: list[str] | None = None) -> int:
    names = sorted(
        info.name for info in pkgutil.iter_modules(bench.__path__) if info.name.startswith("bench_")
    )
    wanted = sys.argv[1:] if argv is None else argv
    # Options after the names are the benchmark's own (``python -m bench club --tables 20``).
    wanted = wanted[:next((i for i, arg in enumerate(wanted) if arg.startswith("-")),
                          len(wanted))]
    unknown = [name for name in wanted if f"bench_{name}" not in names]
    if unknown:
        print(f"no benchmark named {unknown[0]!r} (there are: "
              f"{', '.join(name.removeprefix('bench_') for name in names)})", file=sys.stderr)
        return 2
    if wanted:
        names = [name for name in names if name.removeprefix("bench_") in wanted]
    if len(names) > 1:  # each in its own process, which prints its own table
        codes = [subprocess.run([sys.executable, "-m", "bench", name.removeprefix("bench_")],
                                check=False).returncode for name in names]
        return 1 if any(codes) else 0
    name = names[0]
    print(f"\n=== {name} ===\n{bench.environment()}", flush=True)
    started = time.perf_counter()
    code = importlib.import_module(f"bench.{name}").main()
    print(f"({name} took {time.perf_counter() - started:.1f} s)", flush=True)
    return 1 if code else 0


if __name__ == "__main__":
    sys.exit(main())
