"""Photos and camera frames in: decoded within their caps, checked, read, drawn back.

A phone's photo (a dispute) and a camera frame (the live table) arrive as bytes; a bad one is
refused in one sentence before anything else is touched. The vision reader and OpenCV are
imported late, so the app starts without the models loaded and ``tileref judge`` never sees them.
"""

from __future__ import annotations

import base64
import logging
from typing import Any

from webui.errors import ServiceError, Unreadable, one_line
from webui.live import LiveConfig

log = logging.getLogger(__name__)

BROWSER_SIDE = 1600
"""The longest side, in pixels, of a photo sent back to a browser (overlay, corner editor)."""


class Photos:
    """Decoding within the app's caps (a live frame's, and a phone's own full-resolution
    photo's: :class:`webui.live.LiveConfig` holds them)."""

    def __init__(self, caps: LiveConfig) -> None:
        self.caps = caps

    def photo(self, data: bytes) -> Any:
        """A phone's photo (a dispute), decoded, within the photo caps; else one sentence."""
        return _decode(data, self.caps.max_photo_bytes, self.caps.max_photo_pixels)

    def frame(self, data: bytes) -> Any:
        """A camera frame (or a photo of tiles at the table), within the frame caps."""
        return _decode(data, self.caps.max_frame_bytes, self.caps.max_frame_pixels)


def _decode(data: bytes, max_bytes: int, max_pixels: int) -> Any:
    from vision import ImageError, load_image

    try:
        return load_image(data, max_bytes=max_bytes, max_pixels=max_pixels)
    except ImageError as error:
        raise ServiceError(one_line(error)) from None


def parse_corners(value: object) -> list[list[float]]:
    """Four [x, y] pairs, clockwise from the South view's top-left, in image pixels."""
    if not isinstance(value, list) or len(value) != 4:
        raise ServiceError("'corners' must be four [x, y] points")
    corners = []
    for point in value:
        if not isinstance(point, list | tuple) or len(point) != 2 or not all(
                isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v < 100_000
                for v in point):
            raise ServiceError("each corner is [x, y] in image pixels")
        corners.append([float(point[0]), float(point[1])])
    return corners


def tile_set_option(value: object) -> str:
    """A tile set's name as a form or query gives it (empty: English), or one sentence."""
    from referee.tiles import tile_set_names

    name = str(value or "english").strip().lower()
    if name not in tile_set_names():
        raise ServiceError(f"unknown tile set {name!r}: {', '.join(tile_set_names())}")
    return name


def read_board(image: Any, corners: Any, tiles: str = "english", *, single: bool = False) -> Any:
    """The vision reader, imported late so the app starts without OpenCV models loaded;
    ``tiles`` is the tile set whose letters it may read (the game's ``options.tiles``).

    ``single``: one photo read on request (a dispute), with the slower, surer settings
    ``tileref read`` uses (``DISPUTE_CONFIG``: Tesseract on doubtful letters, occupancy read from
    five looks); a live frame is read fast, and the frames vote instead.
    """
    from vision import DEFAULT_CONFIG, DISPUTE_CONFIG
    from vision import read_board as reader

    config = DISPUTE_CONFIG if single else DEFAULT_CONFIG
    if corners is None:
        return reader(image, tiles=tiles, config=config)
    import numpy as np

    return reader(image, corners=np.asarray(corners, dtype=np.float32), tiles=tiles,
                  config=config)


def read_player_board(image: Any, expected: tuple[int, int, int] | None) -> Any:
    """A photo of one First Draft player's board (or of tiles laid in a row) → the player-board
    reader's reading; a photo it cannot read is one sentence, a reader bug a 422 that says so."""
    from vision import VisionError
    from vision import read_player_board as reader

    try:
        return reader(image, expected=expected)
    except VisionError as error:
        raise ServiceError(str(error)) from None
    except Exception:  # a reader bug must not look like the player's fault: log it, say so
        log.exception("the player-board reader failed on a photo")
        raise Unreadable("the tile reader failed on this photo; type the letters instead"
                         ) from None


def _fit_for_browser(image: Any, size: Any = round) -> Any:
    """``image`` scaled down to :data:`BROWSER_SIDE`; ``size`` rounds the new sides (the
    overlay has always truncated them)."""
    import cv2

    height, width = image.shape[:2]
    scale = min(1.0, BROWSER_SIDE / max(height, width))
    if scale >= 1.0:
        return image
    return cv2.resize(image, (size(width * scale), size(height * scale)),
                      interpolation=cv2.INTER_AREA)


def overlay_png(image: Any, reading: Any) -> str:
    """The overlay of a reading as a ``data:`` URL (the dispute page shows it inline)."""
    import cv2

    try:
        from vision import draw_overlay
        picture = draw_overlay(image, reading)
    except (ImportError, AttributeError):
        picture = image
    ok, encoded = cv2.imencode(".png", _fit_for_browser(picture, int))
    if not ok:
        return ""
    return "data:image/png;base64," + base64.b64encode(encoded.tobytes()).decode("ascii")


def browser_jpeg(image: Any) -> bytes | None:
    """A photo as every browser can show it: JPEG, at most :data:`BROWSER_SIDE` a side."""
    import cv2

    ok, data = cv2.imencode(".jpg", _fit_for_browser(image), [cv2.IMWRITE_JPEG_QUALITY, 85])
    return data.tobytes() if ok else None
