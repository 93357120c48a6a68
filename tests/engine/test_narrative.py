"""The result's sentences as translatable messages (app.engine.narrative).

Numbers of four digits and more carry a thousands separator: ``50,678.0 h`` in English and
``50.678,0 h`` in German (narrative formats with ``{value:,.1f}``), in every sentence of every
example; names (a CPU called "EPYC 9654") are not numbers. What still serves after a node or
rack failure, and whether the redundancy covers a rack, are said for every case (METHOD.md
"Step 5").
"""

from __future__ import annotations

import re

import pytest

from app.api import example, example_names, load_scenario, size
from app.engine import narrative
from app.i18n import Message

UNGROUPED = re.compile(r"(?<![\w.,])\d{4,}")


def sentences(result) -> list[Message]:
    found = []
    for part in (result.memory, result.performance, result.scale, result.training, result.rag,
                 result.cpu):
        found += list(getattr(part, "messages", None) or [])
    return found


def without_names(message: Message, lang: str) -> str:
    text = message.text(lang)
    for value in message.params.values():
        if isinstance(value, str) and value:
            text = text.replace(value, "")
    return text


@pytest.mark.parametrize("name", example_names())
def test_every_sentence_groups_its_thousands(name, catalog):
    messages = sentences(size(load_scenario(example(name)), catalog))
    assert messages
    for message in messages:
        for lang in ("en", "de"):
            text = without_names(message, lang)
            assert not UNGROUPED.search(text), (lang, text)


def test_the_cluster_mtbf_of_one_gpu_in_each_language(catalog):
    result = size(load_scenario(example("fine-tune-lora")), catalog)
    failure = result.scale.failure_message
    hours = result.training.mtbf_cluster_s / 3600
    assert hours > 1000
    assert f"every {hours:,.1f} h." in failure.text()
    german = f"{hours:,.1f}".replace(",", "\0").replace(".", ",").replace("\0", ".")
    assert f"alle {german} h." in failure.text("de")


@pytest.mark.parametrize(("units", "left", "replicas", "load", "english"), [
    (1, 0, 3, 3, "A single node: when it fails, nothing serves until it is repaired."),
    (2, 2, 4, 2, "With one node down, 2 of 4 replicas still serve the full load (2 needed)."),
    (2, 1, 2, 1, "With one node down, one of 2 replicas still serves the full load (1 "
                 "needed)."),
    (4, 3, 4, 4, "With one node down, 3 of 4 replicas serve about 75% of the peak load; the "
                 "rest queue."),
    (2, 0, 1, 1, "With one node down, the only replica stops: nothing serves until the node is "
                 "repaired."),
])
def test_what_still_serves_when_a_node_fails(units, left, replicas, load, english):
    assert narrative.failure_message(units, left, replicas, load).text() == english


def test_the_redundancy_says_whether_it_covers_a_rack_and_what_would():
    covered = narrative.rack_redundancy_message("n+1", True, 3, 1, 3)
    assert covered.text().startswith("Replicas are spread across the 3 racks (at most 1 of")
    assert "use 2N" in narrative.rack_redundancy_message("n+1", False, 1, 4, 4).text()
    assert "spread them evenly" in narrative.rack_redundancy_message("2n", False, 1, 8, 8).text()
    assert narrative.rack_redundancy_message("none", False, 1, 2, 2) is None


def test_the_autoscaling_range_of_one_count_is_that_count():
    assert narrative.replica_range(1, 3).text() == "1 to 3 replicas"
    assert narrative.replica_range(2, 2).text() == "2 replicas"
    assert narrative.replica_range(1, 1).text() == "1 replica"
