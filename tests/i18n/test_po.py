"""app/i18n/po.py: reading, writing, checking and compiling gettext catalogs.

GNU gettext is the reference where it is installed: the layout is msgcat's
(``--no-wrap --add-location=file``) and the compiled catalog is msgfmt's.
"""

from __future__ import annotations

import gettext
import io
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.i18n import po

HEADER = ('msgid ""\nmsgstr ""\n"Project-Id-Version: AI Sizer\\n"\n"Language: de\\n"\n'
          '"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
          '"Content-Transfer-Encoding: 8bit\\n"\n'
          '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n')
SAMPLE = HEADER + '''
# a translator's note
#. an extractor's note
#: app/ui/pages/redundancy.py app/ui/pages/requirements.py
msgctxt "redundancy"
msgid "None"
msgstr "Keine"

#: app/engine/narrative.py app/report/sections.py app/ui/pages/redundancy.py
#: app/ui/summary_panel.py
#, python-brace-format
msgid "{n:,} replica"
msgid_plural "{n:,} replicas"
msgstr[0] "{n:,} Replikat"
msgstr[1] "{n:,} Replikate"

msgid ""
"Replicas\\n"
"needed"
msgstr ""
"Benötigte\\n"
"Replikate"

msgid "A \\"quoted\\" word, a back\\\\slash and a tab\\t"
msgstr "Ein \\"zitiertes\\" Wort, ein Rück\\\\strich und ein Tab\\t"

#, fuzzy
#| msgid "Old English"
msgid "New English"
msgstr "Altes Deutsch"

msgid "Not yet"
msgstr ""

#~ msgid "Gone"
#~ msgstr "Weg"
'''


def catalog(text: str = SAMPLE) -> po.Catalog:
    return po.parse(text, "sample.po")


def test_a_catalog_reads_and_writes_back_unchanged():
    read = catalog()
    assert po.dumps(read) == SAMPLE
    none, replica, replicas_needed, quoted, fuzzy, empty, gone = read.entries
    assert (none.msgctxt, none.msgid, none.msgstr) == ("redundancy", "None", "Keine")
    assert none.comments == ["a translator's note"] and none.extracted == ["an extractor's note"]
    assert none.locations == ["app/ui/pages/redundancy.py", "app/ui/pages/requirements.py"]
    assert replica.msgid_plural == "{n:,} replicas" and len(replica.locations) == 4
    assert replica.msgstr_plural == ["{n:,} Replikat", "{n:,} Replikate"]
    assert replica.flags == ["python-brace-format"]
    assert replicas_needed.msgid == "Replicas\nneeded"
    assert quoted.msgid == 'A "quoted" word, a back\\slash and a tab\t'
    assert fuzzy.fuzzy and fuzzy.previous == "Old English"
    assert not empty.translated and gone.obsolete
    assert read.plural_forms() == (2, "(n != 1)")
    assert read.header_fields()["Language"] == "de"


@pytest.mark.skipif(shutil.which("msgcat") is None, reason="GNU gettext not installed")
def test_the_layout_is_msgcats(tmp_path):
    """One line per string, file names wrapped at 79 columns (as GNU does even with
    --no-wrap)."""
    path = tmp_path / "sample.po"
    path.write_text(SAMPLE, encoding="utf-8")
    written = subprocess.run(["msgcat", "--no-wrap", "--add-location=file", str(path)],
                             capture_output=True, text=True, check=True).stdout
    assert written == SAMPLE


@given(st.text(st.characters(exclude_characters="\x00\x04", exclude_categories=("Cs",))))
def test_any_text_survives_writing_and_reading(text):
    written = po.dumps(po.Catalog(entries=[po.Entry(text or "x", text)]))
    assert po.parse(written).entries[0].msgstr == text


@pytest.mark.parametrize(("text", "line", "says"), [
    ('msgid "a\nmsgstr "b"\n', 1, "expected a quoted string"),
    ('msgstr "b"\n', 1, "msgstr twice"),  # a second msgstr for the header
    ('msgid "a"\nmsgid "b"\nmsgstr ""\n', 2, "msgid twice"),
    ('msgid "a"\nmsgid_plural "as"\nmsgstr[1] "x"\n', 3, "out of order"),
    ('msgid "a"\nmsgid_plural "as"\nmsgstr "x"\n', 1, "msgid_plural needs msgstr[0]"),
    ('msgid "a\\q"\nmsgstr ""\n', 1, "unknown escape"),
    ('msgid "a"\n', 1, "entry without msgstr"),
    ('msgid "a"\nmsgstr "b"\nwhat\n', 3, "cannot read"),
])
def test_a_broken_catalog_is_refused_with_its_line(text, line, says):
    with pytest.raises(po.PoError) as caught:
        po.parse(HEADER + "\n" + text, "broken.po")
    assert f"broken.po:{line + HEADER.count(chr(10)) + 1}" in str(caught.value)
    assert says in str(caught.value)


def test_the_checks_find_what_msgfmt_check_finds():
    text = HEADER + '''
msgid "{users:,} users"
msgstr "{nutzer:,} Nutzer"

msgid "{share:.0%} of the load"
msgstr "{share:.1%} der Last"

msgid "one {n}"
msgid_plural "{n} many"
msgstr[0] "eins {n}"

msgid "Ends with a newline\\n"
msgstr "Ohne"

msgid "a {brace"
msgstr "eine {Klammer"

msgid "Twice"
msgstr "Zweimal"

msgid "Twice"
msgstr "Noch einmal"
'''
    problems = po.check(catalog(text))
    assert len(problems) == 6, problems
    expected = ["placeholders differ: msgid has {users:,}, msgstr has {nutzer:,}",
                "placeholders differ: msgid has {share:.0%}, msgstr has {share:.1%}",
                "1 plural forms, the header says nplurals=2",
                "must both end with a newline", "the msgid is not a valid format string",
                "duplicate of the entry at line"]
    for problem, says in zip(problems, expected, strict=True):
        assert says in problem


def test_plural_forms_are_checked_against_their_english():
    """German form 0 is the count 1 alone: it matches the singular, form 1 the plural."""
    text = HEADER + '''
msgid "One replica carries the load."
msgid_plural "{n} replicas carry the load."
msgstr[0] "Ein Replikat trägt die Last."
msgstr[1] "{n} Replikate tragen die Last."

msgid "One GPU"
msgid_plural "{n} GPUs"
msgstr[0] "{n} GPU"
msgstr[1] "GPUs"
'''
    problems = po.check(catalog(text))
    assert [p.split(": ", 1)[1] for p in problems] == [
        "placeholders differ: msgid has none, msgstr has {n}",
        "placeholders differ: msgid has {n}, msgstr has none"]


def test_a_header_without_plural_forms_or_charset_is_refused():
    problems = po.check(catalog('msgid ""\nmsgstr "Language: de\\n"\n'))
    assert any("Plural-Forms" in p for p in problems)
    assert any("charset=UTF-8" in p for p in problems)
    assert any("Project-Id-Version" in p for p in problems)
    bad = HEADER.replace("(n != 1)", "(n > 1 ? 2 : 0)")
    assert any("outside 0..1" in p for p in po.check(catalog(bad)))


def test_gaps_are_problems_for_the_tests_but_not_for_the_compiler():
    sample = catalog()
    gaps = po.check(sample)
    assert len(gaps) == 3 and all(("fuzzy" in p) or ("no translation" in p) or
                                  ("obsolete" in p) for p in gaps)
    assert po.check(sample, gaps=False) == []
    assert po.count_gaps(sample) == {"untranslated": 1, "fuzzy": 1, "obsolete": 1}


def test_the_compiled_catalog_is_what_gettext_reads():
    mo = po.mo_bytes(catalog(), po_hash="abc")
    german = gettext.GNUTranslations(io.BytesIO(mo))
    assert german.pgettext("redundancy", "None") == "Keine"
    assert german.gettext("None") == "None"  # no entry without the context
    assert german.ngettext("{n:,} replica", "{n:,} replicas", 1) == "{n:,} Replikat"
    assert german.ngettext("{n:,} replica", "{n:,} replicas", 0) == "{n:,} Replikate"
    assert german.gettext("Replicas\nneeded") == "Benötigte\nReplikate"
    # fuzzy, untranslated and obsolete entries are left out: they read in English
    assert german.gettext("New English") == "New English"
    assert german.gettext("Gone") == "Gone"
    assert german.info()["x-po-sha256"] == "abc"
    assert german.info()["plural-forms"] == "nplurals=2; plural=(n != 1);"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext not installed")
def test_the_compiled_catalog_is_msgfmts(tmp_path):
    source = tmp_path / "sample.po"
    source.write_text(SAMPLE, encoding="utf-8")
    subprocess.run(["msgfmt", "-o", str(tmp_path / "gnu.mo"), str(source)], check=True)
    with (tmp_path / "gnu.mo").open("rb") as handle:
        gnu = gettext.GNUTranslations(handle)
    ours = gettext.GNUTranslations(io.BytesIO(po.mo_bytes(catalog())))
    assert ours._catalog == gnu._catalog


def locale_with(tmp_path: Path, text: str = SAMPLE) -> Path:
    folder = tmp_path / "locale" / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "aisizer.po").write_text(text, encoding="utf-8")
    return tmp_path / "locale"


def test_compile_all_writes_what_is_missing_or_stale_only(tmp_path):
    locale = locale_with(tmp_path)
    source = locale / "de" / "LC_MESSAGES" / "aisizer.po"
    assert not po.is_current(source)
    written = po.compile_all(locale)
    assert list(written) == [po.mo_path(source)]
    assert written[po.mo_path(source)] == {"untranslated": 1, "fuzzy": 1, "obsolete": 1}
    assert po.is_current(source) and po.compile_all(locale) == {}
    source.write_text(SAMPLE.replace("Keine", "Ohne"), encoding="utf-8")
    assert not po.is_current(source)
    assert list(po.compile_all(locale)) == [po.mo_path(source)]


def test_a_broken_catalog_is_not_compiled(tmp_path, capsys):
    locale = locale_with(tmp_path, SAMPLE.replace('"{n:,} Replikate"', '"{m:,} Replikate"'))
    with pytest.raises(po.PoError, match="placeholders differ"):
        po.compile_all(locale)
    assert not (locale / "de" / "LC_MESSAGES" / "aisizer.mo").exists()
    assert po.main(["compile", str(locale)]) == 1
    assert "translations not compiled" in capsys.readouterr().err


def test_the_command_line_compiles_and_checks(tmp_path, capsys):
    locale = locale_with(tmp_path)
    assert po.main(["compile", str(locale)]) == 0
    assert "1 untranslated, 1 fuzzy, 1 obsolete" in capsys.readouterr().out
    assert po.main(["check", str(locale / "de" / "LC_MESSAGES" / "aisizer.po")]) == 1
    assert "fuzzy entry 'New English'" in capsys.readouterr().err
    assert po.main(["what"]) == 2
