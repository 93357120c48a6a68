"""6 Validation: the site's load test beside the sizing, and the site's factors learnt from it.

Export the test plan, run it on one replica, then drop the result files here (or Import):
every point is shown beside the prediction for the same configuration and load, each target
gets a verdict at the scenario's load, the plan says how many replicas the measured speed
needs, and the decode and prefill factors fitted to the sweep can be saved as a site profile
that sizings on the same GPU and engine then use. The page reads ``result.validation``; the
imported points live in the scenario (an undoable edit).
"""

from __future__ import annotations

from html import escape as _escape
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from app import api
from app.catalog.loader import clear_cache, load_catalog
from app.domain.result import SizingResult
from app.domain.validation import SiteFit, ValidationPoint, ValidationResult
from app.measurements import MeasurementError
from app.ui import files
from app.ui.charts import FigureTable, MeasuredThroughputChart, MeasuredTtftChart
from app.ui.flow_layout import FlowLayout
from app.ui.pages.base import StepPage
from app.ui.summary_panel import Badge
from app.ui.text import render, t
from app.ui.units import number

RESULT_FILTER = "Load-test results (*.json *.jsonl *.csv);;All files (*)"
POINT_COLUMNS = ("Point", "Load", "Figure", "Measured", "Predicted", "Range", "Error")
RESIDUAL_COLUMNS = ("Point", "Figure", "Measured", "Catalog factors", "Site factors",
                    "Residual")
FIGURES = {"ttft_s": ("Time to first token", 1e3, "ms"),
           "itl_s": ("Inter-token latency", 1e3, "ms"),
           "tokens_per_s_per_user": ("Tokens/s per user", 1.0, ""),
           "output_tokens_per_s": ("Output tokens/s", 1.0, ""),
           "prefill_s": ("Prompt processing alone", 1e3, "ms")}
ERROR_STYLE = "color: #b71c1c;"


def escape(text: str) -> str:
    """``text`` for a rich-text label (quotes stay as they are)."""
    return _escape(text, quote=False)


def value_text(metric: str, value: float) -> str:
    _, scale, unit = FIGURES[metric]
    shown = value * scale
    return f"{number(shown, ',.1f' if shown < 1000 else ',.0f')} {unit}".strip()


def load_text(row: ValidationPoint) -> str:
    m = row.measured
    if m.load == "request_rate":
        return f"{number(m.request_rate, ',.3g')}/s"
    if m.load == "single_stream":
        return t("one stream")
    return number(m.users, ",.0f")


def point_rows(points: list[ValidationPoint]) -> list[list[str]]:
    """One row per measured figure: point, load, figure, measured, predicted, range, error."""
    rows = []
    for row in points:
        m = row.measured
        first = True
        for metric, predicted in row.predicted.items():
            error = f"{number(row.error(metric) * 100, '+,.1f')} %"
            if not row.in_range(metric):
                error += " " + t("(outside the range)")
            rows.append([f"{m.source_file}: {m.label}" if first else "",
                         load_text(row) if first else "", t(FIGURES[metric][0]),
                         value_text(metric, m.value(metric)), value_text(metric, predicted),
                         f"{value_text(metric, row.low[metric])} – "
                         f"{value_text(metric, row.high[metric])}", error])
            first = False
    return rows


def residual_rows(fit: SiteFit) -> list[list[str]]:
    return [[str(r.point + 1), t(FIGURES[r.metric][0]), value_text(r.metric, r.measured),
             value_text(r.metric, r.before), value_text(r.metric, r.after),
             f"{number(r.error_after * 100, '+,.2f')} %"] for r in fit.residuals]


def fit_text(fit: SiteFit) -> str:
    return t("Decode x{decode}, prefill x{prefill} on the catalog's factors; median error "
             "{before} with the catalog's factors, {after} with the site's; the site profile's "
             "range would be x{low} to x{high}.", decode=number(fit.decode_scale, ".3f"),
             prefill=number(fit.prefill_scale, ".3f"),
             before=f"{number(fit.median_error_before * 100, ',.1f')} %",
             after=f"{number(fit.median_error_after * 100, ',.1f')} %",
             low=number(fit.band_low, ".2f"), high=number(fit.band_high, ".2f"))


def result_paths(urls) -> list[Path]:
    """The local files among dropped ``urls``."""
    return [Path(url.toLocalFile()) for url in urls if url.isLocalFile()]


class ValidationPage(StepPage):
    HELP = (
        "Whether the sizing holds on site. Export the test plan (File > Export test plan), run "
        "it on one replica, then drop the result files here or import them: each point is "
        "shown beside the prediction, each target gets a verdict, and the site's decode and "
        "prefill factors are fitted and can be saved as a site profile."
    )

    def build(self) -> None:
        self.setAcceptDrops(True)
        self.export_button = QPushButton()
        self.export_button.clicked.connect(self.export_plan)
        self.import_button = QPushButton()
        self.import_button.clicked.connect(self.import_dialog)
        self.clear_button = QPushButton()
        self.clear_button.clicked.connect(self.clear)
        self.drop_hint = QLabel(wordWrap=True)
        self.drop_hint.setObjectName("dropHint")
        self.drop_hint.setStyleSheet("border: 2px dashed #90a4ae; padding: 12px;")
        self.problems = QLabel(wordWrap=True)
        self.problems.setStyleSheet(ERROR_STYLE)
        self.status = QLabel(wordWrap=True)
        self.badges = {"ttft_s": Badge(), "tokens_per_s_per_user": Badge()}
        self.plan = QLabel(wordWrap=True)
        self.points = FigureTable(0, len(POINT_COLUMNS))
        self.points.stretch_only(0, 5)
        self.throughput = MeasuredThroughputChart()
        self.ttft = MeasuredTtftChart()
        self.layout_.addLayout(self.build_buttons())
        for widget in (self.drop_hint, self.problems, self.status):
            self.layout_.addWidget(widget)
        self.layout_.addLayout(self.build_badges())
        for widget in (self.plan, self.points, self.throughput, self.ttft):
            self.layout_.addWidget(widget)
        self.layout_.addWidget(self.build_fit())
        self.layout_.addStretch(1)

    def build_buttons(self) -> QHBoxLayout:
        row = QHBoxLayout()
        for button in (self.export_button, self.import_button, self.clear_button):
            row.addWidget(button)
        row.addStretch(1)
        return row

    def build_badges(self) -> FlowLayout:
        row = FlowLayout()
        for badge in self.badges.values():
            row.addWidget(badge)
        return row

    def build_fit(self) -> QGroupBox:
        self.fit_box = QGroupBox()
        self.fit_summary = QLabel(wordWrap=True)
        self.fit_notes = QLabel(wordWrap=True)
        self.residuals = FigureTable(0, len(RESIDUAL_COLUMNS))
        self.version = QLineEdit()
        self.note = QLineEdit()
        self.save_button = QPushButton()
        self.save_button.clicked.connect(self.save_profile)
        self.saved = QLabel(wordWrap=True)
        self.version_label, self.note_label = QLabel(), QLabel()
        self.form = QFormLayout()
        self.form.addRow(self.version_label, self.version)
        self.form.addRow(self.note_label, self.note)
        column = QVBoxLayout(self.fit_box)
        for widget in (self.fit_summary, self.fit_notes, self.residuals):
            column.addWidget(widget)
        column.addLayout(self.form)
        column.addWidget(self.save_button, alignment=Qt.AlignmentFlag.AlignLeft)
        column.addWidget(self.saved)
        return self.fit_box

    def retranslate(self) -> None:
        self.export_button.setText(t("Export test plan…"))
        self.import_button.setText(t("Import results…"))
        self.clear_button.setText(t("Remove the measurements"))
        self.drop_hint.setText(t(
            "Drop result files here: vllm bench serve --save-result JSON, SGLang bench_serving "
            "JSONL, AIPerf or GenAI-Perf profile exports, guidellm JSON reports, llama-bench "
            "-o json, or a CSV with concurrency, ttft_ms, itl_ms and output_tokens_per_s."))
        self.points.setHorizontalHeaderLabels([t(name) for name in POINT_COLUMNS])
        self.residuals.setHorizontalHeaderLabels([t(name) for name in RESIDUAL_COLUMNS])
        self.fit_box.setTitle(t("The site's factors"))
        self.version_label.setText(t("Engine version measured"))
        self.note_label.setText(t("Operator's note"))
        self.version.setPlaceholderText(t("for example 0.11.0"))
        self.note.setPlaceholderText(t("where, when, what was special"))
        self.save_button.setText(t("Save as site profile"))
        for chart in (self.throughput, self.ttft):
            chart.retranslate()

    def show_result(self, result: SizingResult) -> None:
        v = result.validation
        self.clear_button.setEnabled(v is not None)
        for widget in (self.points, self.throughput, self.ttft, self.plan, self.fit_box):
            widget.setVisible(v is not None)
        if v is None:
            for badge in self.badges.values():
                badge.set_state(None, "")
            self.status.setText(t("No measurements yet: the Step 4 figures are the "
                                  "prediction alone."))
            return
        self.show_validation(result, v)

    def show_validation(self, result: SizingResult, v: ValidationResult) -> None:
        files_count = len({row.measured.source_sha256 for row in v.points})
        self.status.setText(t("{points} measured points from {files} files.",
                              points=number(len(v.points), ",d"),
                              files=number(files_count, ",d")))
        verdicts = {x.target: x for x in v.verdicts}
        for target, badge in self.badges.items():
            found = verdicts.get(target)
            passed = None if found is None or found.verdict == "not_measured" else \
                found.verdict != "missed"
            badge.set_state(passed, render(found.message) if found else "")
            if found is not None and found.verdict == "not_measured":
                badge.setVisible(True)
                badge.setStyleSheet("")
        self.plan.setText("<br>".join(escape(render(m)) for m in v.messages))
        self.points.set_rows(point_rows(v.points))
        self.throughput.show_result(result)
        self.ttft.show_result(result)
        self.show_fit(result, v.fit)

    def show_fit(self, result: SizingResult, fit: SiteFit | None) -> None:
        self.fit_box.setVisible(fit is not None)
        if fit is None:
            return
        self.fit_summary.setText(fit_text(fit))
        notes = [render(m) for m in fit.messages]
        if result.performance.site_profile:
            notes.append(t("This sizing uses the site profile '{profile}' (site-calibrated).",
                           profile=result.performance.site_profile))
        self.fit_notes.setText("<br>".join(escape(n) for n in notes))
        self.fit_notes.setVisible(bool(notes))
        self.residuals.set_rows(residual_rows(fit))

    # --- actions ---------------------------------------------------------------------------
    def export_plan(self) -> None:
        from app.ui.dialogs.test_plan import export_test_plan

        written = export_test_plan(self, self.controller)
        if written:
            self.status.setText(t("Test plan written to {folder}.",
                                  folder=str(written[0].parent)))

    def import_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, t("Import load-test results"),
                                                files.last_folder(), t(RESULT_FILTER))
        if paths:
            self.import_files([Path(p) for p in paths])

    def import_files(self, paths: list[Path]) -> bool:
        """Import ``paths`` into the scenario (one undoable edit); all of them or none."""
        scenario = self.controller.scenario
        try:
            outcome = api.import_measurements(paths, scenario)
            merged = api.with_measurements(scenario, outcome.points)
        except MeasurementError as exc:
            self.problems.setText("<br>".join(
                [escape(t("Nothing was imported:"))]
                + [escape(render(m)) for m in exc.messages]))
            return False
        except api.ScenarioError as exc:
            self.problems.setText("<br>".join(escape(render(m)) for m in exc.messages))
            return False
        self.problems.setText("")
        data = self.controller.data
        data["measurements"] = [p.model_dump(mode="json") for p in merged.measurements]
        refused = self.controller.replace(data, t("Import measurements"))
        self.problems.setText("<br>".join(escape(p) for p in refused))
        return not refused

    def clear(self) -> None:
        data = self.controller.data
        data.pop("measurements", None)
        self.controller.replace(data, t("Remove the measurements"))

    def save_profile(self) -> None:
        try:
            profile, path = api.save_site_profile(self.controller.scenario,
                                                  self.version.text(), self.note.text(),
                                                  self.controller.catalog)
        except api.ScenarioError as exc:
            self.saved.setStyleSheet(ERROR_STYLE)
            self.saved.setText("<br>".join(escape(render(m)) for m in exc.messages))
            return
        clear_cache()
        self.controller.catalog = load_catalog()
        self.controller.recompute()
        self.saved.setStyleSheet("")
        self.saved.setText(t("Saved site profile '{profile}' into {path}. Sizings on this GPU "
                             "and engine now use it (site-calibrated).", profile=profile.id,
                             path=str(path)))

    # --- drop target -----------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt API)
        if result_paths(event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt API)
        paths = result_paths(event.mimeData().urls())
        if paths:
            event.acceptProposedAction()
            self.import_files(paths)
