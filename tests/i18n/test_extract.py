"""app/i18n/extract.py: what the extractor takes for a key, and how the template merges."""

from __future__ import annotations

from app.i18n import extract, po
from app.i18n.extract import Key


def scanned(source: str, rel: str = "app/engine/example.py") -> extract.Scan:
    scan = extract.Scan()
    extract.scan_file(rel, source, scan)
    extract.conflicts(scan)
    return scan


def test_literals_followed_names_skipped_variables_and_built_texts():
    scan = scanned(
        "LABEL = 'Module label'\n"
        "def f(x, n):\n"
        "    template = 'Local {n}' if n else 'Other'\n"
        "    t(template, n=n)\n"
        "    t(LABEL)\n"
        "    t(x)\n"
        "    t('Plain')\n"
        "    t(f'Built {n}')\n"
        "    msg('a' + x)\n"
        "    msg('{p}', p='Param' if n else x.text())\n")
    assert {k.msgid for k in scan.keys} == {"Module label", "Local {n}", "Other", "Plain",
                                            "{p}", "Param"}
    assert [p.split(":")[1] for p in scan.problems] == ["8", "9", "10"]


def test_a_plural_is_one_entry_and_a_nested_plural_leaves_a_plain_form():
    scan = scanned(
        "plural(n, msg('{n} replica'), msg('{n} replicas'), n=n)\n"
        "plural(g, msg('{g} GPU in one server'),\n"
        "       plural(s, msg('{g} GPUs in {s} server'), msg('{g} GPUs in {s} servers')))\n")
    assert set(scan.keys) == {Key("{n} replica", plural="{n} replicas"),
                              Key("{g} GPU in one server"),
                              Key("{g} GPUs in {s} server", plural="{g} GPUs in {s} servers")}
    assert scan.problems == []


def test_contexts_are_literals_or_names_and_both_plural_forms_share_one():
    scan = scanned(
        "CONTEXT = 'redundancy'\n"
        "t('None', msgctxt='activation recompute')\n"
        "t('None', msgctxt=CONTEXT)\n"
        "Choice('none', 'None', msgctxt=CONTEXT)\n"
        "plural(n, msg('One GPU', msgctxt='search'), msg('{n} GPUs', msgctxt='search'))\n"
        "plural(n, msg('One', msgctxt='a'), msg('{n}', msgctxt='b'))\n"
        "t('Text', msgctxt=where)\n"
        "t(label, msgctxt=choice.msgctxt)\n", rel="app/ui/example.py")  # passed on: fine
    assert Key("None", "activation recompute") in scan.keys
    assert scan.keys[Key("None", "redundancy")].locations == ["app/ui/example.py:3",
                                                              "app/ui/example.py:4"]
    assert Key("One GPU", "search", "{n} GPUs") in scan.keys
    assert [p.split(": ", 1)[1][:32] for p in scan.problems] == [
        "the two forms of plural() have d", "msgctxt of 'Text' must be a stri"]


def test_a_text_cannot_be_plain_and_the_singular_of_a_plural():
    scan = scanned("t('One GPU')\nplural(n, msg('One GPU'), msg('{n} GPUs'))\n")
    assert len(scan.problems) == 1 and "'One GPU' is used both" in scan.problems[0]


def test_the_report_keys_are_the_second_argument_of_its_helpers():
    scan = scanned("t(lang, 'Contents')\nword(lang, 'yes')\nctx.t('Memory')\n"
                   "tr('Power', lang)\n", rel="app/report/example.py")
    assert {k.msgid for k in scan.keys} == {"Contents", "yes", "Memory", "Power"}


def test_constants_and_extra_keys_carry_a_note_for_translators():
    scan = extract.scan_sources()
    ranking = scan.keys[Key("lowest power draw")]
    assert ranking.notes == ["RANKINGS (app/report/phrases.py)"]
    assert Key("With one node down, one of {replicas:,} replicas still serves the full load "
               "({load:,} needed).", plural="With one node down, {left:,} of {replicas:,} "
               "replicas still serve the full load ({load:,} needed).") in scan.keys
    assert scan.keys[Key("self-signed")].locations == ["app/report/export.py"]


def test_the_template_lists_texts_in_the_order_the_code_first_uses_them():
    scan = scanned("t('First {n}')\nt('Second')\nt('First {n}')\n", rel="app/ui/b.py")
    extract.scan_file("app/ui/a.py", "t('Second')\n", scan)
    pot = extract.template(scan)
    assert [(e.msgid, e.locations, e.flags) for e in pot.entries] == [
        ("First {n}", ["app/ui/b.py"], ["python-brace-format"]),
        ("Second", ["app/ui/b.py", "app/ui/a.py"], [])]


GERMAN = ('msgid ""\nmsgstr ""\n"Project-Id-Version: AI Sizer\\n"\n"Language: de\\n"\n'
          '"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
          '"Content-Transfer-Encoding: 8bit\\n"\n'
          '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
          'msgid "Kept"\nmsgstr "Behalten"\n\n'
          'msgid "The weights do not fit on {gpus} GPUs."\n'
          'msgstr "Die Gewichte passen nicht auf {gpus} GPUs."\n\n'
          'msgid "{n} user"\nmsgstr "{n} Nutzer"\n\n'
          'msgid "Unrelated"\nmsgstr "Ohne Bezug"\n')


def test_merging_keeps_translations_suggests_close_ones_and_drops_the_rest():
    pot = po.Catalog(entries=[
        po.Entry("Kept", locations=["app/ui/a.py"]),
        po.Entry("The weights do not fit on {gpus} x {gpu}.", locations=["app/engine/b.py"]),
        po.Entry("{n} user", msgid_plural="{n} users", locations=["app/ui/c.py"]),
        po.Entry("Brand new", locations=["app/ui/d.py"])])
    merged = extract.merge(po.parse(GERMAN), pot)
    kept, reworded, plural, new = merged.catalog.entries
    assert (kept.msgstr, kept.flags, kept.locations) == ("Behalten", [], ["app/ui/a.py"])
    assert reworded.fuzzy and reworded.previous == "The weights do not fit on {gpus} GPUs."
    assert reworded.msgstr == "Die Gewichte passen nicht auf {gpus} GPUs."
    assert plural.msgstr_plural == ["{n} Nutzer", "{n} Nutzer"]  # was singular only: kept
    assert new.msgstr == "" and not new.fuzzy
    assert merged.added == ["Brand new"] and merged.fuzzy == [reworded.msgid]
    assert merged.dropped == ["The weights do not fit on {gpus} GPUs.", "Unrelated"]
    assert po.check(merged.catalog, gaps=False) == []  # a fuzzy entry is not compiled
    assert len(po.check(merged.catalog)) == 2  # but it, and the new one, are gaps
