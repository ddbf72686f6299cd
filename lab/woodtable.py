"""A rendered board laid on a wooden table with strong grain and plank seams.

Why: the board finder looks for two families of equally spaced straight lines, and a plank table
is made of exactly that: seams a few cells apart, and grain running along them. Photos of boards
on such tables were refused as "no Scrabble board found" (issue 33) though :mod:`lab.render`'s own
wood is mild. This helper takes a render (:func:`lab.render.render_board_photo`) and replaces its
table by procedural wood, drawn in the board's own plane so that it recedes with the same
perspective: grain scale, contrast, plank width and the planks' angle to the board are the knobs.
It lives beside the renderer, not inside it, and only paints around the board, so the board, its
tiles and their truth are the render's, untouched.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from lab.eval_corners import expected_corners
from lab.render import RenderedPhoto, RenderOptions, random_position, render_board_photo
from referee.cells import SIZE
from vision.board.locate import grow_corners
from vision.board.rectify import grid_homography
from vision.board.tuning import CONFIG


@dataclass(frozen=True)
class WoodTable:
    """What a plank table looks like, in cells of the board lying on it."""

    plank_cells: float = 2.5  # a plank's width
    angle_deg: float = 0.0  # the planks' direction against the board's rows (0: along them)
    grain_cells: float = 0.25  # period of the grain lines across a plank
    grain_contrast: float = 0.35  # relative brightness swing of the grain
    seam_cells: float = 0.06  # width of the dark gap between planks
    seam_darkness: float = 0.35  # a seam's brightness against the wood beside it
    colour: tuple[int, int, int] = (60, 110, 165)  # BGR, a mid oak
    joints: bool = True  # planks end now and then: short seams across them

    @classmethod
    def random(cls, rng: np.random.Generator, **changes: object) -> WoodTable:
        """A plausible plank table, from fine pale grain to coarse dark boards."""
        base = np.array([60, 110, 165]) * rng.uniform(0.55, 1.25) + rng.normal(0, 10, 3)
        values = dict(
            plank_cells=float(rng.uniform(1.2, 5.0)),
            angle_deg=float(rng.choice([0.0, 90.0, float(rng.uniform(0, 180))])),
            grain_cells=float(rng.uniform(0.08, 0.6)),
            grain_contrast=float(rng.uniform(0.15, 0.5)),
            seam_cells=float(rng.uniform(0.03, 0.12)),
            seam_darkness=float(rng.uniform(0.2, 0.6)),
            colour=tuple(int(v) for v in np.clip(base, 20, 235)),
            joints=bool(rng.random() < 0.7),
        )
        values.update(changes)
        return cls(**values)  # type: ignore[arg-type]


def wood_texture(table: WoodTable, u: np.ndarray, v: np.ndarray,
                 rng: np.random.Generator) -> np.ndarray:
    """The wood's BGR at table coordinates ``u`` (along the planks) and ``v`` (across), in cells.

    Grain: lines along each plank, their phase wandering slowly with ``u`` (so they are long and
    nearly straight, as sawn grain is), a different phase and shade per plank. Seams: dark lines
    every ``plank_cells`` across, and, with ``joints``, a short one across each plank now and then.
    """
    plank = np.floor(v / table.plank_cells)
    # One pseudo-random number per plank (a hash of its index), to shade and shift each plank.
    hashed = (np.sin(plank * 12.9898 + 4.1414) * 43758.5453) % 1.0
    # The grain's phase wanders slowly along the plank and faster across it: long, nearly
    # straight lines that now and then bend round a knot.
    wander = 0.5 * _smooth_field(rng, u / 4, v, scale=2.0) + 0.1 * _smooth_field(rng, u, v, 1.0)
    phase = 2 * math.pi * (v / table.grain_cells + wander + 7 * hashed)
    grain = np.sin(phase) + 0.4 * np.sin(2.3 * phase + 1.0)
    shade = 1 + table.grain_contrast * grain / 1.4 + 0.18 * (hashed - 0.5)
    across = v / table.plank_cells - plank  # 0..1 across the plank
    half_seam = table.seam_cells / table.plank_cells / 2
    seam = (across < half_seam) | (across > 1 - half_seam)
    if table.joints:
        length = 6.0 + 8.0 * hashed  # plank lengths differ from plank to plank
        along = (u + 31.0 * hashed) / length
        seam |= np.abs(along - np.round(along)) * length < table.seam_cells / 2
    shade = np.where(seam, shade * table.seam_darkness, shade)
    return shade[..., None].astype(np.float32) * np.array(table.colour, np.float32)


def _smooth_field(rng: np.random.Generator, u: np.ndarray, v: np.ndarray,
                  scale: float) -> np.ndarray:
    """A smooth random field of unit size, varying over about ``scale`` cells."""
    side = 64
    blurred = cv2.GaussianBlur(rng.normal(0, 1, (side, side)).astype(np.float32), (0, 0), 2)
    noise = (blurred / max(float(blurred.std()), 1e-6)).astype(np.float32)
    x = (u / scale * 4).astype(np.float32) % side
    y = (v / scale * 4).astype(np.float32) % side
    return cv2.remap(noise, x, y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)


def on_wood(photo: RenderedPhoto, table: WoodTable, seed: int = 0) -> np.ndarray:
    """``photo``'s image with the table around the board replaced by ``table``'s wood.

    The wood lies in the board's plane (the grid's own homography), so it recedes as the board
    does; the board is kept out to its frame plus a tenth of a cell (its side), from the render's
    ``frame_width``. Renders with loose tiles or a rack lose them to the wood: render without.
    The wood gets the photo's noise level and a slight softness, so it is not sharper than the
    board beside it.
    """
    image = photo.image
    height, width = image.shape[:2]
    rng = np.random.default_rng(seed)
    to_photo = grid_homography(photo.corners)
    to_grid = np.linalg.inv(to_photo)
    xs, ys = np.meshgrid(np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64))
    w = to_grid[2, 0] * xs + to_grid[2, 1] * ys + to_grid[2, 2]
    in_front = w > 1e-9
    safe = np.where(in_front, w, 1.0)
    gx = (to_grid[0, 0] * xs + to_grid[0, 1] * ys + to_grid[0, 2]) / safe
    gy = (to_grid[1, 0] * xs + to_grid[1, 1] * ys + to_grid[1, 2]) / safe
    angle = math.radians(table.angle_deg)
    u = math.cos(angle) * gx + math.sin(angle) * gy
    v = -math.sin(angle) * gx + math.cos(angle) * gy
    wood = wood_texture(table, u, v, rng)
    # Far off, or behind the camera: the table fades to a wall.
    far = ~in_front | (np.hypot(gx - SIZE / 2, gy - SIZE / 2) > 80)
    wood[far] = np.array(table.colour, np.float32) * 0.5
    wood = cv2.GaussianBlur(wood, (0, 0), 0.8)
    wood += rng.normal(0, photo.options.noise, wood.shape).astype(np.float32)
    half = SIZE / 2 + photo.options.frame_width + 0.1
    outline = np.array([[SIZE / 2 - half, SIZE / 2 - half], [SIZE / 2 + half, SIZE / 2 - half],
                        [SIZE / 2 + half, SIZE / 2 + half], [SIZE / 2 - half, SIZE / 2 + half]])
    board = cv2.perspectiveTransform(outline.reshape(-1, 1, 2), to_photo).reshape(-1, 2)
    mask = np.zeros((height, width), np.uint8)
    cv2.fillConvexPoly(mask, np.round(board * 16).astype(np.int32), 255, cv2.LINE_AA, shift=4)
    keep = (mask.astype(np.float32) / 255)[..., None]
    out = image.astype(np.float32) * keep + wood * (1 - keep)
    return np.clip(out, 0, 255).astype(np.uint8)


def board_on_planks(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A random game rendered (no hand, glare or shadow) on a random plank table, 1600x1200, and
    the corners the finder should give (the grid's outer edge): ``python -m bench wood``'s
    boards."""
    rng = np.random.default_rng(seed)
    tiles = random_position(rng, words=int(rng.integers(0, 20)))
    options = RenderOptions.random(np.random.default_rng(seed), clutter=0, rack=False,
                                   hand=False, glare=0.0, shadow=0.0,
                                   blur=float(rng.uniform(0, 0.8)))
    photo = render_board_photo(tiles, seed=seed, width=1600, height=1200, options=options)
    image = on_wood(photo, WoodTable.random(np.random.default_rng(seed + 1000)), seed)
    expected = grow_corners(expected_corners([tuple(c) for c in photo.corners],
                                             photo.orientation), CONFIG.border_half_width_cells)
    return image, expected


__all__ = ["WoodTable", "board_on_planks", "on_wood", "wood_texture"]
