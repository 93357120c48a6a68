"""Assumptions as the result records them: a value, its unit and where it comes from."""

from __future__ import annotations

from app.domain.catalog import Catalog
from app.domain.result import Assumption
from app.i18n import Message, msg


def sourced(source: str | Message) -> dict:
    """The source of an Assumption: a catalog citation as written (``source``), or the
    engine's sentence (``source_message``, translatable; the Assumption derives its English
    ``source`` from it)."""
    if isinstance(source, Message):
        return {"source_message": source}
    return {"source": source}


def default_source(catalog: Catalog, name: str) -> str | Message:
    """Where the catalog default ``name`` comes from (its citation, else "catalog default")."""
    return catalog.default_sources.get(name) or msg("catalog default")


def catalog_default(catalog: Catalog, name: str, unit: str = "") -> Assumption:
    """The catalog default ``name`` recorded as an assumption."""
    return Assumption(name=name, value=catalog.default(name), unit=unit,
                      **sourced(default_source(catalog, name)))
