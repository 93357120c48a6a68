"""The training chain: fine-tuning and pre-training (METHOD.md, "Training and fine-tuning").

:func:`training_setup` fills the training block's defaults, :func:`choose_training` is
Step 3 for training (the configuration given, or the smallest that fits on each GPU, ranked
by the scenario), and :func:`size_training` assembles the result: the training section
carries the sizing; memory and performance describe serving the trained model on the
training GPU type; scale, infrastructure and cost describe the training cluster. It stands
beside the serving chain (:mod:`app.engine.serving_chain`); :mod:`app.engine.pipeline`
dispatches between them.
"""

from __future__ import annotations

from dataclasses import replace

from app.domain.catalog import Catalog, ModelSpec
from app.domain.problems import problem
from app.domain.result import Assumption, SelectionResult, SizingResult, TrainingCandidate
from app.domain.scenario import Hardware, Scenario, Training
from app.engine import explain, explain_training, training
from app.engine.assumptions import sourced
from app.engine.explain_validation import with_validation
from app.engine.infrastructure import size_infrastructure
from app.engine.memory import ParameterCounts, parameter_counts
from app.engine.optional_sections import additions
from app.engine.resolved import (
    SizingError,
    default_value,
    look_up,
    model_of,
    resolve,
    storage_tier_of,
)
from app.engine.selection import select
from app.engine.servers import (
    compute_cost,
    node_of,
    plan_power_w,
    server_for,
    training_node,
    training_server,
)
from app.engine.test_levels import test_plan_result
from app.i18n import msg

TRAINING_KINDS = ("fine_tuning", "pretraining")
TRAINED_WEIGHTS = "bf16"
"""Format of a trained model's weights (the training result's chosen precision)."""


def training_setup(scenario: Scenario, catalog: Catalog, model: ModelSpec,
                   counts: ParameterCounts, assumptions: list[Assumption]
                   ) -> tuple[training.Setup, training.Fixed, float | None]:
    """The training block with every default filled in (each default recorded)."""
    block = scenario.training or Training()
    kind = scenario.workload.kind

    def value(name: str, unit: str, given=None):
        return default_value(catalog, name, unit, assumptions, given)

    if block.sequence_length > model.max_context_tokens:
        raise SizingError(problem("training.sequence_length", msg(
            "{context:,} exceeds the model's context limit of {limit:,} tokens",
            context=block.sequence_length, limit=model.max_context_tokens)))
    if block.tensor_parallel is not None:
        allowed = training.tensor_options(model, 1024)
        heads = model.attention_heads
        if heads % block.tensor_parallel or block.tensor_parallel not in allowed:
            raise SizingError(problem("training.tensor_parallel", msg(
                "{tensor} does not split {model}'s {heads} attention heads and {kv} KV heads "
                "evenly; allowed: {allowed}", tensor=block.tensor_parallel, model=model.name,
                heads=heads, kv=model.kv_heads, allowed=", ".join(str(t) for t in allowed))))
    if block.pipeline_parallel is not None and block.pipeline_parallel > model.layers:
        raise SizingError(problem("training.pipeline_parallel", msg(
            "{stages} stages for {layers} layers; at most {layers}",
            stages=block.pipeline_parallel, layers=model.layers)))
    if block.method != "full" and kind == "pretraining":
        raise SizingError(problem("training.method", msg(
            "'{method}' adapts a trained model; pre-training trains every weight (use 'full')",
            method=block.method)))
    if block.tokens_total is not None:
        tokens = block.tokens_total
    elif kind == "pretraining":
        per_param = value("pretraining_tokens_per_param", "tokens/parameter")
        tokens = per_param * counts.total
    else:
        tokens = value("fine_tuning_tokens_total", "tokens")
    batch_default = ("training_global_batch_tokens_pretraining" if kind == "pretraining"
                     else "training_global_batch_tokens_fine_tuning")
    given_batch = block.global_batch_size is not None or \
        block.gradient_accumulation_steps is not None
    batch_tokens = (catalog.default(batch_default) if given_batch
                    else value(batch_default, "tokens"))
    tier = scenario.availability.storage_tier
    unit_name = f"storage_su_write_gb_s_{tier}"
    per_unit = (value(unit_name, "GB/s") * 1e9 if unit_name in catalog.defaults else None)
    setup = training.Setup(
        model=model, counts=counts, method=block.method, optimizer=block.optimizer,
        fp32_gradients=block.fp32_gradients, sequence_length=block.sequence_length,
        micro_batch_size=block.micro_batch_size,
        global_batch_sequences=block.global_batch_size, global_batch_tokens=batch_tokens,
        virtual_stages=int(value("pipeline_virtual_stages", "chunks/GPU")),
        max_global_batch_tokens=max(batch_tokens, catalog.default(
            "training_global_batch_tokens_max") if kind == "pretraining" else batch_tokens),
        gradient_accumulation=block.gradient_accumulation_steps,
        sequence_parallel=block.sequence_parallel, flash_attention=block.flash_attention,
        lora_rank=int(value("lora_rank", "", block.lora_rank)) if block.method != "full"
        else 0,
        lora_targets=block.lora_targets,
        qlora_bits=value("qlora_bits_per_param", "bits") if block.method == "qlora" else 16.0,
        mfu=value("training_mfu", "", block.mfu), tokens_total=tokens,
        memory_fraction=value("training_memory_fraction", ""),
        full_recompute_factor=value("full_recompute_time_factor", ""),
        bus_efficiency=value("collective_bus_efficiency", ""),
        checkpoint_bytes_per_param=value("checkpoint_bytes_per_param", "B/param"),
        gpu_mtbf_hours=value("gpu_mtbf_hours", "h"),
        write_per_unit=per_unit,
        nodes_per_unit=int(value("storage_su_nodes", "nodes")) if per_unit else 32,
        max_gpus=block.max_gpus,
        checkpoints_retained=int(value("checkpoints_retained", "checkpoints",
                                       block.checkpoints_retained)),
        dataset_bytes=(block.dataset_tokens or tokens)
        * value("dataset_bytes_per_token", "B/token"))
    fixed = training.Fixed(block.data_parallel, block.tensor_parallel, block.pipeline_parallel,
                           block.zero_stage, block.activation_recompute)
    target = block.target_days * training.SECONDS_PER_DAY if block.target_days else None
    if kind == "pretraining" and block.tokens_total is None:
        assumptions.append(Assumption(
            name="tokens_total", value=tokens, unit="tokens", **sourced(msg(
                "{source}: {params:,.2f} billion parameters x {per_param:g} tokens",
                source=catalog.default_sources.get("pretraining_tokens_per_param", ""),
                params=counts.total / 1e9, per_param=per_param))))
    return setup, fixed, target


def bought_cost(catalog: Catalog, scenario: Scenario, plan: training.Plan
                ) -> tuple[bool, float]:
    """(price missing, USD) of the servers and GPUs ``plan`` is bought on
    (:func:`app.engine.servers.compute_cost` of :func:`app.engine.servers.training_server`)."""
    nodes = training_server(catalog, scenario, plan.gpu, plan.gpus, plan.node.server)
    return compute_cost(nodes, plan.gpu, plan.gpus,
                        scenario.infrastructure.price_overrides_usd).rank_key()


def bought_power_w(catalog: Catalog, scenario: Scenario, plan: training.Plan) -> float:
    """Nameplate power of the servers ``plan`` is bought on [W]
    (:func:`app.engine.servers.plan_power_w`)."""
    nodes = training_server(catalog, scenario, plan.gpu, plan.gpus, plan.node.server)
    return plan_power_w(nodes, plan.gpu, plan.gpus)


#: Training plans ranked across GPUs by ``selection.rank_by``: capital and power of the
#: servers and GPUs bought (Step 5's rule), GPU count; then the time to train.
RANK_COST = {
    "capital_cost": lambda c, s, plan: (bought_cost(c, s, plan), plan.wall_clock_s),
    "tokens_per_dollar": lambda c, s, plan: (bought_cost(c, s, plan), plan.wall_clock_s),
    "gpu_count": lambda c, s, plan: (plan.gpus, plan.wall_clock_s),
    "power": lambda c, s, plan: (bought_power_w(c, s, plan), plan.wall_clock_s),
}


def choose_training(catalog: Catalog, scenario: Scenario, setup: training.Setup,
                    fixed: training.Fixed, target_s: float | None
                    ) -> tuple[training.Plan, list[TrainingCandidate], str]:
    """Step 3 for training: the configuration named, or the smallest that fits per GPU and
    the best of those by the scenario's ranking. Returns (plan, rows, chosen_by)."""
    if scenario.hardware is not None:
        gpu_ids = [scenario.hardware.gpu]
        field = "hardware.gpu"
    else:
        gpu_ids = scenario.selection.gpus or sorted(catalog.gpus)
        field = "selection.gpus"
    gpus = [look_up(catalog.gpus, gpu_id, field, msg("unknown GPU id '{value}'; known: {known}"))
            for gpu_id in gpu_ids]
    found: list[tuple[training.Plan, bool]] = []
    for gpu in gpus:
        winner, closest = training.smallest_fitting(setup, gpu, training_node(
            catalog, scenario, gpu), fixed, target_s)
        if winner is not None:
            found.append((on_own_server(catalog, scenario, setup, fixed, target_s, winner),
                          True))
        elif closest is not None:
            found.append((closest, False))
    if not found:
        raise SizingError(problem("training", msg(
            "no configuration to evaluate; widen selection.gpus or raise training.max_gpus")))
    rank = RANK_COST[scenario.selection.rank_by]

    def key(plan: training.Plan) -> tuple:
        return rank(catalog, scenario, plan)

    working = sorted((plan for plan, ok in found if ok), key=key)
    failing = sorted((plan for plan, ok in found if not ok),
                     key=lambda p: p.per_gpu_bytes / p.usable)
    ranked = working + failing
    chosen = ranked[0]
    if fixed.complete:
        chosen_by = "user"
    elif working:
        chosen_by = ("fewest GPUs that fit" + (" and meet the target time" if target_s else "")
                     + (f", then {scenario.selection.rank_by.replace('_', ' ')}"
                        if len(gpu_ids) > 1 else ""))
    else:
        chosen_by = "closest (nothing fits within training.max_gpus)"
    rows = [explain_training.training_candidate(plan, plan is chosen, ok, target_s)
            for plan, ok in sorted(found, key=lambda f: ranked.index(f[0]))]
    return chosen, rows, chosen_by


def on_own_server(catalog: Catalog, scenario: Scenario, setup: training.Setup,
                  fixed: training.Fixed, target_s: float | None,
                  plan: training.Plan) -> training.Plan:
    """``plan`` on the server Step 5's rule buys for it
    (:func:`app.engine.servers.training_server`), searched again on that server so the time
    model sees its scale-up domain and NICs; the plan as searched when that server is the
    one it was searched on or the job does not come out the same size there."""
    server = training_server(catalog, scenario, plan.gpu, plan.gpus, plan.node.server).server
    if server.id == plan.node.server:
        return plan
    again, _ = training.smallest_fitting(setup, plan.gpu, node_of(catalog, scenario, server),
                                         fixed, target_s)
    return again if again is not None and again.gpus == plan.gpus else plan


def serving_scenario(scenario: Scenario, gpu_id: str, tensor_parallel: int = 1,
                     pipeline_parallel: int = 1) -> Scenario:
    """The scenario of serving the trained model on the chosen training configuration at the
    scenario's inference settings (memory, performance and the serving sections describe
    this): one replica on ``gpu_id`` GPUs of one model copy (``t x p`` of the training
    layout), the weights in the trained model's BF16 unless the scenario names a format.

    Step 3 does not search again: the result's chosen configuration is the training one, and
    the memory it reports is the memory of that configuration (a 70B model in BF16 does not
    fit one 80 GB GPU, whatever a two-GPU FP8 replica would need).
    """
    workload = scenario.workload.model_copy(update={"kind": "online_inference"})
    hardware = Hardware(gpu=gpu_id, tensor_parallel=tensor_parallel,
                        pipeline_parallel=pipeline_parallel,
                        server=scenario.hardware.server if scenario.hardware else None)
    precision = scenario.precision.model_copy(
        update={"weights": scenario.precision.weights or TRAINED_WEIGHTS})
    return scenario.model_copy(update={"workload": workload, "hardware": hardware,
                                       "precision": precision})


def size_training(scenario: Scenario, catalog: Catalog) -> SizingResult:
    """Training and fine-tuning (METHOD.md "Training and fine-tuning").

    The training section carries the sizing. Memory, performance and the GPU configuration
    of serving describe serving the trained model on the training GPU type at the scenario's
    inference settings; scale, facility, infrastructure and cost describe the training
    cluster.
    """
    model = model_of(scenario, catalog)
    tier = storage_tier_of(scenario, catalog)
    counts = parameter_counts(model)
    assumptions: list[Assumption] = []
    setup, fixed, target_s = training_setup(scenario, catalog, model, counts, assumptions)
    plan, rows, chosen_by = choose_training(catalog, scenario, setup, fixed, target_s)
    curve = training.scaling_curve(setup, plan.gpu, plan.node, fixed,
                                   max(plan.gpus, 1)) if plan.fits else []
    served = serving_scenario(scenario, plan.gpu.id, plan.layout.tensor_parallel,
                              plan.layout.pipeline_parallel)
    r = resolve(served, catalog)
    chosen, _ = select(catalog, r)
    config = chosen.config
    memory = explain.memory_result(config, chosen.plan, r)
    performance = explain.with_levers(catalog, config, explain.performance_result(
        catalog, config, chosen.plan, r, chosen.capacity), r)
    memory, performance = explain_training.mark_serving(memory, performance, plan.gpu.name)
    result = explain_training.training_result(plan, rows, chosen_by, curve, target_s)
    server = server_for(catalog, plan.gpu, plan.node.server)
    server_name = server.name
    scale = explain_training.training_scale(plan, result, tier, server_name)
    infra = scenario.infrastructure
    if scale.nodes > 1 and not infra.force_fabric:
        infra = infra.model_copy(update={"force_fabric": True})
    site_view = replace(r, scenario=scenario.model_copy(update={"infrastructure": infra}))
    site, site_assumptions = size_infrastructure(catalog, config, scale, performance,
                                                 site_view)
    site = explain_training.training_site(site, result, tier)
    scale = explain_training.with_training_rack_failure(scale, site.racks)
    warnings = explain_training.training_warnings(plan, result, setup, model)
    warnings += explain_training.idle_slots_warnings(
        server, plan.gpu.name, plan.nodes, plan.gpus,
        named=bool(scenario.hardware and scenario.hardware.server))
    warnings += site.warnings
    rag, cpu, extra_assumptions, extra_warnings = additions(catalog, r, config, performance)
    inputs = explain_training.training_inputs(scenario, r, config, plan, setup)
    served_plan = test_plan_result(catalog, config, performance, scale, inputs.workload,
                                   scenario.name, serving_of_training=True, plan=chosen.plan)
    sized = explain.sizing_result(
        catalog, r, config, site, inputs=inputs, memory=memory, performance=performance,
        selection=SelectionResult(chosen=explain_training.training_chosen(plan, config),
                                  chosen_by=f"training: {chosen_by}"),
        scale=scale, training=result, rag=rag, cpu=cpu, test_plan=served_plan,
        assumptions=(assumptions + explain_training.training_assumptions(plan, server_name)
                     + r.assumptions
                     + explain.engine_assumptions(catalog, config, r) + site_assumptions
                     + extra_assumptions),
        warning_messages=warnings + extra_warnings,
    )
    return with_validation(catalog, scenario, config, sized)

