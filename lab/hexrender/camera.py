"""A pinhole camera over a hexhex board: world points (cell widths) to photo pixels.

The camera is the Scrabble renderer's (:class:`lab.render.camera.Camera`); what is the hex
board's own is where it is placed and the world's units.

World units are cell widths (the distance between two neighbouring cells' centres). The board's
centre cell lies at the origin, x runs to the right along the board's lines, y down the lines
(towards the player in an upright view) and z points down into the table, so a stone's top lies
at a negative z and the table under the board at z = the board's thickness.
"""

from __future__ import annotations

import math

import numpy as np

from lab.render.camera import Camera


def rotation_x(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[1.0, 0, 0], [0, c, -s], [0, s, c]])


def rotation_z(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def place_camera(*, tilt: float, turn: float, roll: float, field_of_view: float, fill: float,
                 offset: tuple[float, float], width: int, height: int,
                 outline: np.ndarray) -> Camera:
    """A camera that sees ``outline`` (world points) fill ``fill`` of the frame's tighter side.

    ``tilt`` is the angle from straight down (degrees), ``turn`` how far the board is turned in
    the frame, ``roll`` the camera's turn about its own axis; ``offset`` (each -1 to 1) pushes
    the board towards an edge of the frame by that share of the room left there (the board
    stays clear of the frame's edges by 2 % of it).
    """
    focal = width / 2 / math.tan(math.radians(field_of_view) / 2)
    rotation = (rotation_z(math.radians(roll)) @ rotation_x(-math.radians(tilt))
                @ rotation_z(math.radians(turn)))
    forward = rotation.T @ np.array([0.0, 0.0, 1.0])

    def make(distance: float, cx: float, cy: float) -> Camera:
        matrix = np.array([[focal, 0, cx], [0, focal, cy], [0, 0, 1]])
        return Camera(matrix, rotation, -distance * forward)

    def span(distance: float) -> float:
        camera = make(distance, width / 2, height / 2)
        if camera.depth(outline).min() < 0.5:
            return math.inf
        points = camera.project(outline)
        return max(float(np.ptp(points[:, 0])) / width, float(np.ptp(points[:, 1])) / height)

    low, high = 1.0, 5000.0
    for _ in range(60):
        middle = math.sqrt(low * high)
        if span(middle) > fill:
            low = middle
        else:
            high = middle
    points = make(high, width / 2, height / 2).project(outline)
    # Room to move the board by, keeping it 2 % of the frame clear of the edges.
    room_x = max(0.0, (width * 0.96 - np.ptp(points[:, 0])) / 2)
    room_y = max(0.0, (height * 0.96 - np.ptp(points[:, 1])) / 2)
    shift_x = (width - points[:, 0].min() - points[:, 0].max()) / 2 + offset[0] * room_x
    shift_y = (height - points[:, 1].min() - points[:, 1].max()) / 2 + offset[1] * room_y
    return make(high, width / 2 + shift_x, height / 2 + shift_y)


def world_xy(homography: np.ndarray, width: int, height: int,
             step: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every ``step``-th pixel, the world (x, y) it sees on the plane of ``homography``, and
    whether that point lies in front of the camera (beyond the horizon it does not)."""
    inverse = np.linalg.inv(homography)
    xs = np.arange(0, width, step, dtype=np.float64)[None, :] + (step - 1) / 2
    ys = np.arange(0, height, step, dtype=np.float64)[:, None] + (step - 1) / 2
    w = inverse[2, 0] * xs + inverse[2, 1] * ys + inverse[2, 2]
    in_front = w > 1e-9
    safe = np.where(in_front, w, 1.0)
    wx = (inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2]) / safe
    wy = (inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2]) / safe
    return wx.astype(np.float32), wy.astype(np.float32), in_front


__all__ = ["Camera", "place_camera", "rotation_x", "rotation_z", "world_xy"]
