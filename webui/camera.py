"""A USB webcam read by the server (``tileref serve --camera N``).

For a camera fixed above the table and plugged into the machine that runs the referee. A thread
grabs frames, and a few times a second hands one (as JPEG, exactly what a browser would post) to
the table (``webui.table``), for the game most recently opened on a screen. It does the rest:
steadiness, fusion, judging. The browser then only shows the board.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


class CameraError(ValueError):
    """The webcam cannot be opened; one line."""


class ServerCamera:
    """Feeds frames from ``cv2.VideoCapture(index)`` to ``on_frame(jpeg_bytes)``.

    ``index`` may also be a video file's path: a recorded game replays through the same path
    (the tests use one, as this machine has no webcam).
    """

    def __init__(self, index: int | str, on_frame: Callable[[bytes], None],
                 interval: float = 0.5) -> None:
        self.index = index
        self.on_frame = on_frame
        self.interval = interval
        self._stop = threading.Event()
        self.finished = threading.Event()
        self._thread: threading.Thread | None = None
        self._capture: Any = None

    def open(self) -> None:
        import cv2

        # OpenCV reports a missing device with its own warnings on stderr; the one line below
        # says it better.
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
        try:
            capture = cv2.VideoCapture(self.index)
        finally:
            cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_WARNING)
        if not capture.isOpened():
            raise CameraError(f"cannot open camera {self.index} (is it plugged in? "
                              "try another --camera number)")
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, 1920)
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, 1080)
        self._capture = capture

    def start(self) -> None:
        if self._capture is None:
            self.open()
        self._thread = threading.Thread(target=self._run, name="server-camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._capture is not None:
            self._capture.release()

    def _run(self) -> None:
        import cv2

        assert self._capture is not None
        next_at = 0.0
        while not self._stop.is_set():
            ok, frame = self._capture.read()  # keep reading: drains the driver's buffer
            if not ok:
                if isinstance(self.index, str):  # a file has ended
                    self.finished.set()
                    return
                time.sleep(0.2)
                continue
            now = time.monotonic()
            if now < next_at and not isinstance(self.index, str):
                continue
            next_at = now + self.interval
            ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
            if not ok:
                continue
            try:
                self.on_frame(encoded.tobytes())
            except ValueError as error:  # a refused frame: say so, keep going
                log.info("camera frame refused: %s", error)
            except Exception:
                log.exception("camera frame failed")
