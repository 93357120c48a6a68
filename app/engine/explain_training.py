"""The training result's sections, each with its plain-sentence explanation.

A training or fine-tuning result carries the sizing in its ``training`` section; ``scale``,
``infrastructure`` and ``cost`` describe the training cluster, and ``memory`` and
``performance`` serving the trained model (METHOD.md, "Training and fine-tuning"). The
numbers come from :mod:`app.engine.training`; this module assembles them and their
sentences (:mod:`app.engine.narrative`).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.domain.catalog import ModelSpec, ServerSpec, StorageTier
from app.domain.result import (
    Assumption,
    ChosenConfiguration,
    InfrastructureResult,
    MemoryResult,
    PerformanceResult,
    RackResult,
    ScaleResult,
    StorageLine,
    TrainingCandidate,
    TrainingResult,
    TrainingScalePoint,
)
from app.domain.scenario import Hardware, Scenario, Training
from app.engine import cost as costs
from app.engine import narrative
from app.engine import training as training_engine
from app.engine.assumptions import sourced
from app.engine.configuration import Configuration
from app.engine.explain import catalog_source, inputs_after_defaults, with_rack_fields
from app.engine.resolved import Resolved
from app.engine.scale import nodes_per_compute_rack, replica_packing
from app.i18n import Message, msg, plural

TrainingPlan = training_engine.Plan

GB = 1e9
SECONDS_PER_DAY = 86_400.0


def training_candidate(plan: TrainingPlan, chosen: bool, works: bool,
                       target_s: float | None) -> TrainingCandidate:
    """One row of the training search: the best (or closest) configuration on one GPU."""
    layout = plan.layout
    if chosen and works:
        reason = msg("chosen")
    elif works:
        reason = plural(plan.gpus, msg("works with one GPU ({days:.1f} days); ranked lower"),
                        msg("works with {gpus} GPUs ({days:.1f} days); ranked lower"),
                        gpus=plan.gpus, days=plan.wall_clock_s / SECONDS_PER_DAY)
    elif not plan.fits:
        reason = msg("does not fit: {need:.1f} GB per GPU against {usable:.1f} GB usable "
                     "(closest of the configurations tried)", need=plan.per_gpu_bytes / GB,
                     usable=plan.usable / GB)
    else:
        reason = msg("misses the target: {days:.1f} days against {target:g}",
                     days=plan.wall_clock_s / SECONDS_PER_DAY,
                     target=(target_s or 0) / SECONDS_PER_DAY)
    return TrainingCandidate(
        gpu=plan.gpu.id, gpus=plan.gpus, data_parallel=layout.data_parallel,
        tensor_parallel=layout.tensor_parallel, pipeline_parallel=layout.pipeline_parallel,
        zero_stage=layout.zero_stage, per_gpu_bytes=plan.per_gpu_bytes, fits=plan.fits,
        step_time_s=plan.step_s, time_to_train_s=plan.time_s, reason=reason.text())


def training_result(plan: TrainingPlan, rows: list[TrainingCandidate], chosen_by: str,
                    curve: list[TrainingPlan], target_s: float | None) -> TrainingResult:
    """The training section: memory per GPU by component, times, checkpoints, and why."""
    setup, layout, states = plan.setup, plan.layout, plan.states
    model = setup.model
    write = training_engine.checkpoint_write_rate(plan.checkpoint, plan.save_s)
    approximate = training_engine.activations_approximate(model)
    result = TrainingResult(
        method=setup.method, optimizer=setup.optimizer, chosen_by=chosen_by, gpu=plan.gpu.id,
        gpus_total=plan.gpus, gpus_per_node=plan.node.gpus_per_node, nodes=plan.nodes,
        data_parallel=layout.data_parallel, tensor_parallel=layout.tensor_parallel,
        pipeline_parallel=layout.pipeline_parallel, zero_stage=layout.zero_stage,
        sequence_parallel=plan.sequence_parallel, activation_recompute=layout.recompute,
        micro_batch_size=setup.micro_batch_size, sequence_length=setup.sequence_length,
        gradient_accumulation_steps=plan.micro_batches,
        global_batch_sequences=plan.global_batch_sequences,
        tokens_per_step=plan.tokens_per_step, params_total=setup.counts.total,
        params_trainable=setup.trainable_params, adapter_params=setup.adapter_params,
        model_state_bytes_per_param=training_engine.model_state_bytes_per_param(
            setup.optimizer, setup.fp32_gradients),
        weights_bytes_per_gpu=states.weights, gradients_bytes_per_gpu=states.gradients,
        optimizer_bytes_per_gpu=states.optimizer,
        model_state_bytes_per_gpu=states.total + plan.zero3_buffers,
        activation_bytes_per_layer=plan.activation_per_layer,
        activation_bytes_per_gpu=plan.activations,
        runtime_bytes_per_gpu=plan.gpu.memory_bytes - plan.usable,
        per_gpu_bytes=plan.per_gpu_bytes, gpu_memory_bytes=plan.gpu.memory_bytes,
        gpu_usable_bytes=plan.usable, fits=plan.fits, activations_approximate=approximate,
        flops_per_token=plan.flops_per_token,
        flops_total=plan.flops_per_token * setup.tokens_total, peak_flops_per_gpu=plan.peak_flops,
        mfu=setup.mfu, compute_time_per_step_s=plan.compute_s,
        dp_communication_s=plan.dp_s, tp_communication_s=plan.tp_s,
        pp_communication_s=plan.pp_s, communication_s=plan.dp_s + plan.tp_s + plan.pp_s,
        communication_hidden=plan.dp_exposed_s == 0.0,
        pipeline_bubble_share=plan.bubble_share,
        step_time_s=plan.step_s, steps=plan.steps, tokens_total=setup.tokens_total,
        time_to_train_s=plan.time_s, gpu_hours=plan.time_s * plan.gpus / 3600.0,
        checkpoint_bytes=plan.checkpoint, checkpoint_write_bytes_per_s=write,
        checkpoint_save_s=plan.save_s, mtbf_cluster_s=plan.mtbf_s,
        checkpoint_interval_s=plan.interval_s, checkpoint_overhead_share=plan.overhead,
        wall_clock_s=plan.wall_clock_s, checkpoints_retained=setup.checkpoints_retained,
        checkpoint_storage_bytes=plan.checkpoint * setup.checkpoints_retained,
        dataset_bytes=setup.dataset_bytes,
        storage_bytes=plan.checkpoint * setup.checkpoints_retained + setup.dataset_bytes,
        target_days=target_s / SECONDS_PER_DAY if target_s else None,
        meets_target=(plan.wall_clock_s <= target_s) if target_s else None,
        candidates=rows,
        scaling=[TrainingScalePoint(
            gpus=c.gpus, data_parallel=c.layout.data_parallel,
            tensor_parallel=c.layout.tensor_parallel,
            pipeline_parallel=c.layout.pipeline_parallel, zero_stage=c.layout.zero_stage,
            step_time_s=c.step_s, time_to_train_s=c.time_s, wall_clock_s=c.wall_clock_s)
            for c in curve],
    )
    return result.revised(messages=narrative.training_messages(result, plan.gpu.name,
                                                               model.name))


def training_scale(plan: TrainingPlan, t: TrainingResult, tier: StorageTier,
                   server_name: str) -> ScaleResult:
    """Step 5 for training: the cluster's nodes; a failure stops the job until it resumes
    from the last checkpoint (no spare replicas). ``server_name``: the catalog name of
    ``plan.node.server`` (the sentences name it; ``server`` keeps the id)."""
    gpn = plan.node.gpus_per_node
    per_node, nodes_per_replica = replica_packing(t.tensor_parallel * t.pipeline_parallel, gpn)
    nodes = plan.nodes
    resume = training_engine.resume_s(plan.checkpoint, tier.read_gb_s * GB, nodes)
    failure = narrative.training_failure_message(t)
    messages = narrative.training_scale_messages(t, server_name, tier.name, resume)
    messages.insert(1, failure)
    return ScaleResult(
        redundancy="none", replicas_for_load=t.data_parallel, replicas=t.data_parallel,
        gpus_total=t.gpus_total, server=plan.node.server, server_name=server_name,
        gpus_per_node=gpn,
        replicas_per_node=per_node, nodes_per_replica=nodes_per_replica, nodes=nodes,
        autoscale_min_replicas=t.data_parallel, autoscale_max_replicas=t.data_parallel,
        cold_start_s=resume, storage_tier=tier.id, batch_completion_hours=None,
        failure_message=failure, messages=messages)


def training_site(site: InfrastructureResult, t: TrainingResult,
                  tier: StorageTier) -> InfrastructureResult:
    """The site with storage for checkpoints and the data set instead of serving logs, and
    the storage cost and totals recomputed (no cost per token for a training cluster)."""
    keep = [line for line in site.storage.lines
            if line.purpose not in ("weights loaded at cold start", "request logs")]
    tokens_per_s = training_engine.training_tokens_per_s(t.tokens_per_step, t.step_time_s)
    keep += [
        StorageLine(tier="hot", purpose="training checkpoints (retained copies)",
                    capacity_bytes=t.checkpoint_storage_bytes,
                    read_bytes_per_s=tier.read_gb_s * GB * t.nodes,
                    write_bytes_per_s=t.checkpoint_write_bytes_per_s),
        StorageLine(tier="hot", purpose="training data set", capacity_bytes=t.dataset_bytes,
                    read_bytes_per_s=training_engine.dataset_read_bytes_per_s(
                        tokens_per_s, t.dataset_bytes, t.tokens_total)),
    ]
    total = sum(line.capacity_bytes for line in keep)
    store = site.storage.model_copy(update={"lines": keep, "total_bytes": total})
    lines = []
    for line in site.cost_lines:
        if line.item == "Storage (usable TB)" and line.unit_usd is not None:
            tb = costs.storage_terabytes(total)
            line = line.model_copy(update={"quantity": tb, "total_usd": line.unit_usd * tb})
        lines.append(line)
    capital = sum(line.total_usd for line in lines if line.total_usd is not None)
    return site.model_copy(update={
        "storage": store, "cost_lines": lines, "capital_usd": capital,
        "tco_usd": costs.total_cost_usd(capital, site.annual_running_usd, site.years),
        "cost_per_million_tokens_usd": None})


def idle_slots_warnings(server: ServerSpec, gpu_name: str, nodes: int, gpus: int,
                        named: bool) -> list[Message]:
    """The GPU slots a system sold with its GPUs (``price_includes_gpus``) leaves idle under
    a training job of ``gpus`` GPUs on ``nodes`` of them: bought and powered at nameplate but
    not used (:func:`app.engine.servers.training_server` takes such a system only when the
    scenario names it or no smaller server takes the GPU)."""
    idle = nodes * server.gpu_count - gpus
    if not server.price_includes_gpus or idle < 1:
        return []
    if named:
        return [plural(idle, msg(
            "{server} is sold with its {slots} GPUs: the job uses {gpus:,} and leaves "
            "{idle:,} GPU idle (hardware.server names this system)"), msg(
            "{server} is sold with its {slots} GPUs: the job uses {gpus:,} and leaves "
            "{idle:,} GPUs idle (hardware.server names this system)"),
            server=server.name, slots=server.gpu_count, gpus=gpus, idle=idle)]
    return [plural(idle, msg(
        "{server} is sold with its {slots} GPUs: the job uses {gpus:,} and leaves {idle:,} "
        "GPU idle; no smaller server in the catalog takes the {gpu} (a PCIe GPU goes into a "
        "server with as many GPUs as the job needs)"), msg(
        "{server} is sold with its {slots} GPUs: the job uses {gpus:,} and leaves {idle:,} "
        "GPUs idle; no smaller server in the catalog takes the {gpu} (a PCIe GPU goes into a "
        "server with as many GPUs as the job needs)"),
        server=server.name, slots=server.gpu_count, gpus=gpus, idle=idle, gpu=gpu_name)]


def training_warnings(plan: TrainingPlan, t: TrainingResult, setup: training_engine.Setup,
                      model: ModelSpec) -> list[Message]:
    """What the user must know about the training plan."""
    out = []
    if not t.fits:
        out.append(plural(t.gpus_total,
                          msg("The training configuration does not fit: {need:.1f} GB per GPU "
                              "against {usable:.1f} GB usable on one {gpu}. Raise "
                              "training.max_gpus, shard more (ZeRO-3), recompute activations or "
                              "use a larger GPU."),
                          msg("The training configuration does not fit: {need:.1f} GB per GPU "
                              "against {usable:.1f} GB usable on {gpu} ({gpus} GPUs). Raise "
                              "training.max_gpus, shard more (ZeRO-3), recompute activations or "
                              "use a larger GPU."),
                          need=t.per_gpu_bytes / GB, usable=t.gpu_usable_bytes / GB,
                          gpu=plan.gpu.name, gpus=t.gpus_total))
    if t.target_days is None and t.wall_clock_s > 365 * SECONDS_PER_DAY:
        out.append(msg("Training takes {years:.1f} years on the smallest configuration that "
                       "fits; set training.target_days to size the cluster for a deadline.",
                       years=t.wall_clock_s / (365 * SECONDS_PER_DAY)))
    if t.meets_target is False:
        out.append(msg("Training takes {days:.1f} days, longer than the target of {target:g} "
                       "days.", days=t.wall_clock_s / SECONDS_PER_DAY, target=t.target_days))
    if t.activations_approximate:
        out.append(msg("Activation memory follows Korthikanti et al. (a GeLU MLP of width 4h, "
                       "multi-head attention); for {model} (gated MLP, grouped-query attention "
                       "or experts) it is an approximation.", model=model.name))
    if not t.communication_hidden:
        out.append(msg("The gradient all-reduce takes {dp:.2f} s per step, longer than the "
                       "backward pass it overlaps; the step is partly communication-bound "
                       "(more gradient accumulation, ZeRO-1/2 or a faster fabric help).",
                       dp=t.dp_communication_s))
    if t.pipeline_bubble_share > 0.1:
        out.append(plural(t.gradient_accumulation_steps,
                          msg("The pipeline bubble adds {share:.0%} to every step (one "
                              "micro-batch for {p} stages); more micro-batches per step or an "
                              "interleaved schedule reduce it."),
                          msg("The pipeline bubble adds {share:.0%} to every step ({m} "
                              "micro-batches for {p} stages); more micro-batches per step or an "
                              "interleaved schedule reduce it."),
                          share=t.pipeline_bubble_share, m=t.gradient_accumulation_steps,
                          p=t.pipeline_parallel))
    if t.method == "qlora":
        out.append(msg("QLoRA dequantises the 4-bit weights in every pass; measured "
                       "throughput is often well below the MFU assumed here."))
    if t.checkpoint_overhead_share > 0.05:
        out.append(msg("Checkpoints and restarts cost {share:.0%} of the run: faster storage or "
                       "asynchronous checkpointing (to host memory first) would recover most of "
                       "it.", share=t.checkpoint_overhead_share))
    if t.tensor_parallel > plan.node.gpus_per_node:
        out.append(msg("Tensor parallelism of {t} spans nodes; its collectives then run over "
                       "the scale-out network and slow every layer.", t=t.tensor_parallel))
    if not plan.node.scale_out and t.nodes > 1:
        out.append(msg("The server has no scale-out network adapters; the nodes reach each "
                       "other over a 10 Gb/s front-end port, which is far too slow for "
                       "training."))
    if model.moe is not None:
        out.append(msg("Expert parallelism is not modelled: experts are sharded like dense "
                       "weights and the all-to-all traffic of routing is not counted."))
    return out


def training_chosen(plan: TrainingPlan, config: Configuration) -> ChosenConfiguration:
    """``selection.chosen`` for a training result: the training configuration."""
    layout = plan.layout
    return ChosenConfiguration(
        gpu=plan.gpu.id, gpus_per_replica=layout.tensor_parallel * layout.pipeline_parallel,
        tensor_parallel=layout.tensor_parallel, pipeline_parallel=layout.pipeline_parallel,
        data_parallel=layout.data_parallel, zero_stage=layout.zero_stage, gpus_total=plan.gpus,
        precision="bf16", kv_precision=config.kv_precision.id, engine=config.engine.id,
        verdict="fits" if plan.fits else "does not fit")


def training_inputs(scenario: Scenario, r: Resolved, config: Configuration,
                    plan: TrainingPlan, setup: training_engine.Setup) -> Scenario:
    """The training scenario after defaults: the search's choices written back, so that
    sizing ``inputs`` again evaluates the same configuration."""
    layout = plan.layout
    block = scenario.training or Training()
    return inputs_after_defaults(r, config).model_copy(update={
        "workload": scenario.workload.model_copy(
            update={"max_context_tokens": r.demand.peak_context}),
        "selection": scenario.selection,
        "hardware": Hardware.model_construct(
            gpu=plan.gpu.id, gpus_per_replica=layout.tensor_parallel * layout.pipeline_parallel,
            tensor_parallel=layout.tensor_parallel, pipeline_parallel=layout.pipeline_parallel,
            server=scenario.hardware.server if scenario.hardware else None),
        "training": block.model_copy(update={
            "data_parallel": layout.data_parallel, "tensor_parallel": layout.tensor_parallel,
            "pipeline_parallel": layout.pipeline_parallel, "zero_stage": layout.zero_stage,
            "activation_recompute": layout.recompute, "tokens_total": setup.tokens_total,
            "mfu": setup.mfu, "sequence_parallel": plan.sequence_parallel,
            "gradient_accumulation_steps": plan.micro_batches,
            "global_batch_size": plan.global_batch_sequences,
            "checkpoints_retained": setup.checkpoints_retained,
            "lora_rank": setup.lora_rank if setup.method != "full" else block.lora_rank}),
    })


def training_assumptions(plan: TrainingPlan, server_name: str) -> list[Assumption]:
    """Hardware figures the training time and memory used (``server_name``: the catalog name
    of ``plan.node.server``)."""
    gpu, node = plan.gpu, plan.node
    on_gpu = {"subject": gpu.name, **sourced(catalog_source(gpu))}
    nics = (msg("catalog server: cluster NICs x speed / GPUs") if node.scale_out else
            msg("no cluster NICs: 10 Gb/s front-end port assumed"))
    return [
        Assumption(name=f"{gpu.id}.peak_bf16", value=plan.peak_flops, unit="FLOP/s", **on_gpu),
        Assumption(name=f"{gpu.id}.memory", value=gpu.memory_bytes, unit="B", **on_gpu),
        Assumption(name=f"{gpu.id}.scale_up", value=gpu.scale_up_bytes_per_s, unit="B/s",
                   **on_gpu),
        Assumption(name=f"{node.server}.scale_out_per_gpu", value=node.nic_bytes_per_s_per_gpu,
                   unit="B/s", subject=server_name, **sourced(nics)),
        Assumption(name="storage_write_per_node", value=node.write_bytes_per_s, unit="B/s",
                   **sourced(msg("storage tier catalog (NVIDIA SuperPOD RA Table 6)"))),
    ]


def mark_serving(memory: MemoryResult, performance: PerformanceResult,
                 gpu_name: str) -> tuple[MemoryResult, PerformanceResult]:
    """Say that the inference sections of a training result describe serving the trained
    model (the training memory and time are in the training section)."""
    note = msg("Serving the trained model on {gpu} at the scenario's inference settings; the "
               "training memory and time are in the training section.", gpu=gpu_name)
    return (memory.revised(messages=[note, *memory.messages]),
            performance.revised(messages=[note, *performance.messages]))



def with_training_rack_failure(scale: ScaleResult, racks: Sequence[RackResult]) -> ScaleResult:
    """``scale`` of a training cluster with its rack failure: like any failure it stops the
    job (no replica keeps training) until it resumes from the last checkpoint."""
    layout = nodes_per_compute_rack(racks) or [scale.nodes]
    statement = narrative.training_rack_failure_message(max(layout), scale.nodes)
    return with_rack_fields(scale, layout, 0, 0, statement, None)

