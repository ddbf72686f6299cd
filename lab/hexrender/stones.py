"""Stones drawn in the photo: glass beads, matte discs and wooden pieces, with their shadows.

A stone is a short upright cylinder (a matte disc, a wooden piece) or a flat-bottomed dome (a
glass bead) standing on a plane. Its body is the hull of its base and top outlines as the camera
sees them; its top is shaded pixel by pixel from where each pixel meets the stone's top plane,
so a highlight sits where the lamp's reflection would, turning with the view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from lab.hexrender.camera import Camera

CIRCLE = np.column_stack([np.cos(np.linspace(0, 2 * math.pi, 40, endpoint=False)),
                          np.sin(np.linspace(0, 2 * math.pi, 40, endpoint=False))])


@dataclass(frozen=True)
class Stone:
    """One stone: where it stands (world x, y and the z of its base), its size and colour."""

    x: float
    y: float
    base: float
    radius: float
    height: float
    colour: np.ndarray  # BGR 0-255
    style: str  # glass, matte or wood
    grain: float = 0.0  # a wooden piece's grain direction (radians)
    bright: bool = False  # a white or pale stone: glass of it is milky, not clear


def _fill(image: np.ndarray, polygon: np.ndarray, colour: np.ndarray | tuple[float, ...]) -> None:
    cv2.fillConvexPoly(image, np.round(polygon * 16).astype(np.int32),
                       tuple(float(c) for c in colour), cv2.LINE_AA, shift=4)


def _outline(stone: Stone, z: float, radius: float) -> np.ndarray:
    points = CIRCLE * radius + [stone.x, stone.y]
    return np.column_stack([points, np.full(len(points), z)])


def draw_shadows(image: np.ndarray, camera: Camera, stones: list[Stone], light: np.ndarray,
                 strength: float) -> None:
    """Soft shadows on the surface under each stone, away from the light (``light`` points
    from the scene towards the light, in world axes: a light above has a negative z), and a
    dark contact ring at the base; glass throws a bright spot of its own colour into its
    shadow (light focused through it)."""
    if not stones:
        return
    height, width = image.shape[:2]
    mask = np.zeros((height, width), np.float32)
    glow = np.zeros((height, width, 3), np.float32)
    lean = -light[:2] / max(abs(float(light[2])), 0.25)
    for stone in stones:
        reach = lean * stone.height * 0.9
        base = _outline(stone, stone.base, stone.radius * 1.04)
        cast = _outline(stone, stone.base, stone.radius * 0.95)
        cast[:, :2] += reach
        points = camera.project(np.vstack([base, cast]))
        _fill(mask, cv2.convexHull(points.astype(np.float32)).reshape(-1, 2), (1.0,))
        if stone.style == "glass" and not stone.bright:
            spot = _outline(stone, stone.base, stone.radius * 0.45)
            spot[:, :2] += reach * 0.9 + lean / max(float(np.linalg.norm(lean)), 1e-6) * (
                stone.radius * 0.35)
            _fill(glow, camera.project(spot), stone.colour * 0.55)
    scale = float(np.linalg.norm(camera.project(np.array([[0, 0, 0], [1, 0, 0]]))[1]
                                 - camera.project(np.array([[0, 0, 0]]))[0]))
    sigma = max(0.8, 0.06 * scale)
    soft = np.asarray(cv2.GaussianBlur(mask, (0, 0), sigma))
    image *= (1 - strength * np.clip(soft, 0, 1))[:, :, None]
    if glow.any():
        image += np.asarray(cv2.GaussianBlur(glow, (0, 0), sigma * 1.5))


def draw_stone(image: np.ndarray, camera: Camera, stone: Stone, light: np.ndarray,
               rng: np.random.Generator) -> None:
    """One stone, its body then its top, over what is already drawn."""
    dome = stone.style == "glass"
    wall = stone.height * (0.3 if dome else 1.0)
    base = _outline(stone, stone.base, stone.radius)
    top_z = stone.base - wall
    shoulder = _outline(stone, top_z, stone.radius * (0.97 if dome else 0.96))
    hull = cv2.convexHull(camera.project(np.vstack([base, shoulder])).astype(np.float32))
    _fill(image, hull.reshape(-1, 2), stone.colour * (0.5 if dome else 0.62))
    # The top: a dome rising over the shoulder, or a flat face with a bevelled edge.
    top_plane = top_z - (stone.height - wall) * (0.55 if dome else 0.0)
    corners = camera.project(_outline(stone, top_plane, stone.radius * 1.05))
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 2
    h, w = image.shape[:2]
    x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1), w), min(int(y1), h)
    if x1 <= x0 or y1 <= y0:
        return
    inverse = np.linalg.inv(camera.plane_homography(top_plane))
    xs, ys = np.meshgrid(np.arange(x0, x1, dtype=np.float64),
                         np.arange(y0, y1, dtype=np.float64))
    denominator = inverse[2, 0] * xs + inverse[2, 1] * ys + inverse[2, 2]
    wx = (inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2]) / denominator
    wy = (inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2]) / denominator
    u, v = (wx - stone.x) / stone.radius, (wy - stone.y) / stone.radius
    rho = np.hypot(u, v)
    pixel = stone.radius * float(np.linalg.norm(camera.project(
        np.array([[stone.x, stone.y, top_plane], [stone.x + 1, stone.y, top_plane]]))[1]
        - camera.project(np.array([[stone.x, stone.y, top_plane]]))[0]))
    coverage = np.clip((1 - rho) * pixel + 0.5, 0, 1)[:, :, None]
    to_camera = camera.centre - np.array([stone.x, stone.y, top_plane])
    view = to_camera / np.linalg.norm(to_camera)
    lit = light / np.linalg.norm(light)
    halfway = (lit + view) / np.linalg.norm(lit + view)
    colour = stone.colour.astype(np.float32)
    if dome:
        up = np.sqrt(np.clip(1 - rho ** 2, 0, 1))
        normal = np.stack([u * 0.9, v * 0.9, -up], axis=-1)  # z points down: up is -z
        normal /= np.linalg.norm(normal, axis=-1, keepdims=True)
        lambert = np.clip(normal @ lit, 0, 1)
        facing = np.clip(normal @ halfway, 0, 1)
        if stone.bright:  # milky glass: lit like a matte dome
            body = colour * (0.62 + 0.38 * lambert)[:, :, None]
        else:  # clear glass: deep at the rim, light coming through in the middle
            body = colour * (0.42 + 0.5 * up + 0.2 * lambert)[:, :, None]
        shine = facing ** 180 * 1.1 + 0.12 * facing ** 12
        top = body + (255 - body) * np.clip(shine, 0, 1)[:, :, None]
        top += 18 * (rho ** 6)[:, :, None]
    else:
        edge = np.clip((rho - 0.86) / 0.14, 0, 1)
        safe = np.maximum(rho, 1e-6)
        normal = np.stack([u / safe * edge * 0.8, v / safe * edge * 0.8,
                           -np.ones_like(rho)], axis=-1)
        normal /= np.linalg.norm(normal, axis=-1, keepdims=True)
        flat = 0.45 + 0.55 * max(0.0, -float(lit[2]))
        shade = (0.45 + 0.55 * np.clip(normal @ lit, 0, 1)) / flat
        if stone.style == "wood":
            along = u * math.cos(stone.grain) + v * math.sin(stone.grain)
            across = -u * math.sin(stone.grain) + v * math.cos(stone.grain)
            wobble = np.sin(along * 2.3 + float(rng.uniform(0, 6)))
            shade = shade * (1 + 0.07 * np.sin(across * float(rng.uniform(9, 16))
                                                + 1.5 * wobble))
        top = colour * shade[:, :, None]
        if stone.style == "matte":  # a satin sheen: a broad soft highlight
            top = top + (255 - top) * 0.06 * max(0.0, -float(halfway[2])) ** 8
    roi = image[y0:y1, x0:x1]
    roi[:] = roi * (1 - coverage) + top.astype(np.float32) * coverage


__all__ = ["Stone", "draw_shadows", "draw_stone"]
