"""The page Training and workloads: training inputs and figures, RAG and CPU, and the
sentence shown when the scenario has none of them; the training kinds of Step 1."""

import pytest

from app import api
from app.ui.pages import STEPS
from app.ui.pages.redundancy import RedundancyPage
from app.ui.pages.requirements import RequirementsPage
from app.ui.pages.training import TrainingPage, memory_parts


@pytest.fixture
def page(qtbot, controller):
    widget = TrainingPage(controller)
    qtbot.addWidget(widget)
    return widget


def figures(table) -> dict[str, str]:
    return {table.text(row, 0): table.text(row, 1) for row in range(table.rowCount())}


def test_follows_the_redundancy_step():
    classes = [page.load() for page in STEPS]
    assert classes[classes.index(RedundancyPage) + 1] is TrainingPage


def test_worked_example_says_what_the_page_is_for(page):
    assert page.none.isVisibleTo(page)
    assert "fine-tuning or pre-training" in page.none.text()
    for box in (page.training_box, page.rag_box, page.cpu_box):
        assert not box.isVisibleTo(page)


@pytest.mark.parametrize("example", ["fine-tune-lora", "pretrain"])
def test_training_figures_and_charts(page, controller, example):
    controller.load(api.example(example), None)
    tr = controller.result.training
    assert tr is not None
    assert page.training_box.isVisibleTo(page) and page.inputs_box.isVisibleTo(page)
    assert not page.none.isVisibleTo(page)
    shown = figures(page.figures)
    assert shown["GPUs"].startswith(f"{tr.gpus_total} x {controller.catalog.gpus[tr.gpu].name}")
    assert f"ZeRO {tr.zero_stage}" in shown["Parallelism"]
    assert figures(page.step_table)["Step time"]
    assert figures(page.checkpoint_table)["Checkpoint size"].endswith("GB")
    bars = page.memory_chart.bars
    heights = {part: bars[part].opts["height"][0] for part in bars}
    assert heights["optimizer"] == pytest.approx(memory_parts(tr)["optimizer"] / 1e9)
    xs, ys = page.time_chart.curve.getData()
    assert len(xs) == len(tr.scaling) >= 2
    assert ys[0] == pytest.approx(tr.scaling[0].wall_clock_s / 86_400)


def test_pretrain_figures_change_after_an_edit(page, controller):
    controller.load(api.example("pretrain"), None)
    before = figures(page.figures)
    assert controller.result.training.zero_stage == 1
    zero = next(f for f in page.fields if f.path == "training.zero_stage")
    zero.editor.setCurrentIndex(zero.values().index(3))
    assert controller.scenario.training.zero_stage == 3
    controller.recompute()
    assert controller.result.training.zero_stage == 3
    after = figures(page.figures)
    assert "ZeRO 3" in after["Parallelism"]
    assert after["Model states per GPU"] != before["Model states per GPU"]
    dp = page.degrees["data_parallel"]
    dp.editor.setText("256")
    dp.commit()
    controller.recompute()
    assert controller.result.training.data_parallel == 256
    assert figures(page.figures)["GPUs"].startswith("256 x")


def test_rag_figures(page, controller):
    controller.load(api.example("rag-assistant"), None)
    rag = controller.result.rag
    assert page.rag_box.isVisibleTo(page)
    assert not page.training_box.isVisibleTo(page) and not page.none.isVisibleTo(page)
    shown = figures(page.rag_table)
    assert shown["Chunks"] == f"{rag.chunks:,.0f}"
    assert "HNSW" in shown["Index in memory"]
    assert shown["Retrieval latency"].endswith("ms")


def test_cpu_comparison_and_verdict(page, controller):
    controller.load(api.example("cpu-small-model"), None)
    cpu = controller.result.cpu
    assert page.cpu_box.isVisibleTo(page)
    assert "Verdict" in page.cpu_verdict.text()
    assert page.cpu_table.text(0, 1) == f"{cpu.tokens_per_s_per_user:,.1f}"
    assert page.cpu_table.text(0, 2) == f"{cpu.gpu_tokens_per_s_per_user:,.1f}"


def test_german(page, controller):
    controller.load(api.example("pretrain"), None)
    controller.set_language("de")
    assert page.inputs_box.title() != "Training setup"
    assert "One optimizer step" not in page.step_title.text()
    assert "Aktivierungen" in page.memory_chart.legend.items[3][1].text
    controller.set_language("en")


@pytest.fixture
def requirements(qtbot, controller):
    widget = RequirementsPage(controller)
    qtbot.addWidget(widget)
    return widget


def test_choosing_pretraining_sizes_a_training_scenario_and_undo_restores(requirements,
                                                                          controller):
    kind = requirements.field("workload.kind")
    index = kind.values().index("pretraining")
    assert kind.editor.model().item(index).isEnabled()
    kind.editor.setCurrentIndex(index)
    assert controller.scenario.workload.kind == "pretraining"
    assert controller.scenario.training is not None
    assert controller.scenario.training.method == "full"
    controller.recompute()
    assert controller.result.training is not None
    controller.undo_stack.undo()
    assert controller.scenario.workload.kind == "online_inference"
    assert controller.scenario.training is None
    controller.recompute()
    assert controller.result.training is None


def test_choosing_fine_tuning_brings_lora(requirements, controller):
    kind = requirements.field("workload.kind")
    kind.editor.setCurrentIndex(kind.values().index("fine_tuning"))
    assert controller.scenario.training.method == "lora"
    controller.recompute()
    assert controller.result.training.method == "lora"
