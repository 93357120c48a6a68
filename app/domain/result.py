"""The sizing result: every number the window, the PDF and the command line show.

SI units throughout: bytes, seconds, tokens per second, watts. Field names follow
CONTRACT.md ("Result JSON").
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, computed_field

from app.i18n import Message

RESULT_SCHEMA_VERSION = 1


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class MemoryResult(Frozen):
    """Step 2: what a replica must hold, and what one GPU must hold."""

    params_total: float = Field(description="Parameters in the model.")
    params_active: float = Field(description="Parameters used per token (MoE: k of E experts).")
    weights_bytes: float = Field(description="Weights of one replica [B].")
    weights_bytes_per_gpu: float = Field(description="Weights on the fullest GPU [B].")
    kv_bytes_per_token: float = Field(description="KV cache per token, whole replica [B].")
    kv_bytes_per_token_per_gpu: float = Field(description="KV per token on one GPU [B].")
    kv_bytes_per_sequence: float = Field(description="One sequence at peak context [B].")
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
    low: float = Field(description="Multiplier on expected performance, pessimistic.")
    high: float = Field(description="Multiplier on expected performance, optimistic.")


class Lever(Frozen):
    """A change that would fix a missed target, and by how much."""

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

    single_user: OperatingPoint
    at_concurrency: OperatingPoint
    saturation: OperatingPoint
    band: Band
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


class SelectionResult(Frozen):
    chosen: dict[str, Any]
    chosen_by: str = Field(description="user (hardware given) or the ranking used")
    alternatives: list[Candidate] = Field(default_factory=list)


class ScaleResult(Frozen):
    """Step 5: replicas, nodes, what survives a failure."""

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
    capital_usd: float | None
    gpus_usd: float | None
    servers_usd: float | None
    note: str


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
    scale_up: str
    fabric: FabricResult | None
    fabric_reason: str
    groups: list[SwitchGroup]


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


class Assumption(Frozen):
    name: str
    value: Any
    unit: str = ""
    source: str
    overridden: bool = False


class SizingResult(Frozen):
    """Everything one run of the five steps produces."""

    schema_version: int = RESULT_SCHEMA_VERSION
    tool_version: str
    catalog_versions: dict[str, str]
    inputs: dict[str, Any] = Field(description="The scenario after defaults were applied.")
    model: dict[str, Any]
    gpu: dict[str, Any]
    memory: MemoryResult
    performance: PerformanceResult
    selection: SelectionResult
    scale: ScaleResult
    facility: FacilityResult
    cost: CostResult
    infrastructure: InfrastructureResult | None = None
    assumptions: list[Assumption]
    warnings: list[str]
    warning_messages: list[Message] = Field(default_factory=list)
