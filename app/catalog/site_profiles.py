"""Site profiles in the user catalog: the fitted factors with their provenance.

:func:`profile_from_fit` turns a fit (``app.domain.validation.SiteFit``) and what the operator
adds (engine version, note) into a :class:`~app.domain.catalog.SiteProfile`, with the
measurement files' names and SHA-256, the date and the tool's version; :func:`save_profile`
writes it into ``site_profiles.toml`` of the user catalog folder (the file's other profiles
are kept; written atomically). ``aisizer catalog export`` and ``import`` carry the file like
every other catalog file, and ``aisizer catalog versions`` lists it.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from pathlib import Path

from pydantic import ValidationError

from app import __version__, atomic, paths
from app.catalog import loader
from app.catalog.toml_writer import dumps_toml
from app.domain.catalog import MeasurementFile, SiteProfile
from app.domain.measurements import MeasuredPoint
from app.domain.validation import SiteFit

FILE = "site_profiles.toml"
HEADER = ("# Site profiles written by AI Sizer: decode and prefill factors measured on this "
          "site.\n# Each names the measurement files (SHA-256) it was fitted to. "
          "docs/METHOD.md, \"Site factors\".\n")


class SiteProfileError(ValueError):
    """A site profile cannot be made or saved (one readable sentence)."""


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9.+-]+", "-", text.lower()).strip("-") or "unversioned"


def profile_id(gpu: str, engine: str, engine_version: str, day: dt.date) -> str:
    """'l40s-vllm-0.11.0-2026-12-10' (an engine name the version repeats is left out)."""
    version = slug(engine_version)
    version = version.removeprefix(f"{slug(engine)}-") or version
    return f"{gpu}-{engine}-{version}-{day.isoformat()}"


def measurement_files(points: list[MeasuredPoint]) -> list[MeasurementFile]:
    """Each file the points came from, once, in order."""
    seen: dict[str, MeasurementFile] = {}
    for point in points:
        seen.setdefault(point.source_sha256, MeasurementFile(
            name=point.source_file, sha256=point.source_sha256, tool=point.tool))
    return list(seen.values())


def profile_from_fit(fit: SiteFit, points: list[MeasuredPoint], engine_version: str,
                     note: str, scenario_name: str, gpu_name: str, engine_name: str,
                     day: dt.date | None = None) -> SiteProfile:
    """The site profile of ``fit`` with its provenance (SiteProfileError when invalid)."""
    day = day or dt.date.today()
    version = engine_version.strip()
    if not version:
        raise SiteProfileError("give the engine version that was measured (for example "
                               "'vLLM 0.11.0'); a site profile is for one engine version")
    files = measurement_files(points)
    listed = ", ".join(f"{f.name} (SHA-256 {f.sha256})" for f in files)
    try:
        return SiteProfile(
            id=profile_id(fit.gpu, fit.engine, version, day),
            name=f"{gpu_name}, {engine_name} (site profile, {version})",
            source=f"Measured on site with {', '.join(sorted({f.tool for f in files}))}: "
                   f"{listed}",
            as_of=day, gpu=fit.gpu, engine=fit.engine, engine_version=version,
            decode_scale=round(fit.decode_scale, 4), prefill_scale=round(fit.prefill_scale, 4),
            decode_fitted=fit.decode_fitted, prefill_fitted=fit.prefill_fitted,
            band_low=round(fit.band_low, 3), band_high=round(fit.band_high, 3),
            model=fit.model, points=len(fit.residuals),
            median_error=round(fit.median_error_after, 4), measurement_files=files,
            operator_note=note.strip(), fitted_for=scenario_name[:200],
            engines_version=fit.catalog_version, tool_version=__version__)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise SiteProfileError(f"the site profile cannot be saved: {where}: "
                               f"{first['msg']}") from None


def _read(path: Path) -> dict:
    if not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SiteProfileError(f"{path} cannot be read ({exc}); it was left unchanged: fix "
                               "or move it and save again") from None


def save_profile(profile: SiteProfile, folder: Path | None = None) -> Path:
    """Add or replace ``profile`` in the user catalog's ``site_profiles.toml``; its path."""
    path = Path(folder if folder is not None else paths.user_catalog_dir()) / FILE
    data = _read(path)
    data.setdefault("catalog_version", "site")
    data[profile.id] = profile.model_dump(mode="python", exclude={"id"})
    text = HEADER + dumps_toml(data)
    tomllib.loads(text)  # never replace a good file with one that does not parse
    try:
        atomic.write_text(path, text)
    except OSError as exc:
        raise SiteProfileError(f"cannot write {path}: {exc.strerror or exc}; nothing was "
                               "changed") from None
    loader.clear_cache()
    return path
