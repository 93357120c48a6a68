"""Step 4 page: throughput, TTFT and decode charts, operating points, targets and levers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from app import api
from app.ui import text
from app.ui.charts import DecodeBreakdownChart
from app.ui.pages.performance import POINTS, PerformancePage
from app.ui.text import render

USERS = "workload.concurrent_users"


@pytest.fixture
def page(controller, qtbot):
    widget = PerformancePage(controller)
    qtbot.addWidget(widget)
    yield widget
    text.set_language("en")


def curve_arrays(result):
    curve = result.performance.curve
    return (
        np.array([p.concurrency for p in curve]),
        np.array([p.tokens_per_s_per_user for p in curve]),
        np.array([p.output_tokens_per_s for p in curve]),
    )


def test_the_throughput_curves_and_band_come_from_the_result(page, controller):
    p = controller.result.performance
    users, per_user, total = curve_arrays(controller.result)
    chart = page.throughput
    np.testing.assert_allclose(chart.per_user.expected.xData, users)
    np.testing.assert_allclose(chart.per_user.expected.yData, per_user)
    np.testing.assert_allclose(chart.per_user.low.yData, per_user * p.band.low)
    np.testing.assert_allclose(chart.per_user.high.yData, per_user * p.band.high)
    np.testing.assert_allclose(chart.total.expected.yData, total)
    assert not chart.per_user.fill.path().isEmpty()


def test_reference_lines_mark_target_naive_figure_and_users(page, controller):
    p = controller.result.performance
    chart = page.throughput
    assert chart.target_line.value() == p.targets["tokens_per_s_per_user"]
    assert chart.naive_line.value() == pytest.approx(p.naive_tokens_per_s)
    assert chart.naive_line.pen.style() == chart.naive_line.pen.style().DashLine
    scenario, plain = chart.markers["scenario"]
    assert scenario.value() == pytest.approx(math.log10(p.at_concurrency.concurrency))
    assert plain.value() == scenario.value()
    assert p.slo_capacity_per_replica == 0
    assert not chart.markers["slo"][0].isVisible()  # no users meet both targets
    assert chart.per_user_plot.getAxis("left").labelUnits == "tokens/s"


def test_ttft_and_decode_charts(page, controller):
    p = controller.result.performance
    np.testing.assert_allclose(page.ttft.curve.yData, [point.ttft_s for point in p.ttft_curve])
    assert page.ttft.target_line.value() == p.targets["ttft_s"]
    widths = page.breakdown.bars.opts["width"]
    assert len(widths) == len(DecodeBreakdownChart.PARTS)
    assert widths[0] == pytest.approx(p.decode_breakdown.weights_read_s * 1e3)
    assert widths[1] == pytest.approx(p.decode_breakdown.kv_read_s * 1e3)
    assert page.breakdown.plot.getAxis("bottom").labelUnits == "ms"


def fitting(controller) -> None:
    """The worked example with an FP8 KV cache: its 40 users fit (with FP16 they do not)."""
    controller.edit("precision.kv_cache", "fp8")
    controller.wait_until_idle()
    assert controller.result.verdict.fits


def test_operating_points_with_their_band(page, controller):
    fitting(controller)
    p = controller.result.performance
    speed = p.at_concurrency.tokens_per_s_per_user
    assert [page.points.text(row, 0) for row in range(3)] == list(POINTS)
    assert page.points.text(1, 1) == "40"
    assert page.points.text(1, 3).startswith(f"{speed:.1f} tokens/s")
    low, high = p.band.speed_range(speed)
    assert f"range {low:.1f} – {high:.1f}" in page.points.text(1, 3)
    assert page.points.text(2, 1) == f"{p.saturation.concurrency:.0f}"


def test_targets_pass_and_fail(page, controller):
    fitting(controller)  # 40 users' prompts queue past the 2 s TTFT (2.05 s): both missed
    assert page.badges["ttft"].text().endswith("missed")
    controller.edit("targets.ttft_s", 3.0)
    controller.wait_until_idle()
    assert page.badges["ttft"].text().endswith("met")
    assert page.badges["tokens_per_s_per_user"].text().endswith("missed")
    assert not page.no_targets.isVisibleTo(page)


def test_levers_are_listed_in_the_window_language(page, controller):
    levers = controller.result.performance.levers
    assert levers and page.levers.rowCount() == len(levers)
    for row, lever in enumerate(levers):
        assert page.levers.text(row, 0) == render(lever.change_message)
        assert page.levers.text(row, 3) == ("Yes" if lever.meets else "No")
    assert "tokens/s" in page.levers.text(0, 2)
    assert page.levers_box.isVisibleTo(page)


def chart_items(page: PerformancePage) -> tuple:
    chart = page.throughput
    return (
        chart.per_user_plot,
        chart.total_plot,
        chart.per_user.expected,
        chart.per_user.low,
        chart.total.fill,
        chart.markers["scenario"][0],
        chart.target_line,
        page.ttft.curve,
        page.ttft.plot,
        page.breakdown.bars,
        page.breakdown.plot,
    )


def test_an_edit_of_users_updates_the_same_chart_items(page, controller):
    items = chart_items(page)
    widths = page.breakdown.bars.opts["width"].copy()
    scenario_row = page.points.text(1, 3)
    controller.edit(USERS, 10)
    controller.recompute()
    assert all(a is b for a, b in zip(items, chart_items(page), strict=True))
    chart = page.throughput
    assert chart.per_user.expected.scene() is chart.per_user_plot.scene()
    assert chart.markers["scenario"][0].value() == pytest.approx(1.0)  # log10(10 users)
    assert not np.array_equal(page.breakdown.bars.opts["width"], widths)
    assert page.points.text(1, 3) != scenario_row
    assert page.points.text(1, 1) == "10"


def test_an_edit_of_the_kv_cache_redraws_the_curves(page, controller):
    items = chart_items(page)
    per_user = page.throughput.per_user.expected.yData.copy()
    band_edge = page.throughput.per_user.low.yData.copy()
    controller.edit("precision.kv_cache", "fp8")
    controller.recompute()
    assert all(a is b for a, b in zip(items, chart_items(page), strict=True))
    _users, expected, _total = curve_arrays(controller.result)
    np.testing.assert_allclose(page.throughput.per_user.expected.yData, expected)
    assert page.throughput.per_user.expected.yData[0] > per_user[0]  # less KV to read
    assert page.throughput.per_user.low.yData[0] > band_edge[0]


def test_a_batch_job_has_no_per_user_targets(page, controller):
    controller.load(api.example("batch-summaries"), None)
    assert page.no_targets.isVisibleTo(page)
    assert not any(badge.isVisibleTo(page) for badge in page.badges.values())
    assert not page.throughput.target_line.isVisible()
    assert not page.ttft.target_line.isVisible()
    assert not page.levers_box.isVisibleTo(page)
    assert "Batch job" in page.explanation.text()


def test_retranslate_resets_axis_labels(page, controller):
    fitting(controller)
    controller.set_language("de")
    assert page.throughput.per_user_plot.getAxis("left").labelText == "Je Nutzer"
    assert page.ttft.plot.getAxis("left").labelText == "Zeit bis zum ersten Token"
    assert page.points.text(0, 0) == "Ein Nutzer"
    assert "," in page.points.text(1, 3)  # German decimal comma
    controller.set_language("en")
    assert page.throughput.per_user_plot.getAxis("left").labelText == "Per user"
