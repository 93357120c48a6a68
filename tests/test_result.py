"""What the result derives from its own fields, once for every view (app.domain.result).

The window, the report and the text summary read the expected range of a figure and the KV
cache per GPU from the result instead of working them out again.
"""

from __future__ import annotations

import numpy as np
import pytest

from app.api import example, load_scenario, size
from app.domain.result import Band, MemoryResult

BAND = Band(low=0.8, high=1.25)


def test_a_rate_ranges_from_the_pessimistic_to_the_optimistic_multiplier():
    assert BAND.speed_range(40.0) == (32.0, 50.0)


def test_a_time_ranges_inversely_a_slower_run_takes_longer():
    low, high = BAND.time_range(2.0)
    assert (low, high) == pytest.approx((1.6, 2.5))
    assert low < 2.0 < high


def test_ranges_apply_to_arrays_elementwise():
    low, high = BAND.speed_range(np.array([10.0, 20.0]))
    np.testing.assert_allclose(low, [8.0, 16.0])
    np.testing.assert_allclose(high, [12.5, 25.0])


def test_the_kv_cache_per_gpu_is_what_the_gpu_holds_beyond_weights_and_runtime():
    m = size(load_scenario(example("worked-example"))).memory
    assert m.kv_cache_bytes_per_gpu == pytest.approx(
        m.per_gpu_bytes - m.weights_bytes_per_gpu - m.runtime_bytes_per_gpu)
    assert m.kv_cache_bytes_per_gpu == pytest.approx(m.kv_cache_bytes / 2)  # two GPUs, t = 2
    assert "kv_cache_bytes_per_gpu" not in m.model_dump()  # derived, not in the JSON


def test_the_kv_cache_per_gpu_is_never_negative():
    m = size(load_scenario(example("small-chat"))).memory
    rounded = m.model_copy(update={"per_gpu_bytes": m.weights_bytes_per_gpu
                                   + m.runtime_bytes_per_gpu - 1e-3})
    assert isinstance(rounded, MemoryResult) and rounded.kv_cache_bytes_per_gpu == 0.0


# --- sentences kept once: the English text fields come from the Messages ----------------------
def test_english_text_fields_are_derived_from_the_messages():
    from app.domain.result import CostResult, Lever
    from app.i18n import msg

    lever = Lever(target="ttft", value_after=1.0, meets=True,
                  change_message=msg("FP8 KV cache"))
    assert (lever.change, lever.note) == ("FP8 KV cache", "")
    note = CostResult(capital_usd=None, gpus_usd=None, servers_usd=None,
                      note_messages=[msg("No price for {item}.", item="Racks"),
                                     msg("No price for {item}.", item="PDUs")])
    assert note.note == "No price for Racks. No price for PDUs."


def test_every_english_text_of_a_result_is_its_messages_english():
    r = size(load_scenario(example("rag-assistant")))
    assert r.warnings == [m.text() for m in r.warning_messages]
    for section in (r.memory, r.performance, r.scale, r.rag):
        assert section.explanation == [m.text() for m in section.messages]
    assert r.scale.failure_statement == r.scale.failure_message.text()
    assert r.scale.rack_failure_statement == r.scale.rack_failure_message.text()
    assert r.performance.naive_explanation == r.performance.naive_message.text()
    assert all(a.reason == a.reason_message.text() for a in r.selection.alternatives)
    assert all(a.source == a.source_message.text() for a in r.assumptions if a.source_message)


def test_a_revised_section_derives_its_english_again_and_a_loaded_one_keeps_its_own():
    from app.domain.result import SizingResult
    from app.i18n import msg

    r = size(load_scenario(example("small-chat")))
    revised = r.memory.revised(messages=[msg("One sentence.")])
    assert revised.explanation == ["One sentence."]
    data = r.model_dump(mode="json")
    data["memory"]["explanation"] = ["as an older version wrote it"]
    assert SizingResult.model_validate(data).memory.explanation == [
        "as an older version wrote it"]


# --- every result field documented --------------------------------------------------------------
def result_models():
    import inspect

    from pydantic import BaseModel

    import app.domain.result as result

    return [m for _, m in inspect.getmembers(result, inspect.isclass)
            if issubclass(m, BaseModel) and m.__module__ == result.__name__]


def test_every_result_field_has_a_description():
    missing = [f"{m.__name__}.{name}" for m in result_models()
               for name, field in {**m.model_fields, **m.model_computed_fields}.items()
               if not field.description]
    assert not missing, missing


def test_every_number_of_the_result_states_its_unit():
    """A number's description ends its meaning with a unit in brackets: [B], [s], [W],
    [tokens/s] ... and [-] for a count or a share."""
    import typing

    def numeric(annotation) -> bool:
        types = typing.get_args(annotation) or (annotation,)
        return any(t in (int, float) for t in types) and bool not in types

    unitless = [f"{m.__name__}.{name}" for m in result_models()
                for name, field in m.model_fields.items()
                if numeric(field.annotation) and "[" not in field.description]
    assert not unitless, unitless
