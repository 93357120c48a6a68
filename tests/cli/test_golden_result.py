"""The result JSON of the worked example, byte for byte, against a golden copy.

``aisizer size --example worked-example --json`` is the public result contract (CONTRACT.md)
on the sizing guide's own case. A refactoring must leave it exactly as it was; a deliberate
change of the method or the catalog changes it, and then the golden copy is written again on
purpose and the diff is reviewed with the change:

    AISIZER_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/cli/test_golden_result.py

``tool_version`` and ``catalog_versions`` are left out of the comparison (a release or a
catalog edit elsewhere changes them without changing the sizing).
"""

from __future__ import annotations

import contextlib
import difflib
import io
import json
import os
from pathlib import Path

from app.cli import main

GOLDEN = Path(__file__).with_name("golden") / "worked-example.json"
VOLATILE = ("tool_version", "catalog_versions")


def result_json() -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["size", "--example", "worked-example", "--json"]) == 0
    return out.getvalue()


def comparable(text: str) -> str:
    """The JSON as the command line writes it, the volatile fields blanked."""
    data = json.loads(text)
    for key in VOLATILE:
        data[key] = "(not compared)"
    return json.dumps(data, indent=2)


def test_the_worked_example_result_is_byte_identical_to_the_golden_copy():
    current = result_json()
    if os.environ.get("AISIZER_UPDATE_GOLDEN"):
        GOLDEN.write_text(current, encoding="utf-8")
    golden = GOLDEN.read_text(encoding="utf-8")
    assert json.loads(current).keys() == json.loads(golden).keys()
    expected, got = comparable(golden), comparable(current)
    if got != expected:
        diff = difflib.unified_diff(expected.splitlines(), got.splitlines(), "golden",
                                    "current", n=2, lineterm="")
        shown = "\n".join(list(diff)[:60])
        raise AssertionError(
            "the worked example's result JSON changed; if that is intended, regenerate with "
            f"AISIZER_UPDATE_GOLDEN=1 and review the diff:\n{shown}")


def test_the_golden_copy_is_what_the_command_line_writes():
    """Re-dumping the parsed golden copy gives its bytes back (floats round-trip), so the
    comparison above is a byte comparison of everything but the volatile fields."""
    golden = GOLDEN.read_text(encoding="utf-8")
    assert json.dumps(json.loads(golden), indent=2) + "\n" == golden
