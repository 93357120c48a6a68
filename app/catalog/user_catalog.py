"""The user's catalog folder: add or replace one entry of any kind, atomically.

Entries the window's forms and ``aisizer import-model`` create live in files named like
the built-in ones (``gpus.toml``, ``servers.toml``, ``models.toml`` ...) in
``app.paths.user_catalog_dir()``; the loader overlays them on the built-in catalog. A file
is read, the entry added or replaced, the whole text checked to parse, then written to a
temporary file that replaces the old one, so a crash never leaves half a catalog. A file that
does not parse is left alone and the problem named.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from pydantic import BaseModel

from app import atomic, paths
from app.catalog import loader
from app.catalog.toml_writer import dumps_toml
from app.domain.catalog import KINDS
from app.i18n import Message, msg

_HEADER = (
    "# AI Sizer user catalog: entries added in the window, with `aisizer import-model` or by "
    "hand.\n# Rewritten by AI Sizer on each save; comments are not kept.\n"
)


class UserCatalogError(ValueError):
    """The user catalog file cannot be read or written; ``message`` says why."""

    def __init__(self, message: Message):
        self.message = message
        super().__init__(message.text())


def catalog_file(kind: str, folder: Path | None = None) -> Path:
    """The user catalog file of ``kind`` (``gpus``, ``servers``, ``models`` ...)."""
    if kind not in KINDS:
        raise ValueError(f"unknown catalog kind '{kind}'; known: {', '.join(KINDS)}")
    return Path(folder if folder is not None else paths.user_catalog_dir()) / f"{kind}.toml"


def _read(path: Path) -> dict:
    if not path.exists():
        return {}
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise UserCatalogError(msg(
            "{path} is not valid TOML ({error}); it was left unchanged: fix or move it, then "
            "save again.", path=str(path), error=str(exc))) from None
    except OSError as exc:
        raise UserCatalogError(msg("cannot read {path}: {reason}.", path=str(path),
                                   reason=str(exc.strerror or exc))) from None


def entry_table(entry: BaseModel) -> dict:
    """An entry as its TOML table: every set value, the id being the table's name."""
    return entry.model_dump(mode="python", exclude_none=True, exclude={"id"})


def save_user_entry(kind: str, entry: BaseModel, folder: Path | None = None) -> Path:
    """Add or replace ``entry`` (its ``id``) in the user catalog file of ``kind``.

    The other entries of the file are kept (its comments are not); the file is replaced
    atomically and the catalog cache cleared. Returns the file's path.
    """
    path = catalog_file(kind, folder)
    data = _read(path)
    data.setdefault("catalog_version", "user")
    data[entry.id] = entry_table(entry)
    text = _HEADER + dumps_toml(data)
    tomllib.loads(text)  # never replace a good file with one that does not parse
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_text(path, text)
    except OSError as exc:
        raise UserCatalogError(msg("cannot write {path}: {reason}.", path=str(path),
                                   reason=str(exc.strerror or exc))) from None
    loader.clear_cache()
    return path


def user_entry_ids(kind: str, folder: Path | None = None) -> set[str]:
    """Ids the user catalog file of ``kind`` holds (empty when it does not exist or parse)."""
    try:
        data = _read(catalog_file(kind, folder))
    except UserCatalogError:
        return set()
    return {key for key, value in data.items() if isinstance(value, dict)}
