"""Redundancy and scale: replicas, servers, autoscaling and what a failure leaves."""

from __future__ import annotations

from reportlab.platypus import Flowable, Spacer

from app.domain.result import ScaleResult
from app.engine.narrative import replica_range
from app.i18n import msg, plural
from app.report.context import Context
from app.report.flowables import bold, bullets, heading, key_values
from app.report.phrases import redundancy
from app.report.text import message, num, seconds


def section_scale(ctx: Context) -> list[Flowable]:
    r, lang = ctx.result, ctx.lang
    s = r.scale
    rows = [
        (ctx.t("Redundancy"), redundancy(ctx, s.redundancy)),
        (ctx.t("Replicas"), plural(s.replicas_for_load, msg("{replicas} ({load} carries the load)"),
                                   msg("{replicas} ({load} carry the load)"), replicas=s.replicas,
                                   load=s.replicas_for_load).text(lang)),
        (ctx.t("Servers"), plural(
            s.gpus_per_node, msg("{nodes} x {server} ({per_node} GPU each, {replicas}, {span})"),
            msg("{nodes} x {server} ({per_node} GPUs each, {replicas}, {span})"),
            nodes=s.nodes, server=s.server_shown, per_node=s.gpus_per_node,
            replicas=plural(s.replicas_per_node, msg("{n} replica per server"),
                            msg("{n} replicas per server"), n=s.replicas_per_node).text(lang),
            span=plural(s.nodes_per_replica, msg("{n} server per replica"),
                        msg("{n} servers per replica"), n=s.nodes_per_replica).text(lang),
        ).text(lang)),
        (ctx.t("GPUs in total"), num(s.gpus_total, ",d", lang)),
        *planning_row(ctx, s),
        (ctx.t("Autoscaling"), replica_range(s.autoscale_min_replicas,
                                             s.autoscale_max_replicas).text(lang)),
        (ctx.t("Cold start"), ctx.t("about {time} from storage tier '{tier}'",
                                    time=seconds(s.cold_start_s, lang), tier=s.storage_tier)),
    ]
    if s.batch_completion_hours is not None:
        rows.append((ctx.t("Batch completion"),
                     f"{num(s.batch_completion_hours, ',.1f', lang)} h"))
    if s.compute_racks:
        rows.append((ctx.t("Racks"), plural(
            s.nodes_in_fullest_rack, msg("{racks} with servers, at most {nodes} server in one"),
            msg("{racks} with servers, at most {nodes} servers in one"),
            racks=s.compute_racks, nodes=s.nodes_in_fullest_rack).text(lang)))
    return [heading(ctx, "scale", ctx.t("Redundancy and scale")),
            key_values(ctx, rows, first=0.24),
            Spacer(1, 6),
            *failure_notes(ctx),
            bullets(scale_bullets(s, lang))]


def planning_row(ctx: Context, s: ScaleResult) -> list[tuple[str, str]]:
    """Which end of the expected range sized the replicas, and what the other would need
    (none for training)."""
    if s.planning is None:
        return []
    return [(ctx.t("Planned at"), s.planning.message.text(ctx.lang))]


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
    shown = [s.failure_message, s.rack_failure_message, s.rack_redundancy_message,
             s.planning.message if s.planning is not None else None]
    if s.messages:
        return [m.text(lang) for m in s.messages if m not in shown]
    said = {s.failure_statement, s.rack_failure_statement}
    return [text for text in s.explanation if text not in said]
