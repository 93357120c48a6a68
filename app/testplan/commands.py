"""Command lines of the load test: the serving engine with the sized settings, and the load
generators with the plan's levels.

A command is a list of arguments; ``$NAME`` in an argument is a shell variable the script
sets (``MODEL``, ``HOST``, ``PORT``, ``BASE_URL``, ``RESULTS``, ``TOKENIZER``).
:func:`shell` writes one as a shell line. The flags were taken from the tools' own code:

- ``vllm serve`` and ``vllm bench serve``: vllm-project/vllm, vllm/benchmarks/serve.py
  (commit 009e6d4a) and the engine arguments (``--tensor-parallel-size``, ``--max-model-len``,
  ``--gpu-memory-utilization``, ``--kv-cache-dtype``, ``--max-num-seqs``,
  ``--max-num-batched-tokens``);
- ``python -m sglang.launch_server`` and ``python -m sglang.bench_serving``: sgl-project/sglang
  server_args.py and bench_serving.py (commit 0033168f; ``--random-range-ratio 1`` keeps the
  lengths fixed, ``random-ids`` needs no ShareGPT download);
- ``trtllm-serve``: NVIDIA/TensorRT-LLM, tensorrt_llm/commands/serve.py (commit 00209af1;
  the KV cache format goes through ``--config``, a YAML of LLM API options);
- ``llama-server`` and ``llama-bench``: ggml-org/llama.cpp tools/server/README.md (commit
  00dc8057) and tools/llama-bench/llama-bench.cpp (commit 0104b151);
- ``aiperf profile``: ai-dynamo/aiperf 0.1.1 (commit db4f6397); ``genai-perf profile``:
  triton-inference-server/perf_analyzer genai-perf/genai_perf/parser.py (commit 263c5f6e);
- ``guidellm run``: vllm-project/guidellm v0.7.3 docs/getting-started/benchmark.md
  (commit ee7a7745).
"""

from __future__ import annotations

import json
import re

from app.domain.testplan import LoadLevel, TestPlanResult

Command = list[str]

VLLM_DTYPES = {"fp16": "float16", "bf16": "bfloat16"}
KV_VLLM = {"fp8": "fp8"}
KV_SGLANG = {"fp8": "fp8_e4m3"}
KV_LLAMA = {"fp16": "f16", "bf16": "bf16", "fp8": "q8_0", "int8": "q8_0"}
#: Weight formats the engine quantises on load from a 16-bit checkpoint (flag value).
ONLINE_QUANTISATION = {"fp8": "fp8"}
PERCENTILES = "50,90,99"


def flag(command: Command, name: str) -> str | None:
    """The value after ``name`` in ``command`` (None when absent)."""
    if name in command:
        index = command.index(name)
        return command[index + 1] if index + 1 < len(command) else ""
    return None


def compute_dtype(plan: TestPlanResult) -> str:
    """The 16-bit activation format: float16 when the KV cache or weights are FP16."""
    return "float16" if "fp16" in (plan.kv_cache, plan.weights) else "bfloat16"


def quantisation(plan: TestPlanResult) -> str | None:
    """The engine's flag value for quantising on load (None: the checkpoint has the format)."""
    if plan.weights == plan.native_precision:
        return None
    return ONLINE_QUANTISATION.get(plan.weights)


def needs_checkpoint(plan: TestPlanResult) -> bool:
    """Whether the weights must come as a checkpoint already in the sized format."""
    return (plan.weights != plan.native_precision and plan.weights not in VLLM_DTYPES
            and quantisation(plan) is None)


# --------------------------------------------------------------------------- engines


def vllm_serve(plan: TestPlanResult) -> Command:
    command = ["vllm", "serve", "$MODEL",
               "--tensor-parallel-size", str(plan.tensor_parallel),
               "--pipeline-parallel-size", str(plan.pipeline_parallel),
               "--max-model-len", str(plan.context_tokens),
               "--gpu-memory-utilization", f"{plan.memory_fraction:g}",
               "--max-num-seqs", str(plan.batch_limit),
               "--max-num-batched-tokens", str(plan.batched_tokens),
               "--kv-cache-dtype", KV_VLLM.get(plan.kv_cache, "auto"),
               "--dtype", compute_dtype(plan)]
    if quantisation(plan):
        command += ["--quantization", quantisation(plan)]
    return command + ["--host", "$HOST", "--port", "$PORT"]


def sglang_serve(plan: TestPlanResult) -> Command:
    command = ["python", "-m", "sglang.launch_server", "--model-path", "$MODEL",
               "--tp-size", str(plan.tensor_parallel),
               "--pp-size", str(plan.pipeline_parallel),
               "--context-length", str(plan.context_tokens),
               "--mem-fraction-static", f"{plan.memory_fraction:g}",
               "--max-running-requests", str(plan.batch_limit),
               "--chunked-prefill-size", str(plan.batched_tokens),
               "--kv-cache-dtype", KV_SGLANG.get(plan.kv_cache, "auto"),
               "--dtype", compute_dtype(plan)]
    if quantisation(plan):
        command += ["--quantization", quantisation(plan)]
    return command + ["--host", "$HOST", "--port", "$PORT"]


TRTLLM_OPTIONS = "trtllm-llm-api-options.yaml"


def trtllm_options(plan: TestPlanResult) -> str | None:
    """The YAML of LLM API options ``trtllm-serve --config`` reads (None: none needed)."""
    if plan.kv_cache != "fp8":
        return None
    return "kv_cache_config:\n  dtype: fp8\n"


def trtllm_serve(plan: TestPlanResult) -> Command:
    command = ["trtllm-serve", "$MODEL", "--backend", "pytorch",
               "--tp_size", str(plan.tensor_parallel),
               "--pp_size", str(plan.pipeline_parallel),
               "--max_seq_len", str(plan.context_tokens),
               "--max_batch_size", str(plan.batch_limit),
               "--max_num_tokens", str(plan.batched_tokens),
               "--kv_cache_free_gpu_memory_fraction", f"{plan.memory_fraction:g}"]
    if trtllm_options(plan):
        command += ["--config", TRTLLM_OPTIONS]
    return command + ["--host", "$HOST", "--port", "$PORT"]


def llama_split(plan: TestPlanResult) -> list[str]:
    if plan.gpus_per_replica == 1:
        return []
    return ["--split-mode", "row" if plan.tensor_parallel > 1 else "layer"]


def llama_server(plan: TestPlanResult) -> Command:
    """llama-server: the context is shared by the parallel slots, so -c is per slot x slots."""
    kv = KV_LLAMA.get(plan.kv_cache, "f16")
    return ["llama-server", "-m", "$MODEL",
            "--ctx-size", str(plan.context_tokens * plan.batch_limit),
            "--parallel", str(plan.batch_limit), "--n-gpu-layers", "999",
            "--batch-size", str(plan.batched_tokens),
            "--ubatch-size", str(min(plan.batched_tokens, 512)),
            "--cache-type-k", kv, "--cache-type-v", kv, "--flash-attn", "on",
            *llama_split(plan), "--host", "$HOST", "--port", "$PORT"]


SERVERS = {"vllm": vllm_serve, "sglang": sglang_serve, "tensorrt-llm": trtllm_serve,
           "llama.cpp": llama_server, "generic": vllm_serve}


def launch(plan: TestPlanResult) -> Command:
    """The engine's launch command with the settings the sizing assumed."""
    return SERVERS[plan.engine](plan)


# --------------------------------------------------------------------------- load generators


def result_name(tool: str, step: LoadLevel, suffix: str = ".json") -> str:
    return f"{tool}-{step.tag}{suffix}"


def vllm_bench(plan: TestPlanResult, step: LoadLevel) -> Command:
    command = ["vllm", "bench", "serve", "--backend", "openai", "--endpoint", "/v1/completions",
               "--base-url", "$BASE_URL", "--model", "$MODEL", "--tokenizer", "$TOKENIZER",
               "--dataset-name", "random",
               "--random-input-len", str(plan.prompt_tokens),
               "--random-output-len", str(plan.output_tokens), "--ignore-eos",
               "--num-prompts", str(step.requests)]
    if step.kind == "concurrency":
        command += ["--max-concurrency", str(step.concurrency), "--request-rate", "inf"]
    else:
        command += ["--request-rate", f"{step.request_rate:.4g}"]
    return command + ["--percentile-metrics", "ttft,tpot,itl,e2el",
                      "--metric-percentiles", PERCENTILES, "--save-result",
                      "--result-dir", "$RESULTS",
                      "--result-filename", result_name("vllm", step)]


def sglang_bench(plan: TestPlanResult, step: LoadLevel) -> Command:
    command = ["python", "-m", "sglang.bench_serving", "--backend", "sglang-oai",
               "--base-url", "$BASE_URL", "--model", "$MODEL", "--tokenizer", "$TOKENIZER",
               "--dataset-name", "random-ids",
               "--random-input-len", str(plan.prompt_tokens),
               "--random-output-len", str(plan.output_tokens), "--random-range-ratio", "1",
               "--num-prompts", str(step.requests)]
    if step.kind == "concurrency":
        command += ["--max-concurrency", str(step.concurrency), "--request-rate", "inf"]
    else:
        command += ["--request-rate", f"{step.request_rate:.4g}"]
    return command + ["--output-file", "$RESULTS/sglang.jsonl"]


def _profile(tool: str, plan: TestPlanResult, step: LoadLevel) -> Command:
    command = [*tool.split(), "--model", "$MODEL", "--tokenizer", "$TOKENIZER",
               "--url", "$HOST:$PORT", "--endpoint-type", "completions", "--streaming",
               "--synthetic-input-tokens-mean", str(plan.prompt_tokens),
               "--synthetic-input-tokens-stddev", "0",
               "--output-tokens-mean", str(plan.output_tokens),
               "--output-tokens-stddev", "0", "--extra-inputs", "ignore_eos:true"]
    if step.kind == "concurrency":
        command += ["--concurrency", str(step.concurrency)]
    else:
        command += ["--request-rate", f"{step.request_rate:.4g}"]
    name = tool.split()[0]
    return command + ["--request-count", str(step.requests),
                      "--artifact-dir", f"$RESULTS/{name}-{step.tag}"]


def aiperf(plan: TestPlanResult, step: LoadLevel) -> Command:
    return _profile("aiperf profile", plan, step)


def genai_perf(plan: TestPlanResult, step: LoadLevel) -> Command:
    return _profile("genai-perf profile", plan, step)


def guidellm(plan: TestPlanResult, steps: list[LoadLevel]) -> Command:
    """One guidellm run for all ``steps`` of one kind (a list-valued profile)."""
    closed = steps[0].kind == "concurrency"
    if closed:
        profile = {"kind": "concurrent", "streams": [s.concurrency for s in steps]}
    else:
        profile = {"kind": "poisson", "rate": [round(s.request_rate, 4) for s in steps]}
    counts = ",".join(str(s.requests) for s in steps)
    return ["guidellm", "run", "--backend",
            "kind=openai_http,target=$BASE_URL,model=$MODEL",
            "--data", f"kind=synthetic_text,prompt_tokens={plan.prompt_tokens},"
                      f"output_tokens={plan.output_tokens}",
            "--profile", json.dumps(profile, separators=(",", ":")),
            "--constraint", f"kind=max_requests,count={steps[0].requests}",
            "--override", "constraint[0].count", counts,
            "--output", "kind=json,path=$RESULTS/guidellm-"
                        f"{'sweep' if closed else 'rates'}.json"]


def llama_bench(plan: TestPlanResult) -> list[Command]:
    """Prompt processing alone (-p) and generation after the prompt as context (-n, -d)."""
    kv = KV_LLAMA.get(plan.kv_cache, "f16")
    common = ["-ngl", "999", "-fa", "1", "-ctk", kv, "-ctv", kv, "-r", "5", "-o", "json"]
    return [["llama-bench", "-m", "$MODEL", "-p", str(plan.prompt_tokens), "-n", "0",
             *common],
            ["llama-bench", "-m", "$MODEL", "-p", "0", "-n", str(plan.output_tokens),
             "-d", str(plan.prompt_tokens), *common]]


# --------------------------------------------------------------------------- shell


SAFE = re.compile(r"^[A-Za-z0-9_./:=,+-]+$")


def shell_word(word: str) -> str:
    """``word`` quoted for a POSIX shell; ``$NAME`` stays a variable (double quotes)."""
    if SAFE.match(word):
        return word
    if "$" in word and '"' not in word and "`" not in word and "\\" not in word:
        return f'"{word}"'
    return "'" + word.replace("'", "'\\''") + "'"


def shell(command: Command, width: int = 92, indent: str = "  ") -> str:
    """``command`` as a shell line, continued with backslashes to ``width`` columns."""
    lines: list[str] = []
    current = ""
    for word in (shell_word(w) for w in command):
        if current and len(current) + 1 + len(word) > width - 2:
            lines.append(current + " \\")
            current = indent + word
        else:
            current = f"{current} {word}" if current else word
    return "\n".join([*lines, current])
