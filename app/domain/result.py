"""The sizing result: every number the window, the PDF and the command line show.

SI units throughout: bytes, seconds, tokens per second, watts. Field names follow
CONTRACT.md ("Result JSON").
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from app.domain import assumption_labels
from app.domain.scenario import Scenario
from app.domain.testplan import TestPlanResult
from app.domain.validation import ValidationResult
from app.i18n import Message

RESULT_SCHEMA_VERSION = 1


class Frozen(BaseModel):
    """A result part: immutable once made.

    A part that keeps sentences declares ``ENGLISH``: each English text field and the
    Message field(s) it is the English of. The engine passes only the Messages; the text
    field is derived from them when the part is made (a JSON file that holds the text keeps
    it), so every sentence is kept once and the JSON keeps its fields (CONTRACT.md).
    """

    model_config = ConfigDict(frozen=True)

    #: English text field -> the Message field it renders.
    ENGLISH: ClassVar[dict[str, str]] = {}
    #: Text fields that are one string of several sentences (joined by a space).
    JOINED: ClassVar[frozenset[str]] = frozenset()

    @model_validator(mode="before")
    @classmethod
    def _english_of_the_messages(cls, data: Any) -> Any:
        if not cls.ENGLISH or not isinstance(data, dict):
            return data
        derived = {text: cls._english(text, data[source]) for text, source in cls.ENGLISH.items()
                   if text not in data and source in data}
        return {**data, **derived} if derived else data

    def revised(self, **changes: Any) -> Self:
        """A copy with ``changes``; the English text of every Message field changed is derived
        again."""
        derived = {text: self._english(text, changes[source])
                   for text, source in self.ENGLISH.items() if source in changes}
        return self.model_copy(update={**changes, **derived})

    @classmethod
    def _english(cls, text: str, messages: Message | list[Message] | None) -> str | list[str]:
        """The English of ``messages`` as the text field ``text`` holds it: one sentence ("" for
        none), a list of sentences, or (``JOINED``) the sentences as one string."""
        if isinstance(messages, list):
            sentences = [message.text() for message in messages]
            return " ".join(sentences) if text in cls.JOINED else sentences
        return messages.text() if messages is not None else ""


class MemoryResult(Frozen):
    """Step 2: what a replica must hold, and what one GPU must hold."""

    ENGLISH = {"explanation": "messages"}

    params_total: float = Field(description="Parameters in the model.")
    params_active: float = Field(description="Parameters used per token (MoE: k of E experts).")
    weights_bytes: float = Field(description="Weights of one replica [B].")
    weights_bytes_per_gpu: float = Field(description="Weights on the fullest GPU [B].")
    kv_bytes_per_token: float = Field(description="KV cache per token, whole replica [B].")
    kv_bytes_per_token_per_gpu: float = Field(description="KV per token on one GPU [B].")
    kv_bytes_per_sequence: float = Field(description="One sequence at peak context [B].")
    state_bytes_per_sequence: float = Field(
        default=0.0, description="Recurrent state of linear-attention layers per sequence, "
                                 "whole replica, included in kv_bytes_per_sequence [B].")
    kv_cache_bytes: float = Field(description="KV for the scenario's users at peak context [B].")
    kv_cache_bytes_average: float = Field(description="Same at the average context [B].")
    runtime_bytes: float = Field(description="Overheads, activations, buffers, replica [B].")
    runtime_bytes_per_gpu: float = Field(description="Same on one GPU [B].")
    per_gpu_bytes: float = Field(description="What one GPU must hold at peak [B].")
    gpu_memory_bytes: float = Field(description="Memory of one GPU [B].")
    gpu_usable_bytes: float = Field(description="What the engine may use on one GPU [B].")
    kv_budget_bytes_per_gpu: float = Field(description="Usable minus weights and runtime [B].")
    max_concurrent_sequences: int = Field(description="Sequences at peak context that fit.")
    batch_limit: int = Field(description="The engine's batch limit (max_num_seqs).")
    concurrency_sized: int = Field(description="Sequences the memory was sized for.")
    fits: bool
    weights_fit: bool = Field(description="Weights and runtime fit, without any KV cache.")
    peak_context_tokens: int
    average_context_tokens: float
    naive_weights_bytes: float = Field(description="Rule of thumb: parameters x 2 bytes [B].")
    explanation: list[str] = Field(default_factory=list, description="Plain sentences (English).")
    messages: list[Message] = Field(default_factory=list, description="The same, translatable.")

    @property
    def kv_cache_bytes_per_gpu(self) -> float:
        """KV cache one GPU holds at peak: what it must hold less weights and runtime [B]
        (never below zero). Not in the JSON: derived from the fields above."""
        return max(self.per_gpu_bytes - self.weights_bytes_per_gpu - self.runtime_bytes_per_gpu,
                   0.0)


class OperatingPoint(Frozen):
    """Performance of one replica at one concurrency."""

    concurrency: float = Field(description="Users with a request in flight.")
    batch: float = Field(description="Sequences in a decode step.")
    ttft_s: float
    itl_s: float = Field(description="Inter-token latency (decode step time) [s].")
    tokens_per_s_per_user: float
    output_tokens_per_s: float = Field(description="Aggregate output rate, whole replica.")
    requests_per_s: float

    @computed_field(description="Output tokens per second of the replica (CONTRACT.md).")
    @property
    def tokens_per_s(self) -> float:
        return self.output_tokens_per_s


class DecodeBreakdown(Frozen):
    """Where the time of one decode step goes [s]."""

    weights_read_s: float
    kv_read_s: float
    compute_s: float
    prefill_share_s: float
    communication_s: float
    overhead_s: float
    bound: str = Field(description="memory or compute")


class Band(Frozen):
    """How far the real figures may lie from the expected ones: multipliers on speed from the
    calibration's residual errors (METHOD.md, "Calibration")."""

    low: float = Field(description="Multiplier on expected speed, pessimistic [-].")
    high: float = Field(description="Multiplier on expected speed, optimistic [-].")

    def speed_range(self, value: Any) -> tuple[Any, Any]:
        """The expected range of a rate (tokens/s, requests/s), lower value first:
        ``(value x low, value x high)``. ``value`` may be a number or an array."""
        return value * self.low, value * self.high

    def time_range(self, value: Any) -> tuple[Any, Any]:
        """The expected range of a time (TTFT, ITL), lower value first: a slower run (the
        pessimistic ``low``) takes longer, so ``(value / high, value / low)``."""
        return value / self.high, value / self.low


class Lever(Frozen):
    """A change that would fix a missed target, and by how much."""

    ENGLISH = {"change": "change_message", "note": "note_message"}

    target: str
    change: str
    value_after: float
    meets: bool
    note: str = ""
    change_message: Message | None = None
    note_message: Message | None = None


class CurvePoint(Frozen):
    concurrency: float
    tokens_per_s_per_user: float
    output_tokens_per_s: float
    ttft_s: float
    itl_s: float


class TtftPoint(Frozen):
    prompt_tokens: int
    ttft_s: float


class PerformanceResult(Frozen):
    """Step 4: roofline with calibrated efficiency, at three operating points."""

    ENGLISH = {"naive_explanation": "naive_message", "explanation": "messages"}

    single_user: OperatingPoint
    at_concurrency: OperatingPoint
    saturation: OperatingPoint
    band: Band
    site_profile: str | None = Field(
        default=None, description="Id of the site profile whose measured factors these "
                                  "figures use (site-calibrated); None for the catalog's.")
    naive_tokens_per_s: float = Field(description="Bandwidth / model size, one GPU.")
    naive_explanation: str
    naive_message: Message | None = None
    slo_capacity_per_replica: int = Field(description="Most users meeting both targets.")
    targets: dict[str, float]
    targets_met: dict[str, bool]
    decode_breakdown: DecodeBreakdown
    levers: list[Lever] = Field(default_factory=list)
    curve: list[CurvePoint] = Field(default_factory=list)
    ttft_curve: list[TtftPoint] = Field(default_factory=list, description="One user alone.")
    prefill_tokens_per_s: float
    explanation: list[str] = Field(default_factory=list)
    messages: list[Message] = Field(default_factory=list)


class Candidate(Frozen):
    ENGLISH = {"reason": "reason_message"}

    gpu: str
    gpus_per_replica: int
    tensor_parallel: int
    pipeline_parallel: int
    precision: str
    kv_precision: str
    fits: bool
    per_gpu_bytes: float
    max_users_per_replica: int
    tokens_per_s_per_user: float
    ttft_s: float
    replicas: int
    gpus_total: int
    power_w: float
    capital_cost_usd: float | None
    verdict: str
    reason: str
    reason_message: Message | None = None


def _training_only(value: Any) -> bool:
    """A field a serving result leaves out of its JSON (None there)."""
    return value is None


class ChosenConfiguration(Frozen):
    """The configuration the result describes: Step 3's choice (or the one given), and for a
    training result the training layout (``data_parallel``, ``zero_stage``, ``gpus_total``,
    which a serving result's JSON does not carry)."""

    gpu: str = Field(description="GPU id.")
    gpus_per_replica: int = Field(description="GPUs in one replica, t x p [-].")
    tensor_parallel: int = Field(description="Tensor-parallel degree t [-].")
    pipeline_parallel: int = Field(description="Pipeline stages p [-].")
    data_parallel: int | None = Field(
        default=None, exclude_if=_training_only,
        description="Training: data-parallel replicas [-] (absent for serving).")
    zero_stage: int | None = Field(default=None, exclude_if=_training_only,
                                   description="Training: ZeRO stage 0-3 (absent for serving).")
    gpus_total: int | None = Field(default=None, exclude_if=_training_only,
                                   description="Training: GPUs of the job [-] (absent for "
                                               "serving; Step 5's count is scale.gpus_total).")
    precision: str = Field(description="Weight format id.")
    kv_precision: str = Field(description="KV cache format id.")
    engine: str = Field(description="Serving engine id.")
    verdict: str = Field(description="meets targets, misses TTFT, misses tokens/s, does not "
                                     "fit; for training: fits or does not fit.")


class ModelFacts(Frozen):
    """The model as the sizing counted it (a catalog entry or an inline architecture)."""

    id: str = Field(description="Model id.")
    name: str = Field(description="Model name.")
    params_total: float = Field(description="All parameters, counted from the architecture [-].")
    params_active: float = Field(description="Parameters used per token (MoE: k of E experts) "
                                             "[-].")
    layers: int = Field(description="Transformer layers [-].")
    hidden_size: int = Field(description="Hidden size h [-].")
    attention_heads: int = Field(description="Attention (query) heads [-].")
    kv_heads: int = Field(description="Key/value heads [-].")
    head_dim: int = Field(description="Dimension of one head [-].")
    max_context_tokens: int = Field(description="Longest context the model takes [tokens].")
    moe: bool = Field(description="Mixture of experts.")
    mla: bool = Field(description="Multi-head latent attention (DeepSeek).")
    sliding_window: int | None = Field(description="Sliding-window length of local layers "
                                                   "[tokens]; None without.")
    source: str = Field(description="Where the architecture comes from.")
    linear_layers: int = Field(description="Linear-attention layers (a fixed state per "
                                           "sequence, no KV cache) [-].")
    sparse_top_k: int | None = Field(description="Tokens each query attends to under sparse "
                                                 "attention [tokens]; None without.")
    speculative_layers: int = Field(description="Layers of the speculative-decoding heads [-].")


class GpuFacts(Frozen):
    """The GPU of the configuration, as the sizing used it."""

    id: str = Field(description="GPU id.")
    name: str = Field(description="GPU name.")
    memory_bytes: float = Field(description="Memory of one GPU, as the driver reports it where "
                                            "known [B].")
    memory_bandwidth_bytes_per_s: float = Field(description="Memory bandwidth [B/s].")
    peak_flops: float = Field(description="Dense peak of the arithmetic the weight format runs "
                                          "in [FLOP/s].")
    tdp_w: float = Field(description="Thermal design power [W].")
    scale_up: str = Field(description="Link between the GPUs of a node (nvlink, pcie ...).")
    source: str = Field(description="Where the figures come from.")


class SelectionResult(Frozen):
    chosen: ChosenConfiguration
    chosen_by: str = Field(description="user (hardware given) or the ranking used")
    alternatives: list[Candidate] = Field(default_factory=list)


class ScaleResult(Frozen):
    """Step 5: replicas, nodes, what survives a failure."""

    ENGLISH = {"failure_statement": "failure_message",
               "rack_failure_statement": "rack_failure_message", "explanation": "messages"}

    redundancy: str
    replicas_for_load: int
    replicas: int
    gpus_total: int
    server: str
    gpus_per_node: int
    replicas_per_node: int
    nodes_per_replica: int
    nodes: int
    autoscale_min_replicas: int
    autoscale_max_replicas: int
    cold_start_s: float
    storage_tier: str
    batch_completion_hours: float | None = None
    failure_statement: str
    failure_message: Message | None = None
    compute_racks: int = Field(
        0, description="Racks holding the nodes, filled in order by space and the rack power "
                       "limit (the infrastructure sizing); 0 when not sized.")
    nodes_in_fullest_rack: int = Field(0, description="Nodes in the fullest compute rack.")
    replicas_after_node_failure: int | None = Field(
        None, description="Replicas still serving with the fullest node down (0 for "
                          "training: any failure stops the job).")
    replicas_after_rack_failure: int | None = Field(
        None, description="Replicas still serving with the rack holding the most replicas "
                          "down; replicas spread evenly over nodes and across racks, a "
                          "replica spanning nodes takes consecutive ones (0 for training).")
    survives_rack_failure: bool | None = Field(
        None, description="replicas_after_rack_failure >= replicas_for_load: the redundancy "
                          "also covers the loss of a whole rack.")
    rack_failure_statement: str = Field("", description="The rack statement in English.")
    rack_failure_message: Message | None = Field(
        None, description="What still serves when a rack fails.")
    rack_redundancy_message: Message | None = Field(
        None, description="Whether the redundancy choice covers a rack, and what would.")
    explanation: list[str] = Field(default_factory=list)
    messages: list[Message] = Field(default_factory=list)


class FacilityResult(Frozen):
    """First-order power and heat (the infrastructure issue refines racks and cooling)."""

    it_power_w: float
    facility_power_w: float
    pue: float
    heat_btu_per_h: float
    cooling_tons: float
    racks: int
    cooling: str
    annual_energy_kwh: float


class CostResult(Frozen):
    ENGLISH = {"note": "note_messages"}
    JOINED = frozenset({"note"})

    capital_usd: float | None
    gpus_usd: float | None
    servers_usd: float | None
    note: str
    note_messages: list[Message] = Field(default_factory=list, description="The note, "
                                         "sentence by sentence, translatable.")


class RackResult(Frozen):
    kind: str
    items: list[str]
    units_used: int
    power_w: float
    limit_w: float


class PowerResult(Frozen):
    node_max_w: float
    node_typical_w: float
    compute_w: float
    network_w: float
    storage_w: float
    it_max_w: float
    it_typical_w: float
    facility_w: float
    pue: float


class CoolingResult(Frozen):
    kind: str
    rack_limit_w: float
    heat_btu_per_h: float
    tons: float
    airflow_cfm: float
    liquid_l_per_min: float
    air_share: float


class ElectricalResult(Frozen):
    voltage_v: float
    power_factor: float
    ab_feeds: bool
    max_rack_current_a: float
    pdu_rating_a: float
    pdus_per_rack_per_feed: int
    pdus_total: int


class EnergyResult(Frozen):
    utilisation: float
    annual_kwh: float
    annual_cost_usd: float
    annual_co2e_kg: float | None
    annual_colocation_usd: float


class SwitchGroup(Frozen):
    network: str
    switch: str
    switch_name: str
    count: int
    ports_used: int
    power_w: float


class FabricResult(Frozen):
    switch: str
    radix: int
    port_gbps: float
    endpoints: int
    tiers: int
    leaves: int
    spines: int
    cores: int
    cables_per_tier: list[int]
    transceivers: int
    nics: int
    oversubscription: float
    two_tier_limit: int


class NetworkResult(Frozen):
    ENGLISH = {"scale_up": "scale_up_message", "fabric_reason": "fabric_reason_message"}

    scale_up: str
    fabric: FabricResult | None
    fabric_reason: str
    groups: list[SwitchGroup]
    scale_up_message: Message | None = None
    fabric_reason_message: Message | None = None


class StorageLine(Frozen):
    tier: str
    purpose: str
    capacity_bytes: float
    read_bytes_per_s: float = 0.0
    write_bytes_per_s: float = 0.0


class StorageResult(Frozen):
    preset: str
    read_bytes_per_s_per_node: float
    write_bytes_per_s_per_node: float
    local_nvme_bytes: float
    lines: list[StorageLine]
    total_bytes: float


class CostLineResult(Frozen):
    item: str
    quantity: float
    unit_usd: float | None
    total_usd: float | None
    source: str
    estimated: bool = False


class InfrastructureResult(Frozen):
    """Racks, power, cooling, feeds, energy, networks, storage and cost of the deployment."""

    power: PowerResult
    cooling: CoolingResult
    racks: list[RackResult]
    electrical: ElectricalResult
    energy: EnergyResult
    network: NetworkResult
    storage: StorageResult
    cost_lines: list[CostLineResult]
    capital_usd: float
    annual_running_usd: float
    years: float
    tco_usd: float
    cost_per_million_tokens_usd: float | None
    warnings: list[Message] = Field(default_factory=list)


class TrainingCandidate(Frozen):
    """One training configuration the search looked at."""

    gpu: str
    gpus: int
    data_parallel: int
    tensor_parallel: int
    pipeline_parallel: int
    zero_stage: int
    per_gpu_bytes: float
    fits: bool
    step_time_s: float
    time_to_train_s: float
    reason: str


class TrainingScalePoint(Frozen):
    """Time to train against GPU count (the best fitting layout at each count)."""

    gpus: int
    data_parallel: int
    tensor_parallel: int
    pipeline_parallel: int
    zero_stage: int
    step_time_s: float
    time_to_train_s: float
    wall_clock_s: float


class TrainingResult(Frozen):
    """Training or fine-tuning: memory per GPU, step time, time to train, checkpoints.

    Per-GPU figures are for the fullest GPU (the first pipeline stage). CONTRACT.md
    ("training.*"): model-state and activation bytes per GPU, step time, time to train,
    checkpoint size and time.
    """

    ENGLISH = {"explanation": "messages"}

    method: str = Field(description="full, lora or qlora")
    optimizer: str
    chosen_by: str = Field(description="user (all degrees given) or the search")
    gpu: str
    gpus_total: int
    gpus_per_node: int
    nodes: int
    data_parallel: int
    tensor_parallel: int
    pipeline_parallel: int
    zero_stage: int
    sequence_parallel: bool
    activation_recompute: str
    micro_batch_size: int
    sequence_length: int
    gradient_accumulation_steps: int
    global_batch_sequences: int
    tokens_per_step: float
    params_total: float
    params_trainable: float = Field(description="Full: all; LoRA/QLoRA: the adapters.")
    adapter_params: float = Field(description="LoRA/QLoRA adapter parameters (0 for full).")
    model_state_bytes_per_param: float = Field(
        description="Unsharded bytes per trainable parameter (16 for mixed-precision AdamW).")
    weights_bytes_per_gpu: float = Field(description="16-bit (or 4-bit frozen) weights [B].")
    gradients_bytes_per_gpu: float
    optimizer_bytes_per_gpu: float = Field(description="FP32 master copy and moments [B].")
    model_state_bytes_per_gpu: float = Field(description="Weights + gradients + optimizer [B].")
    activation_bytes_per_layer: float = Field(description="One layer, one micro-batch [B].")
    activation_bytes_per_gpu: float
    runtime_bytes_per_gpu: float = Field(description="CUDA context, buffers, fragmentation [B].")
    per_gpu_bytes: float = Field(description="Model states + activations [B].")
    gpu_memory_bytes: float
    gpu_usable_bytes: float
    fits: bool
    activations_approximate: bool = Field(
        description="Korthikanti's formulas assume a GeLU MLP of 4h and multi-head attention.")
    flops_per_token: float = Field(description="Training FLOPs per token (6N full).")
    flops_total: float
    peak_flops_per_gpu: float
    mfu: float
    compute_time_per_step_s: float
    dp_communication_s: float = Field(description="Gradient all-reduce per step [s].")
    tp_communication_s: float = Field(description="Tensor-parallel collectives per step [s].")
    pp_communication_s: float = Field(description="Pipeline sends per step [s].")
    communication_s: float
    communication_hidden: bool = Field(description="Communication shorter than compute.")
    pipeline_bubble_share: float = Field(description="(p - 1) / micro-batches per step.")
    step_time_s: float
    steps: float
    tokens_total: float
    time_to_train_s: float = Field(description="Compute only: 6ND / (GPUs x peak x MFU) [s].")
    gpu_hours: float
    checkpoint_bytes: float
    checkpoint_write_bytes_per_s: float
    checkpoint_save_s: float
    mtbf_cluster_s: float = Field(description="Mean time between failures of the cluster [s].")
    checkpoint_interval_s: float = Field(description="Young/Daly sqrt(2 x save x MTBF) [s].")
    checkpoint_overhead_share: float = Field(
        description="Saving plus lost work: save/interval + interval/(2 MTBF).")
    wall_clock_s: float = Field(description="Time to train with checkpoint and failure losses.")
    checkpoints_retained: int
    checkpoint_storage_bytes: float
    dataset_bytes: float
    storage_bytes: float
    target_days: float | None = None
    meets_target: bool | None = None
    candidates: list[TrainingCandidate] = Field(default_factory=list)
    scaling: list[TrainingScalePoint] = Field(
        default_factory=list, description="Time to train at 1x, 2x, 4x ... the GPUs chosen.")
    explanation: list[str] = Field(default_factory=list)
    messages: list[Message] = Field(default_factory=list)


class RagResult(Frozen):
    """Retrieval-augmented generation: indexing, vector index, retrieval latency."""

    ENGLISH = {"explanation": "messages"}

    documents: int
    tokens_corpus: float
    chunks: float
    tokens_embedded: float = Field(description="Chunks x chunk length (overlap embedded twice).")
    embedding_params: float
    embedding_dim: int
    embedding_model: str = Field(default="", description="Catalog id of the embedding model "
                                 "(empty: sized from embedding_params).")
    embedding_model_name: str = ""
    embedding_gpu: str
    embedding_gpus: int
    embedding_flops: float
    indexing_time_s: float
    index: str
    index_memory_bytes: float
    vectors_bytes: float = Field(description="Raw vectors, no index structure [B].")
    index_storage_bytes: float = Field(description="Index + chunk text on disk [B].")
    chunk_text_bytes: float
    retrieval_latency_s: float
    ttft_s: float = Field(description="TTFT at the scenario load without retrieval [s].")
    ttft_with_retrieval_s: float
    added_prompt_tokens: int = Field(description="top_k x chunk tokens the prompt carries.")
    prompt_holds_context: bool
    reindex_per_day: float
    reindex_gpu_hours_per_day: float
    explanation: list[str] = Field(default_factory=list)
    messages: list[Message] = Field(default_factory=list)


class CpuOption(Frozen):
    cpu: str
    sockets: int
    memory_bandwidth_bytes_per_s: float
    tokens_per_s_single: float


class CpuResult(Frozen):
    """Inference on server CPUs, compared with the GPU option for the same model and load."""

    ENGLISH = {"verdict_text": "verdict_message", "explanation": "messages"}

    cpu: str
    cpu_name: str
    sockets: int
    weights: str
    weights_bytes: float
    memory_bandwidth_bytes_per_s: float = Field(description="Peak, all sockets [B/s].")
    bandwidth_efficiency: float
    single_user_tokens_per_s: float
    single_user_ttft_s: float
    users: float = Field(description="Concurrency compared (the scenario's load).")
    tokens_per_s_per_user: float = Field(description="At the scenario's load.")
    output_tokens_per_s: float = Field(description="Aggregate at the scenario's load.")
    ttft_s: float = Field(description="TTFT at the scenario's load [s].")
    users_meeting_speed: int = Field(description="Most users at the speed target.")
    meets_targets: bool
    power_w: float
    price_usd: float | None
    gpu_tokens_per_s_per_user: float
    gpu_output_tokens_per_s: float
    gpu_ttft_s: float
    speed_ratio: float = Field(description="CPU / GPU tokens per second per user.")
    verdict: str = Field(description="cpu-suffices, cpu-for-light-use or gpu-needed")
    verdict_text: str
    verdict_message: Message | None = None
    alternatives: list[CpuOption] = Field(default_factory=list)
    explanation: list[str] = Field(default_factory=list)
    messages: list[Message] = Field(default_factory=list)


class Assumption(Frozen):
    ENGLISH = {"source": "source_message"}

    name: str = Field(description="Id of the figure ('vllm.eta_mem', 'training_mfu'); "
                                  "factor_overrides use it.")
    value: Any
    unit: str = ""
    source: str = Field(description="Where the value comes from, in English.")
    overridden: bool = False
    subject: str | None = Field(
        default=None, description="Name of the product the id's prefix names (GPU, server, "
                                  "engine or number format), for the readable label.")
    source_message: Message | None = Field(
        default=None, description="The source when the engine wrote it as a sentence, "
                                  "translatable; None for a catalog citation.")

    def label(self, lang: str = "en") -> str:
        """The readable name, in ``lang`` (app/domain/assumption_labels.py)."""
        return assumption_labels.label(self.name, self.subject, lang)

    def source_text(self, lang: str = "en") -> str:
        """The source, in ``lang`` (a catalog citation stays as written)."""
        return assumption_labels.source_text(self.source, self.source_message, lang)


class SizingResult(Frozen):
    """Everything one run of the five steps produces."""

    ENGLISH = {"warnings": "warning_messages"}

    schema_version: int = RESULT_SCHEMA_VERSION
    tool_version: str
    catalog_versions: dict[str, str]
    inputs: Scenario = Field(description="The scenario after defaults were applied: sizing it "
                                         "again evaluates the same configuration as given.")
    model: ModelFacts
    gpu: GpuFacts
    memory: MemoryResult
    performance: PerformanceResult
    selection: SelectionResult
    scale: ScaleResult
    facility: FacilityResult
    cost: CostResult
    infrastructure: InfrastructureResult | None = None
    training: TrainingResult | None = None
    rag: RagResult | None = None
    cpu: CpuResult | None = None
    test_plan: TestPlanResult | None = Field(
        default=None, description="The load test of one replica the sizing implies.")
    validation: ValidationResult | None = Field(
        default=None, description="Imported measurements beside the prediction (Validation).")
    assumptions: list[Assumption]
    warnings: list[str]
    warning_messages: list[Message] = Field(default_factory=list)
