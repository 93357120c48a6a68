"""Step 3: typing a configuration (GPU, count, tensor and pipeline parallel, formats) with
each problem at its field, and the "GPUs to consider" menu staying open while ticking."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from app.ui.pages.gpu_selection import GpuSelectionPage


@pytest.fixture
def page(qtbot, controller):
    widget = GpuSelectionPage(controller)
    qtbot.addWidget(widget)
    return widget


def type_in(form, **values):
    for key, value in values.items():
        editor = form.editors[key]
        if hasattr(editor, "setValue"):
            editor.setValue(value)
        else:
            editor.setCurrentIndex(editor.findData(value))


def shown(form):
    return {key: label.text() for key, label in form.messages.items() if label.isVisibleTo(form)}


def test_the_form_opens_with_the_chosen_configuration(page, controller):
    c = controller.result.selection.chosen
    form = page.typed
    assert form.editors["gpu"].currentData() == c.gpu
    assert form.editors["count"].value() == c.gpus_per_replica
    assert form.editors["tensor"].value() == c.tensor_parallel
    assert form.editors["weights"].currentData() == c.precision


def test_a_typed_configuration_is_applied_as_one_undoable_edit(page, controller):
    form = page.typed
    steps = controller.undo_stack.count()
    type_in(form, gpu="h100-sxm", tensor=4, pipeline=1, weights="fp8", kv="fp8")
    assert form.editors["count"].value() == 4  # follows tensor x pipeline
    assert form.apply() == []
    assert controller.undo_stack.count() == steps + 1
    hardware = controller.scenario.hardware
    assert (hardware.gpu, hardware.gpus_per_replica, hardware.tensor_parallel) == \
        ("h100-sxm", 4, 4)
    assert controller.scenario.precision.weights == "fp8"
    assert controller.scenario.precision.kv_cache == "fp8"
    controller.recompute()
    chosen = controller.result.selection.chosen
    assert (chosen.gpu, chosen.gpus_per_replica, chosen.precision) == ("h100-sxm", 4, "fp8")


def test_a_count_that_is_not_tensor_times_pipeline_is_named_at_its_field(page, controller):
    form = page.typed
    before = controller.scenario
    type_in(form, tensor=2, pipeline=2)
    form.editors["count"].setValue(3)
    problems = form.apply()
    assert problems and controller.scenario == before
    message = shown(form)
    assert list(message) == ["count"]
    assert "GPUs per replica" in message["count"] and "2 x 2 = 4" in message["count"]
    assert "gpus_per_replica" not in message["count"]


def test_a_degree_the_model_cannot_split_is_named_at_its_field(page, controller):
    form = page.typed
    type_in(form, gpu="h100-sxm", tensor=3, pipeline=1)
    form.apply()
    controller.recompute()
    message = shown(form)
    assert "tensor" in message, message
    assert "attention heads" in message["tensor"]
    assert "hardware.tensor_parallel" not in message["tensor"]
    type_in(form, tensor=2)
    form.apply()
    controller.recompute()
    assert shown(form) == {}


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing")  # offscreen
def test_the_gpu_menu_stays_open_while_ticking(page, controller, qtbot):
    page.choose_radio.click()  # the search settings apply when the tool chooses
    controller.recompute()
    page.show()
    menu = page.gpu_menu
    menu.popup(page.mapToGlobal(QPoint(0, 0)))
    qtbot.waitUntil(menu.isVisible)
    first, second = list(page.gpu_actions.values())[:2]
    for action in (first, second):
        centre = menu.actionGeometry(action).center()
        QTest.mouseMove(menu, centre)
        QTest.mouseClick(menu, Qt.MouseButton.LeftButton, pos=centre)
        assert menu.isVisible()
    ids = list(page.gpu_actions)[:2]
    assert controller.scenario.selection.gpus == ids
    menu.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_filter_keeps_its_width_on_a_laptop_screen(shown_window, language):
    from PySide6.QtWidgets import QApplication

    from app.ui.pages import row_of
    from app.ui.pages.gpu_selection import FILTER_WIDTH

    shown_window.controller.set_language(language)
    shown_window.resize(1366, 768)
    shown_window.go(row_of("GpuSelectionPage"))
    for _ in range(3):
        QApplication.processEvents()
    page = shown_window.page(row_of("GpuSelectionPage"))
    assert page.filter_edit.width() >= FILTER_WIDTH  # it was squeezed to 'Fil...'


def test_expert_parallelism_and_dp_attention_are_typed_and_shown(page, controller):
    """A MoE model on 8 GPUs with its experts over all of them and DP attention (#12): the
    form sends both, the sizing takes them, the form and the chosen line show them."""
    form = page.typed
    controller.edit_many({"model": "deepseek-r1", "serving.engine": "sglang"}, "DeepSeek-R1")
    type_in(form, gpu="h200-sxm", tensor=8, pipeline=1, weights="fp8", kv="bf16",
            experts=8, dp=True)
    assert form.apply() == []
    hardware = controller.scenario.hardware
    assert (hardware.expert_parallel, hardware.dp_attention) == (8, True)
    controller.recompute()
    chosen = controller.result.selection.chosen
    assert (chosen.expert_parallel, chosen.dp_attention) == (8, True)
    assert form.editors["experts"].value() == 8 and form.editors["dp"].currentData() is True
    page.show_chosen(controller.result)
    assert "EP 8, DP attention" in page.chosen_label.text()


def test_expert_parallelism_on_a_dense_model_is_named_at_its_field(page, controller):
    form = page.typed
    type_in(form, tensor=2, pipeline=1, experts=2)
    form.apply()
    controller.recompute()  # the sizing refuses it: the model is dense
    assert "dense model" in shown(form).get("experts", ""), shown(form)


def test_an_expert_degree_that_does_not_divide_the_gpus_is_named_at_its_field(page, controller):
    """The scenario's layout rule names hardware.expert_parallel, so the form shows it under
    Expert parallel (not under the GPU count, as a whole-hardware problem would be)."""
    form = page.typed
    controller.edit_many({"model": "deepseek-r1", "serving.engine": "sglang"}, "DeepSeek-R1")
    type_in(form, gpu="h200-sxm", tensor=8, pipeline=1, experts=3)
    form.apply()
    messages = shown(form)
    assert "must divide hardware.tensor_parallel (8)" in messages.get("experts", ""), messages
    assert "count" not in messages, messages
