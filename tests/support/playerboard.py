"""A rendered photo of one First Draft player's board: two rows of tiles and a pool on a table."""

from __future__ import annotations

import cv2
import numpy as np

from lab.tileface import TILE_COLOURS_BGR, render_tile_face
from referee.tiles import load_tile_set

TABLES_BGR = ((40, 60, 95), (60, 90, 40), (70, 70, 75), (30, 35, 45), (95, 120, 150))
"""Dark wood, green felt, grey, near black, light oak: tables a board may lie on."""


def render_player_board(rows: tuple[str, str], pool: str, seed: int, *, tile_px: int = 72,
                        pool_beside: bool = False, turn_degrees: float | None = None,
                        quarter_turns: int = 0) -> np.ndarray:
    """A photo-like BGR image of one player's board: row 1, row 2 and the pool on a table."""
    rng = np.random.default_rng(seed)
    values = load_tile_set("english")
    colour = list(TILE_COLOURS_BGR.values())[int(rng.integers(len(TILE_COLOURS_BGR)))]
    lines: list[tuple[str, int, int]] = [(rows[0], int(tile_px * 0.9), int(tile_px * 0.6)),
                                         (rows[1], int(tile_px * 0.9), int(tile_px * 2.0))]
    if pool_beside:
        lines.append((pool, -1, int(tile_px * 2.0)))  # two tiles right of row 2's end
    else:
        lines.append((pool, int(tile_px * 0.9), int(tile_px * 3.5)))
    height = int(tile_px * 5.2)
    longest = max(len(rows[0]), len(rows[1]) + 2 + len(pool) if pool_beside else len(rows[1]),
                  len(pool))
    width = int(tile_px * (0.9 + 1.12 * longest + 0.6))
    # Room around the tiles, so that a turned photo keeps them all in the frame.
    margin = int(tile_px * 0.8)
    height, width = height + 2 * margin, width + 2 * margin
    lines = [(letters, x0 + margin if x0 >= 0 else x0, y0 + margin)
             for letters, x0, y0 in lines]
    table = np.empty((height, width, 3), np.float32)
    table[:] = TABLES_BGR[int(rng.integers(len(TABLES_BGR)))]
    grain = cv2.GaussianBlur(rng.normal(0, 18, (height, width)).astype(np.float32), (0, 0), 3)
    table += grain[:, :, None]
    row_end = 0.0
    for letters, x0, y0 in lines:
        x = float(x0) if x0 >= 0 else row_end + 2 * tile_px
        for letter in letters:
            face = render_tile_face(letter, value=values.value(letter, False), size=tile_px,
                                    tile_bgr=colour, rng=rng).astype(np.float32)
            y = y0 + int(rng.integers(-3, 4))
            shadow = table[y + 4:y + tile_px + 4, int(x) + 4:int(x) + tile_px + 4]
            shadow *= 0.6
            table[y:y + tile_px, int(x):int(x) + tile_px] = face
            x += tile_px + float(rng.choice([0, 2, 4, 7]))
        row_end = x
    image = np.clip(table, 0, 255).astype(np.uint8)
    angle = float(rng.uniform(-3, 3)) if turn_degrees is None else turn_degrees
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    width, height = int(width * cos + height * sin), int(width * sin + height * cos)
    matrix[:, 2] += (width / 2 - image.shape[1] / 2, height / 2 - image.shape[0] / 2)
    image = cv2.warpAffine(image, matrix, (width, height), borderMode=cv2.BORDER_REPLICATE)
    light = np.linspace(float(rng.uniform(0.8, 1.0)), float(rng.uniform(1.0, 1.1)), width)
    image = np.clip(image * light[None, :, None], 0, 255).astype(np.uint8)
    image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.3, 1.0)))
    noise = rng.normal(0, 3, image.shape)
    image = np.clip(image + noise, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return np.ascontiguousarray(np.rot90(image, k=-quarter_turns)) if quarter_turns else image
