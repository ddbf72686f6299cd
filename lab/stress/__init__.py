"""Stress scenes: domain-randomised renders along named axes, with their whole truth.

The reader was tuned on 38 photos of a handful of boards; a new user's table, board, tile set,
lamp and phone are none of those (issue 33). A stress scene draws one value of every named axis
(:data:`AXES`: table surface, board edition, premium labels, centre mark, tile font, tile colour,
value placement, light, tilt, turn, lens, focus, motion, JPEG quality, photo size, occlusion),
renders it with :mod:`lab.render` and saves it as a phone would, with its truth: the grid's
corners, every cell's tile (letter, rotation, blank), the cells something hides, and the axis
values that made it. The same seed always gives the same scene.

``python -m bench stress`` reads a set of them as ``tileref read`` does and prints one row per
axis value (:mod:`lab.stress.score` scores a reading against its scene)::

    from lab.stress import make_scene, score_reading

    scene = make_scene(100_007, font="serif")
    result = score_reading(scene, read_board(scene.jpeg))
"""

from __future__ import annotations

from lab.stress.axes import (
    AXES,
    AXIS_NAMES,
    FONT_FILES,
    Axis,
    axis_named,
    draw_conditions,
    installed_fonts,
)
from lab.stress.scene import FIRST_SEED, StressScene, cached_scene, make_scene, stress_seeds
from lab.stress.score import SceneResult, refusal_kind, score_reading, score_refusal

__all__ = [
    "AXES",
    "AXIS_NAMES",
    "FIRST_SEED",
    "FONT_FILES",
    "Axis",
    "SceneResult",
    "StressScene",
    "axis_named",
    "cached_scene",
    "draw_conditions",
    "installed_fonts",
    "make_scene",
    "refusal_kind",
    "score_reading",
    "score_refusal",
    "stress_seeds",
]
