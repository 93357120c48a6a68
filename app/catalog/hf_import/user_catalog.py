"""Saving an imported model into models.toml of the user catalog folder."""

from __future__ import annotations

import tomllib
from pathlib import Path

from app import atomic, paths
from app.catalog import loader
from app.catalog.hf_import.findings import ModelImportError, cannot
from app.catalog.toml_writer import dumps_toml
from app.domain.catalog import ModelSpec
from app.i18n import msg

_HEADER = (
    "# AI Sizer user catalog: models added with `aisizer import-model` or by hand.\n"
    "# Rewritten by AI Sizer on each import; comments are not kept.\n"
)


def _read_catalog_file(path: Path) -> dict:
    if not path.exists():
        return {}
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ModelImportError(msg(
            "{path} is not valid TOML ({error}); it was left unchanged, fix or move it and "
            "import again.", path=str(path), error=str(exc))) from None
    except OSError as exc:
        raise cannot(False, path, exc) from None


def _write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file next to ``path``, then replace ``path`` with it."""
    try:
        atomic.write_text(path, text)
    except OSError as exc:
        raise cannot(True, path, exc) from None


def save_to_user_catalog(spec: ModelSpec, folder: Path | None = None) -> Path:
    """Add or replace ``spec`` in ``models.toml`` of the user catalog folder; return its path.

    ``folder`` defaults to ``app.paths.user_catalog_dir()``. The other entries of the file are
    kept (its comments are not); the file is replaced atomically and the catalog cache cleared.
    """
    path = Path(folder if folder is not None else paths.user_catalog_dir()) / "models.toml"
    data = _read_catalog_file(path)
    data.setdefault("catalog_version", "user")
    data[spec.id] = spec.model_dump(mode="python", exclude_none=True, exclude={"id"})
    text = _HEADER + dumps_toml(data)
    tomllib.loads(text)  # never replace a good file with one that does not parse
    _write_atomically(path, text)
    loader.clear_cache()
    return path
