"""Step 1 Requirements: fields send edits, refusals show inline, the model can be imported."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from app.domain.problems import problem, verbatim
from app.i18n import msg
from app.ui.dialogs.import_model import ImportModelDialog
from app.ui.fields import problem_for

HF_FIXTURES = Path(__file__).parents[1] / "catalog" / "fixtures" / "hf"


@pytest.fixture
def page(requirements_page):
    return requirements_page


def sized(qtbot, controller):
    """The result after the edits so far (the controller recomputes on a short timer)."""
    controller.recompute()
    return controller.result


def type_into(editor: QLineEdit, text: str) -> None:
    editor.setText(text)
    editor.editingFinished.emit()


def test_editing_users_changes_scenario_and_result(qtbot, page, controller):
    kv_before = controller.result.memory.kv_cache_bytes
    users = page.field("workload.concurrent_users")
    users.editor.setValue(64)
    users.editor.editingFinished.emit()
    assert controller.scenario.workload.concurrent_users == 64
    assert sized(qtbot, controller).memory.kv_cache_bytes != kv_before


def test_typing_is_debounced_then_sent(qtbot, page, controller):
    users = page.field("workload.concurrent_users")
    users.editor.setValue(50)
    assert controller.scenario.workload.concurrent_users == 40  # not yet: the user may type on
    qtbot.waitUntil(lambda: controller.scenario.workload.concurrent_users == 50, timeout=2000)


def test_editing_prompt_changes_scenario_and_result(qtbot, page, controller):
    type_into(page.field("workload.max_context_tokens").editor, "")  # context = prompt + output
    assert controller.scenario.workload.max_context_tokens is None
    # One sequence's KV cache: the users' total may stay put when the shorter prompt lets
    # the plan put more users on each replica (the replicas follow the load, #14).
    kv_before = sized(qtbot, controller).memory.kv_bytes_per_sequence
    prompt = page.field("workload.prompt_tokens")
    prompt.editor.setValue(2048)
    prompt.editor.editingFinished.emit()
    assert controller.scenario.workload.prompt_tokens == 2048
    assert sized(qtbot, controller).memory.kv_bytes_per_sequence < kv_before


def test_invalid_context_shows_message_and_keeps_scenario(qtbot, page, controller):
    before = controller.data
    context = page.field("workload.max_context_tokens")
    type_into(context.editor, "100")
    assert controller.data == before
    assert not context.message.isHidden()
    assert "max_context_tokens (100) is smaller" in context.message.text()
    assert "{" not in context.message.text()  # the echoed JSON is left out
    assert context.editor.text() == "8,192"  # the scenario's value is back, grouped
    type_into(context.editor, "16384")
    assert controller.scenario.workload.max_context_tokens == 16384
    assert context.message.isHidden()


def test_presets_set_max_context(qtbot, page, controller):
    controller.edit("model", "qwen3-8b")  # 32K of context and more
    controller.recompute()
    qtbot.mouseClick(page.preset_buttons["32K"], Qt.MouseButton.LeftButton)
    assert controller.scenario.workload.max_context_tokens == 32768
    assert page.field("workload.max_context_tokens").editor.text() == "32,768"
    qtbot.mouseClick(page.preset_buttons["2K"], Qt.MouseButton.LeftButton)  # < prompt + output
    assert controller.scenario.workload.max_context_tokens == 32768
    assert "smaller" in page.field("workload.max_context_tokens").message.text()


def test_presets_longer_than_the_model_takes_are_disabled(qtbot, page, controller):
    limit = controller.result.model.max_context_tokens  # Llama 3 70B: 8,192
    assert limit == 8192
    assert page.preset_buttons["8K"].isEnabled()
    for name in ("32K", "128K"):
        button = page.preset_buttons[name]
        assert not button.isEnabled()
        assert "8,192" in button.toolTip()
    qtbot.mouseClick(page.preset_buttons["32K"], Qt.MouseButton.LeftButton)
    assert controller.scenario.workload.max_context_tokens == 8192


def test_model_search_filters_and_choice_changes_result(qtbot, page, controller):
    picker = page.field("model")
    qtbot.keyClicks(picker.search, "qwen3")
    shown = picker.visible_values()
    assert shown and all("qwen3" in model_id for model_id in shown)
    row = next(r for r in range(picker.list.count())
               if picker.list.item(r).data(Qt.ItemDataRole.UserRole) == "qwen3-8b")
    rect = picker.list.visualItemRect(picker.list.item(row))
    qtbot.mouseClick(picker.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert controller.scenario.model == "qwen3-8b"
    assert sized(qtbot, controller).model.id == "qwen3-8b"
    assert page.fact_values["Layers"].text() == "36"


def test_moe_model_facts(qtbot, page, controller):
    controller.edit("model", "gpt-oss-120b")
    sized(qtbot, controller)
    architecture = page.fact_values["Architecture"].text()
    assert "Mixture of experts" in architecture and "sliding window of 128" in architecture


def test_batch_shows_volume_fields(qtbot, page, controller):
    assert not page.batch_box.isVisibleTo(page)
    kind = page.field("workload.kind")
    kind.editor.setCurrentIndex(kind.values().index("batch_inference"))
    assert controller.scenario.workload.kind == "batch_inference"
    assert page.batch_box.isVisibleTo(page)
    type_into(page.field("workload.tokens_per_day").editor, "2000000")
    assert controller.scenario.workload.tokens_per_day == 2e6


def test_training_kinds_are_enabled(page):
    kind = page.field("workload.kind")
    for value in ("fine_tuning", "pretraining"):
        index = kind.values().index(value)
        assert kind.editor.model().item(index).isEnabled()
        assert "time to train" in kind.editor.itemData(index, Qt.ItemDataRole.ToolTipRole)


def test_saturation_checkbox_sets_max(page, controller):
    users = page.field("workload.concurrent_users")
    users.saturation.setChecked(True)
    assert controller.scenario.workload.concurrent_users == "max"
    assert not users.editor.isEnabled()


def test_quality_floor_and_formats(qtbot, page, controller):
    allowed = page.field("precision.allowed_weights")
    int8 = allowed.boxes[[c.value for c in allowed.choices].index("int8")]
    int8.setChecked(False)
    assert controller.scenario.precision.allowed_weights == ["bf16", "fp16", "fp8"]
    weights = page.field("precision.weights")
    weights.editor.setCurrentIndex(0)
    assert controller.scenario.precision.weights is None
    sized(qtbot, controller)
    assert weights.editor.itemText(0) == "(default: bf16)"


def test_quality_floor_keeps_one_format(page, controller):
    allowed = page.field("precision.allowed_weights")
    for box in allowed.boxes:
        box.setChecked(False)
    assert controller.scenario.precision.allowed_weights  # never emptied
    assert "at least one" in allowed.message.text()


def test_targets_empty_means_default(page, controller):
    ttft = page.field("targets.ttft_s")
    type_into(ttft.editor, "")
    assert controller.scenario.targets.ttft_s is None
    assert "2" in ttft.editor.placeholderText()
    type_into(ttft.editor, "1,5")  # German decimal comma is understood
    assert controller.scenario.targets.ttft_s == 1.5


def test_refused_value_shows_inline(page, controller):
    ttft = page.field("targets.ttft_s")
    type_into(ttft.editor, "0")
    assert controller.scenario.targets.ttft_s == 2.0
    assert "greater than or equal to 0.001" in ttft.message.text()


def test_showing_the_scenario_sends_no_edits(qtbot, page, controller):
    users = page.field("workload.concurrent_users")
    users.editor.setValue(64)
    users.editor.editingFinished.emit()
    count = controller.undo_stack.count()
    controller.undo_stack.undo()
    assert users.editor.value() == 40
    assert controller.undo_stack.count() == count
    assert controller.undo_stack.index() == count - 1


def test_every_field_explains_itself(page):
    for field in page.fields:
        for widget in field.focus_widgets():
            assert widget.toolTip(), field.path


def test_tab_order_follows_the_page(page):
    chain = page.chain
    assert chain[0] is page.field("name").editor
    assert page.field("model").search in chain[:6]
    visited, widget = [], chain[0]
    while len(visited) < len(chain):
        if widget in chain:
            visited.append(widget)
        widget = widget.nextInFocusChain()
    assert visited == chain


def test_problem_for_picks_the_field():
    problems = [problem("targets.ttft_s", msg("Input should be greater than 0"), -1),
                problem("workload", verbatim("max_context_tokens (9) is smaller"),
                        {"kind": "x"}, '{"kind": "x"}')]
    assert [p.text() for p in problems] == [
        "targets.ttft_s: Input should be greater than 0 (got -1)",
        'workload: max_context_tokens (9) is smaller (got {"kind": "x"})']
    assert problem_for("targets.ttft_s", problems) == "Input should be greater than 0 (got -1)"
    assert problem_for("workload.max_context_tokens", problems) == (
        "max_context_tokens (9) is smaller")


def test_import_dialog_adds_model_and_selects_it(qtbot, page, controller, user_config_dir):
    dialog = ImportModelDialog(controller, page)
    qtbot.addWidget(dialog)
    imported = dialog.read_folder(HF_FIXTURES / "gemma-3-27b-it")
    assert imported is not None and imported.warnings
    assert "transformers default" in dialog.warnings.text()
    assert dialog.row_values["Context limit"].text() == "131,072 tokens"
    assert dialog.import_model() == "gemma-3-27b-it"
    assert (user_config_dir / "catalogs" / "models.toml").exists()
    assert "gemma-3-27b-it" in controller.catalog.models
    assert controller.scenario.model == "gemma-3-27b-it"
    assert controller.result.model.id == "gemma-3-27b-it"
    assert "gemma-3-27b-it" in page.field("model").visible_values()
    assert page.field("model").read() == "gemma-3-27b-it"


def test_import_dialog_explains_a_bad_folder(qtbot, controller):
    dialog = ImportModelDialog(controller)
    qtbot.addWidget(dialog)
    assert dialog.read_folder(HF_FIXTURES / "invalid-json") is None
    assert "config.json" in dialog.error.text()
    assert dialog.import_model() is None
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Save).isEnabled()


def test_page_renders(qtbot, page):
    page.show()
    qtbot.waitExposed(page)
    assert not page.grab().isNull()


def test_plan_at_is_set_in_the_targets_and_sizes_the_result(qtbot, page, controller):
    """Conservative by default (the scenario leaves it out); choosing 'At the expected
    figures' writes targets.plan_at and the result plans at the expected figures."""
    plan_at = page.field("targets.plan_at")
    assert controller.scenario.targets.plan_at is None
    assert plan_at.editor.currentText() == "Conservative (default)"
    assert sized(qtbot, controller).scale.planning.plan_at == "conservative"
    plan_at.editor.setCurrentIndex(plan_at.values().index("expected"))
    assert controller.scenario.targets.plan_at == "expected"
    assert sized(qtbot, controller).scale.planning.plan_at == "expected"
    # the worked example misses a target at the expected figures too, and says so
    assert controller.result.scale.planning.statement.startswith("Even at the expected figures")


def test_named_users_derive_the_requests_in_flight_and_show_them(qtbot, page, controller):
    """Issue 13: "500 users" are named users; the window shows the concurrency it derives."""
    type_into(page.field("workload.activity.named_users").editor, "500")
    assert controller.scenario.workload.activity.named_users == 500
    assert not page.field("workload.concurrent_users").editor.isEnabled()
    result = sized(qtbot, controller)
    page.show_result(result)
    # 500 x 0.3 active x 1 request/min / 60 x (TTFT + output / speed) s, rounded up
    derived = result.inputs.workload.concurrent_users
    assert f"Derived: {derived} requests in flight" in page.derived_users.text()
    assert "Little's law" in page.derived_users.text()
    assert page.field("workload.concurrent_users").editor.value() == derived  # shown, off
    type_into(page.field("workload.activity.think_time_s").editor, "30")
    assert controller.scenario.workload.activity.think_time_s == 30
    type_into(page.field("workload.activity.named_users").editor, "")
    assert controller.scenario.workload.activity is None
    assert page.field("workload.concurrent_users").editor.isEnabled()
