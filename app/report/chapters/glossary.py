"""Glossary: the terms of the report."""

from __future__ import annotations

from reportlab.platypus import Flowable, Paragraph

from app.report.context import Context
from app.report.flowables import cell, heading
from app.report.style import styles, table
from app.report.text import markup

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
    return [heading(ctx, "glossary", ctx.t("Glossary")),
            table(rows, [ctx.width * 0.24, ctx.width * 0.76], header=False)]
