"""The sections of the report as reportlab flowables, from the result alone.

Each ``section_*`` function takes a :class:`Context` and returns its flowables, starting
with a numbered heading. Nothing here computes a sizing figure: numbers come from the
SizingResult (and the band it defines); the first-order facility figures are labelled as
such, and what the infrastructure feature will add is said, not invented.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    ListFlowable,
    ListItem,
    PageBreak,
    Paragraph,
    Spacer,
)

from app.domain.result import Assumption, ScaleResult, SizingResult
from app.engine.narrative import replica_range
from app.i18n import msg, plural
from app.report import charts, plan
from app.report.accuracy import Accuracy
from app.report.style import BAD, FONT_BOLD, GOOD, MUTED, styles, table
from app.report.text import (
    GB,
    GIB,
    KW,
    engine,
    gb,
    gib,
    markup,
    message,
    messages,
    met,
    num,
    precision,
    quantity,
    seconds,
    seconds_band,
    t,
    usd,
    word,
    yes_no,
)

ALTERNATIVES_SHOWN = 15


@dataclass(frozen=True)
class Signer:
    """What the visible signature block shows about the signer."""

    name: str
    organisation: str
    email: str
    fingerprint: str
    issuer: str
    signing_time: str


@dataclass
class Context:
    result: SizingResult
    lang: str
    width: float
    accuracy: Accuracy
    report_date: str
    signer: Signer | None = None
    numbering: list[int] = field(default_factory=lambda: [0, 0])
    compared: list[tuple[str, SizingResult]] = field(default_factory=list)

    def t(self, template: str, **params) -> str:
        return t(self.lang, template, **params)


class Heading(Paragraph):
    """A section heading that the document lists in its contents and outline."""

    def __init__(self, text: str, level: int, key: str):
        style = styles()["h1" if level == 0 else "h2"]
        super().__init__(markup(text), style)
        self.toc_text, self.level, self.key = text, level, key


def para(text: str, style: str = "body") -> Paragraph:
    return Paragraph(markup(text), styles()[style])


def cell(text: str, style: str = "cell") -> Paragraph:
    return Paragraph(markup(text), styles()[style])


def bold(label: str, text: str, style: str = "body") -> Paragraph:
    return Paragraph(f"<b>{markup(label)}</b> {markup(text)}", styles()[style])


def code(text: str) -> Paragraph:
    escaped = markup(text).replace("\n", "<br/>").replace("  ", "&nbsp;&nbsp;")
    return Paragraph(escaped, styles()["code"])


def bullets(items: list[Flowable | str]) -> ListFlowable:
    flowables = [ListItem(item if isinstance(item, Flowable) else para(item, "bullet"),
                          leftIndent=12, value="•") for item in items]
    return ListFlowable(flowables, bulletType="bullet", start="•", leftIndent=12,
                        bulletFontName=FONT_BOLD, bulletFontSize=8)


def heading(ctx: Context, title: str) -> Heading:
    ctx.numbering[0] += 1
    number = ctx.numbering[0]
    return Heading(f"{number} {title}", 0, f"section-{number}")


def subheading(ctx: Context, title: str) -> Heading:
    ctx.numbering[1] += 1  # a running count keeps the bookmark names reproducible
    return Heading(title, 1, f"part-{ctx.numbering[1]}")


def number_of(ctx: Context, section) -> int:
    """The number a section gets in the report (its place among the sections shown)."""
    shown = [s for s in SECTIONS if applies(s, ctx.result)]
    return shown.index(section) + 1


def applies(section, result: SizingResult) -> bool:
    """Whether ``section`` appears for ``result`` (the workload sections only when present).

    Compared options come last and only when options were pinned, so they never shift the
    numbers other sections refer to.
    """
    if section is section_compared:
        return False
    needs = {section_training: "training", section_rag: "rag", section_cpu: "cpu"}
    return section not in needs or getattr(result, needs[section]) is not None


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def key_values(ctx: Context, rows: list[tuple[str, str]], first: float = 0.34) -> Flowable:
    data = [[cell(key), cell(value)] for key, value in rows]
    return table(data, [ctx.width * first, ctx.width * (1 - first)], header=False)


def verdict_colour(flag: bool) -> list[tuple]:
    return [("TEXTCOLOR", (0, 0), (0, 0), GOOD if flag else BAD)]


def band_text(ctx: Context, value: float, low: float, high: float, spec: str,
              unit: str = "") -> str:
    lang = ctx.lang
    suffix = f" {unit}" if unit else ""
    return (f"{num(value, spec, lang)}{suffix} ({num(low, spec, lang)}–"
            f"{num(high, spec, lang)}{suffix})")


RANKINGS = {"capital_cost": "lowest capital cost", "power": "lowest power draw",
            "gpu_count": "fewest GPUs", "tokens_per_dollar": "most tokens per dollar"}
COOLING = {"air": "air cooling", "rdhx": "rear-door heat exchangers",
           "dlc": "direct liquid cooling"}


def redundancy(ctx: Context, value: str) -> str:
    return ctx.t("none") if value == "none" else value.upper()


def ranking(ctx: Context, rank_by: str) -> str:
    return ctx.t(RANKINGS[rank_by]) if rank_by in RANKINGS else rank_by.replace("_", " ")


def users_text(ctx: Context) -> str:
    users = ctx.result.inputs["workload"]["concurrent_users"]
    if users == "max":
        return ctx.t("as many as fit (saturation)")
    return num(users, ",d", ctx.lang)


def model_text(ctx: Context) -> str:
    m = ctx.result.model
    if m.get("moe"):
        return ctx.t("{name} ({id}): {total:,.1f} billion parameters, {active:,.1f} billion "
                     "active per token, {layers} layers, {kv} KV heads, context limit "
                     "{context:,} tokens", name=m["name"], id=m["id"],
                     total=m["params_total"] / 1e9, active=m["params_active"] / 1e9,
                     layers=m["layers"], kv=m["kv_heads"], context=m["max_context_tokens"])
    return ctx.t("{name} ({id}): {total:,.1f} billion parameters, {layers} layers, {kv} KV "
                 "heads, context limit {context:,} tokens", name=m["name"], id=m["id"],
                 total=m["params_total"] / 1e9, layers=m["layers"], kv=m["kv_heads"],
                 context=m["max_context_tokens"])


def gpus_text(ctx: Context) -> str:
    c = ctx.result.selection.chosen
    return ctx.t("{n} x {gpu} per replica (tensor parallel {t}, pipeline parallel {p})",
                 n=c["gpus_per_replica"], gpu=ctx.result.gpu.get("name", c["gpu"]),
                 t=c["tensor_parallel"], p=c["pipeline_parallel"])


def formats_text(ctx: Context) -> str:
    c = ctx.result.selection.chosen
    return ctx.t("weights {weights}, KV cache {kv}", weights=precision(c["precision"]),
                 kv=precision(c["kv_precision"]))


# ----------------------------------------------------------------------------- cover


def cover(ctx: Context) -> list[Flowable]:
    r = ctx.result
    i = r.inputs
    catalogs = ", ".join(f"{name} {version}" for name, version in
                         sorted(r.catalog_versions.items()))
    signature = (ctx.t("signed by {name} ({organisation})", name=ctx.signer.name,
                       organisation=ctx.signer.organisation or "–")
                 if ctx.signer else ctx.t("not signed"))
    rows = [
        (ctx.t("Customer"), i.get("customer") or "–"),
        (ctx.t("Project"), i.get("project") or "–"),
        (ctx.t("Date"), ctx.report_date),
        (ctx.t("Author"), i.get("author") or (ctx.signer.name if ctx.signer else "–")),
        (ctx.t("Tool"), ctx.t("AI Sizer {version} (result schema {schema})",
                              version=r.tool_version, schema=str(r.schema_version))),
        (ctx.t("Catalog versions"), catalogs),
        (ctx.t("Signature"), signature),
    ]
    return [
        Spacer(1, 60),
        para(ctx.t("LLM infrastructure sizing report"), "cover_title"),
        para(i.get("name") or "–", "cover_sub"),
        key_values(ctx, rows, first=0.26),
        Spacer(1, 18),
        para(ctx.t("This report sizes the infrastructure that serves {model} for the "
                   "workload below: GPUs and their memory, speed and latency, redundancy, "
                   "servers, power and cooling. Every figure comes from the scenario and the "
                   "result attached to this PDF (scenario.json and result.json); the same "
                   "files reproduce the report with AI Sizer.", model=r.model["name"])),
        para(ctx.t("The figures are estimates from a calibrated model of the hardware and the "
                   "serving engine, with a band from its calibration errors (section "
                   "{accuracy}); the validation plan (section {plan}) says how to check them "
                   "on site.", accuracy=number_of(ctx, section_accuracy),
                   plan=number_of(ctx, section_validation)), "small"),
        PageBreak(),
    ]


# ----------------------------------------------------------------------------- 1 summary


def section_summary(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    c, s = r.selection.chosen, r.scale
    chosen_by = (ctx.t("given in the scenario") if r.selection.chosen_by == "user"
                 else ctx.t("chosen by the tool, ranked by {rank}",
                            rank=ranking(ctx, r.selection.chosen_by)))
    config = [
        (ctx.t("GPUs"), gpus_text(ctx)),
        (ctx.t("Number formats"), formats_text(ctx)),
        (ctx.t("Serving engine"), engine(r.inputs["serving"]["engine"], lang)),
        (ctx.t("Replicas"), ctx.t("{replicas} in total: {load} for the load, redundancy "
                                  "{redundancy}", replicas=s.replicas, load=s.replicas_for_load,
                                  redundancy=redundancy(ctx, s.redundancy))),
        (ctx.t("Servers"), plural(s.gpus_total, msg("{nodes} x {server}, {gpus} GPU in total"),
                                  msg("{nodes} x {server}, {gpus} GPUs in total"), nodes=s.nodes,
                                  server=s.server, gpus=s.gpus_total).text(lang)),
        (ctx.t("Configuration"), chosen_by),
        (ctx.t("Verdict"), word(lang, c.get("verdict", "–"))),
    ]
    flow: list[Flowable] = [heading(ctx, ctx.t("Executive summary")),
                            subheading(ctx, ctx.t("Recommended configuration")),
                            key_values(ctx, config, first=0.22),
                            subheading(ctx, ctx.t("Targets")), targets_table(ctx),
                            subheading(ctx, ctx.t("Key figures")), key_figures(ctx)]
    warnings = messages(r.warning_messages, r.warnings, lang)
    if warnings:
        flow += [subheading(ctx, ctx.t("Warnings")), bullets(warnings)]
    return flow


def targets_table(ctx: Context) -> Flowable:
    r, lang = ctx.result, ctx.lang
    p, m = r.performance, r.memory
    point, band = p.at_concurrency, p.band
    header = [ctx.t("Target"), ctx.t("Required"),
              plural(point.concurrency, msg("Expected at {users:,.0f} user"),
                     msg("Expected at {users:,.0f} users"), users=point.concurrency).text(lang),
              ctx.t("Band"), ctx.t("Result")]
    rows: list[list] = [[cell(h, "cell_head") for h in header]]
    colours: list[tuple] = []

    def add(name: str, required: str, expected: str, band_range: str, flag: bool,
            verdict: str | None = None) -> None:
        colours.append(("TEXTCOLOR", (4, len(rows)), (4, len(rows)), GOOD if flag else BAD))
        rows.append([cell(name), cell(required), cell(expected), cell(band_range),
                     verdict or met(flag, lang)])

    ttft = p.targets.get("ttft_s")
    if ttft is not None and "ttft" in p.targets_met:
        ranged = seconds_band(point.ttft_s, point.ttft_s / band.high, point.ttft_s / band.low,
                              lang)
        expected, _, band_range = ranged.partition(" (")
        add(ctx.t("Time to first token"), f"≤ {seconds(ttft, lang)}", expected,
            band_range.rstrip(")"), p.targets_met["ttft"])
    speed = p.targets.get("tokens_per_s_per_user")
    if speed is not None and "tokens_per_s_per_user" in p.targets_met:
        add(ctx.t("Tokens/s per user"), f"≥ {num(speed, ',.1f', lang)}",
            num(point.tokens_per_s_per_user, ",.1f", lang),
            f"{num(point.tokens_per_s_per_user * band.low, ',.1f', lang)} – "
            f"{num(point.tokens_per_s_per_user * band.high, ',.1f', lang)}",
            p.targets_met["tokens_per_s_per_user"])
    add(ctx.t("Memory at peak context"),
        ctx.t("≤ {usable} usable per GPU", usable=gb(m.gpu_usable_bytes, lang)),
        ctx.t("{needed} per GPU", needed=gb(m.per_gpu_bytes, lang)), "–", m.fits,
        ctx.t("fits") if m.fits else ctx.t("does not fit"))
    window = r.inputs["workload"].get("completion_window_hours")
    hours = r.scale.batch_completion_hours
    if window and hours is not None:
        add(ctx.t("Batch completion"), f"≤ {num(window, ',.1f', lang)} h",
            f"{num(hours, ',.1f', lang)} h", "–", hours <= window)
    widths = [0.24, 0.2, 0.2, 0.22, 0.14]
    return table(rows, [ctx.width * w for w in widths], extra=colours)


def key_figures(ctx: Context) -> Flowable:
    r, lang = ctx.result, ctx.lang
    p, f, s = r.performance, r.facility, r.scale
    point = p.at_concurrency
    rows = [
        (ctx.t("At the scenario's load (one replica)"),
         plural(point.concurrency,
                msg("{users:,.0f} user: {speed:,.1f} tokens/s, first token after {ttft}, "
                    "{total:,.0f} output tokens/s in all"),
                msg("{users:,.0f} users: {speed:,.1f} tokens/s each, first token after {ttft}, "
                    "{total:,.0f} output tokens/s in all"), users=point.concurrency,
                speed=point.tokens_per_s_per_user, ttft=seconds(point.ttft_s, lang),
                total=point.output_tokens_per_s).text(lang)),
        (ctx.t("Users per replica meeting both targets"),
         num(p.slo_capacity_per_replica, ",d", lang)),
        (ctx.t("Saturation (one replica)"),
         plural(p.saturation.concurrency,
                msg("{total:,.0f} output tokens/s with {users:,.0f} user"),
                msg("{total:,.0f} output tokens/s with {users:,.0f} users"),
                total=p.saturation.output_tokens_per_s,
                users=p.saturation.concurrency).text(lang)),
        # one GPU is in one server; several GPUs may share one server
        (ctx.t("Hardware"), plural(
            s.gpus_total, msg("{gpus} GPU in {nodes} server, {racks} rack(s)"),
            plural(s.nodes, msg("{gpus} GPUs in {nodes} server, {racks} rack(s)"),
                   msg("{gpus} GPUs in {nodes} servers, {racks} rack(s)")),
            gpus=s.gpus_total, nodes=s.nodes, racks=f.racks).text(lang)),
        (ctx.t("Power"), ctx.t("{it:,.1f} kW IT, {facility:,.1f} kW with cooling (PUE {pue})",
                               it=f.it_power_w / KW, facility=f.facility_power_w / KW,
                               pue=f.pue)),
        (ctx.t("Energy per year"), f"{num(f.annual_energy_kwh / 1e3, ',.1f', lang)} MWh"),
        (ctx.t("Capital cost (indicative)"), usd(r.cost.capital_usd, lang)),
    ]
    return key_values(ctx, rows, first=0.34)


# ----------------------------------------------------------------------------- 2 requirements


def section_requirements(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    i = r.inputs
    w, serving = i["workload"], i["serving"]
    rows = [
        (ctx.t("Scenario"), i.get("name") or "–"),
        (ctx.t("Model"), model_text(ctx)),
        (ctx.t("Workload"), word(lang, w["kind"].replace("_", " "))),
        (ctx.t("Concurrent users"), users_text(ctx)),
        (ctx.t("Request"), ctx.t("{prompt:,} prompt tokens, {output:,} output tokens, up to "
                                 "{context:,} tokens of context", prompt=w["prompt_tokens"],
                                 output=w["output_tokens"],
                                 context=w["max_context_tokens"] or r.memory.peak_context_tokens)),
    ]
    if w["kind"] == "batch_inference":
        rows.append((ctx.t("Batch volume"), ctx.t(
            "{tokens:,.0f} output tokens per day, {requests:,.0f} requests per hour, to finish "
            "within {window} h", tokens=w.get("tokens_per_day") or 0,
            requests=w.get("requests_per_hour") or 0,
            window=num(w.get("completion_window_hours"), ",.1f", lang))))
    rows += [
        (ctx.t("Targets"), targets_text(ctx)),
        (ctx.t("Number formats"), ctx.t(
            "weights {weights}, KV cache {kv}; formats allowed: {allowed}",
            weights=precision(i["precision"]["weights"]), kv=precision(i["precision"]["kv_cache"]),
            allowed=", ".join(precision(a) for a in i["precision"].get("allowed_weights") or [])
            or "–")),
        (ctx.t("Hardware"), hardware_text(ctx)),
        (ctx.t("Serving engine"), ctx.t(
            "{engine}: memory fraction {fraction}, batch limit {batch:,} sequences, "
            "{tokens:,} tokens per step", engine=engine(serving["engine"], lang),
            fraction=num(serving["memory_fraction"], "g", lang), batch=serving["max_batch_size"],
            tokens=serving["max_batched_tokens"])),
        (ctx.t("Availability"), ctx.t("redundancy {redundancy}, storage tier '{tier}'",
                                      redundancy=redundancy(ctx, i["availability"]["redundancy"]),
                                      tier=i["availability"]["storage_tier"])),
        (ctx.t("Sovereignty"), sovereignty_text(ctx)),
        (ctx.t("Factors set by the user"), ", ".join(
            f"{name} = {num(value, 'g', lang)}" for name, value in
            sorted((i.get("factor_overrides") or {}).items())) or ctx.t("none")),
    ]
    return [heading(ctx, ctx.t("Requirements")),
            para(ctx.t("What the scenario asks for, after the defaults were filled in (every "
                       "default is listed with its source in section {n}).",
                       n=number_of(ctx, section_assumptions))),
            key_values(ctx, rows, first=0.24)]


def targets_text(ctx: Context) -> str:
    targets = ctx.result.inputs.get("targets") or {}
    parts = []
    if targets.get("ttft_s") is not None:
        parts.append(ctx.t("time to first token at most {ttft}",
                           ttft=seconds(targets["ttft_s"], ctx.lang)))
    if targets.get("tokens_per_s_per_user") is not None:
        parts.append(ctx.t("at least {speed:,.1f} tokens/s per user",
                           speed=targets["tokens_per_s_per_user"]))
    return ", ".join(parts) or ctx.t("none (throughput only)")


def hardware_text(ctx: Context) -> str:
    i = ctx.result.inputs
    h = i.get("hardware")
    if h:
        return ctx.t("given: {n} x {gpu} (tensor parallel {t}, pipeline parallel {p})",
                     n=h["gpus_per_replica"], gpu=h["gpu"], t=h["tensor_parallel"],
                     p=h["pipeline_parallel"])
    sel = i.get("selection") or {}
    gpus = ", ".join(sel.get("gpus") or []) or ctx.t("every GPU in the catalog")
    most = sel.get("max_gpus_per_replica", 8)  # the scenario's default when not recorded
    return plural(most, msg("chosen by the tool among {gpus}, one GPU per replica, ranked by "
                            "{rank}"),
                  msg("chosen by the tool among {gpus}, up to {most} GPUs per replica, ranked "
                      "by {rank}"), gpus=gpus, most=most,
                  rank=ranking(ctx, str(sel.get("rank_by", "")))).text(ctx.lang)


def sovereignty_text(ctx: Context) -> str:
    s = ctx.result.inputs.get("sovereignty") or {}
    return ctx.t("on premises: {on_premises}; air-gapped: {air_gapped}; region: {region}",
                 on_premises=yes_no(s.get("on_premises", False), ctx.lang),
                 air_gapped=yes_no(s.get("air_gapped", False), ctx.lang),
                 region=s.get("region") or "–")


# ----------------------------------------------------------------------------- 3 memory


def section_memory(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    m = r.memory
    kv_gpu = max(0.0, m.per_gpu_bytes - m.weights_bytes_per_gpu - m.runtime_bytes_per_gpu)
    head = [cell(h, "cell_head") for h in (ctx.t("One GPU"), "GB", "GiB")]
    per_gpu = [
        (ctx.t("Weights"), m.weights_bytes_per_gpu),
        (ctx.t("KV cache at peak context"), kv_gpu),
        (ctx.t("Runtime and activations"), m.runtime_bytes_per_gpu),
        (ctx.t("Total needed"), m.per_gpu_bytes),
        (ctx.t("Usable by the engine"), m.gpu_usable_bytes),
        (ctx.t("GPU memory"), m.gpu_memory_bytes),
    ]
    rows = [head] + [[cell(name), num(v / GB, ",.1f", lang), num(v / GIB, ",.1f", lang)]
                     for name, v in per_gpu]
    bold_total = [("FONTNAME", (0, 4), (-1, 4), FONT_BOLD),
                  ("ALIGN", (1, 0), (-1, -1), "RIGHT")]
    users = m.concurrency_sized
    replica = [
        (ctx.t("Parameters"), ctx.t("{total:,.2f} billion ({active:,.2f} billion active)",
                                    total=m.params_total / 1e9, active=m.params_active / 1e9)),
        (ctx.t("Weights, whole replica"), f"{gb(m.weights_bytes, lang)} "
                                          f"({gib(m.weights_bytes, lang)})"),
        (ctx.t("KV cache per token"), f"{num(m.kv_bytes_per_token / 1024, ',.0f', lang)} KiB"),
        (ctx.t("KV cache per sequence at {context:,} tokens", context=m.peak_context_tokens),
         gib(m.kv_bytes_per_sequence, lang, ",.2f")),
        (plural(users, msg("KV cache for {users:,} sequence"),
                msg("KV cache for {users:,} sequences"), users=users).text(lang),
         ctx.t("{peak} at peak context, {average} at the average context ({tokens:,.0f} "
               "tokens)", peak=gb(m.kv_cache_bytes, lang), average=gb(m.kv_cache_bytes_average,
                                                                       lang),
               tokens=m.average_context_tokens)),
        (ctx.t("Sequences that fit at peak context"),
         ctx.t("{fit:,} per replica (engine batch limit {limit:,})",
               fit=m.max_concurrent_sequences, limit=m.batch_limit)),
        (ctx.t("Fits"), yes_no(m.fits, lang)),
    ]
    return [heading(ctx, ctx.t("Memory")),
            para(ctx.t("What one GPU of a replica must hold when every user is at the maximum "
                       "context, against what the serving engine may use.")),
            table(rows, [ctx.width * 0.5, ctx.width * 0.25, ctx.width * 0.25],
                  extra=bold_total),
            Spacer(1, 8),
            KeepTogether([charts.memory_chart(r, ctx.width, lang),
                          para(ctx.t("Figure: memory of one GPU at peak context."),
                               "caption")]),
            KeepTogether([subheading(ctx, ctx.t("Whole replica")),
                          key_values(ctx, replica, first=0.4)]),
            subheading(ctx, ctx.t("How the memory was found")),
            bullets(messages(m.messages, m.explanation, lang))]


# ----------------------------------------------------------------------------- 4 selection


def section_selection(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    sel = r.selection
    flow: list[Flowable] = [heading(ctx, ctx.t("GPU selection")),
                            bold(ctx.t("Chosen:"), f"{gpus_text(ctx)}; {formats_text(ctx)}.")]
    if sel.chosen_by == "user" or not sel.alternatives:
        flow.append(para(ctx.t("The configuration was given in the scenario and is evaluated "
                               "as given; no alternatives were ranked. Leave out the hardware "
                               "block of the scenario to let the tool choose.")))
        return flow
    shown = sel.alternatives[:ALTERNATIVES_SHOWN]
    flow.append(para(ctx.t("{count:,} other configurations were evaluated with the same "
                           "code and ranked by {rank}; the first {shown} are listed with the "
                           "reason each lost (all of them are in result.json).",
                           count=len(sel.alternatives),
                           rank=ranking(ctx, sel.chosen_by),
                           shown=len(shown))))
    header = [ctx.t("GPU"), ctx.t("GPUs (t x p)"), ctx.t("Formats"), ctx.t("Tokens/s per user"),
              ctx.t("TTFT"), ctx.t("GPUs in total"), ctx.t("Capital"), ctx.t("Verdict"),
              ctx.t("Why it lost")]
    rows: list[list] = [[cell(h, "cell_head") for h in header]]
    for a in shown:
        rows.append([
            cell(a.gpu, "cell_small"),
            cell(f"{a.gpus_per_replica} ({a.tensor_parallel} x {a.pipeline_parallel})",
                 "cell_small"),
            cell(f"{precision(a.precision)} / {precision(a.kv_precision)}", "cell_small"),
            cell(num(a.tokens_per_s_per_user, ",.1f", lang), "cell_small"),
            cell(seconds(a.ttft_s, lang), "cell_small"),
            cell(num(a.gpus_total, ",d", lang), "cell_small"),
            cell(num(a.capital_cost_usd, ",.0f", lang), "cell_small"),
            cell(word(lang, a.verdict), "cell_small"),
            cell(message(a.reason_message, a.reason, lang), "cell_small"),
        ])
    widths = [0.12, 0.08, 0.11, 0.08, 0.08, 0.07, 0.1, 0.11, 0.25]
    flow.append(table(rows, [ctx.width * w for w in widths]))
    if len(sel.alternatives) > len(shown):
        flow.append(para(ctx.t("{more:,} more in result.json.",
                               more=len(sel.alternatives) - len(shown)), "small"))
    return flow


# ----------------------------------------------------------------------------- 5 performance


def section_performance(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    p = r.performance
    flow: list[Flowable] = [
        heading(ctx, ctx.t("Performance")),
        para(ctx.t("One replica at three operating points. Each figure is expected to lie "
                   "between x{low} and x{high} of the value shown (the band, from the "
                   "calibration residuals of the serving engine's profile); times scale "
                   "inversely.", low=num(p.band.low, ".2f", lang),
                   high=num(p.band.high, ".2f", lang))),
        operating_points(ctx),
        Spacer(1, 6),
        KeepTogether([charts.tokens_per_user_chart(r, ctx.width, lang),
                      para(ctx.t("Figure: tokens/s each user sees against concurrent users, "
                                 "with the band, the target and the naive figure."),
                           "caption")]),
        KeepTogether([charts.throughput_chart(r, ctx.width, lang),
                      para(ctx.t("Figure: output tokens/s of one replica against concurrent "
                                 "users."), "caption")]),
        KeepTogether([charts.ttft_chart(r, ctx.width, lang),
                      para(ctx.t("Figure: time to first token of one user alone against "
                                 "prompt length."), "caption")]),
        subheading(ctx, ctx.t("The naive figure")),
        para(message(p.naive_message, p.naive_explanation, lang), "note"),
        subheading(ctx, ctx.t("Where the time of a decode step goes")),
        decode_table(ctx),
        subheading(ctx, ctx.t("How the performance was found")),
        bullets(messages(p.messages, p.explanation, lang)),
    ]
    if p.levers:
        flow += [subheading(ctx, ctx.t("What would meet the missed targets")), levers(ctx)]
    return flow


def operating_points(ctx: Context) -> Flowable:
    p, lang, band = ctx.result.performance, ctx.lang, ctx.result.performance.band
    points = (p.single_user, p.at_concurrency, p.saturation)
    header = ["", ctx.t("one user"), ctx.t("scenario load"), ctx.t("saturation")]

    def speed(value: float, spec: str) -> str:
        return band_text(ctx, value, value * band.low, value * band.high, spec)

    def time(value: float) -> str:
        return seconds_band(value, value / band.high, value / band.low, lang)

    rows = [[cell(h, "cell_head") for h in header],
            [cell(ctx.t("Concurrent users"))] + [num(x.concurrency, ",.0f", lang) for x in points],
            [cell(ctx.t("Time to first token"))] + [cell(time(x.ttft_s)) for x in points],
            [cell(ctx.t("Inter-token latency"))] + [cell(time(x.itl_s)) for x in points],
            [cell(ctx.t("Tokens/s per user"))] + [cell(speed(x.tokens_per_s_per_user, ",.1f"))
                                                  for x in points],
            [cell(ctx.t("Output tokens/s (replica)"))] + [
                cell(speed(x.output_tokens_per_s, ",.0f")) for x in points],
            [cell(ctx.t("Requests/s (replica)"))] + [num(x.requests_per_s, ",.2f", lang)
                                                     for x in points]]
    return table(rows, [ctx.width * w for w in (0.28, 0.24, 0.24, 0.24)])


def decode_table(ctx: Context) -> Flowable:
    d, lang = ctx.result.performance.decode_breakdown, ctx.lang
    parts = [(ctx.t("Reading the weights"), d.weights_read_s),
             (ctx.t("Reading the KV cache"), d.kv_read_s),
             (ctx.t("Compute"), d.compute_s),
             (ctx.t("Other users' prompts (prefill share)"), d.prefill_share_s),
             (ctx.t("Communication between GPUs"), d.communication_s),
             (ctx.t("Overheads"), d.overhead_s)]
    step = ctx.result.performance.at_concurrency.itl_s
    rows = [[cell(h, "cell_head") for h in (ctx.t("Part"), "ms")]]
    rows += [[cell(name), num(v * 1e3, ",.1f", lang)] for name, v in parts]
    label = (ctx.t("Decode step at the scenario's load (compute-bound)") if d.bound == "compute"
             else ctx.t("Decode step at the scenario's load (memory-bound)"))
    rows.append([cell(label), num(step * 1e3, ",.1f", lang)])
    extra = [("FONTNAME", (0, -1), (-1, -1), FONT_BOLD), ("ALIGN", (1, 0), (-1, -1), "RIGHT")]
    return KeepTogether([
        table(rows, [ctx.width * 0.75, ctx.width * 0.25], extra=extra),
        para(ctx.t("Reading the weights overlaps with compute and the prefill share (the "
                   "longer of the two counts), so the step is shorter than the sum of its "
                   "parts."), "small")])


def levers(ctx: Context) -> Flowable:
    lang = ctx.lang
    header = [ctx.t("Change"), ctx.t("Target"), ctx.t("Figure after"), ctx.t("Meets both"),
              ctx.t("Note")]
    rows: list[list] = [[cell(h, "cell_head") for h in header]]
    for lever in ctx.result.performance.levers:
        if lever.target == "ttft":
            after = seconds(lever.value_after, lang)
        else:
            after = ctx.t("{value:,.1f} tokens/s", value=lever.value_after)
        rows.append([cell(message(lever.change_message, lever.change, lang)),
                     cell(ctx.t("time to first token") if lever.target == "ttft"
                          else ctx.t("tokens/s per user")),
                     cell(after), yes_no(lever.meets, lang),
                     cell(message(lever.note_message, lever.note, lang))])
    return table(rows, [ctx.width * w for w in (0.38, 0.16, 0.14, 0.1, 0.22)])


# ----------------------------------------------------------------------------- 6 scale


def section_scale(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    s = r.scale
    rows = [
        (ctx.t("Redundancy"), redundancy(ctx, s.redundancy)),
        (ctx.t("Replicas"), plural(s.replicas_for_load, msg("{replicas} ({load} carries the load)"),
                                   msg("{replicas} ({load} carry the load)"), replicas=s.replicas,
                                   load=s.replicas_for_load).text(lang)),
        (ctx.t("Servers"), plural(
            s.gpus_per_node, msg("{nodes} x {server} ({per_node} GPU each, {replicas} replica(s) "
                                 "per server, {span} server(s) per replica)"),
            msg("{nodes} x {server} ({per_node} GPUs each, {replicas} replica(s) per server, "
                "{span} server(s) per replica)"),
            nodes=s.nodes, server=s.server, per_node=s.gpus_per_node,
            replicas=s.replicas_per_node, span=s.nodes_per_replica).text(lang)),
        (ctx.t("GPUs in total"), num(s.gpus_total, ",d", lang)),
        (ctx.t("Autoscaling"), replica_range(s.autoscale_min_replicas,
                                             s.autoscale_max_replicas).text(lang)),
        (ctx.t("Cold start"), ctx.t("about {time} from storage tier '{tier}'",
                                    time=seconds(s.cold_start_s, lang), tier=s.storage_tier)),
    ]
    if s.batch_completion_hours is not None:
        rows.append((ctx.t("Batch completion"),
                     f"{num(s.batch_completion_hours, ',.1f', lang)} h"))
    if s.compute_racks:
        rows.append((ctx.t("Racks"), ctx.t("{racks} with servers, at most {nodes} server(s) "
                                           "in one", racks=s.compute_racks,
                                           nodes=s.nodes_in_fullest_rack)))
    return [heading(ctx, ctx.t("Redundancy and scale")),
            key_values(ctx, rows, first=0.24),
            Spacer(1, 6),
            *failure_notes(ctx),
            bullets(scale_bullets(s, lang))]


def failure_notes(ctx: Context) -> list[Flowable]:
    """What still serves when a node fails and when a rack fails (with the redundancy note)."""
    s, lang = ctx.result.scale, ctx.lang
    notes = [bold(ctx.t("When a node fails:"),
                  message(s.failure_message, s.failure_statement, lang), "note")]
    if s.rack_failure_statement:
        rack = message(s.rack_failure_message, s.rack_failure_statement, lang)
        note = message(s.rack_redundancy_message, "", lang)
        notes.append(bold(ctx.t("When a rack fails:"), f"{rack} {note}".strip(), "note"))
    return notes


def scale_bullets(s: ScaleResult, lang: str) -> list[str]:
    """The Step 5 sentences less the failure statements the notes above give."""
    shown = [s.failure_message, s.rack_failure_message, s.rack_redundancy_message]
    if s.messages:
        return [m.text(lang) for m in s.messages if m not in shown]
    said = {s.failure_statement, s.rack_failure_statement}
    return [text for text in s.explanation if text not in said]


# ----------------------------------------------------------------------------- 7 infrastructure


def section_infrastructure(ctx: Context) -> list[Flowable]:
    if ctx.result.infrastructure is None:
        return first_order_infrastructure(ctx)
    infra = ctx.result.infrastructure
    flow: list[Flowable] = [
        heading(ctx, ctx.t("Infrastructure")),
        para(ctx.t("The physical deployment around the replicas: power, cooling, racks, "
                   "electrical feeds, networks, storage, the topology and the bill of "
                   "materials with an indicative cost.")),
        *infra_power(ctx), *infra_racks(ctx), *infra_network(ctx), *infra_storage(ctx),
        KeepTogether([subheading(ctx, ctx.t("Topology")),
                      charts.topology_chart(ctx.result, ctx.width, ctx.lang),
                      para(ctx.t("Figure: servers, their GPUs and the networks that connect "
                                 "them (schematic)."), "caption")]),
        *infra_cost(ctx),
    ]
    notes = [m.text(ctx.lang) for m in infra.warnings]
    if notes:
        flow += [subheading(ctx, ctx.t("Infrastructure notes")), bullets(notes)]
    return flow


def infra_power(ctx: Context) -> list[Flowable]:
    infra, lang = ctx.result.infrastructure, ctx.lang
    p, c, e = infra.power, infra.cooling, infra.electrical

    def kw(watts: float) -> str:
        return f"{num(watts / KW, ',.1f', lang)} kW"

    power = [
        (ctx.t("One server (maximum / typical)"), f"{kw(p.node_max_w)} / {kw(p.node_typical_w)}"),
        (ctx.t("Compute, network, storage"),
         f"{kw(p.compute_w)}, {kw(p.network_w)}, {kw(p.storage_w)}"),
        (ctx.t("IT power (maximum / typical)"), f"{kw(p.it_max_w)} / {kw(p.it_typical_w)}"),
        (ctx.t("Facility power (PUE {pue})", pue=p.pue), kw(p.facility_w)),
    ]
    cooling = [
        (ctx.t("Cooling"), ctx.t(COOLING.get(c.kind, c.kind))),
        (ctx.t("Heat to remove"), ctx.t("{btu:,.0f} BTU/h ({tons:,.2f} tons of refrigeration)",
                                        btu=c.heat_btu_per_h, tons=c.tons)),
        (ctx.t("Airflow"), ctx.t("{cfm:,.0f} CFM ({share:,.0f} % of the heat by air)",
                                 cfm=c.airflow_cfm, share=c.air_share * 100)),
        (ctx.t("Liquid flow"), f"{num(c.liquid_l_per_min, ',.1f', lang)} L/min"),
        (ctx.t("Rack limit"), kw(c.rack_limit_w)),
    ]
    electrical = [
        (ctx.t("Supply"), ctx.t("{volts:,.0f} V three-phase, power factor {pf}",
                                volts=e.voltage_v, pf=num(e.power_factor, "g", lang))),
        (ctx.t("Feeds"), ctx.t("A and B (each carries the whole rack)") if e.ab_feeds
         else ctx.t("one feed")),
        (ctx.t("Highest rack current"), f"{num(e.max_rack_current_a, ',.1f', lang)} A"),
        (ctx.t("Rack PDUs"), ctx.t("{per_rack} per rack and feed, {total} in total, rated "
                                   "{amps:,.0f} A", per_rack=e.pdus_per_rack_per_feed,
                                   total=e.pdus_total, amps=e.pdu_rating_a)),
    ]
    return [KeepTogether([subheading(ctx, ctx.t("Power")), key_values(ctx, power)]),
            KeepTogether([subheading(ctx, ctx.t("Cooling")), key_values(ctx, cooling)]),
            KeepTogether([subheading(ctx, ctx.t("Electrical feeds")),
                          key_values(ctx, electrical)])]


def infra_racks(ctx: Context) -> list[Flowable]:
    lang = ctx.lang
    rows: list[list] = [[cell(h, "cell_head") for h in (
        ctx.t("Rack"), ctx.t("Kind"), ctx.t("Units"), ctx.t("Power / limit"),
        ctx.t("Holds"))]]
    for number, rack in enumerate(ctx.result.infrastructure.racks, 1):
        rows.append([str(number), cell(rack.kind), num(rack.units_used, ",d", lang),
                     f"{num(rack.power_w / KW, ',.1f', lang)} / "
                     f"{num(rack.limit_w / KW, ',.0f', lang)} kW",
                     cell(", ".join(rack.items), "cell_small")])
    widths = [0.07, 0.13, 0.08, 0.16, 0.56]
    return [subheading(ctx, ctx.t("Racks")),
            table(rows, [ctx.width * w for w in widths])]


def infra_network(ctx: Context) -> list[Flowable]:
    net, lang = ctx.result.infrastructure.network, ctx.lang
    flow: list[Flowable] = [subheading(ctx, ctx.t("Networks")),
                            bold(ctx.t("Scale-up:"),
                                 message(net.scale_up_message, net.scale_up, lang))]
    f = net.fabric
    if f is None:
        flow.append(bold(ctx.t("Scale-out fabric:"),
                         message(net.fabric_reason_message, net.fabric_reason, lang)))
    else:
        flow.append(bold(ctx.t("Scale-out fabric:"), ctx.t(
            "{tiers}-tier fat tree of {switch} ({radix} ports of {speed:,.0f} Gb/s): "
            "{leaves} leaf, {spines} spine and {cores} core switches for {endpoints:,} GPUs, "
            "{nics:,} NICs, {transceivers:,} transceivers, cables per tier {cables}, "
            "oversubscription {over}:1 (two tiers reach {limit:,} endpoints).",
            tiers=f.tiers, switch=f.switch, radix=f.radix, speed=f.port_gbps, leaves=f.leaves,
            spines=f.spines, cores=f.cores, endpoints=f.endpoints, nics=f.nics,
            transceivers=f.transceivers, cables=", ".join(str(c) for c in f.cables_per_tier),
            over=num(f.oversubscription, "g", lang), limit=f.two_tier_limit)))
    rows: list[list] = [[cell(h, "cell_head") for h in (
        ctx.t("Network"), ctx.t("Switch"), ctx.t("Count"), ctx.t("Ports used"),
        ctx.t("Power"))]]
    for g in net.groups:
        rows.append([cell(g.network), cell(g.switch_name), num(g.count, ",d", lang),
                     num(g.ports_used, ",d", lang), f"{num(g.power_w / KW, ',.1f', lang)} kW"])
    flow.append(table(rows, [ctx.width * w for w in (0.18, 0.42, 0.1, 0.14, 0.16)]))
    return flow


def infra_storage(ctx: Context) -> list[Flowable]:
    st, lang = ctx.result.infrastructure.storage, ctx.lang

    def rate(value: float) -> str:
        return f"{num(value / GB, ',.1f', lang)} GB/s" if value else "–"

    rows: list[list] = [[cell(h, "cell_head") for h in (
        ctx.t("Tier"), ctx.t("Purpose"), ctx.t("Capacity"), ctx.t("Read"), ctx.t("Write"))]]
    for line in st.lines:
        rows.append([cell(line.tier), cell(line.purpose), gb(line.capacity_bytes, lang),
                     rate(line.read_bytes_per_s), rate(line.write_bytes_per_s)])
    rows.append([cell(ctx.t("Total")), "", gb(st.total_bytes, lang), "", ""])
    extra = [("FONTNAME", (0, -1), (-1, -1), FONT_BOLD)]
    return [KeepTogether([
        subheading(ctx, ctx.t("Storage")),
        para(ctx.t("Storage class '{preset}': {read} read and {write} write per server; "
                   "local NVMe {local}.", preset=st.preset,
                   read=rate(st.read_bytes_per_s_per_node),
                   write=rate(st.write_bytes_per_s_per_node),
                   local=gb(st.local_nvme_bytes, lang))),
        table(rows, [ctx.width * w for w in (0.18, 0.38, 0.16, 0.14, 0.14)], extra=extra)])]


def infra_cost(ctx: Context) -> list[Flowable]:
    infra, lang = ctx.result.infrastructure, ctx.lang
    e = infra.energy
    sources: list[str] = []
    rows: list[list] = [[cell(h, "cell_head") for h in (
        ctx.t("Item"), ctx.t("Quantity"), ctx.t("Unit price"), ctx.t("Total"),
        ctx.t("Source"))]]
    for line in infra.cost_lines:
        if line.source not in sources:
            sources.append(line.source)
        item = line.item + (" *" if line.estimated else "")
        rows.append([cell(item), num(line.quantity, ",.4g", lang), usd_cell(line.unit_usd, lang),
                     usd_cell(line.total_usd, lang), f"[{sources.index(line.source) + 1}]"])
    rows.append([cell(ctx.t("Capital cost (indicative)")), "", "", usd(infra.capital_usd, lang),
                 ""])
    extra = [("FONTNAME", (0, -1), (-1, -1), FONT_BOLD), ("ALIGN", (1, 1), (3, -1), "RIGHT")]
    running = [
        (ctx.t("Energy per year"), ctx.t(
            "{kwh:,.0f} kWh at {use:,.0f} % utilisation, {cost}", kwh=e.annual_kwh,
            use=e.utilisation * 100, cost=usd(e.annual_cost_usd, lang))),
        (ctx.t("Emissions per year"), ctx.t("{kg:,.0f} kg CO2e", kg=e.annual_co2e_kg)
         if e.annual_co2e_kg is not None else ctx.t("no grid factor given")),
        (ctx.t("Colocation per year"), usd(e.annual_colocation_usd, lang)),
        (ctx.t("Running cost per year"), usd(infra.annual_running_usd, lang)),
        (ctx.t("Total cost of ownership"), ctx.t("{cost} over {years:g} years",
                                                 cost=usd(infra.tco_usd, lang),
                                                 years=infra.years)),
        (ctx.t("Cost per million output tokens"),
         usd_precise(infra.cost_per_million_tokens_usd, lang)),
    ]
    return [subheading(ctx, ctx.t("Bill of materials and cost")),
            table(rows, [ctx.width * w for w in (0.44, 0.1, 0.16, 0.18, 0.12)], extra=extra),
            para(ctx.t("* estimated with a planning rule where no price is published. Prices "
                       "are indicative and dated; street prices vary."), "small"),
            *[para(f"[{n}] {source}", "small") for n, source in enumerate(sources, 1)],
            KeepTogether([subheading(ctx, ctx.t("Running cost")), key_values(ctx, running)])]


def usd_cell(value: float | None, lang: str) -> str:
    return "–" if value is None else usd(value, lang)


def usd_precise(value: float | None, lang: str) -> str:
    return "–" if value is None else f"USD {num(value, ',.2f', lang)}"


def first_order_infrastructure(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    f, c = r.facility, r.cost
    rows = [
        (ctx.t("IT power (maximum)"), f"{num(f.it_power_w / KW, ',.1f', lang)} kW"),
        (ctx.t("Power usage effectiveness (PUE)"), num(f.pue, "g", lang)),
        (ctx.t("Facility power"), f"{num(f.facility_power_w / KW, ',.1f', lang)} kW"),
        (ctx.t("Heat to remove"), ctx.t("{btu:,.0f} BTU/h ({tons:,.2f} tons of refrigeration)",
                                        btu=f.heat_btu_per_h, tons=f.cooling_tons)),
        (ctx.t("Cooling"), ctx.t(COOLING.get(f.cooling, f.cooling))),
        (ctx.t("Racks"), num(f.racks, ",d", lang)),
        (ctx.t("Energy per year"), f"{num(f.annual_energy_kwh, ',.0f', lang)} kWh"),
        (ctx.t("Capital cost (indicative)"), usd(c.capital_usd, lang)),
        (ctx.t("of which GPUs"), usd(c.gpus_usd, lang)),
        (ctx.t("of which servers"), usd(c.servers_usd, lang)),
    ]
    return [heading(ctx, ctx.t("Infrastructure (first-order figures)")),
            para(ctx.t("First-order figures from the sizing: power from the servers' and GPUs' "
                       "ratings, heat, racks by space and power, energy and an indicative "
                       "capital cost. The detailed infrastructure sections (rack layout, "
                       "electrical feeds, cooling design, network fabric, storage, topology "
                       "diagram and bill of materials) come with the infrastructure feature of "
                       "AI Sizer and are not part of this report."), "note"),
            key_values(ctx, rows, first=0.36),
            Spacer(1, 4),
            para(ctx.t("Cost note: {note}",
                       note=" ".join(messages(c.note_messages, [c.note], lang))), "small")]


# ----------------------------------------------------------------------------- workloads


DAY_S = 86_400.0


def duration(ctx: Context, value_s: float) -> str:
    """Days, or hours below two days."""
    if value_s < 2 * DAY_S:
        return ctx.t("{hours:,.1f} h", hours=value_s / 3600)
    return ctx.t("{days:,.1f} days", days=value_s / DAY_S)


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
        (ctx.t("GPUs"), ctx.t("{n} x {gpu} on {nodes} node(s); {how}", n=tr.gpus_total,
                              gpu=tr.gpu, nodes=tr.nodes, how=how)),
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
        heading(ctx, ctx.t("Training")),
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


def section_rag(ctx: Context) -> list[Flowable]:
    g, lang = ctx.result.rag, ctx.lang
    if g is None:
        return []
    rows = [
        (ctx.t("Corpus"), ctx.t("{docs:,} documents, {tokens:,.0f} tokens, {chunks:,.0f} "
                                "chunks", docs=g.documents, tokens=g.tokens_corpus,
                                chunks=g.chunks)),
        (ctx.t("Embedding"), ctx.t(
            "{params:,.0f} million parameters, {dim:,} dimensions, on {n} x {gpu}: "
            "{tokens:,.0f} tokens embedded in {time}", params=g.embedding_params / 1e6,
            dim=g.embedding_dim, n=g.embedding_gpus, gpu=g.embedding_gpu,
            tokens=g.tokens_embedded, time=duration(ctx, g.indexing_time_s))),
        (ctx.t("Vector index"), ctx.t("{index}: {memory} in memory ({vectors} of raw vectors), "
                                      "{disk} on disk with the chunk text",
                                      index=g.index.upper(),
                                      memory=gb(g.index_memory_bytes, lang),
                                      vectors=gb(g.vectors_bytes, lang),
                                      disk=gb(g.index_storage_bytes, lang))),
        (ctx.t("Retrieval"), ctx.t(
            "{latency} per query; time to first token {with_r} instead of {without} "
            "({tokens:,} prompt tokens added)", latency=seconds(g.retrieval_latency_s, lang),
            with_r=seconds(g.ttft_with_retrieval_s, lang), without=seconds(g.ttft_s, lang),
            tokens=g.added_prompt_tokens)),
        (ctx.t("Re-indexing"), ctx.t("{share:,.1f} % of the corpus per day: {hours:,.2f} "
                                     "GPU-hours per day", share=g.reindex_per_day * 100,
                                     hours=g.reindex_gpu_hours_per_day)),
    ]
    return [heading(ctx, ctx.t("Retrieval (RAG)")),
            para(ctx.t("Indexing the corpus, the vector index and the latency retrieval adds "
                       "to each answer.")),
            key_values(ctx, rows, first=0.2),
            subheading(ctx, ctx.t("How retrieval was sized")),
            bullets(messages(g.messages, g.explanation, lang))]


def section_cpu(ctx: Context) -> list[Flowable]:
    c, lang = ctx.result.cpu, ctx.lang
    if c is None:
        return []
    header = [plural(c.users, msg("At the scenario's load ({users:,.0f} user)"),
                     msg("At the scenario's load ({users:,.0f} users)"), users=c.users).text(lang),
              ctx.t("CPU"), "GPU"]
    rows: list[list] = [[cell(h, "cell_head") for h in header]]
    rows += [
        [cell(ctx.t("Tokens/s per user")), num(c.tokens_per_s_per_user, ",.1f", lang),
         num(c.gpu_tokens_per_s_per_user, ",.1f", lang)],
        [cell(ctx.t("Output tokens/s in all")), num(c.output_tokens_per_s, ",.0f", lang),
         num(c.gpu_output_tokens_per_s, ",.0f", lang)],
        [cell(ctx.t("Time to first token")), seconds(c.ttft_s, lang),
         seconds(c.gpu_ttft_s, lang)],
    ]
    facts = [
        (ctx.t("CPU"), ctx.t("{n} x {cpu}, {bandwidth:,.0f} GB/s memory bandwidth "
                             "({share:.0%} reached)", n=c.sockets, cpu=c.cpu_name,
                             bandwidth=c.memory_bandwidth_bytes_per_s / GB,
                             share=c.bandwidth_efficiency)),
        (ctx.t("Weights"), f"{c.weights}, {gb(c.weights_bytes, lang)}"),
        (ctx.t("One user alone"), ctx.t("{speed:,.1f} tokens/s, first token after {ttft}",
                                        speed=c.single_user_tokens_per_s,
                                        ttft=seconds(c.single_user_ttft_s, lang))),
        (ctx.t("Users within the targets"), num(c.users_meeting_speed, ",d", lang)),
        (ctx.t("Power and price"), f"{num(c.power_w / KW, ',.2f', lang)} kW, "
                                   f"{usd(c.price_usd, lang)}"),
    ]
    return [heading(ctx, ctx.t("CPU inference")),
            para(message(c.verdict_message, c.verdict_text, lang), "note"),
            table(rows, [ctx.width * w for w in (0.5, 0.25, 0.25)],
                  extra=[("ALIGN", (1, 0), (-1, -1), "RIGHT")]),
            Spacer(1, 6),
            key_values(ctx, facts, first=0.24),
            subheading(ctx, ctx.t("How the comparison was made")),
            bullets(messages(c.messages, c.explanation, lang))]


# ------------------------------------------------------------------------- compared options


def compared_rows(ctx: Context, r: SizingResult) -> list[str]:
    """One column of the comparison: the key figures of one sizing."""
    lang, c = ctx.lang, r.selection.chosen
    at = r.performance.at_concurrency
    capital = r.infrastructure.capital_usd if r.infrastructure else r.cost.capital_usd
    return [
        f"{c['gpus_per_replica']} x {c['gpu']}",
        f"{c['precision']} / {c['kv_precision']}",
        ctx.t("yes") if r.memory.fits else ctx.t("no"),
        f"{gb(r.memory.per_gpu_bytes, lang)} / {gb(r.memory.gpu_usable_bytes, lang)}",
        num(r.performance.slo_capacity_per_replica, ",d", lang),
        num(at.tokens_per_s_per_user, ",.1f", lang),
        seconds(at.ttft_s, lang),
        num(r.performance.saturation.output_tokens_per_s, ",.0f", lang),
        f"{r.scale.replicas} / {r.scale.gpus_total}",
        num(r.facility.it_power_w / KW, ",.1f", lang) + " kW",
        usd(capital, lang),
    ]


COMPARED_LABELS = ("GPU x count per replica", "Weights / KV cache", "Fits in memory",
                   "VRAM per GPU (used / usable)", "Users per replica within the targets",
                   "Tokens/s per user at load", "Time to first token at load",
                   "Saturation throughput (tokens/s)", "Replicas / GPUs", "IT power",
                   "Indicative capital cost")


def section_compared(ctx: Context) -> list[Flowable]:
    """The options the user pinned beside this sizing (none: no section)."""
    if not ctx.compared:
        return []
    options = [(ctx.t("This sizing"), ctx.result), *ctx.compared]
    header = [cell(ctx.t("Key figure"), "cell_head")]
    header += [cell(name, "cell_head") for name, _ in options]
    columns = [compared_rows(ctx, r) for _, r in options]
    rows = [header] + [[cell(ctx.t(label))] + [cell(col[i]) for col in columns]
                       for i, label in enumerate(COMPARED_LABELS)]
    first = 0.28
    rest = (1 - first) / len(options)
    return [heading(ctx, ctx.t("Compared options")),
            para(ctx.t("The options pinned for comparison, each sized with the same method and "
                       "catalogs; figures are per replica unless stated.")),
            table(rows, [ctx.width * first] + [ctx.width * rest] * len(options))]


# ----------------------------------------------------------------------------- 8 validation


def section_validation(ctx: Context) -> list[Flowable]:
    r = ctx.result
    prompt, output = plan.lengths(r)
    levels = plan.levels(r)
    flow: list[Flowable] = [
        heading(ctx, ctx.t("Validation plan")),
        para(ctx.t("A sizing is an estimate until it is measured. Before relying on it, load "
                   "one replica on site with the scenario's requests ({prompt:,} prompt tokens, "
                   "{output:,} output tokens) at the levels below. Send the requests to one "
                   "replica directly, not through the load balancer, so that the figures "
                   "compare with the per-replica figures of this report.", prompt=prompt,
                   output=output)),
        para(ctx.t("Set the model name and the replica's address first:")),
        code(plan.ENV),
        subheading(ctx, ctx.t("With vLLM's benchmark (vllm bench serve)")),
    ]
    for level in levels:
        flow.append(KeepTogether([
            para(concurrent_users(ctx, level), "small"), code(plan.vllm_bench(r, level))]))
    flow.append(subheading(ctx, ctx.t("With NVIDIA AIPerf")))
    for level in levels:
        flow.append(KeepTogether([
            para(concurrent_users(ctx, level), "small"), code(plan.aiperf(r, level))]))
    flow += [subheading(ctx, ctx.t("Expected figures (one replica, with the band)")),
             expected_table(ctx, levels),
             para(ctx.t("The sizing holds when the measured medians lie inside the band at "
                        "every level and no request fails. Compare TTFT with the median and "
                        "90th percentile TTFT, tokens/s per user with 1 / median inter-token "
                        "latency (TPOT), and output tokens/s with the output throughput. A "
                        "measurement below the band: calibrate AI Sizer with it and size "
                        "again before adding hardware."))]
    return flow


def concurrent_users(ctx: Context, level: plan.Level) -> str:
    """The heading of one benchmark level: 'One user: 1 concurrent user'."""
    return plural(level.concurrency, msg("{level}: {users} concurrent user"),
                  msg("{level}: {users} concurrent users"),
                  level=capitalised(ctx.t(level.name)), users=level.concurrency).text(ctx.lang)


def expected_table(ctx: Context, levels: list[plan.Level]) -> Flowable:
    lang = ctx.lang
    header = [ctx.t("Level"), ctx.t("Users"), ctx.t("TTFT"), ctx.t("Inter-token latency"),
              ctx.t("Tokens/s per user"), ctx.t("Output tokens/s")]
    rows: list[list] = [[cell(h, "cell_head") for h in header]]
    for level in levels:
        e = plan.expected(ctx.result, level)

        def time(x: plan.Expected) -> str:
            return seconds_band(x.value, x.low, x.high, lang)

        rows.append([cell(ctx.t(level.name)), str(level.concurrency), cell(time(e["ttft_s"])),
                     cell(time(e["itl_s"])),
                     cell(band_text(ctx, e["tokens_per_s_per_user"].value,
                                    e["tokens_per_s_per_user"].low,
                                    e["tokens_per_s_per_user"].high, ",.1f")),
                     cell(band_text(ctx, e["output_tokens_per_s"].value,
                                    e["output_tokens_per_s"].low,
                                    e["output_tokens_per_s"].high, ",.0f"))])
    widths = [0.16, 0.08, 0.2, 0.2, 0.17, 0.19]
    return table(rows, [ctx.width * w for w in widths])


# ----------------------------------------------------------------------------- 9 stack


def autoscaling_clause(ctx: Context, low: int, high: int) -> str:
    """'autoscaling between 1 and 3 replicas'; without a range, the fixed count."""
    if low < high:
        return ctx.t("autoscaling between {low} and {high} replicas", low=low, high=high)
    return plural(low, msg("{n} replica, without autoscaling"),
                  msg("{n} replicas, without autoscaling"), n=low).text(ctx.lang)


def section_stack(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    s, c, i = r.scale, r.selection.chosen, r.inputs
    targets = i.get("targets") or {}
    air_gapped = (i.get("sovereignty") or {}).get("air_gapped", False)
    command = plan.serve_command(r)
    serving: list[Flowable] = [bold(ctx.t("Serving:"), ctx.t(
        "{engine} with tensor parallel {t} and pipeline parallel {p}, {formats}, maximum "
        "context {context:,} tokens, memory fraction {fraction}, batch limit {batch:,}, "
        "{tokens:,} tokens per step.", engine=engine(i["serving"]["engine"], lang),
        t=c["tensor_parallel"], p=c["pipeline_parallel"], formats=formats_text(ctx),
        context=i["workload"]["max_context_tokens"] or r.memory.peak_context_tokens,
        fraction=num(i["serving"]["memory_fraction"], "g", lang),
        batch=i["serving"]["max_batch_size"], tokens=i["serving"]["max_batched_tokens"]),
        "bullet")]
    if command:
        serving.append(code(command))
    network = (ctx.t("an isolated network: a private endpoint behind a load balancer and no "
                     "outbound traffic; model weights, container images and updates come "
                     "through an internal registry.") if air_gapped else
               ctx.t("a private network segment with a load balancer in front of the "
                     "replicas; outbound traffic only as the site's policy allows."))
    alerts = []
    if targets.get("ttft_s") is not None:
        alerts.append(ctx.t("TTFT above {ttft}", ttft=seconds(targets["ttft_s"], lang)))
    if targets.get("tokens_per_s_per_user") is not None:
        alerts.append(ctx.t("tokens/s per user below {speed:,.1f}",
                            speed=targets["tokens_per_s_per_user"]))
    items: list[Flowable | str] = [
        bold(ctx.t("Orchestration:"), plural(
            s.nodes,
            msg("Kubernetes with the NVIDIA GPU Operator (driver, container toolkit, device "
                "plugin, DCGM exporter) on one GPU server; one replica per pod with {gpus} "
                "GPU(s); {autoscaling}."),
            msg("Kubernetes with the NVIDIA GPU Operator (driver, container toolkit, device "
                "plugin, DCGM exporter) on {nodes} GPU servers; one replica per pod with {gpus} "
                "GPU(s); replicas spread over servers (anti-affinity) so that losing one leaves "
                "the load served; {autoscaling}."), nodes=s.nodes,
            gpus=c["gpus_per_replica"],
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
    return [heading(ctx, ctx.t("Recommended stack")), bullets(items)]


# ----------------------------------------------------------------------------- 10 assumptions

FORMULAS: list[tuple[str, str, str]] = [
    # (quantity, formula, METHOD.md section): docs/METHOD.md, as implemented by app/engine.
    ("Weights", "quantisable matrices x bytes per element + embedding, head, norms at 16 bit",
     "Step 2"),
    ("KV cache per token and layer", "2 x n_kv_per_rank x d_h x bytes, "
     "n_kv_per_rank = max(1, ceil(n_kv / t))", "Step 2"),
    ("Capacity of a GPU", "memory fraction x GPU memory (vLLM, SGLang); "
     "0.95 x (memory - weights - runtime) for the KV cache (TensorRT-LLM)", "Step 2"),
    ("Sequences that fit", "floor(KV budget / KV per sequence at peak context), capped by the "
     "batch limit", "Step 2"),
    ("Decode step (ITL)", "p x (t_gemm + t_attn + t_comm + L/p x layer overhead) + step "
     "overhead", "Step 4"),
    ("Weight and compute time", "t_gemm = max(W_touched / (t p) / (BW x eta_mem), "
     "2 P_active b / (t p) / (peak x eta_decode) + prefill FLOPs / (peak x eta_prefill))",
     "Step 4"),
    ("Attention time", "t_attn = max(b c kv_per_token_per_gpu / (BW x eta_kv), "
     "4 L n_h d_h b c / t / (peak x eta_decode))", "Step 4"),
    ("Communication", "t_comm = 2 L/p x (alpha + 2 (t-1)/t x n_tokens h 2 B / (link x "
     "eta_link))", "Step 4"),
    ("Prefill", "2 P_active P + 2 L P^2 n_h d_h FLOPs, in chunks of the token budget",
     "Step 4"),
    ("Load (Little's law)", "X = B / (o x ITL), C = X x (TTFT + o x ITL)", "Step 4"),
    ("Naive figure", "memory bandwidth / model size (one GPU, weights only)", "Step 4"),
    ("Replicas for load", "online: ceil(users / SLO capacity); batch: ceil(tokens/s needed / "
     "(saturation x 0.8))", "Step 5"),
    ("Cold start", "weights on the node / (storage read x 0.7) + 60 s", "Step 5"),
    ("Replicas after a failure", "node: R - ceil(R / N); rack: R - the most replicas one rack "
     "holds (even over the N nodes, the extra ones across the racks; 0 with one rack)",
     "Step 5"),
    ("Facility power and heat", "IT power x PUE; BTU/h = W x 3.412; tons = BTU/h / 12,000",
     "Step 5"),
    ("Energy per year", "facility power x 8,760 h x 70 %", "Step 5"),
]
SYMBOLS = ("L layers, h hidden size, n_h attention heads, n_kv KV heads, d_h head dimension, "
           "t tensor parallel, p pipeline parallel, b decode batch, c context, P prompt "
           "tokens, o output tokens, B sequences in a step, BW memory bandwidth, peak dense "
           "FLOP/s of the format, eta calibrated efficiencies, alpha latency per all-reduce.")


def assumption_cell(a: Assumption, lang: str) -> Paragraph:
    """The readable name of an assumption, its id (as in the result JSON and the scenario's
    factor_overrides) small and grey under it."""
    grey = f"#{MUTED.hexval()[2:]}"
    return Paragraph(f'{markup(a.label(lang))}<br/><font size="6" color="{grey}">'
                     f"{markup(a.name)}</font>", styles()["cell_small"])


def section_assumptions(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    sources: list[str] = []
    rows: list[list] = [[cell(h, "cell_head") for h in (
        ctx.t("Assumption"), ctx.t("Value"), ctx.t("Unit"), ctx.t("Set by user"),
        ctx.t("Source"))]]
    for a in r.assumptions:
        source = a.source_text(lang)
        if source not in sources:
            sources.append(source)
        value, unit = quantity(a.value, a.unit, lang)
        rows.append([assumption_cell(a, lang), cell(value, "cell_small"),
                     cell(unit, "cell_small"), cell(yes_no(a.overridden, lang), "cell_small"),
                     cell(f"[{sources.index(source) + 1}]", "cell_small")])
    formula_rows: list[list] = [[cell(h, "cell_head") for h in (
        ctx.t("Computed quantity"), ctx.t("Formula"), ctx.t("docs/METHOD.md"))]]
    formula_rows += [[cell(ctx.t(name)), cell(formula, "cell_small"), cell(ctx.t(where))]
                     for name, formula, where in FORMULAS]
    return [heading(ctx, ctx.t("Assumptions and formulas")),
            para(ctx.t("Every default and efficiency factor the sizing used, with its source "
                       "(numbers in brackets refer to the list below).")),
            table(rows, [ctx.width * w for w in (0.34, 0.2, 0.14, 0.14, 0.18)]),
            subheading(ctx, ctx.t("Sources")),
            *[para(f"[{n}] {source}", "small") for n, source in enumerate(sources, 1)],
            subheading(ctx, ctx.t("Key formulas")),
            table(formula_rows, [ctx.width * w for w in (0.24, 0.6, 0.16)]),
            para(ctx.t("Symbols: {symbols}", symbols=SYMBOLS), "small")]


# ----------------------------------------------------------------------------- 11 accuracy


def section_accuracy(ctx: Context) -> list[Flowable]:
    acc, lang, band = ctx.accuracy, ctx.lang, ctx.result.performance.band
    origin = (ctx.t("Computed for this report with the engine's own calibration code from "
                    "{source}.", source=acc.source) if acc.computed else
              ctx.t("As recorded in {source}.", source=acc.source))
    rows: list[list] = [[cell(h, "cell_head") for h in (
        ctx.t("Metric"), ctx.t("Cases"), ctx.t("Median error"), ctx.t("90th percentile"),
        ctx.t("Worst factor"))]]
    for group, (cases, median, p90, worst) in acc.rows.items():
        rows.append([cell(ctx.t(group)), num(cases, ",d", lang),
                     f"{num(median * 100, ',.1f', lang)} %", f"{num(p90 * 100, ',.1f', lang)} %",
                     f"x{num(worst, ',.2f', lang)}"])
    extra = [("ALIGN", (1, 0), (-1, -1), "RIGHT")]
    return [heading(ctx, ctx.t("Calibration accuracy")),
            para(ctx.t("The method predicts published measurements (TensorRT-LLM and llama.cpp "
                       "on data-centre and desktop GPUs) with the errors below: the absolute "
                       "relative error of each prediction, its median and 90th percentile per "
                       "metric, and the worst ratio between prediction and measurement.")),
            para(origin, "small"),
            table(rows, [ctx.width * w for w in (0.36, 0.12, 0.17, 0.17, 0.18)], extra=extra),
            Spacer(1, 6),
            para(ctx.t("The band this report gives (x{low} to x{high}) is the spread of these "
                       "residuals for the serving engine's profile; profiles or GPU families "
                       "without measurements get a wider band, and the warnings say so.",
                       low=num(band.low, ".2f", lang), high=num(band.high, ".2f", lang)))]


# ----------------------------------------------------------------------------- 12 glossary

GLOSSARY = [
    ("TTFT", "Time to first token: from sending a request until the first token arrives; "
             "mostly the prefill of the prompt, plus queueing."),
    ("ITL / TPOT", "Inter-token latency (time per output token): the time of one decode step; "
                   "tokens/s per user = 1 / ITL."),
    ("Tokens/s per user", "The generation speed one user sees while the others are served."),
    ("Output tokens/s", "All tokens a replica generates per second, for all users together."),
    ("Prefill / decode", "Prefill reads the whole prompt at once (compute-bound); decode "
                         "generates one token per step for every user (memory-bound)."),
    ("KV cache", "The keys and values of every token in context, kept in GPU memory for each "
                 "user; it grows with users and context length."),
    ("Replica", "One complete copy of the model on its GPUs, serving requests on its own."),
    ("Tensor parallel (t)", "Each layer split across t GPUs, which exchange results at every "
                            "layer (needs a fast link such as NVLink)."),
    ("Pipeline parallel (p)", "The layers split into p stages on different GPUs."),
    ("Saturation", "The most users a replica serves at once, limited by KV memory, the "
                   "engine's batch limit and its token budget."),
    ("SLO capacity", "The most users a replica serves while meeting both targets."),
    ("Band", "The range the expected figures may fall in, from the calibration errors."),
    ("Naive figure", "The vendor rule of thumb 'bandwidth / model size', shown for comparison."),
    ("N+1 / 2N", "Redundancy: the load still served with one server lost (N+1), or a full "
                 "second set (2N)."),
    ("PUE", "Power usage effectiveness: facility power / IT power."),
    ("BTU/h", "British thermal units per hour, the unit of heat to remove (1 kW = 3,412 BTU/h)."),
    ("GB / GiB", "10^9 bytes / 2^30 bytes (1 GiB = 1.074 GB)."),
    ("PAdES B-B", "The basic level of the European standard for PDF signatures; it needs no "
                  "time-stamp server and can be checked offline."),
    ("SHA-256 fingerprint", "A checksum of the signer's certificate, to compare by phone or "
                            "letter with the one the signer gives you."),
]


def section_glossary(ctx: Context) -> list[Flowable]:
    rows = [[cell(term, "cell"), cell(ctx.t(definition))] for term, definition in GLOSSARY]
    for row, (term, _) in zip(rows, GLOSSARY, strict=True):
        row[0] = Paragraph(f"<b>{markup(ctx.t(term))}</b>", styles()["cell"])
    return [heading(ctx, ctx.t("Glossary")),
            table(rows, [ctx.width * 0.24, ctx.width * 0.76], header=False)]


# ----------------------------------------------------------------------------- 13 signature


def section_signature(ctx: Context, block: Flowable | None) -> list[Flowable]:
    flow: list[Flowable] = [CondPageBreak(180), heading(ctx, ctx.t("Signature"))]
    if block is None:
        flow.append(para(ctx.t("This copy of the report is not signed. The attached "
                               "scenario.json and result.json reproduce it with AI Sizer "
                               "('aisizer report').")))
        return flow
    flow += [para(ctx.t("This report carries a PAdES baseline B-B signature over the whole "
                        "file, the attached scenario.json and result.json included. Check it "
                        "with 'aisizer verify REPORT.pdf' (or Help > Verify report in AI "
                        "Sizer), and compare the certificate's fingerprint below with the one "
                        "the signer gives you by phone or letter.")),
             Spacer(1, 6), block]
    return flow


SECTIONS = (section_summary, section_requirements, section_training, section_memory,
            section_selection, section_performance, section_scale, section_infrastructure,
            section_rag, section_cpu, section_validation, section_stack, section_assumptions,
            section_accuracy, section_glossary, section_compared)
