"""Calibration: predict published measurements and report the errors.

A measurement ("case", ../shared/data/calibration_cases.json, copied to
resources/calibration/) names a model, formats, GPU, parallelism, engine, request shape, load and
one measured metric. :func:`normalise_case` maps its free-text fields to catalog ids;
:func:`predict` runs the same engine code the sizing uses; :func:`summarise` gives the
median and 90th-percentile absolute relative error per metric.

Metrics (conventions of the case file):

- ``output_throughput_total`` with no concurrency (offline, or Poisson QPS=INF): saturation
  output tokens/s of the whole configuration.
- ``itl_mean`` / ``ttft_mean`` [ms] under Poisson arrivals: open-loop operating point; with
  a number as the concurrency, the closed loop of that many users (so is a throughput).
- ``e2e_latency_mean`` [ms]: TTFT plus the remaining output tokens' ITL, closed loop.
- ``ttft_batch1`` [ms]: one request alone, a pure prefill.
- ``decode_tokens_per_s_per_user``: one stream's generation speed.
- ``prefill_tokens_per_s``: prompt processing rate of one request.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

import numpy as np

from app.domain.catalog import Catalog
from app.engine.configuration import Choice, configure
from app.engine.evaluate import batch_cap, plan_memory, points_at, saturation_of
from app.engine.inference import decode_step, prefill_throughput, prefill_time
from app.engine.performance import Workload, burst, cohort_ttft, open_loop
from app.engine.resolved import SizingError  # a ValueError whose Message the window shows
from app.i18n import msg

MODEL_PATTERNS = (
    (r"llama-4-maverick", "llama-4-maverick"),
    (r"llama-4-scout", "llama-4-scout"),
    (r"llama-3\.3-70b", "llama-3.3-70b"),
    (r"llama-3\.1-405b", "llama-3.1-405b"),
    (r"llama-3\.1-70b", "llama-3.1-70b"),
    (r"llama-3\.1-8b", "llama-3.1-8b"),
    (r"llama-3-70b", "llama-3-70b"),
    (r"llama-3-8b", "llama-3-8b"),
    (r"llama-2-70b|llama-70b", "llama-2-70b"),
    (r"llama-2-7b|llama-7b", "llama-2-7b"),
    (r"mixtral-8x7b", "mixtral-8x7b"),
    (r"mistral-7b", "mistral-7b"),
    (r"qwen3-30b-a3b", "qwen3-30b-a3b"),
    (r"qwen3-8b", "qwen3-8b"),
    (r"qwen3-14b", "qwen3-14b"),
    (r"qwen3-32b", "qwen3-32b"),
    (r"qwen3-235b-a22b", "qwen3-235b-a22b"),
    (r"qwen2\.5-72b", "qwen2.5-72b"),
    (r"qwen2\.5-7b", "qwen2.5-7b"),
    (r"gpt-oss-120b", "gpt-oss-120b"),
    (r"gpt-oss-20b", "gpt-oss-20b"),
    (r"gpt-j-6b", "gpt-j-6b"),
    (r"deepseek-r1", "deepseek-r1"),
    (r"deepseek-v3", "deepseek-v3"),
    (r"glm-4\.6", "glm-4.6"),
    (r"falcon-180b", "falcon-180b"),
)
GPU_PATTERNS = (
    (r"gaudi ?3.*(pcie|hl-338)", "gaudi3-pcie"),
    (r"gaudi ?3", "gaudi3"),
    (r"gb200", "gb200"),
    (r"b200", "b200"),
    (r"rtx pro 6000 blackwell server", "rtx-pro-6000-bse"),
    (r"mi355x", "mi355x"),
    (r"mi325x", "mi325x"),
    (r"mi300x", "mi300x"),
    (r"gh200.*96", "gh200-96"),
    (r"h200", "h200-sxm"),
    (r"h100 pcie", "h100-pcie"),
    (r"h100", "h100-sxm"),
    (r"a100-pcie-80", "a100-pcie-80"),
    (r"a100", "a100-sxm-80"),
    (r"l40s", "l40s"),
    (r"rtx 4090", "rtx-4090"),
    (r"rtx 4080", "rtx-4080"),
    (r"rtx 3090", "rtx-3090"),
)
PRECISIONS = {"fp8": "fp8", "fp16": "fp16", "f16": "fp16", "bf16": "bf16",
              "q4_k_m": "gguf-q4_k_m", "q4_0": "gguf-q4_0", "q8_0": "gguf-q8_0",
              "nvfp4": "nvfp4", "mxfp4": "mxfp4", "awq": "int4-awq", "gptq": "int4-gptq"}
#: Precision texts whose first word is not the format the run used, searched in order: a
#: checkpoint that is natively MXFP4 runs MXFP4 weights whatever a table column says (TRT-LLM
#: serves gpt-oss's MXFP4 experts on Hopper); "(MXFP4)" names the FP4 variant; a KV cache
#: that is not stated but "likely"/"presumed" FP8 is taken as FP8.
PRECISION_PATTERNS = (
    (r"natively mxfp4|\(mxfp4\b|^mxfp4", "mxfp4"),
    (r"\(nvfp4\b", "nvfp4"),
    (r"^unknown \(fp8 likely", "fp8"),
    (r"^int4 w4a16", "int4-gptq"),
    (r"gptq int8|int8 checkpoint presumed|w8a16", "int8-gptq"),
    (r"^not stated \(.*(bf16|auto)", "bf16"),
)
#: KV-cache texts that mean "the model's own 16-bit dtype" (vLLM's and TRT-LLM's ``auto``).
NATIVE_KV = ("auto",)
#: A case's GPU or engine text that names Intel Gaudi.
GAUDI = r"gaudi|\bhpu\b|habana"
#: Accelerators whose serving stack, when a case does not name it, is inferred, with the
#: reason: Intel's Gaudi 3 throughput table (SynapseAI 1.18.0) names no framework, and its
#: rows are single static batches of 44 to 4,000 prompts with fixed input and output
#: lengths, the form of optimum-habana's text-generation benchmark (run_generation.py
#: --batch_size); vLLM's scheduler would not hold 4,000 sequences (max_num_seqs 256).
INFERRED_ENGINES = (
    (GAUDI, "optimum-habana"),
)
#: Accelerators whose serving stacks other than the inferred one have no engine profile, with
#: the reason: a case measured with one is skipped rather than predicted with a CUDA/ROCm
#: engine's factors (vLLM's HPU plugin is its own backend: bucketed HPU graphs, not CUDA's).
UNPROFILED_ACCELERATORS = (
    (GAUDI,
     "Intel Gaudi: the only engine profile for it is optimum-habana's static batching; "
     "vLLM's HPU plugin and TGI-Gaudi have none (the CUDA/ROCm profiles do not serve it)"),
)
ENGINES = (("tensorrt-llm", "tensorrt-llm"), ("nim", "tensorrt-llm"),
           ("llama.cpp", "llama.cpp"), ("vllm", "vllm"), ("sglang", "sglang"),
           ("optimum-habana", "optimum-habana"), ("optimum habana", "optimum-habana"))
#: Engines that run one static batch (no continuous batching): a stated batch size is
#: ``N`` prompts sent at once (``performance.burst`` with ``N`` within the batch cap: one
#: prefill of all prompts, then the decode of all together), not a closed loop of users.
STATIC_BATCH_ENGINES = ("optimum-habana",)
#: Engines whose FP8 quantisation quantises the KV cache too, so a case with FP8 weights and
#: an unstated KV cache ran an FP8 one: optimum-habana's ``--fp8`` runs Intel Neural
#: Compressor's FP8 flow, which patches the KV-cache modules as well (``PatchedKVCache``,
#: neural_compressor/torch/algorithms/fp8_quant). Intel's Gaudi 3 rows confirm it: Llama 3.1
#: 8B with 768 sequences of 2,176 tokens needs 219 GB of BF16 KV cache on a 128 GB card,
#: 109 GB in FP8.
FP8_KV_ENGINES = ("optimum-habana",)
UNSTATED_PROMPT = 16  # llama.cpp 'tg' runs generate from an (almost) empty prompt
UNSTATED_OUTPUT = 512
#: Metrics of one stream alone, where an unstated prompt is llama.cpp's (almost) empty one.
SINGLE_STREAM_METRICS = ("decode_tokens_per_s_per_user", "ttft_batch1", "prefill_tokens_per_s")


@dataclass(frozen=True)
class Case:
    """A measurement in catalog terms."""

    id: str
    model: str
    weights: str
    kv_cache: str
    gpu: str
    tensor_parallel: int
    pipeline_parallel: int
    engine: str
    prompt_tokens: int
    output_tokens: int
    arrival_rate: float | None
    metric: str
    measured: float
    source: str
    concurrency: float | None = None  # users of a closed loop; None: arrivals or offline
    replicas: int = 1  # data-parallel replicas behind a system figure
    engine_version: str = "unstated"  # release class (engine_version_class)
    prompts: float | None = None  # requests sent at once when no concurrency is stated
    expert_parallel: int = 1  # EP degree of a stage's experts (1: off)
    dp_attention: bool = False  # data-parallel attention over a stage's GPUs
    varied_output: bool = False  # output lengths vary about osl (recorded conversations)
    lockstep: bool = False  # every request has the same lengths (a closed loop runs in waves)
    max_model_len: int | None = None  # the server's stated --max-model-len [tokens]
    offline: bool = False  # measured by an in-process harness, no API server in front
    fp8_blocks: bool | None = None  # FP8 weights stated block-scaled (None: not stated)


def _match(patterns, text: str, what: str) -> str:
    key = text.lower().replace(" ", "-") if what == "model" else text.lower()
    for pattern, value in patterns:
        if re.search(pattern, key):
            return value
    raise ValueError(f"no catalog {what} matches '{text}'")


def _precision(text: str, native: str | None = None) -> str:
    """Catalog id of a case's precision text (ValueError when it names none).

    ``native``: the id an ``auto`` KV cache stands for (the model's 16-bit dtype).
    """
    lowered = text.lower()
    for pattern, value in PRECISION_PATTERNS:
        if re.search(pattern, lowered):
            return value
    token = lowered.split()[0]
    if token in NATIVE_KV and native is not None:
        return native
    if lowered == "not stated" and native is not None:
        return native  # the engines' default KV cache: the model's dtype
    if token == "fp4":
        raise ValueError(f"precision '{text}' does not say which FP4 (NVFP4 or MXFP4)")
    if token not in PRECISIONS:
        raise ValueError(f"unknown precision '{text}'")
    return PRECISIONS[token]


def _arrival_rate(concurrency, request_rate=None) -> float | None:
    if isinstance(request_rate, int | float) and not isinstance(request_rate, bool):
        return float(request_rate)
    if isinstance(concurrency, str):
        match = re.search(r"qps=([0-9.]+)", concurrency.lower())
        return float(match.group(1)) if match else None
    return None


def _concurrency(concurrency) -> float | None:
    """Users of a closed loop (a number in the case file), None for arrivals or offline."""
    if isinstance(concurrency, bool) or not isinstance(concurrency, int | float):
        return None
    return float(concurrency)


#: Metrics given in milliseconds, and the factor of each time unit a case may state them in.
TIME_METRICS_MS = ("itl_mean", "tpot_mean", "ttft_mean", "ttft_median", "ttft_batch1",
                   "e2e_latency_mean")
TIME_UNITS = {"ms": 1.0, "s": 1e3}


def engine_version_class(engine: str, text: str) -> str:
    """The release line of a case's engine whose behaviour differs (its regime, beside the
    engine): TensorRT-LLM ``0.x`` (C++ runtime, TensorRT engines) or ``1.x`` (PyTorch
    backend), vLLM ``V0`` (before 0.8, or stated) or ``V1``, SGLang ``0.4`` or ``0.5``;
    ``NIM`` for NVIDIA NIM; optimum-habana by the Intel Gaudi software release it ran on
    (``Gaudi 1.18``); ``unstated`` when the text names none."""
    lowered = text.lower()
    found = re.search(r"(\d+)\.(\d+)", lowered)
    if engine == "tensorrt-llm":
        if "nim" in lowered:
            return "NIM"
        if "post-1.0" in lowered:
            return "1.x"
        line = f"{found.group(1)}.x" if found and found.group(1) in ("0", "1") else "unstated"
        # 0.17-0.20 shipped the PyTorch backend beside the TensorRT engines: its executor
        # loop is the Python one of 1.x (engines.toml host_loops)
        return "0.x PyTorch" if line == "0.x" and "pytorch" in lowered else line
    if engine == "vllm":
        if "v0 engine" in lowered or "v1" in lowered:
            return "V0" if "v0 engine" in lowered else "V1"
        if not found:
            return "unstated"
        return "V0" if (int(found.group(1)), int(found.group(2))) < (0, 8) else "V1"
    if engine == "sglang" and found:
        return f"{found.group(1)}.{found.group(2)}"
    if engine == "optimum-habana" and found:  # the Intel Gaudi software release
        return f"Gaudi {found.group(1)}.{found.group(2)}"
    year = re.search(r"(20\d\d)", lowered)
    return year.group(1) if year else "unstated"


def _measured(raw: dict) -> float:
    """The case's value in the metric's unit (times in ms; a case may state seconds)."""
    value = float(raw["metric_value"])
    if raw["metric_name"] not in TIME_METRICS_MS:
        return value
    unit = raw.get("unit") or "ms"
    if unit not in TIME_UNITS:
        raise ValueError(f"unit '{unit}' of {raw['metric_name']} is not one of "
                         f"{sorted(TIME_UNITS)}")
    return value * TIME_UNITS[unit]


def _replicas(raw: dict, tensor_parallel: int, pipeline_parallel: int) -> int:
    """Data-parallel replicas behind a system figure: ``gpu_count / (tp pp)``."""
    gpus = raw.get("gpu_count")
    per_replica = tensor_parallel * pipeline_parallel
    if not gpus:
        return 1
    if int(gpus) % per_replica:
        raise ValueError(f"{gpus} GPUs are not a whole number of TP {tensor_parallel} x "
                         f"PP {pipeline_parallel} replicas")
    return int(gpus) // per_replica


#: SGLang releases up to this one set the attention-DP degree to the TP size when
#: ``--enable-dp-attention`` is given (``server_args``: ``self.dp_size = self.tp_size``);
#: later ones take it from ``--dp`` (default 1: one attention rank, tensor-parallel attention).
SGLANG_DP_IS_TP_UNTIL = (0, 4, 3)


def _expert_parallel(raw: dict, tensor_parallel: int) -> tuple[int, bool]:
    """The case's expert-parallel degree (1: off) and whether attention is data-parallel
    over the GPUs of a stage (SGLang ``--dp`` equal to ``--tp``, TensorRT-LLM
    ``enable_attention_dp``).

    ``--enable-dp-attention`` without ``--dp`` on SGLang: DP over every GPU up to
    :data:`SGLANG_DP_IS_TP_UNTIL`, one rank (so tensor-parallel attention) after it. A stated
    DP size between 1 and the TP size is refused (not modelled).
    """
    ep = int(raw.get("ep") or 1)
    dp_attention = bool(raw.get("dp_attention"))
    dp = raw.get("dp")
    engine = raw.get("engine", "").lower()
    if dp_attention and dp is None and "sglang" in engine:
        found = re.search(r"(\d+)\.(\d+)\.(\d+)", engine)
        release = tuple(int(x) for x in found.groups()) if found else None
        dp = tensor_parallel if release and release <= SGLANG_DP_IS_TP_UNTIL else 1
    if dp_attention and dp not in (None, 1, tensor_parallel):
        raise ValueError(f"DP attention over {dp} of {tensor_parallel} tensor-parallel GPUs "
                         "is not modelled (only over all of them)")
    dp_attention = dp_attention and dp != 1 and tensor_parallel > 1
    if (dp_attention and "sglang" in engine and raw.get("metric_name") in LOADED_TTFT
            and raw.get("concurrency") not in (None, 1)):
        raise ValueError("TTFT under load with SGLang's DP attention (prompts wait for the "
                         "DP ranks' joint prefill steps, measured 4-11 s against a 0.2 s "
                         "prefill) is not modelled")
    return ep, dp_attention


#: TTFT metrics measured under load (the closed-loop or open-loop mean).
LOADED_TTFT = ("ttft_mean", "ttft_median")


def _parallel(raw: dict, field: str) -> int:
    value = raw.get(field)
    if value is None:
        if int(raw.get("gpu_count") or 0) == 1:
            return 1  # one GPU: no parallelism to state
        raise ValueError(f"'{field}' is not stated for {raw.get('gpu_count')} GPUs")
    return int(value)


def _prompt_tokens(raw: dict) -> int:
    if raw.get("isl"):
        return int(raw["isl"])
    if raw.get("metric_name") in SINGLE_STREAM_METRICS:
        return UNSTATED_PROMPT
    raise ValueError("the prompt length ('isl') is not stated")


def _engine(raw: dict) -> str:
    """The engine profile of a case: the one its engine text names, else the one inferred
    for its accelerator (:data:`INFERRED_ENGINES`) when the text names none (ValueError when
    neither, or when the named engine has no profile for that accelerator)."""
    text = raw["engine"].lower()
    hardware = f"{raw['gpu']} {raw['engine']}".lower()
    named = next((eid for key, eid in ENGINES if key in text), None)
    for pattern, inferred in INFERRED_ENGINES:
        if re.search(pattern, hardware):
            if named in (None, inferred) and (named or text.startswith("not stated")):
                return inferred
            reason = next(r for p, r in UNPROFILED_ACCELERATORS if re.search(p, hardware))
            raise ValueError(reason)
    if named is None:
        raise ValueError(f"unknown engine '{raw['engine']}'")
    return named


#: Data sets whose requests keep their recorded, varying lengths (``osl`` is their mean).
VARIED_LENGTH_DATASETS = (r"sharegpt", r"variable lengths")


def _varied_output(raw: dict) -> bool:
    """Whether the case's output lengths vary about its ``osl`` (ShareGPT and other recorded
    conversations; synthetic and random data sets fix them)."""
    dataset = str(raw.get("dataset") or "").lower()
    return any(re.search(pattern, dataset) for pattern in VARIED_LENGTH_DATASETS)


def normalise_case(raw: dict) -> Case:
    """Map one case of the case file to catalog ids (ValueError when it cannot)."""
    engine = _engine(raw)
    static_batch = engine in STATIC_BATCH_ENGINES
    metric = raw["metric_name"]
    if metric not in METRIC_GROUPS:
        raise ValueError(f"unknown metric '{metric}'")
    weights = _precision(raw["weights_precision"])
    tensor_parallel = _parallel(raw, "tp")
    pipeline_parallel = _parallel(raw, "pp")
    expert_parallel, dp_attention = _expert_parallel(raw, tensor_parallel)
    replicas = _replicas(raw, tensor_parallel, pipeline_parallel)
    gpu = _match(GPU_PATTERNS, raw["gpu"], "gpu")
    _check_run_length(raw)
    return Case(
        id=raw["id"],
        model=_match(MODEL_PATTERNS, raw["model"], "model"),
        weights=weights,
        kv_cache=_precision(raw["kv_precision"], native="fp8" if (
            engine in FP8_KV_ENGINES and weights == "fp8") else "bf16"),
        gpu=gpu,
        tensor_parallel=tensor_parallel,
        pipeline_parallel=pipeline_parallel,
        engine=engine,
        prompt_tokens=_prompt_tokens(raw),
        output_tokens=int(raw["osl"] or UNSTATED_OUTPUT),
        arrival_rate=_arrival_rate(raw["concurrency"], raw.get("request_rate")),
        metric=metric,
        measured=_measured(raw),
        source=raw["source"],
        concurrency=None if static_batch else _concurrency(raw["concurrency"]),
        replicas=replicas,
        prompts=_concurrency(raw["concurrency"] if static_batch else raw.get("num_prompts")),
        engine_version=engine_version_class(engine, raw["engine"]),
        expert_parallel=expert_parallel,
        dp_attention=dp_attention,
        varied_output=_varied_output(raw),
        lockstep=_fixed_lengths(raw),
        max_model_len=_max_model_len(raw),
        offline=_offline_harness(raw),
        fp8_blocks=_fp8_blocks(raw),
    )


def _fp8_blocks(raw: dict) -> bool | None:
    """True when the case states its FP8 weights block-scaled ("block-scaled", DeepSeek-V3's
    128x128 format; Qwen's -FP8 checkpoints), False when it states per-tensor or per-channel
    scales, None when it states neither (the model's native format decides:
    ``configuration.block_fp8_share``)."""
    text = raw["weights_precision"].lower()
    if "block-scaled" in text or "block scales" in text:
        return True
    if re.search(r"per-tensor|per-channel|per-token", text):
        return False
    return None


#: Benchmarks that queue all their requests at once and report the whole run, its ramp-up
#: and tail included, unless a concurrency or a rate is given (``trtllm-bench throughput``;
#: NVIDIA's perf-overview states the request count per ISL/OSL in its dataset table).
QUEUE_ALL_BENCHMARKS = r"trtllm-bench throughput"


def _check_run_length(raw: dict) -> None:
    """Refuse an all-at-once run (:data:`QUEUE_ALL_BENCHMARKS`) whose request count is not
    stated (ValueError): its figure is that of a run of ``N`` requests (``performance.burst``:
    ramp-up, steady refills, tail), not of the steady saturation point the engine would
    otherwise predict. The perf-overview's 1000/1000 rows list no count and measure within
    1 % of the 1024/1024 rows of the same column, which were run with 3,000 requests and are
    predicted 1.02-1.19x below saturation (Qwen3-235B B200 DEP4: 5,764 and 5,756 tokens/s per
    GPU measured, pub-109 and pub-718; METHOD.md, "Attention-DP balance")."""
    text = f"{raw.get('benchmark_tool') or ''} {raw.get('notes') or ''}".lower()
    if (raw.get("num_prompts") is None and raw.get("concurrency") is None
            and raw.get("request_rate") is None and re.search(QUEUE_ALL_BENCHMARKS, text)):
        raise ValueError("the number of requests ('num_prompts') of this all-at-once run is not "
                         "stated, and its ramp-up and tail depend on it")


#: Benchmark tools that drive the engine in-process, with no API server in front.
OFFLINE_HARNESSES = r"gptsessionbenchmark|gptmanagerbenchmark|trtllm-bench|benchmark_latency" \
    r"|vllm bench latency|llama-bench"


def _offline_harness(raw: dict) -> bool:
    """Whether the case was measured by an offline harness (:data:`OFFLINE_HARNESSES`) rather
    than through the engine's API server. TensorRT-LLM 0.x figures from NVIDIA's own
    TensorRT-LLM documentation are gptSessionBenchmark runs (its performance pages say so;
    inferred for the pages that do not name the tool)."""
    text = f"{raw.get('benchmark_tool') or ''} {raw.get('notes') or ''} {raw['engine']}".lower()
    if re.search(OFFLINE_HARNESSES, text):
        return True
    return (raw["engine"].lower().startswith("tensorrt-llm 0.")
            and "nvidia/tensorrt-llm" in raw["source"].lower()
            and raw.get("metric_name") == "ttft_batch1")


def _fixed_lengths(raw: dict) -> bool:
    """Whether every request of the run has the same prompt and output lengths: the dataset
    says so ("fixed", "--random-range-ratio 1", "stdev 0")."""
    text = str(raw.get("dataset") or "").lower()
    return bool(re.search(r"\bfixed\b|range.ratio 1\b|stdev 0\b", text))


def _max_model_len(raw: dict) -> int | None:
    """The serving command's ``--max-model-len`` when the case states it [tokens]."""
    if raw.get("max_model_len"):
        return int(raw["max_model_len"])
    found = re.search(r"--max-model-len[ =](\d+)", f"{raw.get('notes', '')} {raw['source']}")
    return int(found.group(1)) if found else None


@dataclass(frozen=True)
class Skipped:
    """A case of the case file the engine cannot express, and why."""

    id: str
    reason: str


def load_cases(raws: list[dict], catalog: Catalog) -> tuple[list[Case], list[Skipped]]:
    """Every case of a case file in catalog terms, and those skipped with the reason.

    A case is skipped, never dropped silently, when one of its settings has no catalog
    counterpart (an engine, GPU or model the catalog lacks, an ambiguous format), is not
    stated (a prompt length, the parallelism of a multi-GPU run), or measured a serving path
    the engine's profile refuses (``unsupported_formats``: a kernel it lacks, or a fallback
    no profile models; the sizing refuses the same configuration).
    """
    cases: list[Case] = []
    skipped: list[Skipped] = []
    for raw in raws:
        try:
            case = normalise_case(raw)
            refusal = refused_path(case, catalog)
            if refusal:
                raise ValueError(refusal)
            cases.append(case)
        except ValueError as exc:  # a missing field (KeyError) is a malformed file
            skipped.append(Skipped(str(raw.get("id", "?")), str(exc)))
    return cases, skipped


def refused_path(case: Case, catalog: Catalog) -> str | None:
    """Why the case's engine profile refuses its weight format on its GPU's family (the
    profile's words and source), or None."""
    engine = catalog.engine(case.engine)
    missing = engine.unsupported(case.weights, catalog.gpu(case.gpu).family,
                                 catalog.model(case.model).moe is not None)
    if missing is None:
        return None
    what = "no profile models this path" if missing.kind == "unmodelled" else "no kernel"
    return f"{engine.name} {missing.kernel} ({what}; {missing.source})"


def predict(case: Case, catalog: Catalog, overrides: dict[str, float] | None = None) -> float:
    """The engine's figure for the case's metric, in the case's unit."""
    model = catalog.model(case.model)
    choice = Choice(case.gpu, case.tensor_parallel, case.pipeline_parallel, case.weights,
                    case.kv_cache, case.engine, case.expert_parallel, case.dp_attention,
                    case.engine_version, case.fp8_blocks)
    config = configure(catalog, model, choice, overrides,
                       **v1_batch_defaults(case, catalog.gpu(case.gpu)))
    work = Workload(case.prompt_tokens, case.output_tokens)
    replica = config.replica
    metric = case.metric
    if metric == "ttft_batch1":
        return prefill_time(replica, case.prompt_tokens, served=not case.offline) * 1e3
    if metric == "prefill_tokens_per_s":
        return prefill_throughput(replica, case.prompt_tokens)
    if metric == "decode_tokens_per_s_per_user":
        return float(1.0 / decode_step(replica, 1.0, work.average_context).itl[0])
    plan = plan_memory(config, work, case.prompt_tokens + case.output_tokens)
    point = _operating_point(case, config, plan, work)
    output = float(point.output_tokens_per_s[0])
    if metric == "output_throughput_per_gpu":
        return output / replica.gpus
    if metric == "output_throughput_total":
        return output * case.replicas
    if metric == "total_throughput_total":  # prompt and output tokens per second
        return output * case.replicas * (case.prompt_tokens + case.output_tokens) \
            / case.output_tokens
    if metric in ("itl_mean", "tpot_mean"):
        return float(point.itl_s[0]) * 1e3
    if metric in LOADED_TTFT and case.lockstep and (case.concurrency or 0) > 1:
        return _lockstep_ttft(case, model, replica, work, batch_cap(config, plan, work))
    if metric in ("ttft_mean", "ttft_median"):
        return float(point.ttft_s[0]) * 1e3
    if metric == "e2e_latency_mean":
        return float(point.ttft_s[0] + (case.output_tokens - 1) * point.itl_s[0]) * 1e3
    raise ValueError(f"{case.id}: unknown metric '{metric}'")


#: vLLM V1's ``max_num_seqs`` default for the OpenAI server, by the GPU's memory
#: (vllm/engine/arg_utils.py, EngineArgs._set_default_args_v1 / get_batch_defaults from 0.9;
#: checked in tests/engine/test_arg_utils.py, test_defaults_with_usage_context): a GPU of
#: 70 GiB or more that is not an A100 runs up to 1024 sequences, any other 256 (V0 and the
#: engine profile: 256) [sequences]. The same table sets ``max_num_batched_tokens`` 8192 and
#: 2048; the 2048 budget is not applied yet (tried: the A100 V1 bursts pub-334..340 fall to
#: 0.46-0.58x, predicted low, beyond-2x 122 instead of 116; METHOD.md).
V1_LARGE_GPU_GIB = 70.0
V1_LARGE_BATCH = 1024
V1_SMALL_BATCH = 256


def v1_batch_defaults(case: Case, gpu) -> dict[str, int]:
    """The batch limit [sequences] vLLM V1's OpenAI server chose for the case's GPU:
    :data:`V1_LARGE_BATCH` on a GPU of at least :data:`V1_LARGE_GPU_GIB` GiB that is not an
    A100, else :data:`V1_SMALL_BATCH`, as ``configure``'s ``batch_limit``; empty (the engine
    profile's) for other engines and vLLM V0."""
    if case.engine != "vllm" or case.engine_version != "V1":
        return {}
    large = gpu.memory_gb * 1e9 >= V1_LARGE_GPU_GIB * 2**30 and "a100" not in gpu.id.lower()
    return {"batch_limit": V1_LARGE_BATCH if large else V1_SMALL_BATCH}


#: vLLM V0's token budget floor without chunked prefill (vllm/config.py SchedulerConfig:
#: ``max(max_model_len, _DEFAULT_MAX_NUM_BATCHED_TOKENS)``, the constant 2048) [tokens].
V0_MIN_BATCHED_TOKENS = 2048


def _lockstep_ttft(case: Case, model, replica, work: Workload, cap: float) -> float:
    """Mean TTFT [ms] of a closed loop of ``C`` users whose requests all have the same
    lengths: the users start together and finish together, so each wave's ``min(C, cap)``
    prompts arrive at once and wait for the ones ahead (:func:`performance.cohort_ttft`).

    vLLM V0 runs MLA models without chunked prefill ("MLA is enabled; forcing chunked
    prefill and prefix caching to be disabled", vllm/config.py VllmConfig, 0.7.x): whole
    prompts per step in a budget of ``max(max_model_len, 2048)`` tokens, ``max_model_len``
    the server's (the model's context when the case does not state it).
    """
    cohort = min(float(case.concurrency) / case.replicas, max(cap, 1.0))
    whole = case.engine == "vllm" and case.engine_version == "V0" and model.mla is not None
    if whole:
        length = case.max_model_len or model.max_context_tokens
        replica = dataclasses.replace(
            replica, max_batched_tokens=max(length, V0_MIN_BATCHED_TOKENS))
    return cohort_ttft(replica, work, cohort, whole) * 1e3


def _operating_point(case: Case, config, plan, work: Workload):
    """The load one replica ran at: a closed loop of users, Poisson arrivals, ``N`` requests
    sent at once, or (none stated, throughput only) the saturation point of an offline run.
    A system figure over data-parallel replicas gives each its share of the load."""
    cap = batch_cap(config, plan, work)
    if case.concurrency is not None:
        return points_at(config, plan, work, [case.concurrency / case.replicas])
    if case.arrival_rate is not None:
        prompts = None if case.prompts is None else case.prompts / case.replicas
        return open_loop(config.replica, work, case.arrival_rate / case.replicas, cap, prompts)
    if case.prompts is not None:
        slots = min(plan.sequences_admitted, plan.batch_limit)
        return burst(config.replica, work, case.prompts / case.replicas, slots, cap,
                     case.varied_output)
    if case.metric in THROUGHPUT_METRICS:
        return saturation_of(config, plan, work)
    raise ValueError(f"{case.id}: {case.metric} needs a concurrency or an arrival rate")


THROUGHPUT_METRICS = ("output_throughput_total", "output_throughput_per_gpu",
                      "total_throughput_total")


METRIC_GROUPS = {
    "output_throughput_total": "saturation throughput",
    "output_throughput_per_gpu": "saturation throughput",
    "decode_tokens_per_s_per_user": "single-user decode",
    "itl_mean": "single-user decode",
    "tpot_mean": "single-user decode",
    "e2e_latency_mean": "single-user decode",
    "total_throughput_total": "saturation throughput",
    "ttft_median": "TTFT",
    "ttft_batch1": "TTFT",
    "ttft_mean": "TTFT",
    "prefill_tokens_per_s": "TTFT",
}


@dataclass(frozen=True)
class Outcome:
    case: Case
    predicted: float

    @property
    def ratio(self) -> float:
        return self.predicted / self.case.measured

    @property
    def error(self) -> float:
        """Absolute relative error [-]."""
        return abs(self.ratio - 1.0)

    @property
    def group(self) -> str:
        return METRIC_GROUPS.get(self.case.metric, self.case.metric)


def run_cases(cases: list[Case], catalog: Catalog,
              overrides: dict[str, float] | None = None) -> list[Outcome]:
    """Predict every case."""
    return [Outcome(case, predict(case, catalog, overrides)) for case in cases]


def summarise(outcomes: list[Outcome]) -> dict[str, dict[str, float]]:
    """Median, 90th percentile and worst absolute error and worst ratio per metric group."""
    summary: dict[str, dict[str, float]] = {}
    for group in sorted({o.group for o in outcomes}):
        errors = np.array([o.error for o in outcomes if o.group == group])
        ratios = np.array([o.ratio for o in outcomes if o.group == group])
        summary[group] = {
            "cases": float(len(errors)),
            "median_abs_error": float(np.median(errors)),
            "p90_abs_error": float(np.percentile(errors, 90)),
            "max_abs_error": float(errors.max()),
            "worst_factor": float(np.max(np.maximum(ratios, 1 / ratios))),
        }
    return summary


#: Every efficiency at 1 and every fixed time at 0: the engine's model of the work at the
#: hardware's peak bandwidth, compute and link (``headroom_at_peak``).
AT_PEAK = {"eta_mem": 1.0, "eta_kv": 1.0, "eta_decode": 1.0, "eta_prefill": 1.0,
           "step_overhead_s": 0.0, "sequence_overhead_s": 0.0, "layer_overhead_s": 0.0,
           "fixed_latency_s": 0.0, "comm_latency_s": 0.0, "comm_efficiency": 1.0}


def headroom_at_peak(case: Case, catalog: Catalog) -> float:
    """How far the engine at the hardware's peak (:data:`AT_PEAK`) beats the measurement [-]:
    its rate over the measured one, or the measured time over its time.

    Below 1 no efficiency can reproduce the case: the engine counts more work (bytes, FLOPs,
    collectives, queueing) than the run did, or the case's settings are not what ran. Such a
    case points at the model's structure, not its factors; Falcon's second all-reduce per
    layer was found this way (METHOD.md, "Falcon's one all-reduce per layer").
    """
    at_peak = predict(case, catalog, AT_PEAK)
    if case.metric in TIME_METRICS_MS:
        return case.measured / at_peak
    return at_peak / case.measured


def beyond_reach(cases: list[Case], catalog: Catalog) -> list[tuple[Case, float]]:
    """The cases whose :func:`headroom_at_peak` is below 1, least headroom first."""
    found = [(case, headroom_at_peak(case, catalog)) for case in cases]
    return sorted(((c, h) for c, h in found if h < 1.0), key=lambda item: item[1])


MEASURABLE = ("itl_s", "tokens_per_s_per_user", "output_tokens_per_s", "ttft_s")


def predicted_at(config_for, metric: str, concurrency: float, speed: float) -> float:
    """The engine's ``metric`` at ``concurrency`` with every efficiency scaled by ``speed``."""
    config, plan, work = config_for(speed)
    point = points_at(config, plan, work, [concurrency])
    values = {"itl_s": point.itl_s[0], "tokens_per_s_per_user": 1 / point.itl_s[0],
              "output_tokens_per_s": point.output_tokens_per_s[0], "ttft_s": point.ttft_s[0]}
    return float(values[metric])


def speed_for_measurement(config_for, metric: str, measured: float, concurrency: float,
                          low: float = 0.2, high: float = 5.0) -> float:
    """The factor on every efficiency that reproduces a measurement (bisection, log scale).

    ``config_for(speed)`` returns (configuration, memory plan, workload) with the engine's
    factors scaled by ``speed``. Times fall and rates rise with speed; the result is clipped
    to [low, high] when the measurement is outside what scaling can reach.
    """
    if metric not in MEASURABLE:
        raise SizingError(msg("metric '{metric}' cannot be calibrated; choose one of {choices}",
                              metric=metric, choices=str(MEASURABLE)))
    if measured <= 0:
        raise SizingError(msg("measured {metric} must be positive, got {measured}",
                              metric=metric, measured=measured))
    rising = metric in ("tokens_per_s_per_user", "output_tokens_per_s")
    for _ in range(40):
        middle = (low * high) ** 0.5
        value = predicted_at(config_for, metric, concurrency, middle)
        too_slow = value < measured if rising else value > measured
        low, high = (middle, high) if too_slow else (low, middle)
    return (low * high) ** 0.5
