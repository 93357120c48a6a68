"""``vllm bench serve --save-result`` JSON (one run; ``--append-result`` adds one per line).

Fields as ``vllm/benchmarks/serve.py`` writes them (``main_async``: ``date``, ``backend``,
``model_id``, ``num_prompts``, ``request_rate`` (a number or ``"inf"``),
``max_concurrency``; ``benchmark``: ``completed``, ``failed``, ``total_input_tokens``,
``total_output_tokens``, ``output_throughput``; ``process_one_metric``: ``mean_ttft_ms``,
``mean_tpot_ms``, ``mean_itl_ms`` ...).
"""

from __future__ import annotations

from typing import Any

from app.domain.measurements import MeasuredPoint
from app.measurements.formats import Format
from app.measurements.formats.common import MS, load_of, make_point, only_documents
from app.measurements.reading import ResultFile, field, number, number_at, optional, rate_value

FORMAT = Format(
    id="vllm", tool="vllm bench serve", file="--save-result JSON",
    source="vllm-project/vllm, vllm/benchmarks/serve.py at commit "
           "009e6d4a1cd6ba3fb2a9fc00f4ec06f5297232a1")
MARKERS = ("model_id", "num_prompts", "output_throughput", "completed")


def matches(documents: list[Any]) -> bool:
    return only_documents(documents, dict) and all(
        all(key in d for key in MARKERS) and "total_output_tokens_retokenized" not in d
        for d in documents)


def run_point(run: dict, file: ResultFile, index: int, runs: int) -> MeasuredPoint:
    tool = FORMAT.tool
    completed = number_at(run, "completed", file, tool)
    prompt = number_at(run, "total_input_tokens", file, tool) / completed
    output = number_at(run, "total_output_tokens", file, tool) / completed
    itl_key = "mean_itl_ms" if run.get("mean_itl_ms") else "mean_tpot_ms"
    concurrency = optional(run, "max_concurrency")
    rate = rate_value(field(run, "request_rate", file, tool))
    if concurrency is None and rate is None:  # every request sent at once
        concurrency = completed + (optional(run, "failed") or 0)
    concurrency = None if concurrency is None else number(concurrency, "max_concurrency",
                                                          file, tool)
    label = (f"run {index + 1}: " if runs > 1 else "") + (
        f"request rate {rate:g}/s" if rate is not None else f"concurrency {concurrency:g}")
    return make_point(
        file, tool, label, **load_of(concurrency, rate), prompt_tokens=prompt,
        output_tokens=output, ttft_s=number_at(run, "mean_ttft_ms", file, tool) * MS,
        itl_s=number_at(run, itl_key, file, tool) * MS,
        output_tokens_per_s=number_at(run, "output_throughput", file, tool),
        completed=int(completed), failed=optional(run, "failed"))


def points(documents: list[Any], file: ResultFile) -> list[MeasuredPoint]:
    return [run_point(run, file, i, len(documents)) for i, run in enumerate(documents)]
