"""Files the user cares about: atomic writes, settings, recent files (recovery: ``recovery``).

Settings live in a QSettings INI file in the configuration folder (``app.paths``), so tests
and kiosks can redirect it with AISIZER_CONFIG_DIR. Every setting is declared once below, with
its key, type and default; user preferences (what the user chose in Edit > Preferences) are
kept apart from window state (where the user left things).
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

from app import atomic, paths

MAX_RECENT = 8


@dataclass(frozen=True)
class Setting:
    """One setting: its key in the INI file, its type and its default."""

    key: str
    type: type
    default: Any

    def read(self) -> Any:
        value = settings().value(self.key, self.default, type=self.type)
        return self.default if value is None else value

    def write(self, value: Any) -> None:
        settings().setValue(self.key, value)


# User preferences (Edit > Preferences).
LANGUAGE = Setting("language", str, "")  # "" follows the system's language
PREFERENCES = (LANGUAGE,)

# Window state: geometry, splitter, folders and files used last. Never shown as preferences.
WINDOW_GEOMETRY = Setting("window/geometry", QByteArray, QByteArray())
WINDOW_SPLITTER = Setting("window/splitter", QByteArray, QByteArray())
LAST_FOLDER = Setting("window/last_folder", str, "")
RECENT_FILES = Setting("recent_files", list, [])
WINDOW_STATE = (WINDOW_GEOMETRY, WINDOW_SPLITTER, LAST_FOLDER, RECENT_FILES)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, then replace.

    A crash or a full disk never leaves a half-written file where the old one was, and no
    temporary file is left behind. A file that existed keeps its permissions.
    """
    path = Path(path)
    atomic.write_text(path, text, _mode_for(path))
    _sync_folder(path.parent)


def _mode_for(path: Path) -> int:
    """The existing file's permissions, or what a plain ``open()`` would give a new file."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable where the system allows it (POSIX)."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def settings() -> QSettings:
    """The settings store: user preferences and window state."""
    folder = paths.config_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return QSettings(str(folder / "aisizer.ini"), QSettings.Format.IniFormat)


def recent_files() -> list[Path]:
    """Recently used scenario files that still exist, newest first."""
    stored = RECENT_FILES.read() or []
    return [Path(p) for p in stored if Path(p).is_file()]


def remember_recent(path: Path) -> None:
    """Put ``path`` first in the recent files (at most MAX_RECENT, no duplicates)."""
    path = Path(path).resolve()
    items = [str(path)] + [str(p) for p in recent_files() if p.resolve() != path]
    RECENT_FILES.write(items[:MAX_RECENT])
    LAST_FOLDER.write(str(path.parent))


def last_folder() -> str:
    """Where the file dialogs start: the folder used last, if it still exists."""
    folder = LAST_FOLDER.read()
    return folder if folder and Path(folder).is_dir() else ""
