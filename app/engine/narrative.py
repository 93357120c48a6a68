"""The sentences a result carries, as translatable messages (app.i18n).

Each function turns numbers into :class:`Message` objects; ``Message.text(lang)`` renders
them in English or German with numbers formatted for the language. Sizes are in GB
(1e9 B) or GiB (2^30 B), always labelled.
"""

from __future__ import annotations

from app.domain.result import MemoryResult, PerformanceResult
from app.i18n import Message, msg

GB = 1e9
GIB = 2**30


def texts(messages: list[Message]) -> list[str]:
    """The English sentences of ``messages``."""
    return [m.text() for m in messages]


def memory_messages(m: MemoryResult, weights_format: str, kv_format: str,
                    gpus: int) -> list[Message]:
    """Why the memory is what it is, in words a customer reads."""
    out = []
    if m.params_active < m.params_total * 0.99:
        out.append(msg("The model has {total:.2f} billion parameters, {active:.1f} billion of "
                       "them active per token.", total=m.params_total / 1e9,
                       active=m.params_active / 1e9))
    else:
        out.append(msg("The model has {total:.2f} billion parameters.",
                       total=m.params_total / 1e9))
    out += [
        msg("In {fmt} the weights take {weights:.1f} GB ({per_gpu:.1f} GB on each of {gpus} "
            "GPUs).", fmt=weights_format, weights=m.weights_bytes / GB,
            per_gpu=m.weights_bytes_per_gpu / GB, gpus=gpus),
        msg("Each token of context needs {kib:.0f} KiB of KV cache in {fmt}; one sequence at "
            "{context:,} tokens needs {seq:.2f} GiB.", kib=m.kv_bytes_per_token / 1024,
            fmt=kv_format, context=m.peak_context_tokens, seq=m.kv_bytes_per_sequence / GIB),
        msg("{users} sequences at peak context need {kv:.1f} GB of KV cache ({avg:.1f} GB at "
            "the average context).", users=m.concurrency_sized, kv=m.kv_cache_bytes / GB,
            avg=m.kv_cache_bytes_average / GB),
        msg("One GPU must hold {need:.1f} GB (weights, KV cache and {runtime:.1f} GB runtime); "
            "the engine may use {usable:.1f} GB of its {memory:.1f} GB.",
            need=m.per_gpu_bytes / GB, runtime=m.runtime_bytes_per_gpu / GB,
            usable=m.gpu_usable_bytes / GB, memory=m.gpu_memory_bytes / GB),
    ]
    if m.fits:
        out.append(msg("It fits: up to {n} sequences at peak context.",
                       n=m.max_concurrent_sequences))
    elif not m.weights_fit:
        out.append(msg("It does not fit: the weights and runtime alone exceed the usable "
                       "memory."))
    else:
        out.append(msg("It does not fit: only {n} of {users} sequences fit at peak context.",
                       n=m.max_concurrent_sequences, users=m.concurrency_sized))
    out.append(msg("The rule of thumb 'parameters x 2 bytes' gives {gb:.1f} GB ({gib:.1f} GiB) "
                   "for the whole model; it ignores the KV cache, which grows with users and "
                   "context, and the runtime overhead.", gb=m.naive_weights_bytes / GB,
                   gib=m.naive_weights_bytes / GIB))
    return out


def naive_message(bandwidth_gb_s: float, model_gb: float, naive: float) -> Message:
    return msg("Naive figure: {bw:,.0f} GB/s / {size:.1f} GB = {naive:.1f} tokens/s. It assumes "
               "one GPU at full bandwidth reading only the weights; it ignores the KV cache "
               "every user adds, the efficiency real kernels reach, tensor-parallel "
               "communication and the other users sharing each step.",
               bw=bandwidth_gb_s, size=model_gb, naive=naive)


def performance_messages(p: PerformanceResult, engine_name: str) -> list[Message]:
    at, bd = p.at_concurrency, p.decode_breakdown
    out = [] if p.targets else [msg("Batch job: per-user targets do not apply; Step 5 checks "
                                    "the completion window.")]
    out += [
        msg("One user alone: first token after {ttft:.2f} s, then {speed:.1f} tokens/s.",
            ttft=p.single_user.ttft_s, speed=p.single_user.tokens_per_s_per_user),
        msg("At {users:.0f} concurrent users: {speed:.1f} tokens/s each, first token after "
            "{ttft:.2f} s, {total:,.0f} output tokens/s in all (decode batch {batch:.0f}).",
            users=at.concurrency, speed=at.tokens_per_s_per_user, ttft=at.ttft_s,
            total=at.output_tokens_per_s, batch=at.batch),
        msg("Each decode step takes {itl:.1f} ms: weights {w:.1f} ms, KV cache {kv:.1f} ms, "
            "compute {c:.1f} ms, other users' prompts {pf:.1f} ms, communication {comm:.1f} ms, "
            "overhead {o:.1f} ms ({bound}-bound).", itl=at.itl_s * 1e3,
            w=bd.weights_read_s * 1e3, kv=bd.kv_read_s * 1e3, c=bd.compute_s * 1e3,
            pf=bd.prefill_share_s * 1e3, comm=bd.communication_s * 1e3,
            o=bd.overhead_s * 1e3, bound=bd.bound),
        msg("At saturation a replica serves {total:,.0f} output tokens/s with {users:.0f} "
            "users.", total=p.saturation.output_tokens_per_s, users=p.saturation.concurrency),
        msg("Expected range: x{low:.2f} to x{high:.2f} of these figures (calibration residuals "
            "of the {engine} profile).", low=p.band.low, high=p.band.high, engine=engine_name),
        msg("{n} users per replica meet both targets with room for every one of them at the "
            "maximum context.", n=p.slo_capacity_per_replica),
    ]
    return out


def scale_messages(load: int, redundancy: str, replicas: int, nodes: int, server: str,
                   tier: str, read_gb_s: float, cold_s: float,
                   hours: float | None) -> list[Message]:
    out = [
        msg("{load} replicas carry the load; with {redundancy} redundancy {replicas} replicas "
            "run on {nodes} x {server}.", load=load, redundancy=redundancy, replicas=replicas,
            nodes=nodes, server=server),
        msg("A node loads its weights from '{tier}' storage ({read:g} GB/s read) and serves "
            "after about {cold:.0f} s.", tier=tier, read=read_gb_s, cold=cold_s),
    ]
    if hours is not None:
        out.append(msg("The batch volume takes {hours:.1f} h on {load} replicas at saturation "
                       "throughput.", hours=hours, load=load))
    return out


def failure_message(nodes: int, left: int, replicas: int, load: int) -> Message:
    """What still serves when one node fails."""
    if nodes <= 1:
        return msg("A single node: when it fails, nothing serves until it is repaired.")
    if left >= load:
        return msg("With one node down, {left} of {replicas} replicas still serve the full "
                   "load ({load} needed).", left=left, replicas=replicas, load=load)
    return msg("With one node down, {left} of {replicas} replicas serve about {share:.0%} of "
               "the peak load; the rest queue.", left=left, replicas=replicas,
               share=min(left / max(load, 1), 1.0))
