"""Report benchmark (issue "The signed PDF sizing report", Tests and measurements).

Run from the repository root::

    .venv/bin/python tests/benchmarks/bench_report.py

Prints the median time of making the worked example's report with its signature (render,
attach scenario and result, PAdES B-B signature; target under 3 s), and of its parts:
the unsigned report and a verification. The identity is created once in a temporary folder
beforehand (key generation is not part of making a report). Timings are reported, not
asserted: machines are shared and noisy.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

import reportlab

from app.api import example, load_scenario, size
from app.catalog.loader import load_catalog
from app.report import identity, verify
from app.report.export import build_report

REPEATS = 5


def median_s(action, repeats: int = REPEATS) -> float:
    action()  # warm-up: fonts, imports, caches
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    catalog = load_catalog(include_user=False)
    scenario = example("worked-example")
    result = size(load_scenario(scenario), catalog)
    with tempfile.TemporaryDirectory() as folder:
        signer = identity.create("Bench Mark", "AI Sizer", "bench@example.org", "bench",
                                 Path(folder) / "identity.p12")
    signed = build_report(scenario, result, catalog=catalog, identity=signer)
    rows = [
        ("report + signature (worked example)",
         median_s(lambda: build_report(scenario, result, catalog=catalog, identity=signer)), 3.0),
        ("report, unsigned", median_s(lambda: build_report(scenario, result, catalog=catalog)),
         None),
        ("verify", median_s(lambda: verify.verify_bytes(signed, [signer.certificate])), None),
    ]
    print(f"python {sys.version.split()[0]}, reportlab {reportlab.Version}, "
          f"pyHanko {version('pyhanko')}; median of {REPEATS}")
    for name, seconds, target in rows:
        goal = f"   target < {target:g} s" if target else ""
        print(f"{name:<38} median {seconds:6.3f} s{goal}")


if __name__ == "__main__":
    main()
