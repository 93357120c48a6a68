"""Replicas follow the load even when the configuration misses its targets (issue #14).

A given configuration on which no load meets the targets (SLO capacity 0) used to get one
replica whatever the users: 40 and 10,000,000 users got the same plan and capital. The
replicas now come from what one replica holds at peak context (METHOD.md, Step 5:
``ceil(requests in flight / sequences one replica holds)``), and the verdict still says by
how much the targets are missed. The scenario is resources/examples/worked-example.json
(2 x RTX PRO 6000, Llama-3-70B INT8, 8,192 tokens, FP16 KV: one replica holds 39 sequences).
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.api import example
from app.engine.scale import replicas_for_load


def with_users(users: int) -> dict:
    scenario = copy.deepcopy(example("worked-example"))
    scenario["workload"]["concurrent_users"] = users
    return scenario


@pytest.mark.parametrize(("users", "capacity", "holds", "replicas"), [
    (40, 8, 39, 5),            # some load meets the targets: the SLO capacity sizes
    (40, 0, 39, 2),            # none does: what one replica holds sizes
    (39, 0, 39, 1),
    (10_000_000, 0, 39, 256_411),
    (40, 0, 0, 1),             # not even one request fits: one replica, verdict "does not fit"
    (None, 0, 39, 1),          # 'max': the saturation point
])
def test_the_rule(users, capacity, holds, replicas):
    assert replicas_for_load(users, capacity, holds) == replicas


@given(st.integers(1, 10**9), st.integers(1, 10**9), st.integers(0, 500), st.integers(0, 500))
def test_the_rule_never_falls_as_users_grow(a, b, capacity, holds):
    low, high = sorted((a, b))
    assert replicas_for_load(low, capacity, holds) <= replicas_for_load(high, capacity, holds)


def test_40_and_10_million_users_get_different_plans_and_capital(sized):
    few, many = sized(with_users(40)), sized(with_users(10_000_000))
    assert few.performance.slo_capacity_per_replica == 0  # the configuration misses
    assert (few.scale.replicas_for_load, many.scale.replicas_for_load) == (2, 256_411)
    assert many.scale.replicas > 50_000 * few.scale.replicas
    assert many.cost.capital_usd > 10_000 * few.cost.capital_usd
    # each replica carries what it holds, and the verdict says by how much the target is missed
    assert (few.memory.concurrency_sized, many.memory.concurrency_sized) == (20, 39)
    # at 39 users a replica's prompts also queue past the 2 s TTFT (2.03 s)
    for result, missed in ((few, "misses tokens/s"), (many, "misses both targets")):
        assert result.memory.fits
        assert result.verdict.state == missed
        assert "tokens/s per user against 30" in result.verdict.message.text("en")
        assert result.selection.chosen.verdict == result.verdict.state
        planning = result.scale.planning.message.text("en")
        assert "every request in flight fits in memory at peak context" in planning


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(1, 2_000), st.integers(1, 2_000))
def test_capital_never_falls_as_users_grow(sized, a, b):
    """Bounded: six pairs of sizings of at most 2,000 users (a few seconds in all)."""
    low, high = sorted((a, b))
    small, large = sized(with_users(low)), sized(with_users(high))
    assert small.scale.replicas_for_load <= large.scale.replicas_for_load
    assert small.cost.capital_usd <= large.cost.capital_usd


def test_a_replica_that_holds_no_request_says_so(sized):
    """BF16 weights (70.6 GB per GPU) and one 131,072-token sequence (20 GiB per GPU) exceed
    92.4 GB: not one request fits, so no replica count carries the load."""
    result = sized(_no_request_fits())
    assert result.memory.max_concurrent_sequences == 0
    assert result.verdict.state == "does not fit"
    assert "one sequence at 131,072 tokens" in result.verdict.message.text("en")
    assert result.scale.replicas_for_load == 1
    assert "Not even one request" in result.scale.planning.message.text("en")
    warnings = " ".join(m.text("en") for m in result.warning_messages)
    assert "sized on what memory admits" not in warnings


def _no_request_fits() -> dict:
    scenario = with_users(40)
    scenario["model"] = "llama-3.1-70b"
    scenario["precision"]["weights"] = "bf16"
    scenario["workload"].update(max_context_tokens=131_072, prompt_tokens=100_000)
    return scenario
