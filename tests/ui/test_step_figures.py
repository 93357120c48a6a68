"""Step 3 and Step 4 say one thing each (issue 13, "One verdict per screen"): one cost for the
chosen configuration, decode-step bars that add up to the stated step, the naive line on the
active parameters, levers with more replicas and the tool's own choice, and no figures at a
load that does not fit.
"""

from __future__ import annotations

import pytest

from app import api
from app.ui.pages.gpu_selection import COLUMNS, GpuSelectionPage, chosen_candidate
from app.ui.pages.performance import PerformancePage


@pytest.fixture
def step3(qtbot, controller):
    page = GpuSelectionPage(controller)
    qtbot.addWidget(page)
    return page


@pytest.fixture
def step4(qtbot, controller):
    page = PerformancePage(controller)
    qtbot.addWidget(page)
    return page


def test_step3_shows_one_cost_for_the_chosen_configuration(step3, controller):
    r = controller.result
    row = chosen_candidate(r)
    panel = step3.stats["Servers and GPUs (indicative)"].text()
    # the servers with their GPUs (2 x USD 20,000 + 8 x USD 8,565), like every other row
    assert row.capital_cost_usd == r.cost.gpus_usd == pytest.approx(108_520)
    assert "USD 108,520" in panel  # not the capital of the site
    column = [c.header for c in COLUMNS].index("Indicative\ncost (USD)")
    assert step3.model.texts[0][column] == "108,520 *"  # the chosen row (★), * its footnote


def test_the_decode_bars_add_up_to_the_stated_step_and_name_what_bounds_it(step4, controller):
    parts = controller.result.performance.decode_breakdown
    chart = step4.breakdown
    solid = [ms for field, ms in zip(chart.PARTS, chart.ms, strict=True)
             if field not in parts.overlapped]
    assert sum(solid) == pytest.approx(parts.step_s * 1e3, rel=1e-9)
    assert parts.step_s == pytest.approx(controller.result.performance.at_concurrency.itl_s,
                                         rel=0.01)
    assert chart.title_text == "At 20 users: 66.8 ms per step (solid bars), memory-bound"
    assert "Memory-bound: reading the weights takes longer" in step4.breakdown_note.text()
    hidden = [text.toPlainText() for field, text in zip(chart.PARTS, chart.values, strict=True)
              if field in parts.overlapped]
    # compute, and the prompts' share of the step: 8.1 ms since the prompt's attention runs at
    # the KV cache's precision (16-bit here, beside INT8 weights; METHOD.md; 7.7 ms before)
    assert hidden == ["2.9 ms, overlapped", "8.1 ms, overlapped"]
    # the weights read (26.6 ms) and the compute with the prompts' share (10.9 ms) overlap only
    # in part: (26.6^3 + 10.9^3)^(1/3) - 26.6 = 0.6 ms, a solid bar of its own
    assert chart.values[list(chart.PARTS).index("overlap_s")].toPlainText() == "0.6 ms"


def test_the_naive_line_is_the_guides_rule_on_the_active_parameters(qtbot, step4, controller):
    controller.load(api.example("large-moe"), None)
    r = controller.result
    p, active = r.performance, r.memory.params_active
    assert p.naive_tokens_per_s == pytest.approx(r.gpu.memory_bandwidth_bytes_per_s / active)
    assert p.naive_tokens_per_s == pytest.approx(127.8, abs=0.1)  # 4,800 GB/s / 37.6 GB (FP8)
    assert "the guide's rule on the active parameters" in step4.naive.text()
    assert "37.6 billion parameters one token uses of 671.0 billion" in step4.naive.text()
    assert "active weights" in step4.throughput.naive_line.label.toPlainText()


def test_step4_levers_include_more_replicas_and_let_the_tool_choose(step4, controller):
    controller.wait_until_idle()
    changes = [lever.change for lever in controller.result.performance.levers]
    assert "20 times the replicas (one user per replica)" in changes
    chosen = [c for c in changes if c.startswith("Let the tool choose: ")]
    # one configuration of the search, by the capital of the servers with their GPUs
    assert len(chosen) == 1
    shown = [step4.levers.item(row, 0).text() for row in range(step4.levers.rowCount())]
    assert chosen[0] in shown and changes[-1] in shown


def test_step4_shows_no_figures_at_a_load_that_does_not_fit(step4, controller,
                                                            no_request_fits):
    controller.load(no_request_fits, None)
    load = [step4.points.item(1, column).text() for column in range(2, 5)]
    assert load == ["does not fit"] * 3
    assert step4.unfit.text().startswith("Does not fit: the weights, the runtime and one")
    assert not any(badge.isVisibleTo(step4) for badge in step4.badges.values())
