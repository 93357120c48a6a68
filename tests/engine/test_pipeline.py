"""The orchestrator: a scenario goes to the serving or the training chain
(app.engine.pipeline)."""

from __future__ import annotations

import pytest

from app.api import example, load_scenario
from app.engine import pipeline, serving_chain, training_chain


@pytest.mark.parametrize(("name", "chain"), [("small-chat", "serving"),
                                             ("batch-summaries", "serving"),
                                             ("fine-tune-lora", "training"),
                                             ("pretrain", "training")])
def test_each_kind_goes_to_its_chain(catalog, monkeypatch, name, chain):
    called = []
    monkeypatch.setattr(serving_chain, "size_in_stages",
                        lambda s, c: iter([(called.append("serving"), False)]))
    monkeypatch.setattr(training_chain, "size_training",
                        lambda s, c: called.append("training"))
    list(pipeline.size_in_stages(load_scenario(example(name)), catalog))
    assert called == [chain]


def test_size_is_the_last_stage(catalog):
    scenario = load_scenario(example("worked-example"))
    *_, (last, follow) = pipeline.size_in_stages(scenario, catalog)
    assert not follow
    assert pipeline.size(scenario, catalog) == last


def test_a_training_result_comes_whole_in_one_stage(catalog):
    stages = list(pipeline.size_in_stages(load_scenario(example("fine-tune-lora")), catalog))
    assert len(stages) == 1 and stages[0][1] is False
    assert stages[0][0].training is not None
