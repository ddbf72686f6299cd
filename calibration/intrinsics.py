"""Lens intrinsics and distortion from chessboard photos (OpenCV's calibrateCamera).

Only worth it for wide-angle webcams: barrel distortion bends the outer grid lines, which no
homography can follow, so a fixed camera's frames are undistorted before rectifying.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision import VisionError, load_image

# Inner-corner counts tried in turn when the user does not say (most printed boards).
COMMON_PATTERNS = ((9, 6), (7, 6), (8, 6), (7, 5), (6, 4), (10, 7), (8, 5), (5, 4))
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp")


class CalibrationError(VisionError):
    """Chessboard calibration could not be done (too few usable photos, none found)."""


@dataclass(frozen=True)
class Intrinsics:
    """Camera matrix and distortion coefficients for images of ``image_size`` (w, h)."""

    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    image_size: tuple[int, int]
    rms: float = 0.0

    def to_json(self) -> dict:
        return {
            "camera_matrix": np.asarray(self.camera_matrix, float).tolist(),
            "dist_coeffs": np.asarray(self.dist_coeffs, float).ravel().tolist(),
            "image_size": list(self.image_size),
            "rms": float(self.rms),
        }

    @classmethod
    def from_json(cls, data: dict) -> Intrinsics:
        try:
            matrix = np.array(data["camera_matrix"], float).reshape(3, 3)
            dist = np.array(data["dist_coeffs"], float).ravel()
            size = tuple(int(v) for v in data["image_size"])
        except (KeyError, TypeError, ValueError):
            raise CalibrationError(
                "intrinsics need camera_matrix, dist_coeffs, image_size"
            ) from None
        if len(size) != 2 or dist.size not in (4, 5, 8, 12, 14):
            raise CalibrationError("intrinsics have the wrong shape")
        return cls(matrix, dist, (size[0], size[1]), float(data.get("rms", 0.0)))

    def undistort(self, image: np.ndarray) -> np.ndarray:
        """The image as a distortion-free camera with the same matrix would have taken it."""
        return cv2.undistort(image, self.camera_matrix, self.dist_coeffs)

    def undistort_points(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.undistortPoints(
            pts, self.camera_matrix, self.dist_coeffs, P=self.camera_matrix
        ).reshape(-1, 2)

    def distort_points(self, points: np.ndarray) -> np.ndarray:
        """Inverse of :meth:`undistort_points`: where ideal pixels land in the raw image."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        k = self.camera_matrix
        normalised = np.column_stack(
            [(pts[:, 0] - k[0, 2]) / k[0, 0], (pts[:, 1] - k[1, 2]) / k[1, 1], np.ones(len(pts))]
        )
        projected, _ = cv2.projectPoints(
            normalised.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), k, self.dist_coeffs
        )
        return projected.reshape(-1, 2)


def _find_pattern(gray: np.ndarray, pattern: tuple[int, int]) -> np.ndarray | None:
    flags = cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE
    ok, corners = cv2.findChessboardCorners(gray, pattern, flags=flags)
    if not ok:
        return None
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.001)
    return cv2.cornerSubPix(gray, corners, (5, 5), (-1, -1), criteria)


def calibrate_from_images(
    images: list[np.ndarray], pattern: tuple[int, int] | None = None, square: float = 1.0
) -> Intrinsics:
    """Intrinsics from chessboard views (at least 3 where the pattern is found)."""
    if not images:
        raise CalibrationError("no chessboard photos given")
    size = (images[0].shape[1], images[0].shape[0])
    grays = []
    for image in images:
        if (image.shape[1], image.shape[0]) != size:
            raise CalibrationError("chessboard photos must all have the same size")
        grays.append(image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    patterns = [pattern] if pattern else list(COMMON_PATTERNS)
    for candidate in patterns:
        found = [c for c in (_find_pattern(g, candidate) for g in grays) if c is not None]
        if len(found) < 3:
            continue
        cols, rows = candidate
        object_points = np.zeros((cols * rows, 3), np.float32)
        object_points[:, :2] = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2) * square
        rms, matrix, dist, _, _ = cv2.calibrateCamera(
            [object_points] * len(found), found, size, None, None
        )
        return Intrinsics(matrix, dist.ravel(), size, float(rms))
    raise CalibrationError(
        "chessboard calibration needs at least 3 photos where the chessboard is found"
    )


def calibrate_from_folder(folder: Path | str, pattern: tuple[int, int] | None = None) -> Intrinsics:
    folder = Path(folder)
    if not folder.is_dir():
        raise CalibrationError(f"not a folder: {folder}")
    photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
    if not photos:
        raise CalibrationError(f"no photos in {folder}")
    return calibrate_from_images([load_image(p) for p in photos], pattern)
