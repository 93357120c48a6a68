"""Saving an imported model into models.toml of the user catalog folder."""

from __future__ import annotations

from pathlib import Path

from app.catalog.hf_import.findings import ModelImportError
from app.catalog.user_catalog import UserCatalogError, save_user_entry
from app.domain.catalog import ModelSpec


def save_to_user_catalog(spec: ModelSpec, folder: Path | None = None) -> Path:
    """Add or replace ``spec`` in ``models.toml`` of the user catalog folder; return its path.

    ``folder`` defaults to ``app.paths.user_catalog_dir()``. The other entries of the file are
    kept (its comments are not); the file is replaced atomically and the catalog cache cleared
    (:func:`app.catalog.user_catalog.save_user_entry`).
    """
    try:
        return save_user_entry("models", spec, folder)
    except UserCatalogError as exc:
        raise ModelImportError(exc.message) from None
