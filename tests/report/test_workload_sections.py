"""The report's sections for training, retrieval (RAG) and CPU inference, in both languages."""

from __future__ import annotations

import pytest
from report_helpers import REPORT_DATE, pages_text, sized

from app.report import charts, toc
from app.report.export import build_report

HEADINGS = {
    "fine-tune-lora": ("3 Training", "3 Training"),
    "pretrain": ("3 Training", "3 Training"),
    "rag-assistant": ("8 Retrieval (RAG)", "8 Retrieval (RAG)"),
    "cpu-small-model": ("8 CPU inference", "8 Inferenz auf CPUs"),
}
LAST = {"en": "14 Signature", "de": "14 Signatur"}
ABSENT = ("Training", "Retrieval (RAG)", "CPU inference", "Inferenz auf CPUs")


@pytest.fixture(scope="module")
def cases():
    """Each example sized once for this module."""
    return {name: sized(name) for name in HEADINGS}


@pytest.fixture(scope="module")
def report_pages(cases, catalog):
    """The report's page texts per (example, language), each built once for this module."""
    built: dict[tuple[str, str], list[str]] = {}

    def pages(name: str, lang: str) -> list[str]:
        if (name, lang) not in built:
            case = cases[name]
            built[name, lang] = pages_text(build_report(case.scenario, case.result, lang=lang,
                                                        catalog=catalog,
                                                        report_date=REPORT_DATE))
        return list(built[name, lang])

    return pages


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", sorted(HEADINGS))
def test_section_heading_in_contents_and_body(report_pages, name, lang):
    pages = report_pages(name, lang)
    heading = HEADINGS[name][0 if lang == "en" else 1]
    assert heading in pages[1]
    assert any(heading in page for page in pages[2:])
    # one workload section more: the numbering stays continuous up to the signature
    assert LAST[lang] in pages[1]


def test_training_figures_in_the_report(cases, report_pages):
    tr = cases["pretrain"].result.training
    text = "\n".join(report_pages("pretrain", "en"))
    assert "Memory per GPU" in text and "Optimizer states" in text
    assert f"chosen: {tr.gpus_total:,} GPUs" in text
    assert "Figure: time to train against the number of GPUs." in text
    assert "Checkpoints and storage" in text


def test_cross_references_follow_the_sections_shown(report_en):
    pages = pages_text(report_en)
    # the worked example has no workload section: section numbers as before
    assert "(section 11)" in " ".join(pages[0].split())
    for heading in ABSENT:
        assert f" {heading}\n" not in pages[1]


def test_charts_without_training_say_so(worked):
    for chart in (charts.training_memory_chart, charts.time_to_train_chart):
        drawing = chart(worked.result, 400, "en")
        assert drawing.height == 24
    assert not toc.applies("training", worked.result)
