"""What every step page shares: the controller, live redraws, retranslation."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from app.domain.result import SizingResult
from app.domain.scenario import Scenario
from app.ui.controller import Controller
from app.ui.pages import TITLES
from app.ui.text import t


class StepPage(QWidget):
    """A page of the wizard.

    The title is the page's entry in ``app.ui.pages`` (English, translated through ``t``).
    Subclasses set ``HELP`` (English too), build their widgets in
    ``build()``, and fill them in ``show_scenario`` / ``show_result`` / ``retranslate``. They
    never compute a number: they read the result and send edits to the controller.
    """

    HELP = ""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.heading = QLabel()
        self.heading.setObjectName("pageHeading")
        self.intro = QLabel(wordWrap=True)
        self.intro.setObjectName("pageIntro")
        self.layout_ = QVBoxLayout(self)
        self.layout_.addWidget(self.heading)
        self.layout_.addWidget(self.intro)
        self.build()
        controller.scenario_changed.connect(self.show_scenario)
        self.stale = False
        controller.result_changed.connect(self.result_arrived)
        controller.levers_changed.connect(self.levers_arrived)
        controller.language_changed.connect(lambda _lang: self.retranslate_all())
        controller.catalog_changed.connect(self.show_catalog)
        controller.scenario_loaded.connect(self.start_clean)
        self.retranslate_all()
        self.show_scenario(controller.scenario)
        if controller.result is not None:
            self.show_result(controller.result)

    def result_arrived(self, result: SizingResult) -> None:
        """Redraw now if the page can be seen; a hidden page in the window redraws when shown.

        Only the visible step pays for a redraw after each edit (a page without a parent, as in
        tests and dialogs, always redraws).
        """
        if self.left_for_later():
            return
        self.stale = False
        self.show_result(result)

    def levers_arrived(self, result: SizingResult) -> None:
        """The levers of the result shown: redraw them now if the page can be seen."""
        if not self.left_for_later():
            self.show_levers(result)

    def left_for_later(self) -> bool:
        """True (and the page marked stale) when it is hidden in the window."""
        hidden = self.parentWidget() is not None and not self.isVisible()
        self.stale = self.stale or hidden
        return hidden

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        if self.stale and self.controller.result is not None:
            self.stale = False
            self.show_result(self.controller.result)

    def title(self) -> str:
        return t(TITLES[type(self).__name__])

    def retranslate_all(self) -> None:
        self.heading.setText(f"<h2>{self.title()}</h2>")
        self.intro.setText(t(self.HELP) if self.HELP else "")
        self.intro.setVisible(bool(self.HELP))
        self.retranslate()
        if self.controller.result is not None:
            self.show_result(self.controller.result)

    def start_clean(self) -> None:
        """New or Open: the page's own state (searches, filters, scroll position) belongs to
        the scenario before; subclasses clear theirs and call this."""
        scroll = self.parentWidget().parentWidget() if self.parentWidget() else None
        if isinstance(scroll, QScrollArea):
            scroll.verticalScrollBar().setValue(0)

    # --- for subclasses -------------------------------------------------------------------
    def build(self) -> None:
        """Create the page's widgets (once)."""

    def retranslate(self) -> None:
        """Set every label, tooltip and header in the current language."""

    def show_scenario(self, scenario: Scenario) -> None:
        """Show the scenario's inputs (without sending edits back)."""

    def show_catalog(self, catalog) -> None:
        """The catalog changed (an entry added or edited): list its entries again."""

    def show_result(self, result: SizingResult) -> None:
        """Redraw from the new result (its levers may still be coming:
        ``controller.levers_pending``)."""

    def show_levers(self, result: SizingResult) -> None:
        """Redraw what shows the result's levers, which arrive after the rest."""
