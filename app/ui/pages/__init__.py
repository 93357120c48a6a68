"""The wizard's pages, in the order the navigation shows them.

Each page is named here with its title and its module, which is imported on the page's first
visit (:meth:`Page.load`): the first window shows without importing the charts (pyqtgraph
alone costs about 0.35 s of start-up) or the pages not yet opened.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.ui.pages.base import StepPage


@dataclass(frozen=True)
class Page:
    """A page of the navigation: its English title (translated where shown) and its class."""

    title: str
    module: str
    class_name: str

    def load(self) -> type[StepPage]:
        """The page's class (importing its module on first use)."""
        return getattr(import_module(f"app.ui.pages.{self.module}"), self.class_name)


STEPS = (
    Page("1 Requirements", "requirements", "RequirementsPage"),
    Page("2 Memory", "memory", "MemoryPage"),
    Page("3 GPU selection", "gpu_selection", "GpuSelectionPage"),
    Page("4 Performance", "performance", "PerformancePage"),
    Page("5 Redundancy and scale", "redundancy", "RedundancyPage"),
    Page("Training and workloads", "training", "TrainingPage"),  # shown when the scenario has one
    Page("6 Validation", "validation", "ValidationPage"),
    Page("Infrastructure", "infrastructure", "InfrastructurePage"),
    Page("Report", "report", "ReportPage"),
)
EXTRAS = (
    Page("Compare", "compare", "ComparePage"),
    Page("Assumptions", "assumptions", "AssumptionsPage"),
)
PAGES = STEPS + EXTRAS
TITLES = {page.class_name: page.title for page in PAGES}


def row_of(class_name: str) -> int:
    """The navigation row of the page class named ``class_name``."""
    return [page.class_name for page in PAGES].index(class_name)
