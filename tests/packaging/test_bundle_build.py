"""The offline bundle: build it with packaging/aisizer.spec, then run its selftest offline.

The bundle is built fresh into a temporary folder (about 40-90 s), so the source tree stays
clean. Its selftest runs without a network: in a new network namespace (``unshare -n`` as
root, ``unshare -rn`` otherwise) where the system permits one; where it does not, the
selftest's own socket guard (always on during a selftest) proves that no connection was tried.

Marked ``bundle``: ``make test-bundle`` runs these (it installs PyInstaller first), ``make
test`` leaves them out.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SIZE_LIMIT = 300 * 10**6  # bytes

# The build takes minutes (PyInstaller from scratch), beyond the per-test timeout of the suite.
pytestmark = [pytest.mark.slow, pytest.mark.bundle, pytest.mark.timeout(3600)]


def offline_prefix() -> tuple[list[str], str]:
    """A command prefix that runs a program without network, and how it does that."""
    unshare = shutil.which("unshare")
    if unshare and sys.platform.startswith("linux"):
        flags = ["-n"] if os.geteuid() == 0 else ["-r", "-n"]
        probe = subprocess.run([unshare, *flags, "true"], capture_output=True, timeout=30)
        if probe.returncode == 0:
            return [unshare, *flags], f"a new network namespace (unshare {' '.join(flags)})"
    return [], "the selftest's socket guard (no network namespace permitted here)"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    missing = [name for name in ("PyInstaller", "tzdata")
               if importlib.util.find_spec(name) is None]
    if missing:
        pytest.fail(f"{' and '.join(missing)} not installed in this environment, so the bundle "
                    "cannot be built: pip install 'pyinstaller>=6.10,<7' 'tzdata>=2024.1' "
                    "(make test-bundle and make package do this)", pytrace=False)
    base = tmp_path_factory.mktemp("bundle")
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "build.py"), "--no-archive",
         "--dist", str(base / "dist"), "--work", str(base / "work")],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"build failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    print(f"bundle built in {time.monotonic() - started:.0f} s")
    shutil.rmtree(base / "work", ignore_errors=True)
    return base / "dist" / "aisizer"


def executable(bundle: Path) -> Path:
    return bundle / ("aisizer.exe" if sys.platform == "win32" else "aisizer")


def bundle_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["AISIZER_CONFIG_DIR"] = str(tmp_path / "config")
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["PATH"] = os.defpath  # nothing from the virtual environment
    return env


def test_selftest_passes_offline(bundle, tmp_path):
    prefix, how = offline_prefix()
    proc = subprocess.run([*prefix, str(executable(bundle)), "selftest"], cwd=tmp_path,
                          env=bundle_env(tmp_path), capture_output=True, text=True,
                          timeout=300)
    out = proc.stdout
    report = f"(offline by {how})\n{out}\n{proc.stderr[-3000:]}"
    assert proc.returncode == 0, report
    lines = [line for line in out.splitlines() if line.strip()]
    checks = [line for line in lines if line.startswith(("PASS ", "FAIL "))]
    assert len(checks) >= 8, report
    assert all(line.startswith("PASS ") for line in checks), report
    assert set(lines) - set(checks) == {lines[-1]}, report  # only the summary besides checks
    assert lines[-1].startswith("selftest passed"), report
    assert "(bundle," in out, "the selftest ran from source, not from the bundle"
    for name in ("catalogs", "report", "translations", "window", "network"):
        assert f"PASS {name}:" in out, (name, report)


def test_unpacked_size_is_under_300_mb(bundle):
    total = sum(path.lstat().st_size for path in bundle.rglob("*") if not path.is_dir())
    assert total <= SIZE_LIMIT, f"{total / 1e6:.1f} MB"


def test_bundle_contents(bundle):
    inside = bundle / "_internal"
    for wanted in ("catalogs/gpus.toml", "catalogs/defaults.toml", "docs/METHOD.md",
                   "resources/fonts/DejaVuSans.ttf", "resources/examples/worked-example.json",
                   "resources/icons/aisizer.png", "resources/calibration/calibration_cases.json",
                   "PySide6/Qt/translations/qtbase_de.qm",
                   "app/i18n/locale/de/LC_MESSAGES/aisizer.mo"):
        assert (inside / wanted).is_file(), wanted
    for unwanted in ("tkinter", "PySide6/Qt/lib/libQt6Quick.so.6", "PySide6/QtNetwork.abi3.so",
                     "PySide6/Qt/translations/qtbase_fr.qm", "pytest", "PyInstaller",
                     "app/i18n/locale/de/LC_MESSAGES/aisizer.po"):
        assert not (inside / unwanted).exists(), unwanted
    assert "AI Sizer" in (bundle / "VERSION").read_text(encoding="utf-8")
    if sys.platform.startswith("linux"):
        assert (bundle / "aisizer.desktop").is_file()
        assert os.access(bundle / "install-desktop-entry.sh", os.X_OK)
    dangling = [p for p in bundle.rglob("*") if p.is_symlink() and not p.exists()]
    assert dangling == []


def test_version_and_catalog_versions(bundle, tmp_path):
    from app import __version__

    env = bundle_env(tmp_path)
    proc = subprocess.run([str(executable(bundle)), "--version"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == f"aisizer {__version__}", proc.stderr
    proc = subprocess.run([str(executable(bundle)), "catalog", "versions"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "_internal" in proc.stdout and "gpus.toml" in proc.stdout


def test_startup_probe_in_the_bundle(bundle, tmp_path):
    env = {**bundle_env(tmp_path), "AISIZER_STARTUP_PROBE": "1"}
    started = time.time()
    proc = subprocess.run([str(executable(bundle)), "gui"], env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    shown = [line for line in proc.stdout.splitlines() if line.startswith("first-window-epoch=")]
    assert shown, proc.stdout
    seconds = float(shown[0].split("=")[1]) - started
    print(f"bundle start-up to the first window: {seconds:.2f} s")
    assert 0 < seconds < 60
