"""Write the sample result files in tests/measurements/fixtures (run from the repository root).

    .venv/bin/python tests/measurements/make_fixtures.py

The figures are SYNTHETIC: AI Sizer's own prediction for the built-in example ``small-chat``
(Llama 3.1 8B on one L40S under vLLM) with the decode factors x0.85 and the prefill factors
x1.05, rounded as the tools round. Each file says so in a ``sample_note`` field (a comment in
CSV). The broken files are the good ones cut off, missing a field, or of another kind.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import measurement_samples as samples  # noqa: E402

from app import api  # noqa: E402
from app.catalog import load_catalog  # noqa: E402
from app.engine.validation import Load, configuration_of, predict, with_site_scales  # noqa: E402

DECODE, PREFILL = 0.85, 1.05
SWEEP = (1, 2, 4, 8, 16, 32)


def runs() -> list[dict]:
    catalog = load_catalog(include_user=False)
    scenario = api.load_scenario(api.example("small-chat"))
    result = api.size(scenario, catalog)
    config = with_site_scales(configuration_of(catalog, scenario, result, "none"), DECODE,
                              PREFILL)
    work = result.inputs.workload
    prompt, output = work.prompt_tokens, work.output_tokens
    loads = [Load("concurrency", c, prompt, output) for c in SWEEP]
    loads.append(Load("request_rate", 0.5, prompt, output))
    found = []
    for load, figures in zip(loads, predict(config, work.max_context_tokens, loads),
                             strict=True):
        run = {"prompt": prompt, "output": output, "completed": 4 * max(int(load.value), 4),
               "ttft_s": round(figures["ttft_s"], 5), "itl_s": round(figures["itl_s"], 6),
               "output_tokens_per_s": round(figures["output_tokens_per_s"], 2)}
        key = "concurrency" if load.kind == "concurrency" else "request_rate"
        run[key] = load.value
        found.append(run)
    return found


def single_stream(catalog, scenario, result) -> list[dict]:
    config = with_site_scales(configuration_of(catalog, scenario, result, "none"), DECODE,
                              PREFILL)
    loads = [Load("single_stream", 1, 512, 0), Load("single_stream", 1, 1, 128)]
    pp, tg = predict(config, 4096, loads)
    return [samples.llama_bench_test(512, 0, round(pp["prefill_s"], 6)),
            samples.llama_bench_test(0, 128, round(tg["itl_s"] * 128, 6))]


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(HERE)}")


def main() -> None:
    catalog = load_catalog(include_user=False)
    scenario = api.load_scenario(api.example("small-chat"))
    result = api.size(scenario, catalog)
    all_runs = runs()
    sweep, rate = all_runs[:-1], all_runs[-1]
    good = HERE / "fixtures"
    for run in sweep:
        write(good / "vllm" / f"vllm-c{run['concurrency']}.json", samples.vllm_text([run]))
    write(good / "vllm-appended.jsonl", samples.vllm_text(sweep[2:4]))
    write(good / "vllm-rate.json", samples.vllm_text([rate]))
    write(good / "sglang.jsonl", "".join(samples.sglang_line(r) + "\n" for r in sweep))
    write(good / "aiperf-c8.json", json.dumps(samples.aiperf_export(sweep[3]), indent=2))
    write(good / "genai-perf-c8.json", json.dumps(samples.genai_perf_export(sweep[3]),
                                                  indent=2))
    write(good / "genai-perf-flat-c8.json",
          json.dumps(samples.genai_perf_export(sweep[3], flat=True), indent=2))
    write(good / "guidellm.json", json.dumps(samples.guidellm_report([*sweep[:5], rate])))
    tests = single_stream(catalog, scenario, result)
    write(good / "llama-bench.json", json.dumps(tests, indent=2))
    write(good / "llama-bench.jsonl", "".join(json.dumps(t) + "\n" for t in tests))
    write(good / "sweep.csv", samples.csv_text(sweep))
    broken = HERE / "fixtures" / "broken"
    text = samples.vllm_text([sweep[3]])
    write(broken / "vllm-truncated.json", text[: len(text) // 2])
    missing = samples.vllm_result(sweep[3])
    del missing["mean_ttft_ms"]
    write(broken / "vllm-no-ttft.json", json.dumps(missing))
    failed = {**samples.vllm_result(sweep[3]), "completed": 0, "failed": 32}
    write(broken / "vllm-all-failed.json", json.dumps(failed))
    lines = "".join(samples.sglang_line(r) + "\n" for r in sweep[:3])
    write(broken / "sglang-truncated.jsonl", lines[:-40])
    export = samples.aiperf_export(sweep[3])
    del export["inter_token_latency"]
    write(broken / "aiperf-no-itl.json", json.dumps(export, indent=2))
    report = samples.guidellm_report(sweep[:2])
    del report["benchmarks"][1]["metrics"]["time_to_first_token_ms"]
    write(broken / "guidellm-no-ttft.json", json.dumps(report))
    write(broken / "llama-bench-pg.json",
          json.dumps([samples.llama_bench_test(512, 128, 2.0)], indent=2))
    write(broken / "scenario.json", json.dumps(api.example("small-chat"), indent=2))
    write(broken / "no-ttft-column.csv",
          "# " + samples.NOTE + "\nconcurrency,itl_ms,output_tokens_per_s\n1,25.0,40.0\n")
    write(broken / "bad-number.csv",
          "concurrency,ttft_ms,itl_ms,output_tokens_per_s\n1,fast,25.0,40.0\n")
    write(broken / "notes.txt", "Ran the benchmark on Tuesday; numbers looked fine.\n")


if __name__ == "__main__":
    main()
