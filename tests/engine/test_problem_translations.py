"""Validation problems read in German in the German window, and as before on the command line.

``ScenarioError.problems`` stays the English sentence (CONTRACT.md); ``ScenarioError.messages``
holds the same problems as Messages (``app.domain.problems``) that render in any language.
"""

from __future__ import annotations

import copy

import pytest
from pydantic import ValidationError

from app.api import ScenarioError, load_scenario, size
from app.domain.problems import PYDANTIC_TYPES, detail
from app.domain.scenario import Scenario

BASE = {
    "model": "llama-3.1-8b",
    "workload": {"concurrent_users": 4, "prompt_tokens": 512, "output_tokens": 128},
    "hardware": {"gpu": "h100-sxm"},
}


def with_field(path: str, value) -> dict:
    data = copy.deepcopy(BASE)
    node = data
    keys = path.split(".")
    for key in keys[:-1]:
        node = node.setdefault(key, {})
    node[keys[-1]] = value
    return data


def refused(data: dict) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    return info.value


# (pydantic error type, field, value, how the value is echoed in German, German words)
PYDANTIC_CASES = [
    ("extra_forbidden", "workload.surprise", 1, "1", "zusätzliche Felder sind nicht erlaubt"),
    ("int_parsing", "workload.prompt_tokens", "a thousand", "'a thousand'",
     "lässt sich nicht als ganze Zahl lesen"),
    ("int_type", "workload.prompt_tokens", None, "null", "muss eine ganze Zahl sein"),
    ("int_from_float", "workload.prompt_tokens", 1.5, "1,5", "keine Zahl mit Nachkommastellen"),
    ("finite_number", "workload.prompt_tokens", float("nan"), "NaN", "endliche Zahl"),
    ("float_parsing", "targets.ttft_s", "soon", "'soon'", "lässt sich nicht als Zahl lesen"),
    ("float_type", "targets.ttft_s", [1], "[1]", "muss eine Zahl sein"),
    ("greater_than", "serving.memory_fraction", 0.01, "0,01", "muss größer als 0,05 sein"),
    ("greater_than_equal", "infrastructure.pue", 0.5, "0,5", "muss mindestens 1 sein"),
    ("less_than_equal", "workload.requests_per_hour", 2e12, "2000000000000,0",
     "darf höchstens 1000000000000 sein"),
    ("literal_error", "availability.redundancy", "3n", "'3n'",
     "muss 'none', 'n+1' oder '2n' sein"),
    ("string_type", "name", 5, "5", "muss ein Text sein"),
    ("string_too_short", "hardware.gpu", "", "''", "mindestens 1 Zeichen"),
    ("string_too_long", "customer", "x" * 201, "'xxxx", "höchstens 200 Zeichen"),
    ("bool_parsing", "sovereignty.air_gapped", "maybe", "'maybe'", "wahr oder falsch"),
    ("bool_type", "sovereignty.air_gapped", [1], "[1]", "wahr oder falsch"),
    ("dict_type", "factor_overrides", [1], "[1]", "muss ein JSON-Objekt sein"),
    ("list_type", "precision.allowed_weights", "fp8", "'fp8'", "muss eine Liste sein"),
    ("model_type", "training", "x", "'x'", "muss ein JSON-Objekt sein (oder ein Training)"),
]


def test_every_mapped_type_is_tested():
    tested = {case[0] for case in PYDANTIC_CASES} | {"missing"}
    assert tested == set(PYDANTIC_TYPES)


@pytest.mark.parametrize(("kind", "field", "value", "echo", "german"), PYDANTIC_CASES,
                         ids=[case[0] for case in PYDANTIC_CASES])
def test_pydantic_problem_in_german(kind, field, value, echo, german):
    data = with_field(field, value)
    with pytest.raises(ValidationError) as caught:
        Scenario.model_validate(data)
    item = next(i for i in caught.value.errors() if i["type"] == kind)
    assert detail(item).text() == item["msg"]  # English: pydantic's own words, as before
    error = refused(data)
    assert len(error.messages) == len(error.problems) == 1
    english, message = error.problems[0], error.messages[0]
    assert message.text() == english and message.text("en") == english
    assert english.startswith(f"{field}: {item['msg']} (got ")
    shown = message.text("de")
    assert shown.startswith(f"{field}: ")  # the field path (the JSON name) stays
    assert german in shown
    assert f"(angegeben: {echo}" in shown  # the value given, numbers with a decimal comma
    assert item["msg"] not in shown and "Input should" not in shown and "(got" not in shown


def test_missing_field_in_german():
    data = copy.deepcopy(BASE)
    del data["model"]
    error = refused(data)
    assert error.problems == ["model: Field required"]
    assert error.messages[0].text("de") == "model: Pflichtfeld fehlt"


def test_alternatives_are_joined_in_german():
    error = refused(with_field("workload.concurrent_users", "many"))
    assert error.problems == [
        "workload.concurrent_users: Input should be a valid integer, unable to parse string as "
        "an integer or Input should be 'max' (got 'many')"]
    shown = error.messages[0].text("de")
    assert "; oder: Der Wert muss 'max' sein (angegeben: 'many')" in shown


# (field path, value, German words) for the scenario's own rules (app/domain/scenario.py)
RULE_CASES = [
    ("workload.concurrent_users", 0, "muss zwischen 1 und 10.000.000 liegen oder 'max' sein"),
    ("workload", {"prompt_tokens": 1000, "output_tokens": 500, "max_context_tokens": 1200},
     "Der maximale Kontext (max_context_tokens = 1.200) ist kleiner als Eingabe + Ausgabe "
     "(prompt_tokens + output_tokens = 1.500)"),
    ("hardware", {"gpu": "h100-sxm", "gpus_per_replica": 4, "tensor_parallel": 2},
     "Die GPUs je Replikat (4) müssen dem Produkt aus Tensor- und Pipeline-Parallelität "
     "entsprechen (2 x 1 = 2)"),
    ("training", {"optimizer": "adagrad"}, "unbekannter Optimierer 'adagrad'; erlaubt: adamw"),
    ("training", {"global_batch_size": 2, "data_parallel": 4}, "Der globale Batch"),
    ("rag", {"documents": 5, "chunk_tokens": 100, "overlap_tokens": 100},
     "Die Überlappung (overlap_tokens = 100) muss kleiner sein als ein Chunk"),
    ("factor_overrides", {"eta_warp": 0.9}, "unbekannter Faktor 'eta_warp'; erlaubt: eta_mem"),
    ("factor_overrides", {"eta_mem": 1.5}, "Faktor 'eta_mem' = 1,5 muss ein Anteil über 0"),
    ("factor_overrides", {"step_overhead_s": 2}, "Faktor 'step_overhead_s' = 2,0 s muss zwischen"),
]


@pytest.mark.parametrize(("field", "value", "german"), RULE_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(RULE_CASES)])
def test_rule_problem_in_german(field, value, german):
    error = refused(with_field(field, value))
    shown = error.messages[0].text("de")
    assert shown.startswith(f"{field.split('.')[0]}")
    assert german in shown, shown
    assert error.messages[0].text() == error.problems[0]


def test_rule_problem_keeps_its_english_sentence():
    error = refused(with_field("workload.concurrent_users", 0))
    assert error.problems == [
        "workload.concurrent_users: must be between 1 and 10,000,000 or 'max' (got 0)"]


def test_sizing_error_in_german(catalog):
    data = with_field("workload", {"prompt_tokens": 8000, "output_tokens": 1000})
    data["model"] = "llama-3-8b"
    with pytest.raises(ScenarioError) as info:
        size(load_scenario(data), catalog)
    error = info.value
    assert error.problems == ["workload.max_context_tokens: 9,000 exceeds the model's context "
                              "limit of 8,192 tokens"]
    assert error.messages[0].text("de") == (
        "workload.max_context_tokens: 9.000 überschreitet die Kontextgrenze des Modells von "
        "8.192 Tokens")


def test_unknown_storage_tier_in_german(catalog):
    with pytest.raises(ScenarioError) as info:
        size(load_scenario(with_field("availability.storage_tier", "fast")), catalog)
    assert info.value.messages[0].text("de").startswith(
        "availability.storage_tier: unbekannte Speicherklasse 'fast'; wählen Sie eine von ")


def test_a_file_that_is_not_json_in_german():
    with pytest.raises(ScenarioError) as info:
        load_scenario('{"model": ')
    assert info.value.problems[0].startswith("scenario is not valid JSON: ")
    assert info.value.messages[0].text("de").startswith("Das Szenario ist kein gültiges JSON: ")


def test_plain_sentences_stay_as_they_are():
    """A problem given as a string (the command line's --set) renders unchanged in German."""
    error = ScenarioError(["--set x: expected PATH=VALUE {braces}"])
    assert error.messages[0].text("de") == "--set x: expected PATH=VALUE {braces}"
