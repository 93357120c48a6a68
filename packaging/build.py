"""Build the offline bundle: dist/aisizer/ and its archive with a SHA-256 file.

    .venv/bin/python packaging/build.py            # what `make package` runs
    .venv/bin/python packaging/build.py --measure  # also: size, selftest and start-up time

Runs PyInstaller on packaging/aisizer.spec (one folder), puts the desktop entry, its installer
(Linux) and a VERSION file beside the executable, then writes
``dist/aisizer-<version>-<os>-<arch>.tar.gz`` (``.zip`` on Windows) and
``<archive>.sha256`` in the format ``sha256sum -c`` reads. Works on Linux, Windows and macOS
(pathlib and the standard library only; no shell tools).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import importlib.util
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
SPEC = PACKAGING / "aisizer.spec"
NAME = "aisizer"
SIZE_LIMIT = 300 * 10**6  # bytes (the 300 MB)


def version() -> str:
    text = (ROOT / "app" / "__init__.py").read_text(encoding="utf-8")
    return re.search(r'__version__\s*=\s*"([^"]+)"', text).group(1)


def platform_tag() -> str:
    system = {"win32": "windows", "darwin": "macos"}.get(sys.platform, sys.platform)
    if system.startswith("linux"):
        system = "linux"
    machine = platform.machine().lower()
    machine = {"amd64": "x86_64", "x64": "x86_64", "aarch64": "arm64"}.get(machine, machine)
    return f"{system}-{machine}"


def executable(bundle: Path) -> Path:
    return bundle / (f"{NAME}.exe" if sys.platform == "win32" else NAME)


def folder_size(folder: Path) -> int:
    total = 0
    for base, _dirs, files in os.walk(folder):
        for name in files:
            path = Path(base) / name
            total += path.lstat().st_size
    return total


def run_pyinstaller(dist: Path, work: Path) -> Path:
    missing = [req for module, req in (("PyInstaller", "pyinstaller>=6.10,<7"),
                                       ("tzdata", "tzdata>=2024.1"))
               if importlib.util.find_spec(module) is None]
    if missing:
        raise SystemExit("not installed in this Python: " + ", ".join(missing) + "; run: "
                         f"{sys.executable} -m pip install "
                         + " ".join(f"'{req}'" for req in missing))
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean",
               "--log-level", "WARN", "--distpath", str(dist), "--workpath", str(work),
               str(SPEC)]
    print("==>", " ".join(command), flush=True)
    subprocess.run(command, check=True, cwd=ROOT)
    return dist / NAME


def finish(bundle: Path) -> None:
    """Files users look for at the top of the folder: VERSION, desktop entry, its installer."""
    libc = " ".join(platform.libc_ver()).strip()
    info = [
        f"AI Sizer {version()}",
        f"built {dt.datetime.now(dt.UTC).strftime('%Y-%m-%d %H:%M UTC')} on "
        f"{platform.platform()}",
        f"Python {platform.python_version()}",
    ]
    if libc:
        info.append(f"needs {libc} or newer on the target (the build machine's C library)")
    (bundle / "VERSION").write_text("\n".join(info) + "\n", encoding="utf-8")
    if sys.platform.startswith("linux"):
        shutil.copy2(PACKAGING / "aisizer.desktop", bundle / "aisizer.desktop")
        installer = bundle / "install-desktop-entry.sh"
        shutil.copy2(PACKAGING / "install-desktop-entry.sh", installer)
        installer.chmod(0o755)


def system_libraries(bundle: Path) -> dict[str, list[str]]:
    """Linux: libraries the bundle's binaries need that it does not carry -> who needs them.

    These come from the target's system (libGL, libEGL, the C library, ...); the list goes to
    SYSTEM-LIBRARIES.txt in the bundle. One that this build machine lacks is marked.
    """
    from PyInstaller.depend import bindepend

    carried = {path.name for path in bundle.rglob("*.so*")}
    needed: dict[str, list[str]] = {}
    for path in sorted(bundle.rglob("*.so*")):
        if path.is_symlink() or not path.is_file():
            continue
        try:
            imports = bindepend.get_imports(str(path))
        except Exception:  # not an ELF file PyInstaller can read
            continue
        for name, resolved in imports:
            if Path(name).name not in carried:
                key = Path(name).name + ("" if resolved else " (not on the build machine)")
                needed.setdefault(key, []).append(str(path.relative_to(bundle)))
    return dict(sorted(needed.items()))


def write_system_libraries(bundle: Path) -> list[str]:
    needed = system_libraries(bundle)
    lines = ["Libraries this bundle loads from the system (everything else is inside it).",
             "Libraries marked 'not on the build machine' are needed only by the desktop",
             "platform plugins that name them (X11: libqxcb, Wayland: libqwayland).", ""]
    for name, users in needed.items():
        shown = ", ".join(Path(user).name for user in users[:3])
        more = f" and {len(users) - 3} more" if len(users) > 3 else ""
        lines.append(f"{name:<50} needed by {shown}{more}")
    (bundle / "SYSTEM-LIBRARIES.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [name for name in needed if name.endswith("(not on the build machine)")]


def _tar_filter(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def archive(bundle: Path) -> Path:
    """dist/aisizer-<version>-<os>-<arch>.tar.gz (.zip on Windows) and its .sha256."""
    stem = f"{NAME}-{version()}-{platform_tag()}"
    if sys.platform == "win32":
        target = bundle.parent / f"{stem}.zip"
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as out:
            for path in sorted(bundle.rglob("*")):
                out.write(path, Path(NAME) / path.relative_to(bundle))
    else:
        target = bundle.parent / f"{stem}.tar.gz"
        with tarfile.open(target, "w:gz", compresslevel=6) as out:
            out.add(bundle, arcname=NAME, filter=_tar_filter)
            app = bundle.parent / "AI Sizer.app"  # macOS: the windowed app beside the folder
            if sys.platform == "darwin" and app.is_dir():
                out.add(app, arcname=app.name, filter=_tar_filter)
    digest = hashlib.sha256()
    with target.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    checksum = target.with_name(target.name + ".sha256")
    checksum.write_text(f"{digest.hexdigest()}  {target.name}\n", encoding="utf-8")
    return target


def measure(bundle: Path, runs: int = 5) -> dict:
    """Selftest time and start-up to the first painted window (offscreen), in seconds."""
    exe = executable(bundle)
    results: dict = {}
    with tempfile.TemporaryDirectory(prefix="aisizer-measure-") as config:
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "AISIZER_CONFIG_DIR": config}
        started = time.time()
        proc = subprocess.run([str(exe), "selftest"], env=env, capture_output=True, text=True,
                              timeout=300)
        results["selftest_s"] = time.time() - started
        results["selftest_rc"] = proc.returncode
        results["selftest_output"] = proc.stdout
        times = []
        for _ in range(runs + 1):  # the first run warms the file cache
            env_probe = {**env, "AISIZER_STARTUP_PROBE": "1"}
            started = time.time()
            proc = subprocess.run([str(exe), "gui"], env=env_probe, capture_output=True,
                                  text=True, timeout=120)
            found = re.search(r"first-window-epoch=([0-9.]+)", proc.stdout)
            if proc.returncode != 0 or not found:
                raise SystemExit(f"start-up probe failed (exit {proc.returncode}):\n"
                                 f"{proc.stdout}\n{proc.stderr}")
            times.append(float(found.group(1)) - started)
        results["startup_first_s"] = times[0]
        results["startup_median_s"] = statistics.median(times[1:])
        results["startup_all_s"] = times
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="output folder")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "pyinstaller",
                        help="PyInstaller's work folder")
    parser.add_argument("--no-archive", action="store_true",
                        help="build dist/aisizer/ only (no archive, no checksum)")
    parser.add_argument("--measure", action="store_true",
                        help="then run the bundle's selftest and time its start-up")
    args = parser.parse_args(argv)
    started = time.time()
    bundle = run_pyinstaller(args.dist.resolve(), args.work.resolve())
    finish(bundle)
    if sys.platform.startswith("linux"):
        absent = write_system_libraries(bundle)
        if absent:
            print("note: not carried because this build machine lacks them (the target must "
                  "have them for the desktop plugins that need them; install them here and "
                  "build again to carry them): "
                  + ", ".join(name.split()[0] for name in absent))
    size = folder_size(bundle)
    print(f"Built {bundle} in {time.time() - started:.0f} s: {size / 1e6:.1f} MB unpacked "
          f"({size / 2**20:.1f} MiB; limit {SIZE_LIMIT / 1e6:.0f} MB)")
    if not args.no_archive:
        target = archive(bundle)
        print(f"Wrote {target} ({target.stat().st_size / 1e6:.1f} MB) and "
              f"{target.name}.sha256")
    if args.measure:
        found = measure(bundle)
        print(found.pop("selftest_output"), end="")
        print(f"selftest: exit {found['selftest_rc']} in {found['selftest_s']:.1f} s")
        print(f"start-up to the first painted window (offscreen): first run "
              f"{found['startup_first_s']:.2f} s, median of the next "
              f"{len(found['startup_all_s']) - 1}: {found['startup_median_s']:.2f} s")
    if size > SIZE_LIMIT:
        print(f"error: the bundle is {size / 1e6:.1f} MB, over the {SIZE_LIMIT / 1e6:.0f} MB "
              "limit", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
