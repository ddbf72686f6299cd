"""Every benchmark names what its figures hold for: the OpenCV and numpy it ran with, the Python
and the processor (``bench.environment``), printed under its name by ``python -m bench``."""

from __future__ import annotations

import platform
import subprocess
import sys

import cv2
import numpy as np

import bench


def test_the_line_names_the_versions_and_the_processor() -> None:
    line = bench.environment()
    assert f"OpenCV {cv2.__version__}," in line
    assert f"numpy {np.__version__}," in line
    assert f"Python {platform.python_version()}," in line
    assert line.endswith(" cores") and "unknown processor" not in line


def test_a_benchmark_prints_it_under_its_name() -> None:
    done = subprocess.run([sys.executable, "-m", "bench", "nosuchbench"], capture_output=True,
                          text=True, cwd=bench.ROOT, check=False)
    assert done.returncode == 2 and "no benchmark named 'nosuchbench'" in done.stderr
    done = subprocess.run([sys.executable, "-m", "bench", "referee"], capture_output=True,
                          text=True, cwd=bench.ROOT, check=True)
    lines = done.stdout.splitlines()
    at = lines.index("=== bench_referee ===")
    assert lines[at + 1] == bench.environment()
