"""Solid things in a render: boxes (tiles, loose tiles, the rack) drawn with their shadows, their
sides and their tops, through the camera."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from lab.render.camera import Camera


def square(centre: tuple[float, float], side: float, twist: float) -> np.ndarray:
    """The four corners (x, y) of a square turned ``twist`` radians, in TL TR BR BL order."""
    c, s = math.cos(twist), math.sin(twist)
    half = side / 2
    offsets = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    turned = offsets @ np.array([[c, s], [-s, c]])
    return turned + np.array(centre)


def with_z(points: np.ndarray, z: float) -> np.ndarray:
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


def draw_shadows(image: np.ndarray, camera: Camera, blocks: Sequence[Block],
                  light: np.ndarray, strength: float) -> None:
    """Soft shadows cast by blocks on the surface they stand on, away from the light."""
    height, width = image.shape[:2]
    mask = np.zeros((height, width), dtype=np.float32)
    for block in blocks:
        base = with_z(block.footprint, block.bottom)
        cast = with_z(block.footprint + light * block.height * 1.5, block.bottom)
        points = camera.project(np.vstack([base, cast]))
        hull = cv2.convexHull(points.astype(np.float32)).reshape(-1, 2)
        _fill(mask, hull, (1.0,))
    if not blocks:
        return
    sigma = max(1.0, 0.004 * width)
    soft = np.asarray(cv2.GaussianBlur(mask, (0, 0), sigma))
    image *= (1 - strength * np.clip(soft, 0, 1))[:, :, None]


def draw_sides(image: np.ndarray, camera: Camera, blocks: Sequence[Block],
                light: np.ndarray) -> None:
    """The visible sides of every block, far ones first so near ones paint over them."""
    centres = np.array([[*block.footprint.mean(axis=0), block.top] for block in blocks])
    order: list[int] = list(np.argsort(-camera.depth(centres))) if len(blocks) else []
    for index in order:
        block = blocks[int(index)]
        top = with_z(block.footprint, block.top)
        bottom = with_z(block.footprint, block.bottom)
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


def draw_top(image: np.ndarray, camera: Camera, block: Block,
              tops: np.ndarray | None = None) -> None:
    """One block's top face, warped into place through its own small homography; ``tops`` (the
    image's height x width), when given, gathers where a face with an image was drawn."""
    corners = camera.project(with_z(block.footprint, block.top))
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


__all__ = ["Block", "draw_shadows", "draw_sides", "draw_top", "square", "with_z"]
