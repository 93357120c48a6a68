"""Training: memory per GPU, time to train, checkpoints (only for a training scenario)."""

from __future__ import annotations

from reportlab.platypus import Flowable, KeepTogether, Spacer

from app.i18n import msg, plural
from app.report import charts
from app.report.context import Context
from app.report.flowables import bullets, cell, heading, key_values, para, subheading
from app.report.phrases import duration
from app.report.style import FONT_BOLD, table
from app.report.text import GB, GIB, gb, messages, met, num, seconds


def terabytes(value_bytes: float, lang: str) -> str:
    if value_bytes < 1e12:
        return gb(value_bytes, lang)
    return f"{num(value_bytes / 1e12, ',.2f', lang)} TB"


def section_training(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    tr = r.training
    if tr is None:
        return []
    how = (ctx.t("given in the scenario") if tr.chosen_by == "user"
           else ctx.t("the smallest configuration that fits, found by the search"))
    setup = [
        (ctx.t("Method"), ctx.t("{method}, optimizer {optimizer}", method=tr.method,
                                optimizer=tr.optimizer)),
        (ctx.t("GPUs"), plural(tr.nodes, msg("{n} x {gpu} on {nodes} node; {how}"),
                               msg("{n} x {gpu} on {nodes} nodes; {how}"), n=tr.gpus_total,
                               gpu=tr.gpu, nodes=tr.nodes, how=how).text(ctx.lang)),
        (ctx.t("Parallelism"), ctx.t(
            "data parallel {d}, tensor parallel {t}, pipeline parallel {p}, ZeRO stage {z}, "
            "activation recompute '{recompute}'", d=tr.data_parallel, t=tr.tensor_parallel,
            p=tr.pipeline_parallel, z=tr.zero_stage, recompute=tr.activation_recompute)),
        (ctx.t("Batch"), plural(
            tr.gradient_accumulation_steps,
            msg("micro-batch {micro} x {length:,} tokens, {steps} accumulation step, global "
                "batch {sequences:,} sequences ({tokens:,.0f} tokens)"),
            msg("micro-batch {micro} x {length:,} tokens, {steps} accumulation steps, global "
                "batch {sequences:,} sequences ({tokens:,.0f} tokens)"),
            micro=tr.micro_batch_size, length=tr.sequence_length,
            steps=tr.gradient_accumulation_steps, sequences=tr.global_batch_sequences,
            tokens=tr.tokens_per_step).text(lang)),
        (ctx.t("Parameters"), ctx.t("{total:,.2f} billion, {trained:,.3f} billion trained",
                                    total=tr.params_total / 1e9,
                                    trained=tr.params_trainable / 1e9)),
    ]
    head = [cell(h, "cell_head") for h in (ctx.t("One GPU (the fullest)"), "GB", "GiB")]
    parts = [(ctx.t("Weights"), tr.weights_bytes_per_gpu),
             (ctx.t("Gradients"), tr.gradients_bytes_per_gpu),
             (ctx.t("Optimizer states"), tr.optimizer_bytes_per_gpu),
             (ctx.t("Activations"), tr.activation_bytes_per_gpu),
             (ctx.t("Runtime and buffers"), tr.runtime_bytes_per_gpu),
             (ctx.t("Total needed"), tr.per_gpu_bytes),
             (ctx.t("Usable"), tr.gpu_usable_bytes)]
    rows = [head] + [[cell(name), num(v / GB, ",.1f", lang), num(v / GIB, ",.1f", lang)]
                     for name, v in parts]
    memory_style = [("FONTNAME", (0, 6), (-1, 6), FONT_BOLD), ("ALIGN", (1, 0), (-1, -1),
                                                                "RIGHT")]
    time = [
        (ctx.t("Step time"), ctx.t(
            "{step}: compute {compute}, communication {comm} ({hidden}), pipeline bubble "
            "{bubble:,.1f} %", step=seconds(tr.step_time_s, lang),
            compute=seconds(tr.compute_time_per_step_s, lang),
            comm=seconds(tr.communication_s, lang),
            hidden=ctx.t("hidden behind compute") if tr.communication_hidden
            else ctx.t("not hidden"), bubble=tr.pipeline_bubble_share * 100)),
        (ctx.t("Tokens to train"), ctx.t("{tokens:,.0f} tokens in {steps:,.0f} steps",
                                         tokens=tr.tokens_total, steps=tr.steps)),
        (ctx.t("Time to train"), ctx.t(
            "{compute} of compute (MFU {mfu:.0%}), {wall} with checkpoints and failures; "
            "{hours:,.0f} GPU-hours", compute=duration(ctx, tr.time_to_train_s), mfu=tr.mfu,
            wall=duration(ctx, tr.wall_clock_s), hours=tr.gpu_hours)),
    ]
    if tr.target_days:
        time.append((ctx.t("Target"), ctx.t("within {days:,.0f} days: {met}",
                                             days=tr.target_days,
                                             met=met(bool(tr.meets_target), lang))))
    checkpoints = [
        (ctx.t("Checkpoint"), ctx.t("{size}, saved in {save}", size=gb(tr.checkpoint_bytes, lang),
                                    save=seconds(tr.checkpoint_save_s, lang))),
        (ctx.t("Interval (Young/Daly)"), ctx.t(
            "every {minutes:,.0f} min with a cluster MTBF of {mtbf}; {share:,.1f} % of the "
            "time lost", minutes=tr.checkpoint_interval_s / 60,
            mtbf=duration(ctx, tr.mtbf_cluster_s), share=tr.checkpoint_overhead_share * 100)),
        (ctx.t("Storage"), ctx.t("{total}: {n} checkpoints ({checkpoints}) and the dataset "
                                 "({dataset})", total=terabytes(tr.storage_bytes, lang),
                                 n=tr.checkpoints_retained,
                                 checkpoints=terabytes(tr.checkpoint_storage_bytes, lang),
                                 dataset=terabytes(tr.dataset_bytes, lang))),
    ]
    flow: list[Flowable] = [
        heading(ctx, "training", ctx.t("Training")),
        para(ctx.t("The training job: the memory each GPU must hold, the time one optimizer "
                   "step and the whole run take, and the checkpoints.")),
        key_values(ctx, setup, first=0.2),
        KeepTogether([subheading(ctx, ctx.t("Memory per GPU")),
                      table(rows, [ctx.width * 0.5, ctx.width * 0.25, ctx.width * 0.25],
                            extra=memory_style),
                      Spacer(1, 6),
                      charts.training_memory_chart(r, ctx.width, lang),
                      para(ctx.t("Figure: memory of the fullest GPU during training."),
                           "caption")]),
        KeepTogether([subheading(ctx, ctx.t("Time to train")),
                      key_values(ctx, time, first=0.2),
                      Spacer(1, 6),
                      charts.time_to_train_chart(r, ctx.width, lang),
                      para(ctx.t("Figure: time to train against the number of GPUs."),
                           "caption")]),
        KeepTogether([subheading(ctx, ctx.t("Checkpoints and storage")),
                      key_values(ctx, checkpoints, first=0.2)]),
        subheading(ctx, ctx.t("How the training was sized")),
        bullets(messages(tr.messages, tr.explanation, lang)),
    ]
    return flow
