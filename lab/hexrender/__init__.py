"""Rendered photos of hexhex boards with coloured stones, each with its exact truth.

The reader of such photos (:mod:`vision.hexboard`) is tuned and measured on these renders, since
no real photos with truth exist. ``render_scene(seed, size=7)`` gives ``(image, truth)``;
``python -m lab.hexrender OUT -n 20 --seed 10000`` writes renders with truth sidecars.
"""

from lab.hexrender.options import (
    CELL_STYLES,
    MATERIALS,
    STONE_STYLES,
    TABLES,
    HexRenderError,
    HexRenderOptions,
)
from lab.hexrender.positions import random_position
from lab.hexrender.scene import HexTruth, render_scene

__all__ = [
    "CELL_STYLES",
    "MATERIALS",
    "STONE_STYLES",
    "TABLES",
    "HexRenderError",
    "HexRenderOptions",
    "HexTruth",
    "random_position",
    "render_scene",
]
