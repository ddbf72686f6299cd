"""Reading a file the user named (a game file, a word list) without trusting what it is.

A path on the command line or in a GAME.json can name anything: a FIFO (reading it waits for a
writer that never comes), a device (``/dev/zero`` never ends), a 2 GB sparse file. So a file is
opened without blocking, checked to be a regular file of at most so many bytes by ``fstat`` on
the open descriptor (what is checked is what is read, not a name swapped meanwhile), and only
then read, never past the cap.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


class FileRefused(ValueError):
    """The file is no regular file, or is bigger than its cap; ``str()`` is one line."""


def read_regular_file(path: str | Path, max_bytes: int, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``, at most ``max_bytes`` of them.

    Raises :class:`FileRefused` for a pipe, a device or a socket, or a file over the cap (before
    a byte is read), and the ``OSError`` of ``os.open`` as it is (no such file, a folder, no
    permission): the callers word those themselves.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    descriptor = os.open(path, flags)
    try:
        info = os.fstat(descriptor)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(f"{path}: not a regular file (a pipe, a device or a socket): "
                              f"name a {what}")
        if info.st_size > max_bytes:
            raise FileRefused(f"{path}: too big for a {what} ({info.st_size:,} bytes; the "
                              f"limit is {max_bytes:,})")
        chunks, total = [], 0
        while total <= max_bytes:
            chunk = os.read(descriptor, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:  # it grew after it was measured
            raise FileRefused(f"{path}: too big for a {what} (over {max_bytes:,} bytes)")
        return b"".join(chunks)
    finally:
        os.close(descriptor)
