"""Every assumption has a readable name, and a source the reader's language can render.

``Assumption.name`` stays the id (result JSON, ``factor_overrides``); ``label(lang)`` is what
the Assumptions page and the report show. A source the engine writes as a sentence comes as a
Message (``source_message``, rendered in German too); a catalog citation stays as written.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from app import api
from app.catalog.loader import load_catalog
from app.domain.assumption_labels import ASSUMPTION_LABELS, label, source_text
from app.domain.result import Assumption
from app.engine.infrastructure import COOLING_LIMITS, COOLING_PUE
from app.i18n import msg

ENGINE = Path(__file__).resolve().parents[2] / "app" / "engine"
# Scenarios that record the assumptions the examples do not: pre-training tokens from the
# catalog rule, an IVF-PQ index, direct liquid cooling, an air-cooled rear door.
EXTRA = {
    "pretrain-default-tokens": ("pretrain", {"training": {"tokens_total": None}}),
    "rag-ivf-pq": ("rag-assistant", {"rag": {"index": "ivf-pq"}}),
    "dlc": ("worked-example", {"infrastructure": {"cooling": "dlc"}}),
    "rdhx": ("worked-example", {"infrastructure": {"cooling": "rdhx"}}),
}


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(include_user=False)


def scenario(name: str) -> dict:
    base, changes = EXTRA.get(name, (name, {}))
    data = api.example(base)
    for block, values in changes.items():
        data[block] = {**(data.get(block) or {}), **values}
        data[block] = {k: v for k, v in data[block].items() if v is not None}
    return data


@pytest.fixture(scope="module")
def results(catalog):
    return {name: api.size(api.load_scenario(scenario(name)), catalog)
            for name in [*api.example_names(), *EXTRA]}


def recorded_default_names() -> set[str]:
    """The catalog defaults the engine records as assumptions: the name argument of the
    defaults helpers (``resolved.default_value`` and the chains' ``value``, infrastructure
    ``s.get``/``s.default``)."""
    positions = {"default_value": 1, "value": 0}
    names = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id in positions:
                index = positions[func.id]
            elif (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                  and func.value.id == "s" and func.attr in ("get", "default")):
                index = 1 if func.attr == "get" else 0
            else:
                continue
            if len(node.args) > index and isinstance(node.args[index], ast.Constant):
                names.add(node.args[index].value)
    return names


def test_the_scan_finds_the_recorded_defaults():
    names = recorded_default_names()
    assert {"target_ttft_s", "training_mfu", "rag_top_k", "feed_voltage_v", "tco_years",
            "cpu_host_power_w", "repository_copies"} <= names


def test_every_default_the_engine_records_has_a_label(catalog):
    names = recorded_default_names() | set(COOLING_LIMITS.values()) | set(COOLING_PUE.values())
    names |= {f"storage_su_write_gb_s_{tier}" for tier in catalog.storage}
    assert not sorted(names - set(ASSUMPTION_LABELS))


def test_every_assumption_of_every_result_has_a_label(results):
    raw = sorted({(name, a.name) for name, r in results.items() for a in r.assumptions
                  if a.label() == a.name})
    assert not raw, raw


def test_a_label_names_the_product_not_its_id(results, catalog):
    r = results["worked-example"]
    gpu = catalog.gpus[r.gpu.id]
    memory = next(a for a in r.assumptions if a.name == f"{gpu.id}.memory")
    assert memory.label() == f"GPU memory ({gpu.name})"
    assert memory.label("de") == f"GPU-Speicher ({gpu.name})"
    peak = next(a for a in r.assumptions if ".peak_" in a.name)
    assert peak.label().startswith("Peak compute, ") and gpu.name in peak.label()
    factor = next(a for a in r.assumptions if a.name.endswith(".eta_mem"))
    engine = catalog.engines[factor.name.rpartition(".")[0]]
    assert factor.label("de") == f"Effizienz der Speicherbandbreite, Gewichte ({engine.name})"
    training = results["pretrain"]
    node = next(a for a in training.assumptions if a.name.endswith(".scale_out_per_gpu"))
    assert node.subject == catalog.servers[training.scale.server].name


def test_labels_read_german(results):
    labels = {a.name: (a.label(), a.label("de")) for r in results.values() for a in r.assumptions}
    same = sorted(name for name, (en, de) in labels.items() if en == de)
    # PUE and the like are the same words in German; nothing else
    assert len(same) <= 2, same


def test_a_label_without_a_subject_falls_back_to_the_id_prefix():
    assert label("vllm.eta_mem") == "Memory bandwidth efficiency, weights (vllm)"
    assert label("h100-sxm.peak_fp8", "NVIDIA H100") == "Peak compute, FP8 (NVIDIA H100)"
    assert label("not_a_known_default") == "not_a_known_default"


def catalog_citations(catalog) -> set[str]:
    texts = set(catalog.default_sources.values())
    texts |= {p.source for p in catalog.precisions.values()}
    return texts


def test_engine_sentences_are_messages_and_citations_stay(results, catalog):
    citations = catalog_citations(catalog)
    for name, r in results.items():
        for a in r.assumptions:
            if a.source_message is None:
                assert a.source in citations, (name, a.name, a.source)
            else:
                assert a.source == a.source_message.text(), (name, a.name)
                assert a.source_text("de") != a.source, (name, a.name, a.source)


def test_engine_sources_in_german(results, catalog):
    r = results["worked-example"]
    factor = next(a for a in r.assumptions if a.name.endswith(".eta_mem"))
    engine = catalog.engines[factor.name.rpartition(".")[0]]
    assert factor.source_text("de").startswith(f"Profil {engine.name} (")
    assert engine.source in factor.source_text("de")  # the citation as written
    assert "(Stand " in factor.source_text("de") and "as of" not in factor.source_text("de")
    node = next(a for a in results["pretrain"].assumptions
                if a.name.endswith(".scale_out_per_gpu"))
    assert node.source_text("de").startswith("Server aus dem Katalog")
    tokens = next(a for a in results["pretrain-default-tokens"].assumptions
                  if a.name == "tokens_total")
    assert "billion parameters x 20 tokens" in tokens.source
    assert "Milliarden Parameter x 20 Tokens" in tokens.source_text("de")


def test_an_overridden_factor_says_so_in_german(catalog):
    data = api.example("worked-example")
    data["factor_overrides"] = {"eta_mem": 0.9}
    r = api.size(api.load_scenario(data), catalog)
    a = next(a for a in r.assumptions if a.name.endswith(".eta_mem"))
    assert a.overridden and a.source == "set in this scenario"
    assert a.source_text("de") == "in diesem Szenario gesetzt"


def test_a_catalog_citation_keeps_its_words_and_translates_its_date():
    cited = "HARDWARE.md 7: air-cooled rack default 30 kW (as of 2026-11-01)"
    assert source_text(cited) == cited
    assert source_text(cited, lang="de") == ("HARDWARE.md 7: air-cooled rack default 30 kW "
                                             "(Stand 2026-11-01)")
    assert source_text("a paper (2023)", lang="de") == "a paper (2023)"


def test_the_json_keeps_its_fields_and_reads_old_results(results):
    dumped = results["worked-example"].model_dump(mode="json")["assumptions"]
    assert all({"name", "value", "unit", "source", "overridden"} <= set(a) for a in dumped)
    old = {"name": "vllm.eta_mem", "value": 0.8, "unit": "", "source": "x", "overridden": False}
    a = Assumption.model_validate(old)  # a result written before the additive fields
    assert a.subject is None and a.source_message is None
    assert a.label("de") == "Effizienz der Speicherbandbreite, Gewichte (vllm)"
    again = Assumption.model_validate(Assumption(
        name="n", value=1, source="set in this scenario",
        source_message=msg("set in this scenario")).model_dump(mode="json"))
    assert again.source_text("de") == "in diesem Szenario gesetzt"
