"""The report's table of contents: its chapters in order, and when each is shown.

Chapter numbers come from here alone: a chapter's heading and bookmark, the contents page and
every cross-reference ("section 11") take the chapter's place among the chapters this report
shows (:func:`number`). The workload chapters (training, RAG, CPU) appear only when the result
has them, "measured" (predicted against measured) only when it holds imported measurements,
the compared options only when options were pinned; compared options come last
before the signature, so they never shift the numbers other chapters refer to.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.domain.result import SizingResult

CHAPTERS = ("summary", "requirements", "training", "memory", "selection", "performance",
            "scale", "infrastructure", "rag", "cpu", "validation", "measured", "stack",
            "assumptions", "accuracy", "glossary", "compared", "signature")
# The body of the report: every chapter but the signature, which closes it (app.report.document).
BODY = CHAPTERS[:-1]
WORKLOADS = ("training", "rag", "cpu")  # shown when the result has the section of that name


def applies(chapter: str, result: SizingResult, compared: Sequence = ()) -> bool:
    """Whether ``chapter`` appears in the report of ``result`` (with ``compared`` options)."""
    if chapter not in CHAPTERS:
        raise ValueError(f"'{chapter}' is not a chapter of the report; chapters: "
                         f"{', '.join(CHAPTERS)}")
    if chapter in WORKLOADS:
        return getattr(result, chapter) is not None
    if chapter == "compared":
        return bool(compared)
    if chapter == "measured":
        return result.validation is not None
    return True


def shown(result: SizingResult, compared: Sequence = ()) -> list[str]:
    """The chapters of the report of ``result``, in order."""
    return [chapter for chapter in CHAPTERS if applies(chapter, result, compared)]


def number(chapter: str, result: SizingResult, compared: Sequence = ()) -> int:
    """The number ``chapter`` has in the report of ``result`` (1 for the first shown)."""
    chapters = shown(result, compared)
    if chapter not in chapters:
        raise ValueError(f"chapter '{chapter}' is not shown in this report, so it has no "
                         "number")
    return chapters.index(chapter) + 1
