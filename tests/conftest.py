"""Settings for the whole test suite.

- Qt runs headless (``QT_QPA_PLATFORM=offscreen``), set before anything imports Qt.
- Tests never read or write the real user configuration: ``AISIZER_CONFIG_DIR`` (and the XDG
  config, data and state folders that Qt and platformdirs use) point at temporary folders.
  A test that needs its own, empty configuration folder asks for the ``user_config_dir``
  fixture.
- AI Sizer never touches the network, and the suite enforces it: any attempt to resolve a
  name or to connect or send to anything but a local AF_UNIX socket raises
  ``NetworkAccessError`` and fails the test, even when the code under test catches the error.
  ``network_guard`` gives tests access to the guard (see tests/test_offline_guard.py).
- Property tests (hypothesis) have no per-example deadline and no "too slow" health check:
  speed is measured by the benchmarks (make bench), and on a shared or loaded machine (CI with
  two cores) a slow example is not a failure. A test may still set its own settings.
- Python's cyclic garbage collector runs on the main thread only, between tests (see
  ``pytest_configure``): the suite's own threads would otherwise run it, and destroy the
  window tests' QObjects off the GUI thread.
"""

from __future__ import annotations

import gc
import os
import shutil
import socket
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "aisizer", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.load_profile("aisizer")

# Before anything imports Qt (test modules are imported after this file).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The user's folders, redirected already while test modules are collected (a module that reads
# its configuration at import time must not see the real one). The session fixture below then
# moves them under pytest's own temporary folder.
_XDG_VARS = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME")
_EARLY_HOME = Path(tempfile.mkdtemp(prefix="aisizer-tests-"))


def _point_user_folders_at(base: Path, setenv) -> Path:
    config = base / "aisizer-config"
    config.mkdir(parents=True, exist_ok=True)
    setenv("AISIZER_CONFIG_DIR", str(config))
    for var in _XDG_VARS:
        folder = base / var.lower()
        folder.mkdir(exist_ok=True)
        setenv(var, str(folder))
    return config


_point_user_folders_at(_EARLY_HOME, os.environ.__setitem__)


#: A full collection after every FULL_COLLECTION_EVERY tests; the young generations after each.
FULL_COLLECTION_EVERY = 25
_tests_torn_down = [0]
_COLLECTOR_WAS_ON = pytest.StashKey[bool]()


def pytest_configure(config: pytest.Config) -> None:
    """Automatic garbage collection off for the whole run; ``pytest_runtest_teardown`` collects.

    Python runs its cyclic collector on whichever thread allocates when a threshold trips, and a
    test run has threads the program never has: pytest-timeout's timer (one per test, started
    before the test and ended after it) and pytest-xdist's channel to the controller. A
    collection there destroys whatever cyclic garbage it finds, a closed window's QObjects
    included, off the GUI thread, and Qt then crashes in the GUI thread's next event round
    (a worker segfaulted in pytest-qt's ``_process_events``, with only a ``threading.Timer``
    alive beside the main thread; app/ui/threads.py explains the same crash for the program's
    own job threads, which it guards against itself). Tests that check that guard turn the
    collector back on (tests/ui/conftest.py, ``automatic_collection``).
    """
    if getattr(config, "workerinput", None) is None and config.getoption("numprocesses", None):
        return  # pytest-xdist's controller: it runs no test, and nothing would collect
    config.stash[_COLLECTOR_WAS_ON] = gc.isenabled()
    gc.disable()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    """After the test's fixtures are torn down (its windows closed): collect here, on the main
    thread, the young generations after every test and everything every 25th."""
    yield
    _tests_torn_down[0] += 1
    gc.collect(2 if _tests_torn_down[0] % FULL_COLLECTION_EVERY == 0 else 1)


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_EARLY_HOME, ignore_errors=True)
    if config.stash.get(_COLLECTOR_WAS_ON, False):
        gc.enable()


@pytest.fixture(scope="session", autouse=True)
def _session_user_folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One throw-away configuration folder for the whole session."""
    with pytest.MonkeyPatch.context() as mp:
        yield _point_user_folders_at(tmp_path_factory.mktemp("user"), mp.setenv)


def _clear_catalog_cache() -> None:
    # Only a module that was imported can hold a cache, so there is nothing to import here.
    loader = sys.modules.get("app.catalog.loader")
    clear = getattr(loader, "clear_cache", None)
    if clear is not None:
        clear()


@pytest.fixture
def user_config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh, empty configuration folder (``AISIZER_CONFIG_DIR``) for this test only.

    Cached catalogs are forgotten before and after, so user catalogs written by the test are
    seen by it and do not leak into other tests.
    """
    folder = tmp_path / "aisizer-config"
    folder.mkdir()
    monkeypatch.setenv("AISIZER_CONFIG_DIR", str(folder))
    _clear_catalog_cache()
    yield folder
    _clear_catalog_cache()


# --------------------------------------------------------------------------- no network


class NetworkAccessError(RuntimeError):
    """A test tried to reach the network; AI Sizer must work without one."""


class NetworkGuard:
    """Refuses network access and remembers each attempt, so a swallowed error still fails."""

    error = NetworkAccessError

    def __init__(self) -> None:
        self.attempts: list[str] = []

    def refuse(self, target: str) -> NetworkAccessError:
        self.attempts.append(target)
        return NetworkAccessError(
            f"test tried to open a network connection to {target} "
            "(AI Sizer must work offline; tests may only use local AF_UNIX sockets)"
        )


_AF_UNIX = getattr(socket, "AF_UNIX", None)


def _is_local(sock: socket.socket) -> bool:
    return _AF_UNIX is not None and sock.family == _AF_UNIX


def _install_guard(mp: pytest.MonkeyPatch, guard: NetworkGuard) -> None:
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_sendto = socket.socket.sendto
    real_sendmsg = socket.socket.sendmsg

    def connect(self, address):
        if _is_local(self):
            return real_connect(self, address)
        raise guard.refuse(repr(address))

    def connect_ex(self, address):
        if _is_local(self):
            return real_connect_ex(self, address)
        raise guard.refuse(repr(address))

    def sendto(self, data, *args):
        # sendto(data, address) or sendto(data, flags, address)
        if _is_local(self):
            return real_sendto(self, data, *args)
        raise guard.refuse(repr(args[-1] if args else None))

    def sendmsg(self, buffers, ancdata=(), flags=0, address=None):
        if address is None or _is_local(self):
            if address is None:
                return real_sendmsg(self, buffers, ancdata, flags)
            return real_sendmsg(self, buffers, ancdata, flags, address)
        raise guard.refuse(repr(address))

    def create_connection(address, *args, **kwargs):
        raise guard.refuse(repr(address))

    def getaddrinfo(host, port, *args, **kwargs):
        raise guard.refuse(f"{host!r} port {port!r} (name lookup)")

    def lookup(name):
        raise guard.refuse(f"{name!r} (name lookup)")

    mp.setattr(socket.socket, "connect", connect)
    mp.setattr(socket.socket, "connect_ex", connect_ex)
    mp.setattr(socket.socket, "sendto", sendto)
    mp.setattr(socket.socket, "sendmsg", sendmsg)
    mp.setattr(socket, "create_connection", create_connection)
    mp.setattr(socket, "getaddrinfo", getaddrinfo)
    mp.setattr(socket, "gethostbyname", lookup)
    mp.setattr(socket, "gethostbyname_ex", lookup)
    mp.setattr(socket, "gethostbyaddr", lookup)


_GUARD = NetworkGuard()
_CAUGHT = "(the NetworkAccessError was caught by the code under test)"


@pytest.fixture(scope="session", autouse=True)
def _network_guard_installed() -> Iterator[NetworkGuard]:
    """Active for the whole session, session-scoped fixtures included."""
    with pytest.MonkeyPatch.context() as mp:
        _install_guard(mp, _GUARD)
        yield _GUARD


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """Fails the test if it tried to reach the network, even if it caught the error."""
    before = len(_GUARD.attempts)  # earlier ones (from fixtures) are the fixture's to report
    passed = False
    try:
        result = yield
        passed = True
        return result
    finally:
        attempts = _GUARD.attempts[before:]
        del _GUARD.attempts[before:]
        if passed and attempts:
            pytest.fail(
                f"test tried to open a network connection to {', '.join(attempts)} {_CAUGHT}",
                pytrace=False,
            )


@pytest.fixture(autouse=True)
def network_guard(_network_guard_installed: NetworkGuard) -> Iterator[NetworkGuard]:
    """The guard; also catches attempts made by fixtures (reported as an error of the test).

    A test that provokes an attempt on purpose clears ``network_guard.attempts`` afterwards.
    """
    guard = _network_guard_installed
    guard.attempts.clear()
    yield guard
    attempts, guard.attempts[:] = list(guard.attempts), []
    if attempts:
        pytest.fail(
            f"a fixture tried to open a network connection to {', '.join(attempts)} {_CAUGHT}",
            pytrace=False,
        )
