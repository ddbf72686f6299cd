"""The flat textures of a render: the board top-down (frame, grid, premium squares and their
words) and the table under it."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from lab.render.camera import Camera
from lab.render.options import (
    ALL_BOARD_STYLES,
    PREMIUM_CODES,
    PREMIUM_LAYOUT,
    PREMIUM_NUMBERS,
    PREMIUM_WORDS,
    BoardStyle,
    RenderOptions,
)
from lab.tileface import available_fonts
from referee.cells import SIZE


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
def _grid_texture(style_name: str, cell_px: int, labels: str = "words",
                  centre_mark: str = "star") -> np.ndarray:
    """The 15x15 printed grid, top-down, ``cell_px`` pixels a square, words facing South.

    ``labels`` and ``centre_mark`` are :data:`lab.render.options.PREMIUM_LABELS` and
    :data:`~lab.render.options.CENTRE_MARKS`; the defaults draw what every render drew before.
    """
    style = ALL_BOARD_STYLES[style_name]
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
    _centre_mark(grid, centre, cell_px, style, centre_mark)
    if labels == "symbols":
        _premium_symbols(grid, cell_px, style)
    font_path = _font_path()
    labelled = {"words": PREMIUM_WORDS, "codes": PREMIUM_CODES, "numbers": PREMIUM_NUMBERS}
    texts = labelled.get(labels)
    if font_path is not None and texts is not None:
        image = Image.fromarray(grid[:, :, ::-1].copy())
        draw = ImageDraw.Draw(image)
        short = labels != "words"
        font = ImageFont.truetype(str(font_path), max(6, round(cell_px * (0.3 if short else 0.14))))
        colour = tuple(int(v) for v in style.text[::-1])
        for row in range(SIZE):
            for col in range(SIZE):
                words = texts.get(PREMIUM_LAYOUT[row][col])
                if not words:
                    continue
                for i, word in enumerate(words):
                    offset = 0.0 if short else (i - 1) * 0.22
                    xy = ((col + 0.5) * cell_px, (row + 0.5 + offset) * cell_px)
                    draw.text(xy, word, fill=colour, font=font, anchor="mm")
        grid = np.asarray(image)[:, :, ::-1].copy()
    return grid


def _centre_mark(grid: np.ndarray, centre: tuple[float, float], cell_px: int,
                 style: BoardStyle, mark: str) -> None:
    """The centre square's mark: boards draw it in many ways (a bare star read as a blank tile
    is one of the reader's known failings)."""
    x, y = centre
    if mark == "star":
        cv2.fillPoly(grid, [_star(centre, 0.36 * cell_px)], style.text, cv2.LINE_AA, shift=4)
    elif mark == "ring":
        cv2.circle(grid, (int(x), int(y)), int(0.32 * cell_px), style.text,
                   max(1, cell_px // 12), cv2.LINE_AA)
    elif mark == "diamond":
        half = 0.36 * cell_px
        points = np.array([[x, y - half], [x + half, y], [x, y + half], [x - half, y]])
        cv2.fillConvexPoly(grid, np.round(points * 16).astype(np.int32), style.text,
                           cv2.LINE_AA, shift=4)
    elif mark == "logo":
        cv2.circle(grid, (int(x), int(y)), int(0.4 * cell_px), style.frame, -1, cv2.LINE_AA)
        cv2.circle(grid, (int(x), int(y)), int(0.4 * cell_px), style.text,
                   max(1, cell_px // 20), cv2.LINE_AA)
        cv2.fillPoly(grid, [_star(centre, 0.22 * cell_px)], style.text, cv2.LINE_AA, shift=4)


def _premium_symbols(grid: np.ndarray, cell_px: int, style: BoardStyle) -> None:
    """Premium squares marked by symbols instead of words: dots for the letter squares (two or
    three), a diamond for the word squares."""
    for row in range(SIZE):
        for col in range(SIZE):
            kind = PREMIUM_LAYOUT[row][col]
            cx, cy = (col + 0.5) * cell_px, (row + 0.5) * cell_px
            if kind in "td":
                count = 3 if kind == "t" else 2
                for i in range(count):
                    dx = (i - (count - 1) / 2) * 0.24 * cell_px
                    cv2.circle(grid, (int(cx + dx), int(cy)), max(1, int(0.07 * cell_px)),
                               style.text, -1, cv2.LINE_AA)
            elif kind in "TD":
                half = (0.3 if kind == "T" else 0.22) * cell_px
                points = np.array([[cx, cy - half], [cx + half, cy], [cx, cy + half],
                                   [cx - half, cy]])
                cv2.polylines(grid, [np.round(points * 16).astype(np.int32)], True, style.text,
                              max(1, cell_px // 20), cv2.LINE_AA, shift=4)


def _raised_walls(board: np.ndarray, margin_px: int, cell_px: int, style: BoardStyle) -> None:
    """A deluxe board's grid walls: ridges between the squares, lit on one side, dark on the
    other, standing out of the print (drawn flat: their height is a few pixels)."""
    width = max(2, int(round(style.walls * cell_px)))
    light = np.array(style.line, np.float32) * 1.35
    dark = np.array(style.line, np.float32) * 0.55
    for i in range(SIZE + 1):
        at = margin_px + i * cell_px
        lo, hi = at - width // 2, at - width // 2 + width
        span = slice(margin_px - width // 2, margin_px + SIZE * cell_px + width // 2)
        board[span, lo:hi] = np.asarray(style.line, np.float32)
        board[span, hi:hi + max(1, width // 2)] *= 0.7  # the wall's shadow on the square
        board[span, lo:lo + 1] = light
        board[lo:hi, span] = np.asarray(style.line, np.float32)
        board[hi:hi + max(1, width // 2), span] *= 0.7
        board[lo:lo + 1, span] = light
        board[hi - 1:hi, span] = dark


def _frame_grain(board: np.ndarray, margin_px: int, rng: np.random.Generator) -> None:
    """Wood grain over a wooden board's frame (the grid is painted over it afterwards)."""
    side = board.shape[0]
    streaks = _smooth_noise(rng, (side, side), 2.0)
    stretched = cv2.resize(streaks[:, : max(4, side // 12)], (side, side),
                           interpolation=cv2.INTER_LINEAR)
    frame = np.ones((side, side), bool)
    frame[margin_px:side - margin_px, margin_px:side - margin_px] = False
    board[frame] *= (1 + 0.12 * stretched[frame])[:, None]


def board_texture(options: RenderOptions, cell_px: int, margin_px: int,
                   rng: np.random.Generator) -> np.ndarray:
    """The whole board top-down: frame, grid (words facing ``text_turn``), a slight tint."""
    style = ALL_BOARD_STYLES[options.board_style]
    grid = np.rot90(_grid_texture(options.board_style, cell_px, options.premium_labels,
                                  options.centre_mark), k=-options.text_turn)
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
    if style.frame_grain:
        _frame_grain(board, margin_px, rng)
    if style.walls:
        _raised_walls(board, margin_px, cell_px, style)
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


def table_image(options: RenderOptions, camera: Camera, width: int, height: int, z: float,
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
        grain, contrast = options.wood_grain, options.wood_contrast
        streak = sample(_smooth_noise(rng, (texel, texel), 1.5), 1.5 * grain, 12.0 * grain)
        rings = np.sin(v * rng.uniform(1.5, 4) * grain + 2.5 * sample(
            _smooth_noise(rng, (texel, texel), 6), 2.0, 2.0))
        planks = np.floor(v / rng.uniform(6, 12))
        plank_shade = (np.sin(planks * 12.9898) * 43758.5453) % 1.0
        grain_shade = 0.12 * streak + 0.1 * rings + 0.15 * (plank_shade - 0.5)
        if contrast == 1.0:  # as every render before the contrast could be chosen
            shade = 1 + 0.12 * streak + 0.1 * rings + 0.15 * (plank_shade - 0.5)
        else:
            shade = 1 + contrast * grain_shade
        seams = np.abs(((v / 9.0) % 1.0) - 0.5) > 0.495
        shade = np.where(seams, shade * (0.6 if contrast == 1.0 else 1 - 0.4 * min(contrast, 2)),
                         shade)
    elif options.table == "cloth":
        base = _surface_colour(rng)
        weave = np.sin(u * 25) * np.sin(v * 25)
        shade = 1 + 0.05 * weave + 0.08 * sample(_smooth_noise(rng, (texel, texel), 8), 1, 1)
    elif options.table == "stone":
        base = np.full(3, rng.uniform(80, 200)) + rng.normal(0, 10, 3)
        shade = 1 + 0.12 * sample(_smooth_noise(rng, (texel, texel), 0.7), 6, 6) + 0.1 * sample(
            _smooth_noise(rng, (texel, texel), 10), 1, 1)
    elif options.table in MORE_TABLE_SHADES:
        base, shade = MORE_TABLE_SHADES[options.table](rng, u, v, sample)
    else:
        base = _surface_colour(rng)
        shade = 1 + 0.04 * sample(_smooth_noise(rng, (texel, texel), 12), 0.5, 0.5)
    table = shade[:, :, None].astype(np.float32) * base.astype(np.float32)
    if options.table == "clutter":
        _papers(table, rng, wx, wy)
    # Beyond the horizon, or very far, a wall.
    distance = np.hypot(wx - SIZE / 2, wy - SIZE / 2)
    far = ~in_front | (distance > 120)
    wall = (_surface_colour(rng) * 0.6 + 70).astype(np.float32)
    table[far] = wall
    return cv2.resize(table, full_size, interpolation=cv2.INTER_LINEAR)


_Sampler = Callable[[np.ndarray, float, float], np.ndarray]
_TEXEL = 256


def _felt(rng: np.random.Generator, u: np.ndarray, v: np.ndarray, sample: _Sampler
          ) -> tuple[np.ndarray, np.ndarray]:
    """Felt: a saturated colour (card-table green, red, blue), a fine fuzz, no pattern."""
    base = np.array([[40, 110, 30], [40, 40, 140], [120, 60, 30], [50, 50, 50]][
        int(rng.integers(4))], np.float64) * rng.uniform(0.7, 1.3)
    shade = 1 + 0.06 * sample(_smooth_noise(rng, (_TEXEL, _TEXEL), 0.6), 8, 8)
    return base, shade


def _glass(rng: np.random.Generator, u: np.ndarray, v: np.ndarray, sample: _Sampler
           ) -> tuple[np.ndarray, np.ndarray]:
    """A glass top: dark, with broad soft reflections of a window and a floor seen through it."""
    base = np.full(3, rng.uniform(30, 70)) + rng.normal(0, 6, 3)
    reflection = np.clip(np.sin(u * rng.uniform(0.05, 0.15) + rng.uniform(0, 6)), 0, 1) ** 4
    shade = 1 + 1.8 * reflection + 0.25 * sample(_smooth_noise(rng, (_TEXEL, _TEXEL), 20), 0.3,
                                                 0.3)
    return base, shade


def _newspaper(rng: np.random.Generator, u: np.ndarray, v: np.ndarray, sample: _Sampler
               ) -> tuple[np.ndarray, np.ndarray]:
    """Newspaper: grey paper, columns of text lines (rows of dark dashes) and a few headlines,
    lines as straight and regular as a board's."""
    base = np.full(3, rng.uniform(180, 225)) + np.array([-8, 0, 4]) + rng.normal(0, 4, 3)
    line_pitch = rng.uniform(0.25, 0.45)  # cells
    column_width = rng.uniform(3, 5)
    in_line = ((v / line_pitch) % 1.0) < 0.55
    gutter = ((u / column_width) % 1.0) > 0.93
    words = sample(_smooth_noise(rng, (_TEXEL, _TEXEL), 0.8), 6.0, 1.0 / line_pitch) > -0.3
    headline = ((v / (line_pitch * 14)) % 1.0) < 0.08
    ink = (in_line & words & ~gutter) | (headline & ~gutter)
    shade = np.where(ink, 0.45, 1.0) + 0.03 * sample(_smooth_noise(rng, (_TEXEL, _TEXEL), 6), 1, 1)
    return base, shade


def _checked_cloth(rng: np.random.Generator, u: np.ndarray, v: np.ndarray, sample: _Sampler
                   ) -> tuple[np.ndarray, np.ndarray]:
    """A checked (gingham) cloth: a grid of its own, at a pitch near a board's squares."""
    base = _surface_colour(rng) * 0.6 + np.array(
        [[40, 40, 160], [150, 60, 30], [40, 120, 40]][int(rng.integers(3))]) * 0.5
    pitch = rng.uniform(0.6, 2.5)
    bands = ((np.floor(u / pitch) + 0) % 2) + ((np.floor(v / pitch) + 0) % 2)
    weave = np.sin(u * 25) * np.sin(v * 25)
    shade = 1.45 - 0.4 * bands + 0.04 * weave
    return base, shade


MORE_TABLE_SHADES: dict[str, Callable[..., tuple[np.ndarray, np.ndarray]]] = {
    "felt": _felt, "glass": _glass, "newspaper": _newspaper, "pattern": _checked_cloth,
    "clutter": lambda rng, u, v, sample: (_surface_colour(rng), 1 + 0.04 * sample(
        _smooth_noise(rng, (_TEXEL, _TEXEL), 12), 0.5, 0.5)),
}
"""The shading of :data:`lab.render.options.MORE_TABLES`: (base colour, shade over the image)."""


def _papers(table: np.ndarray, rng: np.random.Generator, wx: np.ndarray, wy: np.ndarray) -> None:
    """Papers, books and a board game's box strewn on the table: straight edges and corners
    everywhere, beside the board (each is a rectangle in world cells)."""
    for _ in range(int(rng.integers(5, 12))):
        angle = rng.uniform(0, math.pi)
        centre = np.array([SIZE / 2, SIZE / 2]) + rng.uniform(-1, 1, 2) * (SIZE / 2 + 10)
        half = rng.uniform(2, 8, 2)
        dx, dy = wx - centre[0], wy - centre[1]
        along = np.abs(dx * math.cos(angle) + dy * math.sin(angle))
        across = np.abs(-dx * math.sin(angle) + dy * math.cos(angle))
        inside = (along < half[0]) & (across < half[1])
        colour = rng.uniform(40, 240, 3) if rng.random() < 0.5 else np.full(3, rng.uniform(
            200, 245))
        table[inside] = colour.astype(np.float32)
        if rng.random() < 0.5:  # a printed page: lines of text
            lines = inside & ((across % 0.4) < 0.15) & (along < half[0] * 0.85)
            table[lines] *= 0.5


__all__ = ["board_texture", "table_image"]
