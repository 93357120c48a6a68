"""1 Requirements (being built)."""

from app.ui.pages.base import StepPage


class RequirementsPage(StepPage):
    TITLE = "1 Requirements"
