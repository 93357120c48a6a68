"""The orchestrator: run the five steps of the method on a scenario.

``size(scenario, catalog)`` hands a serving scenario (online or batch inference) to the
serving chain (:mod:`app.engine.serving_chain`) and a training one (fine-tuning,
pre-training) to the training chain (:mod:`app.engine.training_chain`), and returns their
:class:`SizingResult`. Nothing below the chains imports this module (an import-linter
contract in pyproject.toml).
"""

from __future__ import annotations

from collections.abc import Iterator

from app.domain.catalog import Catalog
from app.domain.result import SizingResult
from app.domain.scenario import Scenario
from app.engine import serving_chain, training_chain


def size(scenario: Scenario, catalog: Catalog) -> SizingResult:
    """Run the five steps of the method on ``scenario``.

    Raises
    ------
    SizingError
        When the scenario names something the catalog lacks or asks for what the method
        cannot size; the message names the field (:class:`app.engine.resolved.SizingError`).
    """
    *_, (result, _) = size_in_stages(scenario, catalog)
    return result


def size_in_stages(scenario: Scenario, catalog: Catalog) -> Iterator[tuple[SizingResult, bool]]:
    """Yield ``(result, levers_follow)``: the sizing without the levers first, then, when a
    target is missed, the same result with them (a training result comes whole, once)."""
    if scenario.workload.kind in training_chain.TRAINING_KINDS:
        yield training_chain.size_training(scenario, catalog), False
        return
    yield from serving_chain.size_in_stages(scenario, catalog)
