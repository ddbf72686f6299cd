"""What a one-photo process starts early: OpenCV's Lab colour tables, built on another thread.

The first Lab conversion in a process costs about 120 ms on this project's machines, whatever
the image's size: OpenCV computes its tables in software floating point, once. A long-running
server pays that once; ``tileref read`` paid it on every photo, a fifth of its whole run. Built
on a thread while the command imports the reader and decodes the photo (OpenCV lets go of the
GIL meanwhile), they cost a one-photo process next to nothing on a second core.
"""

from __future__ import annotations

import threading

import cv2
import numpy as np


def warm_colour_tables() -> threading.Thread:
    """Start building OpenCV's Lab tables on a thread of their own, and return that thread.

    ``join()`` it before the process's first Lab conversion: OpenCV fills the tables without a
    lock, so a conversion on another thread meanwhile would build them a second time beside it.
    Not a daemon: a process that ends early (a photo refused before any reading) waits for the
    tables at exit, where a daemon thread still inside OpenCV aborted it ("FATAL: exception not
    rethrown", exit 134 instead of the refusal's 2).
    """
    thread = threading.Thread(target=_convert_one_pixel, name="lab-tables")
    thread.start()
    return thread


def _convert_one_pixel() -> None:
    cv2.cvtColor(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2LAB)
