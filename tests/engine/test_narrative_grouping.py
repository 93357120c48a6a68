"""Numbers of four digits and more in the result's sentences carry a thousands separator.

``50,678.0 h`` in English and ``50.678,0 h`` in German (app/engine/narrative.py formats with
``{value:,.1f}``), in every sentence of every example; names (a CPU called "EPYC 9654") are not
numbers.
"""

from __future__ import annotations

import re

import pytest

from app.api import example, example_names, load_scenario, size
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
