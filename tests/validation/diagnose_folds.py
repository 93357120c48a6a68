"""Diagnose the cross-validation folds (issue #12): for the cases of a left-out level, the
predicted/measured ratio with that level left out and in-sample, and which term dominates the
step time of the case's operating point at the reference (generic) factors.

Run: .venv/bin/python tests/validation/diagnose_folds.py [dimension=level ...]
(default: gpu_family=blackwell weight_class=FP4 model_kind=MLA engine=sglang
engine=tensorrt-llm). Reads the shipped resources/calibration/cross_validation.json for the
ratios; recomputes the step-time split here.
"""

from __future__ import annotations

import json
import sys

import numpy as np

from app import paths
from app.catalog.loader import load_catalog
from app.engine.calibration import THROUGHPUT_METRICS, load_cases
from app.engine.configuration import Choice, configure
from app.engine.cross_validation import REFERENCE_ENGINE
from app.engine.inference import Factors, decode_step, prefill_time
from app.engine.performance import Workload
from app.report.accuracy import read_cases

DEFAULT = ("gpu_family=blackwell", "weight_class=FP4", "model_kind=MLA", "engine=sglang",
           "engine=tensorrt-llm")


def split(case, catalog) -> str:
    """Dominant term of the case's step at the reference factors (decode step at a batch of
    64 for throughput, one sequence for decode; prefill for TTFT)."""
    reference = Factors.from_catalog(catalog.engines[REFERENCE_ENGINE].factors, {})
    model = catalog.model(case.model)
    choice = Choice(case.gpu, case.tensor_parallel, case.pipeline_parallel, case.weights,
                    case.kv_cache, case.engine)
    config = configure(catalog, model, choice, vars(reference))
    replica = config.replica
    work = Workload(case.prompt_tokens, case.output_tokens)
    if case.metric in ("ttft_batch1", "ttft_mean", "ttft_median", "prefill_tokens_per_s"):
        return f"prefill {prefill_time(replica, case.prompt_tokens) * 1e3:.0f} ms"
    batch = 64.0 if case.metric in THROUGHPUT_METRICS else 1.0
    ratio = work.prefill_ratio if batch > 1 else 0.0
    st = decode_step(replica, batch, work.average_context, ratio, case.prompt_tokens)
    parts = {"W": st.weights_read[0], "KV": st.kv_read[0],
             "C": st.compute[0] + st.prefill_compute[0], "act": st.activations[0],
             "comm": st.communication[0],
             "ovh": st.overhead[0]}
    total = st.itl[0]
    return " ".join(f"{k}{v / total:.0%}" for k, v in parts.items())


def main(argv: list[str]) -> None:
    catalog = load_catalog(include_user=False)
    cases = {c.id: c for c in load_cases(read_cases(), catalog)[0]}
    shipped = json.loads(paths.cross_validation_file().read_text(encoding="utf-8"))
    for spec in argv or DEFAULT:
        dimension, level = spec.split("=")
        rows = [r for r in shipped["residuals"] if r["regime"][dimension] == level]
        print(f"== {dimension}={level}: {len(rows)} cases")
        for group in ("throughput", "decode", "ttft"):
            mine = [r for r in rows if r["regime"]["metric_group"] == group]
            if not mine:
                continue
            cv = np.array([r["left_out"][dimension] / r["measured"] for r in mine])
            print(f"  {group}: n={len(mine)} CV median |err| {np.median(np.abs(cv - 1)):.3f}"
                  f" median ratio {np.median(cv):.2f}")
            for r, ratio in zip(mine, cv, strict=True):
                c = cases[r["case_id"]]
                print(f"    {c.id:10} {c.gpu:10} {c.model:16} {c.weights:6} {c.engine:12}"
                      f" tp{c.tensor_parallel} p{c.prompt_tokens} o{c.output_tokens}"
                      f" cv {ratio:5.2f} fit {r['fitted'] / r['measured']:5.2f}"
                      f"  {split(c, catalog)}")


if __name__ == "__main__":
    main(sys.argv[1:])
