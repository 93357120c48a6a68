"""Labels and tips of the catalog-entry forms, in English (translated by ``app.ui.text.t``).

Keyed by the form's owner (``gpus``, ``servers``, ``models``, ``models.moe`` ...) and the
field's name: (label, tip) or (label, tip, the config.json key the field is read from);
``COMMON`` holds the fields most entries share. A field without an
entry here (one the schema gains later) is labelled with its name and described by the
schema's own description.
"""

from __future__ import annotations

from pydantic.fields import FieldInfo

COMMON = {
    "name": ("Name", "The name the window and the report show."),
    "source": ("Source", "Where the figures were read: datasheet, page, URL (required)."),
    "as_of": ("As of (YYYY-MM-DD)", "The date the figures were read or last checked."),
    "derived": ("Derived fields", "Fields computed from others rather than read, "
                                  "comma-separated."),
    "notes": ("Notes", "Anything a reader of the report should know about this entry."),
    "vendor": ("Vendor", ""),
    "price_usd": ("Price (USD)", "Indicative price, dated by its source."),
    "price_source": ("Price source", "Where the price was read, with its date."),
    "scale_up": ("GPU-to-GPU link", "The link tensor parallelism uses inside a node."),
}

LABELS: dict[str, dict[str, tuple[str, ...]]] = {
    "gpus": {
        "family": ("Architecture family", "Selects the calibrated efficiency factors."),
        "memory_gb": ("Memory (GB)", "Memory on the card [GB, 10^9 bytes]."),
        "usable_memory_gb": ("Usable memory (GB)", "When the system exposes less than is on "
                                                   "the card."),
        "visible_memory_gib": ("Memory the driver reports (GiB)", "nvidia-smi's total; "
                                                                  "preferred when known."),
        "memory_bandwidth_gb_s": ("Memory bandwidth (GB/s)", "Peak, from the datasheet."),
        "bf16_tflops": ("BF16 / FP16 (TFLOP/s, dense)", "Dense tensor throughput, no 2:4 "
                                                        "sparsity."),
        "fp8_tflops": ("FP8 (TFLOP/s, dense)", "Empty when the GPU has no FP8 tensor cores."),
        "int8_tops": ("INT8 (TOP/s, dense)", ""),
        "fp4_tflops": ("FP4 (TFLOP/s, dense)", "Empty when the GPU has no FP4 tensor cores."),
        "tdp_w": ("Board power (W)", ""),
        "scale_up_gb_s": ("Link bandwidth per direction (GB/s)", "What collectives between "
                                                                 "two GPUs reach."),
        "max_gpus_per_node": ("Largest scale-up domain (GPUs)", "GPUs one NVLink or "
                                                                "Infinity Fabric domain joins."),
        "form_factor": ("Form factor", ""),
    },
    "servers": {
        "gpu_ids": ("GPUs it takes (catalog ids)", "Comma-separated GPU ids of the catalog."),
        "gpu_count": ("GPUs per server", ""),
        "rack_units": ("Height (U)", "48 for a whole rack system."),
        "max_power_w": ("Maximum power (W)", "The system's maximum, GPUs included."),
        "typical_power_w": ("Typical power (W)", ""),
        "cooling": ("Cooling", ""),
        "cluster_nics": ("Scale-out NICs", "One per GPU in HGX systems."),
        "cluster_nic_gbps": ("Speed per scale-out NIC (Gb/s)", ""),
        "storage_nics": ("Storage NICs", ""),
        "local_nvme_tb": ("Local NVMe (TB)", ""),
        "weight_kg": ("Weight (kg)", ""),
        "price_usd": ("Price without GPUs (USD)", "Indicative price of the server, dated by "
                                                  "its source."),
        "price_includes_gpus": ("Price includes the GPUs", ""),
    },
    "models": {
        "family": ("Family", "llama, qwen3, deepseek_v3 ...", "model_type"),
        "layers": ("Layers", "", "num_hidden_layers"),
        "hidden_size": ("Hidden size", "", "hidden_size"),
        "attention_heads": ("Query heads", "", "num_attention_heads"),
        "kv_heads": ("KV heads", "As many as query heads for MHA, 1 for MQA.",
                     "num_key_value_heads"),
        "head_dim": ("Head width", "Empty: hidden size / query heads.", "head_dim"),
        "intermediate_size": ("MLP width", "Width of the dense MLP layers.",
                              "intermediate_size"),
        "vocab_size": ("Vocabulary", "", "vocab_size"),
        "max_context_tokens": ("Context limit (tokens)", "", "max_position_embeddings"),
        "mlp": ("MLP type", "gated: SwiGLU/GeGLU (3 matrices); plain: 2 matrices."),
        "norm": ("Norm", "layer: LayerNorm with bias."),
        "norms_per_layer": ("Norms per layer", ""),
        "qk_norm": ("Norms on queries and keys", "Per-head RMS norms (Qwen3)."),
        "parallel_attention": ("Parallel attention and MLP",
                               "Both read the same input and their outputs are summed before "
                               "one tensor-parallel all-reduce per layer (Falcon)."),
        "attention_sinks": ("Attention sinks", "A learned sink logit per head joins each "
                                               "softmax (gpt-oss)."),
        "tied_embeddings": ("Output head shares the embedding", "", "tie_word_embeddings"),
        "attention_bias": ("Attention biases", ""),
        "mlp_bias": ("MLP biases", ""),
        "lm_head_bias": ("Output head bias", ""),
        "sliding_window": ("Sliding window (tokens)", "Window of the local attention layers."),
        "global_layers": ("Layers with full attention", "When a sliding window is set; the "
                                                        "rest are local."),
        "moe": ("Mixture of experts", "Check when the model routes tokens to experts."),
        "mla": ("Multi-head latent attention", "DeepSeek-V2/V3 style: the compressed latent "
                                               "is cached."),
        "attention_output_gate": ("Gated attention output", "The query projection also "
                                                            "yields an output gate "
                                                            "(Qwen3-Next, Qwen3.5)."),
        "linear_attention": ("Linear-attention layers", "Layers that keep a fixed state per "
                                                        "sequence instead of a KV cache "
                                                        "(Gated DeltaNet, Kimi Delta "
                                                        "Attention)."),
        "sparse_attention": ("Sparse attention (DSA indexer)", "DeepSeek-V3.2: an indexer "
                                                               "picks the tokens each query "
                                                               "reads."),
        "speculative": ("Speculative-decoding heads", "MTP layers or an EAGLE draft, loaded "
                                                      "only when speculative decoding is on."),
        "task": ("Task", "generation writes text; embedding and reranking models only read "
                         "(the RAG step uses them)."),
        "encoder": ("Bidirectional encoder", "BERT, XLM-RoBERTa."),
        "position_embeddings": ("Learned positions", "Rows of the position table (BERT)."),
        "token_types": ("Token types", "BERT's token-type table.", "type_vocab_size"),
        "pooler": ("Pooler", "BERT's pooler layer."),
        "classifier_labels": ("Classifier labels", "Rerankers: the classification head's "
                                                   "outputs."),
        "embedding_dim": ("Vector width", "Dimensions an embedding model returns."),
        "native_precision": ("Format the weights ship in", ""),
        "native_quantised": ("What the shipped format quantises", "experts-only keeps "
                                                                  "attention in 16 bit "
                                                                  "(gpt-oss)."),
        "published_params": ("Published parameters", "The publisher's figure, a check."),
        "published_active_params": ("Published active parameters", ""),
        "license": ("Licence", ""),
    },
    "models.moe": {
        "experts": ("Routed experts", "", "n_routed_experts / num_experts"),
        "experts_per_token": ("Experts per token", "", "num_experts_per_tok"),
        "expert_intermediate_size": ("Expert width", "", "moe_intermediate_size"),
        "shared_experts": ("Shared experts", ""),
        "shared_intermediate_size": ("Shared expert width", "Empty: the expert width."),
        "dense_layers": ("Dense layers", "Layers whose MLP is dense instead of MoE."),
        "router_bias": ("Router bias", ""),
        "shared_expert_gate": ("Gated shared expert", "Qwen MoE: a sigmoid gate scales the "
                                                      "shared expert."),
    },
    "models.mla": {
        "q_lora_rank": ("Query low rank", "Empty: full-rank queries."),
        "kv_lora_rank": ("Latent width", "", "kv_lora_rank"),
        "qk_rope_head_dim": ("RoPE part of a head", ""),
        "qk_nope_head_dim": ("Non-RoPE part of a head", ""),
        "v_head_dim": ("Value width of a head", ""),
    },
    "models.linear_attention": {
        "kind": ("Kind", "gated_deltanet: Qwen3-Next, Qwen3.5; kimi_delta: Kimi Linear."),
        "layers": ("Linear layers", "How many layers attend linearly; the rest attend fully."),
        "key_heads": ("Query/key heads", ""),
        "value_heads": ("Value heads", ""),
        "key_head_dim": ("Key head width", ""),
        "value_head_dim": ("Value head width", ""),
        "conv_kernel": ("Convolution taps", ""),
        "state_precision": ("State format", "", "mamba_ssm_dtype"),
    },
    "models.sparse_attention": {
        "index_heads": ("Indexer heads", "", "index_n_heads"),
        "index_head_dim": ("Indexer key width", "", "index_head_dim"),
        "top_k": ("Tokens each query reads", "", "index_topk"),
    },
    "models.speculative": {
        "kind": ("Kind", ""),
        "layers": ("Layers", "Decoder layers of the heads; each keeps a KV cache."),
        "params": ("Parameters", "Empty for MTP: counted from the architecture."),
        "source": ("Source", ""),
    },
}


def label_and_help(owner: str, name: str, info: FieldInfo) -> tuple[str, str, str]:
    """(label, tip, config.json key) for a field of the form ``owner``; the schema's name
    and description for a field without its own label."""
    found = LABELS.get(owner, {}).get(name) or (COMMON.get(name) if "." not in owner else None)
    if found is not None:
        label, tip, *key = found
        return label, tip, key[0] if key else ""
    return name, info.description or "", ""
