"""What the web tests post (a game's spec, crafted uploads) and the browser they drive: Debian's
Chromium, never a downloaded one."""

from __future__ import annotations

import struct
import zlib

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
    "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
]

TWO_PLAYERS = {"ruleset": "archipelago",
               "players": [{"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "N"}]}


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims ``width`` x ``height``: caps are checked before decoding."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = zlib.compress(b"\x00" * 16)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows)
            + chunk(b"IEND", b""))
