"""Recommended stack: orchestration, serving, storage, network and monitoring."""

from __future__ import annotations

from reportlab.platypus import Flowable, KeepTogether

from app.i18n import msg, plural
from app.report.context import Context
from app.report.flowables import bold, bullets, code, heading
from app.report.phrases import formats_text
from app.report.text import engine, gb, num, seconds
from app.testplan import commands


def autoscaling_clause(ctx: Context, low: int, high: int) -> str:
    """'autoscaling between 1 and 3 replicas'; without a range, the fixed count."""
    if low < high:
        return ctx.t("autoscaling between {low} and {high} replicas", low=low, high=high)
    return plural(low, msg("{n} replica, without autoscaling"),
                  msg("{n} replicas, without autoscaling"), n=low).text(ctx.lang)


def serve_command(result) -> str | None:
    """The serving engine's command line with the sized settings (None for generic)."""
    plan = result.test_plan
    if plan is None or plan.engine == "generic":
        return None
    return commands.shell(commands.launch(plan), 78)


def section_stack(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    s, c, i = r.scale, r.selection.chosen, r.inputs
    targets = i.targets
    air_gapped = i.sovereignty.air_gapped
    command = serve_command(r)
    serving: list[Flowable] = [bold(ctx.t("Serving:"), ctx.t(
        "{engine} with tensor parallel {t} and pipeline parallel {p}, {formats}, maximum "
        "context {context:,} tokens, memory fraction {fraction}, batch limit {batch:,}, "
        "{tokens:,} tokens per step.", engine=engine(i.serving.engine, lang),
        t=c.tensor_parallel, p=c.pipeline_parallel, formats=formats_text(ctx),
        context=i.workload.max_context_tokens or r.memory.peak_context_tokens,
        fraction=num(i.serving.memory_fraction, "g", lang),
        batch=i.serving.max_batch_size, tokens=i.serving.max_batched_tokens),
        "bullet")]
    if command:
        serving.append(code(command))
    network = (ctx.t("an isolated network: a private endpoint behind a load balancer and no "
                     "outbound traffic; model weights, container images and updates come "
                     "through an internal registry.") if air_gapped else
               ctx.t("a private network segment with a load balancer in front of the "
                     "replicas; outbound traffic only as the site's policy allows."))
    alerts = []
    if targets.ttft_s is not None:
        alerts.append(ctx.t("TTFT above {ttft}", ttft=seconds(targets.ttft_s, lang)))
    if targets.tokens_per_s_per_user is not None:
        alerts.append(ctx.t("tokens/s per user below {speed:,.1f}",
                            speed=targets.tokens_per_s_per_user))
    items: list[Flowable | str] = [
        bold(ctx.t("Orchestration:"), plural(
            s.nodes,
            msg("Kubernetes with the NVIDIA GPU Operator (driver, container toolkit, device "
                "plugin, DCGM exporter) on one GPU server; one replica per pod with {gpus}; "
                "{autoscaling}."),
            msg("Kubernetes with the NVIDIA GPU Operator (driver, container toolkit, device "
                "plugin, DCGM exporter) on {nodes} GPU servers; one replica per pod with "
                "{gpus}; replicas spread over servers (anti-affinity) so that losing one leaves "
                "the load served; {autoscaling}."), nodes=s.nodes,
            gpus=plural(c.gpus_per_replica, msg("{gpus} GPU"), msg("{gpus} GPUs"),
                        gpus=c.gpus_per_replica).text(lang),
            autoscaling=autoscaling_clause(ctx, s.autoscale_min_replicas,
                                           s.autoscale_max_replicas)).text(lang), "bullet"),
        KeepTogether(serving),
        bold(ctx.t("Storage:"), ctx.t(
            "block storage near the GPU servers for the model weights ({weights} per "
            "replica; storage tier '{tier}', cold start about {cold}); shared file or object "
            "storage for the model registry, logs and results.",
            weights=gb(r.memory.weights_bytes, lang), tier=s.storage_tier,
            cold=seconds(s.cold_start_s, lang)), "bullet"),
        bold(ctx.t("Network:"), network, "bullet"),
        bold(ctx.t("Monitoring:"), ctx.t(
            "Prometheus and Grafana: GPU utilisation and VRAM use (DCGM exporter), TTFT and "
            "tokens/s per user (the serving engine's metrics), request and error rates; alert "
            "on {alerts} and on any errors.", alerts=", ".join(alerts) or ctx.t("saturation")),
            "bullet"),
    ]
    return [heading(ctx, "stack", ctx.t("Recommended stack")), bullets(items)]
