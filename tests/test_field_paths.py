"""Dotted field paths: one name per field in the file, on the command line, in a problem and
in the window (app.domain.field_paths)."""

from __future__ import annotations

import pytest

from app.domain.field_paths import (
    FieldPathError,
    covers,
    path_of,
    set_value,
    value_at,
    with_value,
)

DATA = {"workload": {"concurrent_users": 40}, "hardware": None, "model": "llama-3-70b"}


def test_a_value_is_read_by_its_path_and_absent_ones_are_none():
    assert value_at(DATA, "workload.concurrent_users") == 40
    assert value_at(DATA, "workload.prompt_tokens") is None
    assert value_at(DATA, "hardware.gpu") is None  # a group that is None holds nothing
    assert value_at(DATA, "model.layers") is None  # a value is not a group


def test_an_edit_is_a_copy_and_none_brings_the_default_back():
    edited = with_value(DATA, "hardware.gpu", "h100-sxm")
    assert edited["hardware"] == {"gpu": "h100-sxm"} and DATA["hardware"] is None
    cleared = with_value(edited, "workload.concurrent_users", None)
    assert cleared["workload"] == {} and edited["workload"] == {"concurrent_users": 40}


def test_set_value_changes_in_place_and_may_keep_a_none():
    data = {"name": "x"}
    assert set_value(data, "name", None) is data and data == {"name": None}
    set_value(data, "workload.kind", "batch_inference")
    assert data["workload"] == {"kind": "batch_inference"}


@pytest.mark.parametrize(("dotted", "key"), [("workload..users", None), ("", None),
                                             ("model.layers", "model")])
def test_a_path_that_names_no_field_is_refused(dotted, key):
    with pytest.raises(FieldPathError) as info:
        with_value(DATA, dotted, 1)
    assert info.value.key == key


@pytest.mark.parametrize(("location", "path"), [
    (("workload", "concurrent_users", "int"), "workload.concurrent_users"),
    (("workload", "concurrent_users", "literal['max']"), "workload.concurrent_users"),
    (("model", "ModelSpec", "layers"), "model.ModelSpec.layers"),
    (("hardware", "function-after[_product(), Hardware]"), "hardware"),
    ((), ""),
])
def test_the_path_of_a_validation_error_drops_the_union_tags(location, path):
    assert path_of(location) == path


def test_a_problem_covers_its_field_its_groups_fields_and_the_fields_inside_it():
    assert covers("targets.ttft_s", "targets.ttft_s")
    assert covers("workload", "workload.max_context_tokens")  # a rule across the group
    assert covers("hardware.tensor_parallel", "hardware")  # an edit of the whole group
    assert not covers("targets.ttft_s", "targets.tokens_per_s_per_user")
    assert not covers("work", "workload.kind")
    assert not covers("", "workload.kind")  # about no one field
