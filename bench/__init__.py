"""Benchmarks: ``python -m bench`` (``make bench``) runs them all and prints a table for each.

The goals are per photo on one core, so numpy's BLAS gets one thread here, before any benchmark
loads numpy (OpenCV's threads are set where timed). OpenBLAS's default of a thread per core cost
more than it gave on a shared two-core machine: its waiting threads took the core from the reader
and a (225 x 28) by (28 x 160) product waited 12 ms for them instead of taking 0.04 ms; the
reading of a photo with given corners took 210-215 ms instead of 95-100.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
