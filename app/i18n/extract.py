"""The translation template: every text the program shows, found in its source with :mod:`ast`.

A text is translatable where its English is the msgid: the literal passed to the translation
helpers, the arguments of helpers that pass their labels through them, and a few constants and
codes that are translated indirectly. This module finds them all and writes the gettext
template (``.pot``), and merges it into each language's catalog::

    .venv/bin/python -m app.i18n.extract           # app/i18n/locale/aisizer.pot
    .venv/bin/python -m app.i18n.extract --update  # and merge it into every aisizer.po
    make translations                              # the same, then compile the .mo

What counts as a key (tests/test_translations.py checks the catalog against it):

- the string literal passed as the first argument to ``t``, ``msg``, ``tr`` and ``translate``
  (``t(lang, ...)`` and ``word(lang, ...)`` in app/report: the second), and as
  ``Message(template=...)``, with the literal ``msgctxt=`` as its context. A name passed
  instead of a literal is followed to its literal assignments in the same function or module;
  a name that cannot be followed (a parameter, a loop variable) is skipped. A first argument
  built in code (an f-string, ``+`` or ``%``, ``.format``) cannot be a key: it is reported
  with file:line. String literals passed as parameters are keys too (the formatter translates
  string parameters);
- ``plural(count, msg(one), msg(many))``: one gettext plural entry (msgid ``one``,
  msgid_plural ``many``); when a form is itself a ``plural(...)`` (a sentence with two
  counts), the other form is a plain entry and the inner call a plural entry of its own;
- the English arguments of the helpers that call ``t`` on them (``ARG_SPECS``: field labels,
  choices, table columns, menu actions...);
- the ``HELP`` of every page class in ``app/ui/pages``;
- constants of labels passed through ``t`` indirectly (``CONSTANTS``), and texts made outside
  a literal call (``EXTRA_KEYS``): each carries a note for translators in the template.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from app.i18n import po

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"
LOCALE = Path(__file__).resolve().parent / "locale"
TEMPLATE = LOCALE / f"{po.DOMAIN}.pot"
TRANSLATORS = {"t", "msg", "tr", "translate"}
# Translation helpers whose key is not the first argument, per folder: t(lang, template) and
# word(lang, text) in the report (its Context.t(template) is a method: first argument).
KEY_POSITIONS = {"app/report/": {"t": 1, "word": 1}}
CONTEXT = "msgctxt"  # the keyword that gives a key its gettext context


@dataclass(frozen=True)
class Key:
    """A catalog key: the English (msgid), its context and, for a plural, the plural form."""

    msgid: str
    msgctxt: str | None = None
    plural: str | None = None


# Helpers that pass some of their arguments through t(): callee name -> (positions, keywords).
# Applied to every file under app/ui (the field classes and Choice are used on many pages);
# any other class named ...Field (a page's own subclass) is taken as a field too.
_FIELD = ((2, 3), ("label", "tooltip", "unit", "search_hint", "max_label", "max_tooltip"))
ARG_SPECS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    # app/ui/fields.py: label and tooltip of every bound field, the unit, hints...
    "Field": _FIELD,
    "BoundField": _FIELD,
    "TextField": _FIELD,
    "CheckField": _FIELD,
    "ChoiceField": _FIELD,
    "MultiCheckField": _FIELD,
    "IntField": ((2, 3, 6), _FIELD[1]),
    "OptionalNumberField": ((2, 3, 5), _FIELD[1]),
    "SearchListField": ((2, 3, 4), _FIELD[1]),
    "UsersField": ((2, 3, 5, 6), _FIELD[1]),
    "Choice": ((1, 2), ("label", "tooltip")),  # fields.Choice: label, tooltip
    "relabel": ((1,), ("label",)),  # ChoiceField.relabel(value, label, **params)
    "Column": ((0, 1), ("header", "tip")),  # gpu_selection.Column: header and tooltip
}
# Engine results whose texts the window passes through t() (Step "Infrastructure":
# t(g.network), t(line.tier), t(line.purpose), t(line.item)). Applied to app/engine.
ENGINE_ARG_SPECS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "SwitchGroup": ((), ("network",)),  # network name
    "switch_group": ((0,), ("name",)),  # infrastructure.switch_group(name, ...)
    "StorageLine": ((), ("tier", "purpose")),  # storage tier and purpose
    "CostLine": ((0,), ("item",)),  # cost item
}
# Helpers of one file that pass some of their arguments through t().
FILE_ARG_SPECS: dict[str, dict[str, tuple[tuple[int, ...], tuple[str, ...]]]] = {
    "app/ui/pages/requirements.py": {
        "group": ((0,), ("title",)),  # group box title
        "note": ((1,), ("english",)),  # grey note under a group
        "button": ((0, 2), ("english", "tooltip")),  # button text and tooltip
        "text": ((1,), ("english",)),  # self.text(setter, english)
    },
    "app/ui/pages/report.py": {
        "section": ((0,), ("title",)),  # section heading
        "table": ((0,), ("header",)),  # the column headers (a tuple of texts)
        "bullets": ((1,), ("empty",)),  # the text shown for an empty list
    },
    "app/ui/pages/compare.py": {
        "label_plot": ((2,), ("title",)),  # the chart's title
    },
    "app/ui/pages/infrastructure.py": {
        "titled": ((1,), ("title",)),  # group box title
    },
    "app/ui/main_window.py": {
        "add_action": ((0,), ("key",)),  # menu actions: t(key)
    },
}

Selected = str | Key
Selector = Callable[[ast.AST], list[Selected]]


# --- selectors: which strings of a constant are keys ------------------------------------------
def _strings(node: ast.AST | None) -> Iterator[str]:
    """Every non-empty string literal in ``node``."""
    if node is None:
        return
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and sub.value:
            yield sub.value


def every(node: ast.AST) -> list[Selected]:
    """All the strings (a tuple of labels; a dict whose keys and values are labels)."""
    return list(_strings(node))


def values(node: ast.AST) -> list[Selected]:
    """The values of every dict literal (the keys are ids)."""
    return [s for d in ast.walk(node) if isinstance(d, ast.Dict) for v in d.values
            for s in _strings(v)]


def keys(node: ast.AST) -> list[Selected]:
    """The string keys of every dict literal."""
    return [k.value for d in ast.walk(node) if isinstance(d, ast.Dict) for k in d.keys
            if isinstance(k, ast.Constant) and isinstance(k.value, str)]


def _tuples(node: ast.AST) -> Iterator[ast.Tuple]:
    yield from (sub for sub in ast.walk(node) if isinstance(sub, ast.Tuple))


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) \
        and node.value else None


def item(*indexes: int) -> Selector:
    """The elements at ``indexes`` of every tuple literal (the others are ids or numbers)."""

    def select(node: ast.AST) -> list[Selected]:
        return [text for sub in _tuples(node) for i in indexes if i < len(sub.elts)
                for text in [_literal(sub.elts[i])] if text]

    return select


def pairs(one: int, many: int) -> Selector:
    """Plural entries: the singular and plural forms at ``one`` and ``many`` of every tuple."""

    def select(node: ast.AST) -> list[Selected]:
        found = []
        for sub in _tuples(node):
            if max(one, many) < len(sub.elts):
                forms = _literal(sub.elts[one]), _literal(sub.elts[many])
                if all(forms):
                    found.append(Key(forms[0], plural=forms[1]))
        return found

    return select


def both(*selectors: Selector) -> Selector:
    return lambda node: [found for select in selectors for found in select(node)]


def call_arg(callee: str, index: int) -> Selector:
    """The literal argument at ``index`` of every call to ``callee``."""

    def select(node: ast.AST) -> list[Selected]:
        return [sub.args[index].value for sub in ast.walk(node)
                if isinstance(sub, ast.Call) and _callee(sub) == callee
                and len(sub.args) > index and isinstance(sub.args[index], ast.Constant)
                and isinstance(sub.args[index].value, str)]

    return select


def string_tuples(node: ast.AST) -> list[Selected]:
    """The strings of the tuple literals made only of strings (inside a function)."""
    return [s for sub in _tuples(node) if sub.elts
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in sub.elts)
            for s in _strings(sub)]


def in_context(msgctxt: str, select: Selector) -> Selector:
    """The keys ``select`` finds, in the context ``msgctxt``."""

    def contextual(node: ast.AST) -> list[Selected]:
        return [Key(k, msgctxt) if isinstance(k, str) else Key(k.msgid, msgctxt, k.plural)
                for k in select(node)]

    return contextual


# Constants (module level, class attribute "Class.NAME", or a whole function "def name") whose
# labels are passed through t() indirectly, e.g. ``for name in ROWS: t(name)``.
CONSTANTS: list[tuple[str, str, Selector]] = [
    ("app/ui/summary_panel.py", "SummaryPanel.ROWS", every),  # t(name) for the row labels
    ("app/ui/pages/requirements.py", "FACTS", every),  # model facts: t(name)
    ("app/ui/pages/requirements.py", "CONTEXT_PRESETS", item(0)),  # preset buttons: "2K"...
    ("app/ui/pages/memory.py", "ROWS", every),  # memory table rows: t(ROWS[row])
    ("app/ui/pages/memory.py", "FACTS", every),  # KV and capacity facts: t(name)
    ("app/ui/pages/gpu_selection.py", "RANKS", item(1)),  # rank combo: t(text)
    ("app/ui/pages/gpu_selection.py", "CHOSEN_BY", values),  # t(how)
    ("app/ui/pages/gpu_selection.py", "STATS", every),  # t(name) above each figure
    ("app/ui/pages/gpu_selection.py", "MEETS", every),  # the verdict badge: t(c["verdict"])
    ("app/ui/pages/performance.py", "POINTS", every),  # t(POINTS[row])
    ("app/ui/pages/performance.py", "POINT_COLUMNS", every),  # table headers
    ("app/ui/pages/performance.py", "LEVER_COLUMNS", every),  # table headers
    ("app/ui/pages/performance.py", "TARGET_NAMES", values),  # t(TARGET_NAMES.get(...))
    # radio buttons (t(name, msgctxt="redundancy")) and notes
    ("app/ui/pages/redundancy.py", "REDUNDANCY", both(in_context("redundancy", item(1)), item(2))),
    ("app/ui/pages/redundancy.py", "FIGURES", every),  # t(name)
    ("app/ui/pages/infrastructure.py", "POWER_PARTS", every),  # chart ticks: t(p)
    ("app/ui/configuration_form.py", "FIELDS", both(item(1), item(2))),  # labels, tooltips
    ("app/ui/dialogs/price_list.py", "COLUMNS", every),  # table headers
    ("app/ui/dialogs/price_list.py", "PLANNING_ITEMS", item(1)),  # t(item)
    ("app/ui/pages/infrastructure.py", "def inputs", item(1)),  # groups.append((box, title))
    ("app/ui/pages/infrastructure.py", "def figures", item(1)),  # (widget, title) boxes
    ("app/ui/pages/report.py", "def targets_html", item(0)),  # rows: t(name)
    ("app/ui/pages/report.py", "def figures_html", item(0)),  # rows: t(name)
    ("app/ui/pages/assumptions.py", "COLUMNS", every),  # table headers
    ("app/ui/units.py", "UNIT_NAMES", every),  # the Unit column: t(unit)
    ("app/ui/pages/assumptions.py", "METRICS", item(1)),  # metric combo: t(label)
    ("app/ui/pages/assumptions.py", "def retranslate", string_tuples),  # form labels
    ("app/ui/compare_model.py", "KEY_FIGURES", item(0)),  # comparison rows: t(label)
    ("app/ui/charts.py", "VramChart.PARTS", values),  # legend: t(name)
    ("app/ui/charts.py", "ThroughputChart.MARKERS", item(0)),  # marker_label(name): t(name)
    ("app/ui/charts.py", "DecodeBreakdownChart.PARTS", item(0)),  # bar names: t(name)
    ("app/ui/dialogs/import_model.py", "ROWS", every),  # t(name)
    ("app/ui/dialogs/catalog_entry.py", "TITLES", values),  # t(TITLES[kind])
    ("app/ui/dialogs/catalog_entry.py", "USE_LABELS", values),  # t(USE_LABELS[kind])
    ("app/ui/entry_form.py", "KIND_TITLES", values),  # t(KIND_TITLES[owner])
    ("app/ui/entry_labels.py", "COMMON", item(0, 1)),  # form labels and tips: t(label)
    ("app/ui/entry_labels.py", "LABELS", item(0, 1)),
    ("app/ui/main_window.py", "def build_menus", item(0)),  # File menu: add_action(key, ...)
    ("app/ui/pages/__init__.py", "STEPS", call_arg("Page", 0)),  # page titles: t(page.title)
    ("app/ui/pages/__init__.py", "EXTRAS", call_arg("Page", 0)),
    # Help > Verify report: t(outcome.summary), t(outcome.detail) (app/report/verify.py)
    ("app/report/verify.py", "SUMMARIES", values),
    # Calibration accuracy: the cross-validated table's rows and columns, ctx.t(name)
    ("app/report/chapters/accuracy.py", "LEFT_OUT", values),
    ("app/report/chapters/accuracy.py", "METRICS", values),
    ("app/report/verify.py", "PRINTED_CLAIM", every),
    ("app/report/verify.py", "def _verify", call_arg("Verification", 1)),
    ("app/report/verify.py", "def _check_one", call_arg("Verification", 1)),
    ("app/report/signed_form.py", "CMS_PROBLEMS", values),  # a detail: t(outcome.detail)
    # Engine codes the window shows through t(): verdicts (gpu_selection: t(c.verdict)) and
    # the ranking the search fell back to (t(how)).
    ("app/engine/selection.py", "def verdict_for", item(0)),
    ("app/domain/result.py", "VERDICT_STATES", every),  # the result's verdict: t(v.state)
    ("app/ui/dialogs/start.py", "TEMPLATES", item(0)),  # the start page's templates: t(label)
    ("app/ui/dialogs/start.py", "WORKED_NOTE", every),  # t(WORKED_NOTE, name=...)
    # names passed as string parameters of the engine's sentences (translated by the formatter)
    ("app/engine/narrative.py", "ALONE", values),  # loss_message: msg(ALONE[unit])
    ("app/engine/narrative.py", "FULL_LOAD", pairs(0, 1)),  # plural(left, msg(one), msg(many))
    ("app/engine/narrative.py", "PART_LOAD", both(item(0), pairs(1, 2))),  # msg(sole), plural
    ("app/engine/narrative.py", "METHOD_NAMES", values),  # {method}: full training, LoRA...
    ("app/engine/narrative.py", "RECOMPUTE_NAMES", values),  # {recompute}
    ("app/engine/narrative.py", "INDEX_NAMES", values),  # {index}: HNSW, flat (exact)...
    # why a file could not be replaced on Windows: the {reason} of "Cannot save {path}: ..."
    ("app/atomic.py", "IN_USE", every),
    ("app/atomic.py", "READ_ONLY", every),
    # the report's tables of words: ctx.t(RANKINGS[...]), ctx.t(COOLING.get(...)), the glossary
    # (terms and definitions), the formulas (name and where), the compared options' rows
    ("app/report/phrases.py", "RANKINGS", values),
    ("app/report/chapters/infrastructure.py", "COOLING", values),
    ("app/report/chapters/glossary.py", "GLOSSARY", item(0, 1)),
    ("app/report/chapters/assumptions.py", "FORMULAS", item(0, 1, 2)),  # names, formulas
    ("app/report/chapters/assumptions.py", "SYMBOLS", every),  # the formulas' legend
    ("app/report/chapters/compared.py", "COMPARED_LABELS", every),
    ("app/report/accuracy.py", "RECORDED", keys),  # the accuracy table: ctx.t(group)
    ("app/report/chapters/validation.py", "LEVEL_NAMES", values),  # ctx.t(LEVEL_NAMES[...])
    ("app/report/chapters/measured.py", "FIGURES", item(0)),  # ctx.t(FIGURES[metric][0])
]

# Texts made outside a literal call, and string parameters the formatter translates: the key,
# the file that makes or holds it, and a note for translators.
_REDUNDANCY = "the redundancy code 'none' in capitals, a {redundancy} parameter (N+1, 2N stay)"
_BOUND = "what bounds a decode step, the {bound} of the narrative (performance_messages)"
_RANK = "the {rank} of 'ties on {rank}' (rank_by with spaces, loss_reason)"
_QUALITY = "the {quality} of a number format (PrecisionSpec.quality)"
_COOLING = "the cooling, t(c.kind) on the Infrastructure page (infrastructure.cooling)"
_FORMAT = ("a number format's catalog name (precisions.toml), a parameter of the memory "
           "narrative and the warnings (translated as a catalog key)")
_STORAGE = "a storage class id (catalogs/storage.toml), storage_class(preset, lang)"
_KIND = "the workload kind in the report, word(lang, kind with spaces) (WorkloadKind)"
EXTRA_KEYS: dict[Selected, tuple[str, str]] = {
    "does not fit": ("app/engine/selection.py", "a verdict: t(c.verdict) in Step 3"),
    "closest (no candidate meets the targets)": (
        "app/engine/selection.py", "how the configuration was chosen: t(how) in Step 3"),
    "NONE": ("app/domain/scenario.py", _REDUNDANCY),
    "none": ("app/domain/result.py", "the activation recompute code 'none' (TrainingResult."
                                     "activation_recompute), the report's {recompute}"),
    "memory": ("app/engine/narrative.py", _BOUND),
    "compute": ("app/engine/narrative.py", _BOUND),
    "capital cost": ("app/engine/selection.py", _RANK),
    "power": ("app/engine/selection.py", _RANK),
    "gpu count": ("app/engine/selection.py", _RANK),
    "tokens per dollar": ("app/engine/selection.py", _RANK),
    "reference": ("app/domain/catalog.py", _QUALITY),
    "near-lossless": ("app/domain/catalog.py", _QUALITY),
    "small-loss": ("app/domain/catalog.py", _QUALITY),
    "noticeable-loss": ("app/domain/catalog.py", _QUALITY),
    "air": ("app/domain/scenario.py", _COOLING),
    "rdhx": ("app/domain/scenario.py", _COOLING),
    "dlc": ("app/domain/scenario.py", _COOLING),
    "users": ("app/ui/fields.py", "the unit of UsersField, t(self.unit)"),
    "online inference": ("app/domain/scenario.py", _KIND),
    "batch inference": ("app/domain/scenario.py", _KIND),
    "fine tuning": ("app/domain/scenario.py", _KIND),
    "pretraining": ("app/domain/scenario.py", _KIND),
    "selective": ("app/domain/result.py", "the activation recompute code 'selective' "
                                          "(TrainingResult.activation_recompute), the report's "
                                          "{recompute}"),
    "full": ("app/domain/result.py", "the activation recompute code 'full' (TrainingResult."
                                     "activation_recompute), the report's {recompute}"),
    "price entered for this scenario": (
        "app/engine/cost.py", "the source of a price from the scenario's price list, "
                              "ENTERED_PRICE (shown through source_text)"),
    "FP8 (E4M3, per-tensor or per-channel scales)": ("catalogs/precisions.toml", _FORMAT),
    "INT8 (W8A8, SmoothQuant class)": ("catalogs/precisions.toml", _FORMAT),
    "INT4 AWQ (group 128)": ("catalogs/precisions.toml", _FORMAT),
    "INT4 GPTQ (group 128)": ("catalogs/precisions.toml", _FORMAT),
    "INT8 W8A16 (weight-only, GPTQ group 128)": ("catalogs/precisions.toml", _FORMAT),
    "NVFP4 (FP8 scale per 16)": ("catalogs/precisions.toml", _FORMAT),
    "MXFP4 (E8M0 scale per 32)": ("catalogs/precisions.toml", _FORMAT),
    "good": ("app/domain/result.py", _STORAGE),
    "better": ("app/domain/result.py", _STORAGE),
    "best": ("app/domain/result.py", _STORAGE),
    "self-signed": ("app/report/export.py", "the certificate issuer of the report's signer, "
                                            "t(lang, signer.issuer)"),
}


# --- the scan ---------------------------------------------------------------------------------
@dataclass
class Found:
    """Where a key is used, and what translators should know about it."""

    locations: list[str] = field(default_factory=list)  # file:line (or file and constant)
    notes: list[str] = field(default_factory=list)


@dataclass
class Scan:
    keys: dict[Key, Found] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # texts that cannot be catalog keys

    def add(self, key: Selected, where: str, note: str | None = None) -> None:
        key = Key(key) if isinstance(key, str) else key
        if not key.msgid:
            return
        found = self.keys.setdefault(key, Found())
        found.locations.append(where)
        if note and note not in found.notes:
            found.notes.append(note)

    def msgids(self) -> set[str]:
        """Every English text, singular and plural, whatever its context."""
        return {k.msgid for k in self.keys} | {k.plural for k in self.keys if k.plural}


def _literal_names(body: list[ast.stmt]) -> dict[str, list[ast.AST]]:
    """Names assigned in ``body`` (not in nested functions) -> the values assigned."""
    found: dict[str, list[ast.AST]] = {}

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
                          | ast.Lambda):
                continue
            if isinstance(child, ast.Assign):
                for target in child.targets:
                    if isinstance(target, ast.Name):
                        found.setdefault(target.id, []).append(child.value)
            elif isinstance(child, ast.AnnAssign) and isinstance(child.target, ast.Name) \
                    and child.value is not None:
                found.setdefault(child.target.id, []).append(child.value)
            visit(child)

    visit(ast.Module(body=body, type_ignores=[]))
    return found


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _built(node: ast.AST) -> bool:
    """A text built in code: an f-string, + or %, or str.format."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format" and isinstance(node.func.value, ast.Constant))


class Unknown:
    """A context given by an expression the scan cannot read."""

    def __init__(self, where: str, node: ast.AST):
        self.where, self.code = where, ast.unparse(node)[:60]


class FileScan(ast.NodeVisitor):
    """The keys of one source file."""

    def __init__(self, rel: str, tree: ast.Module, scan: Scan):
        self.rel, self.scan = rel, scan
        self.module_names = _literal_names(tree.body)
        self.scopes: list[dict[str, list[ast.AST]]] = []
        specs = (dict(ARG_SPECS) if rel.startswith("app/ui/")
                 else dict(ENGINE_ARG_SPECS) if rel.startswith("app/engine/") else {})
        self.specs = specs | FILE_ARG_SPECS.get(rel, {})
        self.positions = next((p for folder, p in KEY_POSITIONS.items()
                               if rel.startswith(folder)), {})
        self.taken: set[int] = set()  # msg() calls already read as the forms of a plural

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:  # noqa: N802 (ast API)
        self.scopes.append(_literal_names(node.body))
        self.generic_visit(node)
        self.scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef  # noqa: N815 (ast API)

    def visit_Call(self, node: ast.Call) -> None:  # noqa: N802 (ast API)
        name = _callee(node)
        where = f"{self.rel}:{node.lineno}"
        position = self.positions.get(name, 0) if isinstance(node.func, ast.Name) else 0
        if name == "plural" and isinstance(node.func, ast.Name):
            self.plural(node, where)
        if (name in TRANSLATORS or name in self.positions) and len(node.args) > position \
                and id(node) not in self.taken:
            self.collect(node.args[position], where, strict=True,
                         msgctxt=self.context(node, where))
            for keyword in node.keywords:
                if keyword.arg != CONTEXT:
                    self.parameter(keyword, where)
        elif name == "Message":  # Message(template=..., params=...), what msg() makes
            for keyword in node.keywords:
                if keyword.arg == "template":
                    self.collect(keyword.value, where, strict=True,
                                 msgctxt=self.context(node, where))
        elif name in self.specs or (name or "").endswith("Field") and "Field" in self.specs:
            # a field class of a page (DefaultCheckField...) takes label and tooltip too
            # msgctxt= is the context of the first of them, the label (not of its tooltip)
            positions, keywords = self.specs.get(name, _FIELD)
            args = [(node.args[i], i == positions[0]) for i in positions if i < len(node.args)]
            args += [(k.value, k.arg == keywords[0]) for k in node.keywords if k.arg in keywords]
            msgctxt = self.context(node, where)
            for arg, labelled in args:
                self.collect(arg, where, strict=False, msgctxt=msgctxt if labelled else None)
        self.generic_visit(node)

    def context(self, call: ast.Call, where: str) -> str | None:
        """The ``msgctxt=`` of a call: a literal, or a name assigned one. Any other expression
        passes a context on (``t(choice.label, msgctxt=choice.msgctxt)``): an error only for a
        literal text, which then has no context the template can name (see :meth:`collect`)."""
        for keyword in call.keywords:
            if keyword.arg == CONTEXT:
                found = self.literals(keyword.value)
                return found[0] if len(found) == 1 else Unknown(where, keyword.value)
        return None

    def plural(self, node: ast.Call, where: str) -> None:
        """``plural(count, msg(one), msg(many))``: one plural entry. A form that is itself a
        plural leaves the other form a plain key (visited as any msg call)."""
        forms = node.args[1:3]
        if len(forms) != 2 or not all(isinstance(f, ast.Call) for f in forms):
            self.scan.problems.append(f"{where}: plural() needs two forms, msg(...) or "
                                      "plural(...)")
            return
        if any(_callee(f) == "plural" for f in forms):
            return
        if not all(_callee(f) == "msg" and f.args for f in forms):
            self.scan.problems.append(f"{where}: the forms of plural() must be msg(...) calls")
            return
        self.taken.update(id(f) for f in forms)
        texts = [self.literals(f.args[0]) for f in forms]
        contexts = {self.context(f, where) for f in forms}
        if any(isinstance(c, Unknown) for c in contexts):
            self.scan.problems.append(f"{where}: the {CONTEXT} of a plural's forms must be a "
                                      "string literal or a name assigned one")
            return
        if len(contexts) > 1:
            self.scan.problems.append(f"{where}: the two forms of plural() have different "
                                      "contexts")
        if all(len(t) == 1 for t in texts):
            self.scan.add(Key(texts[0][0], contexts.pop(), texts[1][0]), where)
        elif any(texts):
            self.scan.problems.append(f"{where}: the forms of plural() must each be one "
                                      "literal (or names listed in CONSTANTS with pairs())")
        for form in forms:
            for keyword in form.keywords:
                if keyword.arg != CONTEXT:
                    self.parameter(keyword, where)

    def literals(self, node: ast.AST, depth: int = 0) -> list[str]:
        """The literal texts ``node`` can be (a literal, or a name assigned literals)."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.Name) and depth < 3:
            return [text for value in self.resolve(node.id) or []
                    if isinstance(value, ast.Constant) for text in self.literals(value, depth + 1)]
        return []

    def parameter(self, keyword: ast.keyword, where: str) -> None:
        """String literals passed as parameters are keys (the formatter translates them); a
        Message rendered in English (``.text()``, outside app/ui where Qt widgets have a
        ``text()`` too) cannot be translated any more."""
        value = keyword.value
        for branch in (value.body, value.orelse) if isinstance(value, ast.IfExp) else (value,):
            if isinstance(branch, ast.Constant) and isinstance(branch.value, str):
                self.scan.add(branch.value, where)
        rendered = any(isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)
                       and sub.func.attr == "text" and not sub.args for sub in ast.walk(value))
        if rendered and not self.rel.startswith("app/ui/"):
            self.scan.problems.append(
                f"{where}: parameter {keyword.arg} is a message rendered in English "
                f"({ast.unparse(value)[:60]}); pass the Message's own template instead")

    def resolve(self, name: str) -> list[ast.AST] | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return self.module_names.get(name)

    def collect(self, node: ast.AST, where: str, strict: bool, depth: int = 0,
                msgctxt: str | None = None) -> None:
        """Add the keys ``node`` can be; report a text built in code."""
        if isinstance(node, ast.Constant):
            if isinstance(msgctxt, Unknown):
                self.scan.problems.append(f"{where}: {CONTEXT} of {node.value!r} must be a string "
                                          f"literal or a name assigned one ({msgctxt.code})")
            elif isinstance(node.value, str):
                self.scan.add(Key(node.value, msgctxt), where)
        elif _built(node):
            if strict or not isinstance(node, ast.Call):
                self.scan.problems.append(
                    f"{where}: the text is built in code ({ast.unparse(node)[:70]}); "
                    "pass one literal template with parameters instead")
        elif isinstance(node, ast.IfExp):
            self.collect(node.body, where, strict, depth, msgctxt)
            self.collect(node.orelse, where, strict, depth, msgctxt)
        elif isinstance(node, ast.BoolOp):
            for value in node.values:
                self.collect(value, where, strict, depth, msgctxt)
        elif isinstance(node, ast.Tuple | ast.List):
            for element in node.elts:
                if isinstance(element, ast.Constant):
                    self.collect(element, where, strict, depth, msgctxt)
        elif isinstance(node, ast.Name) and depth < 3:
            for value in self.resolve(node.id) or []:
                if isinstance(value, ast.Constant | ast.IfExp):  # a literal; else skipped
                    self.collect(value, where, strict, depth + 1, msgctxt)
        # any other expression (attribute, subscript, call, parameter): a variable, skipped


def find(tree: ast.Module, dotted: str) -> ast.AST | None:
    """The value of constant ``NAME`` / ``Class.NAME``, or the body of ``def name``."""
    if dotted.startswith("def "):
        name = dotted[4:]
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == name:
                return ast.Module(body=node.body, type_ignores=[])
        return None
    *owner, name = dotted.split(".")
    body = tree.body
    if owner:
        classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == owner[0]]
        if not classes:
            return None
        body = classes[0].body
    for node in body:
        if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == name for target in node.targets):
            return node.value
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and node.target.id == name:
            return node.value
    return None


def _page_texts(rel: str, tree: ast.Module, scan: Scan) -> None:
    """HELP of the page classes (StepPage translates it with t())."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            value = find(ast.Module(body=[node], type_ignores=[]), f"{node.name}.HELP")
            for text in _strings(value):
                scan.add(text, f"{rel} {node.name}.HELP")


def source_files(root: Path = ROOT) -> list[Path]:
    """The program's source, without app/i18n (the machinery has no texts of its own)."""
    machinery = root / "app" / "i18n"
    return sorted(p for p in (root / "app").rglob("*.py") if machinery not in p.parents)


def scan_file(rel: str, source: str, scan: Scan) -> ast.Module:
    tree = ast.parse(source, filename=rel)
    FileScan(rel, tree, scan).visit(tree)
    if rel.startswith("app/ui/pages/"):
        _page_texts(rel, tree, scan)
    return tree


def scan_sources(root: Path = ROOT) -> Scan:
    """Every key the program uses, and every text built in code."""
    scan = Scan()
    trees = {}
    for path in source_files(root):
        rel = path.relative_to(root).as_posix()
        trees[rel] = scan_file(rel, path.read_text(encoding="utf-8"), scan)
    for rel, dotted, select in CONSTANTS:
        value = find(trees[rel], dotted) if rel in trees else None
        if value is None:
            scan.problems.append(f"{rel}: {dotted} not found (update CONSTANTS in "
                                 "app/i18n/extract.py)")
            continue
        for key in select(value):
            scan.add(key, f"{rel} {dotted}", f"{dotted} ({rel})")
    for key, (rel, note) in EXTRA_KEYS.items():
        if not (root / rel).is_file():
            scan.problems.append(f"{rel}: not found (update EXTRA_KEYS in app/i18n/extract.py)")
        scan.add(key, rel, note)
    conflicts(scan)
    return scan


def conflicts(scan: Scan) -> None:
    """A text cannot be a plain key and the singular of a plural in one context (gettext keeps
    one entry per context and msgid), nor the singular of two different plurals."""
    by_msgid: dict[tuple[str | None, str], set[str | None]] = {}
    for key in scan.keys:
        by_msgid.setdefault((key.msgctxt, key.msgid), set()).add(key.plural)
    for (msgctxt, msgid), plurals in by_msgid.items():
        if len(plurals) > 1:
            places = [loc for k, f in scan.keys.items() if (k.msgctxt, k.msgid) == (msgctxt,
                                                                                    msgid)
                      for loc in f.locations[:1]]
            scan.problems.append(f"{msgid!r} is used both as a plain text and as a plural "
                                 f"form, or in two plurals ({', '.join(places)}): use "
                                 "plural() everywhere, or a context")


# --- the template -----------------------------------------------------------------------------
def _file(location: str) -> str:
    return location.split(":")[0].split(" ")[0]


def template(scan: Scan) -> po.Catalog:
    """The ``.pot``: one entry per key, in the order the code first uses them."""

    def order(item: tuple[Key, Found]) -> tuple:
        first = item[1].locations[0]
        line = first.split(":")[1] if ":" in first else "0"
        return _file(first), int(line) if line.isdigit() else 0

    catalog = po.Catalog(header=po.Entry("", HEADER), path=str(TEMPLATE))
    for key, found in sorted(scan.keys.items(), key=order):
        files = list(dict.fromkeys(_file(loc) for loc in found.locations))
        brace = any("{" in text for text in (key.msgid, key.plural or "")) and all(
            _valid(text) for text in (key.msgid, key.plural or ""))
        catalog.entries.append(po.Entry(
            key.msgid, msgctxt=key.msgctxt, msgid_plural=key.plural,
            msgstr_plural=["", ""] if key.plural else [], locations=files,
            extracted=list(found.notes), flags=["python-brace-format"] if brace else []))
    return catalog


def _valid(text: str) -> bool:
    try:
        po.placeholders(text)
    except ValueError:
        return False
    return True


HEADER = ("Project-Id-Version: AI Sizer\n"
          "MIME-Version: 1.0\n"
          "Content-Type: text/plain; charset=UTF-8\n"
          "Content-Transfer-Encoding: 8bit\n")


# --- merging the template into a catalog (what msgmerge does) ---------------------------------
@dataclass
class Merged:
    catalog: po.Catalog
    added: list[str] = field(default_factory=list)
    fuzzy: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)


def merge(catalog: po.Catalog, pot: po.Catalog) -> Merged:
    """``catalog`` brought in line with ``pot``: its entries in the template's order with the
    template's locations and notes; a new text gets the translation of the closest text the
    template no longer has, marked fuzzy (with the old English as ``#|``), or none; entries
    the template no longer has are dropped (they are listed in the result)."""
    old = {e.key: e for e in catalog.entries if not e.obsolete}
    gone = [e for e in old.values() if e.key not in {p.key for p in pot.entries}]
    merged = Merged(po.Catalog(header=catalog.header, path=catalog.path))
    nplurals = catalog.plural_forms()[0]
    for new in pot.entries:
        entry = po.Entry(new.msgid, msgctxt=new.msgctxt, msgid_plural=new.msgid_plural,
                         locations=new.locations, extracted=new.extracted, flags=list(new.flags))
        previous = old.get(new.key)
        if previous is None:
            previous = _closest(new, gone, list(old.values()))
            if previous is not None:
                entry.flags.append("fuzzy")
                entry.previous = previous.msgid
                merged.fuzzy.append(new.msgid)
            else:
                merged.added.append(new.msgid)
        elif "fuzzy" in previous.flags:
            entry.flags.append("fuzzy")
            entry.previous = previous.previous
        if previous is not None:
            entry.comments = list(previous.comments)
            _take_translation(entry, previous, nplurals)
        elif entry.msgid_plural is not None:
            entry.msgstr_plural = [""] * nplurals
        merged.catalog.entries.append(entry)
    merged.dropped = [e.msgid for e in gone]
    return merged


def _take_translation(entry: po.Entry, previous: po.Entry, nplurals: int) -> None:
    forms = previous.translations
    if entry.msgid_plural is None:
        entry.msgstr = forms[0] if forms else ""
    else:
        entry.msgstr_plural = (forms + [forms[-1] if forms else ""] * nplurals)[:nplurals]


def _closest(new: po.Entry, candidates: list[po.Entry], every: list[po.Entry]
             ) -> po.Entry | None:
    """An entry with the same English in another context (of ``every``), else the no longer
    used one (of ``candidates``) whose English is closest to ``new`` in the same context
    (ratio 0.75 or more)."""
    same = [c for c in every if c.msgid == new.msgid and c.msgid_plural == new.msgid_plural]
    if same:
        return same[0]
    best, score = None, 0.75
    for candidate in candidates:
        if candidate.msgctxt != new.msgctxt:
            continue
        ratio = difflib.SequenceMatcher(None, candidate.msgid, new.msgid).ratio()
        if ratio >= score:
            best, score = candidate, ratio
    return best


# --- command line -----------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.i18n.extract",
                                     description="Write the translation template (.pot) from "
                                                 "the source, and merge it into the catalogs.")
    parser.add_argument("--pot", type=Path, default=TEMPLATE, help="where to write the .pot")
    parser.add_argument("--update", action="store_true",
                        help="merge the template into every app/i18n/locale/*/LC_MESSAGES/"
                             "aisizer.po (new texts empty or fuzzy, unused ones dropped)")
    args = parser.parse_args(argv)
    scan = scan_sources()
    if scan.problems:
        print("Texts that cannot be catalog keys:\n  " + "\n  ".join(scan.problems),
              file=sys.stderr)
        return 1
    pot = template(scan)
    po.write(pot, args.pot)
    print(f"wrote {args.pot}: {len(pot.entries)} entries")
    if args.update:
        for path in po.catalogs(LOCALE):
            merged = merge(po.read(path), pot)
            po.write(merged.catalog, path)
            print(f"updated {path}: {len(merged.added)} new (untranslated), "
                  f"{len(merged.fuzzy)} fuzzy (check them), {len(merged.dropped)} dropped")
            for label, texts in (("new", merged.added), ("fuzzy", merged.fuzzy),
                                 ("dropped", merged.dropped)):
                for text in texts:
                    print(f"  {label}: {text!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
