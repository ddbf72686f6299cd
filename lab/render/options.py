"""What a render may look like: board styles, tile colours, tables, and the options of one photo.

Every choice of :func:`lab.render.render_board_photo` is a field of :class:`RenderOptions`
(``clean()`` for a straight-on, evenly lit photo; ``random()`` for the failings of a phone's);
:class:`RenderedPhoto` is a render with its truth.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from referee.boardtext import Tile
from referee.cells import SIZE, Cell
from referee.tiles import load_tile_set

PREMIUM_LAYOUT = (
    "T..d...T...d..T",
    ".D...t...t...D.",
    "..D...d.d...D..",
    "d..D...d...D..d",
    "....D.....D....",
    ".t...t...t...t.",
    "..d...d.d...d..",
    "T..d...*...d..T",
    "..d...d.d...d..",
    ".t...t...t...t.",
    "....D.....D....",
    "d..D...d...D..d",
    "..D...d.d...D..",
    ".D...t...t...D.",
    "T..d...T...d..T",
)
"""The standard Scrabble premium squares, row 1 first: T triple word, D double word, t triple
letter, d double letter, * the centre star (a double word). The layout is the same after any
quarter turn, which lets the printed words face any side of the board."""

PREMIUM_WORDS: dict[str, tuple[str, ...]] = {
    "T": ("TRIPLE", "WORD", "SCORE"),
    "D": ("DOUBLE", "WORD", "SCORE"),
    "t": ("TRIPLE", "LETTER", "SCORE"),
    "d": ("DOUBLE", "LETTER", "SCORE"),
}


PREMIUM_CODES: dict[str, tuple[str, ...]] = {
    "T": ("TW",), "D": ("DW",), "t": ("TL",), "d": ("DL",)}
"""Premium squares labelled with short codes, as several editions print them."""
PREMIUM_NUMBERS: dict[str, tuple[str, ...]] = {
    "T": ("3W",), "D": ("2W",), "t": ("3L",), "d": ("2L",)}
"""...or with a number and a letter (many European and travel boards)."""
PREMIUM_LABELS = ("words", "codes", "numbers", "symbols", "none")
"""How premium squares are labelled: :data:`PREMIUM_WORDS`, :data:`PREMIUM_CODES`,
:data:`PREMIUM_NUMBERS`, small symbols (dots and diamonds), or colour alone."""
CENTRE_MARKS = ("star", "ring", "diamond", "plain", "logo")
"""What the centre square shows: a five-pointed star, a ring, a diamond, nothing, or a round
logo with the edition's initials."""
VALUE_PLACES = ("corner", "inset", "large")
"""Where a tile's value is printed: in the bottom-right corner (most sets), nearer the letter, or
large in the corner."""


class RenderError(ValueError):
    """A render that cannot be made from what was asked (bad size, cell, option)."""


@dataclass(frozen=True)
class BoardStyle:
    """The colours of one kind of printed board (BGR)."""

    square: tuple[int, int, int]
    line: tuple[int, int, int]
    frame: tuple[int, int, int]
    triple_word: tuple[int, int, int]
    double_word: tuple[int, int, int]
    triple_letter: tuple[int, int, int]
    double_letter: tuple[int, int, int]
    text: tuple[int, int, int]
    plain_text_on_dark: tuple[int, int, int] = (245, 245, 245)
    walls: float = 0.0  # raised grid walls (a deluxe board's), their width in cells; 0 printed
    frame_grain: float = 0.0  # wood grain across the frame (a wooden deluxe board), 0 none

    def premium(self, kind: str) -> tuple[int, int, int]:
        return {
            "T": self.triple_word, "D": self.double_word, "*": self.double_word,
            "t": self.triple_letter, "d": self.double_letter,
        }.get(kind, self.square)


BOARD_STYLES = {
    # The classic beige board with a dark frame.
    "classic": BoardStyle(square=(165, 195, 205), line=(215, 228, 232), frame=(40, 60, 35),
                          triple_word=(50, 60, 205), double_word=(150, 150, 238),
                          triple_letter=(190, 110, 40), double_letter=(230, 210, 170),
                          text=(40, 35, 35)),
    # The modern white board with a red frame.
    "modern": BoardStyle(square=(228, 232, 236), line=(200, 205, 210), frame=(40, 35, 190),
                         triple_word=(45, 50, 210), double_word=(150, 150, 235),
                         triple_letter=(200, 120, 40), double_letter=(230, 200, 150),
                         text=(250, 250, 250)),
    # The green board (European editions) with a pale frame.
    "green": BoardStyle(square=(80, 120, 40), line=(60, 95, 30), frame=(215, 220, 220),
                        triple_word=(45, 40, 200), double_word=(120, 120, 230),
                        triple_letter=(160, 70, 30), double_letter=(220, 160, 90),
                        text=(245, 245, 245)),
}

EDITION_STYLES = {
    # A deluxe wooden board: walnut frame, cream squares between raised plastic walls.
    "deluxe": BoardStyle(square=(170, 205, 220), line=(120, 140, 150), frame=(35, 70, 110),
                         triple_word=(45, 45, 175), double_word=(140, 140, 225),
                         triple_letter=(170, 100, 35), double_letter=(215, 195, 150),
                         text=(245, 245, 245), walls=0.07, frame_grain=1.0),
    # A travel board: small, a thin light frame, grey-blue squares.
    "travel": BoardStyle(square=(150, 150, 140), line=(200, 200, 195), frame=(200, 205, 205),
                         triple_word=(60, 60, 180), double_word=(120, 150, 220),
                         triple_letter=(150, 90, 40), double_letter=(200, 170, 120),
                         text=(250, 250, 250)),
    # A vintage board: yellowed card, faded premium colours, a brown frame.
    "vintage": BoardStyle(square=(150, 190, 205), line=(185, 210, 220), frame=(40, 65, 100),
                          triple_word=(85, 95, 180), double_word=(150, 160, 215),
                          triple_letter=(160, 130, 80), double_letter=(190, 195, 175),
                          text=(60, 60, 70)),
}
"""Board editions beyond :data:`BOARD_STYLES`, for the stress scenes (:mod:`lab.stress`): kept
apart so that :meth:`RenderOptions.random` draws exactly what it drew before."""
ALL_BOARD_STYLES = {**BOARD_STYLES, **EDITION_STYLES}

TILE_COLOURS = {
    "ivory": (190, 225, 240),
    "beige": (160, 200, 222),
    "wood": (115, 168, 208),
    "white plastic": (228, 234, 238),
}
MORE_TILE_COLOURS = {
    "black plastic": (38, 36, 35),
}
"""Tile colours beyond :data:`TILE_COLOURS` (white letters), for the stress scenes."""
ALL_TILE_COLOURS = {**TILE_COLOURS, **MORE_TILE_COLOURS}
LIGHT_INK_TILES = frozenset({"black plastic"})
"""Tile colours whose letters are printed light on dark."""

TABLES = ("wood", "cloth", "plain", "stone")
MORE_TABLES = ("felt", "glass", "newspaper", "pattern", "clutter")
"""Tables beyond :data:`TABLES`, for the stress scenes: felt, a glass top, newspaper, a patterned
(checked) cloth, and a plain table strewn with papers and books."""
ALL_TABLES = TABLES + MORE_TABLES
SHADOW_SHAPES = ("edge", "arm", "head")
"""A shadow's shape: a straight soft edge across the photo, an arm's band or a head's blob."""


@dataclass(frozen=True)
class RenderOptions:
    """Every knob of one render; :meth:`random` draws a plausible phone photo.

    Angles are degrees. ``azimuth`` is where the photographer stands, turning the board in the
    frame (0: South at the bottom, 90, 180, 270 and anything between); ``tilt`` is the camera's
    angle from straight down; ``roll`` turns the camera about its own axis.
    """

    tilt: float = 0.0
    azimuth: float = 0.0
    roll: float = 0.0
    field_of_view: float = 55.0  # horizontal, a phone's main camera
    fill: float = 0.8  # fraction of the frame the board spans on its tighter side
    offset: float = 0.0  # 0 centred, 1 pushed to a random edge of the frame
    board_style: str = "classic"
    frame_width: float = 1.0  # cells of frame around the grid
    text_turn: int = 0  # the side the printed premium words face (quarter turns)
    tile_set: str = "english"
    tile_colour: str = "ivory"
    tile_height: float = 0.2  # cells: how far tile faces stand above the squares
    tile_size: float = 0.92  # cells: a tile's side, smaller than a square
    tile_jitter: float = 0.03  # cells: how far a tile sits off its square's centre
    tile_drift: tuple[float, float] = (0.0, 0.0)  # cells (right, down) every tile is pushed
    tile_twist: float = 2.5  # degrees: how far a tile is turned on its square
    table: str = "wood"
    wood_grain: float = 1.0  # scale of a wood table's grain (2: twice as fine)
    wood_contrast: float = 1.0  # strength of its grain, rings and plank seams
    clutter: int = 0  # loose tiles lying on the table
    rack: bool = False
    hand: bool = False
    cup: bool = False  # a cup standing on the board
    premium_labels: str = "words"  # see PREMIUM_LABELS
    centre_mark: str = "star"  # see CENTRE_MARKS
    tile_font: str = ""  # a font file's name (lab.tileface); "" any bold sans, as before
    value_place: str = "corner"  # see VALUE_PLACES
    light_gradient: float = 0.2  # 0 even light; 0.5 one side half as bright
    brightness: float = 1.0
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)  # BGR gains
    glare: float = 0.0  # 0 none, 1 a burnt-out highlight
    sheen: float = 0.0  # 0 none, 1 glossy tile tops washed to white at the far edge
    shadow: float = 0.0  # 0 none, 1 a black shadow over part of the board
    shadow_shape: str = "edge"  # see SHADOW_SHAPES
    shadow_softness: float = 1.0  # 1 as before; under 1 a harder edge
    lamp: float = 0.0  # a lamp's fall-off: 0 none, 0.6 the far corners 60 % darker
    washout: float = 0.0  # window light washing the far rows out: 0 none, 1 white
    blur: float = 0.0  # Gaussian sigma in pixels
    defocus: float = 0.0  # radius in pixels of the disc a point spreads to
    motion: float = 0.0  # length in pixels of a straight smear (a shaking hand)
    motion_angle: float = 0.0  # its direction, degrees
    depth_of_field: float = 0.0  # Gaussian sigma (px) reached far from the plane in focus
    distortion: float = 0.0  # radial lens distortion: < 0 barrel, > 0 pincushion
    noise: float = 1.5  # sigma of sensor noise, in grey levels
    jpeg_quality: int | None = None  # compress in memory as a phone would

    def __post_init__(self) -> None:
        checks = [
            (0 <= self.tilt <= 70, f"tilt must be 0 to 70 degrees, not {self.tilt}"),
            (10 <= self.field_of_view <= 120, "field_of_view must be 10 to 120 degrees"),
            (0.2 <= self.fill <= 1.0, f"fill must be 0.2 to 1, not {self.fill}"),
            (0 <= self.offset <= 1, f"offset must be 0 to 1, not {self.offset}"),
            (self.board_style in ALL_BOARD_STYLES,
             f"board_style must be one of {', '.join(ALL_BOARD_STYLES)}, "
             f"not {self.board_style!r}"),
            (0.3 <= self.frame_width <= 3, "frame_width must be 0.3 to 3 cells"),
            (self.text_turn in (0, 1, 2, 3), "text_turn must be 0, 1, 2 or 3 quarter turns"),
            (self.tile_colour in ALL_TILE_COLOURS,
             f"tile_colour must be one of {', '.join(ALL_TILE_COLOURS)}, "
             f"not {self.tile_colour!r}"),
            (0 <= self.tile_height <= 0.5, "tile_height must be 0 to 0.5 cell"),
            (0.7 <= self.tile_size <= 1.0, "tile_size must be 0.7 to 1 cell"),
            # Past ~0.04 cell two neighbouring tiles can overlap: jitter more only tiles set
            # apart, and push whole blocks with tile_drift.
            (0 <= self.tile_jitter <= 0.5, "tile_jitter must be 0 to 0.5 cell"),
            (len(self.tile_drift) == 2 and all(abs(d) <= 0.5 for d in self.tile_drift),
             "tile_drift must be two shifts of at most half a cell"),
            (0 <= self.tile_twist <= 15, "tile_twist must be 0 to 15 degrees"),
            (self.table in ALL_TABLES, f"table must be one of {', '.join(ALL_TABLES)}"),
            (0.2 <= self.wood_grain <= 5 and 0 <= self.wood_contrast <= 4,
             "wood_grain must be 0.2 to 5, wood_contrast 0 to 4"),
            (self.premium_labels in PREMIUM_LABELS,
             f"premium_labels must be one of {', '.join(PREMIUM_LABELS)}"),
            (self.centre_mark in CENTRE_MARKS,
             f"centre_mark must be one of {', '.join(CENTRE_MARKS)}"),
            (self.value_place in VALUE_PLACES,
             f"value_place must be one of {', '.join(VALUE_PLACES)}"),
            (self.shadow_shape in SHADOW_SHAPES,
             f"shadow_shape must be one of {', '.join(SHADOW_SHAPES)}"),
            (0.05 <= self.shadow_softness <= 3, "shadow_softness must be 0.05 to 3"),
            (0 <= self.lamp <= 0.9 and 0 <= self.washout <= 1,
             "lamp must be 0 to 0.9, washout 0 to 1"),
            (0 <= self.defocus <= 20 and 0 <= self.motion <= 40
             and 0 <= self.depth_of_field <= 20,
             "defocus must be 0-20 px, motion 0-40 px, depth_of_field 0-20 px"),
            (-0.5 <= self.distortion <= 0.5, "distortion must be -0.5 to 0.5"),
            (0 <= self.clutter <= 60, "clutter must be 0 to 60 loose tiles"),
            (0 <= self.light_gradient <= 0.9, "light_gradient must be 0 to 0.9"),
            (0.1 <= self.brightness <= 2, "brightness must be 0.1 to 2"),
            (len(self.white_balance) == 3 and all(0.3 <= g <= 2 for g in self.white_balance),
             "white_balance must be three gains from 0.3 to 2"),
            (0 <= self.glare <= 1 and 0 <= self.shadow <= 1 and 0 <= self.sheen <= 1,
             "glare, shadow and sheen must be 0 to 1"),
            (0 <= self.blur <= 20 and 0 <= self.noise <= 50, "blur must be 0-20, noise 0-50"),
            (self.jpeg_quality is None or 5 <= self.jpeg_quality <= 100,
             "jpeg_quality must be 5 to 100 or None"),
        ]
        for ok, message in checks:
            if not ok:
                raise RenderError(message)
        try:
            load_tile_set(self.tile_set)
        except ValueError as error:
            raise RenderError(str(error)) from None
        if self.tile_font:
            from lab.tileface import find_font

            if find_font(self.tile_font) is None:
                raise RenderError(f"no font file named {self.tile_font!r} is installed")

    @classmethod
    def clean(cls, **changes: object) -> RenderOptions:
        """Straight down, centred, even light, no noise: for tests that check geometry."""
        base = cls(light_gradient=0.0, noise=0.0, tile_jitter=0.0, tile_twist=0.0)
        return replace(base, **changes)  # type: ignore[arg-type]

    @classmethod
    def random(cls, rng: np.random.Generator, **changes: object) -> RenderOptions:
        """A plausible phone photo of a game in progress; ``changes`` pin any field."""
        quarter = int(rng.choice(4, p=[0.55, 0.15, 0.15, 0.15]))
        dim = rng.random() < 0.25
        warm = rng.random() < 0.4
        gains = (float(rng.uniform(0.7, 0.9)), float(rng.uniform(0.93, 1.0)),
                 float(rng.uniform(1.05, 1.2))) if warm else \
            tuple(float(g) for g in rng.uniform(0.93, 1.07, 3))
        options = cls(
            tilt=float(min(abs(rng.normal(0, 22)), 50)),
            azimuth=float(90 * quarter + rng.normal(0, 8)),
            roll=float(rng.normal(0, 4)),
            field_of_view=float(rng.uniform(45, 70)),
            fill=float(rng.uniform(0.6, 0.97)),
            offset=float(rng.uniform(0, 0.8)),
            board_style=str(rng.choice(list(BOARD_STYLES), p=[0.45, 0.35, 0.2])),
            frame_width=float(rng.uniform(0.5, 1.8)),
            text_turn=int(rng.integers(4)),
            tile_colour=str(rng.choice(list(TILE_COLOURS))),
            tile_height=float(rng.uniform(0.12, 0.25)),
            tile_size=float(rng.uniform(0.86, 0.95)),
            tile_jitter=float(rng.uniform(0, 0.05)),
            tile_twist=float(rng.uniform(0, 5)),
            table=str(rng.choice(TABLES)),
            clutter=int(rng.integers(0, 12)),
            rack=bool(rng.random() < 0.4),
            hand=bool(rng.random() < 0.1),
            light_gradient=float(rng.uniform(0, 0.45)),
            brightness=float(rng.uniform(0.35, 0.65) if dim else rng.uniform(0.85, 1.15)),
            white_balance=gains,  # type: ignore[arg-type]
            glare=float(rng.uniform(0.3, 0.9) if rng.random() < 0.25 else 0.0),
            shadow=float(rng.uniform(0.2, 0.6) if rng.random() < 0.25 else 0.0),
            blur=float(rng.uniform(0.8, 2.5) if rng.random() < 0.3 else rng.uniform(0, 0.6)),
            noise=float(rng.uniform(4, 10) if dim else rng.uniform(0.5, 4)),
            jpeg_quality=int(rng.integers(55, 96)),
        )
        return replace(options, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True, eq=False)
class RenderedPhoto:
    """A render with its truth: what is on the board and where the grid is in the image.

    ``corners`` are the playing grid's corners (A1 top-left, O1, O15, A15 in the South view) in
    image pixels, whatever way the board is turned in the frame; ``orientation`` is how far to turn
    the image clockwise to bring South to the bottom (the sidecars' convention). ``covered`` are
    the cells a hand hides: the sidecar marks them ``?`` as a person transcribing would.
    """

    image: np.ndarray
    corners: np.ndarray
    tiles: dict[Cell, Tile]
    orientation: int
    seed: int
    options: RenderOptions
    covered: frozenset[Cell] = field(default_factory=frozenset)

    def _token(self, cell: Cell, with_rotation: bool) -> str:
        if cell in self.covered:
            return "?"
        tile = self.tiles.get(cell)
        if tile is None:
            return "."
        return tile.token if with_rotation else tile.token[0]

    def truth_text(self, photo_name: str = "render.jpg") -> str:
        """The ``<photo>.txt`` sidecar, in the format of the real photos' truth files."""
        height, width = self.image.shape[:2]
        corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in self.corners)
        o = self.options
        notes = (f"rendered board ({o.board_style}, {o.tile_colour} tiles, {o.table} table); "
                 f"tilt {o.tilt:.0f} deg, azimuth {o.azimuth:.0f} deg; "
                 f"glare {o.glare:.1f}, shadow {o.shadow:.1f}, brightness {o.brightness:.2f}, "
                 f"blur {o.blur:.1f}")
        if o.sheen:
            notes += f"; sheen {o.sheen:.1f} on the tiles"
        if self.covered:
            notes += "; '?' = cells hidden by a hand: " + " ".join(
                cell.name for cell in sorted(self.covered, key=lambda c: (c.row, c.col)))
        header = [
            f"# source: tileref lab.render (seed {self.seed})",
            f"# photo: {photo_name}  ({width}x{height} px)",
            f"# board: 15x15 {o.tile_set.capitalize()} Scrabble (rendered)",
            f"# notes: {notes}",
            f"# orientation: truth grid = photo rotated {self.orientation} deg clockwise "
            "(0 = as the photo is displayed); rows top->bottom, cols left->right "
            "in that orientation",
            "# grid_corners_px (TL TR BR BL of the 15x15 playing grid, in truth orientation, "
            f"pixel coords of the saved photo): {corners}",
            "# legend: A-Z (and national letters) = tile; '.' = empty square; '?' = blank tile "
            "or covered cell; lowercase = blank tile played as that letter",
            "# truth_by: renderer (exact)",
        ]
        rows = ["".join(self._token(Cell(col, row), False) for col in range(SIZE))
                for row in range(SIZE)]
        return "\n".join(header + rows) + "\n"

    @property
    def has_rotations(self) -> bool:
        return any(tile.rotation is not None for tile in self.tiles.values())

    def rotation_text(self) -> str | None:
        """The ``<photo>.rot.txt`` sidecar (spaced tokens with arrows), or None if no rotations."""
        if not self.has_rotations:
            return None
        rows = [" ".join(self._token(Cell(col, row), True) for col in range(SIZE))
                for row in range(SIZE)]
        return "# tiles with the direction their top points in the South view (^ > v <)\n" + \
            "\n".join(rows) + "\n"

    def save(self, path: Path | str, quality: int = 85) -> list[Path]:
        """Write the image (JPEG or PNG by suffix) and its sidecars; returns the paths written."""
        path = Path(path)
        params = [cv2.IMWRITE_JPEG_QUALITY, int(quality)] if path.suffix.lower() in (
            ".jpg", ".jpeg") else []
        ok, encoded = cv2.imencode(path.suffix, self.image, params)
        if not ok:
            raise RenderError(f"cannot encode an image as {path.suffix!r}")
        path.write_bytes(encoded.tobytes())
        written = [path, Path(f"{path}.txt")]
        written[1].write_text(self.truth_text(path.name), encoding="utf-8")
        rotations = self.rotation_text()
        rot_path = Path(f"{path}.rot.txt")
        if rotations is not None:
            rot_path.write_text(rotations, encoding="utf-8")
            written.append(rot_path)
        elif rot_path.exists():
            rot_path.unlink()
        return written


__all__ = ["BOARD_STYLES", "PREMIUM_LAYOUT", "PREMIUM_WORDS", "TABLES", "TILE_COLOURS",
           "BoardStyle", "RenderError", "RenderOptions", "RenderedPhoto"]
