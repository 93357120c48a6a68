"""Fixtures for the sizing-engine tests.

- ``catalog``: the built-in catalog (no user overlay), loaded once per session.
- ``configure_replica``: builds a :class:`Configuration` from ids, as the pipeline does.
- ``sized``: runs the whole pipeline (``load_scenario`` + ``size``) on a scenario dict.
- ``replica``: one replica of each of ``CONFIGS`` (memory-bound and MoE cases, one and
  several GPUs: engine_helpers.py), for the decode-step and operating-point tests.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from engine_helpers import CONFIGS, ids

from app.api import load_scenario, size
from app.catalog.loader import load_catalog
from app.domain.catalog import Catalog
from app.domain.result import SizingResult
from app.engine.configuration import Choice, Configuration, configure


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The built-in catalog, without the user's overlay."""
    return load_catalog(include_user=False)


@pytest.fixture(scope="session")
def configure_replica(catalog: Catalog) -> Callable[..., Configuration]:
    """``configure_replica(model, gpu, t=1, p=1, weights=None, kv=None, engine="vllm",
    overrides=None, catalog=None)``: one replica configuration (weights default to the
    model's native format, KV to 16 bit)."""

    def build(model: str, gpu: str, t: int = 1, p: int = 1, weights: str | None = None,
              kv: str | None = None, engine: str = "vllm",
              overrides: dict[str, float] | None = None,
              catalog_: Catalog | None = None) -> Configuration:
        cat = catalog_ or catalog
        spec = cat.model(model)
        weights = weights or spec.native_precision
        kv = kv or ("fp16" if weights == "fp16" else "bf16")
        return configure(cat, spec, Choice(gpu, t, p, weights, kv, engine), overrides)

    return build


@pytest.fixture(scope="session")
def sized(catalog: Catalog) -> Callable[..., SizingResult]:
    """``sized(scenario_dict, catalog=None)``: the pipeline's result for a scenario."""

    def run(scenario: dict, catalog_: Catalog | None = None) -> SizingResult:
        return size(load_scenario(scenario), catalog_ or catalog)

    return run


@pytest.fixture(scope="module", params=CONFIGS, ids=ids)
def replica(request, configure_replica):
    """One replica of each of ``CONFIGS``."""
    model, gpu, t, weights, engine = request.param
    return configure_replica(model, gpu, t, weights=weights, engine=engine).replica

