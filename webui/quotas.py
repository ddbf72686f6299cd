"""Upload quotas: how many uploads one address may make a minute, as token buckets.

A word list is kept on disk for good and a dispute photo until fifty newer ones push it out, so
one prankster on the club's wifi posting in a loop filled the disk, or pushed every player's
dispute photo out, in seconds. Each kind of upload has a bucket per client address: ``burst``
uploads at once, then ``per_minute`` a minute. In memory: a restart forgives everyone.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from webui.errors import TooMany

MAX_CLIENTS = 10_000
"""Buckets kept at most; the oldest are forgotten first (a full bucket is no information)."""


@dataclass
class _Bucket:
    tokens: float
    at: float


class Quota:
    """``per_minute`` uploads a minute per client, ``burst`` at once; :meth:`take` or 429."""

    def __init__(self, what: str, per_minute: float, burst: int) -> None:
        self.what = what
        self.per_minute = per_minute
        self.burst = burst
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()

    def take(self, client: str) -> None:
        """Count one upload from ``client`` (an address), or refuse it in one sentence."""
        now = time.monotonic()
        with self._lock:
            bucket = self._buckets.pop(client, None) or _Bucket(float(self.burst), now)
            bucket.tokens = min(float(self.burst),
                                bucket.tokens + (now - bucket.at) * self.per_minute / 60.0)
            bucket.at = now
            self._buckets[client] = bucket  # last in the dict: the most recently seen
            while len(self._buckets) > MAX_CLIENTS:
                del self._buckets[next(iter(self._buckets))]
            if bucket.tokens < 1.0:
                wait = (1.0 - bucket.tokens) * 60.0 / self.per_minute
                raise TooMany(f"too many {self.what} from this device: try again in "
                              f"{max(1, round(wait))} s")
            bucket.tokens -= 1.0
