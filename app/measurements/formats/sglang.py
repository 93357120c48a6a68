"""SGLang ``python -m sglang.bench_serving --output-file`` JSONL (one line per run).

Fields as ``python/sglang/bench_serving.py`` writes them (``benchmark``: ``backend``,
``dataset_name``, ``request_rate`` (a number, ``Infinity`` when unlimited),
``max_concurrency``, ``random_input_len``, ``random_output_len``, ``completed``,
``total_input_tokens``, ``total_output_tokens``, ``total_output_tokens_retokenized``,
``output_throughput``, ``mean_ttft_ms``, ``mean_tpot_ms``, ``mean_itl_ms``, ``concurrency``).
"""

from __future__ import annotations

from typing import Any

from app.domain.measurements import MeasuredPoint
from app.measurements.formats import Format
from app.measurements.formats.common import MS, load_of, make_point, only_documents
from app.measurements.reading import ResultFile, number, number_at, optional, rate_value

FORMAT = Format(
    id="sglang", tool="sglang bench_serving", file="--output-file JSONL",
    source="sgl-project/sglang, python/sglang/bench_serving.py at commit "
           "0033168f0f58b2bc05aa0273bd475d9c01bafb1c")


def matches(documents: list[Any]) -> bool:
    return only_documents(documents, dict) and all(
        "total_output_tokens_retokenized" in d
        or ("dataset_name" in d and "random_input_len" in d and "output_throughput" in d)
        for d in documents)


def run_point(run: dict, file: ResultFile, index: int, runs: int) -> MeasuredPoint:
    tool = FORMAT.tool
    completed = number_at(run, "completed", file, tool)
    prompt = number_at(run, "total_input_tokens", file, tool) / completed
    output = number_at(run, "total_output_tokens", file, tool) / completed
    itl_key = "mean_itl_ms" if run.get("mean_itl_ms") else "mean_tpot_ms"
    rate = rate_value(optional(run, "request_rate"))
    concurrency = optional(run, "max_concurrency")
    if concurrency is None and rate is None:  # every request sent at once
        concurrency = completed
    concurrency = None if concurrency is None else number(concurrency, "max_concurrency",
                                                          file, tool)
    label = (f"run {index + 1}: " if runs > 1 else "") + (
        f"request rate {rate:g}/s" if rate is not None else f"concurrency {concurrency:g}")
    return make_point(
        file, tool, label, **load_of(concurrency, rate), prompt_tokens=prompt,
        output_tokens=output, ttft_s=number_at(run, "mean_ttft_ms", file, tool) * MS,
        itl_s=number_at(run, itl_key, file, tool) * MS,
        output_tokens_per_s=number_at(run, "output_throughput", file, tool),
        completed=int(completed))


def points(documents: list[Any], file: ResultFile) -> list[MeasuredPoint]:
    return [run_point(run, file, i, len(documents)) for i, run in enumerate(documents)]
