"""Texts of the report: German for every English template; accuracy figures and their source.

The German check reads the report's source code: every literal template passed to the
translation helpers (``ctx.t("...")``, ``t(lang, "...")``) and every entry of the report's
tables of words must have a German text in the German catalog (app/i18n/locale/de/
LC_MESSAGES/aisizer.po); tests/test_translations.py checks the catalog as a whole.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from app import paths
from app.i18n import po
from app.i18n.translations import catalog_files
from app.report import accuracy
from app.report.chapters.assumptions import FORMULAS
from app.report.chapters.glossary import GLOSSARY
from app.report.chapters.infrastructure import COOLING
from app.report.chapters.measured import FIGURES
from app.report.chapters.validation import LEVEL_NAMES
from app.report.phrases import RANKINGS

GERMAN = po.read(catalog_files("de")[0])
TRANSLATED = {e.msgid: e.msgstr for e in GERMAN.entries
              if e.translated and e.msgid_plural is None}
REPORT_SOURCES = sorted((paths.root() / "app" / "report").rglob("*.py"))
SAME_IN_GERMAN = {"TTFT", "PUE", "BTU/h", "GB / GiB", "PAdES B-B", "N+1 / 2N", "ITL / TPOT",
                  "docs/METHOD.md", "GPU", "GPUs", "Hardware", "Racks", "Prefill",
                  "Organisation", "TTFT [s]", "GPUs (t x p)", "Serving:",
                  "AI Sizer {version} · {date}"}


def literal_templates(source: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        args = node.args
        if isinstance(func, ast.Attribute) and func.attr == "t" and args:
            candidate = args[0]
        elif isinstance(func, ast.Name) and func.id == "t" and len(args) >= 2:
            candidate = args[1]
        else:
            continue
        if isinstance(candidate, ast.Constant) and isinstance(candidate.value, str):
            found.add(candidate.value)
    return found


def table_words() -> set[str]:
    words = set(RANKINGS.values()) | set(COOLING.values())
    words |= {term for term, _ in GLOSSARY}
    words |= {definition for _, definition in GLOSSARY}
    words |= {name for name, _, _ in FORMULAS} | {where for _, _, where in FORMULAS}
    words |= set(accuracy.RECORDED) | {"one user", "scenario load", "saturation"}
    words |= set(LEVEL_NAMES.values()) | {label for label, _, _ in FIGURES.values()}
    return words


def test_every_report_template_has_a_german_text():
    templates = set().union(*(literal_templates(path) for path in REPORT_SOURCES))
    assert len(templates) > 150
    missing = sorted(text for text in templates | table_words()
                     if text not in TRANSLATED and text not in SAME_IN_GERMAN)
    assert missing == []


def test_german_texts_keep_their_placeholders():
    field = re.compile(r"\{([a-z_]+)[^}]*\}")
    for english, german in TRANSLATED.items():
        assert set(field.findall(english)) == set(field.findall(german)), english


def test_recorded_accuracy_matches_docs_method():
    method = (paths.root() / accuracy.METHOD_FILE).read_text(encoding="utf-8")
    table = method.split("Residual errors after the fit", 1)[1]
    for group, (cases, median, p90, worst) in accuracy.RECORDED.items():
        row = f"| {group} | {cases} | {median * 100:.1f} % | {p90 * 100:.1f} % | {worst:.2f} |"
        assert row in table, row


def test_the_calibration_cases_ship_with_the_program_not_with_the_tests():
    """A report from an installed or frozen program states what one from a checkout states:
    the cases are found through app.paths under resources/, never under tests/."""
    path = accuracy.cases_path()
    assert path == paths.calibration_cases() and path.is_file()
    assert path.is_relative_to(paths.resources_dir())
    assert accuracy.CASES_FILE.as_posix() == path.relative_to(paths.root()).as_posix()
    assert not (paths.root() / "tests" / "validation" / "calibration_cases.json").exists()


def test_accuracy_is_computed_from_the_cases_when_they_ship(catalog):
    computed = accuracy.accuracy(catalog)
    assert computed.computed and computed.cases > 50
    assert set(computed.rows) == set(accuracy.RECORDED)
    for group, (_, median, _, _) in computed.rows.items():
        assert 0 < median < 0.3, group
    assert not accuracy.accuracy(None).computed
