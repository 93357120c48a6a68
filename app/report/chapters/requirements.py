"""Requirements: what the scenario asks for, after the defaults were filled in."""

from __future__ import annotations

from reportlab.platypus import Flowable

from app.i18n import msg, plural
from app.report.context import Context
from app.report.flowables import heading, key_values, para
from app.report.phrases import ranking, redundancy
from app.report.text import engine, num, precision, seconds, word, yes_no


def section_requirements(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    i = r.inputs
    w, serving = i.workload, i.serving
    rows = [
        (ctx.t("Scenario"), i.name or "–"),
        (ctx.t("Model"), model_text(ctx)),
        (ctx.t("Workload"), word(lang, w.kind.replace("_", " "))),
        (ctx.t("Concurrent users"), users_text(ctx)),
        (ctx.t("Request"), ctx.t("{prompt:,} prompt tokens, {output:,} output tokens, up to "
                                 "{context:,} tokens of context", prompt=w.prompt_tokens,
                                 output=w.output_tokens,
                                 context=w.max_context_tokens or r.memory.peak_context_tokens)),
    ]
    if w.kind == "batch_inference":
        rows.append((ctx.t("Batch volume"), ctx.t(
            "{tokens:,.0f} output tokens per day, {requests:,.0f} requests per hour, to finish "
            "within {window} h", tokens=w.tokens_per_day or 0,
            requests=w.requests_per_hour or 0,
            window=num(w.completion_window_hours, ",.1f", lang))))
    rows += [
        (ctx.t("Targets"), targets_text(ctx)),
        (ctx.t("Number formats"), ctx.t(
            "weights {weights}, KV cache {kv}; formats allowed: {allowed}",
            weights=precision(i.precision.weights), kv=precision(i.precision.kv_cache),
            allowed=", ".join(precision(a) for a in i.precision.allowed_weights or []) or "–")),
        (ctx.t("Hardware"), hardware_text(ctx)),
        (ctx.t("Serving engine"), ctx.t(
            "{engine}: memory fraction {fraction}, batch limit {batch:,} sequences, "
            "{tokens:,} tokens per step", engine=engine(serving.engine, lang),
            fraction=num(serving.memory_fraction, "g", lang), batch=serving.max_batch_size,
            tokens=serving.max_batched_tokens)),
        (ctx.t("Availability"), ctx.t("redundancy {redundancy}, storage tier '{tier}'",
                                      redundancy=redundancy(ctx, i.availability.redundancy),
                                      tier=i.availability.storage_tier)),
        (ctx.t("Sovereignty"), sovereignty_text(ctx)),
        (ctx.t("Factors set by the user"), ", ".join(
            f"{name} = {num(value, 'g', lang)}" for name, value in
            sorted(i.factor_overrides.items()))
         or ctx.t("none", msgctxt="factors set by the user")),
    ]
    return [heading(ctx, "requirements", ctx.t("Requirements")),
            para(ctx.t("What the scenario asks for, after the defaults were filled in (every "
                       "default is listed with its source in section {n}).",
                       n=ctx.number("assumptions"))),
            key_values(ctx, rows, first=0.24)]


def users_text(ctx: Context) -> str:
    users = ctx.result.inputs.workload.concurrent_users
    if users == "max":
        return ctx.t("as many as fit (saturation)")
    return num(users, ",d", ctx.lang)


def model_text(ctx: Context) -> str:
    m = ctx.result.model
    if m.moe:
        return ctx.t("{name} ({id}): {total:,.1f} billion parameters, {active:,.1f} billion "
                     "active per token, {layers} layers, {kv} KV heads, context limit "
                     "{context:,} tokens", name=m.name, id=m.id, total=m.params_total / 1e9,
                     active=m.params_active / 1e9, layers=m.layers, kv=m.kv_heads,
                     context=m.max_context_tokens)
    return ctx.t("{name} ({id}): {total:,.1f} billion parameters, {layers} layers, {kv} KV "
                 "heads, context limit {context:,} tokens", name=m.name, id=m.id,
                 total=m.params_total / 1e9, layers=m.layers, kv=m.kv_heads,
                 context=m.max_context_tokens)


def targets_text(ctx: Context) -> str:
    targets = ctx.result.inputs.targets
    parts = []
    if targets.ttft_s is not None:
        parts.append(ctx.t("time to first token at most {ttft}",
                           ttft=seconds(targets.ttft_s, ctx.lang)))
    if targets.tokens_per_s_per_user is not None:
        parts.append(ctx.t("at least {speed:,.1f} tokens/s per user",
                           speed=targets.tokens_per_s_per_user))
    return ", ".join(parts) or ctx.t("none (throughput only)")


def hardware_text(ctx: Context) -> str:
    i = ctx.result.inputs
    h = i.hardware
    if h:
        return ctx.t("given: {n} x {gpu} (tensor parallel {t}, pipeline parallel {p})",
                     n=h.gpus_per_replica, gpu=ctx.result.gpu.name, t=h.tensor_parallel,
                     p=h.pipeline_parallel)
    sel = i.selection
    gpus = ", ".join(sel.gpus or []) or ctx.t("every GPU in the catalog")
    most = sel.max_gpus_per_replica
    return plural(most, msg("chosen by the tool among {gpus}, one GPU per replica, ranked by "
                            "{rank}"),
                  msg("chosen by the tool among {gpus}, up to {most} GPUs per replica, ranked "
                      "by {rank}"), gpus=gpus, most=most,
                  rank=ranking(ctx, sel.rank_by)).text(ctx.lang)


def sovereignty_text(ctx: Context) -> str:
    s = ctx.result.inputs.sovereignty
    return ctx.t("on premises: {on_premises}; air-gapped: {air_gapped}; region: {region}",
                 on_premises=yes_no(s.on_premises, ctx.lang),
                 air_gapped=yes_no(s.air_gapped, ctx.lang), region=s.region or "–")
