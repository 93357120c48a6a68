"""packaging/launcher.py: the crash hook installed before main, and the start-up probe."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = ROOT / "packaging" / "launcher.py"


def load_launcher():
    spec = importlib.util.spec_from_file_location("aisizer_launcher", LAUNCHER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_python(code: str, config: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True,
        text=True, timeout=120,
        env={**os.environ, "AISIZER_CONFIG_DIR": str(config), "PYTHONPATH": str(ROOT), **env})


def test_an_uncaught_error_writes_a_crash_log_and_one_message(tmp_path):
    config = tmp_path / "config"
    proc = run_python(f"""
        import runpy, sys
        sys.argv = ["aisizer"]
        launcher = runpy.run_path({str(LAUNCHER)!r})
        launcher["install"]()
        raise ValueError("the catalog exploded")
        """, config)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr  # one readable message, no traceback on screen
    assert lines[0].startswith("aisizer: AI Sizer stopped because of an unexpected error "
                               "(ValueError: the catalog exploded).")
    logs = list((config / "crash-logs").glob("crash-*.log"))
    assert len(logs) == 1
    assert str(logs[0]) in lines[0]
    text = logs[0].read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text
    assert "ValueError: the catalog exploded" in text
    assert "AI Sizer 0." in text and "Python 3." in text


def test_errors_in_threads_are_logged_too(tmp_path):
    config = tmp_path / "config"
    proc = run_python(f"""
        import runpy, threading
        launcher = runpy.run_path({str(LAUNCHER)!r})
        launcher["install"]()
        def work():
            raise OSError("disk gone")
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
        """, config)
    assert proc.returncode == 0
    assert "OSError: disk gone" in proc.stderr
    assert len(list((config / "crash-logs").glob("*.log"))) == 1


def test_the_hook_falls_back_when_the_config_dir_cannot_be_written(tmp_path, monkeypatch,
                                                                   capsys):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("AISIZER_CONFIG_DIR", str(blocker))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # re-read TMPDIR
    launcher = load_launcher()
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        launcher.crash_hook(*sys.exc_info())
    err = capsys.readouterr().err
    assert "RuntimeError: boom" in err
    assert list((tmp_path / "tmp" / "AISizer").glob("crash-*.log"))


def test_keyboard_interrupt_is_not_a_crash(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AISIZER_CONFIG_DIR", str(tmp_path))
    launcher = load_launcher()
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt:
        launcher.crash_hook(*sys.exc_info())
    assert not (tmp_path / "crash-logs").exists()


def test_the_launcher_runs_the_command_line(tmp_path):
    proc = subprocess.run([sys.executable, str(LAUNCHER), "--version"], capture_output=True,
                          text=True, timeout=60,
                          env={**os.environ, "AISIZER_CONFIG_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("aisizer ")


@pytest.mark.slow
def test_the_startup_probe_reports_the_first_window(tmp_path):
    proc = subprocess.run([sys.executable, str(LAUNCHER), "gui"], capture_output=True,
                          text=True, timeout=120,
                          env={**os.environ, "AISIZER_CONFIG_DIR": str(tmp_path),
                               "QT_QPA_PLATFORM": "offscreen", "AISIZER_STARTUP_PROBE": "1"})
    assert proc.returncode == 0, proc.stderr
    assert "first-window-epoch=" in proc.stdout


def test_a_missing_system_library_names_the_packages(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AISIZER_CONFIG_DIR", str(tmp_path))
    launcher = load_launcher()
    try:
        raise ImportError("libEGL.so.1: cannot open shared object file: No such file or "
                          "directory")
    except ImportError:
        launcher.crash_hook(*sys.exc_info())
    err = capsys.readouterr().err.strip()
    assert err.startswith("aisizer: AI Sizer cannot start: the system library libEGL.so.1 is "
                          "missing.")
    assert "apt-get install libgl1 libegl1" in err
    assert len(list((tmp_path / "crash-logs").glob("*.log"))) == 1


def test_main_reports_an_error_once_and_exits_1(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AISIZER_CONFIG_DIR", str(tmp_path))
    launcher = load_launcher()
    import app.cli

    def explode():
        raise LookupError("no such thing")

    monkeypatch.setattr(app.cli, "main", explode)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # restored after the test
    monkeypatch.setattr("threading.excepthook", __import__("threading").excepthook)
    assert launcher.main() == 1
    err = capsys.readouterr().err
    assert err.count("aisizer: ") == 1 and "LookupError: no such thing" in err
