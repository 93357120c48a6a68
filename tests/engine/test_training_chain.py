"""The training chain: the result of a fine-tuning or pre-training scenario, the search for
its configuration, and the field-named errors of invalid training blocks
(app.engine.training_chain; the formulas are in test_training.py).

METHOD.md "Training and fine-tuning": the training section carries the sizing; memory and
performance describe serving the trained model on the training GPU type; scale,
infrastructure and cost describe the training cluster.
"""

from __future__ import annotations

import copy
import json

import pytest

from app.api import ScenarioError, example, load_scenario, size
from app.engine import training as tr
from app.summary import render

GB = 1e9
DAY = 86_400.0

FINE_TUNE = {
    "model": "llama-3.1-8b",
    "workload": {"kind": "fine_tuning"},
    "hardware": {"gpu": "h100-sxm"},
    "training": {"method": "full", "sequence_length": 4096, "tokens_total": 2e8},
    "availability": {"redundancy": "none"},
}


def scenario(**training) -> dict:
    data = copy.deepcopy(FINE_TUNE)
    data["training"].update(training)
    return data


# --------------------------------------------------------------------------- pipeline


@pytest.fixture(scope="module")
def full_ft(sized):
    return sized(scenario())


def test_fine_tuning_result_has_a_training_section(full_ft):
    t = full_ft.training
    assert t is not None and t.fits and t.method == "full"
    assert t.per_gpu_bytes <= t.gpu_usable_bytes
    assert t.model_state_bytes_per_gpu > 0 and t.activation_bytes_per_gpu > 0
    assert t.step_time_s > 0 and t.time_to_train_s > 0
    assert t.checkpoint_bytes == pytest.approx(14 * t.params_total)
    assert t.checkpoint_save_s > 0 and t.checkpoint_interval_s > t.checkpoint_save_s
    assert t.explanation and len(t.explanation) == len(t.messages)
    # the per-GPU total is the sum of its parts
    assert t.per_gpu_bytes == pytest.approx(t.model_state_bytes_per_gpu
                                            + t.activation_bytes_per_gpu)


def test_training_result_keeps_inference_sections_valid(full_ft):
    """Memory and performance describe serving the trained model on the training GPU."""
    assert full_ft.memory.params_total == pytest.approx(full_ft.training.params_total)
    assert full_ft.performance.single_user.tokens_per_s_per_user > 0
    assert "Serving the trained model" in full_ft.memory.explanation[0]
    assert full_ft.selection.chosen.gpu == "h100-sxm"
    assert full_ft.selection.chosen.data_parallel == full_ft.training.data_parallel
    assert full_ft.scale.gpus_total == full_ft.training.gpus_total
    assert full_ft.infrastructure is not None
    purposes = [line.purpose for line in full_ft.infrastructure.storage.lines]
    assert any("checkpoints" in p for p in purposes) and "training data set" in purposes
    assert "request logs" not in purposes


def test_result_json_round_trips(full_ft):
    data = json.loads(json.dumps(full_ft.model_dump(mode="json")))
    for key in ("model_state_bytes_per_gpu", "activation_bytes_per_gpu", "step_time_s",
                "time_to_train_s", "checkpoint_bytes", "checkpoint_save_s"):
        assert data["training"][key] > 0


def test_inputs_after_defaults_reproduce_the_configuration(full_ft, sized):
    """Sizing the result's inputs again evaluates the chosen configuration as given."""
    again = sized(full_ft.inputs.model_dump(mode="json"))
    a, b = full_ft.training, again.training
    assert again.training.chosen_by == "user"
    assert (a.data_parallel, a.tensor_parallel, a.pipeline_parallel, a.zero_stage,
            a.activation_recompute) == (b.data_parallel, b.tensor_parallel,
                                        b.pipeline_parallel, b.zero_stage,
                                        b.activation_recompute)
    assert b.per_gpu_bytes == pytest.approx(a.per_gpu_bytes)
    assert b.time_to_train_s == pytest.approx(a.time_to_train_s)


def test_search_returns_the_smallest_count_that_fits(full_ft, catalog, sized):
    """No smaller GPU count fits: force each smaller data-parallel count and check."""
    t = full_ft.training
    smaller = [n for n in tr.gpu_counts(8, 4096) if n < t.gpus_total]
    for n in smaller:
        result = sized(scenario(data_parallel=n, tensor_parallel=1, pipeline_parallel=1,
                                zero_stage=3, activation_recompute="full"))
        assert not result.training.fits, n


def test_time_target_adds_gpus(sized):
    relaxed = sized(scenario(tokens_total=5e9)).training
    tight = sized(scenario(tokens_total=5e9, target_days=relaxed.wall_clock_s / DAY / 3)).training
    assert tight.gpus_total > relaxed.gpus_total
    assert tight.meets_target and tight.wall_clock_s <= tight.target_days * DAY


def test_given_configuration_that_does_not_fit_says_so(sized):
    result = sized(scenario(data_parallel=1, tensor_parallel=1, pipeline_parallel=1,
                            zero_stage=0, activation_recompute="none"))
    assert not result.training.fits
    assert result.training.chosen_by == "user"
    assert any("does not fit" in w for w in result.warnings)


def test_fp32_gradients_add_two_bytes(sized):
    base = sized(scenario(data_parallel=1, tensor_parallel=8, pipeline_parallel=1,
                          zero_stage=0, activation_recompute="full")).training
    fp32 = sized(scenario(data_parallel=1, tensor_parallel=8, pipeline_parallel=1,
                          zero_stage=0, activation_recompute="full",
                          fp32_gradients=True)).training
    assert fp32.model_state_bytes_per_param == 18 and base.model_state_bytes_per_param == 16
    assert fp32.gradients_bytes_per_gpu == pytest.approx(2 * base.gradients_bytes_per_gpu)


def test_qlora_70b_fits_one_80gb_gpu(sized):
    """QLoRA (Dettmers et al. 2023) fine-tunes a 65B model on one 48 GB GPU; a 70B model on
    one 80 GB H100 must fit."""
    data = copy.deepcopy(FINE_TUNE)
    data["model"] = "llama-3.1-70b"
    data["training"] = {"method": "qlora", "sequence_length": 2048, "tokens_total": 1e7}
    t = sized(data).training
    assert t.fits and t.gpus_total == 1
    assert t.adapter_params == t.params_trainable > 0
    assert t.checkpoint_bytes == pytest.approx(14 * t.adapter_params)
    assert t.weights_bytes_per_gpu < 0.3 * 2 * t.params_total


def test_pretraining_defaults_to_twenty_tokens_per_parameter(sized):
    data = {"model": "llama-3.1-8b", "workload": {"kind": "pretraining"},
            "hardware": {"gpu": "h100-sxm"}, "training": {"sequence_length": 2048}}
    result = sized(data)
    assert result.training.tokens_total == pytest.approx(20 * result.training.params_total)
    assert any(a.name == "tokens_total" for a in result.assumptions)


@pytest.mark.parametrize("name", ["pretrain", "fine-tune-lora"])
def test_training_examples_size_and_render(name, catalog):
    result = size(load_scenario(example(name)), catalog)
    assert result.training is not None and result.training.fits
    text = render(result)
    assert "Training" in text and "time to train" in text


# --------------------------------------------------------------------------- invalid input


def problems(data, catalog) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        size(load_scenario(data), catalog)
    return info.value.problems


@pytest.mark.parametrize(("field", "value", "named"), [
    ("zero_stage", 4, "training.zero_stage"),
    ("optimizer", "adagrad", "training.optimizer"),
    ("method", "prefix", "training.method"),
    ("activation_recompute", "partial", "training.activation_recompute"),
    ("micro_batch_size", 0, "training.micro_batch_size"),
    ("tensor_parallel", 3, "training.tensor_parallel"),
    ("pipeline_parallel", 64, "training.pipeline_parallel"),
    ("sequence_length", 1_000_000, "training.sequence_length"),
    ("mfu", 1.5, "training.mfu"),
    ("lora_targets", "everything", "training.lora_targets"),
])
def test_invalid_training_fields_are_named(field, value, named, catalog):
    found = problems(scenario(**{field: value}), catalog)
    assert found[0].startswith(named), found


def test_global_batch_smaller_than_one_pass(catalog):
    found = problems(scenario(global_batch_size=4, data_parallel=8, micro_batch_size=1),
                     catalog)
    assert found[0].startswith("training") and "global_batch_size" in found[0]


def test_lora_pretraining_is_refused(catalog):
    data = scenario(method="lora")
    data["workload"]["kind"] = "pretraining"
    assert problems(data, catalog)[0].startswith("training.method")


def test_unknown_training_gpu_is_named(catalog):
    data = scenario()
    data["hardware"] = {"gpu": "h999"}
    assert problems(data, catalog)[0].startswith("hardware.gpu")


def test_unknown_storage_tier_is_named(catalog):
    data = scenario()
    data["availability"]["storage_tier"] = "fastest"
    assert problems(data, catalog)[0].startswith("availability.storage_tier")


def test_unknown_server_is_named(catalog):
    data = scenario()
    data["hardware"] = {"gpu": "h100-sxm", "server": "dgx-b200"}
    assert problems(data, catalog)[0].startswith("hardware.server")
