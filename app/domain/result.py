"""The sizing result: every number the window, the PDF and the command line show.

SI units throughout: bytes, seconds, tokens per second, watts. Field names follow
CONTRACT.md ("Result JSON").
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from app.domain import assumption_labels
from app.domain.problems import verbatim
from app.domain.scenario import Scenario
from app.domain.testplan import TestPlanResult
from app.domain.validation import ValidationResult
from app.i18n import Message, msg, translate

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

    params_total: float = Field(description="Parameters in the model [-].")
    params_active: float = Field(description="Parameters used per token (MoE: k of E experts) [-].")
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
    max_concurrent_sequences: int = Field(description="Sequences at peak context that fit [-].")
    batch_limit: int = Field(description="The engine's batch limit (max_num_seqs) [-].")
    concurrency_sized: int = Field(description="Sequences the memory was sized for [-].")
    fits: bool = Field(
        description="Weights, runtime and the users' KV cache fit in the usable memory.")
    weights_fit: bool = Field(description="Weights and runtime fit, without any KV cache.")
    peak_context_tokens: int = Field(description="Longest sequence a user reaches [tokens].")
    average_context_tokens: float = Field(description="prompt + output / 2 [tokens].")
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

    concurrency: float = Field(description="Users with a request in flight [-].")
    batch: float = Field(description="Sequences in a decode step [-].")
    ttft_s: float = Field(description="Time to first token [s].")
    itl_s: float = Field(description="Inter-token latency (decode step time) [s].")
    tokens_per_s_per_user: float = Field(description="Generation speed each user sees [tokens/s].")
    output_tokens_per_s: float = Field(
        description="Aggregate output rate, whole replica [tokens/s].")
    requests_per_s: float = Field(
        description="Requests completed per second, whole replica [requests/s].")

    @computed_field(description="Output tokens per second of the replica (CONTRACT.md).")
    @property
    def tokens_per_s(self) -> float:
        return self.output_tokens_per_s


class DecodeBreakdown(Frozen):
    """Where the time of one decode step goes [s]."""

    weights_read_s: float = Field(description="Reading the weights [s].")
    kv_read_s: float = Field(description="Reading the KV cache [s].")
    compute_s: float = Field(description="Decode arithmetic [s].")
    prefill_share_s: float = Field(
        description="Other users' prompts processed in the same step [s].")
    communication_s: float = Field(description="Tensor- and pipeline-parallel communication [s].")
    overhead_s: float = Field(description="Per-step and per-layer overheads [s].")
    activations_s: float = Field(
        default=0.0, description="Elementwise kernels between the matrix multiplications "
                                 "(norms, the MLP's activation, quantising activations) [s].")
    overlap_s: float = Field(
        default=0.0, description="What the weights read and the matrix compute (with the "
                                 "prefill share) take beyond the longer of the two, as they "
                                 "overlap only in part [s].")
    step_s: float = Field(description="The step: the longer of weights_read_s and compute_s + "
                                      "prefill_share_s, plus overlap_s, kv_read_s, "
                                      "activations_s, communication_s and overhead_s [s].")
    bound: str = Field(description="memory (reading the weights outlasts the matrix compute it "
                                   "overlaps) or compute (the other way round)")

    @property
    def overlapped(self) -> tuple[str, ...]:
        """The parts hidden under the other side of the overlap (not in the JSON): the
        compute and the other users' prompts when memory-bound, else the weights read."""
        return (("compute_s", "prefill_share_s") if self.bound == "memory"
                else ("weights_read_s",))


class Band(Frozen):
    """How far the real figures may lie from the expected ones: multipliers on speed from the
    cross-validated residuals of the scenario's regime (METHOD.md, "Expected range").

    ``low`` and ``high`` hold for rates and decode times (tokens/s, requests/s, ITL);
    ``ttft_low`` and ``ttft_high`` for the first-token time (the same as the rates' where
    None). ``cases`` and ``ttft_cases`` count the calibration cases behind each; ``basis``
    names the regime they were drawn from.
    """

    low: float = Field(description="Multiplier on expected speed, pessimistic [-].")
    high: float = Field(description="Multiplier on expected speed, optimistic [-].")
    ttft_low: float | None = Field(
        default=None, description="Multiplier on the speed behind TTFT, pessimistic [-]; None: "
                                  "``low``.")
    ttft_high: float | None = Field(
        default=None, description="Multiplier on the speed behind TTFT, optimistic [-]; None: "
                                  "``high``.")
    cases: int | None = Field(
        default=None, description="Calibration cases behind the rates' range [-]; None where "
                                  "it is not from cross-validated cases.")
    ttft_cases: int | None = Field(
        default=None, description="Calibration cases behind the TTFT range [-].")
    regime_cases: int | None = Field(
        default=None, description="Of the rates' cases, those of the very regime (the same "
                                  "engine, GPU family, model kind and weight class) [-].")
    basis: str = Field(
        default="", description="The regime the cases were drawn from, e.g. 'engine, GPU "
                                "family, model kind, weight class' or 'all cases'.")

    def speed_range(self, value: Any) -> tuple[Any, Any]:
        """The expected range of a rate (tokens/s, requests/s), lower value first:
        ``(value x low, value x high)``. ``value`` may be a number or an array."""
        return value * self.low, value * self.high

    def time_range(self, value: Any) -> tuple[Any, Any]:
        """The expected range of a decode time (ITL), lower value first: a slower run (the
        pessimistic ``low``) takes longer, so ``(value / high, value / low)``."""
        return value / self.high, value / self.low

    def ttft_range(self, value: Any) -> tuple[Any, Any]:
        """The expected range of a time to first token, lower value first:
        ``(value / ttft_high, value / ttft_low)``."""
        high = self.ttft_high if self.ttft_high is not None else self.high
        low = self.ttft_low if self.ttft_low is not None else self.low
        return value / high, value / low


class Lever(Frozen):
    """A change that would fix a missed target, and by how much."""

    ENGLISH = {"change": "change_message", "note": "note_message"}

    target: str = Field(description="The missed target: ttft or tokens_per_s_per_user.")
    change: str = Field(description="The change (English).")
    value_after: float = Field(description="The target's figure with the change [s or tokens/s].")
    meets: bool = Field(description="Both targets are met with the change.")
    note: str = Field(default="", description="What to keep in mind (English; '' for nothing).")
    change_message: Message | None = Field(default=None, description="The change, translatable.")
    note_message: Message | None = Field(default=None, description="The note, translatable.")


class CurvePoint(Frozen):
    concurrency: float = Field(description="Users with a request in flight [-].")
    tokens_per_s_per_user: float = Field(description="Generation speed each user sees [tokens/s].")
    output_tokens_per_s: float = Field(
        description="Aggregate output rate, whole replica [tokens/s].")
    ttft_s: float = Field(description="Time to first token [s].")
    itl_s: float = Field(description="Inter-token latency (decode step time) [s].")


class TtftPoint(Frozen):
    prompt_tokens: int = Field(description="Prompt length [tokens].")
    ttft_s: float = Field(description="Time to first token of one user alone [s].")


class PerformanceResult(Frozen):
    """Step 4: roofline with calibrated efficiency, at three operating points."""

    ENGLISH = {"naive_explanation": "naive_message", "explanation": "messages"}

    single_user: OperatingPoint = Field(description="One user alone.")
    at_concurrency: OperatingPoint = Field(description="The users one replica carries.")
    saturation: OperatingPoint = Field(description="The largest batch memory and the engine admit.")
    band: Band = Field(description="Multipliers on the expected figures from the calibration.")
    site_profile: str | None = Field(
        default=None, description="Id of the site profile whose measured factors these "
                                  "figures use (site-calibrated); None for the catalog's.")
    naive_tokens_per_s: float = Field(description="The guide's rule: bandwidth / bytes of the "
                                                  "active parameters, one GPU [tokens/s].")
    naive_explanation: str = Field(description="Why the naive figure misleads (English).")
    naive_message: Message | None = Field(default=None, description="The same, translatable.")
    slo_capacity_per_replica: int = Field(description="Most users meeting both targets [-].")
    targets: dict[str, float] = Field(
        description="ttft_s [s] and tokens_per_s_per_user [tokens/s]; none for batch.")
    targets_met: dict[str, bool] = Field(
        description="Whether each target is met at the scenario's load.")
    decode_breakdown: DecodeBreakdown = Field(
        description="Where the time of one decode step goes at that load.")
    levers: list[Lever] = Field(
        default_factory=list, description="A change for every missed target, those that meet "
                                          "first.")
    curve: list[CurvePoint] = Field(
        default_factory=list, description="Operating points against concurrent users, one replica.")
    ttft_curve: list[TtftPoint] = Field(default_factory=list, description="One user alone.")
    prefill_tokens_per_s: float = Field(
        description="Prompt processing rate of one request [tokens/s].")
    explanation: list[str] = Field(default_factory=list, description="Plain sentences (English).")
    messages: list[Message] = Field(default_factory=list, description="The same, translatable.")


def _absent(value) -> bool:
    """A field left out of the JSON when it is None (not applicable)."""
    return value is None


class ExpertLayout(Frozen):
    """Expert parallelism and DP attention of a configuration (both absent: off)."""

    expert_parallel: int | None = Field(
        default=None, exclude_if=_absent,
        description="Expert-parallel degree e [-] (absent: 1, off).")
    dp_attention: bool | None = Field(
        default=None, exclude_if=_absent,
        description="Data-parallel attention over a stage's GPUs (absent: off).")


class Candidate(ExpertLayout):
    ENGLISH = {"reason": "reason_message"}

    gpu: str = Field(description="GPU id.")
    gpu_name: str = Field("", description="The GPU's product name ('' in older results).")
    gpus_per_replica: int = Field(description="GPUs in one replica, t x p [-].")
    tensor_parallel: int = Field(description="Tensor-parallel degree t [-].")
    pipeline_parallel: int = Field(description="Pipeline stages p [-].")
    precision: str = Field(description="Weight format id.")
    kv_precision: str = Field(description="KV cache format id.")
    fits: bool = Field(description="Weights, runtime and one sequence at peak context fit.")
    per_gpu_bytes: float = Field(description="What one GPU holds at the users it can serve [B].")
    max_users_per_replica: int = Field(
        description="SLO capacity: most users meeting both targets [-].")
    tokens_per_s_per_user: float = Field(description="Speed of one user alone [tokens/s].")
    ttft_s: float = Field(description="TTFT of one user alone [s].")
    replicas: int = Field(
        description="Replicas Step 5 would deploy for the load and the redundancy [-].")
    gpus_total: int = Field(description="GPUs of those replicas [-].")
    power_w: float = Field(
        description="Maximum power of the servers holding those GPUs, at nameplate [W].")
    capital_cost_usd: float | None = Field(
        description="Indicative capital of the compute: the servers with the GPUs they hold "
                    "[USD]; None when nothing has a price.")
    capital_complete: bool = Field(
        default=True, description="Every server and GPU of the compute has a price; false: "
                                  "capital_cost_usd leaves some out.")
    verdict: str = Field(description="meets targets, misses TTFT, misses tokens/s or does not fit.")
    reason: str = Field(description="Why it lost to the chosen configuration (English).")
    reason_message: Message | None = Field(default=None, description="The same, translatable.")


def _training_only(value: Any) -> bool:
    """A field a serving result leaves out of its JSON (None there)."""
    return value is None


class ChosenConfiguration(ExpertLayout):
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
                                   description="Training: ZeRO stage 0-3 [-] (absent for serving).")
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
    chosen: ChosenConfiguration = Field(description="The configuration the result describes.")
    chosen_by: str = Field(description="user (hardware given) or the ranking used")
    alternatives: list[Candidate] = Field(
        default_factory=list, description="Every other candidate, in ranking order, with why it "
                                          "lost.")


class PlanFigures(Frozen):
    """What one way of planning deploys: the users a replica carries, the replicas the
    load needs and, with the redundancy, the replicas and GPUs deployed."""

    users_per_replica: int | None = Field(
        description="Most users one replica serves within both targets at this end of the "
                    "range [-]; None for a batch job (sized by throughput).")
    replicas_for_load: int = Field(description="Replicas the load needs [-].")
    replicas: int = Field(description="Replicas deployed, redundancy included [-].")
    gpus_total: int = Field(description="GPUs of those replicas [-].")
    nodes: int = Field(description="Nodes deployed [-].")


class Planning(Frozen):
    """Which end of the expected range Step 5 sizes by, and what the other end needs.

    Conservative (the default): replicas and GPUs are sized so the low end of the expected
    range of decode speed and throughput (and the high end of TTFT) still meets the targets
    (METHOD.md, Step 5, "Planning on the safe side"). Expected: sized at the expected
    figures.
    """

    ENGLISH = {"statement": "message"}

    plan_at: str = Field(description="conservative or expected: the figures Step 5 sized by.")
    band_low: float = Field(
        description="Multiplier on expected speed at the low end of the range [-] (times at "
                    "the high end are divided by it).")
    expected: PlanFigures = Field(description="What the expected figures need.")
    conservative: PlanFigures = Field(
        description="What the low end of the expected range needs.")
    margin: float | None = Field(
        default=None,
        description="How much slower than the figures it is sized by the plan may run at its "
                    "load and still meet both targets [-] (0.03: 3 %); None without a load "
                    "of users (METHOD.md, Step 5).")
    low_end_misses: bool = Field(
        default=False,
        description="True when the low end of the range misses a target even for one user "
                    "per replica while the expected figures meet them (planning "
                    "conservatively): more replicas cannot fix that, so the load is sized at "
                    "the expected figures.")
    statement: str = Field(default="", description="Which was used and what the other would "
                                                   "need (English).")
    message: Message | None = Field(default=None, description="The same, translatable.")

    @property
    def planned(self) -> PlanFigures:
        """The figures Step 5 deployed."""
        return self.conservative if self.plan_at == "conservative" else self.expected

    @property
    def other(self) -> PlanFigures:
        """What the other way of planning would deploy."""
        return self.expected if self.plan_at == "conservative" else self.conservative


class ScaleResult(Frozen):
    """Step 5: replicas, nodes, what survives a failure."""

    ENGLISH = {"failure_statement": "failure_message",
               "rack_failure_statement": "rack_failure_message", "explanation": "messages"}

    redundancy: str = Field(description="none, n+1 or 2n.")
    replicas_for_load: int = Field(description="Replicas the load needs [-].")
    replicas: int = Field(description="Replicas deployed, redundancy included [-].")
    gpus_total: int = Field(description="GPUs of all replicas [-].")
    server: str = Field(
        description="Server id (a generic-<gpu> planning server where the catalog has none).")
    server_name: str = Field(
        default="", description="The server's product name, as the catalog (or the generic "
                                "planning server) names it; what the views show, '' in results "
                                "saved before it existed (the views then show the id).")
    gpus_per_node: int = Field(description="GPUs a node takes [-].")
    replicas_per_node: int = Field(
        description="Replicas sharing a node; 0 when a replica spans nodes [-].")
    nodes_per_replica: int = Field(description="Nodes one replica spans [-].")
    nodes: int = Field(description="Nodes deployed [-].")
    autoscale_min_replicas: int = Field(
        description="Fewest replicas an autoscaler should keep [-].")
    autoscale_max_replicas: int = Field(description="Most replicas (all deployed) [-].")
    cold_start_s: float = Field(
        description="A node loading its weights and starting to serve [s] (training: resuming from"
                    " the checkpoint).")
    storage_tier: str = Field(description="Storage tier id the weights load from.")
    batch_completion_hours: float | None = Field(
        default=None, description="Batch: hours the volume takes [h]; None online.")
    failure_statement: str = Field(description="What still serves when a node fails (English).")
    failure_message: Message | None = Field(default=None, description="The same, translatable.")
    compute_racks: int = Field(
        0, description="Racks holding the nodes, filled in order by space and the rack power "
                       "limit (the infrastructure sizing) [-]; 0 when not sized.")
    nodes_in_fullest_rack: int = Field(0, description="Nodes in the fullest compute rack [-].")
    replicas_after_node_failure: int | None = Field(
        None, description="Replicas still serving with the fullest node down [-] (0 for "
                          "training: any failure stops the job).")
    replicas_after_rack_failure: int | None = Field(
        None, description="Replicas still serving with the rack holding the most replicas "
                          "down [-]; replicas spread evenly over nodes and across racks, a "
                          "replica spanning nodes takes consecutive ones (0 for training).")
    survives_rack_failure: bool | None = Field(
        None, description="replicas_after_rack_failure >= replicas_for_load: the redundancy "
                          "also covers the loss of a whole rack.")
    rack_failure_statement: str = Field("", description="The rack statement in English.")
    rack_failure_message: Message | None = Field(
        None, description="What still serves when a rack fails.")
    rack_redundancy_message: Message | None = Field(
        None, description="Whether the redundancy choice covers a rack, and what would.")
    planning: Planning | None = Field(
        None, description="Which end of the expected range the replicas are sized by, and what "
                          "the other would need; None for training.")
    explanation: list[str] = Field(default_factory=list, description="Plain sentences (English).")
    messages: list[Message] = Field(default_factory=list, description="The same, translatable.")

    @property
    def server_shown(self) -> str:
        """The server as the views name it: its product name, else (an older result) its
        id."""
        return self.server_name or self.server


class FacilityResult(Frozen):
    """First-order power and heat (the infrastructure issue refines racks and cooling)."""

    it_power_w: float = Field(description="IT power at maximum (compute and network) [W].")
    facility_power_w: float = Field(description="IT power x PUE [W].")
    pue: float = Field(description="Power usage effectiveness [-].")
    heat_btu_per_h: float = Field(description="Heat of the IT load [BTU/h].")
    cooling_tons: float = Field(description="Cooling capacity [tons of refrigeration].")
    racks: int = Field(description="Racks, compute and network [-].")
    cooling: str = Field(description="air, rdhx or dlc.")
    annual_energy_kwh: float = Field(description="Facility energy in a year [kWh].")


class CostResult(Frozen):
    ENGLISH = {"note": "note_messages"}
    JOINED = frozenset({"note"})

    capital_usd: float | None = Field(
        description="Indicative capital of the deployment [USD]; None without prices.")
    gpus_usd: float | None = Field(
        description="The compute: the servers with the GPUs they hold (the cost lines with "
                    "GPUs) [USD]; None without a price.")
    compute_complete: bool = Field(
        default=True, description="Every server and GPU of the compute has a price.")
    servers_usd: float | None = Field(
        description="Not priced separately [USD] (None; the lines are in infrastructure).")
    unpriced: list[str] = Field(
        default_factory=list,
        description="Cost items without a price: the capital leaves them out and says so.")
    note: str = Field(description="Where the prices come from and what has none (English).")
    note_messages: list[Message] = Field(default_factory=list, description="The note, "
                                         "sentence by sentence, translatable.")


class RackResult(Frozen):
    kind: str = Field(description="compute or network.")
    items: list[str] = Field(description="What the rack holds, in order: nodes (compute) or "
                                         "switches (network).")
    units_used: int = Field(description="Rack units taken, switches included [U].")
    power_w: float = Field(description="Power of what it holds [W].")
    limit_w: float = Field(description="Power the rack may draw [W].")
    switches: list[str] = Field(
        default_factory=list,
        description="Top-of-rack switches in a compute rack (a small site's network).")
    switch_units: int = Field(default=0, description="Rack units those switches take [U].")


class PowerResult(Frozen):
    node_max_w: float = Field(description="One node at maximum [W].")
    node_typical_w: float = Field(description="One node at its typical power [W].")
    compute_w: float = Field(description="All nodes at maximum [W].")
    network_w: float = Field(description="All switches [W].")
    storage_w: float = Field(description="Storage systems (not sized: 0) [W].")
    it_max_w: float = Field(description="Compute + network at maximum [W].")
    it_typical_w: float = Field(description="Compute typical + network [W].")
    facility_w: float = Field(description="IT maximum x PUE [W].")
    pue: float = Field(description="Power usage effectiveness [-].")


class CoolingResult(Frozen):
    kind: str = Field(
        description="air, rdhx (rear-door heat exchanger) or dlc (direct liquid cooling).")
    rack_limit_w: float = Field(description="Power one rack may draw with this cooling [W].")
    heat_btu_per_h: float = Field(description="Heat of the IT load [BTU/h].")
    tons: float = Field(description="Cooling capacity [tons of refrigeration].")
    airflow_cfm: float = Field(description="Air flow that removes the air-cooled share [CFM].")
    liquid_l_per_min: float = Field(
        description="Coolant flow that removes the liquid-cooled share [L/min].")
    air_share: float = Field(description="Share of the heat that goes to air [-].")


class ElectricalResult(Frozen):
    voltage_v: float = Field(description="Feed voltage, line to line [V].")
    power_factor: float = Field(description="Power factor [-].")
    ab_feeds: bool = Field(description="Two independent feeds (A/B) per rack.")
    max_rack_current_a: float = Field(
        description="Line current of the fullest rack, three-phase [A].")
    pdu_rating_a: float = Field(description="Rating of one rack PDU [A].")
    pdus_per_rack_per_feed: int = Field(description="PDUs the fullest rack needs per feed [-].")
    pdus_total: int = Field(description="PDUs of all racks and feeds [-].")


class EnergyResult(Frozen):
    utilisation: float = Field(description="Average load as a share of the peak [-].")
    annual_kwh: float = Field(description="Facility energy in a year [kWh].")
    annual_cost_usd: float = Field(description="Its cost [USD/year].")
    annual_co2e_kg: float | None = Field(
        description="Its emissions [kg CO2e/year]; None without a grid factor.")
    annual_colocation_usd: float = Field(
        description="Colocation billed per kW of IT power [USD/year].")


class SwitchGroup(Frozen):
    network: str = Field(
        description="The network (front-end and storage, compute fabric, out-of-band ...).")
    switch: str = Field(description="Switch id.")
    switch_name: str = Field(description="Switch name.")
    count: int = Field(description="Switches [-].")
    ports_used: int = Field(description="Ports in use [-].")
    power_w: float = Field(description="Their power at maximum [W].")


class FabricResult(Frozen):
    switch: str = Field(description="Switch id of the fabric.")
    radix: int = Field(description="Ports per switch [-].")
    port_gbps: float = Field(description="Speed of one port [Gb/s].")
    endpoints: int = Field(description="GPUs (NICs) the fabric connects [-].")
    tiers: int = Field(description="Tiers of the fat tree [-].")
    leaves: int = Field(description="Leaf switches [-].")
    spines: int = Field(description="Spine switches [-].")
    cores: int = Field(description="Core switches (third tier) [-].")
    cables_per_tier: list[int] = Field(description="Cables between consecutive tiers [-].")
    transceivers: int = Field(description="Optical transceivers [-].")
    nics: int = Field(description="Scale-out NICs [-].")
    oversubscription: float = Field(description="Downlinks per uplink at the leaves [-].")
    two_tier_limit: int = Field(description="Most endpoints two tiers connect [-].")


class NetworkResult(Frozen):
    ENGLISH = {"scale_up": "scale_up_message", "fabric_reason": "fabric_reason_message"}

    scale_up: str = Field(description="The link between the GPUs of a node (English).")
    fabric: FabricResult | None = Field(
        description="The scale-out fabric; None when none is needed.")
    fabric_reason: str = Field(description="Why there is a fabric or not (English).")
    groups: list[SwitchGroup] = Field(description="Switches by network.")
    scale_up_message: Message | None = Field(default=None, description="The link, translatable.")
    fabric_reason_message: Message | None = Field(default=None, description="Why, translatable.")


class StorageLine(Frozen):
    tier: str = Field(description="Where it is kept (GPU-direct / hot, hot, warm).")
    purpose: str = Field(description="What is kept.")
    capacity_bytes: float = Field(description="Capacity [B].")
    read_bytes_per_s: float = Field(default=0.0, description="Read bandwidth it needs [B/s].")
    write_bytes_per_s: float = Field(default=0.0, description="Write bandwidth it needs [B/s].")


class StorageResult(Frozen):
    preset: str = Field(description="Storage tier id.")
    read_bytes_per_s_per_node: float = Field(
        description="Read bandwidth of the tier per node [B/s].")
    write_bytes_per_s_per_node: float = Field(
        description="Write bandwidth of the tier per node [B/s].")
    local_nvme_bytes: float = Field(description="Local NVMe of all nodes [B].")
    lines: list[StorageLine] = Field(description="What is stored, line by line.")
    total_bytes: float = Field(description="Capacity of all lines [B].")


class CostLineResult(Frozen):
    item: str = Field(description="What the line prices (catalog name or a planning item).")
    quantity: float = Field(description="How many [-] (usable TB for storage).")
    unit_usd: float | None = Field(
        description="Indicative price of one [USD]; None without a price.")
    total_usd: float | None = Field(
        description="quantity x unit price [USD]; None without a price.")
    source: str = Field(description="Where the price comes from.")
    estimated: bool = Field(
        default=False, description="Priced by a planning rule where no price is published.")
    gpu_name: str = Field(
        default="", description="The GPU a system or server line holds; '' for other lines.")
    gpus_each: int = Field(
        default=0, description="GPUs each system or server holds (the fullest one), 1 for the "
                               "GPUs a server priced without them takes [-]; 0 for other "
                               "lines.")


def priced_total(cost: str, unpriced: list[str]) -> Message:
    """A capital total as every view shows it: the amount (formatted by the view, e.g.
    "USD 87,261"), and, when some items have no price, which ones it leaves out, next to the
    number (issue 13: a total never drops an item silently)."""
    if not unpriced:
        return verbatim(cost)
    return msg("{cost}, without {items} (no price)", cost=cost, items=", ".join(unpriced))


_SWITCH_NETWORK = re.compile(r" \(([^()]+)\)( #\d+)$")  # "<switch> (<network>) #<n>"


def switch_in_rack(name: str, lang: str) -> str:
    """A switch as a rack lists it ("<switch> (<network>) #<n>") with its network named in
    ``lang`` (the product's name stays as it is)."""
    return _SWITCH_NETWORK.sub(lambda m: f" ({translate(m[1], lang)}){m[2]}", name)


def rack_contents(rack: RackResult, lang: str) -> list[str]:
    """What a rack holds, in order, its switches' networks named in ``lang``."""
    nodes = rack.items if rack.kind == "compute" else [switch_in_rack(n, lang)
                                                        for n in rack.items]
    return nodes + [switch_in_rack(n, lang) for n in rack.switches]


def storage_class(preset: str, lang: str) -> str:
    """A storage class (catalogs/storage.toml: good, better, best) in ``lang``."""
    return translate(preset, lang)


def cost_item(line: CostLineResult) -> Message:
    """A cost line's item as the views show it: a system or server with the GPUs each holds
    ("NVIDIA DGX H200, each with 8 x NVIDIA H200 SXM 141GB"), else its name (translated
    where it is a planning item such as "Racks")."""
    if line.gpus_each > 1:
        return msg("{item}, each with {gpus} x {gpu}", item=line.item, gpus=line.gpus_each,
                   gpu=line.gpu_name)
    return verbatim(line.item)


class InfrastructureResult(Frozen):
    """Racks, power, cooling, feeds, energy, networks, storage and cost of the deployment."""

    power: PowerResult = Field(description="Power of nodes, network and facility.")
    cooling: CoolingResult = Field(description="Heat and how it is removed.")
    racks: list[RackResult] = Field(
        description="Racks in order: compute racks filled with nodes, then network.")
    electrical: ElectricalResult = Field(description="Feeds and PDUs.")
    energy: EnergyResult = Field(description="Energy, its cost and emissions, colocation.")
    network: NetworkResult = Field(description="Scale-up link, fabric and access networks.")
    storage: StorageResult = Field(description="What the deployment stores and reads.")
    cost_lines: list[CostLineResult] = Field(description="Indicative capital by line.")
    capital_usd: float = Field(description="Sum of the priced lines [USD].")
    unpriced: list[str] = Field(
        default_factory=list,
        description="Cost items without a price: the capital leaves them out and says so.")
    annual_running_usd: float = Field(description="Energy and colocation [USD/year].")
    years: float = Field(description="Years of the total cost [years].")
    tco_usd: float = Field(description="Capital + years x running cost, undiscounted [USD].")
    cost_per_million_tokens_usd: float | None = Field(
        description="Total cost over the output tokens of those years [USD/1e6 tokens]; None for "
                    "training.")
    warnings: list[Message] = Field(
        default_factory=list, description="What the site sizing found (translatable).")


class TrainingCandidate(Frozen):
    """One training configuration the search looked at."""

    gpu: str = Field(description="GPU id.")
    gpus: int = Field(description="GPUs of the configuration [-].")
    data_parallel: int = Field(description="Data-parallel replicas [-].")
    tensor_parallel: int = Field(description="Tensor-parallel degree [-].")
    pipeline_parallel: int = Field(description="Pipeline stages [-].")
    zero_stage: int = Field(description="ZeRO stage 0-3 [-].")
    per_gpu_bytes: float = Field(description="What the fullest GPU holds [B].")
    fits: bool = Field(description="It fits the usable memory.")
    step_time_s: float = Field(description="One optimizer step [s].")
    time_to_train_s: float = Field(description="Compute time for the token budget [s].")
    reason: str = Field(description="Why chosen or not (English).")


class TrainingScalePoint(Frozen):
    """Time to train against GPU count (the best fitting layout at each count)."""

    gpus: int = Field(description="GPUs [-].")
    data_parallel: int = Field(description="Data-parallel replicas [-].")
    tensor_parallel: int = Field(description="Tensor-parallel degree [-].")
    pipeline_parallel: int = Field(description="Pipeline stages [-].")
    zero_stage: int = Field(description="ZeRO stage 0-3 [-].")
    step_time_s: float = Field(description="One optimizer step [s].")
    time_to_train_s: float = Field(description="Compute time for the token budget [s].")
    wall_clock_s: float = Field(description="With checkpoints and failures [s].")


class TrainingResult(Frozen):
    """Training or fine-tuning: memory per GPU, step time, time to train, checkpoints.

    Per-GPU figures are for the fullest GPU (the first pipeline stage). CONTRACT.md
    ("training.*"): model-state and activation bytes per GPU, step time, time to train,
    checkpoint size and time.
    """

    ENGLISH = {"explanation": "messages"}

    method: str = Field(description="full, lora or qlora")
    optimizer: str = Field(description="Optimizer (adamw, adam, adamw-8bit, sgd, lion, adafactor).")
    chosen_by: str = Field(description="user (all degrees given) or the search")
    gpu: str = Field(description="GPU id.")
    gpus_total: int = Field(description="GPUs of the job [-].")
    gpus_per_node: int = Field(description="GPUs per node [-].")
    nodes: int = Field(description="Nodes [-].")
    data_parallel: int = Field(description="Data-parallel replicas N_d [-].")
    tensor_parallel: int = Field(description="Tensor-parallel degree t [-].")
    pipeline_parallel: int = Field(description="Pipeline stages p [-].")
    zero_stage: int = Field(description="ZeRO stage 0-3 [-].")
    sequence_parallel: bool = Field(description="Megatron sequence parallelism.")
    activation_recompute: str = Field(description="none, selective or full.")
    micro_batch_size: int = Field(description="Sequences per micro-batch [-].")
    sequence_length: int = Field(description="Tokens per sequence [tokens].")
    gradient_accumulation_steps: int = Field(description="Micro-batches per optimizer step [-].")
    global_batch_sequences: int = Field(description="Sequences per optimizer step [-].")
    tokens_per_step: float = Field(description="Tokens per optimizer step [tokens].")
    params_total: float = Field(description="All parameters of the model [-].")
    params_trainable: float = Field(description="Full: all; LoRA/QLoRA: the adapters [-].")
    adapter_params: float = Field(description="LoRA/QLoRA adapter parameters [-] (0 for full).")
    model_state_bytes_per_param: float = Field(
        description="Unsharded bytes per trainable parameter [B] (16 for mixed-precision AdamW).")
    weights_bytes_per_gpu: float = Field(description="16-bit (or 4-bit frozen) weights [B].")
    gradients_bytes_per_gpu: float = Field(description="Gradients [B].")
    optimizer_bytes_per_gpu: float = Field(description="FP32 master copy and moments [B].")
    model_state_bytes_per_gpu: float = Field(description="Weights + gradients + optimizer [B].")
    activation_bytes_per_layer: float = Field(description="One layer, one micro-batch [B].")
    activation_bytes_per_gpu: float = Field(
        description="Activations kept for the backward pass [B].")
    runtime_bytes_per_gpu: float = Field(description="CUDA context, buffers, fragmentation [B].")
    per_gpu_bytes: float = Field(description="Model states + activations [B].")
    gpu_memory_bytes: float = Field(description="Memory of one GPU [B].")
    gpu_usable_bytes: float = Field(description="Share the job may use [B].")
    fits: bool = Field(description="per_gpu_bytes <= gpu_usable_bytes.")
    activations_approximate: bool = Field(
        description="Korthikanti's formulas assume a GeLU MLP of 4h and multi-head attention.")
    flops_per_token: float = Field(description="Training FLOPs per token (6N full) [FLOP].")
    flops_total: float = Field(description="FLOPs of the whole run [FLOP].")
    peak_flops_per_gpu: float = Field(description="Dense BF16 peak of one GPU [FLOP/s].")
    mfu: float = Field(description="Model FLOPs utilisation [-].")
    compute_time_per_step_s: float = Field(description="Compute of one step at the MFU [s].")
    dp_communication_s: float = Field(description="Gradient all-reduce per step [s].")
    tp_communication_s: float = Field(description="Tensor-parallel collectives per step [s].")
    pp_communication_s: float = Field(description="Pipeline sends per step [s].")
    communication_s: float = Field(description="All communication of one step [s].")
    communication_hidden: bool = Field(description="Communication shorter than compute.")
    pipeline_bubble_share: float = Field(description="(p - 1) / micro-batches per step [-].")
    step_time_s: float = Field(description="One optimizer step [s].")
    steps: float = Field(description="Optimizer steps for the token budget [-].")
    tokens_total: float = Field(description="Tokens trained on [tokens].")
    time_to_train_s: float = Field(description="Compute only: 6ND / (GPUs x peak x MFU) [s].")
    gpu_hours: float = Field(description="GPU time of the compute [GPU h].")
    checkpoint_bytes: float = Field(description="One checkpoint [B].")
    checkpoint_write_bytes_per_s: float = Field(
        description="Aggregate write rate while saving [B/s].")
    checkpoint_save_s: float = Field(description="Saving one checkpoint [s].")
    mtbf_cluster_s: float = Field(description="Mean time between failures of the cluster [s].")
    checkpoint_interval_s: float = Field(description="Young/Daly sqrt(2 x save x MTBF) [s].")
    checkpoint_overhead_share: float = Field(
        description="Saving plus lost work: save/interval + interval/(2 MTBF) [-].")
    wall_clock_s: float = Field(description="Time to train with checkpoint and failure losses [s].")
    checkpoints_retained: int = Field(description="Checkpoints kept [-].")
    checkpoint_storage_bytes: float = Field(description="Storage of the kept checkpoints [B].")
    dataset_bytes: float = Field(description="The data set on disk [B].")
    storage_bytes: float = Field(description="Checkpoints + data set [B].")
    target_days: float | None = Field(
        default=None, description="Wall-clock target [days]; None without one.")
    meets_target: bool | None = Field(
        default=None, description="Trains within the target; None without one.")
    candidates: list[TrainingCandidate] = Field(
        default_factory=list, description="The best (or closest) configuration on each GPU.")
    scaling: list[TrainingScalePoint] = Field(
        default_factory=list, description="Time to train at 1x, 2x, 4x ... the GPUs chosen.")
    explanation: list[str] = Field(default_factory=list, description="Plain sentences (English).")
    messages: list[Message] = Field(default_factory=list, description="The same, translatable.")


class RagResult(Frozen):
    """Retrieval-augmented generation: indexing, vector index, retrieval latency."""

    ENGLISH = {"explanation": "messages"}

    documents: int = Field(description="Documents in the corpus [-].")
    tokens_corpus: float = Field(description="Tokens of the corpus [tokens].")
    chunks: float = Field(description="Chunks (vectors) [-].")
    tokens_embedded: float = Field(
        description="Chunks x chunk length (overlap embedded twice) [tokens].")
    embedding_params: float = Field(description="Parameters of the embedding model [-].")
    embedding_dim: int = Field(description="Dimensions of a vector [-].")
    embedding_model: str = Field(default="", description="Catalog id of the embedding model "
                                 "(empty: sized from embedding_params).")
    embedding_model_name: str = Field(default="", description="Its name ('' without one).")
    embedding_gpu: str = Field(description="GPU id the corpus is embedded on.")
    embedding_gpus: int = Field(description="GPUs embedding [-].")
    embedding_flops: float = Field(description="FLOPs to embed the corpus once [FLOP].")
    indexing_time_s: float = Field(description="Time to embed the corpus once [s].")
    index: str = Field(description="hnsw, ivf-pq or flat.")
    index_memory_bytes: float = Field(description="The vector index in memory [B].")
    vectors_bytes: float = Field(description="Raw vectors, no index structure [B].")
    index_storage_bytes: float = Field(description="Index + chunk text on disk [B].")
    chunk_text_bytes: float = Field(description="Text of the chunks [B].")
    retrieval_latency_s: float = Field(
        description="Embedding the query and searching the index [s].")
    ttft_s: float = Field(description="TTFT at the scenario load without retrieval [s].")
    ttft_with_retrieval_s: float = Field(description="TTFT + retrieval latency [s].")
    added_prompt_tokens: int = Field(
        description="top_k x chunk tokens the prompt carries [tokens].")
    prompt_holds_context: bool = Field(description="The prompt is at least the retrieved tokens.")
    reindex_per_day: float = Field(description="Share of the corpus embedded again per day [-].")
    reindex_gpu_hours_per_day: float = Field(description="GPU time that takes [GPU h/day].")
    explanation: list[str] = Field(default_factory=list, description="Plain sentences (English).")
    messages: list[Message] = Field(default_factory=list, description="The same, translatable.")


class CpuOption(Frozen):
    cpu: str = Field(description="CPU id.")
    sockets: int = Field(description="Sockets per server [-].")
    memory_bandwidth_bytes_per_s: float = Field(
        description="Peak memory bandwidth, all sockets [B/s].")
    tokens_per_s_single: float = Field(description="Speed of one user alone [tokens/s].")


class CpuResult(Frozen):
    """Inference on server CPUs, compared with the GPU option for the same model and load."""

    ENGLISH = {"verdict_text": "verdict_message", "explanation": "messages"}

    cpu: str = Field(description="CPU id of the server compared.")
    cpu_name: str = Field(description="Its name.")
    sockets: int = Field(description="Sockets per server [-].")
    weights: str = Field(description="Weight format on the CPU (name).")
    weights_bytes: float = Field(description="Weights in that format [B].")
    memory_bandwidth_bytes_per_s: float = Field(description="Peak, all sockets [B/s].")
    bandwidth_efficiency: float = Field(
        description="Share of peak memory bandwidth decode reaches [-].")
    single_user_tokens_per_s: float = Field(description="Speed of one user alone [tokens/s].")
    single_user_ttft_s: float = Field(description="TTFT of one user alone [s].")
    users: float = Field(description="Concurrency compared (the scenario's load) [-].")
    tokens_per_s_per_user: float = Field(description="At the scenario's load [tokens/s].")
    output_tokens_per_s: float = Field(description="Aggregate at the scenario's load [tokens/s].")
    ttft_s: float = Field(description="TTFT at the scenario's load [s].")
    users_meeting_speed: int = Field(description="Most users at the speed target [-].")
    meets_targets: bool = Field(description="Both targets are met at the scenario's load.")
    power_w: float = Field(description="Server power: sockets x TDP + host [W].")
    price_usd: float | None = Field(
        description="Indicative CPU price, all sockets [USD]; None without a price.")
    gpu_tokens_per_s_per_user: float = Field(
        description="The GPU option at the same load [tokens/s].")
    gpu_output_tokens_per_s: float = Field(
        description="The GPU option's aggregate at the same load [tokens/s].")
    gpu_ttft_s: float = Field(description="The GPU option's TTFT at the same load [s].")
    speed_ratio: float = Field(description="CPU / GPU tokens per second per user [-].")
    verdict: str = Field(description="cpu-suffices, cpu-for-light-use or gpu-needed")
    verdict_text: str = Field(description="The verdict as a sentence (English).")
    verdict_message: Message | None = Field(default=None, description="The same, translatable.")
    alternatives: list[CpuOption] = Field(
        default_factory=list, description="Every catalog CPU compared, one user alone.")
    explanation: list[str] = Field(default_factory=list, description="Plain sentences (English).")
    messages: list[Message] = Field(default_factory=list, description="The same, translatable.")


class Assumption(Frozen):
    ENGLISH = {"source": "source_message"}

    name: str = Field(description="Id of the figure ('vllm.eta_mem', 'training_mfu'); "
                                  "factor_overrides use it.")
    value: Any = Field(description="The value used, in ``unit``.")
    unit: str = Field(default="", description="Its unit ('' for a pure number).")
    source: str = Field(description="Where the value comes from, in English.")
    overridden: bool = Field(
        default=False, description="True when the scenario set it instead of the catalog.")
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


#: Every state a :class:`Verdict` may have (the window shows them through ``t(state)``).
VERDICT_STATES = ("meets targets", "misses TTFT", "misses tokens/s", "misses both targets",
                  "does not fit", "meets the window", "misses the window", "fits",
                  "misses the target time")
#: The states of a :class:`Verdict` that are a pass, by kind of workload.
PASSING_STATES = {"serving": ("meets targets",), "batch": ("meets the window",),
                  "training": ("fits",)}


class Verdict(Frozen):
    """The one verdict on the configuration the result describes, for its kind of workload.

    Made once by the engine (:func:`app.engine.explain.verdict_of`); Step 2, Step 3, the
    summary, the training page and the report all show this one.
    """

    ENGLISH = {"sentence": "message"}

    workload: str = Field(description="What is judged: serving (online inference), batch or "
                                      "training (fine-tuning and pre-training).")
    state: str = Field(description="serving: meets targets, misses TTFT, misses tokens/s, "
                                   "misses both targets or does not fit; batch: meets the "
                                   "window, misses the window or does not fit; training: fits, "
                                   "misses the target time or does not fit.")
    fits: bool = Field(description="The memory fits: serving and batch the users' KV cache at "
                                   "peak context (memory.fits), training the training memory "
                                   "(training.fits).")
    sentence: str = Field(default="", description="The verdict in one sentence, with the fix "
                                                  "when it fails (English).")
    message: Message | None = Field(default=None, description="The same, translatable.")

    @property
    def passed(self) -> bool:
        """True when the state is a pass for the workload (not in the JSON)."""
        return self.state in PASSING_STATES.get(self.workload, ())


class SizingResult(Frozen):
    """Everything one run of the five steps produces."""

    ENGLISH = {"warnings": "warning_messages"}

    schema_version: int = Field(
        default=RESULT_SCHEMA_VERSION, description="Version of this result's schema [-].")
    tool_version: str = Field(description="AI Sizer version that sized it.")
    catalog_versions: dict[str, str] = Field(description="Version of each catalog file used.")
    inputs: Scenario = Field(description="The scenario after defaults were applied: sizing it "
                                         "again evaluates the same configuration as given.")
    model: ModelFacts = Field(description="The model as the sizing counted it.")
    gpu: GpuFacts = Field(description="The GPU of the configuration.")
    memory: MemoryResult = Field(description="Step 2: memory.")
    performance: PerformanceResult = Field(description="Step 4: performance.")
    selection: SelectionResult = Field(description="Step 3: the GPU configuration.")
    verdict: Verdict = Field(description="The one verdict on the configuration, for the "
                                         "workload's kind.")
    scale: ScaleResult = Field(description="Step 5: redundancy and scale.")
    facility: FacilityResult = Field(description="Headline power and heat.")
    cost: CostResult = Field(description="Headline capital.")
    infrastructure: InfrastructureResult | None = Field(
        default=None, description="Racks, power, cooling, networks, storage and cost.")
    training: TrainingResult | None = Field(
        default=None, description="Training or fine-tuning; None for serving.")
    rag: RagResult | None = Field(default=None, description="Retrieval; None without a rag block.")
    cpu: CpuResult | None = Field(
        default=None, description="The CPU comparison; None without a cpu block.")
    test_plan: TestPlanResult | None = Field(
        default=None, description="The load test of one replica the sizing implies.")
    validation: ValidationResult | None = Field(
        default=None, description="Imported measurements beside the prediction (Validation).")
    assumptions: list[Assumption] = Field(
        description="Every default and efficiency factor used, with its source.")
    warnings: list[str] = Field(description="What the user must know (English).")
    warning_messages: list[Message] = Field(
        default_factory=list, description="The same, translatable.")
