"""``aisizer selftest``: does this installation work? (from source, installed, or bundled)

One line per check, ``PASS name: detail`` or ``FAIL name: detail``, then a summary; exit
status 0 only when every check passed. The checks:

- files: the catalogs, fonts, examples and docs/METHOD.md the program ships are there;
- catalogs: the built-in catalogs load with no problem at all;
- user catalog: the user's catalog folder (if any) loads with no problem;
- example NAME: every built-in example is sized with the built-in catalogs;
- report: a report is written and signed in a temporary folder with a temporary identity
  (``AISIZER_CONFIG_DIR`` points at a temporary folder for the rest of the run and is
  restored afterwards), then verified as "valid and trusted" against its own certificate;
- translations: Qt's German translations load;
- window: the main window is rendered offscreen at its screenshot size;
- network: nothing tried to open a network connection during the run.

The whole run is under a socket guard: an attempt to resolve a name or to connect or send to
anything but a local (AF_UNIX) socket is refused and makes the ``network`` check fail (the
one exception: the loopback pair ``socket.socketpair()`` makes on Windows). Qt is
imported lazily (only for the last checks), so a broken Qt still lets the others report.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from app import APP_NAME, __version__, paths

WINDOW_SIZE = (1280, 800)
CONFIG_ENV = "AISIZER_CONFIG_DIR"
PLATFORM_ENV = "QT_QPA_PLATFORM"


class CheckFailed(Exception):
    """A check found a problem; the message is the detail printed after FAIL."""


@dataclass
class Outcome:
    name: str
    passed: bool
    detail: str


# --------------------------------------------------------------------------- network guard


class NetworkRefused(RuntimeError):
    """The self-test refused a network access (AI Sizer must work offline)."""


LOOPBACK = ("127.0.0.1", "::1")


@dataclass
class SocketGuard:
    """Refuses every non-local socket use while active and remembers each attempt.

    One exception: ``socket.socketpair()``. On Windows it is made of two TCP sockets joined
    over the loopback interface (there is no AF_UNIX pair), and asyncio's event loop makes one
    at start (pyHanko signs through asyncio). A loopback connection made inside
    ``socketpair()`` is allowed; any other is refused.
    """

    attempts: list[str] = field(default_factory=list)
    _pairing: threading.local = field(default_factory=threading.local)

    def refuse(self, target: object) -> NetworkRefused:
        self.attempts.append(str(target))
        return NetworkRefused(f"network access refused: {target}")

    def allows(self, sock: socket.socket, address: object) -> bool:
        """Whether ``sock`` may connect or send to ``address``."""
        unix = getattr(socket, "AF_UNIX", None)
        if unix is not None and sock.family == unix:
            return True
        return (getattr(self._pairing, "active", False) and isinstance(address, tuple)
                and bool(address) and address[0] in LOOPBACK)

    @contextlib.contextmanager
    def pairing(self) -> Iterator[None]:
        """Inside ``socketpair()``: its own loopback connection is allowed (this thread)."""
        before = getattr(self._pairing, "active", False)
        self._pairing.active = True
        try:
            yield
        finally:
            self._pairing.active = before

    @contextlib.contextmanager
    def active(self) -> Iterator[SocketGuard]:
        originals = {name: getattr(socket.socket, name)
                     for name in ("connect", "connect_ex", "sendto", "sendmsg")
                     if hasattr(socket.socket, name)}
        module_originals = {name: getattr(socket, name)
                            for name in ("create_connection", "getaddrinfo", "gethostbyname",
                                         "gethostbyname_ex", "gethostbyaddr")}
        real_socketpair = socket.socketpair
        guard = self

        def method(name: str) -> Callable:
            real = originals[name]

            def guarded(sock, *args, **kwargs):
                if name == "sendmsg" and len(args) < 4 and "address" not in kwargs:
                    return real(sock, *args, **kwargs)  # on a connected socket: already checked
                target = args[-1] if args else kwargs.get("address")
                if guard.allows(sock, target):
                    return real(sock, *args, **kwargs)
                raise guard.refuse(repr(target))

            return guarded

        def refused(name: str) -> Callable:
            def guarded(*args, **kwargs):
                raise guard.refuse(f"{name}{args!r}")

            return guarded

        def socketpair(*args, **kwargs):
            with guard.pairing():
                return real_socketpair(*args, **kwargs)

        try:
            for name in originals:
                setattr(socket.socket, name, method(name))
            for name in module_originals:
                setattr(socket, name, refused(name))
            socket.socketpair = socketpair
            yield self
        finally:
            for name, real in originals.items():
                setattr(socket.socket, name, real)
            for name, real in module_originals.items():
                setattr(socket, name, real)
            socket.socketpair = real_socketpair


# --------------------------------------------------------------------------- helpers


@contextlib.contextmanager
def temporary_config(folder: Path) -> Iterator[Path]:
    """Point ``AISIZER_CONFIG_DIR`` at ``folder`` for the duration, then restore it."""
    from app.catalog import clear_cache

    before = os.environ.get(CONFIG_ENV)
    os.environ[CONFIG_ENV] = str(folder)
    clear_cache()
    try:
        yield folder
    finally:
        if before is None:
            os.environ.pop(CONFIG_ENV, None)
        else:
            os.environ[CONFIG_ENV] = before
        clear_cache()


def _short(problems: list, limit: int = 3) -> str:
    shown = "; ".join(str(p) for p in problems[:limit])
    more = len(problems) - limit
    return shown + (f"; and {more} more" if more > 0 else "")


# --------------------------------------------------------------------------- the checks


def check_files() -> str:
    from app.domain.catalog import KINDS

    root = paths.root()
    wanted = [paths.catalogs_dir() / f"{kind}.toml" for kind in (*KINDS, "defaults")]
    wanted += [root / "docs" / "METHOD.md"]
    fonts = sorted((paths.resources_dir() / "fonts").glob("*.ttf"))
    examples = sorted((paths.resources_dir() / "examples").glob("*.json"))
    missing = [str(p.relative_to(root)) for p in wanted if not p.is_file()]
    if not fonts:
        missing.append("resources/fonts/*.ttf")
    if not examples:
        missing.append("resources/examples/*.json")
    if missing:
        raise CheckFailed(f"missing under {root}: {', '.join(missing)}")
    where = paths.installation()
    return (f"{APP_NAME} {__version__} ({where}, Python {sys.version.split()[0]}) at {root}: "
            f"{len(wanted)} data files, {len(fonts)} fonts, {len(examples)} examples")


def builtin_catalog():
    from app.catalog import load_catalog

    return load_catalog(include_user=False)


def check_catalogs() -> str:
    from app.domain.catalog import KINDS, SITE_KINDS

    catalog = builtin_catalog()
    if catalog.problems:
        raise CheckFailed(f"{len(catalog.problems)} problem(s) in the built-in catalogs: "
                          f"{_short(catalog.problems)}")
    counts = {kind: len(getattr(catalog, kind)) for kind in KINDS}
    empty = [kind for kind, n in counts.items() if n == 0 and kind not in SITE_KINDS]
    if empty:
        raise CheckFailed(f"no entries for {', '.join(empty)} in {paths.catalogs_dir()}")
    versions = sorted(set(catalog.versions.values()))
    return (f"{sum(counts.values())} entries ({', '.join(f'{n} {k}' for k, n in counts.items())})"
            f", {len(catalog.defaults)} defaults, version {', '.join(versions)}")


def check_user_catalog() -> str:
    from app.catalog.loader import load_folder

    folder = paths.user_catalog_dir()
    if not folder.is_dir():
        return f"none ({folder}); the built-in catalogs are used as they are"
    catalog = load_folder(folder)
    if catalog.problems:
        raise CheckFailed(f"{len(catalog.problems)} problem(s) in {folder}: "
                          f"{_short(catalog.problems)} (fix them, or 'aisizer catalog restore')")
    versions = ", ".join(f"{k} {v}" for k, v in sorted(catalog.versions.items())) or "no files"
    return f"{folder} loads cleanly ({versions})"


def check_example(name: str, catalog) -> str:
    from app import api

    result = api.size(api.load_scenario(api.example(name)), catalog)
    if not result.catalog_versions:
        raise CheckFailed("the result does not record the catalog versions it was sized with")
    chosen = result.selection.chosen
    return (f"{chosen.gpus_per_replica} x {chosen.gpu} per replica, "
            f"{result.scale.replicas} replica(s), {result.scale.gpus_total} GPU(s), "
            f"{result.facility.it_power_w / 1000:.1f} kW IT")


def check_report(folder: Path, catalog) -> str:
    from app import api
    from app.report import identity, verify
    from app.report.export import build_report, write_report

    secret = "selftest-passphrase"
    made = identity.create("AI Sizer selftest", "selftest", "selftest@example.invalid",
                           secret, folder / "identity.p12")
    loaded = identity.load(folder / "identity.p12", secret)
    data = api.example("worked-example") if "worked-example" in api.example_names() else \
        api.example(api.example_names()[0])
    result = api.size(api.load_scenario(data), catalog)
    pdf = build_report(data, result, lang="en", identity=loaded, catalog=catalog)
    path = write_report(folder / "selftest-report.pdf", pdf)
    outcome = verify.verify_file(path, [folder / "identity.pem"])
    if not outcome.trusted:
        raise CheckFailed(f"the signed report verifies as '{outcome.summary}': {outcome.detail}")
    if outcome.fingerprint != made.fingerprint:
        raise CheckFailed("the report verifies, but with another certificate than the one "
                          "that signed it")
    return (f"signed {path.stat().st_size // 1024} KB PDF verifies as '{outcome.summary}' "
            f"against its own certificate (attachments: {', '.join(outcome.attachments)})")


def _qt_platform() -> None:
    """Render offscreen unless the caller chose a platform (QT_QPA_PLATFORM=xcb tests X11)."""
    if not os.environ.get(PLATFORM_ENV):
        os.environ[PLATFORM_ENV] = "offscreen"


def _import_qt():
    try:
        from PySide6.QtWidgets import QApplication
    except ImportError as exc:
        raise CheckFailed(f"Qt cannot be loaded ({exc}); install the system libraries the "
                          "README lists for your distribution (libgl1 libegl1 ...)") from None
    return QApplication


def _compiled_catalog(lang: str) -> str:
    """Load ``lang``'s compiled gettext catalog as the program will (a missing or stale .mo
    fails here, where the program would compile the .po in memory or refuse)."""
    from app.i18n import translations

    with warnings.catch_warnings():
        warnings.simplefilter("error", translations.StaleTranslations)
        try:
            catalog = translations.load(lang)
        except (translations.TranslationsMissing, translations.StaleTranslations) as exc:
            raise CheckFailed(str(exc)) from None
    if catalog.gettext("&File") == "&File":
        raise CheckFailed(f"the '{lang}' catalog loads but does not translate '&File'")
    return translations.catalog_files(lang)[1].name


def check_translations() -> str:
    from app.i18n import LANGUAGES

    compiled = [f"{lang}: {_compiled_catalog(lang)}" for lang in LANGUAGES if lang != "en"]
    _import_qt()
    from PySide6.QtCore import QLibraryInfo, QTranslator

    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    translator = QTranslator()
    if not translator.load("qtbase_de", folder):
        raise CheckFailed(f"Qt's German translations (qtbase_de.qm) are not in {folder}")
    return (f"languages {', '.join(LANGUAGES)} ({', '.join(compiled)}); qtbase_de.qm loads "
            f"from {folder}")


def check_window() -> str:
    _import_qt()
    from PySide6.QtWidgets import QApplication

    from app.ui.app import application, make_window

    app = application()
    window = make_window()
    try:
        window.resize(*WINDOW_SIZE)
        window.show()
        if not window.controller.wait_until_idle(30.0):
            raise CheckFailed("the window did not finish sizing the example within 30 s")
        QApplication.processEvents()
        image = window.grab().toImage()
        # On a scaled display (Windows at 150 %, QT_SCALE_FACTOR) the image has device pixels.
        ratio = image.devicePixelRatio() or 1.0
        logical = (round(image.width() / ratio), round(image.height() / ratio))
        if logical != (window.width(), window.height()):
            raise CheckFailed(f"rendered {image.width()} x {image.height()} pixels at scale "
                              f"{ratio:g}, but the window is {window.width()} x "
                              f"{window.height()}")
        if (window.width(), window.height()) != WINDOW_SIZE:
            raise CheckFailed(f"the window is {window.width()} x {window.height()}, asked for "
                              f"{WINDOW_SIZE[0]} x {WINDOW_SIZE[1]}")
        colours = {image.pixel(x, y) for x in range(0, image.width(), 37)
                   for y in range(0, image.height(), 29)}
        if len(colours) < 3:
            raise CheckFailed("the rendered window is blank")
        if window.controller.result is None:
            raise CheckFailed("the window shows no sizing result for the built-in example")
        pages = len(getattr(window, "pages", []))
        scale = f", scale {ratio:g}" if ratio != 1 else ""
        return (f"main window rendered at {image.width()} x {image.height()} on "
                f"'{app.platformName()}'{scale} ({pages} pages, font '{app.font().family()}', "
                f"{len(colours)} colours sampled)")
    finally:
        window.hide()
        window.deleteLater()
        QApplication.processEvents()


# --------------------------------------------------------------------------- runner


class Runner:
    def __init__(self, out: TextIO, verbose: bool = False):
        self.out = out
        self.verbose = verbose
        self.outcomes: list[Outcome] = []

    def check(self, name: str, func: Callable[[], str]) -> bool:
        try:
            outcome = Outcome(name, True, func())
        except CheckFailed as exc:
            outcome = Outcome(name, False, str(exc))
        except Exception as exc:  # any error is a failed check, never a crash of the run
            outcome = Outcome(name, False, f"{type(exc).__name__}: {exc}")
            if self.verbose:
                traceback.print_exc(file=self.out)
        self.outcomes.append(outcome)
        detail = " ".join(outcome.detail.split())
        print(f"{'PASS' if outcome.passed else 'FAIL'} {name}: {detail}", file=self.out,
              flush=True)
        return outcome.passed


def run(out: TextIO | None = None, verbose: bool = False) -> list[Outcome]:
    """Run every check, printing one line each; returns the outcomes."""
    out = out or sys.stdout
    runner = Runner(out, verbose)
    started = time.perf_counter()
    guard = SocketGuard()
    with guard.active():
        runner.check("files", check_files)
        catalog_ok = runner.check("catalogs", check_catalogs)
        runner.check("user catalog", check_user_catalog)
        with tempfile.TemporaryDirectory(prefix="aisizer-selftest-") as scratch, \
                temporary_config(Path(scratch) / "config"):
            catalog = builtin_catalog() if catalog_ok else None
            from app import api

            for name in api.example_names():
                runner.check(f"example {name}", lambda n=name: check_example(n, catalog))
            report_dir = Path(scratch) / "report"
            report_dir.mkdir()
            runner.check("report", lambda: check_report(report_dir, catalog))
            _qt_platform()
            runner.check("translations", check_translations)
            runner.check("window", check_window)
    runner.check("network", lambda: _network_detail(guard))
    passed = sum(o.passed for o in runner.outcomes)
    total = len(runner.outcomes)
    verdict = "passed" if passed == total else "FAILED"
    failed = [o.name for o in runner.outcomes if not o.passed]
    print(f"selftest {verdict}: {passed} of {total} checks passed in "
          f"{time.perf_counter() - started:.1f} s" + (f"; failed: {', '.join(failed)}"
                                                      if failed else ""),
          file=out, flush=True)
    return runner.outcomes


def _network_detail(guard: SocketGuard) -> str:
    if guard.attempts:
        raise CheckFailed(f"{len(guard.attempts)} network access(es) were attempted and "
                          f"refused: {_short(guard.attempts)}")
    return ("no network access was attempted (every socket use outside AF_UNIX and "
            "socketpair() was guarded)")


def main(verbose: bool = False) -> int:
    """The ``selftest`` command: 0 when every check passed, else 1."""
    outcomes = run(verbose=verbose)
    return 0 if all(o.passed for o in outcomes) else 1


__all__ = ["Outcome", "SocketGuard", "main", "run"]
