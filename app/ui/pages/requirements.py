"""1 Requirements: the model, the workload, the quality floor, the targets and the setting."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.domain.result import ModelFacts, SizingResult
from app.domain.scenario import MAX_TOKENS, MAX_USERS, Scenario
from app.ui.dialogs.catalog_entry import CatalogEntryDialog
from app.ui.dialogs.import_model import ImportModelDialog
from app.ui.fields import (
    BoundField,
    CheckField,
    Choice,
    ChoiceField,
    IntField,
    MultiCheckField,
    OptionalNumberField,
    SearchListField,
    TextField,
    UsersField,
)
from app.ui.pages.base import StepPage
from app.ui.text import render, t
from app.ui.units import number

NOTE_STYLE = "color: palette(placeholder-text);"
CONTEXT_PRESETS = (("2K", 2048), ("4K", 4096), ("8K", 8192), ("32K", 32768), ("128K", 131072))
PRESET_WIDTH = 48
KINDS = [
    Choice("online_inference", "Online inference",
           "Users wait for each answer: sized for time to first token and speed per user."),
    Choice("batch_inference", "Batch inference",
           "Jobs must finish within a window: sized for throughput."),
    Choice("fine_tuning", "Fine-tuning",
           "Adapt a trained model (full, LoRA or QLoRA): sized for memory per GPU and time to "
           "train; see the page Training and workloads."),
    Choice("pretraining", "Pre-training",
           "Train a model from scratch on a token budget: sized for memory per GPU, GPU count "
           "and time to train."),
]
TRAINING_KINDS = ("fine_tuning", "pretraining")


class NamedUsersField(OptionalNumberField):
    """workload.activity.named_users: with a number the requests in flight are derived from
    the activity model; empty removes the activity model (requests in flight given directly).
    """

    def changes(self, value):
        if value is None:
            return {"workload.activity": None}
        return {self.path: value}


class KindField(ChoiceField):
    """The workload kind; a training kind brings a valid training block in the same step."""

    def send(self, final: bool = True) -> list[str]:
        kind = self.read()
        if kind not in TRAINING_KINDS:
            return super().send(final)
        block = dict(self.controller.value("training") or {})
        if kind == "pretraining":
            block["method"] = "full"
        else:
            block.setdefault("method", "lora")
        problems = self.controller.edit_many({"workload.kind": kind, "training": block},
                                             t(self.label_text))
        self.show_refusal(self.refusal_of(problems))
        if problems and final:
            self.put(self.controller.value(self.path))
        return problems

ENGINES = [
    Choice("vllm", "vLLM"), Choice("tensorrt-llm", "TensorRT-LLM"), Choice("sglang", "SGLang"),
    Choice("llama.cpp", "llama.cpp"), Choice("generic", "Other engine (generic profile)"),
]
REDUNDANCY = [
    Choice("none", "None", "A failed replica takes its share of the users down.",
           msgctxt="redundancy"),
    Choice("n+1", "N+1 (one spare replica)", "One replica more than the load needs."),
    Choice("2n", "2N (everything doubled)", "Twice the replicas the load needs."),
]
PLAN_AT = [
    Choice(None, "Conservative (default)",
           "Size replicas so the low end of the expected range still meets the targets."),
    Choice("conservative", "Conservative",
           "Size replicas so the low end of the expected range still meets the targets."),
    Choice("expected", "At the expected figures",
           "Size replicas at the expected figures: fewer GPUs, and a slower run than expected "
           "misses the targets."),
]
FACTS = ("Parameters", "Active per token", "Layers", "KV heads", "Head dimension",
         "Context limit", "Architecture", "Source")


def model_facts(model: ModelFacts) -> dict[str, str]:
    """The selected model's facts as shown in the model group."""
    return {
        "Parameters": t("{count:,.1f} billion", count=model.params_total / 1e9),
        "Active per token": t("{count:,.1f} billion", count=model.params_active / 1e9),
        "Layers": number(model.layers, ",d"),
        "KV heads": t("{kv} (query heads: {heads})", kv=model.kv_heads,
                      heads=model.attention_heads),
        "Head dimension": number(model.head_dim, ",d"),
        "Context limit": t("{tokens:,} tokens", tokens=model.max_context_tokens),
        "Architecture": architecture(model),
        "Source": model.source,
    }


def architecture(model: ModelFacts) -> str:
    """Dense or mixture of experts, MLA, sliding window, in words."""
    parts = [t("Mixture of experts") if model.moe else t("Dense")]
    if model.mla:
        parts.append(t("multi-head latent attention (MLA)"))
    if model.sliding_window:
        parts.append(t("sliding window of {tokens:,} tokens", tokens=model.sliding_window))
    if model.linear_layers:
        parts.append(t("{linear} of {layers} layers with linear attention (a fixed state per "
                       "sequence)", linear=model.linear_layers, layers=model.layers))
    if model.sparse_top_k:
        parts.append(t("sparse attention over {k:,} tokens", k=model.sparse_top_k))
    if model.speculative_layers:
        parts.append(t("speculative-decoding heads (loaded when switched on)"))
    return ", ".join(parts)


class RequirementsPage(StepPage):
    """Step 1: what the deployment must serve."""

    HELP = ("Describe what the deployment must serve: the model, the workload, the quality "
            "floor and the targets. Every change resizes the deployment at once.")

    def build(self) -> None:
        self.fields: list[BoundField] = []
        self.chain: list[QWidget] = []
        self.texts: list[tuple[Callable[[str], None], str]] = []
        self.listed_catalog = None
        left, right = self.column(), self.column()
        for column, groups in ((left, (self.scenario_group, self.model_group,
                                       self.workload_group, self.batch_group)),
                               (right, (self.sequence_group, self.precision_group,
                                        self.targets_group, self.setting_group))):
            for make in groups:
                column.layout().addWidget(make())
            column.layout().addStretch(1)
        self.columns = (left, right)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(left)
        row.addWidget(right)
        self.layout_.addLayout(row)
        for first, second in pairwise(self.chain):
            QWidget.setTabOrder(first, second)
        self.layout_.addStretch(1)

    # --- building blocks --------------------------------------------------------------------
    def text(self, setter: Callable[[str], None], english: str) -> None:
        """Remember a static text to set now and on every language change."""
        self.texts.append((setter, english))

    def column(self) -> QWidget:
        """One of two columns that share the page's width equally (their hints ignored)."""
        holder = QWidget()
        holder.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        QVBoxLayout(holder).setContentsMargins(0, 0, 0, 0)
        return holder

    def group(self, title: str) -> tuple[QGroupBox, QFormLayout]:
        box = QGroupBox()
        self.text(box.setTitle, title)
        form = QFormLayout(box)
        # A narrow column puts a field under its label instead of widening the page.
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        return box, form

    def add(self, form: QFormLayout, field: BoundField) -> BoundField:
        self.fields.append(field)
        self.chain.extend(field.focus_widgets())
        field.add_to(form)
        return field

    def note(self, form: QFormLayout, english: str) -> QLabel:
        label = QLabel(wordWrap=True)
        label.setStyleSheet(NOTE_STYLE)
        self.text(label.setText, english)
        form.addRow(label)
        return label

    def button(self, english: str, slot: Callable[[], object], tooltip: str = "") -> QPushButton:
        button = QPushButton()
        self.text(button.setText, english)
        if tooltip:
            self.text(button.setToolTip, tooltip)
        button.clicked.connect(lambda: slot())
        self.chain.append(button)
        return button

    # --- groups -----------------------------------------------------------------------------
    def scenario_group(self) -> QGroupBox:
        box, form = self.group("Scenario")
        c = self.controller
        self.add(form, TextField(c, "name", "Scenario name",
                                 "The name the report and the window title show."))
        self.add(form, TextField(c, "customer", "Customer",
                                 "Who the sizing is for; printed on the report."))
        self.add(form, TextField(c, "project", "Project",
                                 "The customer's project or use case; printed on the report."))
        return box

    def start_clean(self) -> None:
        """New or Open: the model search was the scenario before's."""
        super().start_clean()
        self.model.search.clear()

    def model_group(self) -> QGroupBox:
        box, form = self.group("Model")
        self.model = self.add(form, SearchListField(
            self.controller, "model", "Model",
            "The model to serve; type to filter the catalog by name or id.",
            "Search by name or id"))
        self.import_button = self.button(
            "Import model folder…", self.open_import_dialog,
            "Add a model from a local Hugging Face folder (config.json) to your catalog.")
        self.entry_button = self.button(
            "Add or edit a model…", self.open_model_form,
            "Describe a model in a form (layers, heads, experts ...) and save it to your "
            "catalog.")
        buttons = QHBoxLayout()
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.entry_button)
        buttons.addStretch(1)
        form.addRow("", buttons)
        self.fact_labels = {name: QLabel() for name in FACTS}
        self.fact_values = {name: QLabel(wordWrap=True) for name in FACTS}
        for name in FACTS:
            self.text(self.fact_labels[name].setText, name)
            form.addRow(self.fact_labels[name], self.fact_values[name])
        self.fact_values["Source"].setStyleSheet(NOTE_STYLE)
        return box

    def precision_group(self) -> QGroupBox:
        box, form = self.group("Quality floor and number formats")
        formats = [Choice(pid, pid, "{bits:g} bits per weight; quality: {quality}.",
                          params={"bits": spec.bits, "quality": spec.quality})
                   for pid, spec in self.controller.catalog.precisions.items()]
        self.allowed = self.add(form, MultiCheckField(
            self.controller, "precision.allowed_weights", "Allowed weight formats",
            "The weight formats Step 3 may choose from.", formats))
        self.note(form, "Regulated sectors (finance, health, public sector) usually keep 8 or "
                        "16 bit; 4-bit formats trade accuracy for memory.")
        self.weights = self.add(form, ChoiceField(
            self.controller, "precision.weights", "Weight format",
            "Fix the weight format, or leave the default (the model's own format).",
            self.format_choices(kv=False)))
        self.kv_cache = self.add(form, ChoiceField(
            self.controller, "precision.kv_cache", "KV cache format",
            "The number format of the attention cache (FP8 halves it against 16 bit).",
            self.format_choices(kv=True)))
        return box

    def format_choices(self, kv: bool) -> list[Choice]:
        ids = [pid for pid, spec in self.controller.catalog.precisions.items()
               if spec.kv_allowed or not kv]
        return [Choice(None, "(default)")] + [Choice(pid, pid) for pid in ids]

    def workload_group(self) -> QGroupBox:
        box, form = self.group("Workload")
        c = self.controller
        self.kind = self.add(form, KindField(
            c, "workload.kind", "Kind", "What the deployment does with the model.", KINDS))
        self.users = self.add(form, UsersField(
            c, "workload.concurrent_users", "Concurrent users",
            "Users with a request in flight at the busiest moment.", MAX_USERS,
            "max (saturation)", "Size for as many users as the hardware admits."))
        self.named_users = self.add(form, NamedUsersField(
            c, "workload.activity.named_users", "Named users",
            "Users who may use the service. With a number, the requests in flight are derived "
            "from how active they are (Little's law) instead of given above; empty: give the "
            "requests in flight directly.", whole=True, unit="users"))
        self.activity_fields = [
            self.add(form, OptionalNumberField(
                c, "workload.activity.active_share", "Active at the busiest hour",
                "Share of the named users active in the busiest hour (0 to 1).",
                unit="share")),
            self.add(form, OptionalNumberField(
                c, "workload.activity.requests_per_active_user_per_minute",
                "Requests per active user", "Requests each active user sends per minute; "
                "or give a think time instead.", unit="per minute")),
            self.add(form, OptionalNumberField(
                c, "workload.activity.think_time_s", "Think time",
                "Time an active user reads and types between an answer and the next request; "
                "used when no request rate is given.", unit="s"))]
        self.derived_users = QLabel(wordWrap=True)
        form.addRow("", self.derived_users)
        return box

    def batch_group(self) -> QGroupBox:
        self.batch_box, form = self.group("Batch volume")
        c = self.controller
        self.add(form, OptionalNumberField(
            c, "workload.requests_per_hour", "Requests", "Requests arriving per hour.",
            unit="per hour"))
        self.add(form, OptionalNumberField(
            c, "workload.tokens_per_day", "Output tokens",
            "Output tokens to generate per day (used instead of requests when both are given).",
            unit="per day"))
        self.window = self.add(form, OptionalNumberField(
            c, "workload.completion_window_hours", "Completion window",
            "Hours within which each day's batch must be finished.", unit="hours"))
        self.note(form, "Give either requests per hour or output tokens per day.")
        return self.batch_box

    def sequence_group(self) -> QGroupBox:
        box, form = self.group("Sequence lengths")
        c = self.controller
        self.prompt = self.add(form, IntField(
            c, "workload.prompt_tokens", "Prompt", "Input tokens per request, system prompt "
            "and retrieved documents included.", 1, MAX_TOKENS, "tokens"))
        self.output = self.add(form, IntField(
            c, "workload.output_tokens", "Output", "Tokens the model generates per request.",
            1, MAX_TOKENS, "tokens"))
        self.context = self.add(form, OptionalNumberField(
            c, "workload.max_context_tokens", "Maximum context",
            "The longest sequence a user may reach; the KV cache is sized for it.",
            whole=True, unit="tokens"))
        form.addRow("", self.presets())
        return box

    def presets(self) -> QWidget:
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        self.preset_buttons = {}
        for name, tokens in CONTEXT_PRESETS:
            button = self.button(name, lambda tokens=tokens: self.context.apply(tokens))
            button.setMinimumWidth(PRESET_WIDTH)
            self.preset_buttons[name] = button
            layout.addWidget(button)
        layout.addStretch(1)
        return row

    def targets_group(self) -> QGroupBox:
        box, form = self.group("Targets and serving")
        c = self.controller
        self.ttft = self.add(form, OptionalNumberField(
            c, "targets.ttft_s", "Time to first token",
            "The longest a user may wait for the first token of an answer.", unit="s"))
        self.speed = self.add(form, OptionalNumberField(
            c, "targets.tokens_per_s_per_user", "Speed per user",
            "The generation speed each user must see.", unit="tokens/s"))
        self.add(form, ChoiceField(c, "targets.plan_at", "Plan at",
                                   "Which end of the expected range the replicas and GPUs are "
                                   "sized by.", PLAN_AT))
        self.add(form, ChoiceField(c, "serving.engine", "Serving engine",
                                   "The inference server whose memory and speed profile "
                                   "is used.", ENGINES))
        return box

    def setting_group(self) -> QGroupBox:
        box, form = self.group("Sovereignty and availability")
        c = self.controller
        self.add(form, CheckField(c, "sovereignty.on_premises", "On premises",
                                  "The deployment runs in the customer's own data centre."))
        self.add(form, CheckField(c, "sovereignty.air_gapped", "Air-gapped",
                                  "No connection to the internet: models and updates are "
                                  "brought in by hand."))
        self.add(form, TextField(c, "sovereignty.region", "Region",
                                 "Where data and models must stay, e.g. EU or Germany."))
        self.add(form, ChoiceField(c, "availability.redundancy", "Redundancy",
                                   "Spare capacity kept for a failed replica.", REDUNDANCY))
        return box

    def field(self, path: str) -> BoundField:
        """The input bound to the scenario field at ``path``."""
        return next(field for field in self.fields if field.path == path)

    # --- actions ----------------------------------------------------------------------------
    def open_import_dialog(self) -> None:
        ImportModelDialog(self.controller, self).exec()
        self.refresh_models()

    def open_model_form(self) -> None:
        CatalogEntryDialog(self.controller, "models", self).exec()

    def refresh_models(self) -> None:
        """List the catalog's models again when the controller has a new catalog."""
        if self.listed_catalog is self.controller.catalog:
            return
        self.listed_catalog = self.controller.catalog
        self.model.set_items([(mid, f"{spec.name}  ({mid})")
                              for mid, spec in self.controller.catalog.models.items()
                              if spec.generates])  # embedders belong to the RAG step

    def show_catalog(self, catalog) -> None:
        self.refresh_models()
        self.show_scenario(self.controller.scenario)

    # --- StepPage ---------------------------------------------------------------------------
    def retranslate(self) -> None:
        for setter, english in self.texts:
            setter(t(english))
        self.limit_presets()
        for field in self.fields:
            field.retranslate()
        self.show_placeholders()
        self.keep_columns_readable()

    def keep_columns_readable(self) -> None:
        """Equal columns, but never narrower than what they hold in this language."""
        for column in self.columns:
            column.setMinimumWidth(0)
            column.setMinimumWidth(column.layout().minimumSize().width())

    def show_scenario(self, scenario: Scenario) -> None:
        self.refresh_models()
        for field in self.fields:
            field.show_scenario()
        self.batch_box.setVisible(scenario.workload.kind == "batch_inference")
        activity = scenario.workload.activity is not None
        self.users.editor.setEnabled(not activity and scenario.workload.concurrent_users != "max")
        self.users.saturation.setEnabled(not activity)
        for field in self.activity_fields:
            field.editor.setEnabled(activity)
        if not activity:
            self.derived_users.setText("")
        self.show_placeholders()

    def show_derived_users(self, result: SizingResult) -> None:
        """The requests in flight the engine derived from the activity model, and how."""
        workload = result.inputs.workload
        derived = next((a for a in result.assumptions if a.name == "derived_concurrent_users"),
                       None)
        if workload.activity is None or derived is None:
            self.derived_users.setText("")
            return
        blocked = self.users.editor.blockSignals(True)  # shown, not an edit: the field is off
        self.users.editor.setValue(workload.concurrent_users)
        self.users.editor.blockSignals(blocked)
        self.derived_users.setText(t(
            "Derived: {n} requests in flight at the busiest hour. {how}",
            n=number(workload.concurrent_users, ",d"),
            how=render(derived.source_message) if derived.source_message else derived.source))

    def show_placeholders(self) -> None:
        """Empty optional fields show the value used instead."""
        catalog, workload = self.controller.catalog, self.controller.scenario.workload
        self.context.set_placeholder(t("prompt + output = {tokens:,}",
                                       tokens=workload.prompt_tokens + workload.output_tokens))
        for field, name in ((self.ttft, "target_ttft_s"),
                            (self.speed, "target_tokens_per_s_per_user"),
                            (self.window, "batch_completion_window_h"),
                            (self.activity_fields[0], "active_share_busiest_hour"),
                            (self.activity_fields[1], "requests_per_active_user_per_minute")):
            field.set_placeholder(t("default: {value:g}", value=catalog.default(name)))

    def limit_presets(self) -> None:
        """A context preset longer than the model takes is disabled, and says why."""
        result = self.controller.result
        limit = result.model.max_context_tokens if result is not None else None
        for name, tokens in CONTEXT_PRESETS:
            button = self.preset_buttons[name]
            allowed = limit is None or tokens <= limit
            button.setEnabled(allowed)
            button.setToolTip(t("Set the maximum context to {tokens:,} tokens.", tokens=tokens)
                              if allowed else t(
                "{model} takes at most {limit:,} tokens of context.",
                model=result.model.name, limit=limit))

    def show_result(self, result: SizingResult) -> None:
        self.refresh_models()
        self.limit_presets()
        self.show_derived_users(result)
        for name, value in model_facts(result.model).items():
            self.fact_values[name].setText(value)
        precision = result.inputs.precision
        self.allowed.set_default(precision.allowed_weights or [])
        for field, key in ((self.weights, "weights"), (self.kv_cache, "kv_cache")):
            if self.controller.value(f"precision.{key}") is None:
                field.relabel(None, "(default: {format})", format=getattr(precision, key) or "")
            else:
                field.relabel(None, "(default)")
