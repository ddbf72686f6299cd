"""Every knob of one rendered photo of a hexhex board, and a draw of plausible ones.

The knobs name what a person would: the board's material and how its cells are marked, the kind
of stones, where the camera stands, and what the room's light does. :meth:`HexRenderOptions.random`
draws a phone photo of a game on a table; the bench breaks its figures down by the same names
(:meth:`HexRenderOptions.lighting`), so a weak condition shows.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

MATERIALS = ("oak", "walnut", "ring-wood", "painted", "cardboard", "dark-plastic")
"""Board materials: light straight-grained wood, dark wood, wood with curved growth rings, a
plain painted board, printed cardboard, moulded dark plastic."""

CELL_STYLES = ("engraved", "printed", "cups")
"""How the cells are marked: grooves cut along the hexagons, printed hexagon outlines, or
round hollows a stone sits in (no outlines)."""

STONE_STYLES = ("glass", "matte", "wood")
"""Glossy glass beads (domed, with a highlight and a bright caustic beside them), matte plastic
discs, painted wooden pieces (grain showing through the paint)."""

TABLES = ("wood", "cloth", "checked-cloth", "stone", "plain", "tiles")

GLOSSY = {"painted": 0.6, "dark-plastic": 1.0, "walnut": 0.5, "oak": 0.3, "ring-wood": 0.4,
          "cardboard": 0.2}
"""How readily each material shows a lamp's reflection as a glare spot (0 never, 1 fully)."""


class HexRenderError(ValueError):
    """Options or a position that cannot be rendered; the message says which and why."""


@dataclass(frozen=True)
class HexRenderOptions:
    """One photo's scene. Angles in degrees; lengths in cell widths.

    ``turn`` turns the board in the frame (any angle); ``tilt`` is the camera's angle from
    straight down; ``lamp`` is how much of the light comes from one lamp beside the board
    (0: even daylight), ``lamp_height`` how high it hangs (low lamps light unevenly);
    ``warmth`` the colour of the light the camera did not correct (-1 cold daylight, 1 a
    tungsten bulb); ``shadow`` the strength of something's shadow cast across the board;
    ``glare`` the strength of the lamp's reflection on a glossy board.
    """

    material: str = "oak"
    cell_style: str = "engraved"
    stone_style: str = "glass"
    table: str = "wood"
    margin: float = 0.8  # board beyond the cells' outer tips
    thickness: float = 0.3
    stone_size: float = 0.8  # a stone's diameter
    stone_jitter: float = 0.04  # how far a stone sits off its cell's centre
    tilt: float = 0.0
    turn: float = 0.0
    roll: float = 0.0
    field_of_view: float = 60.0
    fill: float = 0.8
    offset: tuple[float, float] = (0.0, 0.0)
    loose_stones: int = 0  # stones lying on the table beside the board
    lamp: float = 0.0
    lamp_height: float = 12.0
    warmth: float = 0.0
    brightness: float = 1.0
    shadow: float = 0.0
    glare: float = 0.0
    blur: float = 0.0
    noise: float = 1.5
    jpeg_quality: int | None = None

    def __post_init__(self) -> None:
        checks = [
            (self.material in MATERIALS, f"material must be one of {', '.join(MATERIALS)}"),
            (self.cell_style in CELL_STYLES,
             f"cell_style must be one of {', '.join(CELL_STYLES)}"),
            (self.stone_style in STONE_STYLES,
             f"stone_style must be one of {', '.join(STONE_STYLES)}"),
            (self.table in TABLES, f"table must be one of {', '.join(TABLES)}"),
            (0.2 <= self.margin <= 3, "margin must be 0.2 to 3 cells"),
            (0.1 <= self.thickness <= 1, "thickness must be 0.1 to 1 cell"),
            (0.5 <= self.stone_size <= 0.9, "stone_size must be 0.5 to 0.9 cell"),
            (0 <= self.stone_jitter <= 0.1, "stone_jitter must be 0 to 0.1 cell"),
            (0 <= self.tilt <= 60, "tilt must be 0 to 60 degrees"),
            (20 <= self.field_of_view <= 100, "field_of_view must be 20 to 100 degrees"),
            (0.2 <= self.fill <= 1.2, "fill must be 0.2 to 1.2"),
            (len(self.offset) == 2 and all(-1 <= v <= 1 for v in self.offset),
             "offset must be two numbers from -1 to 1"),
            (0 <= self.loose_stones <= 40, "loose_stones must be 0 to 40"),
            (0 <= self.lamp <= 1 and 3 <= self.lamp_height <= 60,
             "lamp must be 0 to 1 and lamp_height 3 to 60 cells"),
            (-1 <= self.warmth <= 1, "warmth must be -1 to 1"),
            (0.1 <= self.brightness <= 2, "brightness must be 0.1 to 2"),
            (0 <= self.shadow <= 1 and 0 <= self.glare <= 1, "shadow and glare must be 0 to 1"),
            (0 <= self.blur <= 20 and 0 <= self.noise <= 40, "blur must be 0-20, noise 0-40"),
            (self.jpeg_quality is None or 5 <= self.jpeg_quality <= 100,
             "jpeg_quality must be 5 to 100 or None"),
        ]
        for ok, message in checks:
            if not ok:
                raise HexRenderError(message)

    @classmethod
    def clean(cls, **changes: object) -> HexRenderOptions:
        """Straight down, even light, no noise: for checks of geometry."""
        return replace(cls(noise=0.0, stone_jitter=0.0), **changes)  # type: ignore[arg-type]

    @classmethod
    def random(cls, rng: np.random.Generator, **changes: object) -> HexRenderOptions:
        """A plausible phone photo of a game on a table; ``changes`` pin any field."""
        dim = rng.random() < 0.2
        options = cls(
            material=str(rng.choice(MATERIALS)),
            cell_style=str(rng.choice(CELL_STYLES)),
            stone_style=str(rng.choice(STONE_STYLES)),
            table=str(rng.choice(TABLES)),
            margin=float(rng.uniform(0.35, 1.6)),
            thickness=float(rng.uniform(0.15, 0.5)),
            stone_size=float(rng.uniform(0.68, 0.86)),
            stone_jitter=float(rng.uniform(0.0, 0.06)),
            tilt=float(rng.uniform(0, 45)),
            turn=float(rng.uniform(0, 360)),
            roll=float(rng.normal(0, 4)),
            field_of_view=float(rng.uniform(50, 72)),
            fill=float(rng.uniform(0.62, 0.95)),
            offset=(float(rng.uniform(-0.8, 0.8)), float(rng.uniform(-0.8, 0.8))),
            loose_stones=int(rng.integers(0, 14)) if rng.random() < 0.5 else 0,
            lamp=float(rng.uniform(0.3, 0.9)) if rng.random() < 0.6 else 0.0,
            lamp_height=float(rng.uniform(10, 30)),
            warmth=float(np.clip(rng.normal(0, 0.45), -1, 1)),
            brightness=float(rng.uniform(0.4, 0.65) if dim else rng.uniform(0.8, 1.15)),
            shadow=float(rng.uniform(0.3, 0.75)) if rng.random() < 0.25 else 0.0,
            glare=float(rng.uniform(0.4, 1.0)) if rng.random() < 0.3 else 0.0,
            blur=float(rng.uniform(1.0, 2.5) if rng.random() < 0.25 else rng.uniform(0, 0.7)),
            noise=float(rng.uniform(4, 9) if dim else rng.uniform(0.5, 3.5)),
            jpeg_quality=int(rng.integers(55, 96)),
        )
        return replace(options, **changes)  # type: ignore[arg-type]

    def lighting(self) -> tuple[str, ...]:
        """The light's conditions by name, for breaking figures down: ``even`` when none."""
        names = []
        if self.lamp >= 0.3:
            names.append("lamp gradient")
        if abs(self.warmth) >= 0.5:
            names.append("warm light" if self.warmth > 0 else "cold light")
        if self.brightness < 0.7:
            names.append("dim")
        if self.shadow:
            names.append("cast shadow")
        if self.glare and GLOSSY[self.material] > 0:
            names.append("glare")
        if self.blur >= 1.0:
            names.append("blur")
        return tuple(names) or ("even",)


__all__ = [
    "CELL_STYLES",
    "GLOSSY",
    "MATERIALS",
    "STONE_STYLES",
    "TABLES",
    "HexRenderError",
    "HexRenderOptions",
]
