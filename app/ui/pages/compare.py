"""Compare (being built)."""

from app.ui.pages.base import StepPage


class ComparePage(StepPage):
    TITLE = "Compare"
