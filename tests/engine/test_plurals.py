"""A count of one reads in the singular: no "1 replicas", "1 GPUs" or "1 bis 1 Replikate".

``app.i18n.plural(count, msg(one), msg(many), **params)`` picks the singular or the plural
template by the count; both are literal templates, translated like any other. The checks
render every example, and variants with one user, one GPU per replica and each redundancy, in
English and German: every Message the result holds, the command line's summary and the texts
of the report's sections (tables and paragraphs; the charts are drawings).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from pydantic import BaseModel
from reportlab.platypus import KeepTogether, ListFlowable, ListItem, Paragraph, Table

from app import summary
from app.api import example, example_names, load_scenario, set_field, size
from app.domain.scenario import Workload
from app.engine.narrative import replica_range
from app.i18n import Message, msg, plural, po
from app.i18n.translations import catalog_files
from app.report import accuracy
from app.report.chapters import SECTIONS
from app.report.chapters.cover import cover
from app.report.context import Context

ROOT = Path(__file__).resolve().parents[2]

ONE = re.compile(r"(?<![\d.,+])1 (?:concurrent |data-parallel |more |spare |GPU )?(?:replicas|GPUs"
                 r"|nodes|users|sequences|racks|servers|micro-batches|chunks)\b"
                 r"|(?<![\d.,+])1 to 1 |between 1 and 1 ")
EINS = re.compile(r"(?<![\d.,+])1 (?:gleichzeitigen |weitere |GPU-)?(?:Replikate|Replikaten|GPUs"
                  r"|Sequenzen|Racks|Nutzern|Servern|Micro-Batches|Chunks)\b"
                  r"|(?<![\d.,+])1 gleichzeitige\b|(?<![\d.,+])1 bis 1 |zwischen 1 und 1 ")
BAD = {"en": ONE, "de": EINS}

# (field, value) pairs applied to an example; () is the example as shipped
VARIANTS = [
    (),
    (("workload.concurrent_users", "1"),),
    (("workload.concurrent_users", "1"), ("availability.redundancy", "none")),
    (("workload.concurrent_users", "1"), ("availability.redundancy", "n+1")),
    (("workload.concurrent_users", "1"), ("availability.redundancy", "2n")),
    (("workload.concurrent_users", "1"), ("selection.max_gpus_per_replica", "1")),
]


# --- the helper -------------------------------------------------------------------------------
def test_plural_picks_the_singular_for_one_only():
    one, many = msg("{n} replica"), msg("{n} replicas")
    assert plural(1, one, many, n=1).text() == "1 replica"
    assert plural(0, one, many, n=0).text() == "0 replicas"
    assert plural(2, one, many, n=2).text() == "2 replicas"
    assert plural(1, one, many, n=1).text("de") == "1 Replikat"
    assert plural(3, one, many, n=3).text("de") == "3 Replikate"


def test_plural_takes_a_float_count_as_shown_without_decimals():
    one, many = msg("At one concurrent user: {speed:,.1f} tokens/s, first token after "
                    "{ttft:,.2f} s, {total:,.0f} output tokens/s in all (decode batch "
                    "{batch:,.0f})."), msg("{users:,.0f} users")
    assert plural(1.0, one, many).template == one.template
    assert plural(1.4, one, many).template == one.template  # shown as "1"
    assert plural(1.6, one, many).template == many.template  # shown as "2"
    assert plural(0.4, one, many).template == many.template  # shown as "0"


def test_plural_returns_a_message_with_the_parameters():
    chosen = plural(4, msg("{n} replica"), msg("{n} replicas"), n=4)
    assert isinstance(chosen, Message)
    # the chosen English, and both forms with the count for the other languages (ngettext);
    # its JSON is the template and parameters alone
    assert chosen == Message(template="{n} replicas", params={"n": 4},
                             forms=("{n} replica", "{n} replicas"), count=4)
    assert chosen.model_dump() == {"template": "{n} replicas", "params": {"n": 4}}
    # parameters of the forms themselves are kept; the shared ones win
    kept = plural(1, msg("{n} replica", n=7), msg("{n} replicas"))
    assert kept.text() == "7 replica"
    assert plural(1, msg("{n} replica", n=7), msg("{n} replicas"), n=1).text() == "1 replica"


def test_plural_nests_for_a_sentence_with_two_counts():
    def sentence(gpus: int, nodes: int) -> str:
        return plural(gpus, msg("{gpus} GPU in {nodes} server, {racks} rack(s)"),
                      plural(nodes, msg("{gpus} GPUs in {nodes} server, {racks} rack(s)"),
                             msg("{gpus} GPUs in {nodes} servers, {racks} rack(s)")),
                      gpus=gpus, nodes=nodes, racks=1).text("en")

    assert sentence(1, 1) == "1 GPU in 1 server, 1 rack(s)"
    assert sentence(8, 1) == "8 GPUs in 1 server, 1 rack(s)"
    assert sentence(16, 2) == "16 GPUs in 2 servers, 1 rack(s)"


def test_replica_range_of_one_count_is_that_count():
    assert replica_range(1, 3).text() == "1 to 3 replicas"
    assert replica_range(1, 1).text() == "1 replica"
    assert replica_range(2, 2).text() == "2 replicas"
    assert replica_range(1, 1).text("de") == "1 Replikat"
    assert replica_range(1, 3).text("de") == "1 bis 3 Replikate"


# --- every call site --------------------------------------------------------------------------
def plural_calls() -> list[tuple[str, ast.Call]]:
    found = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = path.relative_to(ROOT).as_posix()
        found += [(f"{rel}:{node.lineno}", node) for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id == "plural"]
    return found


def _name(node: ast.AST) -> str | None:
    return node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
        else None


def test_every_plural_passes_two_translatable_forms():
    """Each form is ``msg(...)`` (a literal, or a name whose literals are registered in the
    translation scan's CONSTANTS) or a nested ``plural(...)``; every literal has German."""
    calls = plural_calls()
    assert len(calls) > 40
    german = {text for e in po.read(catalog_files("de")[0]).entries if e.translated
              for text in (e.msgid, e.msgid_plural) if text}
    wrong, untranslated = [], []
    for where, call in calls:
        if len(call.args) != 3 or any(_name(a) not in ("msg", "plural") for a in call.args[1:]):
            wrong.append(where)
            continue
        literals = [a.args[0].value for a in call.args[1:] if _name(a) == "msg"
                    and isinstance(a.args[0], ast.Constant)]
        untranslated += [f"{where}: {t!r}" for t in literals if t not in german]
        if len(literals) == 2:  # (German may say both alike: "1 Nutzer", "4 Nutzer")
            assert literals[0] != literals[1], where
    assert not wrong, wrong
    assert not untranslated, untranslated


# --- every example, in both languages ---------------------------------------------------------
def messages_in(value) -> list[Message]:
    """Every Message a result holds, at any depth."""
    if isinstance(value, Message):
        return [value]
    if isinstance(value, BaseModel):
        return [m for name in type(value).model_fields for m in messages_in(getattr(value, name))]
    if isinstance(value, list | tuple):
        return [m for item in value for m in messages_in(item)]
    if isinstance(value, dict):
        return [m for item in value.values() for m in messages_in(item)]
    return []


def flowable_texts(item) -> list[str]:
    """The words of the report's flowables: paragraphs and table cells."""
    if isinstance(item, str):
        return [item]
    if isinstance(item, Paragraph):
        return [item.text]
    if isinstance(item, Table):
        return [t for row in item._cellvalues for cell in row for t in flowable_texts(cell)]
    if isinstance(item, list | tuple):
        return [t for part in item for t in flowable_texts(part)]
    if isinstance(item, KeepTogether | ListFlowable | ListItem):
        inner = getattr(item, "_content", None) or getattr(item, "_flowables", None) or []
        return flowable_texts(inner)
    return []


def report_texts(result, lang: str) -> list[str]:
    ctx = Context(result, lang, 450.0, accuracy.accuracy(None), "2026-11-30")
    flow = cover(ctx)
    for section in SECTIONS:
        flow += section(ctx)
    return flowable_texts(flow)


def scenario(name: str, variant: tuple) -> dict:
    data = example(name)
    for field, value in variant:
        data = set_field(data, field, value)
    return data


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(f"{f}={x}" for f, x in v)
                         or "as-shipped")
@pytest.mark.parametrize("name", example_names())
def test_no_count_of_one_in_the_plural(name, variant, catalog):
    result = size(load_scenario(scenario(name, variant)), catalog)
    found = []
    for lang, bad in BAD.items():
        texts = [m.text(lang) for m in messages_in(result)] + report_texts(result, lang)
        if lang == "en":
            texts += summary.render(result).splitlines()
        found += [f"[{lang}] {text}" for text in texts if bad.search(text)]
    assert not found, "\n".join(found)


def test_the_checks_catch_the_old_texts():
    assert ONE.search("1 replicas carry the load; with none redundancy 1 replicas run")
    assert ONE.search("chosen: 1 GPUs") and ONE.search("1 data-parallel replicas of 1")
    assert ONE.search("autoscaling between 1 and 1 replicas")
    assert ONE.search("At 1 concurrent users")
    assert EINS.search("1 bis 1 Replikate") and EINS.search("KV-Cache für 1 Sequenzen")
    assert EINS.search("Bei 1 gleichzeitigen Nutzern") and EINS.search("mit 1 Nutzern")
    assert not ONE.search("1 replica, 2 replicas, x0.1 GPUs, N+1 replicas, 11 users")
    assert not EINS.search("1 Replikat, 1 Nutzer, 1 Knoten, N+1 Replikate, 0,1 GPUs")


# --- refusals quote numbers with their thousands grouped --------------------------------------
def test_refusals_group_thousands():
    with pytest.raises(ValueError) as caught:
        Workload(concurrent_users=4, prompt_tokens=8000, output_tokens=1000,
                 max_context_tokens=4096)
    message = caught.value.errors()[0]["ctx"]["error"].message
    assert "max_context_tokens (4,096)" in message.text()
    assert "(prompt_tokens + output_tokens = 9.000)" in message.text("de")


def test_the_scale_sentence_names_the_redundancy_and_never_says_with_none():
    from app.engine.narrative import scale_messages

    def first(load, redundancy, replicas):
        return scale_messages(load, redundancy, replicas, 3, "DGX H100", "good", 4.0, 60.0,
                              None)[0].text()

    assert first(3, "none", 3) == ("3 replicas carry the load, without redundancy, on 3 x "
                                   "DGX H100.")
    assert first(3, "n+1", 4).startswith("3 replicas carry the load; with N+1 redundancy 4 ")
    assert first(1, "2n", 2).startswith("One replica carries the load; with 2N redundancy 2 ")
