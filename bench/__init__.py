"""Benchmarks: ``python -m bench`` (``make bench``) runs them all and prints a table for each.

The goals are per photo on one core, so numpy's BLAS gets one thread here, before any benchmark
loads numpy (OpenCV's threads are set where timed). OpenBLAS's default of a thread per core cost
more than it gave on a shared two-core machine: its waiting threads took the core from the reader
and a (225 x 28) by (28 x 160) product waited 12 ms for them instead of taking 0.04 ms; the
reading of a photo with given corners took 210-215 ms instead of 95-100.
"""

import os
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parents[1]

_PRINT_PEAK = """
print(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")))
"""


def peak_mb(code: str, *args: str) -> float:
    """The peak resident memory (MB) of a fresh Python process running ``code`` with ``args``.

    Read by the process itself (VmHWM) after ``code`` has run, not by getrusage: on Linux
    ru_maxrss survives exec, so a child started from a benchmark's big process reported the
    benchmark's peak (326 MB for every photo read) instead of its own. ``code`` must not print.
    """
    out = subprocess.run([sys.executable, "-c", code + _PRINT_PEAK, *args], capture_output=True,
                         text=True, cwd=ROOT, check=True).stdout
    return int(out.split()[-1]) / 1024
