"""A photo of a hexhex board with stones on a table, rendered from a seed: truth for free.

No real photos of hex boards with stones exist to check the reader on, so every figure about it
comes from renders, and their truth is exact: which stone lies on which cell, and where the
playing area's six corners are in the picture. A render is a small 3-D scene seen through a
pinhole camera (:mod:`lab.hexrender.camera`): a hexagonal plate with marked cells lying on a
table, stones standing on it and beside it, one lamp and the room's light, then a phone's
faults (blur, noise, JPEG).

The truth follows FORMATS.md's reading of a hexhex photo: the board edge nearest the top of the
picture is line ``a``, and the corners go clockwise from that edge's left end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from lab.hexrender.camera import Camera, place_camera, world_xy
from lab.hexrender.colours import set_colours, stone_colour
from lab.hexrender.layout import cell_centres, hexagon, outer_radius, turned_cells
from lab.hexrender.options import GLOSSY, HexRenderError, HexRenderOptions
from lab.hexrender.positions import random_position
from lab.hexrender.stones import Stone, draw_shadows, draw_stone
from lab.hexrender.surfaces import board_face, table
from referee.hexboard import MAX_SIZE, MIN_SIZE, PALETTE, HexBoard


@dataclass(frozen=True, eq=False)
class HexTruth:
    """What a render shows: the board as the reader should report it and where it lies.

    ``board`` is in reading order (line ``a`` along the edge nearest the top of the photo);
    ``corners`` are the playing area's six corners in photo pixels, clockwise from that edge's
    left end (the playing area is the hexagon through the edge cells' outer tips).
    """

    board: HexBoard
    corners: np.ndarray
    seed: int
    options: HexRenderOptions
    shape: tuple[int, int]

    @property
    def size(self) -> int:
        return self.board.size

    def sidecar(self, photo_name: str = "render.jpg") -> str:
        """The ``<photo>.txt`` truth file: ``#`` header lines, then the board text (so
        ``HexBoard.parse`` reads the file as it is)."""
        o = self.options
        height, width = self.shape
        corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in self.corners)
        header = [
            f"# source: tileref lab.hexrender (seed {self.seed})",
            f"# photo: {photo_name}  ({width}x{height} px)",
            f"# board: hexhex, side {self.size}, {len(self.board)} stones (rendered)",
            f"# notes: {o.material} board, {o.cell_style} cells, {o.stone_style} stones, "
            f"{o.table} table; tilt {o.tilt:.0f} deg, turned {o.turn:.0f} deg; light: "
            f"{', '.join(o.lighting())}",
            "# corners_px (the playing area's six corners, clockwise from the left end of the "
            f"edge nearest the photo's top, which is line a): {corners}",
            "# truth_by: renderer (exact)",
        ]
        return "\n".join(header) + "\n" + self.board.text()


def _stream(seed: int, *keys: int) -> np.random.Generator:
    return np.random.default_rng([seed, *keys])


def _with_z(points: np.ndarray, z: float) -> np.ndarray:
    return np.column_stack([points, np.full(len(points), z)])


def _fill(image: np.ndarray, polygon: np.ndarray, colour: tuple[float, ...]) -> None:
    cv2.fillConvexPoly(image, np.round(polygon * 16).astype(np.int32), colour, cv2.LINE_AA,
                       shift=4)


def reading_turn(corners: np.ndarray) -> int:
    """Which edge (0 the top one, then clockwise) of the upright board's hexagon lies nearest
    the top of the photo: the reading turns the board back by that many sixths."""
    middles = [(corners[i, 1] + corners[(i + 1) % 6, 1]) / 2 for i in range(6)]
    return int(np.argmin(middles))


def _cast(warmth: float) -> np.ndarray:
    """The light's colour the camera left uncorrected, as BGR gains."""
    if warmth >= 0:
        return np.array([1 - 0.3 * warmth, 1 - 0.04 * warmth, 1 + 0.12 * warmth])
    cold = -warmth
    return np.array([1 + 0.18 * cold, 1 + 0.02 * cold, 1 - 0.2 * cold])


def _board_sides(image: np.ndarray, camera: Camera, plate: np.ndarray, thickness: float,
                 colour: np.ndarray, light: np.ndarray) -> None:
    """The plate's visible edges, the far ones first."""
    top, bottom = _with_z(plate, 0.0), _with_z(plate, thickness)
    for i in range(6):
        j = (i + 1) % 6
        middle = (top[i] + top[j]) / 2
        normal = middle[:2] / max(float(np.linalg.norm(middle[:2])), 1e-9)
        if float(normal @ (camera.centre[:2] - middle[:2])) <= 0:
            continue
        lit = 0.5 + 0.3 * max(0.0, float(normal @ light[:2]))
        quad = np.array([top[i], top[j], bottom[j], bottom[i]])
        _fill(image, camera.project(quad), tuple(float(c) for c in colour * lit))


def render_scene(seed: int, size: int = 7, *, options: HexRenderOptions | None = None,
                 position: HexBoard | None = None, width: int = 1600,
                 height: int = 1200) -> tuple[np.ndarray, HexTruth]:
    """A photo (BGR ``uint8``) of a side-``size`` board and its truth; the same arguments give
    the same pixels. Without ``options`` or ``position`` the seed draws them
    (:meth:`HexRenderOptions.random`, :func:`random_position`); ``position`` is given upright,
    as the board lies in the world before the camera turns it."""
    if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise HexRenderError(f"size must be {MIN_SIZE} to {MAX_SIZE}, not {size!r}")
    if not (64 <= width <= 8000 and 64 <= height <= 8000):
        raise HexRenderError(f"image size must be 64 to 8000 pixels a side, not {width}x{height}")
    seed = int(seed) % (1 << 63)
    if options is None:
        options = HexRenderOptions.random(_stream(seed, 0))
    if position is None:
        position = random_position(_stream(seed, 1), size)
    if position.size != size:
        raise HexRenderError(f"the position is of side {position.size}, the board of {size}")
    rng = _stream(seed, 2)
    grid_radius = outer_radius(size)
    plate_radius = grid_radius + options.margin
    plate = hexagon(plate_radius)
    outline = np.vstack([_with_z(plate, 0.0), _with_z(plate, options.thickness)])
    camera = place_camera(tilt=options.tilt, turn=options.turn, roll=options.roll,
                          field_of_view=options.field_of_view, fill=options.fill,
                          offset=options.offset, width=width, height=height, outline=outline)
    corners = camera.project(_with_z(hexagon(grid_radius), 0.0))
    cell_px = float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1))
                    ) / grid_radius

    # The light: a lamp beside the board (its direction changes over the board) or a window.
    angle = rng.uniform(0, 2 * math.pi)
    if options.lamp:
        reach = plate_radius * rng.uniform(0.6, 1.6)
        lamp = np.array([reach * math.cos(angle), reach * math.sin(angle), -options.lamp_height])
    else:
        elevation = rng.uniform(math.radians(45), math.radians(75))
        lamp = np.array([math.cos(angle) * math.cos(elevation) * 1e4,
                         math.sin(angle) * math.cos(elevation) * 1e4,
                         -math.sin(elevation) * 1e4])

    def light_at(x: float, y: float, z: float = 0.0) -> np.ndarray:
        direction = lamp - np.array([x, y, z])
        return direction / np.linalg.norm(direction)

    centre_light = light_at(0.0, 0.0)

    # The table, worked out at half size (it is out of focus beside the board anyway).
    step = 2
    wx, wy, in_front = world_xy(camera.plane_homography(options.thickness), width, height, step)
    surface = table(options, wx, wy, in_front, rng)
    image = np.asarray(cv2.resize(surface, (width, height), interpolation=cv2.INTER_LINEAR),
                       dtype=np.float32)

    # The board: its shadow on the table, its edges, its face.
    shadow = np.zeros((height, width), np.float32)
    lean = -centre_light[:2] / max(abs(float(centre_light[2])), 0.25)
    cast = _with_z(hexagon(plate_radius * 1.01) + lean * options.thickness * 1.5,
                   options.thickness)
    _fill(shadow, camera.project(cast), (1.0,))
    darkening = np.asarray(cv2.GaussianBlur(shadow, (0, 0), max(1.0, 0.15 * cell_px)),
                           dtype=np.float32)
    image *= (1 - 0.45 * darkening)[:, :, None]
    ppc = int(np.clip(round(cell_px * 1.1), 16, 64))
    face, alpha, half = board_face(options, size, ppc, centre_light, rng)
    side_colour = face.reshape(-1, 3)[alpha.reshape(-1) > 0.5].mean(axis=0) * 0.85
    _board_sides(image, camera, plate, options.thickness, side_colour, centre_light)
    to_world = np.array([[1 / ppc, 0, 0.5 / ppc - half], [0, 1 / ppc, 0.5 / ppc - half],
                         [0, 0, 1]])
    warp = camera.plane_homography(0.0) @ to_world
    drawn = cv2.warpPerspective(face, warp, (width, height), flags=cv2.INTER_LINEAR)
    cover = cv2.warpPerspective(alpha, warp, (width, height), flags=cv2.INTER_LINEAR)
    image[:] = image * (1 - cover[:, :, None]) + drawn * cover[:, :, None]

    # The stones: one set's shades, a few loose on the table, the rest on their cells.
    stone_rng = _stream(seed, 3)
    shades = set_colours(stone_rng)
    radius = options.stone_size / 2
    height_of = {"glass": radius * stone_rng.uniform(0.7, 0.95),
                 "matte": radius * stone_rng.uniform(0.3, 0.45),
                 "wood": radius * stone_rng.uniform(0.5, 0.8)}[options.stone_style]
    stones: list[Stone] = []
    centres = cell_centres(size)
    for cell, colour in position.stones.items():
        x, y = centres[cell]
        dx, dy = stone_rng.uniform(-1, 1, 2) * options.stone_jitter
        stones.append(Stone(x + dx, y + dy, 0.0, radius * (1 + stone_rng.normal(0, 0.01)),
                            height_of, stone_colour(shades[colour], stone_rng),
                            options.stone_style, float(stone_rng.uniform(0, math.pi)),
                            colour == "W"))
    loose: list[Stone] = []
    for _ in range(options.loose_stones):
        turn = stone_rng.uniform(0, 2 * math.pi)
        distance = plate_radius + stone_rng.uniform(0.7, 4.0)
        colour = str(stone_rng.choice(list(PALETTE)))
        loose.append(Stone(distance * math.cos(turn), distance * math.sin(turn),
                           options.thickness, radius, height_of,
                           stone_colour(shades[colour], stone_rng), options.stone_style,
                           float(stone_rng.uniform(0, math.pi)), colour == "W"))
    draw_shadows(image, camera, loose, centre_light, 0.35)
    draw_shadows(image, camera, stones, centre_light, 0.4 if options.lamp else 0.3)
    everything = loose + stones
    depth = camera.depth(np.array([[s.x, s.y, s.base - s.height] for s in everything])) \
        if everything else np.zeros(0)
    for index in np.argsort(-depth):
        stone = everything[int(index)]
        draw_stone(image, camera, stone, light_at(stone.x, stone.y, stone.base - stone.height),
                   stone_rng)

    image = _light_and_lens(image, options, camera, lamp, cover, plate_radius, cell_px,
                            _stream(seed, 4))
    sixths = reading_turn(corners)
    turned = turned_cells(size, -sixths % 6)
    board = HexBoard.from_stones({turned[cell]: colour for cell, colour in
                                  position.stones.items()}, size)
    truth = HexTruth(board, np.roll(corners, -sixths, axis=0), seed, options, (height, width))
    return image, truth


def _light_and_lens(image: np.ndarray, options: HexRenderOptions, camera: Camera,
                    lamp: np.ndarray, board: np.ndarray, plate_radius: float, cell_px: float,
                    rng: np.random.Generator) -> np.ndarray:
    """The room's light over the whole scene, glare, then the camera: exposure, colour cast,
    vignetting, blur, noise and JPEG."""
    height, width = image.shape[:2]
    step = 4
    wx, wy, _ = world_xy(camera.plane_homography(0.0), width, height, step)
    small = (wx.shape[1], wx.shape[0])
    field = np.ones((*wx.shape, 3), np.float32)
    if options.lamp:
        lift = -float(lamp[2])
        distance = np.sqrt((wx - lamp[0]) ** 2 + (wy - lamp[1]) ** 2 + lift ** 2)
        middle = math.sqrt(float(lamp[0]) ** 2 + float(lamp[1]) ** 2 + lift ** 2)
        falloff = (lift / distance ** 3) / (lift / middle ** 3)
        tint = np.array([0.9, 0.97, 1.06]) if rng.random() < 0.6 else np.ones(3)
        field = ((1 - options.lamp) + options.lamp * np.clip(falloff, 0, 2.2)[:, :, None]
                 * tint).astype(np.float32)
    if options.shadow:
        angle = rng.uniform(0, 2 * math.pi)
        anchor = rng.uniform(-0.5, 0.5, 2) * plate_radius
        across = (wx - anchor[0]) * math.cos(angle) + (wy - anchor[1]) * math.sin(angle)
        softness = rng.uniform(0.3, 1.5)
        mask = 1 / (1 + np.exp(-np.clip(across / softness, -40, 40)))
        if rng.random() < 0.5:  # the shadow of something narrow: a band, not a half-plane
            width_cells = rng.uniform(2, 5)
            mask = mask * (1 - 1 / (1 + np.exp(-np.clip((across - width_cells) / softness,
                                                         -40, 40))))
        blue = np.array([1.06, 1.0, 0.95], np.float32)  # the shade is lit by the sky's blue
        dimmed = 1 - options.shadow * 0.75 * mask[:, :, None]
        field = field * dimmed * (1 + (blue - 1) * mask[:, :, None] * options.shadow)
    if options.glare and GLOSSY[options.material] > 0:
        if options.lamp:
            mirror = np.array([lamp[0], lamp[1], -lamp[2]])
            t = -camera.centre[2] / (mirror[2] - camera.centre[2])
            spot = camera.centre[:2] + t * (mirror[:2] - camera.centre[:2])
        else:
            spot = np.array([np.inf, np.inf])
        if not np.hypot(*spot) < plate_radius:
            spot = rng.uniform(-0.6, 0.6, 2) * plate_radius
        sigma = rng.uniform(0.5, 1.6)
        near = ((wx - spot[0]) ** 2 + (wy - spot[1]) ** 2).astype(np.float32)
        boost = options.glare * GLOSSY[options.material] * (
            1.7 * np.exp(-near / (2 * sigma ** 2)) + 0.25 * np.exp(-near / (18 * sigma ** 2)))
        glare = cv2.resize(np.clip(boost, 0, 1).astype(np.float32), (width, height),
                           interpolation=cv2.INTER_LINEAR) * board
    else:
        glare = None
    # The lens darkens the frame's corners; the camera leaves the light's colour (and an
    # exposure) on everything.
    xs = (np.arange(small[0], dtype=np.float32)[None, :] + 0.5) * step
    ys = (np.arange(small[1], dtype=np.float32)[:, None] + 0.5) * step
    radius = np.hypot(xs - width / 2, ys - height / 2) / math.hypot(width / 2, height / 2)
    field = field * (1 - 0.22 * radius ** 2)[:, :, None]
    field = field * (_cast(options.warmth) * options.brightness).astype(np.float32)
    image *= cv2.resize(field.astype(np.float32), (width, height),
                        interpolation=cv2.INTER_LINEAR)
    if glare is not None:
        image += (255 * 1.15 - image) * glare[:, :, None]
    if options.blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), options.blur * max(1.0, cell_px / 60))
    if options.noise > 0:
        image += rng.standard_normal(image.shape, dtype=np.float32) * np.float32(options.noise)
    result = np.clip(image, 0, 255).astype(np.uint8)
    if options.jpeg_quality is not None:
        ok, encoded = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY,
                                                    int(options.jpeg_quality)])
        if ok:
            result = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return result


__all__ = ["HexTruth", "reading_turn", "render_scene"]
