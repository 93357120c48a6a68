"""Import warnings and errors of a model folder read in German in the German window.

``ImportedModel.warnings`` and ``str(ModelImportError)`` stay English (the command line);
``warning_messages`` and ``ModelImportError.message`` render in any language.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.catalog.hf_import import ModelImportError, read_model_folder

FIXTURES = Path(__file__).parent / "fixtures" / "hf"


def test_warnings_in_german_and_english():
    model = read_model_folder(FIXTURES / "gemma-3-27b-it")
    assert [m.text() for m in model.warning_messages] == model.warnings
    german = [m.text("de") for m in model.warning_messages]
    assert "config.json: text_config.vocab_size fehlt; verwendet wurde 262208, der " \
           "Standardwert von transformers für gemma3_text." in german
    assert any(w.startswith("config.json beschreibt auch einen Vision-Encoder") for w in german)
    assert not any("is not given" in w or "also describes" in w for w in german)


def test_missing_field_in_german():
    with pytest.raises(ModelImportError) as caught:
        read_model_folder(FIXTURES / "missing-field")
    assert str(caught.value) == (
        "config.json: num_hidden_layers is missing (needed for the layer count).")
    assert caught.value.message.text("de") == (
        "config.json: num_hidden_layers fehlt (nötig für die Zahl der Schichten).")


def test_wrong_value_in_german(tmp_path):
    folder = tmp_path / "model"
    shutil.copytree(FIXTURES / "llama-3.1-8b", folder)
    config = json.loads((folder / "config.json").read_text())
    config["num_hidden_layers"] = 2.5
    (folder / "config.json").write_text(json.dumps(config))
    with pytest.raises(ModelImportError) as caught:
        read_model_folder(folder)
    assert str(caught.value) == "config.json: num_hidden_layers is 2.5; expected a whole number."
    assert caught.value.message.text("de") == (
        "config.json: num_hidden_layers ist 2.5; erwartet wird eine ganze Zahl.")


def test_model_the_catalog_refuses_in_german(tmp_path):
    folder = tmp_path / "model"
    shutil.copytree(FIXTURES / "llama-3.1-8b", folder)
    config = json.loads((folder / "config.json").read_text())
    config["vocab_size"] = 0
    (folder / "config.json").write_text(json.dumps(config))
    with pytest.raises(ModelImportError) as caught:
        read_model_folder(folder)
    assert str(caught.value) == ("config.json describes a model AI Sizer cannot use: "
                                 "vocab_size = 0: Input should be greater than or equal to 1.")
    assert caught.value.message.text("de") == (
        "config.json beschreibt ein Modell, das AI Sizer nicht verwenden kann: vocab_size = 0: "
        "Der Wert muss mindestens 1 sein.")


def test_missing_folder_in_german(tmp_path):
    with pytest.raises(ModelImportError) as caught:
        read_model_folder(tmp_path / "nowhere")
    assert caught.value.message.text("de") == (
        f"Der Modellordner {tmp_path / 'nowhere'} existiert nicht.")
