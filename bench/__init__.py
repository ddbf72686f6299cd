"""Benchmarks: ``python -m bench`` (``make bench``) runs them all and prints a table for each.

The goals are per photo on one core, so numpy's BLAS gets one thread here, before any benchmark
loads numpy (OpenCV's threads are set where timed). OpenBLAS's default of a thread per core cost
more than it gave on a shared two-core machine: its waiting threads took the core from the reader
and a (225 x 28) by (28 x 160) product waited 12 ms for them instead of taking 0.04 ms; the
reading of a photo with given corners took 210-215 ms instead of 95-100.
"""

import os
import platform
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


def environment() -> str:
    """What a benchmark's figures hold for: the OpenCV and numpy versions, the Python, the
    processor and its cores, in one line each benchmark prints under its name.

    Why: the same code gives other figures elsewhere. OpenCV 5.1 wrote other pixels for the same
    warp and moved the stress set's figures and two refusals (docs/tuning.md), and BLAS picks its
    kernels by processor, so models trained on another one read a letter more or less
    (lab/train.py). A table without this line cannot be compared with one from another day.
    """
    import cv2
    import numpy

    return (f"OpenCV {cv2.__version__}, numpy {numpy.__version__}, Python "
            f"{platform.python_version()}, {_processor()}, {os.cpu_count()} cores")


def _processor() -> str:
    """The processor's model name (Linux's /proc/cpuinfo), else what :mod:`platform` says."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "an unknown processor"
