"""The flat textures of a render: the board top-down (frame, grid, premium squares and their
words) and the table under it."""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from lab.render.camera import Camera
from lab.render.options import BOARD_STYLES, PREMIUM_LAYOUT, PREMIUM_WORDS, RenderOptions
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


def board_texture(options: RenderOptions, cell_px: int, margin_px: int,
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


__all__ = ["board_texture", "table_image"]
