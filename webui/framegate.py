"""Read only what changed: the gate every camera frame passes before the table reads it.

A camera over a still board sends the same picture again and again, and reading a board costs a
tenth of a second to half a second of a core; at fifty tables a frame a second, reading them all
needed ten cores and the server answered 315 of 3000 frames. So each frame is first shrunk to a
small thumbnail (a JPEG decoded at an eighth of its size: a millisecond or two, from
:func:`vision.load_thumbnail`) and compared with the thumbnail of the last frame the table read:

- the same picture, the game unchanged since, and the table's last answer asked for no more
  frames (the view had settled and its readings agreed): answered at once with that answer (its
  verdict, already given, left out), nothing decoded or read;
- otherwise the frame goes on to the table (``webui.table.Table.frame``), which checks the view
  is steady and reads it; it waits for one of :attr:`GateConfig.read_slots` (one per core) to
  do so.

One table's backlog never delays another's: a table has at most one frame waiting for a slot,
the latest (an older one still waiting is dropped, its request answered ``skipped: true``), and
the slots go to the tables in the order their frames came. At most :attr:`GateConfig.waiting`
frames wait in all (each holds a server thread), and none longer than
:attr:`GateConfig.stale_seconds`: past either, a frame is skipped, and the camera sends another.

The gate knows pictures and turns, not boards or rules: what a frame means is the table's.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


@dataclass(frozen=True)
class GateConfig:
    """The gate's thresholds and bounds in one place."""

    thumb_side: int = 160       # the thumbnail's longer side, pixels: a board cell is ~8 of them
    blur: int = 3               # Gaussian kernel on the thumbnail: sensor noise and JPEG away
    pixel_change: int = 24      # grey levels in any channel: a thumbnail pixel that changed
    changed_pixels: int = 6     # at most this many changed: the same picture (a tile is ~40)
    read_slots: int = field(default_factory=lambda: max(1, os.cpu_count() or 1))
    waiting: int = 8            # frames waiting for a slot at most, all tables together
    stale_seconds: float = 1.0  # a frame that waited this long is skipped: the next has come
    remembered: int = 256       # tables whose last picture is kept (the least recent forgotten)


class Pass(Enum):
    """What the gate made of a frame."""

    UNCHANGED = "unchanged"  # the same picture as the last one read: answer with that answer
    READ = "read"            # the table reads it now (a read slot is held)
    SKIPPED = "skipped"      # a newer frame of the table came, or too many wait: dropped


@dataclass
class _Table:
    """What the gate remembers of one game's camera."""

    thumb: Any = None          # the thumbnail of the last frame the table read
    version: int = -1          # the game's change version once that frame was answered
    answer: Any = None         # the table's answer to it, if it asked for no more frames
    waiting: _Ticket | None = None


@dataclass(eq=False)
class _Ticket:
    game_id: str
    came: float
    dropped: bool = False


class FrameGate:
    """The gate of every table of one app. ``version_of(game_id)`` is the game's change
    version (``webui.store.ChangeFeed.version``): a change made by anyone but the camera (a
    move typed, a correction, an undo) has the next frame read again."""

    def __init__(self, version_of: Any, config: GateConfig | None = None) -> None:
        self.config = config or GateConfig()
        self._version_of = version_of
        self._tables: dict[str, _Table] = {}
        self._turns = threading.Condition()
        self._reading: set[str] = set()
        self._queue: deque[_Ticket] = deque()

    # -- is it the same picture? ------------------------------------------------------------

    def thumbnail(self, data: bytes) -> Any:
        """The frame's blurred thumbnail, or None when it is no image the gate can shrink (the
        table's own decoding then refuses it, in its words)."""
        import cv2

        from vision import ImageError, load_thumbnail

        try:
            small = load_thumbnail(data, self.config.thumb_side)
        except ImageError:
            return None
        return cv2.GaussianBlur(small, (self.config.blur, self.config.blur), 0)

    def _same_picture(self, before: Any, after: Any) -> bool:
        import cv2

        if before is None or after is None or before.shape != after.shape:
            return False
        difference = cv2.absdiff(before, after).max(axis=2)
        return int((difference > self.config.pixel_change).sum()) <= self.config.changed_pixels

    # -- the frame's way through --------------------------------------------------------------

    @contextmanager
    def admit(self, game_id: str, data: bytes) -> Iterator[Admission]:
        """The gate's decision on one frame of ``game_id``, held for as long as the frame is
        read: ``with gate.admit(game_id, data) as admitted: ...``."""
        thumb = self.thumbnail(data)
        with self._turns:
            table = self._remember(game_id)
            unchanged = table.answer if table.answer is not None \
                and self._same_picture(table.thumb, thumb) \
                and table.version == self._version_of(game_id) else None
        if unchanged is not None:
            yield Admission(Pass.UNCHANGED, unchanged)
            return
        if not self._take_turn(game_id, table):
            yield Admission(Pass.SKIPPED)
            return
        admission = Admission(Pass.READ)
        try:
            yield admission
        finally:
            with self._turns:
                self._reading.discard(game_id)
                table.thumb = thumb
                table.version = self._version_of(game_id)
                table.answer = admission.settled_answer
                self._turns.notify_all()

    def _take_turn(self, game_id: str, table: _Table) -> bool:
        """Wait for a read slot, as this game's one waiting frame; False when dropped."""
        config = self.config
        with self._turns:
            if table.waiting is not None:  # the latest frame wins
                table.waiting.dropped = True
                self._queue.remove(table.waiting)
                table.waiting = None
                self._turns.notify_all()
            if len(self._queue) >= config.waiting:
                return False
            ticket = _Ticket(game_id, time.monotonic())
            self._queue.append(ticket)
            table.waiting = ticket
            while not ticket.dropped and self._next_turn() is not ticket:
                left = ticket.came + config.stale_seconds - time.monotonic()
                if left <= 0:
                    self._queue.remove(ticket)
                    table.waiting = None
                    self._turns.notify_all()
                    return False
                self._turns.wait(left)
            if ticket.dropped:
                return False
            self._queue.remove(ticket)
            table.waiting = None
            self._reading.add(game_id)
            return True

    def _next_turn(self) -> _Ticket | None:
        """The frame whose turn it is: the first that came of a game not being read now, if a
        slot is free."""
        if len(self._reading) >= self.config.read_slots:
            return None
        return next((ticket for ticket in self._queue if ticket.game_id not in self._reading),
                    None)

    def _remember(self, game_id: str) -> _Table:
        """The game's table, now the most recent; the least recent idle ones beyond
        :attr:`GateConfig.remembered` are forgotten (their next frame is simply read), so a
        server up for weeks of games keeps a bounded few thumbnails. The caller holds the lock."""
        table = self._tables.pop(game_id, None) or _Table()
        self._tables[game_id] = table
        if len(self._tables) > self.config.remembered:
            idle = [name for name, kept in self._tables.items()
                    if kept.waiting is None and name not in self._reading and name != game_id]
            for name in idle[:len(self._tables) - self.config.remembered]:
                del self._tables[name]
        return table


@dataclass
class Admission:
    """The gate's decision on one frame (:meth:`FrameGate.admit`): how it passes, the answer
    to give again when it is the same picture, and (set by the reader) the answer to keep for
    the frames after it."""

    way: Pass
    answer: Any = None
    settled_answer: Any = None

    def settled(self, answer: Any) -> None:
        """The table read this frame and asks for no more of the same picture: ``answer``
        (a ``webui.table.FrameAnswer``, its verdict left out) answers them."""
        from dataclasses import replace

        self.settled_answer = replace(answer, verdict=None)
