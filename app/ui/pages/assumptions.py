"""Assumptions (being built)."""

from app.ui.pages.base import StepPage


class AssumptionsPage(StepPage):
    TITLE = "Assumptions"
