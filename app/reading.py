"""Reading a user's file within bounds: regular files only, and never more than a limit.

A FIFO or a device named like a data file (``model.safetensors``, ``bundle.zip``) would make
a plain ``open()`` or ``read()`` block or never end; a file of gigabytes would be read whole
into memory. :func:`regular_file_bytes` opens without blocking, refuses what is not a
regular file and what is larger than the caller's limit, and reads at most that much.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # POSIX: opening a FIFO does not wait for a writer
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation


class NotARegularFile(ValueError):
    """The path names a FIFO, a device, a socket or a folder; ``str()`` is a sentence."""


class TooLarge(ValueError):
    """The file is larger than the caller allows; ``str()`` is a sentence."""


def regular_file_bytes(path: Path, limit: int, what: str) -> bytes:
    """The bytes of ``path``: a regular file of at most ``limit`` bytes.

    ``what`` names what the file should be in the sentences ("a catalog bundle"). Raises
    NotARegularFile or TooLarge (both ValueError) with a sentence, OSError when the file
    cannot be opened.
    """
    path = Path(path)
    descriptor = os.open(path, os.O_RDONLY | _NONBLOCK | _BINARY)
    with os.fdopen(descriptor, "rb") as stream:
        info = os.fstat(stream.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise NotARegularFile(f"'{path}' is not a regular file (a pipe, a device or a "
                                  f"folder); {what} is a plain file")
        if info.st_size > limit:
            raise TooLarge(f"'{path}' is {info.st_size:,} bytes; {what} is at most "
                           f"{limit:,} bytes")
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(f"'{path}' grew past {limit:,} bytes while it was read; {what} is at "
                       f"most {limit:,} bytes")
    return data


def is_regular_file(path: Path) -> bool:
    """Whether ``path`` is a regular file (after symbolic links), without opening it."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def starts_with(path: Path, prefix: bytes) -> bool:
    """Whether ``path`` is a regular file that starts with ``prefix`` (False for what cannot
    be read, and for a FIFO, which ``open()`` would wait on)."""
    if not is_regular_file(path):
        return False
    try:
        with Path(path).open("rb") as stream:
            return stream.read(len(prefix)) == prefix
    except OSError:
        return False
