"""The wizard's pages, in the order the navigation shows them."""

from app.ui.pages.assumptions import AssumptionsPage
from app.ui.pages.compare import ComparePage
from app.ui.pages.gpu_selection import GpuSelectionPage
from app.ui.pages.infrastructure import InfrastructurePage
from app.ui.pages.memory import MemoryPage
from app.ui.pages.performance import PerformancePage
from app.ui.pages.redundancy import RedundancyPage
from app.ui.pages.report import ReportPage
from app.ui.pages.requirements import RequirementsPage
from app.ui.pages.training import TrainingPage

STEPS = (RequirementsPage, MemoryPage, GpuSelectionPage, PerformancePage, RedundancyPage,
         TrainingPage, InfrastructurePage, ReportPage)
EXTRAS = (ComparePage, AssumptionsPage)
PAGES = STEPS + EXTRAS
