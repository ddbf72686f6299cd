"""The pinhole camera a render is seen through, and where it is placed over the board."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from lab.render.options import RenderOptions
from referee.cells import SIZE


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


def aim_camera(options: RenderOptions, width: int, height: int, outline: np.ndarray,
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


__all__ = ["Camera", "aim_camera"]
