"""Loading a language: the compiled catalog, never a silent fall-back to English; and the
messages that render through it (contexts, plural forms, the JSON they keep)."""

from __future__ import annotations

import warnings

import pytest

from app.i18n import Message, msg, plural, po, tr, translate, translations
from app.i18n.translations import StaleTranslations, TranslationsMissing

CATALOG = '''msgid ""
msgstr ""
"Project-Id-Version: AI Sizer\\n"
"Language: de\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "Weights"
msgstr "Gewichte"
'''


@pytest.fixture
def locale(tmp_path):
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "aisizer.po").write_text(CATALOG, encoding="utf-8")
    return tmp_path


def test_a_missing_compiled_catalog_is_compiled_in_memory_and_said(locale):
    with pytest.warns(StaleTranslations, match="aisizer.mo is missing; using .*aisizer.po"):
        german = translations.load("de", locale)
    assert german.gettext("Weights") == "Gewichte"


def test_a_current_compiled_catalog_loads_quietly(locale):
    po.compile_all(locale)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert translations.load("de", locale).gettext("Weights") == "Gewichte"


def test_a_stale_compiled_catalog_is_not_used(locale):
    po.compile_all(locale)
    source = locale / "de" / "LC_MESSAGES" / "aisizer.po"
    source.write_text(CATALOG.replace("Gewichte", "Die Gewichte"), encoding="utf-8")
    with pytest.warns(StaleTranslations, match="out of date"):
        german = translations.load("de", locale)
    assert german.gettext("Weights") == "Die Gewichte"


def test_a_compiled_catalog_without_its_source_is_used(locale):
    """The bundle ships the .mo alone."""
    po.compile_all(locale)
    (locale / "de" / "LC_MESSAGES" / "aisizer.po").unlink()
    assert translations.load("de", locale).gettext("Weights") == "Gewichte"


def test_no_catalog_at_all_is_an_error_naming_the_file(tmp_path):
    with pytest.raises(TranslationsMissing, match=r"'de' are missing: .*aisizer\.mo"):
        translations.load("de", tmp_path)


def test_a_damaged_compiled_catalog_is_an_error(locale):
    (locale / "de" / "LC_MESSAGES" / "aisizer.mo").write_bytes(b"not a catalog")
    (locale / "de" / "LC_MESSAGES" / "aisizer.po").unlink()
    with pytest.raises(TranslationsMissing, match="cannot be read"):
        translations.load("de", locale)


def test_the_programs_german_comes_from_its_compiled_catalog():
    german = translations.catalog("de")
    assert german.info()["language"] == "de"
    source, _ = translations.catalog_files("de")
    assert german.info()["x-po-sha256"] == po.source_hash(source.read_bytes())
    assert isinstance(translations.catalog("en"), translations.gettext.NullTranslations)


def test_the_empty_text_is_not_the_catalogs_header():
    assert translate("", "de") == "" and tr("{x}", "de", x="") == ""


def test_a_context_chooses_the_entry():
    search = "the GPUs the search considers"
    assert plural(1, msg("One GPU", msgctxt=search), msg("{n} GPUs", msgctxt=search),
                  n=1).text("de") == "Eine GPU"
    assert translate("One GPU", "de") == "Eine GPU"  # the memory column's entry
    assert translate("One GPU", "de", msgctxt="no such context") == "One GPU"
    # gettext finds the singular of a plural entry as a plain text too
    assert tr("One GPU", "de", msgctxt=search) == "Eine GPU"


def test_plural_uses_the_languages_forms_and_keeps_its_json():
    def replicas(n: int) -> Message:
        return plural(n, msg("{n} replica"), msg("{n} replicas"), n=n)

    assert [replicas(n).text("de") for n in (0, 1, 2)] == ["0 Replikate", "1 Replikat",
                                                            "2 Replikate"]
    assert replicas(1).forms == ("{n} replica", "{n} replicas") and replicas(1).count == 1
    assert replicas(2).model_dump(mode="json") == {"template": "{n} replicas",
                                                   "params": {"n": 2}}
    assert msg("Weights", msgctxt="x").model_dump_json() == '{"template":"Weights","params":{}}'


def test_a_sentence_with_two_counts_keeps_the_inner_plural():
    def hardware(gpus: int, nodes: int) -> Message:
        return plural(gpus, msg("{gpus} GPU in {nodes} server, {racks}"),
                      plural(nodes, msg("{gpus} GPUs in {nodes} server, {racks}"),
                             msg("{gpus} GPUs in {nodes} servers, {racks}")),
                      gpus=gpus, nodes=nodes, racks="1 rack")

    assert hardware(1, 1).forms is None  # the singular of the outer count is a plain entry
    assert hardware(8, 2).forms == ("{gpus} GPUs in {nodes} server, {racks}",
                                    "{gpus} GPUs in {nodes} servers, {racks}")
    assert hardware(8, 1).count == 1 and hardware(8, 2).count == 2
    assert hardware(8, 2).text("de") != hardware(8, 2).text("en")
