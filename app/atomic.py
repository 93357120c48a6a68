"""Atomic file writes: a temporary file in the same folder, flushed to disk, then renamed.

A crash, a full disk or a refused rename never leaves a half-written file where the old one
was (scenarios, reports, signing identities, catalogs).

Windows refuses to replace a file that another program holds open without sharing it for
deletion (a PDF viewer showing the report, an editor, a virus scanner or a sync client
reading the file just written). The rename is tried again for about two seconds, which
outlasts a scanner or sync client; if the file is still held, :class:`FileInUseError` says so
in a sentence for the user (its ``strerror``), and the old file is left as it was.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import time
from pathlib import Path

# Windows error codes (winerror.h) that mean "someone else has the file": access denied
# (also a read-only target), sharing violation, lock violation.
ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION, ERROR_LOCK_VIOLATION = 5, 32, 33
HELD = {ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION, ERROR_LOCK_VIOLATION}
RETRY_DELAYS = (0.05, 0.1, 0.2, 0.4, 0.5, 0.75)  # seconds; 2 s in all
IN_USE = ("another program has the file open (a PDF viewer or an editor, for example); close "
          "it there and try again. The file was left as it was")
READ_ONLY = ("the file is read-only; clear its read-only attribute or choose another name. The "
             "file was left as it was")


class FileInUseError(PermissionError):
    """The target could not be replaced because another program holds it (Windows)."""


def _read_only(path: Path) -> bool:
    try:
        attributes = getattr(path.stat(), "st_file_attributes", 0)
    except OSError:
        return False
    return bool(attributes & getattr(stat, "FILE_ATTRIBUTE_READONLY", 1))


def replace(source: Path, target: Path) -> None:
    """``os.replace(source, target)``, retried while Windows says another program holds the
    target; then :class:`FileInUseError`. Other errors are raised at once."""
    for delay in (*RETRY_DELAYS, None):
        try:
            os.replace(source, target)
            return
        except PermissionError as exc:
            code = getattr(exc, "winerror", None)
            if code not in HELD:
                raise
            if code == ERROR_ACCESS_DENIED and _read_only(Path(target)):
                raise FileInUseError(errno.EACCES, READ_ONLY, str(target)) from exc
            if delay is None:
                raise FileInUseError(errno.EACCES, IN_USE, str(target)) from exc
            time.sleep(delay)


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
        replace(Path(temporary), path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def write_text(path: Path, text: str, mode: int | None = None) -> Path:
    """Replace ``path`` with UTF-8 ``text`` atomically (Unix line ends kept as given)."""
    return write_bytes(path, text.encode("utf-8"), mode)
