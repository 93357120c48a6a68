"""The table of contents numbers the chapters; headings and cross-references follow it."""

from __future__ import annotations

import pytest
from report_helpers import sized

from app.report import toc
from app.report.accuracy import recorded
from app.report.chapters import SECTIONS, WRITERS
from app.report.chapters.cover import cover
from app.report.context import Context


def test_every_chapter_of_the_body_has_one_writer_in_order():
    assert set(WRITERS) == set(toc.BODY)
    assert tuple(WRITERS[chapter] for chapter in toc.BODY) == SECTIONS
    assert toc.CHAPTERS[-1] == "signature"


def test_numbers_follow_the_chapters_shown(worked):
    shown = toc.shown(worked.result)
    assert not {"training", "rag", "cpu", "compared"} & set(shown)
    assert toc.number("accuracy", worked.result) == 11
    assert toc.number("signature", worked.result) == 13
    compared = [("Other", worked.result)]
    assert toc.number("compared", worked.result, compared) == 13
    assert toc.number("signature", worked.result, compared) == 14
    assert toc.number("accuracy", worked.result, compared) == 11  # compared comes last


def test_a_workload_chapter_moves_the_later_ones():
    result = sized("fine-tune-lora").result
    assert toc.number("training", result) == 3
    assert toc.number("accuracy", result) == 12


def test_headings_and_cross_references_use_the_same_numbers(worked):
    ctx = Context(worked.result, "en", 450.0, recorded(), "2026-11-30")
    headings = [f.toc_text for section in SECTIONS for f in section(ctx)
                if getattr(f, "level", None) == 0]
    assert headings[7] == "8 Validation plan" and headings[10] == "11 Calibration accuracy"
    assert [h.split(" ", 1)[0] for h in headings] == [str(n) for n in range(1, 13)]
    texts = " ".join(getattr(f, "text", "") for f in cover(ctx))
    assert "(section 11)" in texts and "(section 8)" in texts


def test_an_unknown_or_absent_chapter_is_named(worked):
    with pytest.raises(ValueError, match="'memroy' is not a chapter of the report"):
        toc.applies("memroy", worked.result)
    with pytest.raises(ValueError, match="chapter 'training' is not shown in this report"):
        toc.number("training", worked.result)
