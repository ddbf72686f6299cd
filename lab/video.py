"""Frames to a YUV4MPEG2 (.y4m) file: the fake camera Chromium plays back in browser tests.

Chromium's ``--use-fake-device-for-media-stream --use-file-for-fake-video-capture=FILE.y4m``
loops such a file as the webcam, so the web UI's camera page can be driven end to end with
rendered boards whose truth is known. The format is a text header and raw 4:2:0 planes; no codec.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import cv2
import numpy as np

COLOUR_SPACE = "420jpeg"
"""4:2:0 chroma, JPEG siting: the tag ffmpeg writes for yuv420p and Chromium accepts."""


class VideoError(ValueError):
    """Frames that cannot be written as one y4m stream (no frames, odd or mixed sizes)."""


def y4m_header(width: int, height: int, fps: int) -> bytes:
    return f"YUV4MPEG2 W{width} H{height} F{fps}:1 Ip A1:1 C{COLOUR_SPACE}\n".encode("ascii")


def _check(frames: Sequence[np.ndarray]) -> tuple[int, int]:
    if not frames:
        raise VideoError("a y4m file needs at least one frame")
    height, width = frames[0].shape[:2]
    if width % 2 or height % 2:
        raise VideoError(f"4:2:0 frames need an even width and height, not {width}x{height}")
    for index, frame in enumerate(frames):
        if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
            raise VideoError(f"frame {index} is not a BGR uint8 image")
        if frame.shape[:2] != (height, width):
            size = f"{frame.shape[1]}x{frame.shape[0]}"
            raise VideoError(f"frame {index} is {size}, the first is {width}x{height}")
    return width, height


def frame_bytes(frame: np.ndarray) -> bytes:
    """One BGR frame as planar Y, then U, then V at half resolution (I420)."""
    return cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420).tobytes()


def write_y4m(path: Path | str, frames: Iterable[np.ndarray], fps: int = 10) -> Path:
    """Write BGR ``frames`` (all the same even size) to ``path``; nothing is written on error."""
    frames = list(frames)
    if not isinstance(fps, int) or not 1 <= fps <= 240:
        raise VideoError(f"fps must be a whole number from 1 to 240, not {fps!r}")
    width, height = _check(frames)
    path = Path(path)
    with path.open("wb") as out:
        out.write(y4m_header(width, height, fps))
        for frame in frames:
            out.write(b"FRAME\n")
            out.write(frame_bytes(frame))
    return path


def read_y4m(path: Path | str) -> list[np.ndarray]:
    """Read a file written by :func:`write_y4m` back into BGR frames (for tests and checks)."""
    data = Path(path).read_bytes()
    end = data.find(b"\n")
    if not data.startswith(b"YUV4MPEG2 ") or end < 0:
        raise VideoError(f"{path} is not a YUV4MPEG2 file")
    fields = {token[:1]: token[1:] for token in data[:end].decode("ascii").split()[1:]}
    width, height = int(fields["W"]), int(fields["H"])
    size = width * height * 3 // 2
    frames = []
    position = end + 1
    while position < len(data):
        line_end = data.find(b"\n", position)
        if line_end < 0 or not data[position:line_end].startswith(b"FRAME"):
            raise VideoError(f"{path}: expected FRAME at byte {position}")
        planes = np.frombuffer(data[line_end + 1:line_end + 1 + size], dtype=np.uint8)
        if planes.size != size:
            raise VideoError(f"{path}: the last frame is cut short")
        frames.append(cv2.cvtColor(planes.reshape(height * 3 // 2, width),
                                   cv2.COLOR_YUV2BGR_I420))
        position = line_end + 1 + size
    return frames


__all__ = ["VideoError", "frame_bytes", "read_y4m", "write_y4m", "y4m_header"]
