"""Report (being built)."""

from app.ui.pages.base import StepPage


class ReportPage(StepPage):
    TITLE = "Report"
