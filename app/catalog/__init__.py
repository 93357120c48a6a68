"""Catalog loading (TOML + user overlay) and model import from local folders."""

from app.catalog.loader import clear_cache, default_catalog, load_catalog

__all__ = ["clear_cache", "default_catalog", "load_catalog"]
