"""The import-linter contracts in pyproject.toml hold (also checked by `make test`).

They keep the layers pointing one way (ui, cli -> report, catalog -> engine -> domain) and
keep Qt out of the core packages; see docs/ARCHITECTURE.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _lint_imports() -> str:
    beside_python = Path(sys.executable).with_name("lint-imports")
    if beside_python.exists():
        return str(beside_python)
    found = shutil.which("lint-imports")
    assert found, "lint-imports not found: install the test tools with pip install -e '.[test]'"
    return found


def test_import_contracts_are_kept():
    env = dict(os.environ)
    # Analyse this checkout's app package, whatever is installed.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [_lint_imports(), "--no-cache"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, f"lint-imports failed:\n{proc.stdout}\n{proc.stderr}"
    assert "0 broken" in proc.stdout, proc.stdout


def test_every_engine_module_has_its_own_test_module():
    """docs/ARCHITECTURE.md: tests you can find, tests/engine/test_<module>.py for each module
    of app/engine (feature tests live beside them)."""
    modules = {p.stem for p in (ROOT / "app" / "engine").glob("*.py") if p.stem != "__init__"}
    missing = sorted(m for m in modules if not (ROOT / "tests" / "engine" / f"test_{m}.py")
                     .is_file())
    assert not missing, f"engine modules without tests/engine/test_<module>.py: {missing}"
