"""The scenario: what the user wants sized, one sub-model per wizard step.

This is the public file format of CONTRACT.md ("Scenario file"). Fields are added freely;
renaming or removing one needs a schema version bump and a migration.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal, NamedTuple

from pydantic import ConfigDict, Field, field_validator, model_validator

from app.domain.catalog import GpuClass, ModelSpec, Vendor
from app.domain.measurements import MeasuredPoint
from app.domain.numbers import Numbers
from app.domain.problems import Problem, RuleError, problem
from app.i18n import Message, msg

SCHEMA_VERSION = 1

WeightPrecision = Literal[
    "fp32", "bf16", "fp16", "fp8", "int8", "int8-gptq", "int4-awq", "int4-gptq", "nvfp4", "mxfp4",
    "gguf-q8_0", "gguf-q4_0", "gguf-q4_k_m",
]
KvPrecision = Literal["bf16", "fp16", "fp8", "int8"]
EngineId = Literal["vllm", "tensorrt-llm", "sglang", "llama.cpp", "generic"]
WorkloadKind = Literal["online_inference", "batch_inference", "fine_tuning", "pretraining"]

MAX_TOKENS = 10_000_000
MAX_USERS = 10_000_000
MAX_PRICE_USD = 1e12
"""The largest price a user may give one catalog item or cost line [USD]."""
MAX_TENSOR_PARALLEL = 1024
"""The largest tensor-parallel degree a scenario may give [-]."""


class LayoutProblem(NamedTuple):
    """Why an expert-parallel / DP-attention layout cannot run: the field at fault (a JSON
    path), the value given, the values allowed (as the user would type them) and the
    sentence that says why."""

    field: str
    value: int | bool
    allowed: str
    detail: Message

    def problem(self) -> Problem:
        """The refusal as "field: why; allowed: ... (got value)"."""
        shown = str(self.value).lower() if isinstance(self.value, bool) else None
        return problem(self.field, self.detail, self.value, shown)


def _divisors(n: int) -> str:
    """The expert-parallel degrees that divide ``n`` (up to the largest degree allowed)."""
    return ", ".join(str(d) for d in range(1, min(n, MAX_TENSOR_PARALLEL) + 1) if n % d == 0)


def expert_layout_problem(tensor_parallel: int, expert_parallel: int, dp_attention: bool,
                          model: ModelSpec | None = None) -> LayoutProblem | None:
    """The one rule for expert parallelism and data-parallel attention; None when the layout
    can run. The scenario checks it without the model, the engine with it.

    Expert parallelism splits a stage's ``t`` GPUs into ``e`` groups of whole experts
    (``t / e``-way tensor parallel inside an expert), so ``e`` divides ``t`` and the expert
    count; DP attention gives each of the ``t`` GPUs its own requests' attention, so it needs
    ``t >= 2``. Both are for mixture-of-experts models only (a dense model has no experts to
    spread).
    """
    if expert_parallel <= 1 and not dp_attention:
        return None
    if model is not None and model.moe is None:
        detail = msg("{model} is a dense model: expert parallelism and DP attention are for "
                     "mixture-of-experts models; set hardware.expert_parallel to 1 and "
                     "hardware.dp_attention to false", model=model.name)
        if expert_parallel > 1:
            return LayoutProblem("hardware.expert_parallel", expert_parallel, "1", detail)
        return LayoutProblem("hardware.dp_attention", dp_attention, "false", detail)
    if tensor_parallel % expert_parallel:
        allowed = _divisors(tensor_parallel)
        return LayoutProblem("hardware.expert_parallel", expert_parallel, allowed, msg(
            "must divide hardware.tensor_parallel ({tensor:,}): the experts are split over "
            "the GPUs of a pipeline stage; allowed: {allowed}",
            tensor=tensor_parallel, allowed=allowed))
    if model is not None and model.moe is not None and model.moe.experts % expert_parallel:
        allowed = _divisors(model.moe.experts)
        return LayoutProblem("hardware.expert_parallel", expert_parallel, allowed, msg(
            "{ep} does not divide the {experts} experts of {model}; allowed: {allowed}",
            ep=expert_parallel, experts=model.moe.experts, model=model.name,
            allowed=allowed))
    if dp_attention and tensor_parallel < 2:
        return LayoutProblem("hardware.dp_attention", dp_attention, "false", msg(
            "needs hardware.tensor_parallel of 2 or more (the attention ranks are the GPUs "
            "of a pipeline stage); it is {tensor:,}", tensor=tensor_parallel))
    return None


class Strict(Numbers):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class Activity(Strict):
    """Users as customers count them: named users and how active they are at the busiest
    hour. The engine derives the requests in flight from it once (Little's law,
    ``app.engine.scale.requests_in_flight``); give a request rate or a think time, not both
    (neither: the catalog's request rate)."""

    named_users: int = Field(ge=1, le=MAX_USERS,
                             description="Users who may use the service (named users) [-].")
    active_share: float | None = Field(
        default=None, gt=0, le=1,
        description="Share of the named users active at the busiest hour [-]; default from "
                    "the catalog.")
    requests_per_active_user_per_minute: float | None = Field(
        default=None, gt=0, le=60,
        description="Requests each active user sends per minute [1/min].")
    think_time_s: float | None = Field(
        default=None, ge=0, le=86_400,
        description="Time an active user reads and types between an answer and the next "
                    "request [s].")

    @model_validator(mode="after")
    def _rate_or_think_time(self) -> Activity:
        if self.requests_per_active_user_per_minute is not None and self.think_time_s is not None:
            raise RuleError(msg(
                "give either requests_per_active_user_per_minute ({rate:,g}) or think_time_s "
                "({think:,g} s), not both", rate=self.requests_per_active_user_per_minute,
                think=self.think_time_s))
        return self


class Workload(Strict):
    """Step 1: what the deployment serves."""

    kind: WorkloadKind = "online_inference"
    concurrent_users: int | Literal["max"] = Field(
        default=1, description="Users with a request in flight at peak, or 'max' (saturation); "
                               "derived from activity when that is given."
    )
    activity: Activity | None = Field(
        default=None, description="Named users and their activity; when given, the requests "
                                  "in flight are derived from it.")
    prompt_tokens: int = Field(default=1024, ge=1, le=MAX_TOKENS, description="Input [tokens].")
    output_tokens: int = Field(default=256, ge=1, le=MAX_TOKENS, description="Output [tokens].")
    max_context_tokens: int | None = Field(
        default=None, ge=2, le=MAX_TOKENS,
        description="Longest sequence a user may reach [tokens]; default prompt + output.",
    )
    requests_per_hour: float | None = Field(
        default=None, gt=0, le=1e12, description="Batch volume [requests/h]."
    )
    tokens_per_day: float | None = Field(
        default=None, gt=0, le=1e15, description="Batch volume [output tokens/day]."
    )
    completion_window_hours: float | None = Field(
        default=None, ge=0.1, le=24 * 366,
        description="Time the batch must finish in [h], 6 minutes to a year.")

    @field_validator("concurrent_users")
    @classmethod
    def _users_range(cls, value: int | str) -> int | str:
        if isinstance(value, int) and not 1 <= value <= MAX_USERS:
            raise RuleError(msg("must be between 1 and {max:,} or 'max'", max=MAX_USERS))
        return value

    @model_validator(mode="after")
    def _context_holds_sequence(self) -> Workload:
        context = self.max_context_tokens
        if context is not None and context < self.prompt_tokens + self.output_tokens:
            raise RuleError(msg(
                "max_context_tokens ({context:,}) is smaller than prompt_tokens + output_tokens "
                "({total:,}); raise it or shorten the request",
                context=context, total=self.prompt_tokens + self.output_tokens))
        return self

    @property
    def context_tokens(self) -> int:
        """Peak tokens a sequence holds: the maximum context, else prompt + output."""
        return self.max_context_tokens or self.prompt_tokens + self.output_tokens


class Precision(Strict):
    """Number formats; weights default to the model's native format."""

    weights: WeightPrecision | None = None
    kv_cache: KvPrecision | None = None
    allowed_weights: list[WeightPrecision] | None = Field(
        default=None, description="Quality floor: formats Step 3 may choose (default 8/16 bit)."
    )


class Targets(Strict):
    """Service-level targets."""

    ttft_s: float | None = Field(default=None, ge=0.001, le=3600,
                                  description="Time to first token [s], 1 ms to an hour.")
    tokens_per_s_per_user: float | None = Field(
        default=None, ge=0.001, le=100_000,
        description="Generation speed each user sees [tokens/s].")
    plan_at: Literal["conservative", "expected"] | None = Field(
        default=None,
        description="Size replicas so the low end of the expected range still meets the "
                    "targets (conservative), or at the expected figures; None: conservative.")


class Hardware(Strict):
    """Step 3 given by the user; without it Step 3 chooses."""

    gpu: str = Field(min_length=1)
    gpus_per_replica: int | None = Field(default=None, ge=1, le=4096)
    tensor_parallel: int = Field(default=1, ge=1, le=MAX_TENSOR_PARALLEL)
    pipeline_parallel: int = Field(default=1, ge=1, le=1024)
    expert_parallel: int = Field(
        default=1, ge=1, le=MAX_TENSOR_PARALLEL, exclude_if=lambda value: value == 1,
        description="Expert-parallel degree: the routed experts of a mixture-of-experts model "
                    "split over this many of a stage's tensor-parallel GPUs (whole experts "
                    "each); 1 = off. Must divide tensor_parallel and the expert count.")
    dp_attention: bool = Field(
        default=False, exclude_if=lambda value: value is False,
        description="Data-parallel attention: each of a stage's tensor-parallel GPUs runs the "
                    "attention of its own requests (mixture-of-experts models; needs "
                    "tensor_parallel >= 2).")
    server: str | None = None

    @model_validator(mode="after")
    def _experts(self) -> Hardware:
        found = expert_layout_problem(self.tensor_parallel, self.expert_parallel,
                                      self.dp_attention)
        if found is not None:
            raise RuleError(found.problem())
        return self

    @model_validator(mode="after")
    def _product(self) -> Hardware:
        product = self.tensor_parallel * self.pipeline_parallel
        if self.gpus_per_replica is None:
            self.__dict__["gpus_per_replica"] = product
        elif self.gpus_per_replica != product:
            raise RuleError(msg(
                "GPUs per replica ({gpus:,}) must equal tensor parallel x pipeline parallel "
                "({tensor:,} x {pipeline:,} = {product:,})", gpus=self.gpus_per_replica,
                tensor=self.tensor_parallel, pipeline=self.pipeline_parallel, product=product))
        return self


class Serving(Strict):
    """Serving engine and the engine settings a user may override."""

    engine: EngineId = "vllm"
    memory_fraction: float | None = Field(default=None, gt=0.05, le=1.0)
    max_batch_size: int | None = Field(default=None, ge=1, le=100_000)
    max_batched_tokens: int | None = Field(default=None, ge=16, le=10_000_000)
    speculative_decoding: bool | None = Field(
        default=None,
        description="Load the model's speculative-decoding heads (MTP layers or an EAGLE "
                    "draft); default off, as vLLM, SGLang and TensorRT-LLM do unless a "
                    "speculative configuration is given.")
    site_profile: str | None = Field(
        default=None, min_length=1, max_length=120,
        description="Site profile (measured factors) to use: None for the newest one of the "
                    "user catalog for this GPU and engine, 'none' for none, or an id.")


class Availability(Strict):
    """Step 5: redundancy and where replicas may run."""

    redundancy: Literal["none", "n+1", "2n"] = "n+1"
    storage_tier: str = Field(default="good", description="Storage class for cold start.")


class Selection(Strict):
    """How Step 3 ranks candidates."""

    rank_by: Literal["capital_cost", "power", "gpu_count", "tokens_per_dollar"] = "capital_cost"
    gpus: list[str] | None = Field(default=None, description="Restrict the search to these GPUs.")
    max_gpus_per_replica: int = Field(default=8, ge=1, le=4096)
    gpu_classes: list[GpuClass] = Field(
        default_factory=lambda: ["datacenter"], min_length=1,
        description="GPU classes the search may choose: datacenter (default), workstation, "
                    "consumer.")
    vendors: list[Vendor] | None = Field(
        default=None, min_length=1, description="GPU vendors the search may choose; None: all.")
    preliminary: bool = Field(
        default=False, description="The search may choose GPUs whose figures are preliminary "
                                   "(announced, no shipping datasheet); those named in gpus "
                                   "always may.")


class Sovereignty(Strict):
    on_premises: bool = True
    air_gapped: bool = False
    region: str = Field(default="", max_length=200,
                        description="Where the data must stay (shown in the report).")


class Infrastructure(Strict):
    """Site choices for racks, power, cooling, network, storage and cost (all optional).

    Unset values take the catalog defaults, which the result lists as assumptions.
    """

    cooling: Literal["air", "rdhx", "dlc"] | None = Field(
        default=None, description="Cooling; default from the server (liquid -> dlc, else air).")
    rack_power_limit_kw: float | None = Field(default=None, ge=0.5, le=500)
    rack_units: int = Field(default=42, ge=10, le=58, description="Usable rack units per rack.")
    pue: float | None = Field(default=None, ge=1.0, le=3.0)
    air_delta_t_f: float | None = Field(default=None, ge=1, le=60)
    liquid_delta_t_k: float | None = Field(default=None, ge=1, le=40)
    feed_voltage_v: float | None = Field(default=None, ge=100, le=1000)
    pdu_rating_a: float | None = Field(default=None, ge=10, le=400)
    power_factor: float | None = Field(default=None, gt=0.5, le=1.0)
    ab_feeds: bool = Field(default=True, description="Two independent feeds (A/B) per rack.")
    utilisation: float | None = Field(default=None, ge=0.01, le=1.0,
                                      description="Average load as a share of the peak.")
    electricity_usd_per_kwh: float | None = Field(default=None, ge=0, le=10)
    colocation_usd_per_kw_month: float | None = Field(default=None, ge=0, le=10_000)
    grid_kg_co2e_per_kwh: float | None = Field(default=None, ge=0, le=2)
    years: float | None = Field(default=None, ge=0.1, le=30)
    fabric_switch: str | None = None
    frontend_switch: str | None = Field(
        default=None, description="Front-end (and storage) switch id; default a 1U pair "
                                  "(sn3700c) for up to 8 nodes, else sn4600c.")
    oob_switch: str = "sn2201"
    oversubscription: float = Field(default=1.0, ge=1.0, le=8.0)
    force_fabric: bool = Field(default=False, description="Add a scale-out fabric anyway.")
    model_versions: int | None = Field(default=None, ge=1, le=100)
    log_retention_days: float | None = Field(default=None, ge=0, le=3650)
    price_overrides_usd: dict[str, Annotated[float, Field(ge=0, le=MAX_PRICE_USD)]] = Field(
        default_factory=dict,
        description="Indicative prices replaced, by catalog id or line [USD, 0 to 1e12].")
    price_list_as_of: date | None = Field(
        default=None, description="The date of the prices entered in price_overrides_usd (the "
                                  "quote they come from); cost lines cite it.")
    price_list_currency: str = Field(
        default="USD", pattern=r"^[A-Z]{3}$",
        description="The currency the entered prices were quoted in (ISO 4217 code); they are "
                    "kept converted to USD in price_overrides_usd.")
    price_list_usd_per_unit: float | None = Field(
        default=None, gt=0, le=100_000,
        description="USD per unit of price_list_currency on the list's date (the exchange "
                    "rate the entered prices were converted at) [USD].")


OPTIMIZERS = ("adamw", "adam", "adamw-8bit", "sgd", "lion", "adafactor")


class Training(Strict):
    """Training and fine-tuning (CONTRACT.md "training" block; METHOD.md "Training").

    A parallel degree or ZeRO stage left unset is chosen by the search for the smallest
    configuration that fits (and trains within ``target_days`` when given); set ones are kept.
    """

    method: Literal["full", "lora", "qlora"] = "full"
    optimizer: str = Field(default="adamw", description=f"One of {', '.join(OPTIMIZERS)}.")
    zero_stage: int | None = Field(
        default=None, ge=0, le=3,
        description="ZeRO stage 0-3 (3 = FSDP full shard, 2 = FSDP SHARD_GRAD_OP); default: "
                    "the lowest that fits.")
    data_parallel: int | None = Field(default=None, ge=1, le=1_000_000)
    tensor_parallel: int | None = Field(default=None, ge=1, le=1024)
    pipeline_parallel: int | None = Field(default=None, ge=1, le=1024)
    micro_batch_size: int = Field(default=1, ge=1, le=65_536)
    sequence_length: int = Field(default=4096, ge=1, le=MAX_TOKENS)
    tokens_total: float | None = Field(
        default=None, gt=0, le=1e16,
        description="Tokens to train on [tokens]; default 20 per parameter for pre-training.")
    activation_recompute: Literal["none", "selective", "full"] | None = Field(
        default=None, description="Default: the least recomputation that fits.")
    global_batch_size: int | None = Field(
        default=None, ge=1, le=100_000_000,
        description="Sequences per optimizer step; default from a global batch in tokens.")
    gradient_accumulation_steps: int | None = Field(default=None, ge=1, le=1_000_000)
    sequence_parallel: bool | None = Field(
        default=None, description="Megatron sequence parallelism; default on when t > 1.")
    flash_attention: bool = Field(
        default=True, description="Attention scores are not stored (FlashAttention).")
    fp32_gradients: bool = Field(
        default=False, description="Gradients kept in FP32 (18 B/param with AdamW).")
    lora_rank: int | None = Field(default=None, ge=1, le=65_536)
    lora_targets: Literal["all-linear", "attention", "qv"] = "all-linear"
    mfu: float | None = Field(default=None, gt=0, le=1,
                              description="Model FLOPs utilisation; default 0.40.")
    target_days: float | None = Field(
        default=None, ge=0.01, le=3650, description="Train within this many days (wall clock).")
    max_gpus: int = Field(default=32_768, ge=1, le=1_000_000,
                          description="Largest GPU count the search may propose.")
    checkpoints_retained: int | None = Field(default=None, ge=1, le=1000)
    dataset_tokens: float | None = Field(
        default=None, gt=0, le=1e16, description="Tokens stored on disk; default tokens_total.")

    @field_validator("optimizer")
    @classmethod
    def _known_optimizer(cls, value: str) -> str:
        if value not in OPTIMIZERS:
            raise RuleError(msg("unknown optimizer '{name}'; allowed: {allowed}", name=value,
                                allowed=", ".join(OPTIMIZERS)))
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Training:
        if (self.global_batch_size is not None and self.data_parallel is not None
                and self.global_batch_size < self.micro_batch_size * self.data_parallel):
            raise RuleError(msg(
                "global_batch_size ({batch:,}) is smaller than micro_batch_size x data_parallel "
                "({micro:,} x {replicas:,}); raise it or use fewer data-parallel replicas",
                batch=self.global_batch_size, micro=self.micro_batch_size,
                replicas=self.data_parallel))
        return self


class Rag(Strict):
    """Retrieval-augmented generation: the corpus, its chunks and the vector index.

    Unset values take the catalog defaults (recorded as assumptions).
    """

    documents: int = Field(ge=1, le=10_000_000_000, description="Documents in the corpus.")
    pages_per_document: float | None = Field(default=None, gt=0, le=1_000_000)
    tokens_per_page: float | None = Field(default=None, gt=0, le=100_000)
    chunk_tokens: int | None = Field(default=None, ge=16, le=1_000_000)
    overlap_tokens: int | None = Field(default=None, ge=0, le=1_000_000)
    embedding_model: str | None = Field(
        default=None, min_length=1,
        description="Catalog id of the embedding model (task embedding); default: a model of "
                    "embedding_params parameters, else the catalog default (bge-large-en-v1.5).")
    embedding_params: float | None = Field(
        default=None, gt=0, le=1e12, description="Parameters of the embedding model.")
    embedding_dim: int | None = Field(default=None, ge=8, le=65_536)
    bytes_per_dim: float | None = Field(
        default=None, gt=0, le=8, description="4 FP32, 2 FP16, 1 INT8, 0.125 binary.")
    index: Literal["hnsw", "ivf-pq", "flat"] = "hnsw"
    hnsw_m: int | None = Field(default=None, ge=2, le=512)
    pq_code_bytes: int | None = Field(default=None, ge=1, le=4096)
    ivf_lists: int | None = Field(default=None, ge=1, le=100_000_000)
    reindex_per_day: float = Field(
        default=0.0, ge=0, le=100, description="Share of the corpus re-embedded per day.")
    retrieval_top_k: int | None = Field(default=None, ge=1, le=1000)
    search_latency_s: float | None = Field(default=None, ge=0, le=60)
    embedding_gpu: str | None = Field(default=None, description="GPU id; default the chosen one.")
    embedding_gpus: int = Field(default=1, ge=1, le=100_000)

    @model_validator(mode="after")
    def _one_embedder(self) -> Rag:
        if self.embedding_model is not None and self.embedding_params is not None:
            raise RuleError(msg("give either embedding_model ({model}) or embedding_params "
                                "({params:,.0f}), not both", model=self.embedding_model,
                                params=self.embedding_params))
        return self

    @model_validator(mode="after")
    def _overlap_below_chunk(self) -> Rag:
        if (self.chunk_tokens is not None and self.overlap_tokens is not None
                and self.overlap_tokens >= self.chunk_tokens):
            raise RuleError(msg("overlap_tokens ({overlap:,}) must be smaller than chunk_tokens "
                                "({chunk:,})", overlap=self.overlap_tokens,
                                chunk=self.chunk_tokens))
        return self


class Cpu(Strict):
    """Compare inference on server CPUs with the GPU option for the same model and load."""

    compare: bool = True
    cpu: str | None = Field(default=None, description="CPU id; default the fastest in memory.")
    sockets: int | None = Field(default=None, ge=1, le=8)
    weights: WeightPrecision | None = Field(
        default=None, description="Weight format on the CPU; default the GPU's if CPUs run it.")


OVERRIDABLE_FACTORS = (
    "eta_mem", "eta_kv", "eta_decode", "eta_prefill", "step_overhead_s",
    "sequence_overhead_s", "layer_overhead_s",
    "fixed_latency_s", "comm_latency_s", "comm_efficiency",
)


class Scenario(Strict):
    """A sizing scenario (the JSON file the user saves)."""

    schema_version: Literal[1] = SCHEMA_VERSION
    name: str = Field(default="Untitled scenario", max_length=200)
    customer: str = Field(default="", max_length=200)
    project: str = Field(default="", max_length=200)
    author: str = Field(default="", max_length=200)
    workload: Workload = Field(default_factory=Workload)
    model: str | ModelSpec
    precision: Precision = Field(default_factory=Precision)
    targets: Targets = Field(default_factory=Targets)
    hardware: Hardware | None = None
    serving: Serving = Field(default_factory=Serving)
    availability: Availability = Field(default_factory=Availability)
    selection: Selection = Field(default_factory=Selection)
    sovereignty: Sovereignty = Field(default_factory=Sovereignty)
    infrastructure: Infrastructure = Field(default_factory=Infrastructure)
    training: Training | None = None
    rag: Rag | None = None
    cpu: Cpu | None = None
    factor_overrides: dict[str, float] = Field(
        default_factory=dict, description="Efficiency factors the user set for this scenario."
    )
    measurements: list[MeasuredPoint] = Field(
        default_factory=list, max_length=1000,
        description="Operating points measured on site (aisizer measurements import).")

    @field_validator("factor_overrides")
    @classmethod
    def _known_factors(cls, value: dict[str, float]) -> dict[str, float]:
        for name, number in value.items():
            if name not in OVERRIDABLE_FACTORS:
                raise RuleError(msg("unknown factor '{name}'; allowed: {allowed}", name=name,
                                    allowed=", ".join(OVERRIDABLE_FACTORS)))
            share = name.startswith("eta_") or name == "comm_efficiency"
            if share and not 0 < number <= 1:
                raise RuleError(msg("factor '{name}' = {number:,} must be a share above 0 and at "
                                    "most 1 (no engine beats the hardware roofline)",
                                    name=name, number=number))
            if not share and not 0 <= number <= 1:
                raise RuleError(msg("factor '{name}' = {number:,} s must be between 0 and 1 s",
                                    name=name, number=number))
        return value
