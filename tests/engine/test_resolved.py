"""Step 1 in engine terms: defaults filled in and recorded, the catalog checked
(app.engine.resolved).

METHOD.md "Step 1": targets default to TTFT 2 s and 30 tokens/s per user
(catalogs/defaults.toml); the quality floor defaults to BF16/FP16/FP8/INT8 plus the model's
native format; the KV cache to 16 bit; every default used is listed in the assumptions.
"""

from __future__ import annotations

import pytest

from app.api import example, load_scenario
from app.engine.resolved import (
    DEFAULT_QUALITY_FLOOR,
    SizingError,
    default_value,
    known_ids,
    look_up,
    model_of,
    resolve,
    storage_tier_of,
)
from app.i18n import msg


def resolved(catalog, **blocks):
    """small-chat (Llama-3.1-8B, BF16 native) with whole blocks replaced."""
    return resolve(load_scenario({**example("small-chat"), **blocks}), catalog)


def test_default_targets_come_from_the_catalog_and_are_recorded(catalog):
    r = resolved(catalog, targets={})
    assert r.demand.ttft_target == catalog.default("target_ttft_s") == 2.0
    assert r.demand.speed_target == catalog.default("target_tokens_per_s_per_user") == 30.0
    assert [(a.name, a.unit) for a in r.assumptions] == [
        ("target_ttft_s", "s"), ("target_tokens_per_s_per_user", "tokens/s"), ("plan_at", "")]


def test_given_targets_are_kept_and_not_recorded_as_defaults(catalog):
    r = resolved(catalog, targets={"ttft_s": 0.5, "tokens_per_s_per_user": 12,
                                   "plan_at": "expected"})
    assert (r.demand.ttft_target, r.demand.speed_target) == (0.5, 12)
    assert r.demand.plan_at == "expected"
    assert r.assumptions == []


def test_a_scenario_without_plan_at_plans_conservatively_and_says_so(catalog):
    """Scenarios saved before targets.plan_at existed load as conservative; the assumption
    says that they were sized at the expected figures before (a migration note)."""
    r = resolved(catalog, targets={"ttft_s": 0.5, "tokens_per_s_per_user": 12})
    assert r.demand.plan_at == "conservative"
    [note] = r.assumptions
    assert (note.name, note.value) == ("plan_at", "conservative")
    assert "sized at the expected figures" in note.source
    assert "Plan at" in note.source and "targets.plan_at" not in note.source  # user words
    assert resolved(catalog, targets={"plan_at": "conservative"}).demand.plan_at == \
        "conservative"


def test_the_quality_floor_adds_the_native_format_and_the_weights_default_to_it(catalog):
    """gpt-oss ships in MXFP4: the default floor keeps 8/16 bit and adds MXFP4, and without a
    format the weights stay native; a floor the user gives is taken as it is."""
    r = resolved(catalog, model="gpt-oss-20b", precision={})
    assert catalog.model("gpt-oss-20b").native_precision == "mxfp4"
    assert r.allowed_weights == [*DEFAULT_QUALITY_FLOOR, "mxfp4"]
    assert r.weights == "mxfp4"
    given = resolved(catalog, precision={"allowed_weights": ["fp8", "int8"]})
    assert given.allowed_weights == ["fp8", "int8"]
    assert given.weights == "fp8"  # BF16 native, not allowed: the first allowed


@pytest.mark.parametrize(("weights", "kv"), [("fp16", "fp16"), ("bf16", "bf16"),
                                             ("fp8", "bf16"), ("int4-awq", "bf16")])
def test_the_kv_cache_defaults_to_16_bit_fp16_only_beside_fp16_weights(catalog, weights, kv):
    assert resolved(catalog, precision={"weights": weights}).kv_cache == kv


def test_the_demand_is_the_workload_in_engine_terms(catalog):
    r = resolved(catalog, workload={"concurrent_users": "max", "prompt_tokens": 1000,
                                    "output_tokens": 200},
                 availability={"redundancy": "2n"})
    assert r.demand.users is None  # 'max': the saturation point
    assert (r.demand.work.prompt_tokens, r.demand.work.output_tokens) == (1000, 200)
    assert r.demand.peak_context == 1200  # no maximum context: prompt + output
    assert r.demand.redundancy == "2n"


def test_a_context_beyond_the_models_limit_names_the_field(catalog):
    with pytest.raises(SizingError) as info:
        resolved(catalog, workload={"max_context_tokens": 200_000, "prompt_tokens": 1000,
                                    "output_tokens": 100})
    assert str(info.value) == ("workload.max_context_tokens: 200,000 exceeds the model's "
                               "context limit of 131,072 tokens")


def test_look_up_returns_the_entry_or_names_field_value_and_known_ids(catalog):
    assert look_up(catalog.gpus, "l40s", "hardware.gpu", msg("unknown")) is catalog.gpus["l40s"]
    with pytest.raises(SizingError) as info:
        look_up({"b": 1, "a": 2}, "c", "cpu.cpu", msg("unknown cpu id '{value}'; known: {known}"))
    assert str(info.value) == "cpu.cpu: unknown cpu id 'c'; known: a, b"
    assert info.value.message.field == "cpu.cpu"
    assert known_ids({}).text() == "(none)"


def test_an_inline_model_needs_no_catalog_entry(catalog):
    inline = catalog.model("llama-3.1-8b").model_copy(update={"id": "my-model"})
    data = {**example("small-chat"), "model": inline.model_dump(mode="json")}
    assert model_of(load_scenario(data), catalog).id == "my-model"


def test_an_unknown_storage_tier_lists_the_tiers(catalog):
    with pytest.raises(SizingError, match="unknown tier 'fast'; choose one of best, better"):
        storage_tier_of(load_scenario({**example("small-chat"),
                                       "availability": {"storage_tier": "fast"}}), catalog)


def test_default_value_records_only_what_it_fills_in(catalog):
    recorded = []
    assert default_value(catalog, "rag_top_k", "chunks", recorded, 7) == 7
    assert recorded == []
    assert default_value(catalog, "rag_top_k", "chunks", recorded) == catalog.default("rag_top_k")
    assert [(a.name, a.unit, a.value) for a in recorded] == [
        ("rag_top_k", "chunks", catalog.default("rag_top_k"))]
