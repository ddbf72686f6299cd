"""A calibration profile: the fixed geometry of one mounted camera over one board.

A webcam on a stand sees the board in the same place frame after frame, so finding the grid once
(from one good frame) is enough; the profile stores those corners, optionally the lens model, and
optionally where four ArUco markers lie in grid units. ``corners_for(frame)`` is then the fast
path of every reading: markers if at least two are visible (robust to a nudged board or camera,
and they fix South), else the stored corners.

The file is JSON with a ``format`` tag and a ``version`` so that later versions can read old
profiles. Corners are stored in raw image pixels (what ``corners_for`` returns); the marker
positions are in grid units (cells from the South-view top-left grid corner).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from calibration.aruco import (
    detect_markers,
    grid_from_markers,
    marker_positions,
    order_by_markers,
)
from calibration.intrinsics import CalibrationError, Intrinsics
from vision import SIDES, check_corners, find_board, south_at

FORMAT = "tileref-calibration"
VERSION = 1


class ProfileError(CalibrationError):
    """A profile file that cannot be used: missing, not JSON, wrong format or version."""


@dataclass(frozen=True)
class CalibrationProfile:
    """Where the grid is for one fixed camera; see the module docstring."""

    image_size: tuple[int, int]  # (width, height) of the frames it was made from
    corners: np.ndarray  # 4x2 raw pixels, TL TR BR BL of the South view
    south: str = "bottom"  # the image side South was taken to be (or "markers")
    marker_positions: dict[int, np.ndarray] = field(default_factory=dict)  # id -> 4x2 grid units
    intrinsics: Intrinsics | None = None
    created: str = ""
    confidence: float = 1.0

    # -- making one ---------------------------------------------------------------------------

    @classmethod
    def from_image(
        cls,
        image: np.ndarray,
        *,
        south: str = "bottom",
        use_markers: bool = False,
        intrinsics: Intrinsics | None = None,
    ) -> CalibrationProfile:
        """Calibrate from one good frame: find the grid (markerless), and with ``use_markers``
        record where the markers lie and let them decide South."""
        if south not in SIDES:
            raise ProfileError(f"South must be one of {', '.join(SIDES)}, not {south!r}")
        if intrinsics is not None and tuple(intrinsics.image_size) != (
            image.shape[1], image.shape[0]
        ):
            raise ProfileError("the chessboard photos and the board photo differ in size")
        working = intrinsics.undistort(image) if intrinsics else image
        location = find_board(working)
        corners = south_at(location.corners, south)
        positions: dict[int, np.ndarray] = {}
        side = south
        if use_markers:
            seen = detect_markers(working)
            if len(seen) < 2:
                raise ProfileError(
                    f"--markers: only {len(seen)} of the 4 markers seen; need at least 2"
                )
            corners = order_by_markers(corners, seen)
            positions = marker_positions(seen, corners)
            side = "markers"
        raw = intrinsics.distort_points(corners) if intrinsics else corners
        return cls(
            image_size=(image.shape[1], image.shape[0]),
            corners=np.asarray(raw, np.float64),
            south=side,
            marker_positions=positions,
            intrinsics=intrinsics,
            created=datetime.now(UTC).isoformat(timespec="seconds"),
            confidence=location.confidence,
        )

    # -- using one ----------------------------------------------------------------------------

    def undistort(self, image: np.ndarray) -> np.ndarray:
        """The frame with lens distortion removed (the frame itself without intrinsics)."""
        return self.intrinsics.undistort(image) if self.intrinsics else image

    def corners_for(self, image: np.ndarray) -> np.ndarray:
        """Grid corners (TL TR BR BL of the South view) in ``image``'s raw pixels.

        Markers first (when at least two known ones are visible), else the stored corners,
        scaled if the frame's size differs from the calibration frame's (same camera, another
        resolution setting).
        """
        height, width = image.shape[:2]
        if self.marker_positions:
            working = self.undistort(image) if self._same_size(image) else image
            seen = detect_markers(working)
            found = grid_from_markers(seen, self.marker_positions)
            if found is not None:
                if self.intrinsics and self._same_size(image):
                    found = self.intrinsics.distort_points(found)
                return found
        scale = np.array([width / self.image_size[0], height / self.image_size[1]])
        return self.corners * scale

    def _same_size(self, image: np.ndarray) -> bool:
        return (image.shape[1], image.shape[0]) == tuple(self.image_size)

    # -- files --------------------------------------------------------------------------------

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
            "created": self.created,
            "image_size": list(self.image_size),
            "corners": np.round(self.corners, 2).tolist(),
            "south": self.south,
            "confidence": round(float(self.confidence), 3),
            "markers": {
                "dictionary": "DICT_4X4_50",
                "positions": {
                    str(k): np.round(v, 4).tolist()
                    for k, v in sorted(self.marker_positions.items())
                },
            } if self.marker_positions else None,
            "intrinsics": self.intrinsics.to_json() if self.intrinsics else None,
        }

    @classmethod
    def from_json(cls, data: object) -> CalibrationProfile:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ProfileError("not a tileref calibration profile")
        version = data.get("version")
        if not isinstance(version, int) or version > VERSION or version < 1:
            raise ProfileError(f"calibration profile version {version!r} is not supported")
        try:
            size = tuple(int(v) for v in data["image_size"])
            corners = check_corners(data["corners"])
            if len(size) != 2 or min(size) <= 0:
                raise ValueError
            positions = {}
            markers = data.get("markers") or {}
            for key, value in (markers.get("positions") or {}).items():
                positions[int(key)] = np.array(value, np.float64).reshape(4, 2)
            intrinsics = (
                Intrinsics.from_json(data["intrinsics"]) if data.get("intrinsics") else None
            )
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, CalibrationError):
                raise
            raise ProfileError("calibration profile is malformed (image_size, corners)") from None
        return cls(
            image_size=(size[0], size[1]),
            corners=corners,
            south=str(data.get("south", "bottom")),
            marker_positions=positions,
            intrinsics=intrinsics,
            created=str(data.get("created", "")),
            confidence=float(data.get("confidence", 1.0)),
        )

    def save(self, path: Path | str) -> Path:
        """Write atomically (a half-written profile would break every later reading)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.to_json(), indent=2) + "\n"
        fd, tmp = tempfile.mkstemp(prefix=".calibration-", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: Path | str) -> CalibrationProfile:
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ProfileError(f"{path}: no such calibration profile") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ProfileError(f"{path}: not a readable calibration profile ({error})") from None
        return cls.from_json(data)

    def with_corners(self, corners: np.ndarray) -> CalibrationProfile:
        return replace(self, corners=check_corners(corners))
