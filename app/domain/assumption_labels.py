"""Readable names of the assumptions, and their sources, in the reader's language.

``Assumption.name`` stays the id the result JSON and the scenario's ``factor_overrides`` use
(``vllm.eta_mem``, ``h100-sxm.memory``, ``training_mfu``). The Assumptions page and the
report's assumptions table show :func:`label` instead: a readable name by the id's last part,
with the product the id's prefix names (``Assumption.subject``: GPU, server, engine or format
name) in brackets. The labels are English templates translated like every other text
(``app/i18n/locale/de/LC_MESSAGES/aisizer.po``). One place for the window and the report: no
Qt here.
"""

from __future__ import annotations

import re

from app.i18n import Message, msg, tr

#: Labels by the last part of ``Assumption.name`` (after the last '.').
ASSUMPTION_LABELS: dict[str, Message] = {
    # the serving engine's efficiency factors (prefix: engine id)
    "eta_mem": msg("Memory bandwidth efficiency, weights"),
    "eta_kv": msg("Memory bandwidth efficiency, KV cache"),
    "eta_decode": msg("Compute efficiency, decode"),
    "eta_prefill": msg("Compute efficiency, prefill"),
    "step_overhead_s": msg("Overhead per decode step"),
    "sequence_overhead_s": msg("Overhead per running request and decode step"),
    "layer_overhead_s": msg("Overhead per layer and step"),
    "fixed_latency_s": msg("Fixed latency per request"),
    "comm_latency_s": msg("Latency per all-reduce"),
    "comm_efficiency": msg("Interconnect efficiency"),
    # the serving engine's settings
    "memory_fraction": msg("Share of GPU memory the engine uses"),
    "batch_limit": msg("Batch limit (max_num_seqs)"),
    "max_batched_tokens": msg("Tokens per scheduler step"),
    "kv_block_tokens": msg("KV cache block size"),
    "runtime_base": msg("Runtime memory per GPU"),
    "cuda_graphs": msg("CUDA graph memory per GPU"),
    # hardware figures (prefix: GPU, server or format id)
    "memory": msg("GPU memory"),
    "memory_bandwidth": msg("GPU memory bandwidth"),
    "scale_up": msg("Scale-up bandwidth per GPU"),
    "scale_out_per_gpu": msg("Scale-out bandwidth per GPU"),
    "storage_write_per_node": msg("Storage write bandwidth per node"),
    "bits": msg("Bits per weight"),
    # targets
    "target_ttft_s": msg("TTFT target"),
    "target_tokens_per_s_per_user": msg("Tokens/s per user target"),
    "plan_at": msg("Plan at"),
    "price_list_usd_per_unit": msg("Exchange rate of the entered prices"),
    # site: racks, power, cooling, feeds, energy, cost
    "rack_limit_air_w": msg("Rack power limit, air cooling"),
    "rack_limit_rdhx_w": msg("Rack power limit, rear-door heat exchanger"),
    "rack_limit_dlc_w": msg("Rack power limit, direct liquid cooling"),
    "pue_air": msg("PUE, air cooling"),
    "pue_rdhx": msg("PUE, rear-door heat exchanger"),
    "pue_dlc": msg("PUE, direct liquid cooling"),
    "dlc_air_share": msg("Share of the heat removed by air (direct liquid cooling)"),
    "air_delta_t_f": msg("Air temperature rise"),
    "liquid_delta_t_k": msg("Coolant temperature rise"),
    "feed_voltage_v": msg("Feed voltage"),
    "power_factor": msg("Power factor"),
    "pdu_rating_a": msg("PDU rating"),
    "continuous_load_share": msg("Continuous load, share of the PDU rating"),
    "average_power_fraction": msg("Average load"),
    "electricity_usd_per_kwh": msg("Electricity price"),
    "colocation_usd_per_kw_month": msg("Colocation"),
    "grid_kg_co2e_per_kwh": msg("Grid CO2e factor"),
    "tco_years": msg("Period of the total cost of ownership"),
    "storage_usd_per_tb": msg("Storage price per usable TB"),
    "fabric_optics_usd_per_gpu": msg("Fabric optics and cables per GPU"),
    "active_share_busiest_hour": msg("Share of named users active at the busiest hour"),
    "requests_per_active_user_per_minute": msg("Requests per active user per minute"),
    "derived_concurrent_users": msg("Requests in flight at the busiest hour (derived)"),
    "rack_usd": msg("Price of a rack"),
    "pdu_usd": msg("Price of a rack PDU"),
    "dlc_cooling_usd_per_rack": msg("Direct liquid cooling, price per rack"),
    # storage around the serving replicas
    "model_versions_kept": msg("Model versions kept"),
    "repository_copies": msg("Copies in the model repository"),
    "log_bytes_per_request": msg("Log size per request"),
    "log_retention_days": msg("Log retention"),
    "metrics_bytes_per_gpu_day": msg("Monitoring metrics per GPU and day"),
    # training
    "training_mfu": msg("Model FLOPs utilisation (MFU), training"),
    "training_memory_fraction": msg("Share of GPU memory usable for training"),
    "training_global_batch_tokens_pretraining": msg("Global batch, pre-training"),
    "training_global_batch_tokens_fine_tuning": msg("Global batch, fine-tuning"),
    "pretraining_tokens_per_param": msg("Pre-training tokens per parameter"),
    "fine_tuning_tokens_total": msg("Fine-tuning tokens"),
    "tokens_total": msg("Training tokens"),
    "lora_rank": msg("LoRA rank"),
    "qlora_bits_per_param": msg("QLoRA bits per base weight"),
    "checkpoint_bytes_per_param": msg("Checkpoint size per parameter"),
    "checkpoints_retained": msg("Checkpoints retained"),
    "dataset_bytes_per_token": msg("Data set size per token"),
    "gpu_mtbf_hours": msg("Mean time between failures of one GPU"),
    "collective_bus_efficiency": msg("Bus efficiency of collectives"),
    "full_recompute_time_factor": msg("Time factor of full activation recomputation"),
    "storage_su_nodes": msg("Nodes per storage scalable unit"),
    "storage_su_write_gb_s_good": msg("Storage write of one scalable unit, tier 'good'"),
    "storage_su_write_gb_s_better": msg("Storage write of one scalable unit, tier 'better'"),
    "storage_su_write_gb_s_best": msg("Storage write of one scalable unit, tier 'best'"),
    "pipeline_virtual_stages": msg("Pipeline chunks per GPU (interleaved schedule)"),
    # retrieval (RAG)
    "rag_pages_per_document": msg("Pages per document"),
    "rag_tokens_per_page": msg("Tokens per page"),
    "rag_chunk_tokens": msg("Chunk size"),
    "rag_overlap_tokens": msg("Chunk overlap"),
    "rag_top_k": msg("Chunks retrieved per query (top-k)"),
    "rag.embedding_model": msg("Embedding model"),
    "embedding_params": msg("Parameters of the embedding model"),
    "embedding_dim": msg("Embedding dimensions"),
    "embedding_mfu": msg("Compute efficiency, embedding"),
    "vector_bytes_per_dim": msg("Bytes per vector dimension"),
    "hnsw_m": msg("HNSW links per vector (M)"),
    "hnsw_overhead": msg("HNSW overhead"),
    "ivfpq_code_bytes": msg("IVF-PQ code size per vector"),
    "retrieval_search_s": msg("Vector search time per query"),
    # CPU comparison
    "cpu_bandwidth_efficiency": msg("Memory bandwidth efficiency, CPU"),
    "cpu_compute_efficiency": msg("Compute efficiency, CPU"),
    "cpu_host_power_w": msg("Power of a CPU server without its CPUs"),
}
#: ``<gpu>.peak_<precision>``: the dense peak of the format the configuration computes in.
PEAK = msg("Peak compute, {precision}")
#: A catalog citation with its date, as the catalog loader writes it (the citation itself stays
#: as written; the words around it are translated).
AS_OF = msg("{source} (as of {date})")
AS_OF_PATTERN = re.compile(r"(?P<source>.*) \(as of (?P<date>[^()]*)\)", re.DOTALL)


def label(name: str, subject: str | None = None, lang: str = "en") -> str:
    """The readable name of assumption ``name`` in ``lang``: 'GPU memory (NVIDIA H100 SXM5
    80GB)' for ``h100-sxm.memory`` with that subject (the id prefix without one); ``name``
    itself when there is no label for it."""
    prefix, _, key = name.rpartition(".")
    if key.startswith("peak_"):
        text = tr(PEAK.template, lang, precision=key.removeprefix("peak_").upper())
    elif key in ASSUMPTION_LABELS:
        text = ASSUMPTION_LABELS[key].text(lang)
    else:
        return name
    about = subject or prefix
    return f"{text} ({about})" if about else text


def source_text(source: str, message: Message | None = None, lang: str = "en") -> str:
    """An assumption's source in ``lang``: the engine's sentence (``message``) rendered, or
    the catalog citation as written with its '(as of date)' translated."""
    if message is not None:
        return message.text(lang)
    dated = AS_OF_PATTERN.fullmatch(source) if lang != "en" else None
    if dated is None:
        return source
    return tr(AS_OF.template, lang, source=dated["source"], date=dated["date"])
