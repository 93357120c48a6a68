"""Assumptions as the result records them: value, unit and source (app.engine.assumptions).

A catalog citation is kept as written; a source the engine writes is a Message, its English
text in ``source`` (the JSON contract) and the Message in ``source_message`` (the window and
the report render it in German).
"""

from __future__ import annotations

from app.domain.result import Assumption
from app.engine.assumptions import catalog_default, default_source, sourced
from app.i18n import Message, msg


def test_a_citation_is_kept_as_written():
    assert sourced("NVIDIA H100 datasheet (as of 2024-01-01)") == {
        "source": "NVIDIA H100 datasheet (as of 2024-01-01)"}


def test_an_engine_sentence_keeps_its_message_and_its_english_text():
    sentence = msg("set in this scenario")
    assert sourced(sentence) == {"source_message": sentence}
    assumption = Assumption(name="vllm.eta_mem", value=0.5, **sourced(sentence))
    assert assumption.source == "set in this scenario"  # derived from the Message
    assert assumption.source_text("de") != assumption.source


def test_a_catalog_default_is_recorded_with_its_citation(catalog):
    assumption = catalog_default(catalog, "target_ttft_s", "s")
    assert (assumption.name, assumption.value, assumption.unit) == (
        "target_ttft_s", catalog.default("target_ttft_s"), "s")
    assert assumption.source == catalog.default_sources["target_ttft_s"]
    assert "METHOD.md" in assumption.source and assumption.source_message is None


def test_a_default_without_a_citation_says_catalog_default(catalog):
    bare = catalog.model_copy(update={"default_sources": {}})
    source = default_source(bare, "target_ttft_s")
    assert isinstance(source, Message) and source.text() == "catalog default"
    assert catalog_default(bare, "target_ttft_s", "s").source_message == source
