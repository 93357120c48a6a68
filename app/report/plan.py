"""The validation plan and the serving command: text derived from the scenario and result.

A sizing is an estimate until it is measured on site under representative load (METHOD.md,
Step 5). The plan runs vLLM's ``vllm bench serve`` and NVIDIA AIPerf against one replica with
the scenario's prompt and output lengths at the concurrency levels the result predicts, and
lists the figures to compare with their band. No number is computed here that the result does
not hold; the band is applied as the result defines it (speed x low/high, time / high/low).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.domain.result import OperatingPoint, SizingResult

ROUNDS = 4  # requests per level = rounds x concurrency: a steady state, not only a ramp
MIN_REQUESTS = 16
ENV = 'export MODEL="<served model name>"  BASE_URL="http://<replica address>:8000"'


@dataclass(frozen=True)
class Level:
    """One load level of the plan and what the sizing expects there (one replica)."""

    name: str  # "one user", "scenario load", "saturation"
    point: OperatingPoint

    @property
    def concurrency(self) -> int:
        return max(1, round(self.point.concurrency))

    @property
    def requests(self) -> int:
        return max(MIN_REQUESTS, ROUNDS * self.concurrency)


def levels(result: SizingResult) -> list[Level]:
    """The result's operating points with distinct concurrency, lowest first."""
    p = result.performance
    found: list[Level] = []
    for name, point in (("one user", p.single_user), ("scenario load", p.at_concurrency),
                        ("saturation", p.saturation)):
        level = Level(name, point)
        if all(other.concurrency != level.concurrency for other in found):
            found.append(level)
    return sorted(found, key=lambda level: level.concurrency)


def lengths(result: SizingResult) -> tuple[int, int]:
    workload = result.inputs["workload"]
    return int(workload["prompt_tokens"]), int(workload["output_tokens"])


def vllm_bench(result: SizingResult, level: Level) -> str:
    prompt, output = lengths(result)
    return "\n".join([
        "vllm bench serve --backend openai --endpoint /v1/completions \\",
        '  --base-url "$BASE_URL" --model "$MODEL" \\',
        f"  --dataset-name random --random-input-len {prompt} --random-output-len {output} \\",
        f"  --ignore-eos --num-prompts {level.requests} --max-concurrency {level.concurrency} \\",
        "  --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,99 \\",
        f"  --save-result --result-filename vllm-bench-c{level.concurrency}.json",
    ])


def aiperf(result: SizingResult, level: Level) -> str:
    prompt, output = lengths(result)
    return "\n".join([
        'aiperf profile --model "$MODEL" --url "$BASE_URL" --endpoint-type chat --streaming \\',
        f"  --synthetic-input-tokens-mean {prompt} --synthetic-input-tokens-stddev 0 \\",
        f"  --output-tokens-mean {output} --output-tokens-stddev 0 \\",
        f"  --concurrency {level.concurrency} --request-count {level.requests}",
    ])


@dataclass(frozen=True)
class Expected:
    """Expected figure with its band (low = pessimistic, high = optimistic)."""

    value: float
    low: float
    high: float


def expected(result: SizingResult, level: Level) -> dict[str, Expected]:
    band, point = result.performance.band, level.point
    return {
        "ttft_s": Expected(point.ttft_s, point.ttft_s / band.high, point.ttft_s / band.low),
        "itl_s": Expected(point.itl_s, point.itl_s / band.high, point.itl_s / band.low),
        "tokens_per_s_per_user": Expected(point.tokens_per_s_per_user,
                                          point.tokens_per_s_per_user * band.low,
                                          point.tokens_per_s_per_user * band.high),
        "output_tokens_per_s": Expected(point.output_tokens_per_s,
                                        point.output_tokens_per_s * band.low,
                                        point.output_tokens_per_s * band.high),
    }


def _kv_flag(result: SizingResult, fp8: str) -> list[str]:
    kv = result.selection.chosen.get("kv_precision") or result.inputs["precision"]["kv_cache"]
    return [fp8] if kv == "fp8" else []


def serve_command(result: SizingResult) -> str | None:
    """The serving engine's command line with the sized settings (None for generic)."""
    c, serving = result.selection.chosen, result.inputs["serving"]
    context = result.inputs["workload"]["max_context_tokens"] or result.memory.peak_context_tokens
    t, p = c["tensor_parallel"], c["pipeline_parallel"]
    engine = serving["engine"]
    if engine == "vllm":
        parts = ['vllm serve "$MODEL"', f"--tensor-parallel-size {t}",
                 f"--pipeline-parallel-size {p}", f"--max-model-len {context}",
                 f"--gpu-memory-utilization {serving['memory_fraction']:g}",
                 f"--max-num-seqs {serving['max_batch_size']}",
                 f"--max-num-batched-tokens {serving['max_batched_tokens']}",
                 *_kv_flag(result, "--kv-cache-dtype fp8")]
    elif engine == "sglang":
        parts = ['python -m sglang.launch_server --model-path "$MODEL"', f"--tp-size {t}",
                 f"--pp-size {p}", f"--context-length {context}",
                 f"--mem-fraction-static {serving['memory_fraction']:g}",
                 f"--max-running-requests {serving['max_batch_size']}",
                 f"--chunked-prefill-size {serving['max_batched_tokens']}",
                 *_kv_flag(result, "--kv-cache-dtype fp8_e4m3")]
    elif engine == "tensorrt-llm":
        parts = ['trtllm-serve "$MODEL"', f"--tp_size {t}", f"--pp_size {p}",
                 f"--max_seq_len {context}", f"--max_batch_size {serving['max_batch_size']}",
                 f"--max_num_tokens {serving['max_batched_tokens']}",
                 f"--kv_cache_free_gpu_memory_fraction {serving['memory_fraction']:g}"]
    else:
        return None
    lines, current = [], parts[0]
    for part in parts[1:]:
        if len(current) + len(part) + 3 > 78:
            lines.append(current + " \\")
            current = "  " + part
        else:
            current += " " + part
    return "\n".join([*lines, current])
