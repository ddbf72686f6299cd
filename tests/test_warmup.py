"""``vision.warm_colour_tables``: OpenCV's Lab tables built on a thread of their own, for
``tileref read`` to overlap with its imports (``vision.warmup`` says why)."""

from __future__ import annotations

import subprocess
import sys

import pytest

WARMED = """
import cv2, numpy as np
from vision import warm_colour_tables
thread = warm_colour_tables()
assert not thread.daemon and thread.name == "lab-tables"
thread.join(60)
assert not thread.is_alive()
colours = np.array([[[255, 255, 255], [0, 0, 255], [40, 160, 90]]], np.uint8)
print(cv2.cvtColor(colours, cv2.COLOR_BGR2LAB).tolist())
"""

COLD = """
import cv2, numpy as np
colours = np.array([[[255, 255, 255], [0, 0, 255], [40, 160, 90]]], np.uint8)
print(cv2.cvtColor(colours, cv2.COLOR_BGR2LAB).tolist())
"""


def test_tables_built_on_a_thread_convert_as_tables_built_in_place():
    """In fresh processes (the tables are built once a process): the thread ends, and the
    colours it leaves OpenCV converting are the colours a process that never warmed up gets."""
    warmed = subprocess.run([sys.executable, "-c", WARMED], capture_output=True, text=True,
                            check=True, timeout=120).stdout
    cold = subprocess.run([sys.executable, "-c", COLD], capture_output=True, text=True,
                          check=True, timeout=120).stdout
    assert warmed == cold
    assert warmed.startswith("[[[255, 128, 128], ")   # white: L full, a and b neutral


EXIT_AT_ONCE = """
import sys
from vision import warm_colour_tables
warm_colour_tables()
sys.exit(2)
"""


@pytest.mark.parametrize("attempt", range(3))
def test_a_process_that_ends_while_the_tables_are_built_exits_as_it_meant_to(attempt: int):
    """``tileref read`` refusing a photo before it reads one: exit 2, not an abort (a daemon
    thread still inside OpenCV at exit aborted 5 processes of 6)."""
    result = subprocess.run([sys.executable, "-c", EXIT_AT_ONCE], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 2, result.stderr
