"""Writers of sample result files in each load generator's format (test helpers).

Written by AI Sizer's authors from the tools' own code (the commits in
``app.measurements.formats``), not output of the tools: every file carries a
``sample_note`` field (a comment line in CSV) that says so. The figures come from the caller
(a dict per run: ``concurrency`` or ``request_rate``, ``prompt``, ``output``, ``ttft_s``,
``itl_s``, ``output_tokens_per_s``, ``completed``).
"""

from __future__ import annotations

import json

NOTE = ("SAMPLE written by AI Sizer's authors from the tool's code to test the importer; "
        "not a measurement")


def _rate(run: dict, infinite):
    return run.get("request_rate") or infinite


def vllm_result(run: dict) -> dict:
    """One ``vllm bench serve --save-result`` object (vllm/benchmarks/serve.py)."""
    completed = run["completed"]
    ttft, itl = run["ttft_s"] * 1e3, run["itl_s"] * 1e3
    concurrency = run.get("concurrency")
    duration = completed * run["output"] / run["output_tokens_per_s"]
    return {
        "date": "20261210-101500", "endpoint_type": "openai", "backend": "openai",
        "label": None, "model_id": "meta-llama/Llama-3.1-8B-Instruct",
        "tokenizer_id": "meta-llama/Llama-3.1-8B-Instruct", "num_prompts": completed,
        "sample_note": NOTE,
        "request_rate": _rate(run, "inf"), "burstiness": 1.0,
        "max_concurrency": None if concurrency is None else int(concurrency),
        "duration": duration, "completed": completed, "failed": run.get("failed", 0),
        "total_input_tokens": int(run["prompt"] * completed),
        "total_output_tokens": int(run["output"] * completed),
        "request_throughput": completed / duration, "request_goodput": None,
        "output_throughput": run["output_tokens_per_s"],
        "total_token_throughput": (run["prompt"] + run["output"]) * completed / duration,
        "max_output_tokens_per_s": run["output_tokens_per_s"] * 1.2,
        "max_concurrent_requests": int(concurrency or completed), "rtfx": 0.0,
        "mean_ttft_ms": ttft, "median_ttft_ms": ttft * 0.98, "std_ttft_ms": ttft * 0.1,
        "p99_ttft_ms": ttft * 1.4, "mean_tpot_ms": itl, "median_tpot_ms": itl,
        "std_tpot_ms": itl * 0.05, "p99_tpot_ms": itl * 1.1, "mean_itl_ms": itl,
        "median_itl_ms": itl * 0.99, "std_itl_ms": itl * 0.2, "p99_itl_ms": itl * 1.6,
    }


def vllm_text(runs: list[dict]) -> str:
    """One run as a JSON file; several as ``--append-result`` writes them (one per line)."""
    if len(runs) == 1:
        return json.dumps(vllm_result(runs[0]), indent=None)
    return "\n".join(json.dumps(vllm_result(r)) for r in runs)


def sglang_line(run: dict) -> str:
    """One line of ``sglang.bench_serving --output-file`` (python/sglang/bench_serving.py)."""
    completed = run["completed"]
    ttft, itl = run["ttft_s"] * 1e3, run["itl_s"] * 1e3
    duration = completed * run["output"] / run["output_tokens_per_s"]
    concurrency = run.get("concurrency")
    result = {
        "backend": "sglang", "dataset_name": "random",
        "request_rate": _rate(run, float("inf")),
        "max_concurrency": None if concurrency is None else int(concurrency),
        "sharegpt_output_len": None, "random_input_len": int(run["prompt"]),
        "random_output_len": int(run["output"]), "random_range_ratio": 1.0,
        "duration": duration, "completed": completed,
        "total_input_tokens": int(run["prompt"] * completed),
        "total_output_tokens": int(run["output"] * completed),
        "total_output_tokens_retokenized": int(run["output"] * completed) - 3,
        "request_throughput": completed / duration,
        "input_throughput": run["prompt"] * completed / duration,
        "output_throughput": run["output_tokens_per_s"],
        "mean_e2e_latency_ms": run["ttft_s"] * 1e3 + itl * run["output"],
        "median_e2e_latency_ms": run["ttft_s"] * 1e3 + itl * run["output"],
        "std_e2e_latency_ms": 10.0, "p99_e2e_latency_ms": run["ttft_s"] * 1.5e3,
        "mean_ttft_ms": ttft, "median_ttft_ms": ttft, "std_ttft_ms": ttft * 0.1,
        "p99_ttft_ms": ttft * 1.4, "mean_tpot_ms": itl, "median_tpot_ms": itl,
        "std_tpot_ms": itl * 0.05, "p99_tpot_ms": itl * 1.1, "mean_itl_ms": itl,
        "median_itl_ms": itl, "std_itl_ms": itl * 0.2, "p95_itl_ms": itl * 1.3,
        "p99_itl_ms": itl * 1.6, "concurrency": concurrency or completed,
        "accept_length": None, "sample_note": NOTE,
    }
    return json.dumps(result)  # json.dumps writes inf as Infinity, as SGLang's file has it


def _metric(unit: str, value: float) -> dict:
    return {"unit": unit, "avg": value, "p50": value, "p90": value * 1.1, "p99": value * 1.3,
            "min": value * 0.8, "max": value * 1.5, "std": value * 0.1}


def _stats(run: dict) -> dict:
    return {
        "request_throughput": _metric("requests/sec", run["output_tokens_per_s"]
                                      / run["output"]),
        "request_latency": _metric("ms", run["ttft_s"] * 1e3
                                   + run["itl_s"] * 1e3 * run["output"]),
        "time_to_first_token": _metric("ms", run["ttft_s"] * 1e3),
        "inter_token_latency": _metric("ms", run["itl_s"] * 1e3),
        "output_token_throughput": {"unit": "tokens/sec", "avg": run["output_tokens_per_s"]},
        "output_token_throughput_per_user": _metric("tokens/sec/user", 1 / run["itl_s"]),
        "output_sequence_length": _metric("tokens", run["output"]),
        "input_sequence_length": _metric("tokens", run["prompt"]),
        "request_count": {"unit": "requests", "avg": run["completed"]},
    }


def aiperf_export(run: dict) -> dict:
    """``profile_export_aiperf.json`` (aiperf/common/models/export_models.py)."""
    loadgen = ({"request_rate": run["request_rate"]} if run.get("request_rate")
               else {"concurrency": int(run["concurrency"])})
    loadgen["request_count"] = run["completed"]
    return {**_stats(run), "input_config": {
        "endpoint": {"model_names": ["meta-llama/Llama-3.1-8B-Instruct"], "type": "chat",
                     "streaming": True, "url": "localhost:8000"},
        "input": {"prompt": {"input_tokens": {"mean": int(run["prompt"]), "stddev": 0},
                             "output_tokens": {"mean": int(run["output"]), "stddev": 0}}},
        "loadgen": loadgen}, "was_cancelled": False, "error_summary": [],
        "start_time": "2026-12-10T10:15:00", "end_time": "2026-12-10T10:25:00",
        "sample_note": NOTE}


def genai_perf_export(run: dict, flat: bool = False) -> dict:
    """``profile_export_genai_perf.json`` (genai_perf/export_data/json_exporter.py); ``flat``:
    the argparse ``input_config`` of releases before March 2025."""
    stimulus = ({"request_rate": run["request_rate"]} if run.get("request_rate")
                else {"concurrency": int(run["concurrency"])})
    if flat:
        config = {"model": ["meta-llama/Llama-3.1-8B-Instruct"], "endpoint_type": "chat",
                  "streaming": True, "synthetic_input_tokens_mean": int(run["prompt"]),
                  "output_tokens_mean": int(run["output"]), "concurrency": None,
                  "request_rate": None, **stimulus}
    else:
        config = {"model_names": ["meta-llama/Llama-3.1-8B-Instruct"],
                  "endpoint": {"type": "chat", "streaming": True},
                  "perf_analyzer": {"stimulus": stimulus},
                  "input": {"synthetic_tokens": {"mean": int(run["prompt"]), "stddev": 0},
                            "output_tokens": {"mean": int(run["output"]), "stddev": 0}}}
    return {**_stats(run), "input_config": config, "sample_note": NOTE}


def _distribution(value: float, count: int) -> dict:
    summary = {"mean": value, "median": value, "mode": value, "variance": 0.0,
               "std_dev": 0.0, "min": value, "max": value, "count": count,
               "total_sum": value * count,
               "percentiles": {p: value for p in ("p001", "p01", "p05", "p10", "p25", "p50",
                                                  "p75", "p90", "p95", "p99", "p999")}}
    empty = {**summary, "count": 0, "total_sum": 0.0}
    return {"successful": summary, "incomplete": empty, "errored": empty, "total": summary}


def guidellm_benchmark(run: dict, index: int) -> dict:
    """One benchmark of a guidellm report (benchmark/schemas/benchmark.py, metrics.py)."""
    if run.get("request_rate"):
        strategy = {"type_": "poisson", "rate": run["request_rate"]}
    elif run["concurrency"] == 1:
        strategy = {"type_": "synchronous"}
    else:
        strategy = {"type_": "concurrent", "streams": int(run["concurrency"])}
    n = run["completed"]
    metrics = {
        "request_totals": {"successful": n, "incomplete": 0, "errored": run.get("failed", 0),
                           "total": n},
        "requests_per_second": _distribution(run["output_tokens_per_s"] / run["output"], n),
        "request_concurrency": _distribution(run.get("concurrency") or 1.0, n),
        "prompt_token_count": _distribution(run["prompt"], n),
        "output_token_count": _distribution(run["output"], n),
        "time_to_first_token_ms": _distribution(run["ttft_s"] * 1e3, n),
        "inter_token_latency_ms": _distribution(run["itl_s"] * 1e3, n),
        "time_per_output_token_ms": _distribution(run["itl_s"] * 1e3, n),
        "output_tokens_per_second": _distribution(run["output_tokens_per_s"], n),
    }
    return {"type_": "generative_benchmark", "id_": f"sample-{index}",
            "config": {"id_": f"sample-{index}", "run_id": "sample", "run_index": index,
                       "strategy": strategy, "constraints": {}, "profile": {},
                       "requests": {}, "backend": {}, "environment": {}},
            "metrics": metrics, "sample_note": NOTE}


def guidellm_report(runs: list[dict]) -> dict:
    return {"metadata": {"version": 2, "guidellm_version": "0.7.3", "python_version": "3.12",
                         "platform": "Linux", "sample_note": NOTE},
            "config": {"sample_note": NOTE},
            "benchmarks": [guidellm_benchmark(r, i) for i, r in enumerate(runs)]}


def llama_bench_test(prompt: int, generated: int, seconds: float, depth: int = 0) -> dict:
    """One test of ``llama-bench -o json`` (tools/llama-bench/llama-bench.cpp)."""
    tokens = prompt + generated
    return {"build_commit": "0104b151", "build_number": 7000, "cpu_info": "AMD EPYC 9654",
            "gpu_info": "NVIDIA L40S", "backends": "CUDA",
            "model_filename": "models/llama-3.1-8b-instruct-q8_0.gguf",
            "model_type": "llama 8B Q8_0", "model_size": 8540000000,
            "model_n_params": 8030000000, "n_batch": 2048, "n_ubatch": 512, "n_threads": 32,
            "type_k": "f16", "type_v": "f16", "n_gpu_layers": 99, "split_mode": "layer",
            "main_gpu": 0, "no_kv_offload": False, "flash_attn": 1, "n_prompt": prompt,
            "n_gen": generated, "n_depth": depth, "test_time": "2026-12-10T10:15:00Z",
            "avg_ns": int(seconds * 1e9), "stddev_ns": int(seconds * 1e7),
            "avg_ts": tokens / seconds, "stddev_ts": tokens / seconds * 0.01,
            "samples_ns": [int(seconds * 1e9)] * 5,
            "samples_ts": [tokens / seconds] * 5, "sample_note": NOTE}


def csv_text(runs: list[dict]) -> str:
    lines = [f"# {NOTE}",
             "concurrency,prompt_tokens,output_tokens,ttft_ms,itl_ms,output_tokens_per_s"]
    for r in runs:
        lines.append(f"{r['concurrency']:g},{r['prompt']:g},{r['output']:g},"
                     f"{r['ttft_s'] * 1e3:.3f},{r['itl_s'] * 1e3:.4f},"
                     f"{r['output_tokens_per_s']:.2f}")
    return "\n".join(lines) + "\n"


def write_sweep(folder, runs: list[dict], fmt: str) -> list:
    """Write ``runs`` in ``fmt`` into ``folder``; returns the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    if fmt == "vllm":
        paths = []
        for r in runs:
            path = folder / f"vllm-c{int(r['concurrency'])}.json"
            path.write_text(vllm_text([r]), encoding="utf-8")
            paths.append(path)
        return paths
    if fmt == "sglang":
        path = folder / "sglang.jsonl"
        path.write_text("".join(sglang_line(r) + "\n" for r in runs), encoding="utf-8")
        return [path]
    if fmt in ("aiperf", "genai-perf"):
        paths = []
        for r in runs:
            path = folder / f"{fmt}-c{int(r['concurrency'])}.json"
            data = aiperf_export(r) if fmt == "aiperf" else genai_perf_export(r)
            path.write_text(json.dumps(data, indent=2), encoding="utf-8")
            paths.append(path)
        return paths
    if fmt == "guidellm":
        path = folder / "guidellm.json"
        path.write_text(json.dumps(guidellm_report(runs)), encoding="utf-8")
        return [path]
    if fmt == "csv":
        path = folder / "sweep.csv"
        path.write_text(csv_text(runs), encoding="utf-8")
        return [path]
    raise ValueError(fmt)
