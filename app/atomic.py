"""Atomic file writes: a temporary file in the same folder, flushed to disk, then renamed.

A crash, a full disk or a refused rename never leaves a half-written file where the old one
was (scenarios, reports, signing identities, catalogs).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_bytes(path: Path, data: bytes, mode: int | None = None) -> Path:
    """Replace ``path`` with ``data`` atomically.

    ``mode`` sets the permissions; by default an existing file keeps its own and a new one
    gets 0o644.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if mode is None:
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part",
                                         dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def write_text(path: Path, text: str, mode: int | None = None) -> Path:
    """Replace ``path`` with UTF-8 ``text`` atomically (Unix line ends kept as given)."""
    return write_bytes(path, text.encode("utf-8"), mode)
