"""Files the user cares about: atomic writes, recent files, autosave and crash recovery.

Settings live in a QSettings INI file in the configuration folder (``app.paths``), so tests
and kiosks can redirect it with AISIZER_CONFIG_DIR.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings

from app import paths

MAX_RECENT = 8


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, then replace.

    A crash or a full disk never leaves a half-written file where the old one was.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def settings() -> QSettings:
    """The user's preferences and window state."""
    folder = paths.config_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return QSettings(str(folder / "aisizer.ini"), QSettings.Format.IniFormat)


def recent_files() -> list[Path]:
    """Recently used scenario files that still exist, newest first."""
    stored = settings().value("recent_files", [], type=list) or []
    return [Path(p) for p in stored if Path(p).is_file()]


def remember_recent(path: Path) -> None:
    items = [str(Path(path).resolve())] + [str(p) for p in recent_files()
                                           if p.resolve() != Path(path).resolve()]
    settings().setValue("recent_files", items[:MAX_RECENT])


def autosave_path() -> Path:
    return paths.config_dir() / "autosave.json"


def autosave(data: dict, source: Path | None) -> None:
    """Keep unsaved work where recovery finds it after a crash."""
    write_atomic(autosave_path(), json.dumps({"source": str(source) if source else None,
                                              "scenario": data}, indent=2))


def clear_autosave() -> None:
    autosave_path().unlink(missing_ok=True)


def recovery() -> tuple[dict, Path | None] | None:
    """Unsaved work left by a session that did not end cleanly, if any."""
    path = autosave_path()
    if not path.is_file():
        return None
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        source = stored.get("source")
        return stored["scenario"], Path(source) if source else None
    except (OSError, ValueError, KeyError, TypeError):
        return None
