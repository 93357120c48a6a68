"""NVIDIA AIPerf ``profile_export_aiperf.json`` and GenAI-Perf ``profile_export_genai_perf.json``.

Both hold one object per metric, ``{"unit": "ms", "avg": ..., "p50": ...}``, and the run's
configuration under ``input_config`` (AIPerf's ``JsonExportData`` was made to mimic
GenAI-Perf's output). Metrics read: ``time_to_first_token``, ``inter_token_latency``,
``output_token_throughput``, ``output_token_throughput_per_user``,
``input_sequence_length``, ``output_sequence_length``, ``request_count``,
``error_request_count``. The load: AIPerf ``input_config.loadgen.request_rate`` (it wins when
set) or ``.concurrency`` (1 when neither was given, as AIPerf's ``UserConfig`` sets it);
GenAI-Perf ``input_config.perf_analyzer.stimulus`` (``{"concurrency": N}`` or
``{"request_rate": R}``), or, before its configuration files (perf_analyzer commit 9fd79801,
March 2025), the flat ``input_config.concurrency`` / ``input_config.request_rate``.
"""

from __future__ import annotations

from typing import Any

from app.domain.measurements import MeasuredPoint
from app.i18n import msg
from app.measurements.formats import Format
from app.measurements.formats.common import load_of, make_point, only_documents
from app.measurements.reading import FileProblem, ResultFile, field, number, optional, rate_value

FORMAT = Format(
    id="aiperf", tool="AIPerf", file="profile_export_aiperf.json",
    source="ai-dynamo/aiperf 0.1.1, aiperf/common/models/export_models.py and "
           "aiperf/exporters/json_exporter.py at commit "
           "db4f6397d11ee2d4cfbb41f70b2327315163dcf0")
GENAI_PERF = Format(
    id="genai-perf", tool="GenAI-Perf", file="profile_export_genai_perf.json",
    source="triton-inference-server/perf_analyzer, genai-perf 0.0.16dev, "
           "genai_perf/export_data/json_exporter.py at commit "
           "263c5f6e0c7a6c15472a54409174981f67930cfe (flat input_config before 9fd79801)")
TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "sec": 1.0}
RATE_UNITS = ("tokens/sec", "tokens/s")
PER_USER_UNITS = ("tokens/sec/user", "tokens/s/user")
STIMULUS = ("input_config", "perf_analyzer", "stimulus")


def is_metric(value: Any) -> bool:
    return isinstance(value, dict) and "unit" in value and "avg" in value


def matches(documents: list[Any]) -> bool:
    return (only_documents(documents, dict) and len(documents) == 1
            and is_metric(documents[0].get("time_to_first_token"))
            and isinstance(documents[0].get("input_config"), dict))


def tool_of(document: dict) -> Format:
    config = document["input_config"]
    return FORMAT if "loadgen" in config else GENAI_PERF


def average(document: dict, name: str, file: ResultFile, tool: str) -> tuple[float, str]:
    metric = field(document, name, file, tool)
    if not is_metric(metric):
        raise FileProblem(msg("'{file}' ({tool}): '{field}' is not a metric with 'unit' and "
                              "'avg'", file=file.name, tool=tool, field=name))
    return number(metric["avg"], f"{name}.avg", file, tool), str(metric["unit"])


def seconds(document: dict, name: str, file: ResultFile, tool: str) -> float:
    value, unit = average(document, name, file, tool)
    if unit not in TIME_UNITS:
        raise FileProblem(msg("'{file}' ({tool}): '{field}' is in '{unit}'; expected one of "
                              "{units}", file=file.name, tool=tool, field=name, unit=unit,
                              units=", ".join(TIME_UNITS)))
    return value * TIME_UNITS[unit]


def rate(document: dict, name: str, file: ResultFile, tool: str, units: tuple) -> float | None:
    if document.get(name) is None:
        return None
    value, unit = average(document, name, file, tool)
    if unit not in units:
        raise FileProblem(msg("'{file}' ({tool}): '{field}' is in '{unit}'; expected {units}",
                              file=file.name, tool=tool, field=name, unit=unit,
                              units=" or ".join(units)))
    return value


def load(document: dict, file: ResultFile, tool: str) -> tuple[float | None, float | None]:
    """(concurrency, request rate) the run used."""
    config = document["input_config"]
    if "loadgen" in config:
        loadgen = config["loadgen"] or {}
        requested = rate_value(loadgen.get("request_rate"))
        concurrency = loadgen.get("concurrency")
        return (None if requested is not None and concurrency is None
                else float(concurrency or 1), requested)
    stimulus = optional(config, "perf_analyzer.stimulus")
    source = stimulus if isinstance(stimulus, dict) else config
    requested = rate_value(source.get("request_rate"))
    concurrency = source.get("concurrency")
    if requested is None and concurrency in (None, ""):
        raise FileProblem(msg("'{file}' ({tool}) lacks the field '{field}'", file=file.name,
                              tool=tool, field=".".join(STIMULUS)))
    if concurrency in (None, ""):
        return None, requested
    return number(concurrency, "concurrency", file, tool), requested


def points(documents: list[Any], file: ResultFile) -> list[MeasuredPoint]:
    document = documents[0]
    tool = tool_of(document).tool
    concurrency, requested = load(document, file, tool)
    prompt, _ = average(document, "input_sequence_length", file, tool)
    output, _ = average(document, "output_sequence_length", file, tool)
    completed = optional(document, "request_count.avg")
    failed = optional(document, "error_request_count.avg")
    label = (f"request rate {requested:g}/s" if requested is not None
             else f"concurrency {concurrency:g}")
    return [make_point(
        file, tool, label, **load_of(concurrency, requested), prompt_tokens=prompt,
        output_tokens=output, ttft_s=seconds(document, "time_to_first_token", file, tool),
        itl_s=seconds(document, "inter_token_latency", file, tool),
        tokens_per_s_per_user=rate(document, "output_token_throughput_per_user", file, tool,
                                   PER_USER_UNITS),
        output_tokens_per_s=rate(document, "output_token_throughput", file, tool, RATE_UNITS),
        completed=int(completed) if isinstance(completed, int | float) else None,
        failed=int(failed) if isinstance(failed, int | float) else None)]
