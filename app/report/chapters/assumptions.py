"""Assumptions and formulas: every default with its source, and the key formulas."""

from __future__ import annotations

from reportlab.platypus import Flowable, Paragraph

from app.domain.result import Assumption
from app.report.context import Context
from app.report.flowables import cell, heading, para, subheading
from app.report.style import styles, table
from app.report.text import markup, quantity, yes_no

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
    """The readable name of an assumption (its id stays in the attached result JSON: a
    reader is not asked to read JSON paths)."""
    return Paragraph(markup(a.label(lang)), styles()["cell_small"])


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
    formula_rows += [[cell(ctx.t(name)), cell(ctx.t(formula), "cell_small"), cell(ctx.t(where))]
                     for name, formula, where in FORMULAS]  # the formulas' words translated
    return [heading(ctx, "assumptions", ctx.t("Assumptions and formulas")),
            para(ctx.t("Every default and efficiency factor the sizing used, with its source "
                       "(numbers in brackets refer to the list below).")),
            table(rows, [ctx.width * w for w in (0.34, 0.2, 0.14, 0.14, 0.18)]),
            subheading(ctx, ctx.t("Sources")),
            *[para(f"[{n}] {source}", "small") for n, source in enumerate(sources, 1)],
            subheading(ctx, ctx.t("Key formulas")),
            table(formula_rows, [ctx.width * w for w in (0.24, 0.6, 0.16)]),
            para(ctx.t("Symbols: {symbols}", symbols=ctx.t(SYMBOLS)), "small")]
