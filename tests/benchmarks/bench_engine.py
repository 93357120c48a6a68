"""Engine speed benchmark (issue "The sizing engine", section Speed).

Run from the repository root::

    .venv/bin/python tests/benchmarks/bench_engine.py

Prints the median of repeated runs for: one `size` of a fixed configuration (target under
5 ms), a Step 3 search over the whole catalog (under 200 ms) with every candidate measured
afresh, and again after a change of users (the measured candidates are re-ranked, as in the
window), and a tokens/s-against-concurrency curve for 1 to 1,024 users (under 20 ms).
Timings are reported, not asserted: machines are shared and noisy.
"""

from __future__ import annotations

import itertools
import statistics
import sys
import time

import numpy as np

from app.api import example, load_scenario, set_field
from app.catalog.loader import load_catalog
from app.engine import selection
from app.engine.configuration import Choice, configure
from app.engine.evaluate import plan_memory, points_at
from app.engine.performance import Workload
from app.engine.pipeline import size


def median_ms(action, repeats: int) -> float:
    action()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    catalog = load_catalog(include_user=False)
    fixed = load_scenario(example("small-chat"))
    search = load_scenario({**example("choose-gpu"), "selection": {"rank_by": "capital_cost"}})
    model = catalog.model("llama-3.1-70b")
    config = configure(catalog, model, Choice("h100-sxm", 4, 1, "fp8", "fp8", "vllm"))
    work = Workload(1000, 500)
    plan = plan_memory(config, work, 1500)
    users = np.arange(1, 1025, dtype=float)
    more_users = load_scenario(set_field(search.model_dump(mode="json", exclude_none=True),
                                         "workload.concurrent_users", "400"))
    searches = itertools.cycle([search, more_users])

    def search_afresh() -> None:
        selection.MEASURED.clear()  # every candidate measured again
        size(search, catalog)

    rows = [
        ("size, fixed configuration", median_ms(lambda: size(fixed, catalog), 50), 5),
        (f"Step 3 search, {len(catalog.gpus)} GPUs", median_ms(search_afresh, 5), 200),
        ("  again after a change of users", median_ms(lambda: size(next(searches), catalog), 10),
         200),
        ("curve, 1 to 1,024 users", median_ms(lambda: points_at(config, plan, work, users), 50),
         20),
    ]
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}")
    for name, ms, target in rows:
        print(f"{name:<32} median {ms:8.2f} ms   target < {target} ms")


if __name__ == "__main__":
    main()
