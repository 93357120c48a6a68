"""The German translation stays complete.

Every visible text is an English template used as the key of the German catalog
(``app/i18n/de.py``; the PDF report has its own, ``app/i18n/de_report.py``). This module scans
the source with :mod:`ast` and collects every key:

- the string literal passed as the first argument to ``t``, ``msg``, ``tr`` and ``translate``
  (or as ``Message(template=...)``) anywhere in ``app/`` except ``app/report`` (the report
  is covered by ``de_report``). A name passed instead of a literal is followed to its literal
  assignments in the same function or module; a name that cannot be followed (a parameter, a
  loop variable) is skipped. A first argument built in code (an f-string, ``+`` or ``%``,
  ``.format``) cannot be a key: it is reported with file:line. String literals passed as
  parameters are keys too (the formatter translates string parameters);
- the English arguments of the helpers that call ``t`` on them (``ARG_SPECS``: field labels,
  choices, table columns, menu actions...);
- the ``HELP`` of every page class in ``app/ui/pages`` (titles: ``app/ui/pages/__init__.py``);
- the constants of English labels the UI passes through ``t`` indirectly (``CONSTANTS``), and
  a few texts made outside a literal call (``EXTRA_KEYS``).

Each key must have a non-empty German text with exactly the placeholders of the English one
(same names, same format specs), and the German text may equal the English one only for
proper names, units and the like (``SAME_IN_GERMAN``).
"""

from __future__ import annotations

import ast
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app.i18n import de, de_report

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"
SKIPPED = ("app/report/",)  # the PDF report: its own catalog, de_report.py
TRANSLATORS = {"t", "msg", "tr", "translate"}

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


# --- selectors: which strings of a constant are keys ------------------------------------------
def _strings(node: ast.AST | None) -> Iterator[str]:
    """Every non-empty string literal in ``node``."""
    if node is None:
        return
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and sub.value:
            yield sub.value


def every(node: ast.AST) -> list[str]:
    """All the strings (a tuple of labels; a dict whose keys and values are labels)."""
    return list(_strings(node))


def values(node: ast.AST) -> list[str]:
    """The values of every dict literal (the keys are ids)."""
    return [s for d in ast.walk(node) if isinstance(d, ast.Dict) for v in d.values
            for s in _strings(v)]


def item(*indexes: int) -> Callable[[ast.AST], list[str]]:
    """The elements at ``indexes`` of every tuple literal (the others are ids or numbers)."""

    def select(node: ast.AST) -> list[str]:
        found = []
        for sub in ast.walk(node):
            if isinstance(sub, ast.Tuple):
                for i in indexes:
                    if i < len(sub.elts):
                        found += _strings(sub.elts[i]) if isinstance(sub.elts[i], ast.Constant) \
                            else []
        return found

    return select


def call_arg(callee: str, index: int) -> Callable[[ast.AST], list[str]]:
    """The literal argument at ``index`` of every call to ``callee``."""

    def select(node: ast.AST) -> list[str]:
        return [sub.args[index].value for sub in ast.walk(node)
                if isinstance(sub, ast.Call) and _callee(sub) == callee
                and len(sub.args) > index and isinstance(sub.args[index], ast.Constant)
                and isinstance(sub.args[index].value, str)]

    return select


def string_tuples(node: ast.AST) -> list[str]:
    """The strings of the tuple literals made only of strings (inside a function)."""
    return [s for sub in ast.walk(node) if isinstance(sub, ast.Tuple) and sub.elts
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in sub.elts)
            for s in _strings(sub)]


# Constants (module level, class attribute "Class.NAME", or a whole function "def name") whose
# labels the UI passes through t() indirectly, e.g. ``for name in ROWS: t(name)``.
CONSTANTS: list[tuple[str, str, Callable[[ast.AST], list[str]]]] = [
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
    ("app/ui/pages/redundancy.py", "REDUNDANCY", item(1, 2)),  # radio buttons and notes
    ("app/ui/pages/redundancy.py", "FIGURES", every),  # t(name)
    ("app/ui/pages/infrastructure.py", "POWER_PARTS", every),  # chart ticks: t(p)
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
    ("app/report/verify.py", "def verify_bytes", call_arg("Verification", 1)),
    ("app/report/verify.py", "def _check_one", call_arg("Verification", 1)),
    # Engine codes the window shows through t(): verdicts (gpu_selection: t(c.verdict)) and
    # the ranking the search fell back to (t(how)).
    ("app/engine/selection.py", "def verdict_for", item(0)),
    # names passed as string parameters of the engine's sentences (translated by the formatter)
    ("app/engine/narrative.py", "ALONE", values),  # loss_message: msg(ALONE[unit])
    ("app/engine/narrative.py", "FULL_LOAD", values),
    ("app/engine/narrative.py", "PART_LOAD", values),
    ("app/engine/narrative.py", "METHOD_NAMES", values),  # {method}: full training, LoRA...
    ("app/engine/narrative.py", "RECOMPUTE_NAMES", values),  # {recompute}
    ("app/engine/narrative.py", "INDEX_NAMES", values),  # {index}: HNSW, flat (exact)...
]

# Texts made outside a literal call, and string parameters the formatter translates.
EXTRA_KEYS = {
    # gpu_selection.py: t(c.verdict) for a candidate that does not fit (selection.py, Evaluated)
    "does not fit": "app/engine/selection.py evaluate_candidate",
    # gpu_selection.py: t(how) when no candidate meets the targets (pipeline.py, chosen_by)
    "closest (no candidate meets the targets)": "app/engine/pipeline.py",
    # the redundancy code, as the summary shows it (s.redundancy) and as the report page and
    # Step 5 show it (s.redundancy.upper()); a parameter of sentences
    "none": "Scenario.availability.redundancy",
    "n+1": "Scenario.availability.redundancy",
    "2n": "Scenario.availability.redundancy",
    "NONE": "Scenario.availability.redundancy, upper()",
    # what bounds a decode step: the {bound} of the narrative (bd.bound)
    "memory": "app/engine/narrative.py performance_messages, bound",
    "compute": "app/engine/narrative.py performance_messages, bound",
    # the {rank} of "ties on {rank}" (rank_by.replace("_", " "), selection.loss_reason)
    "capital cost": "app/engine/selection.py loss_reason",
    "power": "app/engine/selection.py loss_reason",
    "gpu count": "app/engine/selection.py loss_reason",
    "tokens per dollar": "app/engine/selection.py loss_reason",
    # the {quality} of a number format (PrecisionSpec.quality, requirements.py)
    "reference": "app/domain/catalog.py PrecisionSpec.quality",
    "near-lossless": "app/domain/catalog.py PrecisionSpec.quality",
    "small-loss": "app/domain/catalog.py PrecisionSpec.quality",
    "noticeable-loss": "app/domain/catalog.py PrecisionSpec.quality",
    # infrastructure.py: t(c.kind), the cooling (Scenario.infrastructure.cooling)
    "air": "app/domain/scenario.py infrastructure.cooling",
    "rdhx": "app/domain/scenario.py infrastructure.cooling",
    "dlc": "app/domain/scenario.py infrastructure.cooling",
    # units: t(self.unit) in fields.py (UsersField passes "users" itself)
    "users": "app/ui/fields.py UsersField unit",
}

# Texts that stay the same in German: proper names, units, abbreviations, numbers.
SAME_IN_GERMAN = {
    "GPU", "GPUs", "TTFT", "KV", "PUE", "Tokens/s", "vLLM", "TensorRT-LLM", "SGLang",
    "llama.cpp", "AI Sizer", "2K", "4K", "8K", "32K", "128K", "#", "N+1", "2N", "s", "Name",
    "Region", "Racks", "Rack {n}", "GPU {n}", "NICs", "TTFT (s)", "TTFT [ms]", "{n} GPUs",
    "{n} x {server}", "{n} ({redundancy})", "{h} h", "{btu} BTU/h", "{kwh} kWh",
    "{s} s ({m} min)", "{change}: {value}, {outcome}", "Version {version}", "LoRA", "QLoRA",
    "BF16", "HNSW", "IVF-PQ", "warm", "Passphrase", "kW", "V", "A", "USD/kWh", "kg/kWh",
    "{kwh} kWh, {cost}", "{tonnes} t", "Scale-up", "Training", "Retrieval (RAG)", "CPU",
    "{n}, {size}", "{size} ({index})", "{n} x {cpu}", "{fmt}, {size}", "{kw} kW, {price}",
    "{m} min", "Server",
}


# --- the scan ---------------------------------------------------------------------------------
@dataclass
class Scan:
    keys: dict[str, list[str]] = field(default_factory=dict)  # key -> where it is used
    problems: list[str] = field(default_factory=list)  # first arguments that cannot be keys

    def add(self, key: str, where: str) -> None:
        if key:
            self.keys.setdefault(key, []).append(where)


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


class _FileScan(ast.NodeVisitor):
    def __init__(self, rel: str, tree: ast.Module, scan: Scan):
        self.rel, self.scan = rel, scan
        self.module_names = _literal_names(tree.body)
        self.scopes: list[dict[str, list[ast.AST]]] = []
        specs = (dict(ARG_SPECS) if rel.startswith("app/ui/")
                 else dict(ENGINE_ARG_SPECS) if rel.startswith("app/engine/") else {})
        self.specs = specs | FILE_ARG_SPECS.get(rel, {})

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:  # noqa: N802 (ast API)
        self.scopes.append(_literal_names(node.body))
        self.generic_visit(node)
        self.scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef  # noqa: N815 (ast API)

    def visit_Call(self, node: ast.Call) -> None:  # noqa: N802 (ast API)
        name = _callee(node)
        where = f"{self.rel}:{node.lineno}"
        if name in TRANSLATORS and node.args:
            self.collect(node.args[0], where, strict=True)
            for keyword in node.keywords:
                self.parameter(keyword, where)
        elif name == "Message":  # Message(template=..., params=...), what msg() makes
            for keyword in node.keywords:
                if keyword.arg == "template":
                    self.collect(keyword.value, where, strict=True)
        elif name in self.specs or (name or "").endswith("Field") and "Field" in self.specs:
            # a field class of a page (DefaultCheckField...) takes label and tooltip too
            positions, keywords = self.specs.get(name, _FIELD)
            args = [node.args[i] for i in positions if i < len(node.args)]
            args += [k.value for k in node.keywords if k.arg in keywords]
            for arg in args:
                self.collect(arg, where, strict=False)
        self.generic_visit(node)

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

    def collect(self, node: ast.AST, where: str, strict: bool, depth: int = 0) -> None:
        """Add the keys ``node`` can be; report a text built in code."""
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                self.scan.add(node.value, where)
        elif _built(node):
            if strict or not isinstance(node, ast.Call):
                self.scan.problems.append(
                    f"{where}: the text is built in code ({ast.unparse(node)[:70]}); "
                    "pass one literal template with parameters instead")
        elif isinstance(node, ast.IfExp):
            self.collect(node.body, where, strict, depth)
            self.collect(node.orelse, where, strict, depth)
        elif isinstance(node, ast.BoolOp):
            for value in node.values:
                self.collect(value, where, strict, depth)
        elif isinstance(node, ast.Tuple | ast.List):
            for element in node.elts:
                if isinstance(element, ast.Constant):
                    self.collect(element, where, strict, depth)
        elif isinstance(node, ast.Name) and depth < 3:
            for value in self.resolve(node.id) or []:
                if isinstance(value, ast.Constant | ast.IfExp):  # a literal; else skipped
                    self.collect(value, where, strict, depth + 1)
        # any other expression (attribute, subscript, call, parameter): a variable, skipped


def _find(tree: ast.Module, dotted: str) -> ast.AST | None:
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
            for attr in ("HELP",):
                value = _find(ast.Module(body=[node], type_ignores=[]), f"{node.name}.{attr}")
                for text in _strings(value):
                    scan.add(text, f"{rel} {node.name}.{attr}")


def source_files() -> list[Path]:
    return sorted(p for p in APP.rglob("*.py")
                  if not p.relative_to(ROOT).as_posix().startswith(SKIPPED))


def scan_sources() -> Scan:
    """Every key the app uses outside the report, and every text built in code."""
    scan = Scan()
    trees = {}
    for path in source_files():
        rel = path.relative_to(ROOT).as_posix()
        tree = trees[rel] = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        _FileScan(rel, tree, scan).visit(tree)
        if rel.startswith("app/ui/pages/"):
            _page_texts(rel, tree, scan)
    for rel, dotted, select in CONSTANTS:
        if rel not in trees and (ROOT / rel).is_file():  # e.g. app/report: constants only
            trees[rel] = ast.parse((ROOT / rel).read_text(encoding="utf-8"), filename=rel)
        value = _find(trees[rel], dotted) if rel in trees else None
        if value is None:
            scan.problems.append(f"{rel}: {dotted} not found (update CONSTANTS in this test)")
            continue
        for text in select(value):
            scan.add(text, f"{rel} {dotted}")
    for key, where in EXTRA_KEYS.items():
        scan.add(key, where)
    return scan


# --- checks -----------------------------------------------------------------------------------
CATALOG = {**de.MESSAGES, **de_report.MESSAGES}


def placeholders(text: str) -> set[tuple[str, str]]:
    """The ``{name:spec}`` fields of ``text`` (conversion included with the name)."""
    fields = set()
    for _literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None:
            fields.add((name + (f"!{conversion}" if conversion else ""), spec or ""))
    return fields


@pytest.fixture(scope="module")
def scan() -> Scan:
    return scan_sources()


def _report(lines: list[str], title: str) -> str:
    return f"{title} ({len(lines)}):\n  " + "\n  ".join(sorted(lines))


def test_the_scan_finds_the_window_and_the_engine(scan):
    assert len(scan.keys) > 300
    assert "&File" in scan.keys and "1 Requirements" in scan.keys


def test_no_key_is_built_in_code(scan):
    assert not scan.problems, _report(scan.problems, "Texts that cannot be catalog keys")


def test_every_key_has_a_german_text(scan):
    missing = [f"{key!r}  ({scan.keys[key][0]})" for key in scan.keys
               if key not in SAME_IN_GERMAN and not CATALOG.get(key, "").strip()]
    assert not missing, _report(missing, "Keys without German text in app/i18n/de.py")


@pytest.mark.parametrize("catalog", [de.MESSAGES, de_report.MESSAGES], ids=["de", "de_report"])
def test_placeholders_match(catalog):
    wrong = []
    for english, german in catalog.items():
        try:
            same = placeholders(english) == placeholders(german)
        except ValueError as exc:
            same, german = False, f"{german} [{exc}]"
        if not same:
            wrong.append(f"{english!r} -> {german!r}")
    assert not wrong, _report(wrong, "Placeholders differ")


def test_german_differs_from_english(scan):
    same = [key for key, german in de.MESSAGES.items()
            if german == key and key not in SAME_IN_GERMAN]
    assert not same, _report(same, "German text equal to the English key (add the key to "
                                   "SAME_IN_GERMAN if it is a name or unit)")


def test_catalogs_do_not_contradict_each_other():
    both = [k for k in set(de.MESSAGES) & set(de_report.MESSAGES)
            if de.MESSAGES[k] != de_report.MESSAGES[k]]
    assert not both, _report(both, "Keys in de.py and de_report.py with different texts")


def test_no_unused_entries(scan):
    unused = [key for key in de.MESSAGES if key not in scan.keys]
    assert not unused, _report(unused, "Entries of app/i18n/de.py no code uses (reworded?)")


def test_the_scanner_reports_built_texts(tmp_path):
    """The scanner itself: literals, followed names, skipped variables, built texts."""
    source = (
        "LABEL = 'Module label'\n"
        "def f(x, n):\n"
        "    template = 'Local {n}' if n else 'Other'\n"
        "    t(template, n=n)\n"
        "    t(LABEL)\n"
        "    t(x)\n"
        "    t('Plain')\n"
        "    t(f'Built {n}')\n"
        "    msg('a' + x)\n"
        "    msg('{p}', p='Param' if n else x.text())\n"
    )
    scan, tree = Scan(), ast.parse(source)
    _FileScan("app/engine/example.py", tree, scan).visit(tree)
    assert set(scan.keys) == {"Module label", "Local {n}", "Other", "Plain", "{p}", "Param"}
    assert [p.split(":")[1] for p in scan.problems] == ["8", "9", "10"]
