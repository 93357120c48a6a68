"""Report polish (issue #14): what a reader noticed on the printed pages.

- the page header never overprints, however long the scenario's and customer's names;
- the PDF's creation date is the sizing's date (not reportlab's invariant 2000-01-01);
- counts read "1 rack" / "2 racks" (gettext plurals), never "rack(s)";
- prose never writes a number with an exponent ("1e+12");
- a column of times is in one unit (ms or s), not both;
- a chart's marker label is not struck through by the target line;
- a heading never stands alone at the foot of a page.
"""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from report_helpers import REPORT_DATE, pages_text
from reportlab.pdfbase.pdfmetrics import stringWidth

from app import api
from app.i18n import msg, tr
from app.report import charts, document
from app.report.export import build_report
from app.report.flowables import Heading
from app.report.style import FONT, register_fonts
from app.report.text import seconds, seconds_band, time_unit

LONG_NAME = ("Compliance-Assistent für die Kreditrisikoprüfung der Sparkassen-Finanzgruppe "
             "(Pilotphase 2027)")
LONG_CUSTOMER = "Landesbank Baden-Württemberg Girozentrale, Abteilung Informationssicherheit"


@pytest.fixture(scope="module")
def long_names_report(catalog) -> bytes:
    data = api.example("worked-example")
    data["name"], data["customer"] = LONG_NAME, LONG_CUSTOMER
    result = api.size(api.load_scenario(data))
    return build_report(data, result, lang="de", catalog=catalog, report_date=REPORT_DATE)


def test_header_texts_never_overlap():
    register_fonts()
    width = 481.0  # A4 between the margins [pt]
    for left, right in [(LONG_NAME, LONG_CUSTOMER), ("Sizing report: x", LONG_CUSTOMER * 2),
                        (LONG_NAME * 3, "Bank"), ("short", "short"), ("a" * 300, "b" * 300)]:
        shown_left, shown_right = document.header_texts(left, right, width)
        used = (stringWidth(shown_left, FONT, document.HEADER_SIZE) + document.HEADER_GAP
                + stringWidth(shown_right, FONT, document.HEADER_SIZE))
        assert used <= width, (shown_left, shown_right)
        assert shown_left and shown_right
    assert document.header_texts("short", "Bank", width) == ("short", "Bank")


def test_long_german_names_are_shortened_in_the_header(long_names_report):
    second = pages_text(long_names_report)[1]
    header = second.splitlines()[0] if second else ""
    assert "…" in second
    assert LONG_NAME not in header


def test_creation_date_is_the_sizing_date(report_en, long_names_report):
    for pdf in (report_en, long_names_report):
        info = PdfReader(io.BytesIO(pdf)).metadata
        assert info["/CreationDate"].startswith("D:20261130")


def test_creation_date_follows_source_date_epoch(worked, catalog, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01 00:00 UTC
    pdf = build_report(worked.scenario, worked.result, catalog=catalog)
    assert PdfReader(io.BytesIO(pdf)).metadata["/CreationDate"].startswith("D:20260101")


def test_no_optional_plural_in_the_report(report_en, report_de):
    for text in (*pages_text(report_en), *pages_text(report_de)):
        assert not re.search(r"\w\((s|e|n)\)", text), re.findall(r".{30}\w\((?:s|e|n)\).{10}",
                                                                 text)


def test_counts_in_singular_and_plural():
    from app.i18n import plural

    for lang, one, many in (("en", "1 rack", "3 racks"), ("de", "1 Rack", "3 Racks")):
        assert plural(1, msg("{racks} rack"), msg("{racks} racks"), racks=1).text(lang) == one
        assert plural(3, msg("{racks} rack"), msg("{racks} racks"), racks=3).text(lang) == many


def test_prose_has_no_exponent():
    assert tr("{x:g} h", "en", x=1e12) == "1,000,000,000,000 h"
    assert tr("{x:g} h", "de", x=1e12) == "1.000.000.000.000 h"
    assert msg("window {w:g} h", w=1e-6).text("en") == "window 0.000001 h"
    assert tr("{x:g} h", "en", x=24.0) == "24 h"  # unchanged where no exponent appears
    from app.report.text import num

    assert num(2.5e13, "g", "en") == "25,000,000,000,000"


def test_a_column_of_times_keeps_one_unit():
    assert time_unit([0.05, 0.08]) == "ms" and time_unit([0.05, 1.4]) == "s"
    column = [seconds(v, "en", time_unit([0.05, 1.4])) for v in (0.05, 1.4)]
    assert column == ["0.05 s", "1.40 s"]
    assert seconds(0.05, "en") == "50.0 ms"  # alone, the unit follows the value
    assert seconds_band(0.05, 0.04, 0.06, "en", "s") == "0.05 s (0.04–0.06 s)"


def test_marker_label_is_not_struck_by_a_target_line():
    register_fonts()
    plot = charts.Plot(450, 200, (0, 50), (0, 34.5))
    plot.hline(32, charts.BAD, charts.TARGET_DASH)  # a target just under the top
    top = plot.bottom + plot.inner_height
    base = plot.label_height(top)
    line = plot.py(32)
    assert not base - 2 <= line <= base + plot.LABEL_SIZE  # the glyphs do not meet the line
    free = charts.Plot(450, 200, (0, 50), (0, 34.5))
    assert free.label_height(top) == top - 9  # no line: the label stays at the top


def test_heading_moves_on_rather_than_stand_alone():
    register_fonts()
    heading = Heading("Sources", 1, "part-1")
    _, height = heading.wrap(400, 1000)
    assert height < 40
    _, near_foot = heading.wrap(400, height + 10)
    assert near_foot > height + 10  # reported too tall: the frame asks it to split ...
    assert heading.split(400, height + 10) == []  # ... and it moves to the next page
    _, room = heading.wrap(400, height + Heading.FOLLOW + 1)
    assert room == height
