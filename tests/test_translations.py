"""The German translation stays complete, valid and compiled.

The template is extracted from the source (``app/i18n/extract.py`` says what counts as a key:
literals passed to ``t``/``msg``/``tr``/``translate``, plural forms, field labels, constants
translated indirectly...). The German catalog is ``app/i18n/locale/de/LC_MESSAGES/aisizer.po``,
compiled to ``aisizer.mo`` beside it. Checked here:

- every key of the template (its context, msgid and plural) has a translated German entry,
  and the catalog has no entry the template lacks, no obsolete (``#~``) and no fuzzy entries;
- what ``msgfmt --check`` checks: the header and its Plural-Forms, every plural with all its
  forms, placeholders ``{name:spec}`` identical in msgid and msgstr (python-brace-format),
  newlines at the same ends; GNU msgfmt itself agrees where GNU gettext is installed;
- the compiled ``.mo`` exists and was compiled from the ``.po`` as it is now;
- the German text may equal the English one only for names, units and the like
  (``SAME_IN_GERMAN``).
"""

from __future__ import annotations

import gettext
import shutil
import subprocess

import pytest

from app.i18n import extract, po
from app.i18n.translations import catalog_files

PO_FILE, MO_FILE = catalog_files("de")

# Texts that stay the same in German: proper names, units, abbreviations, numbers.
SAME_IN_GERMAN = {
    "GPU", "GPUs", "TTFT", "PUE", "vLLM", "TensorRT-LLM", "SGLang", "llama.cpp", "2K", "4K",
    "8K", "32K", "128K", "#", "N+1", "2N", "s", "Name", "Region", "Racks", "Rack {n}",
    "GPU {n}", "NICs", "TTFT (s)", "TTFT [ms]", "{n} GPUs", "{gpus} GPU", "{gpus} GPUs",
    "{n} ({redundancy})", "{h} h",
    "{kwh} kWh", "{s} s ({m} min)", "{change}: {value}, {outcome}", "Version {version}",
    "LoRA", "QLoRA", "BF16", "HNSW", "IVF-PQ", "warm", "Passphrase", "kW", "V", "A", "USD/kWh",
    "kg/kWh", "{kwh} kWh, {cost}", "{tonnes} t", "Scale-up", "Training", "Retrieval (RAG)",
    "CPU", "{n}, {size}", "{size} ({index})", "{n} x {cpu}", "{fmt}, {size}", "{kw} kW, {price}",
    "{m} min", "Server", "Leaf {n}", "Spine {n}", "100 %", "{field}: {problem}",
    "{planning} {margin}",
    "t_attn = max(b c kv_per_token_per_gpu / (BW x eta_kv), 4 L n_h d_h b c / t / (peak x "
    "eta_decode))", "t_comm = 2 L/p x (alpha + 2 (t-1)/t x n_tokens h 2 B / (link x eta_link))",
    "X = B / (o x ITL), C = X x (TTFT + o x ITL)",
    "BTU/h", "PAdES B-B", "docs/METHOD.md", "Hardware", "Prefill", "Organisation",
    "Serving:", "AI Sizer {version} · {date}", "Batch", "Checkpoint", "Retrieval", "Switch",
    "Rack", "Scale-up:", "GB / GiB", "GPUs (t x p)", "ITL / TPOT", "N+1 / 2N", "TTFT [s]",
    "{hours:,.1f} h", "{kg:,.0f} kg CO2e", "{network}: {count} x {switch}",
    "Workstation", "Consumer", "NVIDIA", "AMD", "Intel",
}


@pytest.fixture(scope="module")
def scan() -> extract.Scan:
    return extract.scan_sources()


@pytest.fixture(scope="module")
def german() -> po.Catalog:
    return po.read(PO_FILE)


def _report(lines: list[str], title: str) -> str:
    return f"{title} ({len(lines)}):\n  " + "\n  ".join(sorted(lines))


def _key(entry: po.Entry) -> extract.Key:
    return extract.Key(entry.msgid, entry.msgctxt, entry.msgid_plural)


def _shown(key: extract.Key) -> str:
    context = f" [msgctxt {key.msgctxt!r}]" if key.msgctxt else ""
    plural = f" / {key.plural!r}" if key.plural else ""
    return f"{key.msgid!r}{plural}{context}"


def test_the_scan_finds_the_window_the_engine_and_the_report(scan):
    assert len(scan.keys) > 1200
    for text in ("&File", "1 Requirements", "Sizing report: {name}", "does not fit"):
        assert extract.Key(text) in scan.keys
    assert extract.Key("{n} replica", plural="{n} replicas") in scan.keys
    assert sum(1 for key in scan.keys if key.plural) > 60
    assert any(key.msgctxt for key in scan.keys)


def test_no_key_is_built_in_code(scan):
    assert not scan.problems, _report(scan.problems, "Texts that cannot be catalog keys")


def test_every_key_has_a_german_entry(scan, german):
    entries = {_key(e): e for e in german.entries}
    missing = [f"{_shown(key)}  ({found.locations[0]})" for key, found in scan.keys.items()
               if key not in entries or not entries[key].translated]
    assert not missing, _report(missing, f"Texts without German in {PO_FILE.name} (run "
                                         "`make translations`, then translate them)")


def test_the_catalog_has_only_entries_the_code_uses(scan, german):
    unused = [f"{_shown(_key(e))}  (line {e.line})" for e in german.entries
              if _key(e) not in scan.keys]
    assert not unused, _report(unused, f"Entries of {PO_FILE.name} no code uses (reworded? "
                                       "`make translations` drops them)")


def test_the_catalog_passes_msgfmt_checks(german):
    """Header, plural forms, placeholders, newlines; no untranslated, fuzzy, obsolete or
    duplicate entry."""
    problems = po.check(german)
    assert not problems, _report(problems, "Problems in the German catalog")


def test_plural_entries_have_the_german_plural_forms(german):
    assert german.plural_forms() == (2, "(n != 1)")
    plurals = [e for e in german.entries if e.msgid_plural is not None]
    assert len(plurals) > 60
    assert all(len(e.msgstr_plural) == 2 for e in plurals)


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext (msgfmt) not installed")
def test_gnu_msgfmt_accepts_the_catalog_and_compiles_the_same(tmp_path):
    gnu_mo = tmp_path / "gnu.mo"
    checked = subprocess.run(["msgfmt", "--check", "--check-accelerators=&", "-o", str(gnu_mo),
                              str(PO_FILE)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    with gnu_mo.open("rb") as gnu, MO_FILE.open("rb") as ours:
        theirs, mine = gettext.GNUTranslations(gnu), gettext.GNUTranslations(ours)
    assert {k: v for k, v in mine._catalog.items() if k != ""} == \
        {k: v for k, v in theirs._catalog.items() if k != ""}


def test_the_compiled_catalog_is_current():
    assert MO_FILE.is_file(), f"{MO_FILE} is missing: run `make translations`"
    assert po.is_current(PO_FILE), (f"{MO_FILE} was not compiled from {PO_FILE.name} as it is "
                                    "now: run `make translations`")


def test_german_differs_from_english(german):
    same = [f"{e.msgid!r} (line {e.line})" for e in german.entries
            for english, text in zip([e.msgid, e.msgid_plural or e.msgid], e.translations,
                                     strict=False)
            if text == english and english not in SAME_IN_GERMAN]
    assert not same, _report(same, "German text equal to the English (add it to "
                                   "SAME_IN_GERMAN if it is a name or unit)")


def test_the_catalog_is_written_as_the_tools_write_it():
    """``make translations`` rewrites the file: hand edits in another layout would churn."""
    text = PO_FILE.read_text(encoding="utf-8")
    assert po.dumps(po.parse(text, str(PO_FILE))) == text
