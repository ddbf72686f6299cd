"""The eight stone colours of the shared palette as real sets make them: each a range, not a
point.

One game's stones of a colour come from one batch and look alike; another set's "red" may be a
crimson where this one is a scarlet, its "blue" a navy or a sky blue, its "white" an ivory. So
:func:`set_colours` draws one shade per colour for a scene and :func:`stone_colour` a slight
variation of it per stone. Ranges are hue (degrees), saturation and value (0-1) in HSV.
"""

from __future__ import annotations

import colorsys

import numpy as np

SHADES: dict[str, tuple[tuple[float, float], tuple[float, float], tuple[float, float]]] = {
    "R": ((-10.0, 8.0), (0.72, 0.95), (0.58, 0.86)),
    "O": ((17.0, 30.0), (0.80, 0.96), (0.86, 1.0)),
    "Y": ((44.0, 56.0), (0.70, 0.95), (0.85, 1.0)),
    "G": ((100.0, 150.0), (0.55, 0.90), (0.42, 0.72)),
    "B": ((203.0, 232.0), (0.65, 0.92), (0.45, 0.80)),
    "P": ((268.0, 298.0), (0.45, 0.78), (0.38, 0.64)),
    "W": ((20.0, 220.0), (0.0, 0.09), (0.86, 0.97)),
    "K": ((0.0, 360.0), (0.0, 0.18), (0.07, 0.20)),
}
"""Per colour letter: hue, saturation and value ranges a set's shade is drawn from."""


def hsv_to_bgr(hue: float, saturation: float, value: float) -> np.ndarray:
    red, green, blue = colorsys.hsv_to_rgb((hue % 360) / 360, saturation, value)
    return np.array([blue, green, red]) * 255


def set_colours(rng: np.random.Generator) -> dict[str, tuple[float, float, float]]:
    """One set's shade of each colour, as (hue, saturation, value)."""
    shades = {}
    for letter, (hues, saturations, values) in SHADES.items():
        shades[letter] = (float(rng.uniform(*hues)), float(rng.uniform(*saturations)),
                          float(rng.uniform(*values)))
    return shades


def stone_colour(shade: tuple[float, float, float], rng: np.random.Generator) -> np.ndarray:
    """One stone of a set: its set's shade, a little off (BGR, 0-255 floats)."""
    hue, saturation, value = shade
    return hsv_to_bgr(hue + rng.normal(0, 1.5), float(np.clip(saturation + rng.normal(0, 0.025),
                                                               0, 1)),
                      float(np.clip(value + rng.normal(0, 0.025), 0, 1)))


__all__ = ["SHADES", "hsv_to_bgr", "set_colours", "stone_colour"]
