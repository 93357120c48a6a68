"""`aisizer selftest` from source: every check passes here, and a failing check is named.

The full run (signed report, offscreen window) takes a few seconds; the failure cases replace
the slow checks with stubs.
"""

from __future__ import annotations

import contextlib
import io
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from app import paths, selftest
from app.cli import main

ROOT = Path(__file__).resolve().parents[2]
CHECKS = ["files", "catalogs", "user catalog", "report", "translations", "window", "network"]


def check_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(("PASS ", "FAIL "))]


def test_selftest_passes_from_source(capsys, user_config_dir):
    code = main(["selftest"])
    out = capsys.readouterr().out
    lines = check_lines(out)
    assert code == 0, out
    assert lines and all(line.startswith("PASS ") for line in lines), out
    names = [line[5:].split(":")[0] for line in lines]
    for name in CHECKS:
        assert name in names, (name, out)
    from app import api

    for example in api.example_names():
        assert f"example {example}" in names
    assert "valid and trusted" in out
    assert out.splitlines()[-1].startswith("selftest passed")
    # The temporary identity and report went to a temporary folder, not the user's.
    assert os.environ["AISIZER_CONFIG_DIR"] == str(user_config_dir)
    assert not any(user_config_dir.iterdir()), list(user_config_dir.iterdir())


@pytest.fixture
def quick(monkeypatch):
    """The slow checks replaced by stubs that pass."""
    monkeypatch.setattr(selftest, "check_report", lambda folder, catalog: "stub")
    monkeypatch.setattr(selftest, "check_window", lambda: "stub")
    monkeypatch.setattr(selftest, "check_translations", lambda: "stub")
    monkeypatch.setattr(selftest, "check_example", lambda name, catalog: "stub")


def test_a_failed_check_is_named_and_exits_1(quick, monkeypatch, capsys, user_config_dir):
    def broken() -> str:
        raise RuntimeError("the window could not be drawn")

    monkeypatch.setattr(selftest, "check_window", broken)
    assert main(["selftest"]) == 1
    out = capsys.readouterr().out
    assert "FAIL window: RuntimeError: the window could not be drawn" in out
    assert "failed: window" in out.splitlines()[-1]
    assert sum(line.startswith("FAIL") for line in out.splitlines()) == 1


def test_a_broken_builtin_catalog_fails(quick, monkeypatch, tmp_path, user_config_dir):
    folder = tmp_path / "catalogs"
    folder.mkdir()
    for source in paths.catalogs_dir().glob("*.toml"):
        (folder / source.name).write_bytes(source.read_bytes())
    text = (folder / "gpus.toml").read_text(encoding="utf-8")
    (folder / "gpus.toml").write_text(text.replace("memory_gb = 80", "memory_gb = -80", 1),
                                      encoding="utf-8")
    monkeypatch.setattr(paths, "catalogs_dir", lambda: folder)
    out = io.StringIO()
    outcomes = {o.name: o for o in selftest.run(out)}
    assert not outcomes["catalogs"].passed
    assert "memory_gb" in outcomes["catalogs"].detail
    assert "FAIL catalogs:" in out.getvalue()


def test_a_broken_user_catalog_fails(quick, user_config_dir):
    folder = user_config_dir / "catalogs"
    folder.mkdir()
    (folder / "gpus.toml").write_text("[broken\n", encoding="utf-8")
    outcomes = {o.name: o for o in selftest.run(io.StringIO())}
    assert not outcomes["user catalog"].passed
    assert "gpus.toml" in outcomes["user catalog"].detail


def test_a_network_attempt_fails_the_network_check(quick, monkeypatch, user_config_dir):
    def phones_home() -> str:
        with contextlib.suppress(Exception):  # swallowed on purpose: still reported
            socket.create_connection(("example.com", 443), timeout=1)
        return "fine"

    monkeypatch.setattr(selftest, "check_files", phones_home)
    outcomes = {o.name: o for o in selftest.run(io.StringIO())}
    assert outcomes["files"].passed
    assert not outcomes["network"].passed
    assert "example.com" in outcomes["network"].detail


def test_the_socket_guard_refuses_and_restores(network_guard):
    before = (socket.socket.connect, socket.create_connection, socket.getaddrinfo)
    guard = selftest.SocketGuard()
    with guard.active():
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock, \
                pytest.raises(selftest.NetworkRefused):
            sock.connect(("127.0.0.1", 9))
        with pytest.raises(selftest.NetworkRefused):
            socket.getaddrinfo("pypi.org", 443)
        left, right = socket.socketpair(socket.AF_UNIX)  # local sockets still work
        with left, right:
            left.sendall(b"ok")
            assert right.recv(2) == b"ok"
    assert len(guard.attempts) == 2
    assert (socket.socket.connect, socket.create_connection, socket.getaddrinfo) == before
    assert network_guard.attempts == []  # refused by the self-test's guard first


def test_config_dir_is_restored_even_when_a_check_raises(quick, monkeypatch, user_config_dir):
    seen = []

    def look() -> str:
        seen.append(Path(os.environ["AISIZER_CONFIG_DIR"]))
        raise KeyError("boom")

    monkeypatch.setattr(selftest, "check_example", lambda name, catalog: look())
    selftest.run(io.StringIO())
    assert seen and all(path != user_config_dir for path in seen)
    assert os.environ["AISIZER_CONFIG_DIR"] == str(user_config_dir)


def test_translations_fail_without_a_current_compiled_catalog(monkeypatch, tmp_path):
    """The program would compile a stale catalog in memory; the selftest names it instead."""
    from app.i18n import translations

    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    source, _ = translations.catalog_files("de")
    (folder / source.name).write_bytes(source.read_bytes())
    monkeypatch.setattr(paths, "locale_dir", lambda: tmp_path)
    with pytest.raises(selftest.CheckFailed, match=r"aisizer\.mo is missing"):
        selftest.check_translations()
    (folder / source.name).unlink()
    with pytest.raises(selftest.CheckFailed, match="translations for 'de' are missing"):
        selftest.check_translations()


def test_windows_socketpair_over_loopback_is_allowed_and_nothing_else(monkeypatch):
    """On Windows socket.socketpair() joins two TCP sockets over 127.0.0.1 (asyncio makes one
    for its event loop, and pyHanko signs through asyncio): allowed inside socketpair only."""
    guard = selftest.SocketGuard()
    seen = []

    def windows_socketpair(*args, **kwargs):  # stands in for CPython's Windows fallback
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            seen.append(guard.allows(sock, ("127.0.0.1", 50000)))
            seen.append(guard.allows(sock, ("::1", 50000)))
            seen.append(guard.allows(sock, ("192.0.2.1", 50000)))
        return "pair"

    monkeypatch.setattr(socket, "socketpair", windows_socketpair)
    with guard.active():
        assert socket.socketpair() == "pair"
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            assert not guard.allows(sock, ("127.0.0.1", 50000))  # outside socketpair
            with pytest.raises(selftest.NetworkRefused):
                sock.connect(("127.0.0.1", 9))
    assert seen == [True, True, False]
    assert socket.socketpair is windows_socketpair
    assert guard.attempts == ["('127.0.0.1', 9)"]


@pytest.mark.slow
def test_the_window_check_passes_on_a_scaled_display(tmp_path):
    """A Windows laptop at 200 % renders the window with twice the pixels; the check compares
    the window's size in device-independent pixels."""
    proc = subprocess.run(
        [sys.executable, "-c", "from app import selftest; print(selftest.check_window())"],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
        env={**os.environ, "QT_SCALE_FACTOR": "2", "QT_QPA_PLATFORM": "offscreen",
             "AISIZER_CONFIG_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    assert "rendered at 2560 x 1600 on 'offscreen', scale 2" in proc.stdout


def test_the_installation_kind(monkeypatch, tmp_path):
    assert paths.installation() == "source"
    python = tmp_path / "lib" / "python"
    python.mkdir(parents=True)
    (python / "python313._pth").write_text("python313.zip\n", encoding="utf-8")
    monkeypatch.setattr(sys, "executable", str(python / "python.exe"))
    assert paths.installation() == "windows folder"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert paths.installation() == "bundle"
