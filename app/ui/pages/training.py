"""Training and workloads: fine-tuning and pre-training, retrieval (RAG) and the CPU comparison.

The page follows the result: the training inputs and figures appear for fine-tuning and
pre-training scenarios, the RAG figures when the scenario has a corpus, the CPU comparison
when it asks for one; otherwise one sentence says how to get them.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtWidgets import QFormLayout, QGridLayout, QGroupBox, QLabel, QVBoxLayout, QWidget

from app.domain.result import CpuResult, RagResult, SizingResult, TrainingResult, Verdict
from app.domain.scenario import MAX_TOKENS, OPTIMIZERS, Scenario
from app.i18n import msg, plural
from app.ui.charts import (
    COLORS,
    Chart,
    FigureTable,
    StackedMemoryBar,
    dashed,
    marker_line,
    pen,
    set_axis,
)
from app.ui.fields import BoundField, CheckField, Choice, ChoiceField, IntField, OptionalNumberField
from app.ui.pages.base import StepPage
from app.ui.summary_panel import verdict_text
from app.ui.text import render, t
from app.ui.units import GB, TB, gb, gb_gib, number, seconds, tb, usd

TRAINING_KINDS = ("fine_tuning", "pretraining")
DAY = 86_400.0
MEMORY_COLOURS = {
    "weights": COLORS["weights"],
    "gradients": "#ff7f0e",
    "optimizer": "#6a3d9a",
    "activations": "#17becf",
    "free": COLORS["free"],
    "runtime": COLORS["runtime"],
}
METHODS = [
    Choice("full", "Full training", "Every weight is trained (16 bytes of state per parameter "
                                    "with mixed-precision AdamW)."),
    Choice("lora", "LoRA", "The base weights stay frozen in 16 bit; small adapters are trained."),
    Choice("qlora", "QLoRA", "The base weights stay frozen in 4 bit; small adapters are "
                             "trained."),
]
ZERO = [
    Choice(None, "(search: the lowest that fits)"),
    Choice(0, "0 (no sharding)"),
    Choice(1, "1 (optimizer states sharded)"),
    Choice(2, "2 (and gradients; FSDP SHARD_GRAD_OP)"),
    Choice(3, "3 (and weights; FSDP full shard)"),
]
RECOMPUTE = [
    Choice(None, "(search: the least that fits)"),
    Choice("none", "None", msgctxt="activation recompute"),
    Choice("selective", "Selective (attention)"),
    Choice("full", "Full (every layer)"),
]


def days(value_s: float) -> str:
    """A duration in days, or hours when shorter than two days."""
    if value_s < 2 * DAY:
        return t("{h} h", h=number(value_s / 3600, ",.1f"))
    return t("{d} days", d=number(value_s / DAY, ",.1f"))


def recompute_text(mode: str) -> str:
    if mode == "full":
        return t("full (every layer)")
    if mode == "selective":
        return t("selective (attention)")
    return t("none (activations kept)")


def minutes(value_s: float) -> str:
    if value_s < 120:
        return seconds(value_s)
    return t("{m} min", m=number(value_s / 60, ",.0f"))


def storage_size(value_bytes: float) -> str:
    """GB below one TB, else TB [B]."""
    return gb(value_bytes) if value_bytes < TB else tb(value_bytes)


def memory_parts(tr: TrainingResult) -> dict[str, float]:
    """One GPU's memory in parts [B], bottom up: the result's fields, what is left of the
    usable memory, then the runtime's share above the usable line (outside the job's budget)."""
    return {
        "weights": tr.weights_bytes_per_gpu,
        "gradients": tr.gradients_bytes_per_gpu,
        "optimizer": tr.optimizer_bytes_per_gpu,
        "activations": tr.activation_bytes_per_gpu,
        "free": max(tr.gpu_usable_bytes - tr.per_gpu_bytes, 0.0),
        "runtime": tr.runtime_bytes_per_gpu,
    }


class TrainingMemoryChart(StackedMemoryBar):
    """Stacked bar of the fullest GPU's memory during training, with the usable memory."""

    def __init__(self, parent=None):
        super().__init__(MEMORY_COLOURS, 360, parent)
        self.usable = 0.0

    def names(self) -> dict[str, str]:
        return {"weights": t("Weights"), "gradients": t("Gradients"),
                "optimizer": t("Optimizer states"), "activations": t("Activations"),
                "free": t("Free"), "runtime": t("Runtime and buffers")}

    def retranslate(self) -> None:
        self.label_parts(self.names())
        self.usable_line.label.setFormat(
            t("Usable: {gb} GB", gb=number(self.usable, ",.1f")))

    def show_result(self, tr: TrainingResult) -> None:
        self.stack(memory_parts(tr), tr.gpu_memory_bytes, tr.per_gpu_bytes)
        self.usable = tr.gpu_usable_bytes / GB
        self.usable_line.setPos(self.usable)
        self.retranslate()


class TimeToTrainChart(Chart):
    """Wall-clock time to train against GPU count (log2 axis), the chosen count marked."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.curve = self.plot.plot([], [], pen=pen(COLORS["per_user"]), symbol="o",
                                    symbolSize=6, symbolBrush=COLORS["per_user"])
        self.chosen = marker_line(90, dashed(COLORS["marker"]), 0.6, (0, 0.5))
        self.target = marker_line(0, dashed(COLORS["target"], 2), 0.9, (1, 1))
        self.plot.addItem(self.chosen, ignoreBounds=True)
        self.plot.addItem(self.target, ignoreBounds=True)
        self.result: TrainingResult | None = None

    def retranslate(self) -> None:
        set_axis(self.plot, "bottom", t("GPUs"), "")
        set_axis(self.plot, "left", t("Time to train (wall clock)"), t("days"))
        if self.result is not None:
            tr = self.result
            self.chosen.label.setFormat(render(plural(
                tr.gpus_total, msg("chosen: {n} GPU"), msg("chosen: {n} GPUs"),
                n=number(tr.gpus_total, ",d"))))
            if tr.target_days:
                self.target.label.setFormat(
                    t("target: {d} days", d=number(tr.target_days, ",.0f")))

    def show_result(self, tr: TrainingResult) -> None:
        self.result = tr
        points = tr.scaling or []
        x = np.array([math.log2(p.gpus) for p in points], dtype=float)
        y = np.array([p.wall_clock_s / DAY for p in points], dtype=float)
        self.curve.setData(x, y)
        self.plot.getAxis("bottom").setTicks(
            [[(math.log2(p.gpus), number(p.gpus, ",d")) for p in points]])
        self.chosen.setPos(math.log2(max(tr.gpus_total, 1)))
        self.target.setVisible(bool(tr.target_days))
        if tr.target_days:
            self.target.setPos(tr.target_days)
        top = max([*y, tr.target_days or 0, tr.wall_clock_s / DAY, 1e-3])
        low = min([*x, math.log2(max(tr.gpus_total, 1))])
        high = max([*x, math.log2(max(tr.gpus_total, 1))])
        self.plot.setXRange(low - 0.3, high + 0.3, padding=0)
        self.plot.setYRange(0, top * 1.1, padding=0)
        self.retranslate()


def key_value_table(rows: int) -> FigureTable:
    table = FigureTable(rows, 2)
    table.horizontalHeader().hide()
    table.stretch_only(1)
    return table


class EmbedderField(ChoiceField):
    """rag.embedding_model: a catalog embedder replaces the size given by hand."""

    def changes(self, value):
        if value is None:
            return {self.path: None}
        return {self.path: value, "rag.embedding_params": None, "rag.embedding_dim": None}


class TrainingPage(StepPage):

    def build(self) -> None:
        self.fields: list[BoundField] = []
        self.none = QLabel(wordWrap=True)
        self.layout_.addWidget(self.none)
        self.layout_.addWidget(self.build_training())
        self.layout_.addWidget(self.build_rag())
        self.layout_.addWidget(self.build_cpu())
        self.layout_.addStretch(1)

    # --- building blocks --------------------------------------------------------------------
    def add(self, form: QFormLayout, field: BoundField) -> BoundField:
        self.fields.append(field)
        field.add_to(form)
        return field

    def build_training(self) -> QWidget:
        self.training_box = QGroupBox()
        grid = QGridLayout(self.training_box)
        self.inputs_box = QGroupBox()
        form = QFormLayout(self.inputs_box)
        c = self.controller
        self.add(form, ChoiceField(c, "training.method", "Method",
                                   "Full training, or adapters on a frozen model (LoRA, QLoRA).",
                                   METHODS))
        self.add(form, ChoiceField(c, "training.optimizer", "Optimizer",
                                   "The optimizer sets the bytes of state per trained parameter.",
                                   [Choice(name, name) for name in OPTIMIZERS]))
        self.add(form, ChoiceField(c, "training.zero_stage", "ZeRO stage",
                                   "How far model states are sharded over the data-parallel "
                                   "GPUs.", ZERO))
        self.degrees = {
            "data_parallel": self.add(form, OptionalNumberField(
                c, "training.data_parallel", "Data parallel",
                "Model copies training on different data; empty: the search chooses.",
                whole=True)),
            "tensor_parallel": self.add(form, OptionalNumberField(
                c, "training.tensor_parallel", "Tensor parallel",
                "GPUs splitting every layer; empty: the search chooses.", whole=True)),
            "pipeline_parallel": self.add(form, OptionalNumberField(
                c, "training.pipeline_parallel", "Pipeline parallel",
                "Stages of consecutive layers; empty: the search chooses.", whole=True)),
        }
        self.add(form, IntField(c, "training.micro_batch_size", "Micro-batch",
                                "Sequences per GPU in one forward and backward pass.",
                                1, 65_536, "sequences"))
        self.add(form, IntField(c, "training.sequence_length", "Sequence length",
                                "Tokens per training sequence.", 1, MAX_TOKENS, "tokens"))
        self.tokens = self.add(form, OptionalNumberField(
            c, "training.tokens_total", "Tokens to train",
            "Tokens of the training run; empty: the default for the workload.", unit="tokens"))
        self.add(form, ChoiceField(c, "training.activation_recompute", "Activation recompute",
                                   "Recompute activations in the backward pass to save memory.",
                                   RECOMPUTE))
        self.add(form, OptionalNumberField(
            c, "training.target_days", "Train within",
            "Wall-clock days the run must finish in; the search adds GPUs to meet it.",
            unit="days"))
        self.add(form, CheckField(c, "training.fp32_gradients", "FP32 gradients",
                                  "Keep gradients in FP32 (18 bytes per parameter with AdamW)."))
        self.memory_chart = TrainingMemoryChart()
        self.time_chart = TimeToTrainChart()
        self.verdict = QLabel(wordWrap=True)
        self.figures = key_value_table(12)
        self.step_table = key_value_table(7)
        self.checkpoint_table = key_value_table(7)
        self.training_messages = QLabel(wordWrap=True)
        self.step_title, self.checkpoint_title = QLabel(), QLabel()
        right = QVBoxLayout()
        for widget in (self.verdict, self.figures, self.step_title, self.step_table,
                       self.checkpoint_title, self.checkpoint_table):
            right.addWidget(widget)
        right.addStretch(1)
        grid.addWidget(self.inputs_box, 0, 0)
        grid.addLayout(right, 0, 1)
        grid.addWidget(self.memory_chart, 1, 0)
        grid.addWidget(self.time_chart, 1, 1)
        grid.addWidget(self.training_messages, 2, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        return self.training_box

    def build_rag(self) -> QWidget:
        self.rag_box = QGroupBox()
        column = QVBoxLayout(self.rag_box)
        form = QFormLayout()
        self.embedder = self.add(form, EmbedderField(
            self.controller, "rag.embedding_model", "Embedding model",
            "The catalog's embedding model that embeds the corpus; its size, vector width and "
            "cost come from its architecture.", self.embedder_choices()))
        column.addLayout(form)
        self.rag_table = key_value_table(9)
        self.rag_messages = QLabel(wordWrap=True)
        column.addWidget(self.rag_table)
        column.addWidget(self.rag_messages)
        return self.rag_box

    def build_cpu(self) -> QWidget:
        self.cpu_box = QGroupBox()
        column = QVBoxLayout(self.cpu_box)
        self.cpu_verdict = QLabel(wordWrap=True)
        self.cpu_table = FigureTable(5, 3)
        self.cpu_table.stretch_only(0, 1, 2)
        self.cpu_facts = key_value_table(4)
        self.cpu_messages = QLabel(wordWrap=True)
        for widget in (self.cpu_verdict, self.cpu_table, self.cpu_facts, self.cpu_messages):
            column.addWidget(widget)
        return self.cpu_box

    # --- language ---------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.none.setText(t(
            "Training, fine-tuning, retrieval (RAG) and CPU comparisons are shown here when the "
            "scenario has them: choose fine-tuning or pre-training as the workload kind in "
            "Step 1, or add a 'rag' or 'cpu' block to the scenario file."))
        self.training_box.setTitle(t("Training"))
        self.inputs_box.setTitle(t("Training setup"))
        self.step_title.setText(f"<b>{t('One optimizer step')}</b>")
        self.checkpoint_title.setText(f"<b>{t('Checkpoints and storage')}</b>")
        self.rag_box.setTitle(t("Retrieval (RAG)"))
        self.cpu_box.setTitle(t("CPU inference compared with the GPU option"))
        self.cpu_table.setHorizontalHeaderLabels([t("At the scenario's load"), t("CPU"),
                                                  t("GPU")])
        for field in self.fields:
            field.retranslate()
        self.memory_chart.retranslate()
        self.time_chart.retranslate()

    # --- scenario and result ----------------------------------------------------------------
    def show_scenario(self, scenario: Scenario) -> None:
        training = scenario.workload.kind in TRAINING_KINDS
        self.inputs_box.setVisible(training)
        for field in self.fields:
            field.show_scenario()

    def show_result(self, r: SizingResult) -> None:
        self.training_box.setVisible(r.training is not None)
        self.rag_box.setVisible(r.rag is not None)
        self.cpu_box.setVisible(r.cpu is not None)
        self.none.setVisible(r.training is None and r.rag is None and r.cpu is None)
        if r.training is not None:
            self.show_training(r.training, r.verdict)
        if r.rag is not None:
            self.show_rag(r.rag)
        if r.cpu is not None:
            self.show_cpu(r.cpu)

    def show_verdict(self, v: Verdict) -> None:
        """The result's one verdict (the summary and Step 3 show the same)."""
        colour = "#2e7d32" if v.passed else "#c62828"
        self.verdict.setText(f"<b style='color:{colour}'>{verdict_text(v)}</b>")

    def show_training(self, tr: TrainingResult, verdict: Verdict) -> None:
        for name, field in self.degrees.items():
            field.set_placeholder(t("search: {n}", n=number(getattr(tr, name), ",d")))
        self.tokens.set_placeholder(t("default: {n}", n=number(tr.tokens_total, ",.3g")))
        self.memory_chart.show_result(tr)
        self.time_chart.show_result(tr)
        self.show_verdict(verdict)
        chosen = t("given in the scenario") if tr.chosen_by == "user" else t("found by the search")
        self.figures.set_rows([
            (t("GPUs"), t("{n} x {gpu} on {nodes} node(s) ({how})",
                          n=number(tr.gpus_total, ",d"), gpu=self.gpu_name(tr.gpu),
                          nodes=number(tr.nodes, ",d"), how=chosen)),
            (t("Parallelism"), t("data {d} x tensor {t} x pipeline {p}, ZeRO {z}",
                                 d=number(tr.data_parallel, ",d"),
                                 t=number(tr.tensor_parallel, ",d"),
                                 p=number(tr.pipeline_parallel, ",d"), z=tr.zero_stage)),
            (t("Activation recompute"), recompute_text(tr.activation_recompute)),
            (t("Trained parameters"), t("{n} billion of {total} billion",
                                        n=number(tr.params_trainable / 1e9, ",.3f"),
                                        total=number(tr.params_total / 1e9, ",.1f"))),
            (t("Model states per GPU"), gb_gib(tr.model_state_bytes_per_gpu)),
            (t("Activations per GPU"), gb_gib(tr.activation_bytes_per_gpu)),
            (t("Memory per GPU"), gb_gib(tr.per_gpu_bytes)),
            (t("Global batch"), render(plural(
                tr.gradient_accumulation_steps,
                msg("{n} sequences ({tokens} tokens), one accumulation step"),
                msg("{n} sequences ({tokens} tokens), {acc} accumulation steps"),
                n=number(tr.global_batch_sequences, ",d"),
                tokens=number(tr.tokens_per_step, ",.0f"),
                acc=number(tr.gradient_accumulation_steps, ",d")))),
            (t("Tokens to train"), number(tr.tokens_total, ",.0f")),
            (t("Time to train (compute)"), days(tr.time_to_train_s)),
            (t("Time to train (wall clock)"), days(tr.wall_clock_s)),
            (t("GPU-hours"), number(tr.gpu_hours, ",.0f")),
        ])
        self.step_table.set_rows([
            (t("Compute"), seconds(tr.compute_time_per_step_s)),
            (t("Gradient all-reduce (data parallel)"), seconds(tr.dp_communication_s)),
            (t("Tensor-parallel collectives"), seconds(tr.tp_communication_s)),
            (t("Pipeline sends"), seconds(tr.pp_communication_s)),
            (t("Pipeline bubble"), f"{number(tr.pipeline_bubble_share * 100, ',.1f')} %"),
            (t("Communication hidden behind compute"),
             t("yes") if tr.communication_hidden else t("no")),
            (t("Step time"), seconds(tr.step_time_s)),
        ])
        self.checkpoint_table.set_rows([
            (t("Checkpoint size"), gb(tr.checkpoint_bytes)),
            (t("Save time"), seconds(tr.checkpoint_save_s)),
            (t("Interval (Young/Daly)"), minutes(tr.checkpoint_interval_s)),
            (t("Cluster MTBF"), days(tr.mtbf_cluster_s)),
            (t("Time lost to checkpoints and failures"),
             f"{number(tr.checkpoint_overhead_share * 100, ',.1f')} %"),
            (t("Checkpoints retained"), t("{n}, {size}", n=tr.checkpoints_retained,
                                          size=storage_size(tr.checkpoint_storage_bytes))),
            (t("Storage (checkpoints and dataset)"), storage_size(tr.storage_bytes)),
        ])
        self.training_messages.setText("<br>".join(f"• {render(m)}" for m in tr.messages))

    def gpu_name(self, gpu_id: str) -> str:
        """The catalog's name of a GPU (its id when the catalog has none)."""
        gpu = self.controller.catalog.gpus.get(gpu_id)
        return gpu.name if gpu is not None else gpu_id

    def embedder_choices(self) -> list[Choice]:
        """The catalog's embedding models, after the default (a model sized by parameters)."""
        models = self.controller.catalog.models
        return [Choice(None, "By size (rag.embedding_params, default bge-large-en-v1.5)")] + [
            Choice(mid, spec.name) for mid, spec in sorted(models.items())
            if spec.task == "embedding"]

    def show_catalog(self, catalog) -> None:
        self.embedder.set_choices(self.embedder_choices())

    def show_rag(self, g: RagResult) -> None:
        self.rag_table.set_rows([
            (t("Corpus"), t("{docs} documents, {tokens} tokens", docs=number(g.documents, ",d"),
                            tokens=number(g.tokens_corpus, ",.0f"))),
            (t("Chunks"), number(g.chunks, ",.0f")),
            (t("Embedding"), self.embedding_text(g)),
            (t("Indexing time"), days(g.indexing_time_s)),
            (t("Index in memory"), t("{size} ({index})", size=gb(g.index_memory_bytes),
                                     index=g.index.upper())),
            (t("Index and text on disk"), gb(g.index_storage_bytes)),
            (t("Retrieval latency"), seconds(g.retrieval_latency_s)),
            (t("Time to first token with retrieval"),
             t("{with_r} (without: {without}; {tokens} prompt tokens added)",
               with_r=seconds(g.ttft_with_retrieval_s), without=seconds(g.ttft_s),
               tokens=number(g.added_prompt_tokens, ",d"))),
            (t("Re-indexing"), t("{share} % of the corpus per day: {hours} GPU-hours per day",
                                 share=number(g.reindex_per_day * 100, ",.1f"),
                                 hours=number(g.reindex_gpu_hours_per_day, ",.2f"))),
        ])
        self.rag_messages.setText("<br>".join(f"• {render(m)}" for m in g.messages))

    def embedding_text(self, g: RagResult) -> str:
        size = t("{params} million parameters, {dim} dimensions, on {n} x {gpu}",
                 params=number(g.embedding_params / 1e6, ",.0f"),
                 dim=number(g.embedding_dim, ",d"), n=number(g.embedding_gpus, ",d"),
                 gpu=self.gpu_name(g.embedding_gpu))
        return f"{g.embedding_model_name}: {size}" if g.embedding_model else size

    def show_cpu(self, c: CpuResult) -> None:
        colour = {"cpu-suffices": "#2e7d32", "gpu-needed": "#c62828"}.get(c.verdict, "#8a6d00")
        self.cpu_verdict.setText(
            f"<b style='color:{colour}'>{render(c.verdict_message) or c.verdict_text}</b>")
        rows = [
            (t("Tokens/s per user"), number(c.tokens_per_s_per_user, ",.1f"),
             number(c.gpu_tokens_per_s_per_user, ",.1f")),
            (t("Output tokens/s in all"), number(c.output_tokens_per_s, ",.0f"),
             number(c.gpu_output_tokens_per_s, ",.0f")),
            (t("Time to first token"), seconds(c.ttft_s), seconds(c.gpu_ttft_s)),
            (t("One user alone"), t("{n} tokens/s", n=number(c.single_user_tokens_per_s,
                                                               ",.1f")), "–"),
            (t("Users within the targets"), number(c.users_meeting_speed, ",d"), "–"),
        ]
        self.cpu_table.set_rows(rows)
        price = usd(c.price_usd) if c.price_usd is not None else t("no price in the catalog")
        self.cpu_facts.set_rows([
            (t("CPU"), t("{n} x {cpu}", n=c.sockets, cpu=c.cpu_name)),
            (t("Weights"), t("{fmt}, {size}", fmt=c.weights, size=gb(c.weights_bytes))),
            (t("Memory bandwidth"), t("{gb} GB/s peak, {share} % reached",
                                      gb=number(c.memory_bandwidth_bytes_per_s / GB, ",.0f"),
                                      share=number(c.bandwidth_efficiency * 100, ",.0f"))),
            (t("Power and price"), t("{kw} kW, {price}",
                                     kw=number(c.power_w / 1e3, ",.2f"), price=price)),
        ])
        self.cpu_messages.setText("<br>".join(f"• {render(m)}" for m in c.messages))
