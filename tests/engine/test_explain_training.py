"""The training result's sections (app.engine.explain_training).

METHOD.md "Training and fine-tuning": scale and infrastructure describe the training cluster
(one replica per data-parallel rank, no spare replicas: a failure stops the job until it
resumes from its checkpoint); storage holds checkpoints and the data set instead of serving
logs, and there is no cost per token.
"""

from __future__ import annotations

import pytest

from app.api import example, load_scenario, size
from app.engine import cost, explain_training, training_chain
from app.engine import training as tr
from app.engine.memory import parameter_counts
from app.engine.resolved import model_of


@pytest.fixture(scope="module")
def pretrain():
    return size(load_scenario(example("pretrain")))


def test_the_cluster_is_one_replica_per_data_parallel_rank_without_spares(pretrain):
    t, s = pretrain.training, pretrain.scale
    assert (s.redundancy, s.replicas, s.replicas_for_load) == ("none", t.data_parallel,
                                                                t.data_parallel)
    assert s.gpus_total == t.gpus_total == t.data_parallel * t.tensor_parallel \
        * t.pipeline_parallel
    assert s.autoscale_min_replicas == s.autoscale_max_replicas == t.data_parallel
    assert (s.replicas_per_node, s.nodes_per_replica) == (
        t.gpus_per_node // (t.tensor_parallel * t.pipeline_parallel), 1)
    assert s.replicas_after_node_failure == s.replicas_after_rack_failure == 0


def test_a_restart_reads_the_checkpoint_back_over_every_node(pretrain):
    t, s = pretrain.training, pretrain.scale
    tier = pretrain.infrastructure.storage
    assert s.cold_start_s == pytest.approx(
        tr.resume_s(t.checkpoint_bytes, tier.read_bytes_per_s_per_node, t.nodes))


def test_training_storage_replaces_the_serving_lines_and_reprices(pretrain):
    site, t = pretrain.infrastructure, pretrain.training
    purposes = [line.purpose for line in site.storage.lines]
    assert "weights loaded at cold start" not in purposes and "request logs" not in purposes
    checkpoints = next(line for line in site.storage.lines if "checkpoints" in line.purpose)
    data = next(line for line in site.storage.lines if line.purpose == "training data set")
    assert checkpoints.capacity_bytes == t.checkpoint_storage_bytes
    assert data.capacity_bytes == t.dataset_bytes
    assert site.storage.total_bytes == sum(line.capacity_bytes for line in site.storage.lines)
    priced = next(line for line in site.cost_lines if line.item == "Storage (usable TB)")
    assert priced.quantity == cost.storage_terabytes(site.storage.total_bytes)
    assert site.capital_usd == sum(line.total_usd for line in site.cost_lines
                                   if line.total_usd is not None)
    assert site.cost_per_million_tokens_usd is None


def test_selection_chosen_is_the_training_configuration(pretrain):
    c, t = pretrain.selection.chosen, pretrain.training
    assert (c.data_parallel, c.zero_stage, c.gpus_total) == (
        t.data_parallel, t.zero_stage, t.gpus_total)
    assert c.gpus_per_replica == t.tensor_parallel * t.pipeline_parallel
    assert pretrain.selection.chosen_by.startswith("training: ")


def test_the_serving_sections_say_what_they_describe(pretrain):
    for section in (pretrain.memory, pretrain.performance):
        assert section.messages[0].template.startswith("Serving the trained model on {gpu}")
        assert section.explanation[0] == section.messages[0].text()


def test_a_row_of_the_training_search_says_why(catalog):
    result = size(load_scenario({**example("fine-tune-lora"), "hardware": None,
                                 "selection": {"gpus": ["h100-sxm", "l40s"]}}))
    rows = result.training.candidates
    assert [row.reason for row in rows].count("chosen") == 1
    assert all(row.reason == "chosen" or "ranked lower" in row.reason or "does not fit" in
               row.reason or "misses the target" in row.reason for row in rows)


def test_a_candidate_row_reads_chosen_ranked_lower_or_why_not(catalog):
    """QLoRA of Llama-3.1-70B fits one H100: the rows of that plan in each role."""
    scenario = load_scenario(example("fine-tune-lora"))
    model = model_of(scenario, catalog)
    setup, fixed, target = training_chain.training_setup(scenario, catalog, model,
                                                         parameter_counts(model), [])
    plan, _, _ = training_chain.choose_training(catalog, scenario, setup, fixed, target)
    assert plan.gpus == 1 and plan.fits
    chosen = explain_training.training_candidate(plan, True, True, None)
    assert (chosen.reason, chosen.gpus, chosen.per_gpu_bytes) == ("chosen", 1,
                                                                   plan.per_gpu_bytes)
    days = plan.wall_clock_s / 86_400
    lower = explain_training.training_candidate(plan, False, True, None)
    assert lower.reason == f"works with one GPU ({days:.1f} days); ranked lower"
    late = explain_training.training_candidate(plan, False, False, days * 86_400 / 2)
    assert late.reason == f"misses the target: {days:.1f} days against {days / 2:g}"
