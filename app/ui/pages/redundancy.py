"""5 Redundancy and scale (being built)."""

from app.ui.pages.base import StepPage


class RedundancyPage(StepPage):
    TITLE = "5 Redundancy and scale"
