"""3 GPU selection (being built)."""

from app.ui.pages.base import StepPage


class GpuSelectionPage(StepPage):
    TITLE = "3 GPU selection"
