"""2 Memory (being built)."""

from app.ui.pages.base import StepPage


class MemoryPage(StepPage):
    TITLE = "2 Memory"
