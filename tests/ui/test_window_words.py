"""The window speaks the user's words: a problem away from its field is named by the
field's label (not "targets.ttft_s"), and no page shows assumption ids or catalog field
names ("vllm.eta_mem", "visible_memory_gib")."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QApplication

from app.ui.pages import row_of

INTERNAL = re.compile(r"\b(?:vllm|sglang|targets|workload|hardware|training)\.[a-z_]+|"
                      r"\b(?:visible_memory_gib|bf16_tflops|scale_up_gb_s|factor_overrides|"
                      r"gpus_per_replica)\b")


def test_a_problem_in_the_summary_is_named_by_its_field(shown_window):
    shown_window.go(row_of("RequirementsPage"))
    controller = shown_window.controller
    problems = controller.edit("targets.ttft_s", 0)
    # the CLI's wording keeps the field's path; the window names the field
    assert problems == ["targets.ttft_s: Input should be greater than or equal to 0.001 (got 0)"]
    QApplication.processEvents()
    shown = shown_window.summary.problems.text()
    assert shown.startswith("Time to first token: ")
    assert INTERNAL.findall(shown) == []


def test_report_and_assumptions_pages_show_no_ids(shown_window):
    report = shown_window.page(row_of("ReportPage"))
    shown_window.go(row_of("ReportPage"))
    assert INTERNAL.findall(report.text()) == []
    assumptions = shown_window.page(row_of("AssumptionsPage"))
    shown_window.go(row_of("AssumptionsPage"))
    for row in range(assumptions.table.rowCount()):
        assumptions.show_source(row)
        assert INTERNAL.findall(assumptions.source.text()) == [], assumptions.source.text()
        assert INTERNAL.findall(assumptions.table.item(row, 0).toolTip()) == []
