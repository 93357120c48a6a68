"""Zoom for the drawings (rack elevation, topology): the wheel, buttons and a readable fit.

A drawing opens fitted to the view's width, but never smaller than ``READABLE_SCALE``: below
it the labels are too small to read, so a wide drawing then scrolls sideways instead. "Fit"
shows the whole drawing at any size, "100 %" its natural size.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPainter, QWheelEvent
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QHBoxLayout, QPushButton, QWidget

from app.ui.text import t

READABLE_SCALE = 0.65  # smallest scale the opening fit uses: 13 px text stays 8.5 px [-]
STEP = 1.25  # one zoom step (a button or a notch of the wheel) [-]
MIN_SCALE, MAX_SCALE = 0.05, 4.0


class ZoomableView(QGraphicsView):
    """A graphics view that zooms with the wheel and the buttons of :func:`zoom_buttons`."""

    def zoom_by(self, factor: float) -> None:
        scale = self.transform().m11() * factor
        if MIN_SCALE <= scale <= MAX_SCALE:
            self.scale(factor, factor)

    def zoom_in(self) -> None:
        self.zoom_by(STEP)

    def zoom_out(self) -> None:
        self.zoom_by(1 / STEP)

    def actual_size(self) -> None:
        self.resetTransform()

    def fit_all(self) -> None:
        """The whole drawing in the view, however small its labels become."""
        self.fitInView(self.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def fit(self) -> None:
        """The whole drawing in the view where that keeps its labels readable, else at
        ``READABLE_SCALE`` (scroll for the rest), never above its natural size; scrolled to
        its top left."""
        rect = self.sceneRect()
        fits = min((self.viewport().width() - 4) / max(rect.width(), 1),
                   (self.viewport().height() - 4) / max(rect.height(), 1))
        scale = min(max(fits, READABLE_SCALE), 1.0)
        self.resetTransform()
        self.scale(scale, scale)
        self.ensureVisible(rect.left(), rect.top(), 1, 1, 0, 0)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt API)
        self.zoom_by(STEP if event.angleDelta().y() > 0 else 1 / STEP)


def button_texts() -> dict[str, str]:
    """Each zoom button's method and its text in the window's language."""
    return {"zoom_in": t("Zoom in"), "zoom_out": t("Zoom out"),
            "fit_all": t("Fit", msgctxt="zoom"), "actual_size": t("100 %")}


class ZoomButtons(QWidget):
    """Zoom in, zoom out, fit and 100 % for one view, in a row."""

    def __init__(self, view: ZoomableView, parent: QWidget | None = None):
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.buttons: dict[str, QPushButton] = {}
        for method in button_texts():
            button = self.buttons[method] = QPushButton()
            button.clicked.connect(getattr(view, method))
            row.addWidget(button)
        self.retranslate()

    def retranslate(self) -> None:
        for method, text in button_texts().items():
            self.buttons[method].setText(text)


def save_png(scene: QGraphicsScene, paper: QColor, path: Path, scale: float = 2.0) -> None:
    """The whole drawing as a PNG on ``paper``, ``scale`` pixels per scene unit."""
    rect = scene.sceneRect()
    image = QImage((rect.size() * scale).toSize(), QImage.Format.Format_ARGB32)
    image.fill(paper)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    scene.render(painter)
    painter.end()
    image.save(str(path))
