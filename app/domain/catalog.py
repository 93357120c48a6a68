"""Catalog entries: GPUs, servers, models, number formats and serving-engine profiles.

The TOML catalogs use the units of the datasheets (GB, GB/s, TFLOPS, W) so that an entry can be
checked against its source by eye; each model exposes the SI value the engine uses through a
property (``memory_bytes``, ``memory_bandwidth_bytes_per_s``, ``peak_flops(...)``).

Every entry carries ``source`` (document, page or URL) and ``as_of`` (date it was read);
``derived`` lists the fields that were computed rather than read, and ``preliminary`` marks
figures announced for a product that has no shipping datasheet yet. Hardware with a price
says what kind of price it is (``price_kind``: a published list price or a street estimate)
and when it was stated (``price_as_of``).
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from app.domain.numbers import Numbers
from app.domain.problems import RuleError
from app.i18n import msg

GB = 1e9
TERA = 1e12

Vendor = Literal["nvidia", "amd", "intel"]
#: The GPU makers as their products name them.
VENDOR_NAMES = {"nvidia": "NVIDIA", "amd": "AMD", "intel": "Intel"}
GpuFamily = Literal["ampere", "ada", "hopper", "blackwell", "rubin", "cdna3", "cdna4", "gaudi"]
GpuClass = Literal["datacenter", "workstation", "consumer"]
PriceKind = Literal["list", "estimate"]
ComputeClass = Literal["bf16", "fp8", "int8", "fp4"]

# Plausible ranges for figures a user's catalog or model folder may give: far above any
# product (288 GB, 16,384 wide, 10.5 M tokens in the 2026.12 catalogs), low enough that the
# arithmetic on them stays finite and every search over them ends (a 1e300 GB GPU or a model
# 2^1023 wide would overflow or hang the sizing).
MAX_GPU_MEMORY_GB = 100_000
"""Memory of one GPU [GB]."""
MAX_WIDTH = 1_000_000
"""A model's widths, head counts and expert counts."""
MAX_CONTEXT = 1_000_000_000
"""A model's context and window lengths [tokens]."""


class Sourced(Numbers):
    """Provenance every catalog entry carries."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9._+-]*$", description="Catalog id (lower case).")
    name: str = Field(min_length=1, description="Name shown to users.")
    source: str = Field(min_length=3, description="Document, page or URL the figures were read.")
    as_of: dt.date = Field(description="Date the figures were read or last checked.")
    derived: list[str] = Field(
        default_factory=list, description="Fields computed from others rather than read."
    )
    preliminary: bool = Field(
        default=False,
        description=("Figures are announced or pre-release (no shipping datasheet yet) and may "
                     "change; sources may disagree (notes say how). Default false."),
    )
    notes: str = ""


class Priced(Numbers):
    """An indicative price and what kind of price it is (hardware entries).

    ``price_kind`` is ``list`` for a published list price (vendor configurator, price list,
    launch MSRP, public tender) and ``estimate`` for a street or analyst estimate or a price
    derived by a stated rule. Unset fields mean "not stated" (user entries may omit them);
    the built-in catalogs state all four for every GPU and server.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    price_usd: float | None = Field(default=None, gt=0, le=1e10,
                                     description="Indicative price [USD].")
    price_source: str = Field(default="", description="Where the price was stated.")
    price_kind: PriceKind | None = Field(
        default=None, description="list: published list price; estimate: street or derived.")
    price_as_of: dt.date | None = Field(
        default=None, description="Date the price was stated (or read, when undated).")

    @field_validator("price_kind", "price_as_of")
    @classmethod
    def _price_details_need_a_price(cls, value, info: ValidationInfo):
        if value is not None and info.data.get("price_usd") is None:
            raise ValueError(f"{info.field_name} given without price_usd")
        return value


class GpuSpec(Priced, Sourced):
    """One accelerator, per GPU (dense figures, no 2:4 sparsity)."""

    vendor: Vendor
    family: GpuFamily
    gpu_class: GpuClass | None = Field(
        default=None,
        description=("datacenter (ECC, passive or liquid, made for servers), workstation "
                     "(professional card or desktop system) or consumer (GeForce class); "
                     "None: not stated."),
    )
    memory_gb: float = Field(gt=0, le=MAX_GPU_MEMORY_GB,
                             description="Memory on the card [GB, 1e9 B].")
    unified_memory: bool = Field(
        default=False,
        description=("Memory is one pool shared with the CPU and the operating system (GB10): "
                     "memory_gb is the whole pool, usable_memory_gb what the GPU can use. "
                     "Default false."),
    )
    usable_memory_gb: float | None = Field(
        default=None, gt=0, le=MAX_GPU_MEMORY_GB,
        description="Memory the system exposes when less than physical [GB].")
    visible_memory_gib: float | None = Field(
        default=None, gt=0, le=MAX_GPU_MEMORY_GB,
        description="Memory the driver reports (nvidia-smi total) [GiB, 2^30 B]; preferred.",
    )
    memory_bandwidth_gb_s: float = Field(gt=0, le=1e6, description="Peak memory bandwidth [GB/s].")
    bf16_tflops: float = Field(
        gt=0, le=1e7, description="Dense FP16/BF16 tensor throughput [TFLOP/s].")
    fp8_tflops: float | None = Field(default=None, gt=0, le=1e7, description="Dense FP8 [TFLOP/s].")
    int8_tops: float | None = Field(default=None, gt=0, le=1e7, description="Dense INT8 [TOP/s].")
    fp4_tflops: float | None = Field(default=None, gt=0, le=1e7, description="Dense FP4 [TFLOP/s].")
    tdp_w: float = Field(gt=0, le=100_000, description="Board power [W].")
    scale_up: Literal["nvlink", "pcie", "infinity-fabric", "roce"] = Field(
        description="Link between GPUs of one node used for tensor parallelism."
    )
    scale_up_gb_s: float = Field(
        gt=0, le=1e6,
        description="GPU-to-GPU bandwidth per direction for collectives [GB/s]."
    )
    max_gpus_per_node: int = Field(ge=1, le=72, description="Largest scale-up domain.")
    form_factor: Literal["sxm", "pcie", "oam", "superchip", "nvl72"] = "pcie"
    bandwidth_derate: float = Field(
        default=1.0, gt=0, le=1,
        description=("Memory bandwidth a copy benchmark reaches on this GPU, as a share of "
                     "its peak, over the same share on the Hopper reference (H100 SXM) the "
                     "engine factors were fitted on [-]; 1: the same (no measurement says "
                     "otherwise)."))

    @property
    def memory_bytes(self) -> float:
        """Memory the serving engine can see [B].

        The driver's figure when the catalog has it (an "80 GB" H100 reports 81,559 MiB),
        else the usable or marketing figure in GB (1e9 B), which is the conservative reading.
        """
        if self.visible_memory_gib:
            return self.visible_memory_gib * 2**30
        return (self.usable_memory_gb or self.memory_gb) * GB

    @property
    def memory_bandwidth_bytes_per_s(self) -> float:
        """Peak memory bandwidth [B/s]."""
        return self.memory_bandwidth_gb_s * GB

    @property
    def sustained_bandwidth_bytes_per_s(self) -> float:
        """Peak bandwidth times :attr:`bandwidth_derate` [B/s]: the figure the engine's
        efficiencies (fitted as shares of a Hopper peak) apply to."""
        return self.memory_bandwidth_bytes_per_s * self.bandwidth_derate

    @property
    def scale_up_bytes_per_s(self) -> float:
        """GPU-to-GPU bandwidth per direction [B/s]."""
        return self.scale_up_gb_s * GB

    def peak_flops(self, compute: ComputeClass) -> float:
        """Dense tensor-core peak for the arithmetic actually used [FLOP/s].

        Falls back to the 16-bit rate when the GPU has no faster path for ``compute``
        (e.g. FP8 on an A100 runs as 16-bit arithmetic after dequantisation). FP4 weights on a
        GPU without FP4 tensor cores (Hopper, Ampere, Ada, CDNA 3) run through weight-only
        kernels that dequantise them to 16 bit (vLLM's Marlin and Triton MXFP4/NVFP4 MoE
        paths, TensorRT-LLM's W4A16 MXFP4 kernels on Hopper): the 16-bit rate, not FP8's.
        """
        rate = {
            "bf16": self.bf16_tflops,
            "fp8": self.fp8_tflops,
            "int8": self.int8_tops or self.fp8_tflops,
            "fp4": self.fp4_tflops,
        }[compute]
        return (rate or self.bf16_tflops) * TERA


class ServerSpec(Priced, Sourced):
    """A server (or rack-scale system) that hosts GPUs.

    ``price_usd`` is the server without GPUs unless ``price_includes_gpus`` (systems sold
    with their GPUs: DGX/HGX, rack-scale systems, desktop systems).
    """

    vendor: str
    chassis: Literal["rack", "rack-scale", "tower", "desktop"] | None = Field(
        default=None,
        description=("rack: rack-mount server; rack-scale: a whole rack sold as one system; "
                     "tower: workstation tower (a shelf in a rack); desktop: desk-side box. "
                     "None: not stated."),
    )
    gpu_ids: list[str] = Field(min_length=1, description="GPU ids this server takes.")
    gpu_count: int = Field(ge=1, le=72, description="GPUs per server (or per rack system).")
    rack_units: int = Field(ge=1, le=52, description="Height [U]; 48 for a whole rack system.")
    max_power_w: float = Field(gt=0, le=10_000_000, description="System maximum power [W].")
    typical_power_w: float | None = Field(
        default=None, gt=0, le=10_000_000,
        description="Power under a typical AI load [W]; None: not stated (maximum is used).")
    cooling: Literal["air", "liquid", "hybrid"] = "air"
    power_delivery: Literal["ac-psu", "dc-busbar"] | None = Field(
        default=None,
        description=("ac-psu: the server's own AC power supplies fed from rack PDUs; "
                     "dc-busbar: rack power shelves feed a DC busbar (NVL72). None: not stated."),
    )
    scale_up: Literal["nvlink", "pcie", "infinity-fabric", "roce"] = "pcie"
    cluster_nics: int = Field(
        default=0, ge=0, le=10_000, description="Scale-out NICs (one per GPU in HGX).")
    cluster_nic_gbps: float = Field(
        default=0, ge=0, le=100_000, description="Speed per scale-out NIC [Gb/s].")
    storage_nics: int = Field(default=0, ge=0, le=10_000)
    local_nvme_tb: float = Field(default=0, ge=0, le=100_000, description="Local NVMe cache [TB].")
    weight_kg: float | None = Field(default=None, gt=0, le=100_000)
    price_includes_gpus: bool = Field(
        default=False, description="price_usd includes the gpu_count GPUs. Default false.")

    @field_validator("typical_power_w")
    @classmethod
    def _typical_within_maximum(cls, value: float | None, info: ValidationInfo) -> float | None:
        maximum = info.data.get("max_power_w")
        if value is not None and maximum is not None and value > maximum:
            raise ValueError(f"typical_power_w ({value:g} W) exceeds max_power_w ({maximum:g} W)")
        return value


class MoeSpec(Numbers):
    """Mixture-of-experts layout."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    experts: int = Field(ge=2, le=MAX_WIDTH, description="Routed experts per MoE layer (E).")
    experts_per_token: int = Field(
        ge=1, le=MAX_WIDTH, description="Routed experts each token uses (k).")
    expert_intermediate_size: int = Field(
        ge=1, le=MAX_WIDTH, description="MLP width of one expert (f_e).")
    shared_experts: int = Field(
        default=0, ge=0, le=MAX_WIDTH, description="Always-active shared experts.")
    shared_intermediate_size: int | None = Field(
        default=None, ge=1, le=MAX_WIDTH, description="Width of one shared expert (default f_e)."
    )
    dense_layers: int = Field(
        default=0, ge=0, le=1000, description="Layers whose MLP is dense instead of MoE."
    )
    router_bias: bool = False
    shared_expert_gate: bool = Field(
        default=False, description="A sigmoid gate (h x 1) scales the shared expert (Qwen MoE).")

    @model_validator(mode="after")
    def _k_le_e(self) -> MoeSpec:
        if self.experts_per_token > self.experts:
            raise RuleError(msg("experts_per_token ({k}) cannot exceed experts ({e})",
                                k=self.experts_per_token, e=self.experts))
        return self


class MlaSpec(Numbers):
    """Multi-head latent attention (DeepSeek-V2/V3)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    q_lora_rank: int | None = Field(
        default=None, ge=1, le=MAX_WIDTH, description="None: full-rank Q.")
    kv_lora_rank: int = Field(ge=1, le=MAX_WIDTH)
    qk_rope_head_dim: int = Field(ge=1, le=MAX_WIDTH)
    qk_nope_head_dim: int = Field(ge=1, le=MAX_WIDTH)
    v_head_dim: int = Field(ge=1, le=MAX_WIDTH)


class LinearAttentionSpec(Numbers):
    """Layers that keep a fixed recurrent state per sequence instead of a KV cache.

    Gated DeltaNet (Qwen3-Next, Qwen3.5) and Kimi Delta Attention (Kimi Linear) replace the
    attention of ``layers`` of the model's layers by a linear recurrence: each sequence keeps a
    state of ``value_heads x key_head_dim x value_head_dim`` values and a short-convolution
    window, whatever its length. The other layers keep full attention and their KV cache.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["gated_deltanet", "kimi_delta"] = Field(
        default="gated_deltanet",
        description="gated_deltanet: Qwen3-Next/Qwen3.5 projections; kimi_delta: Kimi Linear.")
    layers: int = Field(
        ge=1, le=1000, description="Layers with linear attention (the rest attend fully).")
    key_heads: int = Field(ge=1, le=MAX_WIDTH, description="Query/key heads of a linear layer.")
    value_heads: int = Field(
        ge=1, le=MAX_WIDTH, description="Value heads (state heads) of a linear layer.")
    key_head_dim: int = Field(ge=1, le=MAX_WIDTH, description="Width of one query/key head (d_k).")
    value_head_dim: int = Field(ge=1, le=MAX_WIDTH, description="Width of one value head (d_v).")
    conv_kernel: int = Field(default=4, ge=1, le=64, description="Short-convolution taps.")
    state_precision: Literal["bf16", "fp16", "fp32"] = Field(
        default="bf16", description="Format of the recurrent state (config mamba_ssm_dtype).")

    @property
    def key_width(self) -> int:
        """``key_heads x key_head_dim``."""
        return self.key_heads * self.key_head_dim

    @property
    def value_width(self) -> int:
        """``value_heads x value_head_dim``."""
        return self.value_heads * self.value_head_dim

    @property
    def state_bytes_per_element(self) -> float:
        """Bytes of one recurrent-state value [B]."""
        return {"bf16": 2.0, "fp16": 2.0, "fp32": 4.0}[self.state_precision]


class SparseAttentionSpec(Numbers):
    """DeepSeek Sparse Attention (DeepSeek-V3.2): a lightning indexer picks, for every query,
    the ``top_k`` earlier tokens that the latent attention then reads.

    The indexer caches one FP8 key of ``index_head_dim`` values (plus an FP32 scale per 128)
    for every token in every layer: 132 B per token and layer for a 128-wide key.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    index_heads: int = Field(ge=1, le=MAX_WIDTH, description="Indexer query heads (index_n_heads).")
    index_head_dim: int = Field(
        ge=1, le=MAX_WIDTH, description="Width of the indexer's key (index_head_dim).")
    top_k: int = Field(
        ge=1, le=MAX_CONTEXT, description="Tokens each query attends to (index_topk).")


class SpeculativeSpec(Numbers):
    """Speculative-decoding heads: multi-token-prediction (MTP/NextN) layers shipped with the
    checkpoint, or a separate EAGLE draft. Engines load them only when speculative decoding
    is switched on; they share the model's embedding and output head."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["mtp", "eagle"] = "mtp"
    layers: int = Field(default=1, ge=1, le=16,
                        description="Decoder layers of the heads (each keeps a KV cache).")
    params: float | None = Field(
        default=None, gt=0, le=1e13,
        description="Parameters the engine loads for the heads (embedding and head excluded); "
                    "default for MTP: one layer like the model's last plus its 2h x h "
                    "projection and norms.")
    source: str = Field(default="", description="Where the draft's size was read.")


class ModelSpec(Sourced):
    """A transformer's architecture, enough to count parameters and KV bytes exactly."""

    family: str = Field(default="", description="llama, qwen2, qwen3, mixtral, deepseek_v3, ...")
    layers: int = Field(ge=1, le=1000, description="Transformer layers (L).")
    hidden_size: int = Field(ge=1, le=MAX_WIDTH, description="Model width (h).")
    attention_heads: int = Field(ge=1, le=MAX_WIDTH, description="Query heads (n_h).")
    kv_heads: int = Field(
        ge=1, le=MAX_WIDTH, description="Key/value heads (n_kv); = n_h for MHA, 1 for MQA.")
    head_dim: int | None = Field(
        default=None, ge=1, le=MAX_WIDTH, description="Per-head width (d_h).")
    intermediate_size: int = Field(ge=1, le=MAX_WIDTH, description="MLP width of dense layers (f).")
    vocab_size: int = Field(ge=1, le=100_000_000, description="Vocabulary (V).")
    max_context_tokens: int = Field(
        ge=1, le=MAX_CONTEXT, description="Longest context the model supports.")
    mlp: Literal["gated", "plain"] = Field(
        default="gated", description="gated: SwiGLU/GeGLU (3 matrices); plain: 2 matrices."
    )
    norm: Literal["rms", "layer"] = Field(
        default="rms", description="layer: LayerNorm with bias (2 vectors per norm)."
    )
    norms_per_layer: int = Field(default=2, ge=0, le=6)
    qk_norm: bool = Field(default=False, description="Per-head RMS norm on Q and K (Qwen3).")
    parallel_attention: bool = Field(
        default=False,
        description="Attention and MLP read the same input and their outputs are summed "
                    "before one tensor-parallel all-reduce per layer (Falcon).")
    attention_sinks: bool = Field(
        default=False,
        description="A learned sink logit per head joins every softmax (gpt-oss); engines "
                    "need a sink-capable attention kernel for it.")
    tied_embeddings: bool = False
    attention_bias: Literal["none", "qkv", "all"] = "none"
    mlp_bias: bool = False
    lm_head_bias: bool = False
    sliding_window: int | None = Field(
        default=None, ge=1, le=MAX_CONTEXT,
        description="Window of sliding-window (local) layers [tokens]."
    )
    global_layers: int | None = Field(
        default=None,
        ge=0,
        description="Layers with full attention when sliding_window is set (rest are local).",
    )
    moe: MoeSpec | None = None
    mla: MlaSpec | None = None
    attention_output_gate: bool = Field(
        default=False, description="Query projection also yields a sigmoid output gate "
                                   "(Qwen3-Next, Qwen3.5): twice as wide.")
    linear_attention: LinearAttentionSpec | None = None
    sparse_attention: SparseAttentionSpec | None = None
    speculative: SpeculativeSpec | None = None
    task: Literal["generation", "embedding", "reranking"] = Field(
        default="generation",
        description="generation: a decoder that writes text; embedding or reranking: a model "
                    "without output head that only reads (prefill), used by the RAG step.")
    encoder: bool = Field(default=False,
                          description="Bidirectional attention (BERT, XLM-RoBERTa encoders).")
    position_embeddings: int = Field(
        default=0, ge=0, le=10_000_000,
        description="Rows of a learned absolute position table (BERT); 0 with rotary positions.")
    token_types: int = Field(default=0, ge=0, le=1000,
                             description="Rows of the token-type table (BERT type_vocab_size).")
    pooler: bool = Field(default=False, description="BERT pooler: one h x h layer with bias.")
    classifier_labels: int = Field(
        default=0, ge=0, le=100_000,
        description="Sequence-classification head (rerankers): h x h dense, h x labels out.")
    embedding_dim: int | None = Field(
        default=None, ge=8, le=65_536,
        description="Width of the vectors an embedding model returns (default hidden_size).")
    native_precision: str = Field(default="bf16", description="Format the weights ship in.")
    native_quantised: Literal["all-matrices", "experts-only"] = Field(
        default="all-matrices",
        description="Matrices the shipped low-bit format covers; experts-only keeps attention "
                    "and dense MLPs in 16 bit (gpt-oss in MXFP4).")
    published_params: float | None = Field(
        default=None, gt=0, le=1e15, description="Parameter count the publisher states (check)."
    )
    published_active_params: float | None = Field(default=None, gt=0, le=1e15)
    license: str = ""

    @property
    def head_dim_value(self) -> int:
        """d_h: explicit, else h / n_h."""
        return self.head_dim or self.hidden_size // self.attention_heads

    @property
    def moe_layers(self) -> int:
        """Layers whose MLP is a mixture of experts: all but ``moe.dense_layers`` (0 for a
        dense model)."""
        return 0 if self.moe is None else self.layers - self.moe.dense_layers

    @property
    def attention_layers(self) -> int:
        """Layers with softmax attention (and a KV cache): all but the linear-attention ones."""
        linear = self.linear_attention.layers if self.linear_attention else 0
        return self.layers - linear

    @property
    def generates(self) -> bool:
        """Whether the model writes text (embedding and reranking models only read)."""
        return self.task == "generation"

    @property
    def vector_dim(self) -> int:
        """Width of an embedding model's vectors: ``embedding_dim``, else hidden_size."""
        return self.embedding_dim or self.hidden_size

    @model_validator(mode="after")
    def _consistent(self) -> ModelSpec:
        if self.mla is None and self.attention_heads % self.kv_heads:
            raise RuleError(msg("attention_heads ({heads}) must be a multiple of kv_heads ({kv})",
                                heads=self.attention_heads, kv=self.kv_heads))
        if self.global_layers is not None and self.global_layers > self.layers:
            raise RuleError(msg("global_layers ({value}) cannot exceed layers ({layers})",
                                value=self.global_layers, layers=self.layers))
        if self.moe is not None and self.moe.dense_layers > self.layers:
            raise RuleError(msg("moe.dense_layers cannot exceed layers"))
        self._check_hybrid()
        return self

    def _check_hybrid(self) -> None:
        linear = self.linear_attention
        if linear is not None and linear.layers >= self.layers:
            raise RuleError(msg("linear_attention.layers ({linear}) must be fewer than layers "
                                "({layers}); at least one layer attends fully",
                                linear=linear.layers, layers=self.layers))
        if linear is not None and self.sliding_window is not None:
            raise RuleError(msg("linear_attention and sliding_window cannot be combined"))
        if self.sparse_attention is not None and self.mla is None:
            raise RuleError(msg("sparse_attention (DeepSeek Sparse Attention) needs mla"))
        if self.encoder and self.task == "generation":
            raise RuleError(msg("an encoder (encoder = true) cannot generate text; set task to "
                                "embedding or reranking"))


class PrecisionSpec(Sourced):
    """A number format for weights or the KV cache."""

    bits: float = Field(gt=0, le=32, description="Stored bits per element, scales included.")
    compute: ComputeClass = Field(description="Tensor-core arithmetic the matmuls run in.")
    activations: ComputeClass | None = Field(
        default=None,
        description=("Arithmetic of the activations the weights are multiplied with, where "
                     "the engines' kernels keep them wider than the weights (MXFP4: MXFP8 on "
                     "Blackwell); the matmuls run at the slower of the two rates. None: as "
                     "compute."))
    kv_allowed: bool = Field(default=False, description="Usable as a KV-cache format.")
    keeps_16bit: bool = Field(
        default=True,
        description="Embedding, output head, norms and router stay in 16 bit in this format.",
    )
    quality: Literal["reference", "near-lossless", "small-loss", "noticeable-loss"] = "reference"
    block_size: int | None = Field(
        default=None, ge=1, le=4096,
        description="Elements sharing one scale in a block format (MXFP4 32, NVFP4 16).")
    scale_bits: float | None = Field(
        default=None, gt=0, le=32, description="Bits of one block scale (E8M0 8, FP8 8).")

    @property
    def element_bits(self) -> float:
        """Bits of one element without its share of the block scale [bit]."""
        if self.block_size and self.scale_bits:
            return self.bits - self.scale_bits / self.block_size
        return self.bits

    @property
    def bytes_per_element(self) -> float:
        """Average stored bytes per element, scale overhead included [B]."""
        return self.bits / 8


class EfficiencyFactors(Numbers):
    """Calibrated fractions of the hardware roofline an engine achieves (all optional).

    Missing values fall back to the engine's defaults and then to the generic profile.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    eta_mem: float | None = Field(default=None, gt=0, le=1, description="Weights, share of BW.")
    eta_kv: float | None = Field(default=None, gt=0, le=1, description="KV reads, share of BW.")
    eta_decode: float | None = Field(default=None, gt=0, le=1, description="Decode compute.")
    eta_prefill: float | None = Field(default=None, gt=0, le=1, description="Prefill compute.")
    step_overhead_s: float | None = Field(default=None, ge=0, description="Per decode step [s].")
    sequence_overhead_s: float | None = Field(
        default=None, ge=0, description="Per sequence of the batch and decode step [s].")
    layer_overhead_s: float | None = Field(default=None, ge=0, description="Per layer/step [s].")
    fixed_latency_s: float | None = Field(default=None, ge=0, description="Added to TTFT [s].")
    comm_latency_s: float | None = Field(default=None, ge=0, description="Per collective [s].")
    comm_efficiency: float | None = Field(default=None, gt=0, le=1, description="Link share.")

    def merged(self, fallback: EfficiencyFactors) -> EfficiencyFactors:
        """These factors with the gaps filled from ``fallback``."""
        mine = self.model_dump(exclude_none=True)
        return EfficiencyFactors(**{**fallback.model_dump(exclude_none=True), **mine})


class MoeWeightLayout(Numbers):
    """How an engine stores a block format's expert weights on some GPU families.

    vLLM's MXFP4 MoE kernels pad the expert matrices (Marlin: intermediate to a multiple of
    128, hidden to 256; FlashInfer on Blackwell: both to 256), and its Triton path on Hopper
    keeps the checkpoint's block scales beside the swizzled copy it computes with.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    precision: str = Field(min_length=1, description="Weight format id (mxfp4).")
    families: list[GpuFamily] = Field(min_length=1, description="GPU families this applies to.")
    hidden_multiple: int = Field(default=1, ge=1, le=4096,
                                 description="Hidden size padded to a multiple of this.")
    intermediate_multiple: int = Field(default=1, ge=1, le=4096,
                                       description="Expert width padded to a multiple of this.")
    scale_copies: int = Field(default=1, ge=1, le=4, description="Copies of the block scales.")
    bias_bytes: float = Field(default=2, gt=0, le=8, description="Bytes per expert bias value.")
    source: str = Field(min_length=3, description="Where the layout was read (code, commit).")


class WeightOnlyMoeKernel(Numbers):
    """The grouped GEMM an engine runs a 4-bit weight format's experts with on some GPU
    families, when the GPU has no tensor cores for the format (a weight-only kernel).

    It pads each touched expert's tokens to its block of rows and below that is bound by
    reading the packed weights, so ``rows`` is the grouped GEMM's half-efficiency point
    (``inference.grouped_gemm_share``): vLLM's Marlin MoE picks 8-64 rows by tokens per
    expert, triton_kernels' matmul_ogs at least 64.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    precisions: list[str] = Field(min_length=1, description="Weight format ids (mxfp4, ...).")
    families: list[GpuFamily] = Field(min_length=1, description="GPU families it runs on.")
    rows: float = Field(gt=0, le=4096, description="Rows per expert it pads to [tokens].")
    rate_share: float = Field(
        default=1.0, gt=0, le=1,
        description="Rate of its expert GEMMs over a dense 16-bit GEMM's at the same rows [-].")
    kernel: str = Field(min_length=3, description="The kernel's name.")
    source: str = Field(min_length=3, description="Where the block size was read (code, commit).")


class AttentionKernel(Numbers):
    """The prompt-attention kernel an engine falls back to on some GPU families for the
    models its default backend cannot run (``sinks_only``: models with learned attention
    sinks, gpt-oss).

    vLLM's backends on Ampere and Ada (FlashAttention 2, FlashInfer) take no sink term, so
    its selector picks the Triton unified attention there: each program multiplies
    ``query_rows`` query rows (BLOCK_M: BLOCK_Q positions times the GQA group) with 32-token
    K/V tiles it reads from the paged cache, so a prompt's attention does 2 x ``query_rows``
    FLOP per K/V element it streams (16 FLOP per byte of a 16-bit cache) and runs at that
    intensity times the GPU's sustained memory bandwidth when that is below the tensor
    cores' rate (``Replica.prefill_attention_rate``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    families: list[GpuFamily] = Field(min_length=1, description="GPU families it runs on.")
    kind: Literal["triton_unified"] = Field(
        description="triton_unified: vLLM's Triton unified attention (paged K/V tiles).")
    sinks_only: bool = Field(
        default=True, description="Chosen only for models with attention sinks.")
    query_rows: int = Field(ge=1, le=1024,
                            description="Query rows per program against one K/V tile "
                                        "(BLOCK_M) [rows].")
    kernel: str = Field(min_length=3, description="The kernel's name.")
    source: str = Field(min_length=3, description="Where the kernel and its tiles were read.")


class BlockFp8Kernel(Numbers):
    """The GEMMs an engine release runs block-scaled FP8 weights with on some GPU families
    (DeepSeek-V3's format: FP8 E4M3 weights with one scale per 128x128 block, activations
    quantised on the fly with one scale per token and 128 channels).

    Each 128-deep slice of the reduction is rescaled by its two scales before it is added, so
    the kernel cannot leave the accumulation to the tensor cores as a per-tensor FP8 GEMM
    does; the Triton kernels of early 2025 (vLLM's and SGLang's ``w8a8_block_fp8_matmul`` and
    their block-quantised ``fused_moe``) reach about a third of a per-tensor FP8 GEMM's rate
    on Hopper. ``gemm_share`` is that ratio [-]: the weight matrix multiplications run at it
    times the FP8 rate the profile's efficiencies are fitted to (``Replica.gemm_share``).
    ``releases`` are the engine's release lines it applies to
    (``calibration.engine_version_class``: ``V0``, ``0.4``); a sizing names no release and
    gets the current one, which no entry with releases covers.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    families: list[GpuFamily] = Field(min_length=1, description="GPU families it runs on.")
    releases: list[str] = Field(min_length=1, description="Engine release lines it ran in.")
    gemm_share: float = Field(gt=0, le=1, description="Rate over a per-tensor FP8 GEMM's [-].")
    kernel: str = Field(min_length=3, description="The kernels' names.")
    source: str = Field(min_length=3, description="Where the kernels and rates were read.")


class HostLoop(Numbers):
    """Where an engine release does its per-request work of a step: scheduling the running
    requests, preparing their inputs, sampling, checking stop criteria and handing each one's
    token back.

    ``per_request``: the executor loops over every running request on the CPU in Python
    (vLLM, SGLang, TensorRT-LLM's PyTorch-backend PyExecutor), so a step costs
    ``sequence_overhead_s`` per running request; False for an executor in C++ (TensorRT-LLM's
    C++ batch manager over TensorRT engines, llama.cpp) or one that steps a static batch as
    one tensor (optimum-habana's ``generate``), whose per-request cost is taken as none. The
    work adds to the GPU's step (``inference.decode_step``): TensorRT-LLM's and SGLang's loops
    overlap it with the GPU's (their ``loop`` says so), which is not modelled (METHOD.md,
    Step 4, "Host work per step"). ``releases``: the release lines it describes
    (``calibration.engine_version_class``); an entry without releases is the current release's
    and every release no other entry names.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    releases: list[str] = Field(default_factory=list, description="Release lines (none: the "
                                                                  "current one).")
    per_request: bool = Field(description="Per-request work each step in a Python loop.")
    loop: str = Field(min_length=3, description="The executor loop, in a few words.")
    source: str = Field(min_length=3, description="Where the loop's structure was read.")


#: An engine whose profile describes no host loop: per-request work each step, the
#: conservative default (the generic profile).
PYTHON_HOST_LOOP = HostLoop(per_request=True, loop="per-request work each step (default)",
                            source="no profile entry: the conservative default")


class UnsupportedFormat(Numbers):
    """A weight format an engine has no kernel for on some GPU families (``kind``
    ``no_kernel``), or serves there only through a path no profile models (``unmodelled``).

    TensorRT-LLM's MXFP4 MoE with 16-bit activations (WFP4A16) is built for SM90 only: on an
    A100 or an L40S the server stops at start-up. SGLang 0.5.x runs MXFP4 MoE experts on an
    A100 through a fallback whose published runs stall (7-17x below vLLM on the same GPU):
    no figure of ours would hold. Step 3 does not propose such a configuration, a scenario
    that names one is refused, and a calibration case that measured one is skipped with the
    reason (it is not fitted, and no figure is claimed for it).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    precision: str = Field(min_length=1, description="Weight format id (mxfp4).")
    families: list[GpuFamily] = Field(min_length=1, description="GPU families it fails on.")
    moe_only: bool = Field(
        default=True, description="Only a mixture-of-experts model's expert kernels lack it.")
    kind: Literal["no_kernel", "unmodelled"] = Field(
        default="no_kernel",
        description="no_kernel: the engine stops; unmodelled: it runs through a path no "
                    "profile models.")
    kernel: str = Field(min_length=3, description="The missing or unmodelled kernel, in a few "
                                                  "words.")
    source: str = Field(min_length=3, description="Where the limit was read (code, commit).")


class EngineProfile(Sourced):
    """A serving engine's defaults and its calibrated efficiency factors."""

    memory_fraction: float = Field(gt=0, le=1, description="Share of memory the engine uses.")
    memory_fraction_of: Literal["total", "free_after_weights"] = Field(
        default="total",
        description="total: vLLM gpu_memory_utilization; free_after_weights: TensorRT-LLM.",
    )
    max_batch_size: int = Field(ge=1, description="Most sequences in one batch (max_num_seqs).")
    max_batched_tokens: int = Field(ge=1, description="Token budget of one scheduler step.")
    kv_block_tokens: int = Field(ge=1, description="Paged-KV block size [tokens].")
    reserves_full_sequence: bool = Field(
        default=True, description="Admission reserves KV for prompt + all output tokens."
    )
    runtime_base_gb: float = Field(ge=0, description="CUDA context, libraries, graphs per GPU.")
    comm_buffers_gb: float = Field(ge=0, description="NCCL buffers per GPU when t >= 2.")
    calibrated: bool = Field(description="Whether factors were fitted to measurements.")
    band_low: float = Field(gt=0, le=1, description="Low multiplier on expected performance.")
    band_high: float = Field(ge=1, description="High multiplier on expected performance.")
    factors: EfficiencyFactors
    family_factors: dict[str, EfficiencyFactors] = Field(default_factory=dict)
    calibrated_families: list[str] = Field(
        default_factory=list,
        description="GPU families with calibration cases of this engine whose factors are "
                    "the engine-wide fit (no family table of their own); a family in "
                    "family_factors counts as calibrated too.")
    moe_weight_layouts: list[MoeWeightLayout] = Field(
        default_factory=list, description="Padding and copies of block-format expert weights.")
    weight_only_moe_kernels: list[WeightOnlyMoeKernel] = Field(
        default_factory=list,
        description="Grouped GEMMs of 4-bit expert weights on GPUs without tensor cores for them.")
    attention_kernels: list[AttentionKernel] = Field(
        default_factory=list,
        description="Prompt-attention kernels the engine falls back to on some GPU families.")
    block_fp8_kernels: list[BlockFp8Kernel] = Field(
        default_factory=list,
        description="GEMMs of block-scaled FP8 weights in some releases on some GPU families.")
    unsupported_formats: list[UnsupportedFormat] = Field(
        default_factory=list,
        description="Weight formats the engine has no kernel for on some GPU families.")
    host_loops: list[HostLoop] = Field(
        default_factory=list,
        description="Where each release does its per-request work of a step.")
    gpu_vendors: list[Vendor] = Field(
        default_factory=list,
        description="The GPU makers the engine runs on (empty: any); gpu_vendors_source says "
                    "where that is read.")
    gpu_vendors_source: str = Field(default="", description="Where gpu_vendors is read.")

    def runs_on(self, vendor: str) -> bool:
        """Whether the engine runs on GPUs made by ``vendor`` [-]."""
        return not self.gpu_vendors or vendor in self.gpu_vendors

    def weight_only_moe_kernel(self, precision: str, family: str) -> WeightOnlyMoeKernel | None:
        """The weight-only MoE kernel the engine runs ``precision`` with on ``family`` GPUs, if
        its profile names one."""
        return next((k for k in self.weight_only_moe_kernels
                     if precision in k.precisions and family in k.families), None)

    def attention_kernel(self, family: str, sinks: bool) -> AttentionKernel | None:
        """The prompt-attention kernel the engine runs on ``family`` GPUs for a model with
        (``sinks``) or without attention sinks, if its profile names one (None: its default
        backend, at the tensor cores' rate)."""
        return next((k for k in self.attention_kernels
                     if family in k.families and (sinks or not k.sinks_only)), None)

    def block_fp8_kernel(self, family: str, release: str) -> BlockFp8Kernel | None:
        """The kernels the engine's ``release`` ran block-scaled FP8 weights with on
        ``family`` GPUs, if its profile names them ("" for the current release: none)."""
        return next((k for k in self.block_fp8_kernels
                     if family in k.families and release in k.releases), None)

    def host_loop(self, release: str) -> HostLoop:
        """The host loop of the engine's ``release`` ("" for the current one): the entry that
        names it, else the entry without releases, else :data:`PYTHON_HOST_LOOP`."""
        named = next((h for h in self.host_loops if release in h.releases), None)
        current = next((h for h in self.host_loops if not h.releases), PYTHON_HOST_LOOP)
        return named or current

    def unsupported(self, precision: str, family: str, moe: bool) -> UnsupportedFormat | None:
        """The engine's missing kernel for ``precision`` weights on ``family`` GPUs (``moe``:
        the model is a mixture of experts), or None when it runs them."""
        return next((u for u in self.unsupported_formats
                     if u.precision == precision and family in u.families
                     and (moe or not u.moe_only)), None)

    def moe_layout(self, precision: str, family: str) -> MoeWeightLayout | None:
        """The expert-weight layout for a weight format on a GPU family, if the engine has one."""
        return next((layout for layout in self.moe_weight_layouts
                     if layout.precision == precision and family in layout.families), None)

    def calibrated_on(self, family: str) -> bool:
        """Whether this engine's factors were fitted to measurements on ``family`` GPUs."""
        return self.calibrated and (family in self.family_factors
                                    or family in self.calibrated_families)

    def factors_for(self, family: str) -> EfficiencyFactors:
        """Factors for a GPU family, falling back to this engine's defaults."""
        specific = self.family_factors.get(family)
        return specific.merged(self.factors) if specific else self.factors


class SwitchSpec(Priced, Sourced):
    """A network switch (fabric, front-end, storage or management)."""

    vendor: str
    roles: list[Literal["compute", "frontend", "storage", "management", "oob"]] = Field(
        min_length=1, description="Networks it is used for.")
    ports: int = Field(ge=4, le=1024, description="Ports at port_gbps (after breakout).")
    port_gbps: float = Field(gt=0, description="Speed per port [Gb/s].")
    fabric: Literal["infiniband", "ethernet"] = "ethernet"
    rack_units: int = Field(ge=1, le=10)
    max_power_w: float = Field(gt=0, description="Maximum power [W].")


class StorageTier(Sourced):
    """A storage performance class (NVIDIA's good/better/best per node)."""

    read_gb_s: float = Field(gt=0, description="Single-node read [GB/s].")
    write_gb_s: float = Field(gt=0, description="Single-node write [GB/s].")


class CpuSpec(Priced, Sourced):
    """A server CPU, per socket, for bandwidth-bound inference on CPUs.

    Memory bandwidth = channels x MT/s x bytes per channel transfer (8 B for a 64-bit DDR5
    channel); ``memory_bandwidth_bytes_per_s`` derives it, so the catalog only records what the
    datasheet states.
    """

    vendor: Literal["amd", "intel", "arm", "other"]
    family: str = Field(default="", description="Microarchitecture or code name.")
    cores: int = Field(ge=1, le=1024, description="Cores per socket.")
    base_ghz: float = Field(gt=0, le=10, description="Base clock [GHz].")
    all_core_ghz: float | None = Field(
        default=None, gt=0, le=10, description="All-core boost clock [GHz]; base if unknown.")
    memory_channels: int = Field(ge=1, le=32, description="Memory channels per socket.")
    memory_mt_s: float = Field(gt=0, le=20_000, description="Memory transfer rate [MT/s].")
    bytes_per_channel: float = Field(
        default=8, gt=0, le=64, description="Bytes per transfer and channel (64-bit DDR5: 8).")
    sockets: int = Field(default=2, ge=1, le=8, description="Sockets in the usual server.")
    tdp_w: float = Field(gt=0, description="Thermal design power per socket [W].")
    avx512: bool = False
    amx: bool = Field(default=False, description="Intel Advanced Matrix Extensions (BF16/INT8).")
    bf16_flops_per_cycle: float = Field(
        gt=0, description="Dense BF16 FLOPs per core and cycle on the widest matrix unit.")
    memory_bandwidth_gb_s: float | None = Field(
        default=None, gt=0,
        description="Peak memory bandwidth per socket [GB/s] (derived: channels x MT/s x bytes).")

    @model_validator(mode="after")
    def _bandwidth_consistent(self) -> CpuSpec:
        stated = self.memory_bandwidth_gb_s
        computed = self.memory_channels * self.memory_mt_s * self.bytes_per_channel / 1e3
        if stated is not None and abs(stated - computed) > 0.01 * computed:
            raise ValueError(
                f"memory_bandwidth_gb_s ({stated:g}) differs from memory_channels x "
                f"memory_mt_s x bytes_per_channel ({computed:g} GB/s)")
        return self

    @property
    def memory_bandwidth_bytes_per_s(self) -> float:
        """Peak memory bandwidth of one socket: channels x MT/s x bytes per channel [B/s]."""
        return self.memory_channels * self.memory_mt_s * 1e6 * self.bytes_per_channel

    @property
    def bf16_flops(self) -> float:
        """Peak dense BF16 of one socket: cores x all-core clock x FLOPs/cycle [FLOP/s]."""
        return self.cores * (self.all_core_ghz or self.base_ghz) * 1e9 * self.bf16_flops_per_cycle


class CatalogProblem(BaseModel):
    """An entry that could not be loaded: where it is and what is wrong."""

    model_config = ConfigDict(frozen=True)

    file: str
    entry: str
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file} [{self.entry}]" + (f" {self.field}" if self.field else "")
        return f"{where}: {self.message}"


class MeasurementFile(Numbers):
    """A result file a site profile was fitted to: its name, its SHA-256 and the tool."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=300)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    tool: str = Field(default="", max_length=80)


class SiteProfile(Sourced):
    """Factors measured on site for one GPU and serving engine (a site profile).

    ``decode_scale`` multiplies the engine profile's decode-side efficiencies and divides its
    decode-side latencies; ``prefill_scale`` does the same on the prefill side (METHOD.md,
    "Site factors"). Sizings on the same GPU and engine use it and are marked
    site-calibrated, with ``band_low`` to ``band_high`` as their range. Written by
    ``aisizer measurements fit --save-profile`` or the Validation step into the user catalog.
    """

    gpu: str = Field(min_length=1, description="GPU id it was measured on.")
    engine: str = Field(min_length=1, description="Serving engine id.")
    engine_version: str = Field(min_length=1, max_length=80,
                                description="Engine version measured (as the operator gave it).")
    decode_scale: float = Field(gt=0.05, le=20, description="Decode-side factor [-].")
    prefill_scale: float = Field(gt=0.05, le=20, description="Prefill-side factor [-].")
    decode_fitted: bool = True
    prefill_fitted: bool = True
    band_low: float = Field(gt=0, le=1, description="Low multiplier on expected speed.")
    band_high: float = Field(ge=1, le=5, description="High multiplier on expected speed.")
    model: str = Field(default="", description="Model measured (catalog id or name).")
    points: int = Field(ge=1, description="Measured figures the fit used.")
    median_error: float = Field(ge=0, description="Median |measured / fitted - 1| [-].")
    measurement_files: list[MeasurementFile] = Field(min_length=1)
    operator_note: str = Field(default="", max_length=2000)
    fitted_for: str = Field(default="", max_length=200, description="Scenario it came from.")
    engines_version: str = Field(default="", description="engines.toml version fitted against.")
    tool_version: str = Field(default="", description="AI Sizer version that fitted it.")

    @model_validator(mode="after")
    def _band_brackets_one(self) -> SiteProfile:
        if self.band_low > 1 or self.band_high < 1:
            raise ValueError("band_low must be at most 1 and band_high at least 1")
        return self


KINDS = ("gpus", "servers", "models", "precisions", "engines", "storage", "switches", "cpus",
         "site_profiles")
#: Kinds the built-in catalogs may leave empty (written by the site, not shipped).
SITE_KINDS = ("site_profiles",)


class CvResidual(BaseModel):
    """One calibration case's cross-validated predictions, as
    resources/calibration/cross_validation.json holds it (``make cross-validation``).

    ``regime`` names the case's engine, GPU family, model kind, weight class and metric group;
    ``left_out[d]`` is the prediction of the fit that saw no case of the case's level in the
    dimension ``d``; ``measured``, ``fitted`` and the predictions are in the case's unit.
    """

    model_config = ConfigDict(frozen=True)

    case_id: str
    metric: str
    regime: dict[str, str]
    measured: float = Field(gt=0)
    fitted: float = Field(gt=0)
    left_out: dict[str, float]


class Catalog(BaseModel):
    """Everything the engine reads from catalogs, keyed by id."""

    model_config = ConfigDict(frozen=True)

    gpus: dict[str, GpuSpec] = Field(default_factory=dict)
    servers: dict[str, ServerSpec] = Field(default_factory=dict)
    models: dict[str, ModelSpec] = Field(default_factory=dict)
    precisions: dict[str, PrecisionSpec] = Field(default_factory=dict)
    engines: dict[str, EngineProfile] = Field(default_factory=dict)
    storage: dict[str, StorageTier] = Field(default_factory=dict)
    switches: dict[str, SwitchSpec] = Field(default_factory=dict)
    cpus: dict[str, CpuSpec] = Field(default_factory=dict)
    site_profiles: dict[str, SiteProfile] = Field(default_factory=dict)
    defaults: dict[str, float] = Field(default_factory=dict)
    default_sources: dict[str, str] = Field(default_factory=dict)
    versions: dict[str, str] = Field(default_factory=dict, description="Version per file.")
    problems: list[CatalogProblem] = Field(default_factory=list)
    cv_residuals: list[CvResidual] = Field(
        default_factory=list, description="Cross-validated residuals of the calibration cases "
                                          "(the expected ranges are drawn from them).")

    def entry(self, kind: str, entry_id: str):
        """The entry ``entry_id`` of ``kind``; a KeyError lists the valid ids."""
        table = getattr(self, kind)
        try:
            return table[entry_id]
        except KeyError:
            valid = ", ".join(sorted(table)) or "(none)"
            raise KeyError(f"unknown {kind[:-1]} id '{entry_id}'; known: {valid}") from None

    def gpu(self, gpu_id: str) -> GpuSpec:
        return self.entry("gpus", gpu_id)

    def model(self, model_id: str) -> ModelSpec:
        return self.entry("models", model_id)

    def precision(self, precision_id: str) -> PrecisionSpec:
        return self.entry("precisions", precision_id)

    def engine(self, engine_id: str) -> EngineProfile:
        return self.entry("engines", engine_id)

    def cpu(self, cpu_id: str) -> CpuSpec:
        return self.entry("cpus", cpu_id)

    def site_profile_for(self, gpu_id: str, engine_id: str,
                         wanted: str | None = None) -> SiteProfile | None:
        """The site profile a sizing on ``gpu_id`` under ``engine_id`` uses.

        ``wanted`` None: the newest profile for that GPU and engine (by ``as_of``, then id);
        ``"none"``: no profile; an id: that profile when it is for this GPU and engine
        (a named profile does not apply to other GPUs a Step 3 search looks at).
        """
        if wanted == "none":
            return None
        if wanted is not None:
            named = self.site_profiles.get(wanted)
            matches = named is not None and named.gpu == gpu_id and named.engine == engine_id
            return named if matches else None
        found = [p for p in self.site_profiles.values()
                 if p.gpu == gpu_id and p.engine == engine_id]
        return max(found, key=lambda p: (p.as_of, p.id)) if found else None

    def default(self, name: str) -> float:
        """A named default from defaults.toml."""
        try:
            return self.defaults[name]
        except KeyError:
            raise KeyError(f"no default named '{name}' in the catalog") from None
