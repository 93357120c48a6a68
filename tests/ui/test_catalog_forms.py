"""Catalog > Add or edit a GPU / server / model: the forms, their validation, the user catalog.

A user adds a custom GPU and a custom model through the forms and sizes a scenario with
them; the entries land in the user catalog folder (``AISIZER_CONFIG_DIR``) atomically and
appear at once in the window's pickers and in ``aisizer catalog list``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from app.catalog.loader import load_catalog
from app.catalog.user_catalog import catalog_file
from app.cli import main
from app.ui import text
from app.ui.dialogs.catalog_entry import CatalogEntryDialog

FIXTURES = Path(__file__).parents[1] / "catalog" / "fixtures" / "hf"

MY_GPU = {
    "name": "Example Accelerator 96GB", "memory_gb": "96", "memory_bandwidth_gb_s": "4,000",
    "bf16_tflops": "900", "tdp_w": "600", "scale_up_gb_s": "450", "max_gpus_per_node": "8",
    "source": "Vendor datasheet, rev. 2, page 3",
}


@pytest.fixture
def dialog(qtbot, controller):
    def make(kind: str) -> CatalogEntryDialog:
        form = CatalogEntryDialog(controller, kind)
        qtbot.addWidget(form)
        return form

    return make


def fill(form: CatalogEntryDialog, entry_id: str, values: dict[str, str],
         choices: dict[str, str] | None = None) -> None:
    form.entry_id.setText(entry_id)
    for name, value in values.items():
        form.form.field(name).widget.setText(value)
    for name, value in (choices or {}).items():
        combo = form.form.field(name).widget
        combo.setCurrentIndex(combo.findData(value))


def test_a_custom_gpu_is_saved_listed_and_sized(dialog, controller, user_config_dir, capsys):
    form = dialog("gpus")
    fill(form, "example-96", MY_GPU, {"vendor": "nvidia", "family": "hopper",
                                      "scale_up": "nvlink"})
    form.use.setChecked(True)
    assert form.save() == "example-96"
    saved = tomllib.loads(catalog_file("gpus", user_config_dir / "catalogs").read_text())
    assert saved["example-96"]["memory_bandwidth_gb_s"] == 4000
    assert "example-96" in controller.catalog.gpus  # the window's catalog, reloaded
    assert controller.scenario.hardware.gpu == "example-96"
    assert controller.wait_until_idle()
    result = controller.result
    assert result.selection.chosen.gpu == "example-96"
    assert result.memory.gpu_memory_bytes == 96e9
    assert main(["catalog", "list", "gpus"]) == 0
    assert "example-96" in capsys.readouterr().out


def test_a_custom_model_is_saved_listed_and_sized(dialog, controller, requirements_page,
                                                  user_config_dir):
    form = dialog("models")
    form.start.setCurrentIndex(form.start.findData("llama-3.1-8b"))
    form.start_from("llama-3.1-8b")
    fill(form, "my-llama-12l", {"name": "My Llama, 12 layers", "layers": "12",
                                "source": "our own fine-tune's config.json"})
    assert form.use.isChecked()  # a model is served at once by default
    assert form.save() == "my-llama-12l"
    assert controller.scenario.model == "my-llama-12l"
    assert controller.wait_until_idle()
    assert controller.result.memory.params_total < 0.5 * 8.03e9
    listed = [requirements_page.model.list.item(row).data(256)
              for row in range(requirements_page.model.list.count())]
    assert "my-llama-12l" in listed


def test_problems_name_the_field_and_nothing_is_saved(dialog, controller, user_config_dir):
    form = dialog("gpus")
    values = {**MY_GPU, "memory_gb": "", "memory_bandwidth_gb_s": "fast"}
    fill(form, "bad gpu", values, {"vendor": "nvidia", "family": "hopper"})
    assert form.save() is None
    shown = form.error.text()
    assert "Catalog id: 'bad gpu' is not valid" in shown
    assert "Memory bandwidth (GB/s): 'fast' is not a number" in shown
    form.entry_id.setText("ok-id")
    form.form.field("memory_bandwidth_gb_s").widget.setText("4000")
    assert form.save() is None
    shown = form.error.text()
    assert shown == "Memory (GB): Field required"
    assert form.form.field("memory_gb").widget.styleSheet()  # marked
    assert not catalog_file("gpus", user_config_dir / "catalogs").exists()


def test_a_server_must_name_catalog_gpus(dialog, controller, user_config_dir):
    form = dialog("servers")
    form.start.setCurrentIndex(form.start.findData("dgx-h200"))
    form.start_from("dgx-h200")
    fill(form, "my-server", {"gpu_ids": "h200-sxm, no-such-gpu"})
    assert form.save() is None
    assert "GPUs it takes (catalog ids): no-such-gpu not in the catalog" in form.error.text()
    fill(form, "my-server", {"gpu_ids": "h200-sxm"})
    assert form.save() == "my-server"
    assert load_catalog().servers["my-server"].gpu_ids == ["h200-sxm"]


def test_editing_a_users_entry_replaces_it(dialog, controller, user_config_dir):
    first = dialog("gpus")
    fill(first, "example-96", MY_GPU, {"vendor": "nvidia", "family": "hopper",
                                       "scale_up": "nvlink"})
    assert first.save()
    again = dialog("gpus")
    assert "★" in again.start.itemText(again.start.findData("example-96"))
    again.start_from("example-96")
    assert again.form.field("memory_bandwidth_gb_s").widget.text() == "4,000"
    again.form.field("tdp_w").widget.setText("700")
    assert again.save() == "example-96"
    assert load_catalog().gpus["example-96"].tdp_w == 700


def test_a_model_form_is_filled_from_a_folder(dialog, controller, user_config_dir):
    """The import dialog's reading, beside the form: the hybrid layers come with it."""
    form = dialog("models")
    assert form.read_folder(FIXTURES / "qwen3-next-80b-a3b-instruct")
    assert form.entry_id.text() == "qwen3-next-80b-a3b-instruct"
    linear = form.form.sections[[s.name for s in form.form.sections].index("linear_attention")]
    assert linear.box.isChecked()
    assert form.form.field("linear_attention.value_heads").widget.text() == "32"
    form.use.setChecked(False)
    assert form.save() == "qwen3-next-80b-a3b-instruct"
    spec = load_catalog().models["qwen3-next-80b-a3b-instruct"]
    assert spec.linear_attention.layers == 36 and spec.moe.experts == 512


def test_unchecking_a_part_removes_it(dialog, controller, user_config_dir):
    form = dialog("models")
    form.start_from("mixtral-8x7b")
    moe = form.form.sections[[s.name for s in form.form.sections].index("moe")]
    assert moe.box.isChecked()
    moe.box.setChecked(False)
    fill(form, "dense-mixtral", {"name": "Mixtral without experts"})
    form.use.setChecked(False)
    assert form.save() == "dense-mixtral"
    assert load_catalog().models["dense-mixtral"].moe is None


def test_embedding_models_are_not_offered_as_the_served_model(requirements_page):
    listed = [requirements_page.model.list.item(row).data(256)
              for row in range(requirements_page.model.list.count())]
    assert "llama-3.1-8b" in listed and "bge-m3" not in listed


def test_the_form_speaks_german(dialog):
    text.set_language("de")
    form = dialog("gpus")
    assert form.windowTitle() == "GPU hinzufügen oder bearbeiten"
    assert form.form.field("memory_gb").label.text() == "Speicher (GB) *"
    fill(form, "x", {**MY_GPU, "memory_gb": "96,5"}, {"vendor": "nvidia",
                                                       "family": "hopper", "scale_up": "nvlink"})
    values, problems = form.form.values()
    assert problems == [] and values["memory_gb"] == 96.5  # the German decimal comma


def test_catalog_menu_opens_each_form(shown_window):
    for key, kind in (("Add or edit a &GPU…", "gpus"), ("Add or edit a &server…", "servers"),
                      ("Add or edit a &model…", "models")):
        shown_window.actions_[key].trigger()
        assert shown_window.dialogs[f"entry-{kind}"].isVisible()
        shown_window.dialogs[f"entry-{kind}"].close()


def test_the_rag_step_picks_its_embedder_from_the_catalog(qtbot, controller, user_config_dir):
    """Training and workloads: the RAG box offers the catalog's embedding models; choosing
    one sizes the indexing from its architecture. A model added through the form is offered
    at once."""
    from app import api
    from app.ui.pages.training import TrainingPage

    page = TrainingPage(controller)
    qtbot.addWidget(page)
    controller.load(api.example("rag-assistant"), None)
    assert controller.result.rag.embedding_model == "bge-large-en-v1.5"  # named by the example
    combo = page.embedder.editor
    assert "BGE-M3" in [combo.itemText(i) for i in range(combo.count())]
    assert "Llama 3.1 8B" not in [combo.itemText(i) for i in range(combo.count())]
    combo.setCurrentIndex(page.embedder.values().index("bge-m3"))
    assert controller.wait_until_idle()
    assert controller.result.rag.embedding_model == "bge-m3"
    assert page.embedding_text(controller.result.rag).startswith("BGE-M3: 568 million")
    form = CatalogEntryDialog(controller, "models")
    qtbot.addWidget(form)
    form.start_from("qwen3-embedding-0.6b")
    fill(form, "my-embedder", {"name": "My embedder", "layers": "14"})
    form.use.setChecked(False)
    assert form.save() == "my-embedder"
    assert "my-embedder" in page.embedder.values()
