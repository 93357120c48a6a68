"""The suite's guards work: no network, and no access to the real user configuration.

Each test here fails when the guard in tests/conftest.py is missing or broken.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")


def _assert_refused(guard, excinfo, *, expected_attempts: int = 1) -> None:
    assert type(excinfo.value).__name__ == "NetworkAccessError"
    assert isinstance(excinfo.value, RuntimeError)
    assert "test tried to open a network connection to" in str(excinfo.value)
    assert len(guard.attempts) == expected_attempts
    guard.attempts.clear()  # provoked on purpose: do not fail this test at teardown


def test_connect_to_localhost_is_refused(network_guard):
    with (
        socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock,
        pytest.raises(network_guard.error) as excinfo,
    ):
        sock.connect(("127.0.0.1", 9))
    assert "127.0.0.1" in str(excinfo.value)
    _assert_refused(network_guard, excinfo)


def test_connect_ex_to_localhost_is_refused(network_guard):
    with (
        socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock,
        pytest.raises(network_guard.error) as excinfo,
    ):
        sock.connect_ex(("127.0.0.1", 9))
    _assert_refused(network_guard, excinfo)


def test_udp_send_is_refused(network_guard):
    with (
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock,
        pytest.raises(network_guard.error) as excinfo,
    ):
        sock.sendto(b"x", ("127.0.0.1", 9))
    _assert_refused(network_guard, excinfo)


def test_connection_to_a_public_name_is_refused(network_guard):
    with pytest.raises(network_guard.error) as excinfo:
        socket.create_connection(("huggingface.co", 443), timeout=1)
    assert "huggingface.co" in str(excinfo.value)
    _assert_refused(network_guard, excinfo)


def test_name_lookup_is_refused(network_guard):
    with pytest.raises(network_guard.error) as excinfo:
        socket.getaddrinfo("pypi.org", 443)
    _assert_refused(network_guard, excinfo)


def test_urllib_is_refused(network_guard):
    import urllib.request

    with pytest.raises(network_guard.error) as excinfo:
        urllib.request.urlopen("http://example.com/", timeout=1)
    _assert_refused(network_guard, excinfo)


def test_network_error_is_not_an_oserror(network_guard):
    # Code that handles network failures with `except OSError` must not swallow the guard.
    assert not issubclass(network_guard.error, OSError)


def test_unix_socketpair_still_works():
    left, right = socket.socketpair(socket.AF_UNIX)
    with left, right:
        left.sendall(b"ping")
        assert right.recv(4) == b"ping"


def test_unix_socket_connect_still_works():
    folder = tempfile.mkdtemp()  # short path: AF_UNIX addresses are limited to ~100 bytes
    path = os.path.join(folder, "s")
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
            server.bind(path)
            server.listen(1)
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
                assert client.connect_ex(path) == 0
                conn, _ = server.accept()
                with conn:
                    client.sendall(b"pong")
                    assert conn.recv(4) == b"pong"
    finally:
        if os.path.exists(path):
            os.unlink(path)
        os.rmdir(folder)


def test_swallowed_network_error_still_fails_the_test(tmp_path):
    """Run a tiny suite with our conftest: a test that catches the error must still fail."""
    (tmp_path / "conftest.py").write_text(CONFTEST.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "test_inner.py").write_text(
        textwrap.dedent(
            """
            import socket

            def test_swallows():
                try:
                    socket.create_connection(("127.0.0.1", 9), timeout=1)
                except Exception:
                    pass

            import pytest

            @pytest.fixture
            def swallowing_fixture():
                try:
                    socket.getaddrinfo("example.com", 80)
                except Exception:
                    pass

            def test_fixture_swallows(swallowing_fixture):
                pass

            def test_local_only():
                a, b = socket.socketpair(socket.AF_UNIX)
                a.close()
                b.close()
            """
        ),
        encoding="utf-8",
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "1 failed, 2 passed, 1 error" in out, out
    assert "FAILED test_inner.py::test_swallows" in out, out
    assert "ERROR test_inner.py::test_fixture_swallows" in out, out
    assert "test tried to open a network connection to ('127.0.0.1', 9)" in out, out


def test_config_dir_is_not_the_users(user_config_dir):
    folder = Path(os.environ["AISIZER_CONFIG_DIR"])
    assert folder == user_config_dir
    assert folder.is_dir() and not any(folder.iterdir())
    assert not folder.resolve().is_relative_to(Path.home().resolve() / ".config")


def test_session_config_dir_is_temporary(tmp_path_factory):
    base = tmp_path_factory.getbasetemp().resolve()
    for var in ("AISIZER_CONFIG_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        folder = Path(os.environ[var]).resolve()
        assert folder.is_relative_to(base), (var, folder)


def test_app_paths_use_the_temporary_config_dir(user_config_dir):
    from app import paths

    assert paths.config_dir() == user_config_dir
    assert paths.user_catalog_dir() == user_config_dir / "catalogs"
