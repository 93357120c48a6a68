"""The engine's sentences name GPUs, servers and CPUs by their catalog names, not their ids.

A reader of "12 x dgx-h100" or "1 x h200-sxm" has to know the catalog; the sentences say
"12 x NVIDIA DGX H100". The result fields that hold ids (``scale.server``,
``rag.embedding_gpu``...) keep the ids: scripts read them (CONTRACT.md). (A server that does not
take the GPU: tests/engine/test_sizing_errors_german.py.)
"""

from __future__ import annotations

import re

import pytest

from app import api
from app.catalog.loader import load_catalog
from app.engine.explain import FAMILY_NAMES
from app.i18n import Message


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(include_user=False)


def size(name: str, catalog, **changes):
    data = api.example(name)
    data.update(changes)
    return api.size(api.load_scenario(data), catalog)


def messages(value, path: str = "") -> list[tuple[str, Message]]:
    """Every Message in a result, with where it is."""
    if isinstance(value, Message):
        return [(path, value)]
    if hasattr(type(value), "model_fields"):
        return [m for key in type(value).model_fields
                for m in messages(getattr(value, key), f"{path}.{key}")]
    if isinstance(value, dict):
        return [m for key, v in value.items() for m in messages(v, f"{path}[{key}]")]
    if isinstance(value, list):
        return [m for i, v in enumerate(value) for m in messages(v, f"{path}[{i}]")]
    return []


def bare_ids(catalog, text: str) -> list[str]:
    """Catalog ids of GPUs, servers and CPUs in ``text`` that are not in brackets after a
    name (storage tier ids are plain words: 'good', 'best')."""
    ids = set(catalog.gpus) | set(catalog.servers) | set(catalog.cpus)
    pattern = re.compile(r"(?<![\w(\-.'])(" + "|".join(
        sorted(map(re.escape, ids), key=len, reverse=True)) + r")(?![\w\-)'])")
    return pattern.findall(text)


@pytest.mark.parametrize("name", api.example_names())
def test_no_sentence_of_an_example_names_a_catalog_id(name, catalog):
    result = size(name, catalog)
    found = [(path, m.text()) for path, m in messages(result) if bare_ids(catalog, m.text())]
    assert not found, found


def test_the_training_cluster_is_named_by_its_server(catalog):
    result = size("pretrain", catalog)
    server = catalog.servers[result.scale.server]  # the id stays in the JSON field
    first = result.scale.messages[0]
    assert f" x {server.name}; " in first.text() and server.id not in first.text()
    assert f" x {server.name}; " in first.text("de")
    assert result.scale.explanation[0] == first.text()


def test_a_training_server_no_catalog_lists_gets_a_generic_name(catalog):
    data = api.example("fine-tune-lora")
    bare = catalog.model_copy(update={"servers": {}})
    result = api.size(api.load_scenario(data), bare)
    gpu = bare.gpus[result.training.gpu]
    assert result.scale.server == f"generic-{gpu.id}"
    text = result.scale.messages[0].text()
    assert f"-GPU server for {gpu.name}; " in text and f"generic-{gpu.id}" not in text
    node = next(a for a in result.assumptions if a.name.endswith(".scale_out_per_gpu"))
    assert node.subject.startswith("Generic ") and gpu.name in node.subject


def test_the_embedding_gpu_is_named(catalog):
    result = size("rag-assistant", catalog)
    gpu = catalog.gpus[result.rag.embedding_gpu]  # the id stays in the JSON field
    sentence = result.rag.messages[1].text()
    assert sentence.endswith(f" x {gpu.name}.") and gpu.id not in sentence
    assert result.rag.messages[1].text("de").endswith(f" x {gpu.name}.")
    assert result.rag.explanation[1] == sentence


def test_the_uncalibrated_warning_names_the_gpu_family(catalog):
    result = size("worked-example", catalog)  # vLLM has no Blackwell fit
    family = catalog.gpus[result.gpu.id].family
    warning = next(m for m in result.warning_messages if "not calibrated" in m.template)
    assert f"on {FAMILY_NAMES[family]} GPUs" in warning.text()
    assert f" {family} GPUs" not in warning.text()
