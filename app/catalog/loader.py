"""Load the TOML catalogs and the user's overlay into a validated :class:`Catalog`.

Each catalog file holds ``catalog_version = "..."`` and one table per entry, keyed by the
entry's id::

    catalog_version = "2026.11"

    [h100-sxm]
    name = "NVIDIA H100 SXM5 80GB"
    ...

The user's catalog folder holds files with the same names; its entries replace or add to the
built-in ones. An entry that does not validate is reported (file, entry, field, message) and
skipped; everything else still loads.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from pydantic import BaseModel, ValidationError

from app import paths
from app.domain.catalog import (
    KINDS,
    Catalog,
    CatalogProblem,
    CpuSpec,
    CvResidual,
    EngineProfile,
    GpuSpec,
    ModelSpec,
    PrecisionSpec,
    ServerSpec,
    SiteProfile,
    StorageTier,
    SwitchSpec,
)

ENTRY_MODELS: dict[str, type[BaseModel]] = {
    "gpus": GpuSpec,
    "servers": ServerSpec,
    "models": ModelSpec,
    "precisions": PrecisionSpec,
    "engines": EngineProfile,
    "storage": StorageTier,
    "switches": SwitchSpec,
    "cpus": CpuSpec,
    "site_profiles": SiteProfile,
}


def _field_path(loc: tuple) -> str:
    return ".".join(str(part) for part in loc)


def _problems_from(error: ValidationError, file: str, entry: str) -> list[CatalogProblem]:
    return [
        CatalogProblem(file=file, entry=entry, field=_field_path(e["loc"]), message=e["msg"])
        for e in error.errors()
    ]


def read_toml(path: Path) -> tuple[dict, list[CatalogProblem]]:
    """Parse one TOML file; a syntax error becomes a problem, not an exception."""
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle), []
    except (OSError, tomllib.TOMLDecodeError) as exc:
        return {}, [CatalogProblem(file=str(path), entry="", field="", message=str(exc))]


def parse_entries(kind: str, data: dict, file: str) -> tuple[dict, list[CatalogProblem]]:
    """Validate every table of one catalog file into entry models."""
    model = ENTRY_MODELS[kind]
    entries: dict = {}
    problems: list[CatalogProblem] = []
    for entry_id, table in data.items():
        if not isinstance(table, dict):
            continue
        try:
            entries[entry_id] = model.model_validate({**table, "id": entry_id})
        except ValidationError as exc:
            problems.extend(_problems_from(exc, file, entry_id))
    return entries, problems


def _load_defaults(folder: Path) -> tuple[dict[str, float], dict[str, str], list]:
    path = folder / "defaults.toml"
    if not path.exists():
        return {}, {}, []
    data, problems = read_toml(path)
    values: dict[str, float] = {}
    sources: dict[str, str] = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            continue
        value = table.get("value")
        if not isinstance(value, int | float) or isinstance(value, bool):
            problems.append(CatalogProblem(file=str(path), entry=name, field="value",
                                           message="must be a number"))
            continue
        values[name] = float(value)
        sources[name] = f"{table.get('source', 'unsourced')} (as of {table.get('as_of', '?')})"
    return values, sources, problems


def load_folder(folder: Path) -> Catalog:
    """Load every catalog file in ``folder`` (missing files are simply empty)."""
    tables: dict[str, dict] = {}
    versions: dict[str, str] = {}
    problems: list[CatalogProblem] = []
    for kind in KINDS:
        path = folder / f"{kind}.toml"
        if not path.exists():
            tables[kind] = {}
            continue
        data, file_problems = read_toml(path)
        entries, entry_problems = parse_entries(kind, data, str(path))
        tables[kind] = entries
        versions[kind] = str(data.get("catalog_version", "unversioned"))
        problems += file_problems + entry_problems
    defaults, default_sources, default_problems = _load_defaults(folder)
    return Catalog(**tables, defaults=defaults, default_sources=default_sources,
                   versions=versions, problems=problems + default_problems)


def overlay(base: Catalog, user: Catalog) -> Catalog:
    """``base`` with ``user``'s entries added or replacing those with the same id."""
    merged = {kind: {**getattr(base, kind), **getattr(user, kind)} for kind in KINDS}
    versions = dict(base.versions)
    for kind, version in user.versions.items():
        versions[f"user:{kind}"] = version
    return Catalog(
        **merged,
        defaults={**base.defaults, **user.defaults},
        default_sources={**base.default_sources, **user.default_sources},
        versions=versions,
        problems=base.problems + user.problems,
    )


def load_catalog(builtin: Path | None = None, user: Path | None = None,
                 include_user: bool = True) -> Catalog:
    """The built-in catalog overlaid with the user's catalog folder, with the shipped
    cross-validated residuals (:func:`read_cv_residuals`)."""
    catalog = load_folder(builtin or paths.catalogs_dir())
    user_folder = user or paths.user_catalog_dir()
    if include_user and user_folder.is_dir():
        catalog = overlay(catalog, load_folder(user_folder))
    residuals, problems = read_cv_residuals(paths.cross_validation_file())
    return catalog.model_copy(update={"cv_residuals": residuals,
                                      "problems": catalog.problems + problems})


def read_cv_residuals(path: Path) -> tuple[list[CvResidual], list[CatalogProblem]]:
    """The per-case records of ``make cross-validation``'s file; none (and a problem that
    says why) when it is missing or unreadable: the expected ranges then fall back to the
    engine profiles' bands."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        return [CvResidual(**record) for record in document["residuals"]], []
    except (OSError, ValueError, KeyError, TypeError) as error:
        return [], [CatalogProblem(file=str(path), entry="residuals", field="",
                                   message=f"cross-validated residuals not read: {error}")]


_CACHE: dict[tuple, Catalog] = {}


def default_catalog() -> Catalog:
    """The catalog used when none is given (cached per user folder)."""
    key = (str(paths.catalogs_dir()), str(paths.user_catalog_dir()))
    if key not in _CACHE:
        _CACHE[key] = load_catalog()
    return _CACHE[key]


def clear_cache() -> None:
    """Forget cached catalogs (after an import or a change to the user folder)."""
    _CACHE.clear()
