"""What every chapter of the report is written from: the result, the language, the page width."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.domain.result import SizingResult
from app.report import toc
from app.report.accuracy import Accuracy
from app.report.text import t


@dataclass(frozen=True)
class Signer:
    """What the visible signature block shows about the signer."""

    name: str
    organisation: str
    email: str
    fingerprint: str
    issuer: str
    signing_time: str


@dataclass
class Context:
    result: SizingResult
    lang: str
    width: float
    accuracy: Accuracy
    report_date: str
    signer: Signer | None = None
    parts: int = 0  # subheadings so far: a running count keeps the bookmark names reproducible
    compared: list[tuple[str, SizingResult]] = field(default_factory=list)

    def t(self, template: str, *, msgctxt: str | None = None, **params) -> str:
        return t(self.lang, template, msgctxt=msgctxt, **params)

    def number(self, chapter: str) -> int:
        """The number of ``chapter`` in this report (app.report.toc)."""
        return toc.number(chapter, self.result, self.compared)
