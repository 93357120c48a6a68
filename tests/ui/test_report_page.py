"""Report page: figures from the result, redrawn after every edit."""

import pytest

from app.ui.pages.report import ReportPage
from app.ui.text import render, t


@pytest.fixture
def report(qtbot, controller):
    widget = ReportPage(controller)
    qtbot.addWidget(widget)
    return widget


def test_report_summarises_the_result(report, controller):
    text = report.text()
    r = controller.result
    assert controller.scenario.name in text
    assert t("Recommended configuration") in text
    assert t("missed") in text  # the worked example misses its speed target
    for message in r.warning_messages:
        assert render(message) in text
    for lever in r.performance.levers:
        assert render(lever.change_message) in text
    for assumption in r.assumptions:  # by its name; its id is no word for the reader
        assert assumption.label("en") in text


def test_report_follows_edits(report, controller):
    before = report.text()
    controller.edit("availability.redundancy", "none")
    controller.recompute()
    after = report.text()
    assert after != before
    # the worked example's 40 users take two replicas of 20 (#14), none spare
    assert controller.result.scale.replicas == 2 and "2 replicas of" in after


def test_export_button_is_available(report):
    assert report.export_button.isEnabled()
    assert "PDF" in report.export_button.toolTip()
