"""4 Performance (being built)."""

from app.ui.pages.base import StepPage


class PerformancePage(StepPage):
    TITLE = "4 Performance"
