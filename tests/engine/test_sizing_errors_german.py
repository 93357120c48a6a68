"""What the catalog cannot size reads in German in the German window, and as before in English.

Every ``SizingError`` of the engine (the chains, ``servers.server_options`` and the calibration)
carries a Message: ``ScenarioError.problems`` keeps the English sentence the command line has
always printed; ``ScenarioError.messages`` renders the same problem in German.
"""

from __future__ import annotations

import copy

import pytest

from app.api import ScenarioError, calibrate, load_scenario, size
from app.engine import resolved, selection, training
from app.engine.calibration import speed_for_measurement

BASE = {
    "model": "llama-3.1-8b",
    "workload": {"concurrent_users": 4, "prompt_tokens": 512, "output_tokens": 128},
    "hardware": {"gpu": "h100-sxm"},
}
FINE_TUNE = {
    "model": "llama-3.1-8b",
    "workload": {"kind": "fine_tuning"},
    "hardware": {"gpu": "h100-sxm"},
    "training": {"method": "full", "sequence_length": 4096, "tokens_total": 2e8},
    "availability": {"redundancy": "none"},
}


def scenario(base: dict, **blocks) -> dict:
    """``base`` with each block updated (None removes it)."""
    data = copy.deepcopy(base)
    for key, value in blocks.items():
        if value is None:
            data.pop(key, None)
        elif isinstance(value, dict) and isinstance(data.get(key), dict):
            data[key].update(value)
        else:
            data[key] = value
    return data


def refusal(data: dict, catalog) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        size(load_scenario(data), catalog)
    return info.value


def no_cpus(catalog):
    return catalog.model_copy(update={"cpus": {}})


# (id, scenario, catalog change, the English sentence (or its start), words of the German one)
CASES = [
    ("model", scenario(BASE, model="nope"), None,
     "model: unknown model id 'nope'; known: deepseek-r1, ",
     "unbekannte Modell-ID 'nope'; bekannt:"),
    ("hardware.gpu", scenario(BASE, hardware={"gpu": "nope"}), None,
     "hardware.gpu: unknown gpu id 'nope'; known: a100-pcie-40, a100-pcie-80, ",
     "unbekannte GPU-ID 'nope'; bekannt: a100-pcie-40, a100-pcie-80"),
    ("hardware.tensor_parallel", scenario(BASE, hardware={"tensor_parallel": 3}), None,
     "hardware.tensor_parallel: 3 does not split Llama 3.1 8B's 32 attention heads and 8 KV "
     "heads evenly; allowed: 1, 2, 4, 8, 16, 32",
     "3 teilt die 32 Attention-Köpfe und 8 KV-Köpfe von Llama 3.1 8B nicht gleichmäßig auf; "
     "erlaubt: 1, 2, 4, 8, 16, 32"),
    ("hardware.pipeline_parallel", scenario(BASE, hardware={"pipeline_parallel": 40}), None,
     "hardware.pipeline_parallel: 40 stages for 32 layers; at most 32",
     "40 Stufen für 32 Schichten; höchstens 32"),
    ("selection.gpus", scenario(BASE, hardware=None, selection={"gpus": ["nope", "h100-sxm"]}),
     None, "selection.gpus: unknown GPU ids ['nope']", "unbekannte GPU-IDs ['nope']"),
    ("rag.embedding_gpu", scenario(BASE, rag={"documents": 10, "embedding_gpu": "h999"}), None,
     "rag.embedding_gpu: unknown gpu id 'h999'; known: a100-pcie-40, a100-pcie-80, ",
     "unbekannte GPU-ID"),
    ("rag.overlap_tokens", scenario(BASE, rag={"documents": 10, "overlap_tokens": 600}), None,
     "rag.overlap_tokens: 600 must be smaller than the chunk of 512 tokens",
     "600 muss kleiner sein als der Chunk von 512 Tokens"),
    ("cpu", scenario(BASE, cpu={}), no_cpus,
     "cpu: the catalog has no CPUs (catalogs/cpus.toml)",
     "Der Katalog enthält keine CPUs (catalogs/cpus.toml)"),
    ("cpu.cpu", scenario(BASE, cpu={"cpu": "epyc-1"}), None,
     "cpu.cpu: unknown cpu id 'epyc-1'; known: epyc-9654, ",
     "unbekannte CPU-ID 'epyc-1'; bekannt: epyc-9654"),
    ("hardware.server", scenario(BASE, hardware={"server": "nope"}), None,
     "hardware.server: 'nope' is not a server for NVIDIA H100 SXM5 80GB (h100-sxm); choose one "
     "of ['dgx-h100', 'hgx-h100-8']",
     "'nope' ist kein Server für NVIDIA H100 SXM5 80GB (h100-sxm); wählen Sie einen von "
     "['dgx-h100', 'hgx-h100-8']"),
    ("training.sequence_length", scenario(FINE_TUNE, training={"sequence_length": 1_000_000}),
     None, "training.sequence_length: 1,000,000 exceeds the model's context limit of 131,072 "
           "tokens", "überschreitet die Kontextgrenze des Modells von 131.072 Tokens"),
    ("training.tensor_parallel", scenario(FINE_TUNE, training={"tensor_parallel": 3}), None,
     "training.tensor_parallel: 3 does not split Llama 3.1 8B's 32 attention heads and 8 KV "
     "heads evenly; allowed: 1, 2, 4, 8, 16, 32", "nicht gleichmäßig auf"),
    ("training.pipeline_parallel", scenario(FINE_TUNE, training={"pipeline_parallel": 64}), None,
     "training.pipeline_parallel: 64 stages for 32 layers; at most 32",
     "64 Stufen für 32 Schichten; höchstens 32"),
    ("training.method", scenario(FINE_TUNE, workload={"kind": "pretraining"},
                                 training={"method": "lora"}), None,
     "training.method: 'lora' adapts a trained model; pre-training trains every weight "
     "(use 'full')", "'lora' passt ein trainiertes Modell an"),
    ("training hardware.server", scenario(FINE_TUNE, hardware={"server": "nope"}), None,
     "hardware.server: 'nope' is not a server for NVIDIA H100 SXM5 80GB (h100-sxm); choose one "
     "of ['dgx-h100', 'hgx-h100-8']", "ist kein Server für NVIDIA H100 SXM5 80GB (h100-sxm)"),
    ("training hardware.gpu", scenario(FINE_TUNE, hardware={"gpu": "nope"}), None,
     "hardware.gpu: unknown GPU id 'nope'; known: a100-pcie-40, a100-pcie-80, ",
     "unbekannte GPU-ID 'nope'"),
    ("training selection.gpus", scenario(FINE_TUNE, hardware=None, selection={"gpus": ["nope"]}),
     None, "selection.gpus: unknown GPU id 'nope'; known: a100-pcie-40, a100-pcie-80, ",
     "bekannt: a100"),
    ("training storage_tier", scenario(FINE_TUNE, availability={"storage_tier": "fast"}), None,
     "availability.storage_tier: unknown tier 'fast'; choose one of best, better, good",
     "unbekannte Speicherklasse 'fast'; wählen Sie eine von best, better, good"),
]


@pytest.mark.parametrize(("data", "change", "english", "german"),
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_sizing_error_in_english_and_german(data, change, english, german, catalog):
    error = refusal(data, change(catalog) if change else catalog)
    assert len(error.problems) == len(error.messages) == 1
    assert error.problems[0].startswith(english), error.problems[0]
    if not english.endswith(" "):  # the whole sentence (not a list of catalog ids)
        assert error.problems[0] == english
    shown = error.messages[0].text("de")
    field = english.split(":")[0]
    assert shown.startswith(f"{field}: ")  # the field path (the JSON name) stays
    assert german in shown, shown
    assert shown != error.problems[0]


def test_an_unknown_id_lists_the_catalog_ids(catalog):
    error = refusal(scenario(BASE, hardware={"gpu": "nope"}), catalog)
    assert error.problems[0] == ("hardware.gpu: unknown gpu id 'nope'; known: "
                                 + ", ".join(sorted(catalog.gpus)))
    assert error.messages[0].text("de").endswith("bekannt: " + ", ".join(sorted(catalog.gpus)))


def test_an_empty_catalog_table_says_none(catalog):
    error = refusal(scenario(BASE, cpu={"cpu": "epyc-1"}), no_cpus(catalog))
    # the engine checks for an empty CPU table first
    assert error.problems == ["cpu: the catalog has no CPUs (catalogs/cpus.toml)"]
    assert resolved.known_ids({}).text() == "(none)"
    assert resolved.known_ids({}).text("de") == "(keine)"


def test_no_gpu_configuration_in_german(catalog, monkeypatch):
    monkeypatch.setattr(selection, "enumerate_choices", lambda *args: [])
    error = refusal(scenario(BASE, hardware=None), catalog)
    assert error.problems == ["no GPU configuration to evaluate; widen selection.gpus"]
    assert error.messages[0].text("de") == (
        "Keine GPU-Konfiguration zu bewerten; erweitern Sie selection.gpus")


def test_no_training_configuration_in_german(catalog, monkeypatch):
    monkeypatch.setattr(training, "smallest_fitting", lambda *args: (None, None))
    error = refusal(FINE_TUNE, catalog)
    assert error.problems == ["training: no configuration to evaluate; widen selection.gpus or "
                              "raise training.max_gpus"]
    assert error.messages[0].text("de").startswith("training: Keine Konfiguration zu bewerten")


# --- calibration from a measurement -----------------------------------------------------------
@pytest.mark.parametrize(("metric", "measured", "english", "german"), [
    ("warp", 1.0, "calibration: metric 'warp' cannot be calibrated; choose one of ('itl_s', "
                  "'tokens_per_s_per_user', 'output_tokens_per_s', 'ttft_s')",
     "calibration: Die Messgröße 'warp' lässt sich nicht kalibrieren; wählen Sie eine von "
     "('itl_s', "),
    ("itl_s", -5.0, "calibration: measured itl_s must be positive, got -5.0",
     "calibration: Der gemessene Wert von itl_s muss positiv sein, angegeben: -5,0"),
])
def test_calibration_refusal_in_german(metric, measured, english, german, catalog):
    with pytest.raises(ScenarioError) as info:
        calibrate(load_scenario(BASE), metric, measured, 4, catalog)
    assert info.value.problems == [english]
    assert info.value.messages[0].text("de").startswith(german)


def test_speed_for_measurement_raises_a_value_error_with_its_message():
    with pytest.raises(ValueError, match="cannot be calibrated") as info:
        speed_for_measurement(None, "warp", 1.0, 1.0)
    assert isinstance(info.value, resolved.SizingError)
    assert "kalibrieren" in info.value.message.text("de")
