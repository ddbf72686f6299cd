"""The flat things in a scene, drawn top-down: the board's face (material and cells) and the
table around it.

The board's face is one image of the plate seen from straight above, ``ppc`` pixels a cell,
with its hexagonal outline as an alpha mask; the scene warps it into the photo through the
camera. The table is worked out per photo pixel from where that pixel sees the table's plane,
so its pattern recedes with the perspective as a real table's does.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from lab.hexrender.layout import SQRT3, cell_centres, hexagon, outer_radius
from lab.hexrender.options import HexRenderOptions


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], blur: float) -> np.ndarray:
    """Gaussian noise blurred by ``blur`` pixels, rescaled to unit spread."""
    noise = rng.normal(0, 1, shape).astype(np.float32)
    smooth = np.asarray(cv2.GaussianBlur(noise, (0, 0), blur), dtype=np.float32)
    return smooth / max(float(smooth.std()), 1e-6)


def _wood(base: np.ndarray, u: np.ndarray, v: np.ndarray, rng: np.random.Generator,
          contrast: float, rings: bool) -> np.ndarray:
    """Wood: fine streaks along the grain (u), wavering; growth rings as curved bands when
    ``rings``, else straight ones. ``u``, ``v`` are world coordinates along and across."""
    texel = 256
    warp = cv2.remap(smooth_noise(rng, (texel, texel), 9), (u * 3) % texel, (v * 3) % texel,
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    if rings:
        centre = rng.uniform(8, 20)
        across = np.hypot(v - centre, (u - rng.uniform(-6, 6)) * 0.25) + 0.35 * warp
        bands = np.sin(across * rng.uniform(3.0, 6.0))
    else:
        bands = np.sin((v + 0.25 * warp) * rng.uniform(4.0, 9.0))
    streaks = cv2.remap(smooth_noise(rng, (texel, texel), 1.2), (u * 1.5) % texel,
                        (v * 24 + 2 * warp) % texel, cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_WRAP)
    bands = bands.astype(np.float32)
    shade = 1 + contrast * (0.55 * np.sign(bands) * np.sqrt(np.abs(bands)) + 0.45 * streaks)
    return shade[:, :, None] * base.astype(np.float32)


PAINTS = {
    "cream": (200, 225, 236), "white": (236, 236, 232), "sage": (140, 172, 142),
    "navy": (92, 52, 32), "brick": (52, 62, 150), "grey": (150, 152, 150),
    "black": (38, 36, 36), "sea": (182, 140, 72), "sand": (150, 196, 222),
}
INKS = {"black": (25, 25, 25), "brown": (30, 50, 80), "white": (235, 238, 238),
        "gold": (60, 170, 205)}


def _material(options: HexRenderOptions, u: np.ndarray, v: np.ndarray,
              rng: np.random.Generator) -> tuple[np.ndarray, dict[str, object]]:
    """The bare material over world coordinates (u, v), and what its cells should look like."""
    shape = u.shape
    notes: dict[str, object] = {}
    if options.material in ("oak", "walnut", "ring-wood"):
        base = {"oak": np.array([105, 165, 212]), "walnut": np.array([48, 74, 108]),
                "ring-wood": np.array([80, 138, 190])}[options.material]
        base = base * rng.uniform(0.85, 1.12) + rng.normal(0, 6, 3)
        face = _wood(base, u, v, rng, 0.16 if options.material == "walnut" else 0.12,
                     rings=options.material == "ring-wood")
        notes["ink"] = "brown" if options.material != "walnut" else "gold"
    elif options.material == "painted":
        name = str(rng.choice(list(PAINTS)))
        base = np.array(PAINTS[name]) * rng.uniform(0.92, 1.06)
        mottle = cv2.resize(rng.normal(0, 1, (20, 20)).astype(np.float32), shape[::-1],
                            interpolation=cv2.INTER_CUBIC)
        face = (1 + 0.02 * mottle)[:, :, None] * base.astype(np.float32)
        notes["ink"] = "white" if base.mean() < 110 else str(rng.choice(["black", "brown"]))
        notes["paint"] = name
    elif options.material == "cardboard":
        name = str(rng.choice(["sea", "sand", "white", "sage", "cream"]))
        base = np.array(PAINTS[name]) * rng.uniform(0.9, 1.05)
        texel = 128
        waves = cv2.remap(smooth_noise(rng, (texel, texel), 4), (u * 4) % texel,
                          (v * 4) % texel, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
        grain = rng.normal(0, 1, shape).astype(np.float32)
        face = (1 + 0.06 * waves + 0.02 * grain)[:, :, None] * base.astype(np.float32)
        notes["ink"] = str(rng.choice(["black", "brown", "white"]))
        if rng.random() < 0.5:  # cells printed in a colour of their own
            fill = str(rng.choice([key for key in ("sand", "cream", "white", "sage")
                                   if key != name]))
            notes["cell_fill"] = np.array(PAINTS[fill]) * rng.uniform(0.92, 1.04)
        notes["frame_line"] = rng.random() < 0.6
        notes["paint"] = name
    else:  # dark plastic: charcoal, lighter than a black stone, darker than anything else
        base = np.array([64, 62, 60]) * rng.uniform(0.85, 1.25) + rng.normal(0, 4, 3)
        face = np.empty((*shape, 3), np.float32)
        face[:] = base
        face *= (1 + 0.015 * rng.normal(0, 1, shape).astype(np.float32))[:, :, None]
        notes["ink"] = "white"
    if options.material == "painted":
        notes["frame_line"] = rng.random() < 0.4
    return face, notes


def _hex_outlines(size: int, ppc: int, origin: float, width: float) -> np.ndarray:
    """A mask (0-1) of every cell's hexagon outline, ``width`` cells wide."""
    extent = int(round(2 * origin * ppc))
    mask = np.zeros((extent, extent), np.uint8)
    corner = hexagon(1 / SQRT3)  # a flat-topped hexagon; a cell is pointy-topped
    pointy = corner[:, ::-1]
    shift = 4
    for x, y in cell_centres(size).values():
        outline = (pointy + [x, y] + origin) * ppc
        cv2.polylines(mask, [np.round(outline * (1 << shift)).astype(np.int32)], True, 255,
                      max(1, int(round(width * ppc))), cv2.LINE_AA, shift=shift)
    return mask.astype(np.float32) / 255


def _cup(ppc: int, radius: float, light: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One round hollow, seen from above: a shade factor and where it lies (both 0-1 images
    ``ppc`` square). Its wall nearer the light is in shade, the far wall lit."""
    half = ppc / 2
    ys, xs = np.mgrid[0:ppc, 0:ppc].astype(np.float32)
    dx, dy = (xs + 0.5 - half) / (radius * ppc), (ys + 0.5 - half) / (radius * ppc)
    rho = np.hypot(dx, dy)
    inside = np.clip((1.0 - rho) * radius * ppc + 0.5, 0, 1)
    slope = np.clip(rho, 0, 1) ** 3  # the wall steepens towards the rim
    facing = (dx * light[0] + dy * light[1]) / np.maximum(rho, 1e-6)
    shade = 1 - 0.12 - 0.32 * slope * facing
    rim = np.exp(-((rho - 1) * radius * ppc / max(1.0, 0.03 * ppc)) ** 2)
    shade = shade * inside + (1 - inside) + 0.15 * rim
    return shade.astype(np.float32), inside.astype(np.float32)


def board_face(options: HexRenderOptions, size: int, ppc: int, light: np.ndarray,
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, float]:
    """The board's face seen from straight above: (BGR float image, alpha, half its side in
    cells). Pixel (i, j) shows world point ((j + 0.5) / ppc - half, (i + 0.5) / ppc - half)."""
    grid_radius = outer_radius(size)
    plate = grid_radius + options.margin
    half = plate + 0.1
    extent = int(round(2 * half * ppc))
    coords = (np.arange(extent, dtype=np.float32) + 0.5) / ppc - half
    x, y = np.meshgrid(coords, coords)
    grain = rng.uniform(0, math.pi)
    u = (x * math.cos(grain) + y * math.sin(grain)).astype(np.float32)
    v = (-x * math.sin(grain) + y * math.cos(grain)).astype(np.float32)
    face, notes = _material(options, u, v, rng)
    ink = np.array(INKS[str(notes["ink"])], np.float32)
    fill = notes.get("cell_fill")
    if isinstance(fill, np.ndarray):
        cells = np.zeros((extent, extent), np.uint8)
        pointy = hexagon(1 / SQRT3)[:, ::-1]
        for cx, cy in cell_centres(size).values():
            outline = np.round((pointy * 0.97 + [cx, cy] + half) * ppc * 16).astype(np.int32)
            cv2.fillConvexPoly(cells, outline, 255, cv2.LINE_AA, shift=4)
        share = (cells.astype(np.float32) / 255)[:, :, None]
        face = face * (1 - share) + (face / face.reshape(-1, 3).mean(axis=0)) * fill * share
    if options.cell_style == "engraved":
        width = float(rng.uniform(0.04, 0.08))
        groove = _hex_outlines(size, ppc, half, width)
        lip = np.roll(groove, (int(round(-light[1] * width * ppc * 0.7)),
                               int(round(-light[0] * width * ppc * 0.7))), (0, 1))
        face = face * (1 - 0.55 * groove)[:, :, None] + 45 * np.clip(lip - groove, 0, 1)[
            :, :, None]
    elif options.cell_style == "printed":
        width = float(rng.uniform(0.02, 0.05))
        lines = _hex_outlines(size, ppc, half, width)[:, :, None]
        face = face * (1 - 0.9 * lines) + ink * 0.9 * lines
    else:
        radius = float(rng.uniform(0.36, 0.43)) * max(1.0, options.stone_size / 0.8)
        radius = min(radius, 0.45)
        shade, _ = _cup(ppc, radius, light)
        factor = np.ones((extent, extent), np.float32)
        for cx, cy in cell_centres(size).values():
            x0 = int(round((cx + half) * ppc - ppc / 2))
            y0 = int(round((cy + half) * ppc - ppc / 2))
            factor[y0:y0 + ppc, x0:x0 + ppc] *= shade
        face = face * factor[:, :, None]
    if notes.get("frame_line"):
        line = np.zeros((extent, extent), np.uint8)
        frame = (hexagon(grid_radius + min(0.25, options.margin * 0.4)) + half) * ppc
        cv2.polylines(line, [np.round(frame * 16).astype(np.int32)], True, 255,
                      max(1, int(round(0.04 * ppc))), cv2.LINE_AA, shift=4)
        share = (line.astype(np.float32) / 255)[:, :, None]
        face = face * (1 - 0.85 * share) + ink * 0.85 * share
    alpha = np.zeros((extent, extent), np.uint8)
    plate_outline = (hexagon(plate) + half) * ppc
    cv2.fillConvexPoly(alpha, np.round(plate_outline * 16).astype(np.int32), 255, cv2.LINE_AA,
                       shift=4)
    # A bevelled rim: lit on the side facing the light, darker on the other.
    rim = np.zeros((extent, extent), np.float32)
    for i in range(6):
        a, b = plate_outline[i], plate_outline[(i + 1) % 6]
        normal = np.array([(b - a)[1], -(b - a)[0]]) / max(float(np.linalg.norm(b - a)), 1e-9)
        level = float(-normal @ light[:2]) * 0.5
        cv2.line(rim, tuple(int(v) for v in a), tuple(int(v) for v in b), level,
                 max(1, int(round(0.06 * ppc))), cv2.LINE_AA)
    face = face * (1 + 0.35 * rim[:, :, None])
    return face.astype(np.float32), alpha.astype(np.float32) / 255, half


def table(options: HexRenderOptions, wx: np.ndarray, wy: np.ndarray, in_front: np.ndarray,
          rng: np.random.Generator) -> np.ndarray:
    """The table's colour at each pixel, from the world point (wx, wy) it shows."""
    angle = rng.uniform(0, math.pi)
    u = (math.cos(angle) * wx + math.sin(angle) * wy).astype(np.float32)
    v = (-math.sin(angle) * wx + math.cos(angle) * wy).astype(np.float32)
    texel = 256

    def sample(noise: np.ndarray, scale_u: float, scale_v: float) -> np.ndarray:
        return cv2.remap(noise, (u * scale_u) % texel, (v * scale_v) % texel, cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_WRAP)

    def surface_colour() -> np.ndarray:
        if rng.random() < 0.3:
            return rng.uniform(40, 215, 3)
        return np.full(3, rng.uniform(60, 225)) + rng.normal(0, 12, 3)

    kind = options.table
    if kind == "wood":
        base = np.array([55, 100, 150]) * rng.uniform(0.55, 1.25) + rng.normal(0, 8, 3)
        surface = _wood(base, u, v, rng, 0.14, rings=rng.random() < 0.4)
        plank = rng.uniform(4, 9)
        seams = np.abs(((v / plank) % 1.0) - 0.5) > 0.492
        surface[seams] *= 0.55
    elif kind == "cloth":
        base = surface_colour()
        weave = np.sin(u * 30) * np.sin(v * 30)
        shade = 1 + 0.05 * weave + 0.08 * sample(smooth_noise(rng, (texel, texel), 8), 1, 1)
        surface = shade[:, :, None] * base.astype(np.float32)
    elif kind == "checked-cloth":
        base = surface_colour()
        other = np.array([235, 235, 235]) if rng.random() < 0.7 else surface_colour()
        check = rng.uniform(1.0, 3.0)
        a = (np.floor(u / check) % 2).astype(np.float32)
        b = (np.floor(v / check) % 2).astype(np.float32)
        mix = ((a + b) / 2)[:, :, None]
        surface = (base * (1 - mix) + other * mix).astype(np.float32)
        surface *= (1 + 0.04 * np.sin(u * 30) * np.sin(v * 30))[:, :, None]
    elif kind == "stone":
        base = np.full(3, rng.uniform(80, 200)) + rng.normal(0, 10, 3)
        shade = 1 + 0.12 * sample(smooth_noise(rng, (texel, texel), 0.7), 6, 6) + 0.1 * sample(
            smooth_noise(rng, (texel, texel), 10), 1, 1)
        surface = shade[:, :, None] * base.astype(np.float32)
    elif kind == "tiles":
        base = surface_colour()
        step = rng.uniform(3, 7)
        grout = (np.abs(((u / step) % 1.0) - 0.5) > 0.485) | (
            np.abs(((v / step) % 1.0) - 0.5) > 0.485)
        shade = 1 + 0.03 * sample(smooth_noise(rng, (texel, texel), 10), 1, 1)
        surface = shade[:, :, None] * base.astype(np.float32)
        surface[grout] = surface[grout] * 0.6 + 40
    else:
        base = surface_colour()
        shade = 1 + 0.04 * sample(smooth_noise(rng, (texel, texel), 12), 0.5, 0.5)
        surface = shade[:, :, None] * base.astype(np.float32)
    far = ~in_front | (np.hypot(wx, wy) > 150)
    surface[far] = (surface_colour() * 0.6 + 70).astype(np.float32)
    return surface.astype(np.float32)


__all__ = ["INKS", "PAINTS", "board_face", "smooth_noise", "table"]
