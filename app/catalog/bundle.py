"""Catalog bundles: move catalogs to air-gapped sites on a USB stick.

A bundle is a zip file::

    manifest.json            what the bundle holds (below)
    builtin/gpus.toml ...    the exporting installation's built-in catalog files, byte for byte
    overlay/models.toml ...  its user catalog folder's files (entries that add to or replace
                             built-in ones), byte for byte

``manifest.json`` names the format and its version, the exporting tool's version, the export
date, and every file with its SHA-256, size, ``catalog_version`` and number of entries.

Import validates the whole bundle before anything is replaced: the manifest must be there and
readable, every member must be listed in it with a matching SHA-256, nothing else may be in the
zip, no name may leave its folder (absolute paths, ``..``, links), every file must be TOML and
every entry must validate with the catalog loader. Then the bundle is installed as the user
catalog folder: per catalog file, the bundle's built-in layer with its overlay merged in (whole
entries, by id, as the loader overlays them). The new folder is written next to the old one and
swapped in with renames; the previous user catalog moves to ``catalog-backups/<time>/`` in the
configuration folder and :func:`restore` brings it back.

No Qt here, and no network: everything is local files.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import os
import re
import shutil
import stat
import tempfile
import tomllib
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from app import APP_NAME, __version__, atomic, paths, reading
from app.catalog import loader
from app.catalog.toml_writer import dumps_toml
from app.domain import safe_json
from app.domain.catalog import KINDS

FORMAT = "aisizer-catalog-bundle"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
LAYERS = ("builtin", "overlay")
FILE_NAMES = tuple(f"{name}.toml" for name in ("defaults", *KINDS))
BACKUPS_FOLDER = "catalog-backups"
IMPORT_RECORD = "bundle.json"  # written into the installed user catalog folder
BACKUP_RECORD = "backup.json"
MAX_FILE_BYTES = 16 * 2**20  # a catalog file is a few hundred KB; refuse anything absurd
MAX_MEMBERS = 64
MAX_BUNDLE_BYTES = 64 * 2**20  # a bundle is a few hundred KB zipped
_SHA256 = re.compile(r"^[0-9a-f]{64}$")

__all__ = [
    "Backup", "BundleError", "ImportOutcome", "RestoreOutcome", "active_versions", "backups",
    "export_bundle", "import_bundle", "read_bundle", "restore",
]


class BundleError(ValueError):
    """A bundle cannot be written, read or installed; ``problems`` holds one sentence each."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = problems


# --------------------------------------------------------------------------- helpers


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(microsecond=0)


def _iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def catalog_files(folder: Path) -> list[Path]:
    """The catalog files of ``folder`` (known names only), in a fixed order."""
    return [folder / name for name in FILE_NAMES if (folder / name).is_file()]


def _version_of(data: dict) -> str:
    return str(data.get("catalog_version", "unversioned"))


def _entries_in(data: dict) -> int:
    return sum(1 for value in data.values() if isinstance(value, dict))


def file_versions(folder: Path) -> dict[str, str]:
    """``catalog_version`` of each catalog file in ``folder`` (``unreadable`` when broken)."""
    versions = {}
    for path in catalog_files(folder):
        try:
            versions[path.name] = _version_of(tomllib.loads(path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            versions[path.name] = "unreadable"
    return versions


# --------------------------------------------------------------------------- export


def export_bundle(out: str | Path, builtin: Path | None = None, user: Path | None = None,
                  now: dt.datetime | None = None) -> dict:
    """Write the catalogs this installation uses to the zip ``out``; returns the manifest.

    The built-in files and the user catalog folder's files are stored as they are (two
    layers). Refuses (BundleError) when a file does not load cleanly, since an import would
    refuse the bundle anyway.
    """
    builtin = builtin or paths.catalogs_dir()
    user = user or paths.user_catalog_dir()
    members: dict[str, bytes] = {}
    listed: list[dict] = []
    problems: list[str] = []
    for layer, folder in (("builtin", builtin), ("overlay", user)):
        if not folder.is_dir():
            continue
        problems += [f"{layer} catalog: {p}" for p in loader.load_folder(folder).problems]
        for path in catalog_files(folder):
            data = path.read_bytes()
            try:
                parsed = tomllib.loads(data.decode("utf-8"))
            except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
                problems.append(f"{path}: not valid TOML ({exc})")
                continue
            name = f"{layer}/{path.name}"
            members[name] = data
            listed.append({"path": name, "layer": layer, "sha256": _sha256(data),
                           "bytes": len(data), "catalog_version": _version_of(parsed),
                           "entries": _entries_in(parsed)})
    if problems:
        raise BundleError(["cannot export: the catalogs do not load cleanly; fix or remove "
                           "these first:", *problems])
    if not listed:
        raise BundleError([f"cannot export: no catalog files in '{builtin}' or '{user}'"])
    manifest = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "tool": APP_NAME,
        "tool_version": __version__,
        "exported_at": _iso(now or _now()),
        "catalog_versions": {layer: {Path(f["path"]).name: f["catalog_version"]
                                     for f in listed if f["layer"] == layer}
                             for layer in LAYERS},
        "files": listed,
    }
    buffer = io.BytesIO()
    stamp = (now or _now()).astimezone(dt.UTC).timetuple()[:6]
    stamp = max(stamp, (1980, 1, 1, 0, 0, 0))
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in [(MANIFEST, _manifest_bytes(manifest)), *members.items()]:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            archive.writestr(info, data)
    _write_atomically(Path(out), buffer.getvalue())
    return manifest


def _manifest_bytes(manifest: dict) -> bytes:
    return (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _write_atomically(path: Path, data: bytes) -> None:
    atomic.write_bytes(path, data, 0o644)


# --------------------------------------------------------------------------- read + validate


@dataclass(frozen=True)
class Bundle:
    """A bundle that passed every check: its manifest and its files (member name -> bytes)."""

    source: str
    sha256: str
    manifest: dict
    files: dict[str, bytes]
    data: dict[str, dict] = field(default_factory=dict)  # member name -> parsed TOML

    def layer(self, layer: str) -> dict[str, str]:
        """File name -> member name of one layer."""
        return {PurePosixPath(name).name: name for name in self.files
                if PurePosixPath(name).parts[0] == layer}


def _unsafe_name(name: str) -> str | None:
    """Why a zip member name is not allowed, or None."""
    if "\\" in name or "\x00" in name:
        return "contains a backslash or NUL character"
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        return "is an absolute path"
    parts = name.rstrip("/").split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "leaves its folder or has an empty path part ('..', '.', '//')"
    return None


def _allowed_member(name: str) -> bool:
    parts = PurePosixPath(name).parts
    return len(parts) == 2 and parts[0] in LAYERS and parts[1] in FILE_NAMES


def read_bundle(path: str | Path) -> Bundle:
    """Open and check a bundle completely; BundleError lists every problem found."""
    path = Path(path)
    try:
        raw = reading.regular_file_bytes(path, MAX_BUNDLE_BYTES, "a catalog bundle")
    except ValueError as exc:
        raise BundleError([str(exc)]) from None
    except OSError as exc:
        raise BundleError([f"cannot read '{path}': {exc.strerror or exc}"]) from None
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    except zipfile.BadZipFile:
        raise BundleError([f"'{path}' is not a catalog bundle (not a zip file)"]) from None
    with archive:
        manifest, files = _checked_members(path, archive)
    bundle = Bundle(str(path), _sha256(raw), manifest, files)
    _check_contents(bundle)
    return bundle


def _checked_members(path: Path, archive: zipfile.ZipFile) -> tuple[dict, dict[str, bytes]]:
    infos = archive.infolist()
    names = [info.filename for info in infos]
    if len(infos) > MAX_MEMBERS:
        raise BundleError([f"'{path}' holds {len(infos)} files; a catalog bundle holds at most "
                           f"{MAX_MEMBERS}"])
    problems: list[str] = []
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append(f"{name}: appears more than once in the zip")
    for info in infos:
        why = _unsafe_name(info.filename)
        if why:
            problems.append(f"{info.filename!r}: refused, the name {why}")
        elif stat.S_ISLNK(info.external_attr >> 16):
            problems.append(f"{info.filename}: refused, it is a symbolic link")
        elif info.flag_bits & 0x1:
            problems.append(f"{info.filename}: refused, it is encrypted (a catalog bundle "
                            "holds plain files)")
        elif info.file_size > MAX_FILE_BYTES:
            problems.append(f"{info.filename}: {info.file_size} bytes is too large for a "
                            f"catalog file (at most {MAX_FILE_BYTES})")
    if problems:
        raise BundleError(problems)
    if MANIFEST not in names:
        raise BundleError([f"'{path}' has no {MANIFEST}; it is not a catalog bundle made by "
                           "'aisizer catalog export'"])
    manifest = _read_manifest(_read_member(archive, MANIFEST))
    listed = {entry["path"]: entry for entry in manifest["files"]}
    files: dict[str, bytes] = {}
    for info in infos:
        name = info.filename
        if name == MANIFEST:
            continue
        if info.is_dir():
            if name.rstrip("/") in LAYERS:
                continue
            problems.append(f"{name}: unexpected folder in the bundle")
            continue
        if name not in listed:
            problems.append(f"{name}: unexpected file, not listed in {MANIFEST}")
            continue
        try:
            data = _read_member(archive, name)
        except BundleError as exc:
            problems += exc.problems
            continue
        expected = listed[name]["sha256"]
        actual = _sha256(data)
        if actual != expected:
            problems.append(f"{name}: SHA-256 {actual} does not match {expected} in "
                            f"{MANIFEST} (the file was changed or damaged)")
            continue
        files[name] = data
    for name in listed:
        if name not in names:
            problems.append(f"{name}: listed in {MANIFEST} but missing from the zip")
    if problems:
        raise BundleError(problems)
    return manifest, files


def _read_member(archive: zipfile.ZipFile, name: str) -> bytes:
    """The bytes of one member, decompressed in pieces and refused as soon as they pass
    MAX_FILE_BYTES (a member's declared size can lie: a few MB of zip may expand to GB)."""
    chunks, size = [], 0
    try:
        with archive.open(name) as member:
            while chunk := member.read(2**16):
                size += len(chunk)
                if size > MAX_FILE_BYTES:
                    raise BundleError([f"{name}: expands to more than {MAX_FILE_BYTES} bytes, "
                                       "too large for a catalog file; refused before it was "
                                       "unpacked further"])
                chunks.append(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError,
            RuntimeError) as exc:  # RuntimeError: an encrypted member
        raise BundleError([f"{name}: cannot be read from the zip ({exc})"]) from None
    return b"".join(chunks)


def _read_manifest(data: bytes) -> dict:
    try:
        manifest = safe_json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BundleError([f"{MANIFEST}: not valid JSON ({exc})"]) from None
    except safe_json.JsonLimitError as exc:
        raise BundleError([f"{MANIFEST}: refused: {exc}"]) from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BundleError([f"{MANIFEST}: 'format' must be '{FORMAT}'; this is not a catalog "
                           "bundle"])
    version = manifest.get("format_version")
    if version != FORMAT_VERSION:
        raise BundleError([f"{MANIFEST}: format_version {version!r} is not supported; this "
                           f"version of {APP_NAME} reads format_version {FORMAT_VERSION}"])
    files = manifest.get("files")
    if not isinstance(files, list) or not files:
        raise BundleError([f"{MANIFEST}: 'files' must be a non-empty list"])
    problems = []
    seen = set()
    for index, entry in enumerate(files):
        where = f"{MANIFEST}: files[{index}]"
        if not isinstance(entry, dict):
            problems.append(f"{where}: must be an object with path and sha256")
            continue
        name, digest = entry.get("path"), entry.get("sha256")
        if not isinstance(name, str) or _unsafe_name(name) or not _allowed_member(name):
            problems.append(f"{where}.path: {name!r} is not allowed; a bundle holds only "
                            f"builtin/NAME or overlay/NAME with NAME one of "
                            f"{', '.join(FILE_NAMES)}")
        elif name in seen:
            problems.append(f"{where}.path: '{name}' is listed twice")
        seen.add(name)
        if not isinstance(digest, str) or not _SHA256.match(digest):
            problems.append(f"{where}.sha256: must be 64 lower-case hex digits "
                            f"(got {digest!r})")
    if problems:
        raise BundleError(problems)
    return manifest


def _check_contents(bundle: Bundle) -> None:
    """Every file is UTF-8 TOML, its version matches the manifest, every entry validates."""
    problems: list[str] = []
    listed = {entry["path"]: entry for entry in bundle.manifest["files"]}
    for name, data in bundle.files.items():
        try:
            parsed = tomllib.loads(data.decode("utf-8"))
        except UnicodeDecodeError:
            problems.append(f"{name}: not UTF-8 text")
            continue
        except tomllib.TOMLDecodeError as exc:
            problems.append(f"{name}: not valid TOML ({exc})")
            continue
        declared = listed[name].get("catalog_version")
        if declared is not None and str(declared) != _version_of(parsed):
            problems.append(f"{name}: catalog_version is '{_version_of(parsed)}' but "
                            f"{MANIFEST} says '{declared}'")
        bundle.data[name] = parsed
    if problems:
        raise BundleError(problems)
    for layer in LAYERS:
        problems += _loader_problems({file: bundle.files[member]
                                      for file, member in bundle.layer(layer).items()}, layer)
    if problems:
        raise BundleError(problems)


def _loader_problems(files: dict[str, bytes], prefix: str) -> list[str]:
    """What the catalog loader reports for these files, named by ``prefix/NAME``."""
    if not files:
        return []
    with tempfile.TemporaryDirectory(prefix="aisizer-bundle-") as folder:
        for name, data in files.items():
            (Path(folder) / name).write_bytes(data)
        problems = loader.load_folder(Path(folder)).problems
        shown = []
        for problem in problems:
            name = Path(problem.file).name if problem.file else ""
            shown.append(str(problem.model_copy(update={"file": f"{prefix}/{name}"})))
        return shown


# --------------------------------------------------------------------------- merge + install


def merged_files(bundle: Bundle) -> dict[str, bytes]:
    """The user catalog files the bundle installs: built-in layer with the overlay merged in.

    A file in only one layer is installed byte for byte; one in both becomes the built-in
    tables with the overlay's tables added or replacing them by id.
    """
    builtin, overlay = bundle.layer("builtin"), bundle.layer("overlay")
    out: dict[str, bytes] = {}
    for name in FILE_NAMES:
        if name in builtin and name in overlay:
            base, extra = bundle.data[builtin[name]], bundle.data[overlay[name]]
            version = f"{_version_of(base)}+{_version_of(extra)}"
            merged = {**base, **extra, "catalog_version": version}
            merged = {"catalog_version": version,
                      **{k: v for k, v in merged.items() if k != "catalog_version"}}
            text = (f"# Installed by 'aisizer catalog import' from {Path(bundle.source).name}:\n"
                    f"# built-in layer {_version_of(base)} with the overlay "
                    f"{_version_of(extra)} merged in (whole entries, by id).\n"
                    + dumps_toml(merged))
            if tomllib.loads(text) != merged:  # never install what would not read back
                raise BundleError([f"{name}: the merged catalog does not read back as written"])
            out[name] = text.encode("utf-8")
        elif name in builtin or name in overlay:
            out[name] = bundle.files[builtin.get(name) or overlay[name]]
    return out


@dataclass(frozen=True)
class ImportOutcome:
    installed: Path
    backup: Path | None
    versions: dict[str, str]
    sha256: str
    manifest: dict
    dropped: list[str]  # entries of the previous user catalog the new one does not have


def _backups_dir() -> Path:
    return paths.config_dir() / BACKUPS_FOLDER


def _new_backup(reason: str, detail: str, current: Path) -> Path:
    folder = _backups_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    target = folder / stamp
    suffix = 1
    while target.exists():
        suffix += 1
        target = folder / f"{stamp}-{suffix}"
    target.mkdir()
    record = {"created": _iso(_now()), "reason": reason, "detail": detail,
              "had_user_catalog": current.is_dir(),
              "versions": file_versions(current) if current.is_dir() else {}}
    (target / BACKUP_RECORD).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return target


def _entry_ids(folder: Path) -> set[str]:
    ids = set()
    for path in catalog_files(folder):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        ids |= {f"{path.stem}/{key}" for key, value in data.items() if isinstance(value, dict)}
    return ids


def _swap_in(staging: Path, target: Path, backup: Path) -> None:
    """Move ``target`` (if any) into ``backup``, then ``staging`` to ``target``; undo on error."""
    saved = backup / "catalogs"
    moved = False
    if target.exists():
        os.replace(target, saved)
        moved = True
    try:
        os.replace(staging, target)
    except BaseException:
        if moved:
            os.replace(saved, target)
        raise


def import_bundle(path: str | Path) -> ImportOutcome:
    """Validate ``path`` completely, then install it as the user catalog (BundleError if not).

    Nothing is changed when any check fails. The previous user catalog is kept in
    ``catalog-backups/`` of the configuration folder.
    """
    bundle = read_bundle(path)
    files = merged_files(bundle)
    config = paths.config_dir()
    target = paths.user_catalog_dir()
    try:
        config.mkdir(parents=True, exist_ok=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".catalogs-import-", dir=target.parent))
    except OSError as exc:
        raise BundleError([f"cannot write to '{config}': {exc.strerror or exc}; nothing was "
                           "changed"]) from None
    try:
        for name, data in files.items():
            _write_synced(staging / name, data)
        record = {"source": Path(bundle.source).name, "sha256": bundle.sha256,
                  "imported_at": _iso(_now()), **{k: bundle.manifest.get(k) for k in
                                                  ("tool_version", "exported_at")},
                  "manifest": bundle.manifest}
        _write_synced(staging / IMPORT_RECORD,
                      (json.dumps(record, indent=2) + "\n").encode("utf-8"))
        problems = loader.load_folder(staging).problems
        if problems:
            raise BundleError([f"the merged catalog does not load: {p}" for p in problems])
        dropped = sorted(_entry_ids(target) - _entry_ids(staging)) if target.is_dir() else []
        backup = _new_backup("import", f"before importing {Path(bundle.source).name}", target)
        try:
            _swap_in(staging, target, backup)
        except OSError as exc:
            shutil.rmtree(backup, ignore_errors=True)
            raise BundleError([f"cannot install the catalog into '{target}': "
                               f"{exc.strerror or exc}; the previous catalog is unchanged"]
                              ) from None
    except OSError as exc:
        raise BundleError([f"cannot write the new catalog: {exc.strerror or exc}; nothing was "
                           "changed"]) from None
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    loader.clear_cache()
    return ImportOutcome(target, backup, file_versions(target), bundle.sha256,
                         bundle.manifest, dropped)


def _write_synced(path: Path, data: bytes) -> None:
    with path.open("wb") as stream:
        stream.write(data)
        stream.flush()
        os.fsync(stream.fileno())


# --------------------------------------------------------------------------- restore


@dataclass(frozen=True)
class Backup:
    name: str
    path: Path
    created: str
    reason: str
    detail: str
    had_user_catalog: bool
    versions: dict[str, str]


def backups() -> list[Backup]:
    """Earlier user catalogs, oldest first."""
    folder = _backups_dir()
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(p for p in folder.iterdir() if p.is_dir()):
        try:
            record = json.loads((path / BACKUP_RECORD).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        found.append(Backup(path.name, path, str(record.get("created", "")),
                            str(record.get("reason", "")), str(record.get("detail", "")),
                            bool(record.get("had_user_catalog")),
                            dict(record.get("versions") or {})))
    return found


@dataclass(frozen=True)
class RestoreOutcome:
    restored: Backup
    saved_as: Path
    versions: dict[str, str]
    problems: list[str]


def restore(name: str | None = None) -> RestoreOutcome:
    """Bring back an earlier user catalog: ``name``, else the one the last import replaced.

    The catalog in use now is kept as a backup too (reason "restore"), so nothing is lost;
    without ``name`` only backups made by an import are chosen, so restoring again steps
    further back.
    """
    found = backups()
    if name:
        chosen = next((b for b in found if b.name == name), None)
        if chosen is None:
            known = ", ".join(b.name for b in found) or "none"
            raise BundleError([f"catalog restore: no backup named '{name}'; backups: {known}"])
    else:
        candidates = [b for b in found if b.reason == "import"]
        if not candidates:
            raise BundleError(["catalog restore: there is no earlier catalog to restore (a "
                               "backup is made each time 'aisizer catalog import' replaces "
                               "the user catalog)"])
        chosen = candidates[-1]
    target = paths.user_catalog_dir()
    saved = chosen.path / "catalogs"
    try:
        keep = _new_backup("restore", f"replaced by restoring {chosen.name}", target)
        if target.exists():
            os.replace(target, keep / "catalogs")
        try:
            if saved.is_dir():
                os.replace(saved, target)
        except BaseException:
            if (keep / "catalogs").exists():
                os.replace(keep / "catalogs", target)
            shutil.rmtree(keep, ignore_errors=True)
            raise
        shutil.rmtree(chosen.path, ignore_errors=True)
    except OSError as exc:
        raise BundleError([f"catalog restore: {exc.strerror or exc}; the catalog in use is "
                           "unchanged"]) from None
    loader.clear_cache()
    problems = [str(p) for p in loader.load_folder(target).problems] if target.is_dir() else []
    versions = file_versions(target) if target.is_dir() else {}
    return RestoreOutcome(chosen, keep, versions, problems)


# --------------------------------------------------------------------------- versions


def active_versions() -> dict:
    """Which catalog versions are in use: built-in and user, per file, and the backups."""
    builtin, user = paths.catalogs_dir(), paths.user_catalog_dir()
    imported = None
    if (user / IMPORT_RECORD).is_file():
        try:
            record = json.loads((user / IMPORT_RECORD).read_text(encoding="utf-8"))
            imported = {k: record.get(k) for k in
                        ("source", "sha256", "imported_at", "tool_version", "exported_at")}
        except (OSError, ValueError):
            imported = None
    return {
        "builtin": {"folder": str(builtin), "files": file_versions(builtin)},
        "user": {"folder": str(user), "present": user.is_dir(),
                 "files": file_versions(user) if user.is_dir() else {},
                 "imported": imported},
        "backups": [{"name": b.name, "created": b.created, "reason": b.reason,
                     "detail": b.detail, "had_user_catalog": b.had_user_catalog,
                     "versions": b.versions} for b in backups()],
    }
