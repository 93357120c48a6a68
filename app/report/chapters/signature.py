"""Signature: the visible signature block, or the note that the copy is not signed."""

from __future__ import annotations

from reportlab.platypus import CondPageBreak, Flowable, Spacer

from app.report.context import Context
from app.report.flowables import heading, para


def section_signature(ctx: Context, block: Flowable | None) -> list[Flowable]:
    flow: list[Flowable] = [CondPageBreak(180), heading(ctx, "signature", ctx.t("Signature"))]
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
