"""The named axes a stress scene is drawn along, each with its values.

An axis is one way a real table, board, tile set, lamp or camera differs from the photos the
reader was tuned on (issue 33): a scene draws one value of every axis, independently, so every
value is seen beside every other, and the benchmark's row for one value is the reader's figure
under that condition with everything else varied. A value's weight is how often it is drawn:
the harsh failings of a photo (blur, glare, a hand) are drawn less often than the plain case, so
that a row for a table or a font is not lost under them; appearance axes (tables, editions,
fonts, tile colours) are drawn evenly.

``trained`` axes are those the models learn from renders of (tile fonts, tile colours, board
editions through the occupancy model's rendered boards): the conditions that
``python -m bench stress --held-out`` holds out of training one at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lab.tileface import find_font


@dataclass(frozen=True)
class Axis:
    """One named way scenes differ: its values, how often each is drawn, what it means."""

    name: str
    values: tuple[str, ...]
    weights: tuple[float, ...]
    trained: bool = False
    """The models learn from renders along this axis (what ``--held-out`` holds out)."""

    def draw(self, rng: np.random.Generator) -> str:
        weights = np.asarray(self.weights, np.float64)
        return self.values[int(rng.choice(len(self.values), p=weights / weights.sum()))]


def _even(name: str, values: tuple[str, ...], trained: bool = False) -> Axis:
    return Axis(name, values, (1.0,) * len(values), trained)


FONT_FILES: dict[str, tuple[str, ...]] = {
    "sans": ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "FreeSansBold.ttf",
             "NotoSans-Bold.ttf", "Carlito-Bold.ttf", "NimbusSans-Bold.otf"),
    "condensed": ("DejaVuSansCondensed-Bold.ttf", "LiberationSansNarrow-Bold.ttf",
                  "NimbusSansNarrow-Bold.otf"),
    "serif": ("DejaVuSerif-Bold.ttf", "LiberationSerif-Bold.ttf", "NotoSerif-Bold.ttf",
              "Caladea-Bold.ttf", "NimbusRoman-Bold.otf", "FreeSerifBold.ttf"),
    "slab": ("RobotoSlab-Bold.otf", "C059-Bold.otf", "NimbusMonoPS-Bold.otf",
             "URWBookman-Demi.otf"),
    "rounded": ("Comfortaa-Bold.ttf", "Quicksand-Bold.ttf"),
    "geometric": ("URWGothic-Demi.otf", "URWGothic-Book.otf"),
}
"""The tile faces of each lettering style, from Debian's font packages (fonts-dejavu-core,
fonts-liberation2, fonts-freefont-ttf, fonts-noto-core, fonts-crosextra-carlito and -caladea,
fonts-urw-base35, fonts-roboto-slab, fonts-comfortaa, fonts-quicksand: ``make system-deps``).
The first four sans faces are the ones the committed models were trained on."""

TABLE_SETTINGS: dict[str, dict[str, object]] = {
    "wood fine": {"table": "wood", "wood_grain": 2.5, "wood_contrast": 1.0},
    "wood coarse": {"table": "wood", "wood_grain": 0.5, "wood_contrast": 1.3},
    "wood bold": {"table": "wood", "wood_grain": 1.0, "wood_contrast": 2.5},
    "cloth": {"table": "cloth"},
    "checked cloth": {"table": "pattern"},
    "felt": {"table": "felt"},
    "glass": {"table": "glass"},
    "newspaper": {"table": "newspaper"},
    "clutter": {"table": "clutter"},
}
"""What each table value sets in :class:`lab.render.RenderOptions`."""

SIZES: dict[str, tuple[int, int]] = {
    "640 px": (640, 480), "1024 px": (1024, 768), "1600 px": (1600, 1200),
    "3000 px": (3000, 2250), "12 MP": (4000, 3000), "48 MP": (8000, 6000),
}
"""Photo sizes (width, height): a chat app's copy to a 48 megapixel phone's full size."""

WORDS: dict[str, tuple[int, int]] = {
    "empty": (0, 0), "opening": (1, 3), "midgame": (4, 10), "late": (11, 18),
}
"""How many words lie on the board (from, to): an empty board shows its centre mark bare."""

AXES: tuple[Axis, ...] = (
    _even("table", tuple(TABLE_SETTINGS)),
    _even("edition", ("classic", "modern", "green", "deluxe", "travel", "vintage"), trained=True),
    _even("labels", ("words", "codes", "numbers", "symbols", "none")),
    _even("centre", ("star", "ring", "diamond", "plain", "logo")),
    _even("font", tuple(FONT_FILES), trained=True),
    _even("tile colour", ("ivory", "beige", "wood", "white plastic", "black plastic"),
          trained=True),
    _even("value", ("corner", "inset", "large")),
    Axis("light", ("even", "lamp", "warm", "cool", "arm shadow", "head shadow", "glare",
                   "washed far row"), (3, 1, 1, 1, 1, 1, 1, 1)),
    _even("tilt", ("0-15", "15-30", "30-45", "45-60")),
    Axis("turn", ("upright", "quarter turn", "any angle"), (2, 1, 1)),
    Axis("lens", ("straight", "barrel", "pincushion"), (2, 1, 1)),
    Axis("focus", ("sharp", "defocus 0.5-1.5", "defocus 1.5-3", "depth of field"), (2, 1, 1, 1)),
    Axis("motion", ("still", "motion 0.5-2", "motion 2-4", "motion 4-6"), (2, 1, 1, 1)),
    _even("jpeg", ("60-75", "75-85", "85-95")),
    Axis("size", tuple(SIZES), (0.17, 0.22, 0.41, 0.1, 0.08, 0.02)),
    Axis("occlusion", ("none", "hand", "rack", "loose tiles", "cup"), (3, 1, 1, 1, 1)),
    Axis("position", tuple(WORDS), (1, 2, 3, 2)),
)
"""Every axis, in the order a scene draws them."""

AXIS_NAMES = tuple(axis.name for axis in AXES)


def installed_fonts(style: str) -> list[str]:
    """The font files of a lettering style (:data:`FONT_FILES`) installed on this machine."""
    return [name for name in FONT_FILES[style] if find_font(name) is not None]


def axis_named(name: str) -> Axis:
    """The axis called ``name``; ``KeyError`` with the names there are."""
    for axis in AXES:
        if axis.name == name:
            return axis
    raise KeyError(f"no axis named {name!r} (there are: {', '.join(AXIS_NAMES)})")


def draw_conditions(rng: np.random.Generator, **pinned: str) -> dict[str, str]:
    """One value of every axis; ``pinned`` (axis name with ``_`` for spaces) fixes some.

    Every axis is drawn even when pinned, so pinning one axis leaves the others' draws as they
    were: a scene and its twin with one condition changed differ only there.
    """
    wanted = {name.replace("_", " "): value for name, value in pinned.items()}
    conditions = {}
    for axis in AXES:
        value = axis.draw(rng)
        if axis.name in wanted:
            value = wanted.pop(axis.name)
            if value not in axis.values:
                raise ValueError(f"{axis.name} must be one of {', '.join(axis.values)}, "
                                 f"not {value!r}")
        conditions[axis.name] = value
    if wanted:
        raise ValueError(f"no axis named {next(iter(wanted))!r} "
                         f"(there are: {', '.join(AXIS_NAMES)})")
    return conditions


__all__ = ["AXES", "AXIS_NAMES", "FONT_FILES", "SIZES", "TABLE_SETTINGS", "WORDS", "Axis",
           "axis_named", "draw_conditions", "installed_fonts"]
