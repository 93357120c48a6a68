"""The live summary beside every step: VRAM per GPU, speed and TTFT against targets, scale."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QFormLayout, QFrame, QLabel, QProgressBar, QVBoxLayout, QWidget

from app.domain.result import SizingResult
from app.ui.controller import Controller
from app.ui.text import t
from app.ui.units import gb, number, rate, seconds, watts

PASS, FAIL = "#2e7d32", "#c62828"
PASS_STYLE = f"QLabel {{ color: white; background: {PASS}; border-radius: 4px; padding: 2px 6px; }}"
FAIL_STYLE = f"QLabel {{ color: white; background: {FAIL}; border-radius: 4px; padding: 2px 6px; }}"


class Badge(QLabel):
    """A pass/fail badge."""

    def set_state(self, passed: bool | None, text: str) -> None:
        self.setText(text)
        self.setVisible(passed is not None)
        self.setStyleSheet(PASS_STYLE if passed else FAIL_STYLE)


def replicas_text(for_load: int, total: int, redundancy: str) -> str:
    """'1 for load, 2 with N+1' (or '1 for load, no redundancy')."""
    if redundancy == "none":
        return t("{n} for load, no redundancy", n=number(for_load, ",d"))
    return t("{n} for load, {m} with {redundancy}", n=number(for_load, ",d"),
             m=number(total, ",d"), redundancy=redundancy.upper())


class SummaryPanel(QFrame):
    """Key figures of the current result, visible on every step."""

    ROWS = ("VRAM per GPU", "Tokens/s per user", "TTFT", "GPUs", "Replicas", "Nodes",
            "IT power")

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("summaryPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.controller = controller
        self.title = QLabel()
        self.vram_bar = QProgressBar(maximum=1000, textVisible=True)
        self.fit_badge, self.speed_badge, self.ttft_badge = Badge(), Badge(), Badge()
        self.labels = {name: QLabel() for name in self.ROWS}
        self.values = {name: QLabel(wordWrap=True) for name in self.ROWS}
        self.problems = QLabel(wordWrap=True)
        self.problems.setStyleSheet("color: #c62828;")
        form = QFormLayout()
        for name in self.ROWS:
            form.addRow(self.labels[name], self.values[name])
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.vram_bar)
        for badge in (self.fit_badge, self.speed_badge, self.ttft_badge):
            layout.addWidget(badge)
        layout.addLayout(form)
        layout.addWidget(self.problems)
        layout.addStretch(1)
        controller.result_changed.connect(self.show_result)
        controller.problems_changed.connect(self.show_problems)
        controller.language_changed.connect(lambda _: self.retranslate())
        self.retranslate()

    def retranslate(self) -> None:
        self.title.setText(f"<b>{t('Summary')}</b>")
        for name in self.ROWS:
            self.labels[name].setText(t(name))
        if self.controller.result is not None:
            self.show_result(self.controller.result)

    def show_problems(self, problems: list[str]) -> None:
        self.problems.setText("\n".join(problems))

    def show_vram(self, used: float, usable: float, fits: bool) -> None:
        """The bar: share of the usable memory one GPU needs, green when it fits, else red."""
        share = used / usable if usable else 0.0
        self.vram_bar.setValue(int(min(share, 1.0) * 1000))
        self.vram_bar.setFormat(t("{share:.0%} of the usable memory", share=share))
        self.vram_bar.setToolTip(t("{used} of {usable} usable per GPU", used=gb(used),
                                   usable=gb(usable)))
        palette = self.vram_bar.palette()
        palette.setColor(QPalette.ColorRole.Highlight, QColor(PASS if fits else FAIL))
        palette.setColor(QPalette.ColorRole.HighlightedText, QColor("white"))
        self.vram_bar.setPalette(palette)

    def show_result(self, r: SizingResult) -> None:
        m, p, s = r.memory, r.performance, r.scale
        self.show_vram(m.per_gpu_bytes, m.gpu_usable_bytes, m.fits)
        self.fit_badge.set_state(m.fits, t("Fits in memory") if m.fits else t("Does not fit"))
        met = p.targets_met
        self.speed_badge.set_state(met.get("tokens_per_s_per_user"),
                                   t("Speed target met") if met.get("tokens_per_s_per_user")
                                   else t("Speed target missed"))
        self.ttft_badge.set_state(met.get("ttft"), t("TTFT target met") if met.get("ttft")
                                  else t("TTFT target missed"))
        at = p.at_concurrency
        values = {
            "VRAM per GPU": f"{gb(m.per_gpu_bytes)} / {gb(m.gpu_usable_bytes)}",
            "Tokens/s per user": rate(at.tokens_per_s_per_user)
            + (f" ({t('target')} {number(p.targets['tokens_per_s_per_user'], 'g')})"
               if p.targets else ""),
            "TTFT": seconds(at.ttft_s)
            + (f" ({t('target')} {seconds(p.targets['ttft_s'])})" if p.targets else ""),
            "GPUs": f"{number(s.gpus_total, ',d')} ({number(s.replicas, ',d')} x "
                    f"{r.selection.chosen.gpus_per_replica})",
            "Replicas": replicas_text(s.replicas_for_load, s.replicas, s.redundancy),
            "Nodes": f"{number(s.nodes, ',d')} x {self.server_name(s.server)}",
            "IT power": watts(r.facility.it_power_w),
        }
        for name, text in values.items():
            self.values[name].setText(text)

    def server_name(self, server_id: str) -> str:
        """The catalog's name of a server (its id when the catalog has none: a generic one)."""
        server = self.controller.catalog.servers.get(server_id)
        return server.name if server is not None else server_id
