"""The load test one replica of the sizing implies: its levels, their predicted figures and
ranges, and the targets each must meet (app.engine.test_levels).

The sweep runs from one user through the scenario's load to beyond saturation; every figure
is the engine's own prediction at that load (``validation.predict``) with the result's
expected range (``Band``).
"""

from __future__ import annotations

import pytest

from app.api import example, load_scenario, size
from app.domain.result import Band
from app.engine import test_levels
from app.engine.resolved import resolve
from app.engine.selection import select
from app.engine.validation import Load, predict


@pytest.mark.parametrize(("load", "saturation", "users"), [
    (1, 1, [1, 2]),                    # one user is the load: the sweep goes beyond it
    (8, 40, [1, 2, 4, 8, 40, 60]),    # doublings to the load, saturation, 1.5 x beyond
    (40, 40, [1, 2, 4, 8, 16, 32, 40, 60]),
    (5000, 300, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 5000, 7500]),  # ten doublings
])
def test_the_sweep_rises_from_one_user_through_the_load_beyond_saturation(load, saturation,
                                                                          users):
    levels = test_levels.sweep_levels(load, saturation)
    assert [count for _, count in levels] == users
    assert dict((count, name) for name, count in levels)[max(1, round(load))] == (
        "scenario load" if load > 1 else "one user")


@pytest.mark.parametrize(("users", "rounds", "minimum", "requests"), [
    (1, 10, 50, 50), (8, 10, 50, 80), (7.6, 10, 20, 80)])
def test_each_level_sends_rounds_per_user_and_at_least_a_minimum(users, rounds, minimum,
                                                                 requests):
    assert test_levels.requests_for(users, rounds, minimum) == requests


def test_figures_carry_the_results_range():
    band = Band(low=0.8, high=1.25)
    figures = {"ttft_s": 2.0, "itl_s": 0.04, "tokens_per_s_per_user": 25.0,
               "output_tokens_per_s": 1000.0}
    expected = test_levels.expected_of(figures, band)
    assert (expected["ttft_s"].low, expected["ttft_s"].high) == pytest.approx(band.time_range(2.0))
    assert (expected["output_tokens_per_s"].low, expected["output_tokens_per_s"].high) == (
        band.speed_range(1000.0))


@pytest.fixture(scope="module")
def small_chat(catalog):
    scenario = load_scenario(example("small-chat"))
    return scenario, size(scenario, catalog)


def test_each_level_is_the_engines_prediction_at_that_load(catalog, small_chat):
    scenario, result = small_chat
    plan = result.test_plan
    r = resolve(scenario, catalog)
    config = select(catalog, r)[0].config
    work = result.inputs.workload
    levels = [level for level in plan.levels if level.kind == "concurrency"]
    figures = predict(config, work.context_tokens,
                      [Load("concurrency", level.concurrency, work.prompt_tokens,
                            work.output_tokens) for level in levels])
    for level, predicted in zip(levels, figures, strict=True):
        assert level.expected["tokens_per_s_per_user"].value == predicted["tokens_per_s_per_user"]
    at_load = next(level for level in levels if level.name == "scenario load")
    assert at_load.concurrency == round(result.performance.at_concurrency.concurrency)


def test_targets_apply_up_to_the_load_and_only_those_the_sizing_meets(small_chat):
    _, result = small_chat
    p = result.performance
    assert all(p.targets_met.values())
    assert test_levels.targets_at(p, 1) == p.targets
    assert test_levels.targets_at(p, p.at_concurrency.concurrency * 2) == {}
    missed = p.model_copy(update={"targets_met": {"ttft": True, "tokens_per_s_per_user": False}})
    assert test_levels.targets_at(missed, 1) == {"ttft_s": p.targets["ttft_s"]}
