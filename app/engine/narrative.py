"""The sentences a result carries, as translatable messages (app.i18n).

Each function turns numbers into :class:`Message` objects; ``Message.text(lang)`` renders
them in English or German with numbers formatted for the language. Sizes are in GB
(1e9 B) or GiB (2^30 B), always labelled.
"""

from __future__ import annotations

from app.domain.result import (
    Band,
    CpuResult,
    MemoryResult,
    PerformanceResult,
    RagResult,
    TrainingResult,
)
from app.i18n import Message, msg, plural

GB = 1e9
GIB = 2**30


def state_messages(m: MemoryResult) -> list[Message]:
    """The fixed state of linear-attention layers, when the model has them."""
    if m.state_bytes_per_sequence <= 0:
        return []
    return [msg("Its linear-attention layers keep a fixed state of {state:,.1f} MB per sequence "
                "instead of a KV cache, whatever the context; it is part of the figures that "
                "follow.", state=m.state_bytes_per_sequence / 1e6)]


def memory_messages(m: MemoryResult, weights_format: str, kv_format: str,
                    gpus: int) -> list[Message]:
    """Why the memory is what it is, in words a customer reads."""
    out = []
    if m.params_active < m.params_total * 0.99:
        out.append(msg("The model has {total:,.2f} billion parameters, {active:,.1f} billion of "
                       "them active per token.", total=m.params_total / 1e9,
                       active=m.params_active / 1e9))
    else:
        out.append(msg("The model has {total:,.2f} billion parameters.",
                       total=m.params_total / 1e9))
    out += [
        plural(gpus, msg("In {fmt} the weights take {weights:,.1f} GB, all on one GPU."),
               msg("In {fmt} the weights take {weights:,.1f} GB ({per_gpu:,.1f} GB on each of "
                   "{gpus:,} GPUs)."), fmt=weights_format, weights=m.weights_bytes / GB,
               per_gpu=m.weights_bytes_per_gpu / GB, gpus=gpus),
        msg("Each token of context needs {kib:,.0f} KiB of KV cache in {fmt}; one sequence at "
            "{context:,} tokens needs {seq:,.2f} GiB.", kib=m.kv_bytes_per_token / 1024,
            fmt=kv_format, context=m.peak_context_tokens, seq=m.kv_bytes_per_sequence / GIB),
        *state_messages(m),
        plural(m.concurrency_sized,
               msg("One sequence at peak context needs {kv:,.1f} GB of KV cache ({avg:,.1f} GB "
                   "at the average context)."),
               msg("{users:,} sequences at peak context need {kv:,.1f} GB of KV cache "
                   "({avg:,.1f} GB at the average context)."), users=m.concurrency_sized,
               kv=m.kv_cache_bytes / GB, avg=m.kv_cache_bytes_average / GB),
        msg("One GPU must hold {need:,.1f} GB (weights, KV cache and {runtime:,.1f} GB runtime); "
            "the engine may use {usable:,.1f} GB of its {memory:,.1f} GB.",
            need=m.per_gpu_bytes / GB, runtime=m.runtime_bytes_per_gpu / GB,
            usable=m.gpu_usable_bytes / GB, memory=m.gpu_memory_bytes / GB),
    ]
    if m.fits:
        out.append(plural(m.max_concurrent_sequences, msg("It fits: one sequence at peak context."),
                          msg("It fits: up to {n:,} sequences at peak context."),
                          n=m.max_concurrent_sequences))
    elif not m.weights_fit:
        out.append(msg("It does not fit: the weights and runtime alone exceed the usable "
                       "memory."))
    else:
        out.append(plural(m.max_concurrent_sequences,
                          msg("It does not fit: only one of {users:,} sequences fits at peak "
                              "context."),
                          msg("It does not fit: only {n:,} of {users:,} sequences fit at peak "
                              "context."), n=m.max_concurrent_sequences, users=m.concurrency_sized))
    out.append(msg("The rule of thumb 'parameters x 2 bytes' gives {gb:,.1f} GB ({gib:,.1f} GiB) "
                   "for the whole model; it ignores the KV cache, which grows with users and "
                   "context, and the runtime overhead.", gb=m.naive_weights_bytes / GB,
                   gib=m.naive_weights_bytes / GIB))
    return out


def naive_message(bandwidth_gb_s: float, active_gb: float, naive: float, active: float,
                  total: float) -> Message:
    """The guide's rule, memory bandwidth / bytes of the active weights, and what it leaves
    out (``active`` and ``total`` parameters [-]; a mixture of experts reads only its active
    ones)."""
    if active < total * 0.99:
        return msg("Naive figure, the guide's rule on the active parameters (memory bandwidth / "
                   "the {active:,.1f} billion parameters one token uses of {total:,.1f} "
                   "billion): {bw:,.0f} GB/s / {size:,.1f} GB = {naive:,.1f} tokens/s. It "
                   "assumes one GPU at full bandwidth reading only those weights; it ignores the "
                   "KV cache every user adds, the efficiency real kernels reach, tensor-parallel "
                   "communication and the other users sharing each step.",
                   active=active / 1e9, total=total / 1e9, bw=bandwidth_gb_s, size=active_gb,
                   naive=naive)
    return msg("Naive figure, the guide's rule (memory bandwidth / bytes of the active "
               "parameters): {bw:,.0f} GB/s / {size:,.1f} GB = {naive:,.1f} tokens/s. It assumes "
               "one GPU at full bandwidth reading only the weights; it ignores the KV cache "
               "every user adds, the efficiency real kernels reach, tensor-parallel "
               "communication and the other users sharing each step.",
               bw=bandwidth_gb_s, size=active_gb, naive=naive)


def range_message(band: Band, engine_name: str, site_profile: str | None) -> Message:
    """Where the expected range comes from and how many cases back it (Step 4, the
    report)."""
    if site_profile is not None:
        return msg("Site-calibrated: the figures use the factors measured on site (site profile "
                   "'{profile}'); expected range x{low:,.2f} to x{high:,.2f} (the fit's "
                   "residuals).", profile=site_profile, low=band.low, high=band.high)
    if band.cases is None:
        return msg("Expected range: x{low:,.2f} to x{high:,.2f} of these figures (calibration "
                   "residuals of the {engine} profile).", low=band.low, high=band.high,
                   engine=engine_name)
    low, high = band.ttft_range(1.0)
    return msg("Expected range: x{low:,.2f} to x{high:,.2f} of the speeds and throughputs, from "
               "the cross-validated errors of {cases:,} calibration cases with {basis} "
               "({exact:,} of them of this very engine, GPU family, model kind and weight "
               "class); the time to first token x{ttft_low:,.2f} to x{ttft_high:,.2f} of its "
               "figure ({ttft_cases:,} cases).", low=band.low, high=band.high,
               cases=band.cases, basis=band.basis, exact=band.regime_cases, ttft_low=low,
               ttft_high=high, ttft_cases=band.ttft_cases)


def performance_messages(p: PerformanceResult, engine_name: str) -> list[Message]:
    at, bd = p.at_concurrency, p.decode_breakdown
    out = [] if p.targets else [msg("Batch job: per-user targets do not apply; Step 5 checks "
                                    "the completion window.")]
    out += [
        msg("One user alone: first token after {ttft:,.2f} s, then {speed:,.1f} tokens/s.",
            ttft=p.single_user.ttft_s, speed=p.single_user.tokens_per_s_per_user),
        plural(at.concurrency,
               msg("At one concurrent user: {speed:,.1f} tokens/s, first token after {ttft:,.2f} "
                   "s, {total:,.0f} output tokens/s in all (decode batch {batch:,.0f})."),
               msg("At {users:,.0f} concurrent users: {speed:,.1f} tokens/s each, first token "
                   "after {ttft:,.2f} s, {total:,.0f} output tokens/s in all (decode batch "
                   "{batch:,.0f})."), users=at.concurrency, speed=at.tokens_per_s_per_user,
               ttft=at.ttft_s, total=at.output_tokens_per_s, batch=at.batch),
        msg("Each decode step takes {itl:,.1f} ms: weights {w:,.1f} ms, KV cache {kv:,.1f} ms, "
            "compute {c:,.1f} ms, other users' prompts {pf:,.1f} ms, partial overlap {ov:,.1f} "
            "ms, communication {comm:,.1f} ms, overhead {o:,.1f} ms ({bound}-bound).",
            itl=at.itl_s * 1e3, ov=bd.overlap_s * 1e3,
            w=bd.weights_read_s * 1e3, kv=bd.kv_read_s * 1e3, c=bd.compute_s * 1e3,
            pf=bd.prefill_share_s * 1e3, comm=bd.communication_s * 1e3,
            o=bd.overhead_s * 1e3, bound=bd.bound),
        plural(p.saturation.concurrency,
               msg("At saturation a replica serves {total:,.0f} output tokens/s with one user."),
               msg("At saturation a replica serves {total:,.0f} output tokens/s with "
                   "{users:,.0f} users."), total=p.saturation.output_tokens_per_s,
               users=p.saturation.concurrency),
        range_message(p.band, engine_name, p.site_profile),
        plural(p.slo_capacity_per_replica,
               msg("One user per replica meets both targets with room at the maximum context."),
               msg("{n:,} users per replica meet both targets with room for every one of them "
                   "at the maximum context."), n=p.slo_capacity_per_replica),
    ]
    return out


def scale_messages(load: int, redundancy: str, replicas: int, nodes: int, server: str,
                   tier: str, read_gb_s: float, cold_s: float,
                   hours: float | None) -> list[Message]:
    served = (plural(load, msg("One replica carries the load, without redundancy, on "
                               "{nodes:,} x {server}."),
                     msg("{load:,} replicas carry the load, without redundancy, on {nodes:,} x "
                         "{server}."), load=load, nodes=nodes, server=server)
              if redundancy == "none" else
              plural(load, msg("One replica carries the load; with {redundancy} redundancy "
                               "{replicas:,} replicas run on {nodes:,} x {server}."),
                     msg("{load:,} replicas carry the load; with {redundancy} redundancy "
                         "{replicas:,} replicas run on {nodes:,} x {server}."),
                     load=load, redundancy=redundancy.upper(), replicas=replicas, nodes=nodes,
                     server=server))
    out = [
        served,
        msg("A node loads its weights from '{tier}' storage ({read:g} GB/s read) and serves "
            "after about {cold:,.0f} s.", tier=tier, read=read_gb_s, cold=cold_s),
    ]
    if hours is not None:
        out.append(plural(load, msg("The batch volume takes {hours:,.1f} h on one replica at "
                                    "saturation throughput."),
                          msg("The batch volume takes {hours:,.1f} h on {load:,} replicas at "
                              "saturation throughput."), hours=hours, load=load))
    return out


def planning_message(plan_at: str, planned: tuple[int, int], other: tuple[int, int],
                     gpu: str, low_end_misses: bool, unmet: bool = False,
                     holds: int = 0) -> Message:
    """Which end of the expected range the replicas are sized by, and what the other needs.

    ``planned`` and ``other`` are (replicas, GPUs) of the plan and of the other way of
    planning; ``gpu`` the GPU's name; ``unmet`` when even the expected figures meet the
    targets for no user: the load is then sized by the sequences one replica holds at peak
    context (``holds``, :func:`app.engine.scale.replicas_for_load`), or, when not even one
    fits, by nothing.
    """
    (n, gpus), (others, other_gpus) = planned, other
    params = {"n": n, "gpus": gpus, "gpu": gpu, "other": others, "other_gpus": other_gpus,
              "holds": holds}
    if unmet and holds < 1:
        return msg("Not even one request at peak context fits one replica's memory, so no "
                   "number of replicas carries the load; the verdict says what would fit.")
    if unmet:
        return plural(n, msg(
            "Even at the expected figures no user meets both targets on this configuration, "
            "and more replicas cannot change that: the plan's {n:,} replica ({gpus:,} x "
            "{gpu}) is sized so that every request in flight fits in memory at peak context "
            "({holds:,} per replica at most), and Step 4 lists what would meet the "
            "targets."), msg(
            "Even at the expected figures no user meets both targets on this configuration, "
            "and more replicas cannot change that: the plan's {n:,} replicas ({gpus:,} x "
            "{gpu}) are sized so that every request in flight fits in memory at peak context "
            "({holds:,} per replica at most), and Step 4 lists what would meet the "
            "targets."), **params)
    if low_end_misses:
        return plural(n, msg(
            "Planned conservatively, but at the low end of the expected range even one user "
            "per replica misses a target, which more replicas cannot fix: {n:,} replica "
            "({gpus:,} x {gpu}) is sized at the expected figures."), msg(
            "Planned conservatively, but at the low end of the expected range even one user "
            "per replica misses a target, which more replicas cannot fix: {n:,} replicas "
            "({gpus:,} x {gpu}) are sized at the expected figures."), **params)
    if plan_at == "conservative" and planned == other:
        return plural(n, msg(
            "Planned conservatively: {n:,} replica ({gpus:,} x {gpu}), so that the low end of "
            "the expected range still meets the targets; the expected figures need as many."),
            msg("Planned conservatively: {n:,} replicas ({gpus:,} x {gpu}), so that the low end "
                "of the expected range still meets the targets; the expected figures need as "
                "many."), **params)
    if plan_at == "conservative":
        return plural(n, msg(
            "Planned conservatively: {n:,} replica ({gpus:,} x {gpu}), so that the low end of "
            "the expected range still meets the targets; at the expected figures {other:,} "
            "({other_gpus:,} x {gpu}) would do."), msg(
            "Planned conservatively: {n:,} replicas ({gpus:,} x {gpu}), so that the low end of "
            "the expected range still meets the targets; at the expected figures {other:,} "
            "({other_gpus:,} x {gpu}) would do."), **params)
    if planned == other:
        return plural(n, msg(
            "Planned at the expected figures: {n:,} replica ({gpus:,} x {gpu}); the low end of "
            "the expected range needs as many."), msg(
            "Planned at the expected figures: {n:,} replicas ({gpus:,} x {gpu}); the low end "
            "of the expected range needs as many."), **params)
    return plural(n, msg(
        "Planned at the expected figures: {n:,} replica ({gpus:,} x {gpu}); for the low end of "
        "the expected range to meet the targets too, {other:,} ({other_gpus:,} x {gpu}) would "
        "be needed."), msg(
        "Planned at the expected figures: {n:,} replicas ({gpus:,} x {gpu}); for the low end "
        "of the expected range to meet the targets too, {other:,} ({other_gpus:,} x {gpu}) "
        "would be needed."), **params)


#: Below this margin a plan sits at a boundary (a refit may add a replica) [-].
NARROW_MARGIN = 0.05


def margin_message(margin: float, users: int, plan_at: str) -> Message:
    """How close the plan is to one more replica: the share by which its runs may be slower
    than the figures it is sized by (``plan_at``'s end of the range) at ``users`` per
    replica and still meet both targets (:func:`app.engine.scale.plan_margin`)."""
    params = {"margin": margin, "users": users}
    if plan_at == "conservative":
        if margin < NARROW_MARGIN:
            return plural(users, msg(
                "At {users:,} user per replica the low end of the range meets the targets "
                "with only {margin:.0%} to spare: the plan sits at a boundary, and a range "
                "whose low end is a little lower would need one more replica."), msg(
                "At {users:,} users per replica the low end of the range meets the targets "
                "with only {margin:.0%} to spare: the plan sits at a boundary, and a range "
                "whose low end is a little lower would need one more replica."), **params)
        return plural(users, msg(
            "At {users:,} user per replica even runs {margin:.0%} slower than the low end of "
            "the range meet both targets."), msg(
            "At {users:,} users per replica even runs {margin:.0%} slower than the low end "
            "of the range meet both targets."), **params)
    if margin < NARROW_MARGIN:
        return plural(users, msg(
            "At {users:,} user per replica the expected figures meet the targets with only "
            "{margin:.0%} to spare: runs a little slower than expected need one more "
            "replica."), msg(
            "At {users:,} users per replica the expected figures meet the targets with only "
            "{margin:.0%} to spare: runs a little slower than expected need one more "
            "replica."), **params)
    return plural(users, msg(
        "At {users:,} user per replica runs {margin:.0%} slower than expected still meet both "
        "targets."), msg(
        "At {users:,} users per replica runs {margin:.0%} slower than expected still meet "
        "both targets."), **params)


def replica_range(low: int, high: int) -> Message:
    """The autoscaling range: '1 to 3 replicas'; a range of one count is that count
    ('1 replica')."""
    if low < high:
        return msg("{low} to {high} replicas", low=low, high=high)
    return plural(low, msg("{n} replica"), msg("{n} replicas"), n=low)


# What still serves when one unit fails (a node or a rack): nothing when it is the only one,
# else the replicas left against the load.
ALONE = {
    "node": "A single node: when it fails, nothing serves until it is repaired.",
    "rack": "All nodes are in one rack: when it fails, nothing serves until it is repaired.",
}
FULL_LOAD = {  # (one replica left, several left)
    "node": ("With one node down, one of {replicas:,} replicas still serves the full load "
             "({load:,} needed).",
             "With one node down, {left:,} of {replicas:,} replicas still serve the full load "
             "({load:,} needed)."),
    "rack": ("With one rack down, one of {replicas:,} replicas still serves the full load "
             "({load:,} needed).",
             "With one rack down, {left:,} of {replicas:,} replicas still serve the full load "
             "({load:,} needed)."),
}
PART_LOAD = {  # (the only replica, spanning several nodes, is lost; one left; several left)
    "node": ("With one node down, the only replica stops: nothing serves until the node is "
             "repaired.",
             "With one node down, one of {replicas:,} replicas serves about {share:.0%} of the "
             "peak load; the rest queue.",
             "With one node down, {left:,} of {replicas:,} replicas serve about {share:.0%} of "
             "the peak load; the rest queue."),
    "rack": ("With one rack down, the only replica stops: nothing serves until the rack is "
             "repaired.",
             "With one rack down, one of {replicas:,} replicas serves about {share:.0%} of the "
             "peak load; the rest queue.",
             "With one rack down, {left:,} of {replicas:,} replicas serve about {share:.0%} of "
             "the peak load; the rest queue."),
}


def loss_message(unit: str, units: int, left: int, replicas: int, load: int) -> Message:
    """What still serves when one ``unit`` ("node" or "rack") of ``units`` fails, leaving
    ``left`` of ``replicas`` replicas for a load that needs ``load``."""
    if units <= 1:
        return msg(ALONE[unit])
    if left >= load:
        one, many = FULL_LOAD[unit]
        return plural(left, msg(one), msg(many), left=left, replicas=replicas, load=load)
    sole, one, many = PART_LOAD[unit]
    return plural(replicas, msg(sole), plural(left, msg(one), msg(many)), left=left,
                  replicas=replicas, share=min(left / max(load, 1), 1.0))


def failure_message(nodes: int, left: int, replicas: int, load: int) -> Message:
    """What still serves when one node fails."""
    return loss_message("node", nodes, left, replicas, load)


def rack_failure_message(racks: int, left: int, replicas: int, load: int) -> Message:
    """What still serves when the rack holding the most replicas fails."""
    return loss_message("rack", racks, left, replicas, load)


def rack_redundancy_message(redundancy: str, survives: bool, racks: int, fullest: int,
                            nodes: int) -> Message | None:
    """Whether the redundancy choice also covers a rack, and what would (None without
    redundancy: the node statement already says that a failure drops users).

    N+1 counts nodes, so it covers a rack only when a rack holds no more replicas than the
    spare ones (typically one node per rack); 2N covers a rack when the nodes are spread
    evenly over two or more racks; one rack's worth of spare nodes covers it too.
    """
    if survives:
        return msg("Replicas are spread across the {racks:,} racks (at most {fullest:,} of the "
                   "{nodes:,} nodes in one), so the load also survives the loss of a whole "
                   "rack.", racks=racks, fullest=fullest, nodes=nodes)
    if redundancy == "2n":
        return msg("2N doubles the nodes, but one rack holds {fullest:,} of the {nodes:,} nodes: "
                   "spread them evenly over two or more racks so that the other half still "
                   "serves the load when a rack fails.",
                   fullest=fullest, nodes=nodes)
    if redundancy == "n+1":
        return msg("N+1 counts nodes: it covers one node down, not a rack of {fullest:,} nodes. "
                   "To survive a rack failure, use 2N with the nodes spread evenly over two "
                   "or more racks, or add one rack's worth of spare nodes ({fullest:,} more).",
                   fullest=fullest)
    return None


# --------------------------------------------------------------------------- training

SECONDS_PER_DAY = 86_400.0
METHOD_NAMES = {"full": "full training", "lora": "LoRA", "qlora": "QLoRA"}
RECOMPUTE_NAMES = {"none": "no activation recomputation",
                   "selective": "selective activation recomputation",
                   "full": "full activation recomputation"}


def training_messages(t: TrainingResult, gpu_name: str, model_name: str) -> list[Message]:
    """Why the training plan is what it is, in words a customer reads."""
    out = []
    if t.method == "full":
        out.append(msg("{method} of {model}: {params:,.2f} billion parameters, each with "
                       "{bpp:g} bytes of model state (16-bit weights and gradients, FP32 master "
                       "copy and {optimizer} states).", method=METHOD_NAMES[t.method],
                       model=model_name, params=t.params_total / 1e9,
                       bpp=t.model_state_bytes_per_param, optimizer=t.optimizer))
    else:
        out.append(msg("{method} of {model}: the {params:,.2f} billion base weights stay frozen "
                       "({fmt}); {adapters:,.1f} million adapter parameters are trained with "
                       "{bpp:g} bytes of state each.", method=METHOD_NAMES[t.method],
                       model=model_name, params=t.params_total / 1e9,
                       fmt="4-bit NF4" if t.method == "qlora" else "BF16",
                       adapters=t.adapter_params / 1e6, bpp=t.model_state_bytes_per_param))
    out.append(plural(t.data_parallel,
                      msg("{gpus:,} x {gpu}: one data-parallel replica of {t:,} (tensor) x {p:,} "
                          "(pipeline) GPUs, ZeRO stage {zero}, {recompute}."),
                      msg("{gpus:,} x {gpu}: {d:,} data-parallel replicas of {t:,} (tensor) x "
                          "{p:,} (pipeline) GPUs, ZeRO stage {zero}, {recompute}."),
                      gpus=t.gpus_total, gpu=gpu_name, d=t.data_parallel, t=t.tensor_parallel,
                      p=t.pipeline_parallel, zero=t.zero_stage,
                      recompute=RECOMPUTE_NAMES[t.activation_recompute]))
    out.append(msg("Each GPU holds {states:,.1f} GB of model state (weights {w:,.1f}, gradients "
                   "{g:,.1f}, optimizer {o:,.1f}) and {act:,.1f} GB of activations: {need:,.1f} GB "
                   "of the {usable:,.1f} GB usable.", states=t.model_state_bytes_per_gpu / GB,
                   w=t.weights_bytes_per_gpu / GB, g=t.gradients_bytes_per_gpu / GB,
                   o=t.optimizer_bytes_per_gpu / GB, act=t.activation_bytes_per_gpu / GB,
                   need=t.per_gpu_bytes / GB, usable=t.gpu_usable_bytes / GB))
    out.append(plural(t.gradient_accumulation_steps,
                      msg("A step trains {tokens:,.0f} tokens ({seqs:,} sequences of {s:,}, one "
                          "micro-batch of {b:,} per replica) in {step:,.2f} s at {mfu:.0%} MFU."),
                      msg("A step trains {tokens:,.0f} tokens ({seqs:,} sequences of {s:,}, {m:,} "
                          "micro-batches of {b:,} per replica) in {step:,.2f} s at {mfu:.0%} "
                          "MFU."), tokens=t.tokens_per_step, seqs=t.global_batch_sequences,
                      s=t.sequence_length, m=t.gradient_accumulation_steps,
                      b=t.micro_batch_size, step=t.step_time_s, mfu=t.mfu))
    out.append(msg("{tokens:.3g} tokens x {fpt:.3g} FLOPs each = {flops:.3g} FLOPs take "
                   "{days:,.1f} days ({hours:,.0f} GPU-hours) at {mfu:.0%} of {peak:,.0f} "
                   "TFLOP/s per GPU.", tokens=t.tokens_total, fpt=t.flops_per_token,
                   flops=t.flops_total, days=t.time_to_train_s / SECONDS_PER_DAY,
                   hours=t.gpu_hours, mfu=t.mfu, peak=t.peak_flops_per_gpu / 1e12))
    if t.communication_hidden:
        out.append(msg("Communication per step: gradient all-reduce {dp:,.2f} s (hidden behind "
                       "the backward pass), tensor-parallel {tp:,.2f} s and pipeline {pp:,.3f} s "
                       "(inside the MFU).", dp=t.dp_communication_s, tp=t.tp_communication_s,
                       pp=t.pp_communication_s))
    else:
        out.append(msg("Communication per step: gradient all-reduce {dp:,.2f} s (partly exposed, "
                       "added to the step), tensor-parallel {tp:,.2f} s and pipeline {pp:,.3f} s "
                       "(inside the MFU).", dp=t.dp_communication_s, tp=t.tp_communication_s,
                       pp=t.pp_communication_s))
    out.append(plural(t.gpus_total,
                      msg("A checkpoint is {size:,.1f} GB and takes {save:,.0f} s to write; with "
                          "a failure every {mtbf:,.1f} h on one GPU the best interval is "
                          "{interval:,.0f} min, costing {share:.1%} of the run: {days:,.1f} days "
                          "in all."),
                      msg("A checkpoint is {size:,.1f} GB and takes {save:,.0f} s to write; with "
                          "a failure every {mtbf:,.1f} h on {gpus:,} GPUs the best interval is "
                          "{interval:,.0f} min, costing {share:.1%} of the run: {days:,.1f} days "
                          "in all."),
                      size=t.checkpoint_bytes / GB, save=t.checkpoint_save_s,
                      mtbf=t.mtbf_cluster_s / 3600, gpus=t.gpus_total,
                      interval=t.checkpoint_interval_s / 60, share=t.checkpoint_overhead_share,
                      days=t.wall_clock_s / SECONDS_PER_DAY))
    out.append(msg("Storage: {n:,} checkpoints ({ckpt:,.1f} TB) and the data set ({data:,.2f} "
                   "TB).", n=t.checkpoints_retained, ckpt=t.checkpoint_storage_bytes / 1e12,
                   data=t.dataset_bytes / 1e12))
    return out


def training_failure_message(t: TrainingResult) -> Message:
    """What a failure does to a training job."""
    return plural(t.gpus_total,
                  msg("A GPU or node failure stops the whole job; it resumes from the last "
                      "checkpoint (every {interval:,.0f} min), losing about {lost:,.0f} min of "
                      "work; on one GPU that happens about every {mtbf:,.1f} h."),
                  msg("A GPU or node failure stops the whole job; it resumes from the last "
                      "checkpoint (every {interval:,.0f} min), losing about {lost:,.0f} min of "
                      "work; at {gpus:,} GPUs that happens about every {mtbf:,.1f} h."),
                  interval=t.checkpoint_interval_s / 60, lost=t.checkpoint_interval_s / 120,
                  gpus=t.gpus_total, mtbf=t.mtbf_cluster_s / 3600)


def training_rack_failure_message(fullest: int, nodes: int) -> Message:
    """What a rack failure does to a training job (it stops, as on any failure)."""
    return plural(nodes,
                  msg("A rack failure takes down the job's only node and stops the job like any "
                      "other failure; it resumes from the last checkpoint once the node is "
                      "repaired or replaced."),
                  msg("A rack failure takes down up to {fullest:,} of the {nodes:,} nodes and "
                      "stops the job like any other failure; it resumes from the last "
                      "checkpoint once they are repaired or replaced."),
                  fullest=fullest, nodes=nodes)


def training_scale_messages(t: TrainingResult, server: str, tier: str,
                            resume_s: float) -> list[Message]:
    return [
        plural(t.gpus_total,
               msg("The training cluster: one GPU on {nodes:,} x {server}; training keeps no "
                   "spare replicas, it restarts from checkpoints."),
               msg("The training cluster: {gpus:,} GPUs on {nodes:,} x {server}; training keeps "
                   "no spare replicas, it restarts from checkpoints."), gpus=t.gpus_total,
               nodes=t.nodes, server=server),
        msg("Resuming reads the checkpoint from '{tier}' storage in about {resume:,.0f} s.",
            tier=tier, resume=resume_s),
    ]


# --------------------------------------------------------------------------- RAG


INDEX_NAMES = {"hnsw": "HNSW", "ivf-pq": "IVF-PQ", "flat": "flat (exact)"}


def embedding_message(g: RagResult) -> Message:
    """What embedding the corpus costs, naming the catalog model when there is one."""
    values = dict(params=g.embedding_params / 1e6, flops=g.embedding_flops,
                  hours=g.indexing_time_s / 3600, gpus=g.embedding_gpus, gpu=g.embedding_gpu)
    if g.embedding_model:
        return msg("{model} ({params:,.0f} million parameters, counted from its architecture "
                   "with the attention over each chunk) needs {flops:.3g} FLOPs: about "
                   "{hours:,.1f} h on {gpus:,} x {gpu}.", model=g.embedding_model_name, **values)
    return msg("An embedding model of {params:,.0f} million parameters needs {flops:.3g} FLOPs: "
               "about {hours:,.1f} h on {gpus:,} x {gpu}.", **values)


def rag_messages(g: RagResult) -> list[Message]:
    """How the corpus becomes an index and what retrieval adds to each request."""
    out = [
        msg("{docs:,} documents of about {tokens:,.0f} tokens in all become {chunks:,.0f} "
            "chunks; embedding them reads {embedded:,.0f} tokens (overlaps twice).",
            docs=g.documents, tokens=g.tokens_corpus, chunks=g.chunks,
            embedded=g.tokens_embedded),
        embedding_message(g),
        msg("The {index} index of {chunks:,.0f} vectors of {dim:,} dimensions takes {mem:,.2f} GB "
            "of memory (raw vectors {raw:,.2f} GB); with the chunk texts {disk:,.2f} GB on disk.",
            index=INDEX_NAMES[g.index], chunks=g.chunks, dim=g.embedding_dim,
            mem=g.index_memory_bytes / GB, raw=g.vectors_bytes / GB,
            disk=g.index_storage_bytes / GB),
        msg("Retrieval adds about {ms:,.0f} ms before the first token: {ttft:,.2f} s instead of "
            "{base:,.2f} s; the prompt carries {added:,} tokens of retrieved context.",
            ms=g.retrieval_latency_s * 1e3, ttft=g.ttft_with_retrieval_s, base=g.ttft_s,
            added=g.added_prompt_tokens),
    ]
    if g.reindex_per_day > 0:
        out.append(msg("Re-embedding {share:.0%} of the corpus each day takes about {hours:,.2f} "
                       "GPU-hours per day.", share=g.reindex_per_day,
                       hours=g.reindex_gpu_hours_per_day))
    return out


# --------------------------------------------------------------------------- CPU


def cpu_messages(c: CpuResult) -> list[Message]:
    return [
        msg("{sockets} x {cpu}: {bw:,.0f} GB/s peak memory bandwidth, about {eff:.0%} of it "
            "usable for reading the {size:,.1f} GB of {fmt} weights.", sockets=c.sockets,
            cpu=c.cpu_name, bw=c.memory_bandwidth_bytes_per_s / GB,
            eff=c.bandwidth_efficiency, size=c.weights_bytes / GB, fmt=c.weights),
        msg("One user alone: first token after {ttft:,.2f} s, then {speed:,.1f} tokens/s "
            "(GPU option: {gpu_speed:,.1f} tokens/s per user at the scenario load).",
            ttft=c.single_user_ttft_s, speed=c.single_user_tokens_per_s,
            gpu_speed=c.gpu_tokens_per_s_per_user),
        plural(c.users,
               msg("At one user the CPU server gives {speed:,.1f} tokens/s and a first token "
                   "after {ttft:,.1f} s; the GPU option {gpu_speed:,.1f} tokens/s and "
                   "{gpu_ttft:,.2f} s."),
               msg("At {users:,.0f} users the CPU server gives {speed:,.1f} tokens/s each and a "
                   "first token after {ttft:,.1f} s; the GPU option {gpu_speed:,.1f} tokens/s "
                   "and {gpu_ttft:,.2f} s."), users=c.users, speed=c.tokens_per_s_per_user,
               ttft=c.ttft_s, gpu_speed=c.gpu_tokens_per_s_per_user, gpu_ttft=c.gpu_ttft_s),
    ]


def cpu_verdict(verdict: str, cpu: str, sockets: int, model: str, fmt: str, estimate,
                gpu_speed: float) -> Message:
    """The verdict in words."""
    if verdict == "cpu-suffices":
        return plural(estimate.users_meeting,
                      msg("Verdict: a CPU server ({sockets} x {cpu}) is enough for {model} in "
                          "{fmt} at this load: one user meets both targets. A GPU is faster "
                          "({gpu:,.0f} against {cpu_speed:,.0f} tokens/s per user) but not "
                          "needed."),
                      msg("Verdict: a CPU server ({sockets} x {cpu}) is enough for {model} in "
                          "{fmt} at this load: {users:,} users meet both targets. A GPU is "
                          "faster ({gpu:,.0f} against {cpu_speed:,.0f} tokens/s per user) but "
                          "not needed."),
                      sockets=sockets, cpu=cpu, model=model, fmt=fmt,
                      users=estimate.users_meeting, gpu=gpu_speed,
                      cpu_speed=estimate.tokens_per_s_per_user)
    if verdict == "cpu-for-light-use":
        return plural(estimate.users_meeting,
                      msg("Verdict: CPUs suit light use only. {sockets} x {cpu} serves one user "
                          "of {model} ({fmt}) within the targets; the scenario's {users:,} users "
                          "need the GPU option."),
                      msg("Verdict: CPUs suit light use only. {sockets} x {cpu} serves up to "
                          "{n:,} users of {model} ({fmt}) within the targets; the scenario's "
                          "{users:,} users need the GPU option."),
                      sockets=sockets, cpu=cpu, n=estimate.users_meeting, model=model, fmt=fmt,
                      users=estimate.users)
    return msg("Verdict: use GPUs. Even one user of {model} ({fmt}) on {sockets} x {cpu} misses "
               "the targets ({speed:,.1f} tokens/s, first token after {ttft:,.1f} s).",
               model=model, fmt=fmt, sockets=sockets, cpu=cpu,
               speed=estimate.single_tokens_per_s, ttft=estimate.single_ttft_s)


# --------------------------------------------------------------------------- the verdict
def serving_does_not_fit(m: MemoryResult) -> Message:
    """Why a serving configuration does not fit its memory, and the fix, in one sentence."""
    if not m.weights_fit or m.max_concurrent_sequences < 1:
        return msg("Does not fit: the weights, the runtime and one sequence at {context:,} "
                   "tokens need more than the {usable:,.1f} GB one GPU may use. Fix: more GPUs "
                   "per replica, a smaller weight format, or let the tool choose (Step 3).",
                   context=m.peak_context_tokens, usable=m.gpu_usable_bytes / GB)
    return plural(
        m.max_concurrent_sequences,
        msg("Does not fit: {users:,} users at {context:,} tokens need {need:,.1f} GB per GPU, "
            "{usable:,.1f} GB usable, and only one fits. Fix: an FP8 KV cache, more GPUs per "
            "replica, or let the tool choose (Step 4 lists what also meets the targets)."),
        msg("Does not fit: {users:,} users at {context:,} tokens need {need:,.1f} GB per GPU, "
            "{usable:,.1f} GB usable, and {n:,} fit. Fix: an FP8 KV cache, more GPUs per "
            "replica, or let the tool choose (Step 4 lists what also meets the targets)."),
        users=m.concurrency_sized, context=m.peak_context_tokens, need=m.per_gpu_bytes / GB,
        usable=m.gpu_usable_bytes / GB, n=m.max_concurrent_sequences)


def serving_verdict(state: str, p: PerformanceResult) -> Message:
    """A serving configuration that fits: the targets at the scenario's load."""
    at = p.at_concurrency
    figures = {"users": at.concurrency, "ttft": at.ttft_s,
               "speed": at.tokens_per_s_per_user,
               "ttft_target": p.targets.get("ttft_s", 0.0),
               "speed_target": p.targets.get("tokens_per_s_per_user", 0.0)}
    if state == "meets targets":
        return plural(at.concurrency, msg(
            "Meets both targets at one user per replica: TTFT {ttft:,.2f} s (target "
            "{ttft_target:g} s), {speed:,.1f} tokens/s per user (target {speed_target:g})."), msg(
            "Meets both targets at {users:,.0f} users per replica: TTFT {ttft:,.2f} s "
            "(target {ttft_target:g} s), {speed:,.1f} tokens/s per user (target "
            "{speed_target:g})."), **figures)
    if state == "misses TTFT":
        return plural(at.concurrency, msg(
            "Misses the TTFT target at one user per replica: {ttft:,.2f} s against "
            "{ttft_target:g} s; Step 4 lists what would meet it."), msg(
            "Misses the TTFT target at {users:,.0f} users per replica: {ttft:,.2f} s "
            "against {ttft_target:g} s; Step 4 lists what would meet it."), **figures)
    if state == "misses tokens/s":
        return plural(at.concurrency, msg(
            "Misses the speed target at one user per replica: {speed:,.1f} tokens/s per user "
            "against {speed_target:g}; Step 4 lists what would meet it."), msg(
            "Misses the speed target at {users:,.0f} users per replica: {speed:,.1f} "
            "tokens/s per user against {speed_target:g}; Step 4 lists what would meet "
            "it."), **figures)
    return plural(at.concurrency, msg(
        "Misses both targets at one user per replica: TTFT {ttft:,.2f} s against "
        "{ttft_target:g} s, {speed:,.1f} tokens/s per user against {speed_target:g}; Step 4 "
        "lists what would meet them."), msg(
        "Misses both targets at {users:,.0f} users per replica: TTFT {ttft:,.2f} s "
        "against {ttft_target:g} s, {speed:,.1f} tokens/s per user against "
        "{speed_target:g}; Step 4 lists what would meet them."), **figures)


def batch_verdict(state: str, m: MemoryResult, hours: float, window: float,
                  replicas: int) -> Message:
    """A batch job: whether it fits, and whether its volume completes within the window."""
    if state == "does not fit":
        return serving_does_not_fit(m)
    if state == "meets the window":
        return plural(replicas,
                      msg("Fits, and the volume completes in {hours:,.1f} h of the {window:g} h "
                          "window on one replica."),
                      msg("Fits, and the volume completes in {hours:,.1f} h of the {window:g} h "
                          "window on {n:,} replicas."), hours=hours, window=window, n=replicas)
    return msg("Misses the window: the volume takes {hours:,.1f} h, the window is {window:g} h; "
               "more replicas or a faster configuration would meet it.", hours=hours,
               window=window)


def training_verdict(state: str, t: TrainingResult) -> Message:
    """A training job: whether it fits, and whether it meets the target time."""
    figures = {"need": t.per_gpu_bytes / GB, "usable": t.gpu_usable_bytes / GB,
               "gpus": t.gpus_total, "days": t.wall_clock_s / 86400,
               "target": t.target_days or 0.0}
    if state == "does not fit":
        return msg("Does not fit: training needs {need:,.1f} GB per GPU, {usable:,.1f} GB "
                   "usable. Fix: more GPUs, a higher ZeRO stage, "
                   "activation recompute, or LoRA/QLoRA.", **figures)
    if state == "misses the target time":
        return plural(t.gpus_total,
                      msg("Fits, but takes {days:,.1f} days on one GPU against the target of "
                          "{target:g} days; more GPUs would shorten it."),
                      msg("Fits, but takes {days:,.1f} days on {gpus:,} GPUs against the target "
                          "of {target:g} days; more GPUs would shorten it."), **figures)
    return plural(t.gpus_total,
                  msg("Fits: {need:,.1f} GB per GPU of {usable:,.1f} GB usable; about "
                      "{days:,.1f} days on one GPU."),
                  msg("Fits: {need:,.1f} GB per GPU of {usable:,.1f} GB usable; about "
                      "{days:,.1f} days on {gpus:,} GPUs."), **figures)
