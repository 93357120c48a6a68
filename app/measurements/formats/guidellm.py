"""guidellm report JSON (``--output kind=json``; ``GenerativeBenchmarksReport``, version 2).

``{"metadata": {"version": 2, "guidellm_version": ...}, "config": ..., "benchmarks": [...]}``;
each benchmark has ``config.strategy`` (``type_``: ``synchronous``, ``concurrent`` with
``streams``, ``throughput``, ``constant`` / ``poisson`` with ``rate``) and ``metrics`` whose
entries are status distributions (``{"successful": {"mean": ..., "median": ...,
"percentiles": ...}, "errored": ..., ...}``): ``time_to_first_token_ms``,
``inter_token_latency_ms``, ``output_tokens_per_second``, ``prompt_token_count``,
``output_token_count``, ``request_concurrency``, and ``request_totals``.
"""

from __future__ import annotations

from typing import Any

from app.domain.measurements import MeasuredPoint
from app.i18n import msg
from app.measurements.formats import Format
from app.measurements.formats.common import MS, load_of, make_point, only_documents
from app.measurements.reading import FileProblem, ResultFile, field, number, number_at, optional

FORMAT = Format(
    id="guidellm", tool="guidellm", file="report JSON (schema version 2)",
    source="vllm-project/guidellm v0.7.3-12, src/guidellm/benchmark/schemas/report.py, "
           "benchmark.py, metrics.py and scheduler/strategies.py at commit "
           "ee7a77457ba668b4b5ccb40f110518829893b36a")
RATE_STRATEGIES = ("constant", "poisson", "async")


def matches(documents: list[Any]) -> bool:
    return (only_documents(documents, dict) and len(documents) == 1
            and isinstance(documents[0].get("benchmarks"), list)
            and isinstance(documents[0].get("metadata"), dict))


def mean(metrics: dict, name: str, file: ResultFile, where: str) -> float:
    return number_at(metrics, f"{name}.successful.mean", file, f"guidellm, {where}")


def strategy_load(benchmark: dict, metrics: dict, file: ResultFile, where: str
                  ) -> tuple[float | None, float | None, str]:
    """(concurrency, request rate, label) of one benchmark's strategy."""
    strategy = field(benchmark, "config.strategy", file, f"guidellm, {where}")
    kind = strategy.get("type_")
    if kind == "synchronous":
        return 1.0, None, "synchronous (one user)"
    if kind == "concurrent":
        streams = number(strategy.get("streams"), "config.strategy.streams", file,
                         f"guidellm, {where}")
        return streams, None, f"concurrency {streams:g}"
    if kind == "throughput":
        users = mean(metrics, "request_concurrency", file, where)
        return users, None, f"throughput (about {users:.0f} concurrent)"
    if kind in RATE_STRATEGIES:
        rate = number(strategy.get("rate"), "config.strategy.rate", file, f"guidellm, {where}")
        return None, rate, f"{kind} {rate:g}/s"
    raise FileProblem(msg("'{file}' (guidellm), {where}: strategy '{kind}' is not a load "
                          "AI Sizer can predict (synchronous, concurrent, throughput, constant "
                          "or poisson)", file=file.name, where=where, kind=str(kind)))


def benchmark_point(benchmark: Any, index: int, file: ResultFile) -> MeasuredPoint:
    where = f"benchmark {index + 1}"
    if not isinstance(benchmark, dict):
        raise FileProblem(msg("'{file}' (guidellm): {where} is not an object", file=file.name,
                              where=where))
    metrics = field(benchmark, "metrics", file, f"guidellm, {where}")
    concurrency, rate, label = strategy_load(benchmark, metrics, file, where)
    failed = optional(metrics, "request_totals.errored")
    completed = optional(metrics, "request_totals.successful")
    return make_point(
        file, "guidellm", f"{where}: {label}", **load_of(concurrency, rate),
        prompt_tokens=mean(metrics, "prompt_token_count", file, where),
        output_tokens=mean(metrics, "output_token_count", file, where),
        ttft_s=mean(metrics, "time_to_first_token_ms", file, where) * MS,
        itl_s=mean(metrics, "inter_token_latency_ms", file, where) * MS,
        output_tokens_per_s=mean(metrics, "output_tokens_per_second", file, where),
        completed=int(completed) if isinstance(completed, int) else None,
        failed=int(failed) if isinstance(failed, int) else None)


def points(documents: list[Any], file: ResultFile) -> list[MeasuredPoint]:
    report = documents[0]
    version = optional(report, "metadata.version")
    if version != 2:
        raise FileProblem(msg("'{file}' (guidellm): report schema version {version} is not "
                              "the one AI Sizer reads (2, guidellm 0.7)", file=file.name,
                              version=repr(version)))
    benchmarks = report["benchmarks"]
    if not benchmarks:
        raise FileProblem(msg("'{file}' (guidellm) holds no benchmark ('benchmarks' is empty)",
                              file=file.name))
    return [benchmark_point(b, i, file) for i, b in enumerate(benchmarks)]
