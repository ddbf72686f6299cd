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
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from referee.boardtext import Tile, parse_board_text
from referee.cells import SIZE, Cell, Direction, Seat
from referee.tiles import TileSet, load_tile_set
from vision.rectify import grid_homography, photo_cell_px
from vision.tileface import available_fonts, fonts_for, render_tile_face

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

PREMIUM_WORDS = {
    "T": ("TRIPLE", "WORD", "SCORE"),
    "D": ("DOUBLE", "WORD", "SCORE"),
    "t": ("TRIPLE", "LETTER", "SCORE"),
    "d": ("DOUBLE", "LETTER", "SCORE"),
}


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

TILE_COLOURS = {
    "ivory": (190, 225, 240),
    "beige": (160, 200, 222),
    "wood": (115, 168, 208),
    "white plastic": (228, 234, 238),
}

TABLES = ("wood", "cloth", "plain", "stone")


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
    clutter: int = 0  # loose tiles lying on the table
    rack: bool = False
    hand: bool = False
    light_gradient: float = 0.2  # 0 even light; 0.5 one side half as bright
    brightness: float = 1.0
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)  # BGR gains
    glare: float = 0.0  # 0 none, 1 a burnt-out highlight
    sheen: float = 0.0  # 0 none, 1 glossy tile tops washed to white at the far edge
    shadow: float = 0.0  # 0 none, 1 a black shadow over part of the board
    blur: float = 0.0  # Gaussian sigma in pixels
    noise: float = 1.5  # sigma of sensor noise, in grey levels
    jpeg_quality: int | None = None  # compress in memory as a phone would

    def __post_init__(self) -> None:
        checks = [
            (0 <= self.tilt <= 70, f"tilt must be 0 to 70 degrees, not {self.tilt}"),
            (10 <= self.field_of_view <= 120, "field_of_view must be 10 to 120 degrees"),
            (0.2 <= self.fill <= 1.0, f"fill must be 0.2 to 1, not {self.fill}"),
            (0 <= self.offset <= 1, f"offset must be 0 to 1, not {self.offset}"),
            (self.board_style in BOARD_STYLES,
             f"board_style must be one of {', '.join(BOARD_STYLES)}, not {self.board_style!r}"),
            (0.3 <= self.frame_width <= 3, "frame_width must be 0.3 to 3 cells"),
            (self.text_turn in (0, 1, 2, 3), "text_turn must be 0, 1, 2 or 3 quarter turns"),
            (self.tile_colour in TILE_COLOURS,
             f"tile_colour must be one of {', '.join(TILE_COLOURS)}, not {self.tile_colour!r}"),
            (0 <= self.tile_height <= 0.5, "tile_height must be 0 to 0.5 cell"),
            (0.7 <= self.tile_size <= 1.0, "tile_size must be 0.7 to 1 cell"),
            # Past ~0.04 cell two neighbouring tiles can overlap: jitter more only tiles set
            # apart, and push whole blocks with tile_drift.
            (0 <= self.tile_jitter <= 0.5, "tile_jitter must be 0 to 0.5 cell"),
            (len(self.tile_drift) == 2 and all(abs(d) <= 0.5 for d in self.tile_drift),
             "tile_drift must be two shifts of at most half a cell"),
            (0 <= self.tile_twist <= 15, "tile_twist must be 0 to 15 degrees"),
            (self.table in TABLES, f"table must be one of {', '.join(TABLES)}"),
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
            f"# source: tileref vision.render (seed {self.seed})",
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


# --- the camera -------------------------------------------------------------------------------


def _rotation_x(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rotation_z(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


@dataclass(frozen=True)
class Camera:
    """A pinhole camera over the board: world (cells) to image pixels."""

    matrix: np.ndarray  # K
    rotation: np.ndarray  # world to camera
    centre: np.ndarray  # camera position in the world

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        return (np.asarray(points, dtype=np.float64) - self.centre) @ self.rotation.T

    def project(self, points: np.ndarray) -> np.ndarray:
        """(N, 3) world points to (N, 2) pixels."""
        camera = self.to_camera(points) @ self.matrix.T
        return camera[:, :2] / camera[:, 2:3]

    def depth(self, points: np.ndarray) -> np.ndarray:
        return self.to_camera(points)[:, 2]

    def plane_homography(self, z: float) -> np.ndarray:
        """The homography taking (x, y) on the horizontal plane at height ``z`` to pixels."""
        translation = -self.rotation @ self.centre
        columns = np.column_stack([self.rotation[:, 0], self.rotation[:, 1],
                                   self.rotation[:, 2] * z + translation])
        return self.matrix @ columns


def _camera(options: RenderOptions, width: int, height: int, outline: np.ndarray,
            rng: np.random.Generator) -> Camera:
    """Place the camera so the board ``outline`` fills ``fill`` of the frame, maybe off-centre."""
    focal = width / 2 / math.tan(math.radians(options.field_of_view) / 2)
    rotation = (_rotation_z(math.radians(options.roll)) @ _rotation_x(-math.radians(options.tilt))
                @ _rotation_z(math.radians(options.azimuth)))
    forward = rotation.T @ np.array([0.0, 0.0, 1.0])
    target = np.array([SIZE / 2, SIZE / 2, 0.0])

    def make(distance: float, cx: float, cy: float) -> Camera:
        matrix = np.array([[focal, 0, cx], [0, focal, cy], [0, 0, 1]])
        return Camera(matrix, rotation, target - distance * forward)

    def span(distance: float) -> tuple[float, float]:
        camera = make(distance, width / 2, height / 2)
        if camera.depth(outline).min() < 0.5:  # part of the board behind or at the lens
            return math.inf, math.inf
        points = camera.project(outline)
        return float(np.ptp(points[:, 0])) / width, float(np.ptp(points[:, 1])) / height

    low, high = 1.0, 2000.0
    for _ in range(60):
        middle = math.sqrt(low * high)
        if max(span(middle)) > options.fill:
            low = middle
        else:
            high = middle
    points = make(high, width / 2, height / 2).project(outline)
    # Perspective makes the board lopsided about its centre: centre its bounding box, then move
    # it by up to ``offset`` of the room left on each side.
    room_x = (width - np.ptp(points[:, 0])) / 2
    room_y = (height - np.ptp(points[:, 1])) / 2
    shift_x = (width - points[:, 0].min() - points[:, 0].max()) / 2 + float(
        rng.uniform(-1, 1)) * room_x * options.offset
    shift_y = (height - points[:, 1].min() - points[:, 1].max()) / 2 + float(
        rng.uniform(-1, 1)) * room_y * options.offset
    return make(high, width / 2 + shift_x, height / 2 + shift_y)


# --- the flat textures: board and table ---------------------------------------------------------


def _font_path() -> Path | None:
    fonts = available_fonts()
    return fonts[0] if fonts else None


def _star(centre: tuple[float, float], outer: float) -> np.ndarray:
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else outer * 0.42
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle)))
    return np.round(np.array(points) * 16).astype(np.int32)


@lru_cache(maxsize=6)
def _grid_texture(style_name: str, cell_px: int) -> np.ndarray:
    """The 15x15 printed grid, top-down, ``cell_px`` pixels a square, words facing South."""
    style = BOARD_STYLES[style_name]
    side = SIZE * cell_px
    grid = np.empty((side, side, 3), dtype=np.uint8)
    grid[:] = style.line
    line = max(1, round(cell_px * 0.05))
    for row in range(SIZE):
        for col in range(SIZE):
            kind = PREMIUM_LAYOUT[row][col]
            x0, y0 = col * cell_px + line // 2, row * cell_px + line // 2
            x1, y1 = (col + 1) * cell_px - (line - line // 2), (row + 1) * cell_px - (
                line - line // 2)
            cv2.rectangle(grid, (x0, y0), (x1 - 1, y1 - 1), style.premium(kind), -1)
    centre = (7.5 * cell_px, 7.5 * cell_px)
    cv2.fillPoly(grid, [_star(centre, 0.36 * cell_px)], style.text, cv2.LINE_AA, shift=4)
    font_path = _font_path()
    if font_path is not None:
        image = Image.fromarray(grid[:, :, ::-1].copy())
        draw = ImageDraw.Draw(image)
        font = ImageFont.truetype(str(font_path), max(6, round(cell_px * 0.14)))
        colour = tuple(int(v) for v in style.text[::-1])
        for row in range(SIZE):
            for col in range(SIZE):
                words = PREMIUM_WORDS.get(PREMIUM_LAYOUT[row][col])
                if not words:
                    continue
                for i, word in enumerate(words):
                    xy = ((col + 0.5) * cell_px, (row + 0.5 + (i - 1) * 0.22) * cell_px)
                    draw.text(xy, word, fill=colour, font=font, anchor="mm")
        grid = np.asarray(image)[:, :, ::-1].copy()
    return grid


def _board_texture(options: RenderOptions, cell_px: int, margin_px: int,
                   rng: np.random.Generator) -> np.ndarray:
    """The whole board top-down: frame, grid (words facing ``text_turn``), a slight tint."""
    style = BOARD_STYLES[options.board_style]
    grid = np.rot90(_grid_texture(options.board_style, cell_px), k=-options.text_turn)
    side = grid.shape[0] + 2 * margin_px
    board = np.empty((side, side, 3), dtype=np.float32)
    board[:] = style.frame
    board[margin_px:margin_px + grid.shape[0], margin_px:margin_px + grid.shape[1]] = grid
    # A thin bright rim where the frame meets the grid, as printed boards have.
    rim = max(1, cell_px // 16)
    cv2.rectangle(board, (margin_px - rim, margin_px - rim),
                  (margin_px + grid.shape[1] + rim - 1, margin_px + grid.shape[0] + rim - 1),
                  tuple(float(v) * 0.8 for v in style.line), rim)
    tint = 1 + rng.normal(0, 0.04, 3)
    board *= tint.astype(np.float32)
    # Printing and card are never perfectly flat: a faint mottle.
    mottle = cv2.resize(rng.normal(0, 1, (24, 24)).astype(np.float32), (side, side),
                        interpolation=cv2.INTER_CUBIC)
    board *= (1 + 0.025 * mottle)[:, :, None]
    return board


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], blur: float) -> np.ndarray:
    noise = rng.normal(0, 1, shape).astype(np.float32)
    smooth = np.asarray(cv2.GaussianBlur(noise, (0, 0), blur), dtype=np.float32)
    return smooth / max(float(smooth.std()), 1e-6)


def _surface_colour(rng: np.random.Generator) -> np.ndarray:
    """A tablecloth or painted surface: mostly greys and muted tints, now and then a strong one."""
    if rng.random() < 0.25:
        return rng.uniform(40, 210, 3)
    return np.full(3, rng.uniform(60, 225)) + rng.normal(0, 12, 3)


def _table(options: RenderOptions, camera: Camera, width: int, height: int, z: float,
           rng: np.random.Generator) -> np.ndarray:
    """The table under the board, textured in world units so it recedes with perspective.

    Worked out at half resolution and enlarged: the table is out of focus beside the board and
    this is the costliest step of a render.
    """
    full_size = (width, height)
    width, height = (width + 1) // 2, (height + 1) // 2
    homography = np.diag([0.5, 0.5, 1.0]) @ camera.plane_homography(z)
    inverse = np.linalg.inv(homography)
    xs = np.arange(width, dtype=np.float32)[None, :] + 0.25
    ys = np.arange(height, dtype=np.float32)[:, None] + 0.25
    w = inverse[2, 0] * xs + inverse[2, 1] * ys + inverse[2, 2]
    in_front = w > 1e-9
    safe_w = np.where(in_front, w, 1.0)
    wx = (inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2]) / safe_w
    wy = (inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2]) / safe_w
    angle = rng.uniform(0, math.pi)
    u = (math.cos(angle) * wx + math.sin(angle) * wy).astype(np.float32)
    v = (-math.sin(angle) * wx + math.cos(angle) * wy).astype(np.float32)
    texel = 256

    def sample(noise: np.ndarray, scale_u: float, scale_v: float) -> np.ndarray:
        return cv2.remap(noise, (u * scale_u) % texel, (v * scale_v) % texel, cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_WRAP)

    if options.table == "wood":
        base = np.array([55, 100, 150]) * rng.uniform(0.6, 1.2) + rng.normal(0, 8, 3)
        streak = sample(_smooth_noise(rng, (texel, texel), 1.5), 1.5, 12.0)
        rings = np.sin(v * rng.uniform(1.5, 4) + 2.5 * sample(
            _smooth_noise(rng, (texel, texel), 6), 2.0, 2.0))
        planks = np.floor(v / rng.uniform(6, 12))
        plank_shade = (np.sin(planks * 12.9898) * 43758.5453) % 1.0
        shade = 1 + 0.12 * streak + 0.1 * rings + 0.15 * (plank_shade - 0.5)
        seams = np.abs(((v / 9.0) % 1.0) - 0.5) > 0.495
        shade = np.where(seams, shade * 0.6, shade)
    elif options.table == "cloth":
        base = _surface_colour(rng)
        weave = np.sin(u * 25) * np.sin(v * 25)
        shade = 1 + 0.05 * weave + 0.08 * sample(_smooth_noise(rng, (texel, texel), 8), 1, 1)
    elif options.table == "stone":
        base = np.full(3, rng.uniform(80, 200)) + rng.normal(0, 10, 3)
        shade = 1 + 0.12 * sample(_smooth_noise(rng, (texel, texel), 0.7), 6, 6) + 0.1 * sample(
            _smooth_noise(rng, (texel, texel), 10), 1, 1)
    else:
        base = _surface_colour(rng)
        shade = 1 + 0.04 * sample(_smooth_noise(rng, (texel, texel), 12), 0.5, 0.5)
    table = shade[:, :, None].astype(np.float32) * base.astype(np.float32)
    # Beyond the horizon, or very far, a wall.
    distance = np.hypot(wx - SIZE / 2, wy - SIZE / 2)
    far = ~in_front | (distance > 120)
    wall = (_surface_colour(rng) * 0.6 + 70).astype(np.float32)
    table[far] = wall
    return cv2.resize(table, full_size, interpolation=cv2.INTER_LINEAR)


# --- drawing solid things ------------------------------------------------------------------------


def _square(centre: tuple[float, float], side: float, twist: float) -> np.ndarray:
    """The four corners (x, y) of a square turned ``twist`` radians, in TL TR BR BL order."""
    c, s = math.cos(twist), math.sin(twist)
    half = side / 2
    offsets = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    turned = offsets @ np.array([[c, s], [-s, c]])
    return turned + np.array(centre)


def _with_z(points: np.ndarray, z: float) -> np.ndarray:
    return np.column_stack([points, np.full(len(points), z)])


def _fill(image: np.ndarray, polygon: np.ndarray, colour: Sequence[float] | np.ndarray) -> None:
    cv2.fillConvexPoly(image, np.round(polygon * 16).astype(np.int32),
                       tuple(float(c) for c in colour), cv2.LINE_AA, shift=4)


@dataclass(frozen=True)
class Block:
    """A box on the table or board: a tile, a loose tile, the rack. Footprint in world cells."""

    footprint: np.ndarray  # 4x2, TL TR BR BL of the top face as the face image is drawn
    bottom: float  # z of its base
    height: float
    colour: np.ndarray  # BGR of its sides before shading
    face: np.ndarray | None  # BGR image for the top, or None for a plain top

    @property
    def top(self) -> float:
        return self.bottom - self.height


def _draw_shadows(image: np.ndarray, camera: Camera, blocks: Sequence[Block],
                  light: np.ndarray, strength: float) -> None:
    """Soft shadows cast by blocks on the surface they stand on, away from the light."""
    height, width = image.shape[:2]
    mask = np.zeros((height, width), dtype=np.float32)
    for block in blocks:
        base = _with_z(block.footprint, block.bottom)
        cast = _with_z(block.footprint + light * block.height * 1.5, block.bottom)
        points = camera.project(np.vstack([base, cast]))
        hull = cv2.convexHull(points.astype(np.float32)).reshape(-1, 2)
        _fill(mask, hull, (1.0,))
    if not blocks:
        return
    sigma = max(1.0, 0.004 * width)
    soft = np.asarray(cv2.GaussianBlur(mask, (0, 0), sigma))
    image *= (1 - strength * np.clip(soft, 0, 1))[:, :, None]


def _draw_sides(image: np.ndarray, camera: Camera, blocks: Sequence[Block],
                light: np.ndarray) -> None:
    """The visible sides of every block, far ones first so near ones paint over them."""
    centres = np.array([[*block.footprint.mean(axis=0), block.top] for block in blocks])
    order: list[int] = list(np.argsort(-camera.depth(centres))) if len(blocks) else []
    for index in order:
        block = blocks[int(index)]
        top = _with_z(block.footprint, block.top)
        bottom = _with_z(block.footprint, block.bottom)
        for i in range(4):
            j = (i + 1) % 4
            quad = np.array([top[i], top[j], bottom[j], bottom[i]])
            middle = quad.mean(axis=0)
            edge = block.footprint[j] - block.footprint[i]
            normal = np.array([edge[1], -edge[0]]) / max(float(np.linalg.norm(edge)), 1e-9)
            if np.dot(normal, middle[:2] - block.footprint.mean(axis=0)) < 0:
                normal = -normal
            to_camera = camera.centre[:2] - middle[:2]
            facing = float(np.dot(normal, to_camera))
            if facing <= 0:
                continue
            lit = 0.55 + 0.3 * max(0.0, float(np.dot(normal, -light)))
            _fill(image, camera.project(quad), block.colour * lit)


def _draw_top(image: np.ndarray, camera: Camera, block: Block,
              tops: np.ndarray | None = None) -> None:
    """One block's top face, warped into place through its own small homography; ``tops`` (the
    image's height x width), when given, gathers where a face with an image was drawn."""
    corners = camera.project(_with_z(block.footprint, block.top))
    height, width = image.shape[:2]
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 <= x0 or y1 <= y0:
        return
    local = (corners - [x0, y0]).astype(np.float32)
    if block.face is None:
        _fill(image[y0:y1, x0:x1], local, block.colour)
        return
    face = block.face.astype(np.float32)
    side = face.shape[0]
    source = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32) - 0.5
    matrix = cv2.getPerspectiveTransform(source, local)
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_AREA
                                 if side > 2 * max(size) else cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(_rounded_alpha(side), matrix, size, flags=cv2.INTER_LINEAR)
    roi = image[y0:y1, x0:x1]
    roi[:] = roi * (1 - alpha[:, :, None]) + warped * alpha[:, :, None]
    if tops is not None:
        np.maximum(tops[y0:y1, x0:x1], alpha, out=tops[y0:y1, x0:x1])


@lru_cache(maxsize=32)
def _rounded_alpha(side: int) -> np.ndarray:
    """A tile's outline: a square with slightly rounded corners."""
    scale = 4
    big = np.zeros((side * scale, side * scale), dtype=np.uint8)
    radius = int(side * scale * 0.1)
    edge = side * scale - 1
    cv2.rectangle(big, (radius, 0), (edge - radius, edge), 255, -1)
    cv2.rectangle(big, (0, radius), (edge, edge - radius), 255, -1)
    for x, y in ((radius, radius), (edge - radius, radius), (radius, edge - radius),
                 (edge - radius, edge - radius)):
        cv2.circle(big, (x, y), radius, 255, -1)
    return cv2.resize(big, (side, side), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


# --- the scene ------------------------------------------------------------------------------------


def _bgr(values: np.ndarray) -> tuple[int, int, int]:
    return int(values[0]), int(values[1]), int(values[2])


def _tile_face(tile: Tile, tile_set: TileSet, size: int, colour: np.ndarray,
               font: Path | None, rotation: int, rng: np.random.Generator) -> np.ndarray:
    letter = tile.letter
    face_font = font if (font is not None and (tile.blank or font in fonts_for(letter))) else None
    return render_tile_face(
        "?" if tile.blank else letter,
        value=None if tile.blank else tile_set.value(letter),
        size=size, font=face_font, rotation=rotation, blank=tile.blank,
        tile_bgr=_bgr(np.clip(colour + rng.normal(0, 3, 3), 0, 255)),
        letter_scale=0.6, value_scale=0.25)


def _board_blocks(tiles: dict[Cell, Tile], options: RenderOptions, tile_set: TileSet,
                  face_px: int, colour: np.ndarray, font: Path | None,
                  seed: int) -> list[Block]:
    blocks = []
    for cell in sorted(tiles):
        tile = tiles[cell]
        # Each tile its own stream: placing one more tile leaves every other one where it was.
        rng = _stream(seed, 2, cell.col, cell.row)
        dx, dy = rng.uniform(-1, 1, 2) * options.tile_jitter + options.tile_drift
        twist = math.radians(rng.uniform(-1, 1) * options.tile_twist)
        footprint = _square((cell.col + 0.5 + dx, cell.row + 0.5 + dy), options.tile_size, twist)
        face = _tile_face(tile, tile_set, face_px, colour, font, tile.rotation or 0, rng)
        blocks.append(Block(footprint, 0.0, options.tile_height, colour * 0.82, face))
    return blocks


def _clutter_blocks(options: RenderOptions, tile_set: TileSet, face_px: int, colour: np.ndarray,
                    font: Path | None, board_half: float, table_z: float,
                    rng: np.random.Generator) -> list[Block]:
    """Loose tiles and a rack on the table around the board, never over it."""
    blocks: list[Block] = []
    centre = np.array([SIZE / 2, SIZE / 2])
    letters = [letter for letter, count in tile_set.counts.items() for _ in range(count)]
    placed: list[np.ndarray] = []
    if options.rack:
        side = int(rng.integers(4))
        along = rng.uniform(-3, 3)
        gap = board_half + rng.uniform(0.4, 1.5)
        rack_centre = centre + np.array([[along, gap], [-gap, along], [along, -gap],
                                         [gap, along]][side])
        turn = [0, math.pi / 2, math.pi, -math.pi / 2][side] + rng.normal(0, 0.08)
        rack_colour = np.array([30, 45, 70]) * rng.uniform(0.6, 2.0)
        outline = _rectangle(rack_centre, 7.8, 1.3, turn)
        blocks.append(Block(outline, table_z, 0.45, rack_colour * 0.8, None))
        placed.append(rack_centre)
        for i in range(int(rng.integers(4, 8))):
            spot = rack_centre + _turn_vector(np.array([-3.3 + i * 1.1, 0.1]), turn)
            tile = Tile(str(rng.choice(letters)))
            upright = _tile_face(tile, tile_set, face_px, colour, font, 0, rng)
            facing = np.ascontiguousarray(np.rot90(upright, k=-side))
            blocks.append(Block(_square(tuple(spot), 0.95, turn + rng.normal(0, 0.03)),
                                table_z - 0.45, 0.22, colour * 0.82, facing))
    for _ in range(options.clutter):
        for _attempt in range(20):
            spot = centre + rng.uniform(-1, 1, 2) * (board_half + 6)
            if np.abs(spot - centre).max() < board_half + 0.8:
                continue
            if any(np.linalg.norm(spot - other) < 1.6 for other in placed):
                continue
            placed.append(spot)
            face_down = rng.random() < 0.3
            tile = Tile(str(rng.choice(letters)))
            face: np.ndarray | None = None if face_down else _tile_face(
                tile, tile_set, face_px, colour, font, 0, rng)
            footprint = _square(tuple(spot), options.tile_size, rng.uniform(0, 2 * math.pi))
            side_colour = colour * (0.95 if face is None else 0.82)
            blocks.append(Block(footprint, table_z, 0.2, side_colour, face))
            break
    return blocks


def _turn_vector(vector: np.ndarray, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([c * vector[0] - s * vector[1], s * vector[0] + c * vector[1]])


def _rectangle(centre: np.ndarray, length: float, depth: float, angle: float) -> np.ndarray:
    offsets = [np.array([-length / 2, -depth / 2]), np.array([length / 2, -depth / 2]),
               np.array([length / 2, depth / 2]), np.array([-length / 2, depth / 2])]
    return np.array([centre + _turn_vector(offset, angle) for offset in offsets])


def _draw_hand(image: np.ndarray, camera: Camera, rng: np.random.Generator,
               light: np.ndarray) -> np.ndarray:
    """A hand and forearm reaching in from an image edge over the board; returns its mask.

    Sized in cells (a palm is about four squares wide) so it covers as much of a far board as
    of a near one; it floats above the tiles, so its shadow falls a little aside.
    """
    height, width = image.shape[:2]
    reach = np.array([*rng.uniform(3, 12, 2)])
    target, beside = camera.project(np.array([[*reach, -2.0], [reach[0] + 1, reach[1], -2.0]]))
    cell = float(np.linalg.norm(beside - target))
    edge = int(rng.integers(4))
    start = [np.array([rng.uniform(0, width), height + 4 * cell]),
             np.array([-4 * cell, rng.uniform(0, height)]),
             np.array([rng.uniform(0, width), -4 * cell]),
             np.array([width + 4 * cell, rng.uniform(0, height)])][edge]
    direction = (target - start) / max(float(np.linalg.norm(target - start)), 1e-9)
    normal = np.array([-direction[1], direction[0]]) * (1 if rng.random() < 0.5 else -1)
    size = cell * rng.uniform(0.85, 1.15)
    mask = np.zeros((height, width), dtype=np.float32)

    def stroke(a: np.ndarray, b: np.ndarray, thickness: float) -> None:
        cv2.line(mask, tuple(int(v) for v in a), tuple(int(v) for v in b), 1.0,
                 max(2, int(thickness)), cv2.LINE_AA)

    palm = target - direction * size * 3.2
    stroke(start, palm - direction * size * 1.5, size * 3.6)  # forearm
    angle = math.degrees(math.atan2(direction[1], direction[0]))
    cv2.ellipse(mask, tuple(int(v) for v in palm), (int(size * 2.4), int(size * 2.1)), angle,
                0, 360, 1.0, -1, cv2.LINE_AA)
    curl = rng.uniform(0.6, 1.0)
    for across, length in ((-1.3, 2.7), (-0.45, 3.4), (0.45, 3.6), (1.3, 3.1)):
        base = palm + direction * size * 1.6 + normal * across * size
        splay = _turn_vector(direction, across * rng.uniform(0.05, 0.15))
        stroke(base, base + splay * length * size * curl, size * 0.95)
    thumb = palm + normal * size * 1.9 - direction * size * 0.3
    stroke(thumb, thumb + (normal * 0.6 + direction * 0.8) * size * 2.4, size * 1.05)
    soft = cv2.GaussianBlur(mask, (0, 0), max(0.8, size * 0.08))
    shift = (int(round(size * 1.2 * light[1])) + 2, int(round(size * 1.2 * light[0])) + 2)
    shadow = np.roll(cv2.GaussianBlur(mask, (0, 0), size * 0.8), shift, (0, 1))
    image *= (1 - 0.5 * np.clip(shadow, 0, 1))[:, :, None]
    skin = np.array([110, 140, 200]) * rng.uniform(0.5, 1.12) + rng.normal(0, 6, 3)
    relief = cv2.GaussianBlur(mask, (0, 0), size * 0.7)
    colour = skin[None, None, :] * (0.55 + 0.55 * relief[:, :, None])
    image[:] = image * (1 - soft[:, :, None]) + colour * soft[:, :, None]
    return mask


SHEEN_WHITE = 235.0
"""The grey a fully washed tile top reaches: a window's reflection, not a burnt-out highlight."""


def _sheen(image: np.ndarray, tops: np.ndarray, corners: np.ndarray, strength: float) -> None:
    """Glossy tile tops mirroring a bright window: washed towards white, letters and all, more
    and more from the board's middle to its far edge in the photo (``strength`` there), while the
    matte squares between them keep their colour (an unlabelled photo, kristopalka
    red_boards_014: grey-white tiles with faint letters on dark red squares along the far edge).
    """
    top, bottom = corners[:, 1].min(), corners[:, 1].max()
    ys = np.arange(image.shape[0], dtype=np.float32)[:, None]
    farther = (bottom - ys) / max(bottom - top, 1.0)
    wash = strength * np.clip(2 * farther - 1, 0, 1) * tops
    image += (SHEEN_WHITE - image) * wash[:, :, None]


def _photo_effects(image: np.ndarray, options: RenderOptions, board_points: np.ndarray,
                   rng: np.random.Generator) -> np.ndarray:
    """What the phone and the room do to the picture, in a fixed order."""
    height, width = image.shape[:2]
    xs = np.arange(width, dtype=np.float32)[None, :]
    ys = np.arange(height, dtype=np.float32)[:, None]
    if options.light_gradient:
        angle = rng.uniform(0, 2 * math.pi)
        ramp = ((xs - width / 2) * math.cos(angle) + (ys - height / 2) * math.sin(angle))
        ramp /= max(width, height) / 2
        image *= (1 + options.light_gradient * 0.5 * ramp)[:, :, None]
    radius = np.hypot(xs - width / 2, ys - height / 2) / math.hypot(width / 2, height / 2)
    image *= (1 - 0.25 * radius ** 2)[:, :, None]
    if options.shadow:
        angle = rng.uniform(0, 2 * math.pi)
        anchor = board_points[int(rng.integers(len(board_points)))]
        distance = (xs - anchor[0]) * math.cos(angle) + (ys - anchor[1]) * math.sin(angle)
        softness = max(width, height) * rng.uniform(0.01, 0.05)
        mask = 1 / (1 + np.exp(-distance / softness))
        image *= (1 - options.shadow * 0.85 * mask)[:, :, None]
    image *= np.array(options.white_balance, dtype=np.float32) * options.brightness
    if options.glare:
        centre = board_points[int(rng.integers(len(board_points)))]
        sigma = min(width, height) * rng.uniform(0.04, 0.12)
        spot = np.exp(-((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / (2 * sigma ** 2))
        halo = np.exp(-((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / (2 * (3 * sigma) ** 2))
        boost = options.glare * (1.6 * spot + 0.25 * halo)
        image += (255 * 1.2 - image) * np.clip(boost, 0, 1)[:, :, None]
    if options.blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), options.blur)
    if options.noise > 0:
        image += rng.normal(0, options.noise, image.shape).astype(np.float32)
    result = np.clip(image, 0, 255).astype(np.uint8)
    if options.jpeg_quality is not None:
        ok, encoded = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY,
                                                    int(options.jpeg_quality)])
        if ok:
            result = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return result


def _orientation(corners: np.ndarray) -> int:
    """Quarter turns (as degrees clockwise) that bring the South view upright in the image."""
    up = (corners[0] + corners[1]) / 2 - (corners[3] + corners[2]) / 2
    angle = math.degrees(math.atan2(up[0], -up[1]))  # how far "North" is turned clockwise
    return int(round(-angle / 90)) * 90 % 360


def _stream(seed: int, *keys: int) -> np.random.Generator:
    """An independent random stream for one part of a render."""
    return np.random.default_rng([seed, *keys])


def _check_tiles(tiles: dict[Cell, Tile]) -> None:
    if not isinstance(tiles, dict):
        raise RenderError("tiles must be a dict of Cell to Tile")
    for cell, tile in tiles.items():
        if not isinstance(cell, Cell) or not cell.on_board():
            where = f"col {getattr(cell, 'col', '?')}, row {getattr(cell, 'row', '?')}"
            raise RenderError(f"cell ({where}) is not on the 15x15 board")
        if not isinstance(tile, Tile):
            raise RenderError(f"the tile at {cell} is {tile!r}, not a Tile")


def render_board_photo(tiles: dict[Cell, Tile], *, seed: int, width: int = 1600,
                       height: int = 1200, options: RenderOptions | None = None) -> RenderedPhoto:
    """A photo of a board holding ``tiles``; the same seed and options give the same pixels.

    Without ``options`` the seed also draws the camera, light and clutter
    (:meth:`RenderOptions.random`). The scene (camera, table, board, clutter, light) comes from
    the seed alone, not from the tiles, so renders of successive positions with one seed are the
    frames of a steady camera watching a game: only the tiles change.
    """
    _check_tiles(tiles)
    if not (isinstance(width, int) and isinstance(height, int)
            and 64 <= width <= 8000 and 64 <= height <= 8000):
        raise RenderError(f"image size must be 64 to 8000 pixels a side, not {width}x{height}")
    if not isinstance(seed, int | np.integer):
        raise RenderError(f"seed must be a whole number, not {seed!r}")
    seed = int(seed) % (1 << 63)
    if options is None:
        options = RenderOptions.random(_stream(seed, 0))
    rng = _stream(seed, 1)
    tile_set = load_tile_set(options.tile_set)
    half = SIZE / 2 + options.frame_width
    board_outline = _with_z(np.array([[SIZE / 2 - half, SIZE / 2 - half],
                                      [SIZE / 2 + half, SIZE / 2 - half],
                                      [SIZE / 2 + half, SIZE / 2 + half],
                                      [SIZE / 2 - half, SIZE / 2 + half]]), 0.0)
    camera = _camera(options, width, height, board_outline, rng)
    grid = np.array([[0, 0, 0], [SIZE, 0, 0], [SIZE, SIZE, 0], [0, SIZE, 0]], dtype=np.float64)
    corners = camera.project(grid)
    cell_on_image = float(np.mean([np.linalg.norm(corners[i] - corners[(i + 1) % 4])
                                   for i in range(4)])) / SIZE
    cell_px = int(np.clip(round(cell_on_image * 1.3), 16, 128))
    face_px = max(12, int(round(cell_on_image * options.tile_size * 1.5)))
    light_angle = rng.uniform(0, 2 * math.pi)
    light = np.array([math.cos(light_angle), math.sin(light_angle)]) * rng.uniform(0.3, 1.0)
    board_thickness = 0.12

    image = _table(options, camera, width, height, board_thickness, rng)
    # The board: shadow on the table, its edge, then the printed top.
    board_block = Block(board_outline[:, :2], board_thickness, board_thickness,
                        np.array(BOARD_STYLES[options.board_style].frame, dtype=np.float64) * 0.7,
                        None)
    colour = np.array(TILE_COLOURS[options.tile_colour], dtype=np.float64) + rng.normal(0, 5, 3)
    fonts = available_fonts()
    font = fonts[int(rng.integers(len(fonts)))] if fonts else None
    clutter = _clutter_blocks(options, tile_set, face_px, colour, font, half, board_thickness,
                              rng)
    _draw_shadows(image, camera, [board_block, *clutter], light, 0.45)
    _draw_sides(image, camera, [board_block], light)
    margin_px = int(round(options.frame_width * cell_px))
    texture = _board_texture(options, cell_px, margin_px, rng)
    to_world = np.array([[1 / cell_px, 0, 0.5 / cell_px - margin_px / cell_px],
                         [0, 1 / cell_px, 0.5 / cell_px - margin_px / cell_px],
                         [0, 0, 1]])
    warp = camera.plane_homography(0.0) @ to_world
    board = cv2.warpPerspective(texture, warp, (width, height), flags=cv2.INTER_LINEAR)
    cover = cv2.warpPerspective(np.ones(texture.shape[:2], np.float32), warp, (width, height),
                                flags=cv2.INTER_LINEAR)
    image[:] = image * (1 - cover[:, :, None]) + board * cover[:, :, None]
    # Clutter on the table.
    _draw_sides(image, camera, clutter, light)
    for block in clutter:
        _draw_top(image, camera, block)
    # Tiles on the board.
    blocks = _board_blocks(tiles, options, tile_set, face_px, colour, font, seed)
    _draw_shadows(image, camera, blocks, light, 0.5)
    _draw_sides(image, camera, blocks, light)
    tops = np.zeros((height, width), np.float32) if options.sheen else None
    for block in blocks:
        _draw_top(image, camera, block, tops)
    if tops is not None:
        _sheen(image, tops, corners, options.sheen)
    covered: frozenset[Cell] = frozenset()
    if options.hand:
        mask = _draw_hand(image, camera, _stream(seed, 3), light)
        centres = camera.project(np.array([[c + 0.5, r + 0.5, -options.tile_height]
                                           for r in range(SIZE) for c in range(SIZE)]))
        hidden = []
        for index, (x, y) in enumerate(centres):
            xi, yi = int(round(x)), int(round(y))
            if 0 <= xi < width and 0 <= yi < height and mask[yi, xi] > 0.5:
                hidden.append(Cell(index % SIZE, index // SIZE))
        covered = frozenset(hidden)
    board_points = camera.project(np.array([[*rng.uniform(0, SIZE, 2), 0] for _ in range(8)]))
    photo = _photo_effects(image, options, board_points, _stream(seed, 4))
    return RenderedPhoto(photo, corners.astype(np.float64), dict(tiles), _orientation(corners),
                         seed, options, covered)


def soft_focus(image: np.ndarray, corners: np.ndarray, cols: tuple[float, float],
               rows: tuple[float, float], blur_cells: float) -> np.ndarray:
    """A copy of a photo with the part of its grid over ``cols`` x ``rows`` (grid units, 0 to
    15, reaching past the grid to take the frame too) out of focus: a Gaussian blur of
    ``blur_cells`` of the photo's median cell (:func:`vision.rectify.photo_cell_px`).

    A lens focused on one part of a board (a steep photo's near rows) leaves the rest soft: what
    the per-tile blur warning is for, and what the cover check must not take for a hand.
    """
    quad = np.array([[cols[0], rows[0]], [cols[1], rows[0]], [cols[1], rows[1]],
                     [cols[0], rows[1]]], np.float64)
    outline = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), grid_homography(corners))
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, outline.reshape(-1, 2).round().astype(np.int32), 255)
    soft = cv2.GaussianBlur(image, (0, 0), blur_cells * photo_cell_px(corners))
    return np.where(mask[..., None] > 0, soft, image)


# --- positions for bulk renders ----------------------------------------------------------------


def random_position(rng: np.random.Generator, *, tile_set: str = "english", words: int = 12,
                    seats: Sequence[Seat] = (), word_list: Sequence[str] = ()) -> dict[Cell, Tile]:
    """A crossword-like position: strings of tiles crossing each other from the centre.

    Letters come from ``word_list`` when given, else from the bag's letter frequencies; the
    renderer only needs plausible shapes and letter mixes, not legal plays. With ``seats`` each
    string belongs to a seat: laid in that seat's across or down and turned by its rotation.
    """
    bag = load_tile_set(tile_set)
    letters = [letter for letter, count in bag.counts.items() for _ in range(count)]
    tiles: dict[Cell, Tile] = {}
    for index in range(words):
        if word_list:
            word = str(word_list[int(rng.integers(len(word_list)))]).upper()
        else:
            word = "".join(rng.choice(letters, int(rng.integers(2, 8))))
        if not word.isalpha():
            continue
        seat = seats[index % len(seats)] if seats else Seat.S
        direction = Direction.ACROSS if rng.random() < 0.5 else Direction.DOWN
        anchors = list(tiles) if tiles else [Cell(7, 7)]
        for _attempt in range(200):
            anchor = anchors[int(rng.integers(len(anchors)))]
            offset = int(rng.integers(len(word)))
            start = seat.step(anchor, direction, -offset)
            line = seat.line(start, direction, len(word))
            if not all(cell.on_board() for cell in line):
                continue
            if any(cell in tiles and tiles[cell].letter != letter
                   for cell, letter in zip(line, word, strict=True)):
                continue
            if tiles and not any(cell in tiles for cell in line):
                continue
            rotation = seat.rotation if seats else None
            blank = rng.random() < 0.02
            for cell, letter in zip(line, word, strict=True):
                if cell not in tiles:
                    tiles[cell] = Tile(letter, blank and cell == line[0], rotation)
            break
    return tiles


def _read_position(path: Path) -> dict[Cell, Tile]:
    try:
        return parse_board_text(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise RenderError(f"cannot read board text {path}: {error}") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision.render",
        description="Render board photos with truth sidecars (for training, tests and samples).")
    parser.add_argument("out", type=Path, help="folder to write into (created if missing)")
    parser.add_argument("-n", "--count", type=int, default=10, help="how many photos")
    parser.add_argument("--seed", type=int, default=0, help="first seed; photo i uses seed+i")
    parser.add_argument("--width", type=int, default=1600)
    parser.add_argument("--height", type=int, default=1200)
    parser.add_argument("--quality", type=int, default=85, help="JPEG quality of the files")
    parser.add_argument("--board", type=Path, help="board text to render (else random positions)")
    parser.add_argument("--words", type=Path, help="word list for random positions")
    parser.add_argument("--tile-set", default="english", help="english, german or polish")
    parser.add_argument("--seats", default="", help="seats for rotated tiles, e.g. SWNE")
    parser.add_argument("--clean", action="store_true", help="straight-on, even light, no noise")
    args = parser.parse_args(argv)
    try:
        if args.count < 1:
            raise RenderError("--count must be at least 1")
        seats = [Seat.parse(letter) for letter in args.seats]
        word_list: list[str] = []
        if args.words:
            word_list = [w.strip() for w in args.words.read_text(encoding="utf-8").split()
                         if w.strip().isalpha() and 2 <= len(w.strip()) <= 8]
        fixed = _read_position(args.board) if args.board else None
        args.out.mkdir(parents=True, exist_ok=True)
        for i in range(args.count):
            seed = args.seed + i
            rng = np.random.default_rng([seed, 1])
            tiles = fixed if fixed is not None else random_position(
                rng, tile_set=args.tile_set, words=int(rng.integers(0, 25)), seats=seats,
                word_list=word_list)
            options = RenderOptions.clean(tile_set=args.tile_set) if args.clean else \
                RenderOptions.random(np.random.default_rng([seed, 2]), tile_set=args.tile_set)
            photo = render_board_photo(tiles, seed=seed, width=args.width, height=args.height,
                                       options=options)
            photo.save(args.out / f"render_{seed:06d}.jpg", quality=args.quality)
            print(f"\r{i + 1}/{args.count}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    except (ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = [
    "BOARD_STYLES",
    "PREMIUM_LAYOUT",
    "Camera",
    "RenderError",
    "RenderOptions",
    "RenderedPhoto",
    "random_position",
    "render_board_photo",
    "soft_focus",
]
