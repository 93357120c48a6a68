"""The live summary beside every step: VRAM per GPU, speed and TTFT against targets, scale."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QFormLayout, QFrame, QLabel, QProgressBar, QVBoxLayout, QWidget

from app.domain.result import Planning, SizingResult, Verdict
from app.i18n import msg, plural
from app.ui.controller import Controller
from app.ui.fields import problem_in_words
from app.ui.text import render, t
from app.ui.units import gb, number, rate, seconds, watts

PASS, FAIL, STALE = "#2e7d32", "#c62828", "#9e9e9e"
PASS_STYLE = f"QLabel {{ color: white; background: {PASS}; border-radius: 4px; padding: 2px 6px; }}"
FAIL_STYLE = f"QLabel {{ color: white; background: {FAIL}; border-radius: 4px; padding: 2px 6px; }}"


STALE_STYLE = (f"QLabel {{ color: white; background: {STALE}; border-radius: 4px; "
               "padding: 2px 6px; }")


class Badge(QLabel):
    """A pass/fail badge; grey while the figures it judges are stale."""

    passed: bool | None = None
    stale = False

    def set_state(self, passed: bool | None, text: str) -> None:
        self.passed = passed
        self.setText(text)
        self.setVisible(passed is not None)
        self.restyle()

    def set_stale(self, stale: bool) -> None:
        self.stale = stale
        self.restyle()

    def restyle(self) -> None:
        self.setStyleSheet(STALE_STYLE if self.stale else PASS_STYLE if self.passed
                           else FAIL_STYLE)


def verdict_text(v: Verdict) -> str:
    """The verdict's sentence in the window's language (it opens with the state)."""
    return render(v.message) if v.message is not None else v.sentence


def memory_figures(r: SizingResult) -> tuple[float, float]:
    """(what one GPU must hold, what it may use) [B]: the training memory for a training
    result, else the serving memory at peak context."""
    if r.training is not None:
        return r.training.per_gpu_bytes, r.training.gpu_usable_bytes
    return r.memory.per_gpu_bytes, r.memory.gpu_usable_bytes


def planning_text(planning: Planning) -> str:
    """'conservative; 40 GPUs at the expected figures' (or the other way round)."""
    other = planning.other.gpus_total
    gpus = number(other, ",d")
    if planning.plan_at == "conservative":
        return render(plural(other, msg("conservative; {gpus} GPU at the expected figures"),
                             msg("conservative; {gpus} GPUs at the expected figures"),
                             gpus=gpus))
    return render(plural(other, msg("expected figures; {gpus} GPU conservatively"),
                         msg("expected figures; {gpus} GPUs conservatively"), gpus=gpus))


def replicas_text(for_load: int, total: int, redundancy: str) -> str:
    """'1 for load, 2 with N+1' (or '1 for load, no redundancy')."""
    if redundancy == "none":
        return t("{n} for load, no redundancy", n=number(for_load, ",d"))
    return t("{n} for load, {m} with {redundancy}", n=number(for_load, ",d"),
             m=number(total, ",d"), redundancy=redundancy.upper())


class SummaryPanel(QFrame):
    """Key figures of the current result, visible on every step."""

    #: Every row; a result shows those of its kind of workload (:meth:`values_of`).
    ROWS = ("VRAM per GPU", "Tokens/s per user", "TTFT", "Batch completes in", "Time to train",
            "GPUs", "Replicas", "Planned at", "Nodes", "IT power")

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("summaryPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.controller = controller
        self.title = QLabel()
        self.verdict = QLabel(wordWrap=True)  # the result's one verdict, in a sentence
        self.vram_bar = QProgressBar(maximum=1000, textVisible=True)
        self.fit_badge, self.speed_badge, self.ttft_badge = Badge(), Badge(), Badge()
        self.labels = {name: QLabel() for name in self.ROWS}
        self.values = {name: QLabel(wordWrap=True) for name in self.ROWS}
        self.problems = QLabel(wordWrap=True)
        self.problems.setStyleSheet("color: #c62828;")
        self.stale_note = QLabel(wordWrap=True, visible=False)  # figures of an earlier input
        self.stale_note.setStyleSheet("color: #8a6d00; font-weight: bold;")
        self.form = form = QFormLayout()
        for name in self.ROWS:
            form.addRow(self.labels[name], self.values[name])
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.stale_note)
        layout.addWidget(self.verdict)
        layout.addWidget(self.vram_bar)
        for badge in (self.fit_badge, self.speed_badge, self.ttft_badge):
            layout.addWidget(badge)
        layout.addLayout(form)
        layout.addWidget(self.problems)
        layout.addStretch(1)
        controller.result_changed.connect(self.show_result)
        controller.problems_changed.connect(self.show_problems)
        controller.stale_changed.connect(self.show_stale)
        controller.language_changed.connect(lambda _: self.retranslate())
        self.retranslate()

    def retranslate(self) -> None:
        self.title.setText(f"<b>{t('Summary')}</b>")
        self.stale_note.setText(t("Stale: these figures are for the last valid input. Correct "
                                  "the input in red to update them; no report until then."))
        for name in self.ROWS:
            self.labels[name].setText(t(name))
        if self.controller.result is not None:
            self.show_result(self.controller.result)

    def show_problems(self, problems: list[str]) -> None:
        """The controller's problems, each named by its field's label (not its path)."""
        refusal = self.controller.refusal  # the same problems as Messages, when they are
        same = len(refusal) == len(problems)
        texts = [problem_in_words(p) for p in refusal] if same else problems
        self.problems.setText("\n".join(texts))

    def show_verdict(self, v: Verdict) -> None:
        """The verdict's sentence: green or red, grey while the figures are stale."""
        colour = STALE if self.controller.stale else PASS if v.passed else FAIL
        self.verdict.setText(f"<b style='color:{colour}'>{verdict_text(v)}</b>")

    def show_stale(self, stale: bool) -> None:
        """While an input is invalid the figures are an earlier input's: say so and grey
        them."""
        self.stale_note.setVisible(stale)
        for badge in (self.fit_badge, self.speed_badge, self.ttft_badge):
            badge.set_stale(stale)
        for widget in (self.verdict, self.vram_bar, *self.values.values()):
            widget.setEnabled(not stale)
        if self.controller.result is not None:
            self.show_result(self.controller.result)  # verdict and bar grey, or coloured again

    def show_vram(self, used: float, usable: float, fits: bool) -> None:
        """The bar: share of the usable memory one GPU needs, green when it fits, else red."""
        share = used / usable if usable else 0.0
        self.vram_bar.setValue(int(min(share, 1.0) * 1000))
        self.vram_bar.setFormat(t("{share:.0%} of the usable memory", share=share))
        self.vram_bar.setToolTip(t("{used} of {usable} usable per GPU", used=gb(used),
                                   usable=gb(usable)))
        palette = self.vram_bar.palette()
        colour = STALE if self.controller.stale else PASS if fits else FAIL
        palette.setColor(QPalette.ColorRole.Highlight, QColor(colour))
        palette.setColor(QPalette.ColorRole.HighlightedText, QColor("white"))
        self.vram_bar.setPalette(palette)

    def show_result(self, r: SizingResult) -> None:
        """The result's verdict and the figures of its kind of workload (serving, batch or
        training); a configuration that does not fit shows no speed or first-token time."""
        v = r.verdict
        self.show_verdict(v)
        used, usable = memory_figures(r)
        self.show_vram(used, usable, v.fits)
        self.fit_badge.set_state(v.fits, t("Fits in memory") if v.fits else t("Does not fit"))
        self.show_target_badges(r)
        values = self.values_of(r)
        for name in self.ROWS:
            self.form.setRowVisible(self.labels[name], name in values)
            self.values[name].setText(values.get(name, ""))

    def show_target_badges(self, r: SizingResult) -> None:
        """Speed and TTFT badges for a serving configuration that fits; none otherwise."""
        met = r.performance.targets_met if r.verdict.workload == "serving" and r.verdict.fits \
            else {}
        speed, ttft = met.get("tokens_per_s_per_user"), met.get("ttft")
        self.speed_badge.set_state(speed, t("Speed target met") if speed
                                   else t("Speed target missed"))
        self.ttft_badge.set_state(ttft, t("TTFT target met") if ttft else t("TTFT target missed"))

    def values_of(self, r: SizingResult) -> dict[str, str]:
        """The rows of the result's kind, each as shown."""
        s = r.scale
        used, usable = memory_figures(r)
        values = {"VRAM per GPU": f"{gb(used)} / {gb(usable)}"}
        values.update(self.workload_values(r))
        gpus = r.training.gpus_total if r.training is not None else s.gpus_total
        values["GPUs"] = (number(gpus, ",d") if r.training is not None else
                          f"{number(s.gpus_total, ',d')} ({number(s.replicas, ',d')} x "
                          f"{r.selection.chosen.gpus_per_replica})")
        if r.training is None:
            values["Replicas"] = replicas_text(s.replicas_for_load, s.replicas, s.redundancy)
        if s.planning is not None:  # none for training: no expected range to plan at
            values["Planned at"] = planning_text(s.planning)
        values["Nodes"] = f"{number(s.nodes, ',d')} x {s.server_shown}"
        values["IT power"] = watts(r.facility.it_power_w)
        return values

    def workload_values(self, r: SizingResult) -> dict[str, str]:
        """Serving: speed and TTFT at the load ("does not fit" when it does not); batch: the
        completion time; training: the time to train."""
        v, p = r.verdict, r.performance
        if v.workload == "training":
            tr = r.training
            target = (f" ({t('target')} {number(tr.target_days, ',.0f')} {t('days')})"
                      if tr.target_days else "")
            return {"Time to train": t("{days} days", days=number(tr.wall_clock_s / 86400,
                                                                    ",.1f")) + target}
        if v.workload == "batch":
            hours = r.scale.batch_completion_hours
            return {"Batch completes in": t("does not fit") if not v.fits or hours is None
                    else f"{number(hours, ',.1f')} h"}
        if not v.fits:
            return {"Tokens/s per user": t("does not fit"), "TTFT": t("does not fit")}
        at = p.at_concurrency
        return {
            "Tokens/s per user": rate(at.tokens_per_s_per_user)
            + (f" ({t('target')} {number(p.targets['tokens_per_s_per_user'], 'g')})"
               if p.targets else ""),
            "TTFT": seconds(at.ttft_s)
            + (f" ({t('target')} {seconds(p.targets['ttft_s'])})" if p.targets else ""),
        }

