"""The connection class ``tileref serve`` gives waitress: it never spins on a busy connection,
and one address holds at most its share of the server's connections.

Waitress's one I/O thread polls every connection that has output waiting. When a worker thread
is itself writing to that connection (an event stream yielding its next state, say), the I/O
thread cannot take the connection's output lock and leaves the output alone; but the socket is
still writable, so the next poll returns at once, and the one after, and so on: the I/O thread
spins, holding the GIL, and every worker thread is starved of it (Pylons/waitress#349 is the same
lock seen from the other side). A worker starved mid-write holds the lock longer, which keeps the
spin going. Measured with ``python -m bench club --tables 10 --seconds 20 --no-saturation``: 300
screens opening their event streams at once made the server answer 0 of 200 camera frames for
half a minute, at 100 % of a core, in 2 runs of 2 (and in about half of the earlier runs).

:class:`YieldingChannel` asks the poll to wait for write readiness only when it can act on it:
while a worker holds the output lock, that worker flushes what it wrote itself, and wakes the I/O
thread (waitress's trigger) whenever it leaves output behind.

Waitress holds at most ``connection_limit`` connections and then accepts none: one script on the
club's wifi opening a thousand (and opening them again as they time out) would shut every camera
and screen out. A connection over its address's share (:attr:`YieldingChannel.per_address`;
:func:`capped` sets it) is closed as soon as it is accepted. Behind the TLS front every
connection comes from the front, on loopback: the front keeps the share itself
(``webui.tls.TlsFront``).
"""

from __future__ import annotations

from typing import Any

from waitress.channel import HTTPChannel


class YieldingChannel(HTTPChannel):
    """An HTTP connection that is not polled for writing while its worker is writing to it,
    and is closed at once when its address already holds :attr:`per_address` connections."""

    per_address: int | None = None
    """Connections one client address may hold at once (None: no share)."""

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
        super().__init__(server, sock, addr, adj, map=map)
        if self.per_address is not None and _held_by(server, addr) > self.per_address:
            self.handle_close()

    def writable(self) -> bool:
        if self.requests and self.total_outbufs_len and not (
                self.will_close or self.close_when_flushed):
            # A request is running: its worker may hold the lock. If so, it flushes itself.
            if not self.outbuf_lock.acquire(False):
                return False
            self.outbuf_lock.release()
        return bool(super().writable())


def capped(per_address: int | None) -> type[YieldingChannel]:
    """:class:`YieldingChannel` with ``per_address`` connections at most from one address."""
    return type("YieldingChannel", (YieldingChannel,), {"per_address": per_address})


def _held_by(server: Any, addr: Any) -> int:
    """Connections now open from ``addr``'s host (this one included)."""
    host = addr[0] if isinstance(addr, tuple) and addr else addr
    return sum(1 for channel in list(server.active_channels.values())
               if isinstance(channel.addr, tuple) and channel.addr[:1] == (host,))
