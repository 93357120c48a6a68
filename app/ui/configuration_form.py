"""Step 3's form for typing a configuration: GPU, GPUs per replica, tensor and pipeline
parallel degree, weight and KV cache formats, expert parallelism and DP attention, applied
together as one undoable edit.

It opens with the configuration the result chose, so the user changes what differs. A
problem is shown under the field it is about: the form's own check (GPUs per replica must be
tensor x pipeline parallel), the scenario's refusal and the sizing's (a degree that does not
split the model's heads), each found by the field its Problem names.
"""

from __future__ import annotations

from typing import Any, get_args

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.domain.problems import Problem
from app.domain.result import SizingResult
from app.domain.scenario import KvPrecision, Scenario, WeightPrecision
from app.i18n import Message
from app.ui.controller import Controller
from app.ui.fields import FIELD_LABELS, MESSAGE_STYLE, ComboBox, SpinBox
from app.ui.text import language, render, t

#: The form's fields: key, label, tooltip.
FIELDS = (
    ("gpu", "GPU", "The GPU model every replica uses."),
    ("count", "GPUs per replica", "GPUs that hold one copy of the model: tensor parallel x "
     "pipeline parallel."),
    ("tensor", "Tensor parallel", "GPUs each layer is split over (within a node)."),
    ("pipeline", "Pipeline parallel", "Stages the layers are split into (across nodes)."),
    ("weights", "Weight format", "Number format of the weights; the model's own by default."),
    ("kv", "KV cache format", "Number format of the KV cache; the engine's default by default."),
    ("experts", "Expert parallel", "Mixture-of-experts models: GPUs of a stage the experts are "
     "split over, whole experts each (1: off); divides tensor parallel and the expert count."),
    ("dp", "DP attention", "Mixture-of-experts models: each GPU of a stage runs the attention "
     "of its own requests (needs tensor parallel 2 or more)."),
)
#: The scenario paths whose problems each field shows.
PATHS = {"gpu": ("hardware.gpu", "hardware.server"),
         "count": ("hardware.gpus_per_replica", "hardware"),
         "tensor": ("hardware.tensor_parallel",), "pipeline": ("hardware.pipeline_parallel",),
         "weights": ("precision.weights", "precision"), "kv": ("precision.kv_cache",),
         "experts": ("hardware.expert_parallel",), "dp": ("hardware.dp_attention",)}
MAX_DEGREE = 1024
SPIN_WIDTH = 70  # a spin box's least width [px]
COMBO_CHARS = 12  # a combo box's least width [characters]


def field_of(problem: Message) -> str | None:
    """The form's field a problem is about (None when it is about none of them)."""
    if not isinstance(problem, Problem):
        return None
    for key, paths in PATHS.items():
        if problem.field in paths:
            return key
    return None


class ConfigurationForm(QGroupBox):
    """The form; it listens to the controller itself and sends one edit on Apply."""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        for key, label, _tip in FIELDS:  # a problem shown elsewhere is named by the label
            FIELD_LABELS.setdefault(PATHS[key][0], label)
        self.editors: dict[str, QWidget] = {
            "gpu": ComboBox(), "count": SpinBox(minimum=1, maximum=4096),
            "tensor": SpinBox(minimum=1, maximum=MAX_DEGREE),
            "pipeline": SpinBox(minimum=1, maximum=MAX_DEGREE),
            "weights": ComboBox(), "kv": ComboBox(),
            "experts": SpinBox(minimum=1, maximum=MAX_DEGREE), "dp": ComboBox()}
        self.labels = {key: QLabel() for key in self.editors}
        self.messages = {key: QLabel(wordWrap=True, visible=False) for key in self.editors}
        self.general = QLabel(wordWrap=True, visible=False)
        self.apply_button = QPushButton()
        self.apply_button.clicked.connect(self.apply)
        self.build()
        self.fill_choices()
        for key in ("tensor", "pipeline"):
            self.editors[key].valueChanged.connect(self.follow_degrees)
        controller.problems_changed.connect(lambda _: self.show_problems(controller.refusal))
        controller.result_changed.connect(self.show_result)
        controller.scenario_changed.connect(self.show_scenario)
        controller.catalog_changed.connect(lambda _: self.fill_choices())
        controller.language_changed.connect(lambda _: self.retranslate())
        self.retranslate()
        if controller.result is not None:
            self.show_result(controller.result)

    def build(self) -> None:
        """Two rows: the GPU and the degrees, then the formats and Apply; each field's label
        above it and its problem under it."""
        grid = QGridLayout()
        places = {"gpu": (0, 0), "count": (0, 1), "tensor": (0, 2), "pipeline": (0, 3),
                  "weights": (1, 0), "kv": (1, 1), "experts": (1, 2), "dp": (1, 3)}
        for key, (row, col) in places.items():
            cell = QVBoxLayout()
            cell.setSpacing(2)
            self.labels[key].setBuddy(self.editors[key])
            self.messages[key].setStyleSheet(MESSAGE_STYLE)
            for widget in (self.labels[key], self.editors[key], self.messages[key]):
                cell.addWidget(widget)
            cell.addStretch(1)
            grid.addLayout(cell, row, col)
        for key in ("count", "tensor", "pipeline", "experts"):
            self.editors[key].setMinimumWidth(SPIN_WIDTH)
        for key in ("gpu", "weights", "kv"):  # long GPU names elide instead of widening
            self.editors[key].setSizeAdjustPolicy(
                ComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            self.editors[key].setMinimumContentsLength(COMBO_CHARS)
        grid.setColumnStretch(0, 3)
        for col in (1, 2, 3):
            grid.setColumnStretch(col, 1)
        self.general.setStyleSheet(MESSAGE_STYLE)
        grid.addWidget(self.apply_button, 2, 2, 1, 2, Qt.AlignmentFlag.AlignBottom)
        grid.addWidget(self.general, 3, 0, 1, 4)
        QVBoxLayout(self).addLayout(grid)

    def fill_choices(self) -> None:
        gpu = self.editors["gpu"]
        chosen = gpu.currentData()
        gpu.clear()
        for gpu_id, spec in sorted(self.controller.catalog.gpus.items(),
                                   key=lambda item: item[1].name):
            gpu.addItem(spec.name, gpu_id)
        gpu.setCurrentIndex(max(gpu.findData(chosen), 0))
        self.editors["weights"].clear()
        self.editors["kv"].clear()
        self.editors["weights"].addItem("", None)  # named in retranslate
        self.editors["kv"].addItem("", None)
        for value in get_args(WeightPrecision):
            self.editors["weights"].addItem(value.upper(), value)
        for value in get_args(KvPrecision):
            self.editors["kv"].addItem(value.upper(), value)
        self.editors["dp"].clear()
        self.editors["dp"].addItem("", False)  # named in retranslate
        self.editors["dp"].addItem("", True)

    def retranslate(self) -> None:
        self.setTitle(t("Type a configuration"))
        for key, label, tip in FIELDS:
            self.labels[key].setText(t(label))
            self.editors[key].setToolTip(t(tip))
        self.editors["weights"].setItemText(0, t("The model's own format"))
        self.editors["kv"].setItemText(0, t("The engine's default"))
        self.editors["dp"].setItemText(0, t("Off"))
        self.editors["dp"].setItemText(1, t("On"))
        self.apply_button.setText(t("Apply configuration"))
        self.apply_button.setToolTip(t("Size this configuration (one step to undo)"))

    # --- showing ---------------------------------------------------------------------------
    def show_result(self, r: SizingResult) -> None:
        """The chosen configuration in the form; the problems of the last sizing are gone."""
        c = r.selection.chosen
        self.put({"gpu": c.gpu, "count": c.gpus_per_replica, "tensor": c.tensor_parallel,
                  "pipeline": c.pipeline_parallel, "weights": c.precision,
                  "kv": c.kv_precision, "experts": c.expert_parallel or 1,
                  "dp": bool(c.dp_attention)})
        self.show_problems([])

    def show_scenario(self, scenario: Scenario) -> None:
        """What the scenario states (formats it leaves to the defaults stay as shown)."""
        hardware = scenario.hardware
        if hardware is not None:
            self.put({"gpu": hardware.gpu, "count": hardware.gpus_per_replica,
                      "tensor": hardware.tensor_parallel,
                      "pipeline": hardware.pipeline_parallel,
                      "experts": hardware.expert_parallel, "dp": hardware.dp_attention})

    def put(self, values: dict[str, Any]) -> None:
        for key, value in values.items():
            editor = self.editors[key]
            editor.blockSignals(True)
            if isinstance(editor, SpinBox):
                editor.setValue(int(value))
            else:
                editor.setCurrentIndex(max(editor.findData(value), 0))
            editor.blockSignals(False)

    def follow_degrees(self) -> None:
        """GPUs per replica follows tensor x pipeline parallel while the user changes them."""
        self.editors["count"].setValue(min(self.product(), self.editors["count"].maximum()))

    def product(self) -> int:
        return self.editors["tensor"].value() * self.editors["pipeline"].value()

    def show_problems(self, problems: list[Message]) -> None:
        """Each problem under its field; those about no field of the form under the form."""
        shown: dict[str, list[str]] = {key: [] for key in self.editors}
        general = []
        for problem in problems:
            key = field_of(problem)
            text = problem.at_the_field(language()) if isinstance(problem, Problem) \
                else render(problem)
            (shown[key] if key else general).append(text)
        for key, label in self.messages.items():
            label.setText("\n".join(shown[key]))
            label.setVisible(bool(shown[key]))
        self.general.setText("\n".join(general))
        self.general.setVisible(bool(general))

    # --- the edit --------------------------------------------------------------------------
    def local_problem(self) -> str:
        count, tensor, pipeline = (self.editors[k].value() for k in ("count", "tensor",
                                                                      "pipeline"))
        if count == tensor * pipeline:
            return ""
        return t("GPUs per replica must equal tensor parallel x pipeline parallel "
                 "({tensor} x {pipeline} = {product}), not {count}.", tensor=tensor,
                 pipeline=pipeline, product=tensor * pipeline, count=count)

    def changes(self) -> dict[str, Any]:
        hardware = {"gpu": self.editors["gpu"].currentData(),
                    "gpus_per_replica": self.editors["count"].value(),
                    "tensor_parallel": self.editors["tensor"].value(),
                    "pipeline_parallel": self.editors["pipeline"].value(),
                    "expert_parallel": self.editors["experts"].value(),
                    "dp_attention": bool(self.editors["dp"].currentData())}
        return {"hardware": hardware, "precision.weights": self.editors["weights"].currentData(),
                "precision.kv_cache": self.editors["kv"].currentData()}

    def apply(self) -> list[str]:
        """Send the form as one edit; a refusal is shown at its fields."""
        problem = self.local_problem()
        if problem:
            self.show_problems([])
            self.messages["count"].setText(problem)
            self.messages["count"].setVisible(True)
            return [problem]
        changes = self.changes()
        gpu = self.editors["gpu"].currentText()
        problems = self.controller.edit_many(changes, t(
            "Use {n} x {gpu}", n=changes["hardware"]["gpus_per_replica"], gpu=gpu))
        self.show_problems(self.controller.refusal if problems else [])
        return problems
