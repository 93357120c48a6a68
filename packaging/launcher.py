"""Entry point of the bundled program (PyInstaller runs this file as ``aisizer``).

Before anything else it installs an exception hook: an error nobody caught is written with its
traceback to a crash log in the configuration folder (``crash-logs/`` under
``AISIZER_CONFIG_DIR`` or the platform's user configuration folder), and the user gets one
readable message (on stderr, and in a dialog when the desktop window is up) that says where
the log is. Then it runs ``app.cli.main`` (the desktop app when no command is given).

``AISIZER_STARTUP_PROBE=1`` measures start-up: the program prints
``first-window-epoch=<time.time()>`` as soon as the main window has been painted, then quits.
packaging/build.py --measure uses it; it works from source too (python packaging/launcher.py).
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
import sys
import tempfile
import threading
import traceback
from pathlib import Path

CRASH_FOLDER = "crash-logs"
PROBE_ENV = "AISIZER_STARTUP_PROBE"
_probe_refs: list = []  # keeps the probe's Qt objects alive


def _config_dir() -> Path:
    """The configuration folder (app.paths), or the temporary folder when even that module
    cannot be imported (a broken installation still gets its crash log)."""
    override = os.environ.get("AISIZER_CONFIG_DIR")
    if override:
        return Path(override)
    try:
        from app.paths import config_dir

        return config_dir()
    except Exception:  # any failure: fall back to the temporary folder
        return Path(tempfile.gettempdir()) / "AISizer"


def _version() -> str:
    try:
        from app import __version__

        return __version__
    except Exception:  # a broken install still gets a crash log
        return "unknown"


def write_crash_log(exc_type, exc, tb) -> Path | None:
    """Write the crash log; returns its path, or None when nothing could be written."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    text = "".join([
        f"AI Sizer {_version()} crashed at {dt.datetime.now().isoformat(timespec='seconds')}\n",
        f"Python {sys.version.split()[0]} on {platform.platform()}\n",
        f"frozen: {bool(getattr(sys, 'frozen', False))}; executable: {sys.executable}\n",
        f"command line: {' '.join(sys.argv)}\n\n",
        *traceback.format_exception(exc_type, exc, tb),
    ])
    for folder in (_config_dir() / CRASH_FOLDER, Path(tempfile.gettempdir()) / "AISizer"):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"crash-{stamp}-{os.getpid()}.log"
            path.write_text(text, encoding="utf-8")
            return path
        except OSError:
            continue
    return None


MISSING_LIBRARY = re.compile(r"([\w.+-]+\.so[.\d]*): cannot open shared object file")
# Windows: an extension module whose DLLs cannot be found or loaded.
DLL_LOAD_FAILED = re.compile(r"DLL load failed while importing ([\w.]+)")


def message_for(exc_type, exc, log: Path | None) -> str:
    where = (f"The details were written to {log}." if log is not None
             else "The details could not be written to a file.")
    missing = MISSING_LIBRARY.search(str(exc))
    if missing:
        return (f"AI Sizer cannot start: the system library {missing.group(1)} is missing. "
                "Install the system packages the README lists for your distribution (Debian "
                f"and Ubuntu: sudo apt-get install libgl1 libegl1). {where}")
    dll = DLL_LOAD_FAILED.search(str(exc))
    if dll:
        return (f"AI Sizer cannot start: Windows could not load {dll.group(1)} ({exc}). "
                "Unpack the whole zip again and keep the lib folder beside aisizer.exe; "
                f"Windows 10 version 1809 or newer is needed. {where}")
    what = f"{exc_type.__name__}: {exc}" if str(exc) else exc_type.__name__
    return (f"AI Sizer stopped because of an unexpected error ({what}). {where} "
            "Please send that file to your support contact.")


def _show_dialog(text: str) -> None:
    """A message box, but only when a desktop window can show one (never offscreen)."""
    widgets = sys.modules.get("PySide6.QtWidgets")
    if widgets is None:
        return
    app = widgets.QApplication.instance()
    if app is None or app.platformName() in ("offscreen", "minimal", ""):
        return
    widgets.QMessageBox.critical(None, "AI Sizer", text)


def crash_hook(exc_type, exc, tb) -> None:
    """``sys.excepthook``: log, tell the user once, never raise."""
    if issubclass(exc_type, KeyboardInterrupt):
        sys.__excepthook__(exc_type, exc, tb)
        return
    try:
        log = write_crash_log(exc_type, exc, tb)
        text = message_for(exc_type, exc, log)
        if sys.stderr is not None:  # None in a windowed build on Windows
            print(f"aisizer: {text}", file=sys.stderr, flush=True)
        _show_dialog(text)
    except Exception:  # the hook must never fail; fall back to Python's
        sys.__excepthook__(exc_type, exc, tb)


def _thread_hook(args: threading.ExceptHookArgs) -> None:
    crash_hook(args.exc_type, args.exc_value, args.exc_traceback)


def install() -> None:
    """Install the hook for the main thread and for every other thread."""
    sys.excepthook = crash_hook
    threading.excepthook = _thread_hook


def _install_startup_probe() -> None:
    """Create the QApplication now and quit once the main window has been painted."""
    import time

    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])

    class Probe(QObject):
        done = False

        def eventFilter(self, watched, event):  # noqa: N802 (Qt API)
            if (not self.done and event.type() == QEvent.Type.Show
                    and isinstance(watched, QMainWindow)):
                self.done = True
                QTimer.singleShot(0, lambda: self.painted(watched))
            return False

        def painted(self, window) -> None:
            window.grab()  # the first complete paint of the window
            print(f"first-window-epoch={time.time():.6f}", flush=True)
            QTimer.singleShot(0, app.quit)

    probe = Probe()
    app.installEventFilter(probe)
    _probe_refs.extend([app, probe])


def main() -> int:
    install()
    if sys.platform.startswith("linux") and getattr(sys, "frozen", False):
        # Qt inside the bundle finds its plugins itself; make sure no system Qt plugin path
        # from the environment leaks in and loads plugins built against another Qt.
        os.environ.pop("QT_PLUGIN_PATH", None)
    if os.environ.get(PROBE_ENV):
        _install_startup_probe()
    try:
        from app.cli import main as cli_main

        return cli_main()
    except Exception:  # reported once, readably, instead of the bootloader's traceback
        crash_hook(*sys.exc_info())
        return 1


if __name__ == "__main__":
    if not getattr(sys, "frozen", False):  # from source: make the checkout importable
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main())
