"""The cover page: who, what, when, which tool and catalogs, and the signature state."""

from __future__ import annotations

from reportlab.platypus import Flowable, PageBreak, Spacer

from app.report.context import Context
from app.report.flowables import key_values, para


def cover(ctx: Context) -> list[Flowable]:
    r = ctx.result
    i = r.inputs
    catalogs = ", ".join(f"{name} {version}" for name, version in
                         sorted(r.catalog_versions.items()))
    signature = (ctx.t("signed by {name} ({organisation})", name=ctx.signer.name,
                       organisation=ctx.signer.organisation or "–")
                 if ctx.signer else ctx.t("not signed"))
    rows = [
        (ctx.t("Customer"), i.customer or "–"),
        (ctx.t("Project"), i.project or "–"),
        (ctx.t("Date"), ctx.report_date),
        (ctx.t("Author"), i.author or (ctx.signer.name if ctx.signer else "–")),
        (ctx.t("Tool"), ctx.t("AI Sizer {version} (result schema {schema})",
                              version=r.tool_version, schema=str(r.schema_version))),
        (ctx.t("Catalog versions"), catalogs),
        (ctx.t("Signature"), signature),
    ]
    return [
        Spacer(1, 60),
        para(ctx.t("LLM infrastructure sizing report"), "cover_title"),
        para(i.name or "–", "cover_sub"),
        key_values(ctx, rows, first=0.26),
        Spacer(1, 18),
        para(ctx.t("This report sizes the infrastructure that serves {model} for the "
                   "workload below: GPUs and their memory, speed and latency, redundancy, "
                   "servers, power and cooling. Every figure comes from the scenario and the "
                   "result attached to this PDF (scenario.json and result.json); the same "
                   "files reproduce the report with AI Sizer.", model=r.model.name)),
        para(ctx.t("The figures are estimates from a calibrated model of the hardware and the "
                   "serving engine, with a band from its calibration errors (section "
                   "{accuracy}); the validation plan (section {plan}) says how to check them "
                   "on site.", accuracy=ctx.number("accuracy"),
                   plan=ctx.number("validation")), "small"),
        PageBreak(),
    ]
