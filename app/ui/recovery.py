"""Recovery of unsaved work after a crash: one recovery file and one lock per window.

Each window keeps its unsaved scenario in ``recovery/<id>.json`` in the configuration folder,
beside ``recovery/<id>.lock``, a QLockFile the window holds while it is open. A recovery file
whose lock nobody holds was left by a session that did not end cleanly; one whose lock a
running window holds belongs to that window, and another window neither offers nor deletes
it. QLockFile recognises the lock of a process that died (the process id it names no longer
runs this program) and lets the next window take it over.

:class:`Autosaver` writes the copy about a second after each change (a single-shot timer
that a burst of edits does not postpone), from a worker thread with the JSON already
serialised, atomically (``app.atomic``). A failing write (a full disk, a read-only folder)
is told to the user once, in the status bar, and retried quietly every half minute.

Restored work keeps its recovery file (the window adopts it, lock and all) until the user
saves, undoes back to the saved state, closes cleanly or discards it: a second crash after a
restore loses nothing.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QTimer, Signal

from app import atomic, paths
from app.ui.threads import Worker

DELAY_MS = 1_000  # from a change to the write of its recovery copy
RETRY_MS = 30_000  # after a failed write, the next quiet try
CLOSE_TIMEOUT_S = 60.0  # the longest a closing window waits for its last write
LEGACY_NAME = "autosave.json"  # the single recovery file of versions before the locks


def folder() -> Path:
    """Where the recovery files and their locks live."""
    return paths.config_dir() / "recovery"


def _lock(path: Path) -> QLockFile:
    lock = QLockFile(str(path))
    lock.setStaleLockTime(0)  # stale only when its process is gone, never by age alone
    return lock


@dataclass
class Found:
    """Unsaved work left by a window that did not close cleanly, its lock now ours."""

    scenario: dict
    source: Path | None
    path: Path
    lock: QLockFile | None


def read(path: Path) -> tuple[dict, Path | None] | None:
    """The scenario and its source file kept in a recovery file; None when unreadable."""
    try:
        stored = json.loads(Path(path).read_text(encoding="utf-8"))
        source = stored.get("source")
        scenario = stored["scenario"]
        if not isinstance(scenario, dict):
            return None
        return scenario, Path(source) if source else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None


def orphans() -> list[Found]:
    """Recovery files no running window holds, newest first; each one's lock is taken (the
    caller adopts one and :func:`release` the others). Unreadable files are skipped."""
    candidates = sorted(folder().glob("*.json")) if folder().is_dir() else []
    legacy = paths.config_dir() / LEGACY_NAME
    found: list[tuple[float, Found]] = []
    for path in candidates:
        lock = _lock(path.with_suffix(".lock"))
        if not lock.tryLock(0):
            continue  # a running window's own copy
        kept = read(path)
        if kept is None:
            lock.unlock()
            continue
        found.append((_mtime(path), Found(*kept, path, lock)))
    for stale in folder().glob("*.lock") if folder().is_dir() else []:
        if not stale.with_suffix(".json").exists():  # a crash before any unsaved work
            lock = _lock(stale)
            if lock.tryLock(0):
                lock.unlock()  # removes the dead process's lock file
    if legacy.is_file() and (kept := read(legacy)) is not None:
        found.append((_mtime(legacy), Found(*kept, legacy, None)))
    return [item for _, item in sorted(found, key=lambda pair: -pair[0])]


def release(found: list[Found]) -> None:
    """Give back the locks of orphans not adopted (they are offered again next start)."""
    for item in found:
        if item.lock is not None:
            item.lock.unlock()


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


class Autosaver(QObject):
    """The recovery copy of one window's unsaved work.

    ``changed()`` after every change of the scenario or of its clean state; the copy is
    written :data:`DELAY_MS` later (or removed when nothing is unsaved). ``failed(reason)``
    fires once per run of failures, ``recovered()`` when a write works again.
    """

    failed = Signal(str)
    recovered = Signal()

    def __init__(self, state, parent: QObject | None = None):
        """``state()`` returns ``(dirty, scenario data, source path)`` on the GUI thread."""
        super().__init__(parent)
        self.state = state
        self.path = folder() / f"{os.getpid()}-{uuid.uuid4().hex[:12]}.json"
        self.lock: QLockFile | None = None
        self.adopted: Path | None = None  # a restored orphan's file, removed with ours
        self.timer = QTimer(self, singleShot=True, interval=DELAY_MS)
        self.timer.timeout.connect(self.flush)
        self.worker = Worker("autosave", self._written_message, parent=self)
        self.ticket = 0  # the latest write asked for
        self.failing = False  # the user has been told; stay quiet until a write works
        self.closed = False

    # --- GUI thread ---------------------------------------------------------------------
    def changed(self, *_) -> None:
        """Something changed: write within DELAY_MS (a pending write takes it along)."""
        if not self.closed and not self.timer.isActive():
            self.timer.start(DELAY_MS)

    def flush(self) -> None:
        """Write (or remove) the recovery copy now, on the worker."""
        if self.closed:
            return
        self.timer.stop()
        dirty, data, source = self.state()
        self.ticket += 1
        if dirty:
            self._hold_lock()
            text = json.dumps({"source": str(source) if source else None, "scenario": data},
                              indent=2)
            self._submit(text)
        else:
            self._submit(None)

    def adopt(self, found: Found) -> None:
        """Take over a restored orphan: its lock becomes ours and its file stays until this
        window's work is saved, discarded or closed cleanly."""
        if found.lock is not None:
            if self.lock is not None:
                self.lock.unlock()
                _remove(self.path)
            self.lock, self.path = found.lock, found.path
        else:  # the legacy file: kept until our own copy replaces it
            self.adopted = found.path

    def discard(self) -> None:
        """The user no longer wants the unsaved work kept: remove the copy (on the worker,
        after any write still queued)."""
        self.ticket += 1
        self._submit(None)

    def close(self) -> None:
        """A clean end: no recovery copy, no lock. Waits for the worker."""
        if self.closed:
            return
        self.closed = True
        self.timer.stop()
        self.ticket += 1
        self._submit(None)
        self.worker.wait(CLOSE_TIMEOUT_S)
        if self.lock is not None:
            self.lock.unlock()
            self.lock = None

    def wait(self, timeout_s: float = 60.0) -> None:
        """Let every queued write finish (tests, the crash test's measurement).

        A write that has not finished after ``timeout_s`` seconds raises TimeoutError rather
        than blocking the caller for ever.
        """
        if not self.worker.wait(timeout_s):
            raise TimeoutError(f"the recovery copy was not written within {timeout_s} s")

    def _hold_lock(self) -> None:
        if self.lock is None:
            with contextlib.suppress(OSError):
                folder().mkdir(parents=True, exist_ok=True)
            lock = _lock(self.path.with_suffix(".lock"))
            if lock.tryLock(0):
                self.lock = lock

    def _written(self, ticket: int, error: str) -> None:
        if error:
            if not self.failing:
                self.failing = True
                self.failed.emit(error)
            if not self.closed:
                self.timer.start(RETRY_MS)
        elif self.failing and ticket == self.ticket:
            self.failing = False
            self.recovered.emit()

    def _submit(self, text: str | None) -> None:
        """Write ``text`` to the recovery copy (None: remove it), on the worker."""
        self.worker.submit(functools.partial(_write, self.ticket, self.path, text,
                                             self.adopted))

    def _written_message(self, message: tuple[int, str, bool]) -> None:
        ticket, error, adopted_removed = message
        if adopted_removed and error == "":
            self.adopted = None
        self._written(ticket, error)


# --- worker thread: plain Python objects only (app.ui.threads) ---------------------------
def _write(ticket: int, path: Path, text: str | None, adopted: Path | None, post) -> None:
    """Write (or, for None, remove) the recovery copy; remove an adopted file along with it.
    Posts ``(ticket, error or "", whether the adopted file went)``."""
    error, adopted_removed = "", False
    try:
        if text is None:
            _remove(path)
            if adopted is not None:
                _remove(adopted)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic.write_text(path, text)
            if adopted is not None:
                _remove(adopted)
                adopted_removed = True
    except OSError as exc:
        error = exc.strerror or str(exc)
    post((ticket, error, adopted_removed))
