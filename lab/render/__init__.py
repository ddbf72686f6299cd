"""Realistic photos of a Scrabble board, drawn from a known position: truth for free.

Real photos with hand-made truth are few (38) and come from a handful of boards, so the tile
classifier, the tests and the samples a new user tries also need images whose every letter,
rotation and corner is known exactly. A render is a small 3-D scene seen through a pinhole camera:
a board with its premium squares and printed words lying on a table, tiles standing 0.2 cell proud
of it (so their faces shift against the squares in an oblique view, as on a real board), loose
tiles and a rack around it, then the failings of a phone photo: tilt, turn, uneven and coloured
light, glare, a sheen on glossy tiles, shadow, a hand in the way, blur, noise and JPEG.

World units are cells. x runs along a row from column A, y down the columns from row 1 (the South
view), z points down into the table, so a tile top lies at z = -tile_height.

The parts: :mod:`~lab.render.options` (what a render may look like), :mod:`~lab.render.camera`,
:mod:`~lab.render.surfaces` (board and table), :mod:`~lab.render.solids` (tiles and the rack),
:mod:`~lab.render.scene` (one render, start to end), :mod:`~lab.render.positions` (random
positions to render); ``python -m lab.render`` renders a folder of them.
"""

from __future__ import annotations

from lab.render.camera import Camera
from lab.render.options import (
    ALL_BOARD_STYLES,
    ALL_TABLES,
    ALL_TILE_COLOURS,
    BOARD_STYLES,
    PREMIUM_LAYOUT,
    BoardStyle,
    RenderedPhoto,
    RenderError,
    RenderOptions,
)
from lab.render.positions import random_position
from lab.render.scene import SHEEN_WHITE, render_board_photo, soft_focus

__all__ = [
    "ALL_BOARD_STYLES",
    "ALL_TABLES",
    "ALL_TILE_COLOURS",
    "BOARD_STYLES",
    "PREMIUM_LAYOUT",
    "SHEEN_WHITE",
    "BoardStyle",
    "Camera",
    "RenderError",
    "RenderOptions",
    "RenderedPhoto",
    "random_position",
    "render_board_photo",
    "soft_focus",
]
