"""One render from start to end: the camera placed, the board and its tiles, clutter and a hand
laid out, then drawn, lit and spoilt as a phone photo is."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from lab.render.camera import Camera, aim_camera
from lab.render.options import (
    ALL_BOARD_STYLES,
    ALL_TILE_COLOURS,
    LIGHT_INK_TILES,
    RenderedPhoto,
    RenderError,
    RenderOptions,
)
from lab.render.solids import Block, draw_shadows, draw_sides, draw_top, square, with_z
from lab.render.surfaces import board_texture, table_image
from lab.tileface import available_fonts, find_font, fonts_for, has_glyph, render_tile_face
from referee.boardtext import Tile
from referee.cells import SIZE, Cell
from referee.tiles import TileSet, load_tile_set
from vision import photo_cell_px
from vision.board.rectify import grid_homography


def _bgr(values: np.ndarray) -> tuple[int, int, int]:
    return int(values[0]), int(values[1]), int(values[2])


@dataclass(frozen=True)
class _Lettering:
    """How this render's tiles are lettered: the font, the ink, where the value goes."""

    font: Path | None
    ink: tuple[int, int, int] = (30, 30, 30)
    value_place: str = "corner"
    any_font: bool = False  # the font was asked for by name: any face, not only bold sans


def _tile_face(tile: Tile, tile_set: TileSet, size: int, colour: np.ndarray,
               lettering: _Lettering, rotation: int, rng: np.random.Generator) -> np.ndarray:
    letter = tile.letter
    font = lettering.font
    if lettering.any_font:
        has = font is not None and (tile.blank or has_glyph(font, letter.upper()))
    else:
        has = font is not None and (tile.blank or font in fonts_for(letter))
    return render_tile_face(
        "?" if tile.blank else letter,
        value=None if tile.blank else tile_set.value(letter),
        size=size, font=font if has else None, rotation=rotation, blank=tile.blank,
        tile_bgr=_bgr(np.clip(colour + rng.normal(0, 3, 3), 0, 255)),
        ink_bgr=lettering.ink, letter_scale=0.6, value_scale=0.25,
        value_place=lettering.value_place)


def _board_blocks(tiles: dict[Cell, Tile], options: RenderOptions, tile_set: TileSet,
                  face_px: int, colour: np.ndarray, font: _Lettering,
                  seed: int) -> list[Block]:
    blocks = []
    for cell in sorted(tiles):
        tile = tiles[cell]
        # Each tile its own stream: placing one more tile leaves every other one where it was.
        rng = _stream(seed, 2, cell.col, cell.row)
        dx, dy = rng.uniform(-1, 1, 2) * options.tile_jitter + options.tile_drift
        twist = math.radians(rng.uniform(-1, 1) * options.tile_twist)
        footprint = square((cell.col + 0.5 + dx, cell.row + 0.5 + dy), options.tile_size, twist)
        face = _tile_face(tile, tile_set, face_px, colour, font, tile.rotation or 0, rng)
        blocks.append(Block(footprint, 0.0, options.tile_height, colour * 0.82, face))
    return blocks


def _clutter_blocks(options: RenderOptions, tile_set: TileSet, face_px: int, colour: np.ndarray,
                    font: _Lettering, board_half: float, table_z: float,
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
            blocks.append(Block(square(tuple(spot), 0.95, turn + rng.normal(0, 0.03)),
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
            footprint = square(tuple(spot), options.tile_size, rng.uniform(0, 2 * math.pi))
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


def _draw_cup(image: np.ndarray, camera: Camera, rng: np.random.Generator,
              light: np.ndarray) -> np.ndarray:
    """A cup standing on the board: a cylinder 2.5 cells across and 3 tall, with its shadow,
    its side shaded round and a dark rim of coffee; returns where it hides the board."""
    height, width = image.shape[:2]
    centre = rng.uniform(1.5, SIZE - 1.5, 2)
    radius, tall = rng.uniform(1.0, 1.4), rng.uniform(2.4, 3.4)
    angles = np.linspace(0, 2 * math.pi, 48, endpoint=False)
    ring = np.column_stack([centre[0] + radius * np.cos(angles),
                            centre[1] + radius * np.sin(angles)])
    base = camera.project(with_z(ring, -0.2))
    top = camera.project(with_z(ring, -0.2 - tall))
    cast = camera.project(with_z(ring + light * tall * 0.8, -0.2))
    outline = np.zeros((height, width), np.float32)
    cv2.fillConvexPoly(outline, cv2.convexHull(np.vstack([base, cast]).astype(np.int32)), 1.0)
    shadow = cv2.GaussianBlur(outline, (0, 0), max(1.0, width * 0.004))
    image *= (1 - 0.45 * shadow)[:, :, None]
    mask = np.zeros((height, width), np.float32)
    cv2.fillConvexPoly(mask, cv2.convexHull(np.vstack([base, top]).astype(np.int32)), 1.0,
                       cv2.LINE_AA)
    colour = rng.uniform(60, 240, 3)
    xs = np.arange(width, dtype=np.float32)[None, :]
    across = np.clip((xs - base[:, 0].min()) / max(float(np.ptp(base[:, 0])), 1.0), 0, 1)
    body = colour[None, None, :] * (0.55 + 0.5 * np.sin(np.pi * across))[:, :, None]
    image[:] = image * (1 - mask[:, :, None]) + body * mask[:, :, None]
    rim = np.zeros((height, width), np.float32)
    cv2.fillConvexPoly(rim, top.astype(np.int32), 1.0, cv2.LINE_AA)
    inner = camera.project(with_z(np.column_stack([centre[0] + radius * 0.88 * np.cos(angles),
                                                   centre[1] + radius * 0.88 * np.sin(angles)]),
                                  -0.2 - tall))
    coffee = np.zeros((height, width), np.float32)
    cv2.fillConvexPoly(coffee, inner.astype(np.int32), 1.0, cv2.LINE_AA)
    image[:] = image * (1 - rim[:, :, None]) + colour * 1.05 * rim[:, :, None]
    image[:] = image * (1 - coffee[:, :, None]) + np.array([20, 35, 60]) * coffee[:, :, None]
    return np.maximum(mask, rim)


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
                   rng: np.random.Generator, camera: Camera | None = None,
                   more: np.random.Generator | None = None) -> np.ndarray:
    """What the phone and the room do to the picture, in a fixed order.

    The effects added for the stress scenes (:mod:`lab.stress`: a lamp, a washed-out far row,
    shaped shadows, defocus, motion, depth of field) draw from ``more``, a stream of their own,
    so every render made before them is unchanged.
    """
    more = more if more is not None else np.random.default_rng(0)
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
    if options.lamp:
        # A lamp over one spot near the board: light falls off with the distance from it.
        spot = board_points[int(more.integers(len(board_points)))]
        reach = np.hypot(xs - spot[0], ys - spot[1]) / math.hypot(width, height)
        image *= (1 - options.lamp * np.clip(reach * 1.6, 0, 1) ** 1.5)[:, :, None]
    if options.shadow and options.shadow_shape == "edge":
        angle = rng.uniform(0, 2 * math.pi)
        anchor = board_points[int(rng.integers(len(board_points)))]
        distance = (xs - anchor[0]) * math.cos(angle) + (ys - anchor[1]) * math.sin(angle)
        softness = max(width, height) * rng.uniform(0.01, 0.05) * options.shadow_softness
        mask = 1 / (1 + np.exp(-distance / softness))
        image *= (1 - options.shadow * 0.85 * mask)[:, :, None]
    elif options.shadow:
        mask = _shadow_shape(options, board_points, width, height, more)
        image *= (1 - options.shadow * 0.85 * mask)[:, :, None]
    image *= np.array(options.white_balance, dtype=np.float32) * options.brightness
    if options.washout:
        # Window light off the far part of the board: everything there paled towards white.
        top, bottom = board_points[:, 1].min(), board_points[:, 1].max()
        farther = np.clip((bottom - ys) / max(bottom - top, 1.0), 0, 1.3)
        wash = options.washout * np.clip(1.6 * farther - 0.9, 0, 1) ** 1.5
        image += (250 - image) * wash[:, :, None]
    if options.glare:
        centre = board_points[int(rng.integers(len(board_points)))]
        sigma = min(width, height) * rng.uniform(0.04, 0.12)
        spot = np.exp(-((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / (2 * sigma ** 2))
        halo = np.exp(-((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / (2 * (3 * sigma) ** 2))
        boost = options.glare * (1.6 * spot + 0.25 * halo)
        image += (255 * 1.2 - image) * np.clip(boost, 0, 1)[:, :, None]
    if options.depth_of_field and camera is not None:
        image = _depth_of_field(image, camera, options.depth_of_field, more)
    if options.defocus:
        image = cv2.filter2D(image, -1, _disc(options.defocus))
    if options.motion:
        image = cv2.filter2D(image, -1, streak(options.motion, options.motion_angle))
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


def _shadow_shape(options: RenderOptions, board_points: np.ndarray, width: int, height: int,
                  rng: np.random.Generator) -> np.ndarray:
    """A hard-edged shadow across the board: an arm's band reaching in from an edge of the
    photo, or a head's blob over one spot; 0 to 1 over the image."""
    mask = np.zeros((height, width), np.float32)
    target = board_points[int(rng.integers(len(board_points)))]
    span = float(np.ptp(board_points[:, 0]) + np.ptp(board_points[:, 1])) / 2
    if options.shadow_shape == "arm":
        edge = int(rng.integers(4))
        start = [(rng.uniform(0, width), height * 1.2), (-0.2 * width, rng.uniform(0, height)),
                 (rng.uniform(0, width), -0.2 * height), (width * 1.2, rng.uniform(0, height))][
            edge]
        thickness = max(2, int(span * rng.uniform(0.12, 0.2)))
        cv2.line(mask, (int(start[0]), int(start[1])), (int(target[0]), int(target[1])), 1.0,
                 thickness, cv2.LINE_AA)
        cv2.circle(mask, (int(target[0]), int(target[1])), int(thickness * 0.8), 1.0, -1,
                   cv2.LINE_AA)
    else:
        axes = (max(2, int(span * rng.uniform(0.12, 0.2))), max(2, int(span * rng.uniform(
            0.15, 0.25))))
        cv2.ellipse(mask, (int(target[0]), int(target[1])), axes, rng.uniform(0, 180), 0, 360,
                    1.0, -1, cv2.LINE_AA)
    soft = max(0.5, span * 0.006 * options.shadow_softness)
    return np.asarray(cv2.GaussianBlur(mask, (0, 0), soft), np.float32)


def _disc(radius: float) -> np.ndarray:
    """A defocused lens's point spread: a disc of ``radius`` pixels, summing to 1."""
    size = 2 * int(math.ceil(radius)) + 3
    big = np.zeros((size * 8, size * 8), np.float32)
    cv2.circle(big, (size * 4, size * 4), int(round(radius * 8)), 1.0, -1, cv2.LINE_AA)
    kernel = cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA)
    return kernel / kernel.sum()


def streak(length: float, angle: float) -> np.ndarray:
    """A shaking hand's point spread: a straight line ``length`` pixels long, summing to 1."""
    size = 2 * int(math.ceil(length / 2)) + 3
    big = np.zeros((size * 8, size * 8), np.float32)
    dx, dy = math.cos(math.radians(angle)) * length * 4, math.sin(math.radians(angle)) * length * 4
    centre = size * 4
    cv2.line(big, (int(centre - dx), int(centre - dy)), (int(centre + dx), int(centre + dy)), 1.0,
             8, cv2.LINE_AA)
    kernel = cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA)
    return kernel / kernel.sum()


def _depth_of_field(image: np.ndarray, camera: Camera, sigma: float,
                    rng: np.random.Generator) -> np.ndarray:
    """Sharp at one depth across the board, softer the further in front or behind it, up to a
    Gaussian of ``sigma`` pixels: a close, steep photo focused on one row."""
    height, width = image.shape[:2]
    step = 8
    gx, gy = np.meshgrid(np.arange(0, width, step, dtype=np.float64),
                         np.arange(0, height, step, dtype=np.float64))
    inverse = np.linalg.inv(camera.plane_homography(0.0))
    w = inverse[2, 0] * gx + inverse[2, 1] * gy + inverse[2, 2]
    w = np.where(np.abs(w) < 1e-9, 1e-9, w)
    wx = (inverse[0, 0] * gx + inverse[0, 1] * gy + inverse[0, 2]) / w
    wy = (inverse[1, 0] * gx + inverse[1, 1] * gy + inverse[1, 2]) / w
    points = np.column_stack([wx.ravel(), wy.ravel(), np.zeros(wx.size)])
    depth = camera.depth(points).reshape(gx.shape)
    board = camera.depth(np.array([[x, y, 0.0] for x in (0, SIZE) for y in (0, SIZE)]))
    focus = rng.uniform(board.min(), board.max())
    reach = max(float(board.max() - board.min()) / 2, 1e-6)
    weight = np.clip(np.abs(depth - focus) / reach, 0, 1).astype(np.float32)
    weight = np.where(w > 0, weight, 1.0).astype(np.float32)
    weight = cv2.resize(weight, (width, height), interpolation=cv2.INTER_LINEAR)
    soft = cv2.GaussianBlur(image, (0, 0), sigma)
    middle = cv2.GaussianBlur(image, (0, 0), sigma / 2)
    near = np.clip(weight * 2, 0, 1)[:, :, None]
    far = np.clip(weight * 2 - 1, 0, 1)[:, :, None]
    return image * (1 - near) + middle * (near - far) + soft * far


def _distort(image: np.ndarray, corners: np.ndarray, k1: float) -> tuple[np.ndarray, np.ndarray]:
    """Radial lens distortion: the photo seen through a lens that bends straight lines (``k1``
    < 0 barrel, > 0 pincushion), and where the grid's corners land in it.

    A pixel at radius r (a share of the half diagonal) in the distorted photo shows what lay at
    r (1 + k1 r^2) in the straight one; the corners are moved the other way, by solving that.
    """
    height, width = image.shape[:2]
    centre = np.array([width / 2, height / 2])
    norm = math.hypot(width / 2, height / 2)
    xs, ys = np.meshgrid(np.arange(width, dtype=np.float32), np.arange(height, dtype=np.float32))
    dx, dy = (xs - centre[0]) / norm, (ys - centre[1]) / norm
    factor = 1 + k1 * (dx * dx + dy * dy)
    map_x = (centre[0] + dx * factor * norm).astype(np.float32)
    map_y = (centre[1] + dy * factor * norm).astype(np.float32)
    bent = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    moved = []
    for point in corners:
        target = (point - centre) / norm
        guess = target.copy()
        for _ in range(50):  # r_d (1 + k1 r_d^2) = r_u, by fixed point
            guess = target / (1 + k1 * float(guess @ guess))
        moved.append(centre + guess * norm)
    return bent, np.array(moved)


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
    board_outline = with_z(np.array([[SIZE / 2 - half, SIZE / 2 - half],
                                      [SIZE / 2 + half, SIZE / 2 - half],
                                      [SIZE / 2 + half, SIZE / 2 + half],
                                      [SIZE / 2 - half, SIZE / 2 + half]]), 0.0)
    camera = aim_camera(options, width, height, board_outline, rng)
    grid = np.array([[0, 0, 0], [SIZE, 0, 0], [SIZE, SIZE, 0], [0, SIZE, 0]], dtype=np.float64)
    corners = camera.project(grid)
    cell_on_image = float(np.mean([np.linalg.norm(corners[i] - corners[(i + 1) % 4])
                                   for i in range(4)])) / SIZE
    cell_px = int(np.clip(round(cell_on_image * 1.3), 16, 128))
    face_px = max(12, int(round(cell_on_image * options.tile_size * 1.5)))
    light_angle = rng.uniform(0, 2 * math.pi)
    light = np.array([math.cos(light_angle), math.sin(light_angle)]) * rng.uniform(0.3, 1.0)
    board_thickness = 0.12

    image = table_image(options, camera, width, height, board_thickness, rng)
    # The board: shadow on the table, its edge, then the printed top.
    board_block = Block(board_outline[:, :2], board_thickness, board_thickness,
                        np.array(ALL_BOARD_STYLES[options.board_style].frame,
                                 dtype=np.float64) * 0.7, None)
    colour = np.array(ALL_TILE_COLOURS[options.tile_colour], dtype=np.float64) + rng.normal(0, 5,
                                                                                           3)
    fonts = available_fonts()
    font_path = fonts[int(rng.integers(len(fonts)))] if fonts else None
    if options.tile_font:
        font_path = find_font(options.tile_font)
    font = _Lettering(font_path, (235, 235, 232) if options.tile_colour in LIGHT_INK_TILES
                      else (30, 30, 30), options.value_place, bool(options.tile_font))
    clutter = _clutter_blocks(options, tile_set, face_px, colour, font, half, board_thickness,
                              rng)
    draw_shadows(image, camera, [board_block, *clutter], light, 0.45)
    draw_sides(image, camera, [board_block], light)
    margin_px = int(round(options.frame_width * cell_px))
    texture = board_texture(options, cell_px, margin_px, rng)
    to_world = np.array([[1 / cell_px, 0, 0.5 / cell_px - margin_px / cell_px],
                         [0, 1 / cell_px, 0.5 / cell_px - margin_px / cell_px],
                         [0, 0, 1]])
    warp = camera.plane_homography(0.0) @ to_world
    board = cv2.warpPerspective(texture, warp, (width, height), flags=cv2.INTER_LINEAR)
    cover = cv2.warpPerspective(np.ones(texture.shape[:2], np.float32), warp, (width, height),
                                flags=cv2.INTER_LINEAR)
    image[:] = image * (1 - cover[:, :, None]) + board * cover[:, :, None]
    # Clutter on the table.
    draw_sides(image, camera, clutter, light)
    for block in clutter:
        draw_top(image, camera, block)
    # Tiles on the board.
    blocks = _board_blocks(tiles, options, tile_set, face_px, colour, font, seed)
    draw_shadows(image, camera, blocks, light, 0.5)
    draw_sides(image, camera, blocks, light)
    tops = np.zeros((height, width), np.float32) if options.sheen else None
    for block in blocks:
        draw_top(image, camera, block, tops)
    if tops is not None:
        _sheen(image, tops, corners, options.sheen)
    covered: frozenset[Cell] = frozenset()
    masks = []
    if options.hand:
        masks.append(_draw_hand(image, camera, _stream(seed, 3), light))
    if options.cup:
        masks.append(_draw_cup(image, camera, _stream(seed, 5), light))
    if masks:
        mask = np.maximum.reduce(masks)
        centres = camera.project(np.array([[c + 0.5, r + 0.5, -options.tile_height]
                                           for r in range(SIZE) for c in range(SIZE)]))
        hidden = []
        for index, (x, y) in enumerate(centres):
            xi, yi = int(round(x)), int(round(y))
            if 0 <= xi < width and 0 <= yi < height and mask[yi, xi] > 0.5:
                hidden.append(Cell(index % SIZE, index // SIZE))
        covered = frozenset(hidden)
    board_points = camera.project(np.array([[*rng.uniform(0, SIZE, 2), 0] for _ in range(8)]))
    photo = _photo_effects(image, options, board_points, _stream(seed, 4), camera,
                           _stream(seed, 6))
    if options.distortion:
        photo, corners = _distort(photo, corners, options.distortion)
    return RenderedPhoto(photo, corners.astype(np.float64), dict(tiles), _orientation(corners),
                         seed, options, covered)


def soft_focus(image: np.ndarray, corners: np.ndarray, cols: tuple[float, float],
               rows: tuple[float, float], blur_cells: float) -> np.ndarray:
    """A copy of a photo with the part of its grid over ``cols`` x ``rows`` (grid units, 0 to
    15, reaching past the grid to take the frame too) out of focus: a Gaussian blur of
    ``blur_cells`` of the photo's median cell (:func:`vision.board.rectify.photo_cell_px`).

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


__all__ = ["SHEEN_WHITE", "render_board_photo", "soft_focus"]
