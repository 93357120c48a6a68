"""Infrastructure (being built)."""

from app.ui.pages.base import StepPage


class InfrastructurePage(StepPage):
    TITLE = "Infrastructure"
