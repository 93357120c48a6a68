"""The chapters of the report as reportlab flowables, from the result alone; one module each.

Each ``section_*`` function takes a :class:`~app.report.context.Context` and returns its
flowables, starting with its numbered heading (an absent workload chapter returns none). The
order and the numbers come from the table of contents, :mod:`app.report.toc`; chapters refer
to each other by its names (``ctx.number("accuracy")``), never by importing each other.
Nothing here computes a sizing figure: numbers come from the SizingResult (and the band it
defines); the first-order facility figures are labelled as such, and what the infrastructure
feature will add is said, not invented. Building blocks are in :mod:`app.report.flowables`,
phrases several chapters share in :mod:`app.report.phrases`.
"""

from __future__ import annotations

from collections.abc import Callable

from reportlab.platypus import Flowable

from app.report import toc
from app.report.chapters.accuracy import section_accuracy
from app.report.chapters.assumptions import section_assumptions
from app.report.chapters.compared import section_compared
from app.report.chapters.cpu import section_cpu
from app.report.chapters.glossary import section_glossary
from app.report.chapters.infrastructure import section_infrastructure
from app.report.chapters.measured import section_measured
from app.report.chapters.memory import section_memory
from app.report.chapters.performance import section_performance
from app.report.chapters.rag import section_rag
from app.report.chapters.requirements import section_requirements
from app.report.chapters.scale import section_scale
from app.report.chapters.selection import section_selection
from app.report.chapters.stack import section_stack
from app.report.chapters.summary import section_summary
from app.report.chapters.training import section_training
from app.report.chapters.validation import section_validation
from app.report.context import Context

Section = Callable[[Context], list[Flowable]]

# Each chapter of the body by its name in the table of contents (the signature, which closes
# the report with the signature block, is app.report.chapters.signature).
WRITERS: dict[str, Section] = {
    "summary": section_summary,
    "requirements": section_requirements,
    "training": section_training,
    "memory": section_memory,
    "selection": section_selection,
    "performance": section_performance,
    "scale": section_scale,
    "infrastructure": section_infrastructure,
    "rag": section_rag,
    "cpu": section_cpu,
    "validation": section_validation,
    "measured": section_measured,
    "stack": section_stack,
    "assumptions": section_assumptions,
    "accuracy": section_accuracy,
    "glossary": section_glossary,
    "compared": section_compared,
}
# The body in the order of the table of contents.
SECTIONS: tuple[Section, ...] = tuple(WRITERS[chapter] for chapter in toc.BODY)
