"""Report: the result as a customer reads it, in the window (the signed PDF comes later)."""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtWidgets import QHBoxLayout, QPushButton, QTextBrowser

from app.domain.result import Assumption, Lever, SizingResult, priced_total
from app.i18n import msg, plural
from app.ui.pages.base import StepPage
from app.ui.summary_panel import verdict_text
from app.ui.text import language, render, t
from app.ui.units import gb, number, rate, seconds, unit_text, usd, watts

MET, MISSED = "#2e7d32", "#c62828"
STYLE = """<style>
h3 { margin-top: 14px; } td, th { padding: 3px 8px; } th { text-align: left; }
table { border-collapse: collapse; } .muted { color: #666; }
</style>"""
# SI units of assumptions as shown: (unit, factor).
SHOWN_UNITS = {"B": ("GB", 1e-9), "B/s": ("GB/s", 1e-9), "FLOP/s": ("TFLOP/s", 1e-12)}
TARGET_UNITS = {"tokens_per_s_per_user": rate, "ttft": seconds}


def section(title: str, body: str) -> str:
    return f"<h3>{escape(t(title))}</h3>{body}"


def table(header: tuple[str, ...], rows: list[tuple[Any, ...]]) -> str:
    head = "".join(f"<th>{escape(t(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>"
                   for row in rows)
    return f"<table border='1' cellspacing='0'><tr>{head}</tr>{body}</table>"


def state(passed: bool) -> str:
    colour, text = (MET, t("met")) if passed else (MISSED, t("missed"))
    return f"<b style='color:{colour}'>{escape(text)}</b>"


def bullets(lines: list[str], empty: str = "None.") -> str:
    if not lines:
        return f"<p class='muted'>{escape(t(empty))}</p>"
    return "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in lines) + "</ul>"


def header_html(r: SizingResult) -> str:
    i = r.inputs
    who = " · ".join(escape(part) for part in (i.customer, i.project, i.author) if part)
    made = t("AI Sizer {version}, catalogs {catalogs}", version=r.tool_version,
             catalogs=", ".join(sorted(set(r.catalog_versions.values()))))
    return (f"<h2>{escape(i.name)}</h2><p>{who}</p>"
            f"<p class='muted'>{escape(made)}</p>")


def configuration_html(r: SizingResult, names: dict[str, str]) -> str:
    c, s = r.selection.chosen, r.scale
    text = render(plural(
        s.replicas,
        msg("One replica of {n} x {gpu} (tensor parallel {t}, pipeline {p}) with {w} weights "
            "and {kv} KV cache, serving {model}; {nodes} x {server}."),
        msg("{replicas} replicas of {n} x {gpu} (tensor parallel {t}, pipeline {p}) with "
            "{w} weights and {kv} KV cache, serving {model}; {nodes} x {server}."),
        replicas=s.replicas, n=c.gpus_per_replica, gpu=names.get(c.gpu, c.gpu),
        t=c.tensor_parallel, p=c.pipeline_parallel, w=c.precision.upper(),
        kv=c.kv_precision.upper(), model=r.model.name, nodes=s.nodes,
        server=s.server_shown))
    return section("Recommended configuration", f"<p><b>{escape(text)}</b></p>")


def targets_html(r: SizingResult) -> str:
    p, m = r.performance, r.memory
    at, targets, met = p.at_concurrency, p.targets, p.targets_met
    rows = []
    if "ttft_s" in targets:
        rows.append(("Time to first token", t("at most {v}", v=seconds(targets["ttft_s"])),
                     seconds(at.ttft_s), met.get("ttft", False)))
    if "tokens_per_s_per_user" in targets:
        rows.append(("Tokens/s per user",
                     t("at least {v}", v=rate(targets["tokens_per_s_per_user"])),
                     rate(at.tokens_per_s_per_user), met.get("tokens_per_s_per_user", False)))
    rows.append(("Memory per GPU", t("at most {v} usable", v=gb(m.gpu_usable_bytes)),
                 gb(m.per_gpu_bytes), m.fits))
    shown = [(escape(t(name)), escape(need), escape(got), state(ok))
             for name, need, got, ok in rows]
    verdict = f"<p><b>{escape(verdict_text(r.verdict))}</b></p>"  # the result's one verdict
    return section("Targets", verdict + table(("Target", "Required", "Expected", "State"),
                                              shown))


def figures_html(r: SizingResult) -> str:
    m, p, s, f = r.memory, r.performance, r.scale, r.facility
    capital = r.cost.capital_usd
    rows = [
        ("VRAM per GPU", f"{gb(m.per_gpu_bytes)} / {gb(m.gpu_usable_bytes)}"),
        ("Users per replica within the targets", str(p.slo_capacity_per_replica)),
        ("Replicas", t("{n} for load, {m} with {redundancy}", n=s.replicas_for_load,
                       m=s.replicas, redundancy=s.redundancy.upper())),
        ("GPUs", str(s.gpus_total)), ("Nodes", str(s.nodes)), ("Racks", str(f.racks)),
        ("IT power", watts(f.it_power_w)), ("Facility power", watts(f.facility_power_w)),
        ("Annual energy", t("{kwh} kWh", kwh=number(f.annual_energy_kwh, ",.0f"))),
        ("Capital cost (indicative)", render(priced_total(usd(capital), r.cost.unpriced))),
    ]
    shown = [(escape(t(name)), escape(value)) for name, value in rows]
    return section("Key figures", table(("Figure", "Value"), shown)
                   + f"<p class='muted'>{escape(cost_note(r))}</p>")


def cost_note(r: SizingResult) -> str:
    """The cost note in the window's language (results without its sentences: by key)."""
    return " ".join(render(m) for m in r.cost.note_messages) or t(r.cost.note)


def lever_line(lever: Lever) -> str:
    shown = TARGET_UNITS.get(lever.target, lambda v: number(v, ",.2f"))(lever.value_after)
    outcome = t("meets the target") if lever.meets else t("still misses the target")
    note = f" ({render(lever.note_message) or lever.note})" if lever.note else ""
    change = render(lever.change_message) or lever.change
    return t("{change}: {value}, {outcome}", change=change, value=shown, outcome=outcome) + note


def plain_number(value: float) -> str:
    """Whole numbers in full ('30,000'), others to four significant digits."""
    if float(value).is_integer() and abs(value) < 1e15:
        return number(value, ",.0f")
    return number(value, ",.4g")


def assumption_row(a: Assumption) -> tuple[str, ...]:
    unit, value = a.unit, a.value
    if a.unit in SHOWN_UNITS and isinstance(value, int | float):
        unit, factor = SHOWN_UNITS[a.unit]
        value = value * factor
    shown = plain_number(value) if isinstance(value, int | float) else str(value)
    flag = escape(t("yes")) if a.overridden else ""
    name = escape(a.label(language()))  # the id (a JSON path) is no word for the reader
    return (name, escape(shown), escape(unit_text(unit)),
            escape(a.source_text(language())), flag)


def report_html(r: SizingResult, names: dict[str, str]) -> str:
    """The whole in-window report."""
    return STYLE + "".join((
        header_html(r), configuration_html(r, names), targets_html(r), figures_html(r),
        section("Warnings", bullets([render(m) for m in r.warning_messages])),
        section("Levers", bullets([lever_line(lever) for lever in r.performance.levers],
                                  "No change needed: every target is met."
                                  if all(r.performance.targets_met.values()) else "None.")),
        section("Assumptions", table(("Name", "Value", "Unit", "Source", "Overridden"),
                                     [assumption_row(a) for a in r.assumptions])),
    ))


class ReportPage(StepPage):

    def build(self) -> None:
        self.export_button = QPushButton()
        self.export_button.clicked.connect(self.export)
        self.print_button = QPushButton()
        self.print_button.clicked.connect(self.print_report)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.print_button)
        row.addWidget(self.export_button)
        self.layout_.addLayout(row)
        self.browser = QTextBrowser(openExternalLinks=False, openLinks=False)
        self.browser.setMinimumHeight(500)
        self.layout_.addWidget(self.browser, 1)
        catalog = self.controller.catalog
        self.names = {k: v.name for k, v in {**catalog.gpus, **catalog.servers}.items()}
        self.controller.stale_changed.connect(self.show_stale)
        self.show_stale(self.controller.stale)

    def show_stale(self, stale: bool) -> None:
        """No report while an input is invalid: the figures are an earlier input's."""
        for button in (self.export_button, self.print_button):
            button.setEnabled(not stale)

    def retranslate(self) -> None:
        self.export_button.setText(t("Export PDF…"))
        self.print_button.setText(t("Print…"))
        self.print_button.setToolTip(t("Print the report as shown here, or save it as a PDF "
                                       "through the print dialog (Ctrl+P)."))
        self.export_button.setToolTip(t("Write the PDF report, signed with your identity, "
                                        "with the scenario and result attached."))

    def print_report(self) -> bool:
        """Print the report as shown here (File > Print report); nothing while the figures
        are stale."""
        from app.ui.printing import print_report

        if self.controller.stale:
            return False
        result = self.controller.result
        html = report_html(result, self.names) if result is not None else ""
        return print_report(result, html, self)

    def export(self) -> None:
        from app.ui.dialogs.report_dialogs import ExportDialog

        ExportDialog(self.controller, self).exec()

    def show_result(self, r: SizingResult) -> None:
        if self.controller.levers_pending:
            return  # the whole result, levers included, follows in a few milliseconds
        position = self.browser.verticalScrollBar().value()
        self.browser.setHtml(report_html(r, self.names))
        self.browser.verticalScrollBar().setValue(position)

    def show_levers(self, r: SizingResult) -> None:
        self.show_result(r)

    def text(self) -> str:
        """The report as plain text (what the user reads)."""
        return self.browser.toPlainText()
