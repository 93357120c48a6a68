"""Step 1 in engine terms: the scenario with every default filled in, and what cannot be sized.

:func:`resolve` checks a validated :class:`~app.domain.scenario.Scenario` against the catalog
and fills in what the user left open (targets, number formats, the quality floor), recording
each catalog default it used as an assumption. Every step above it reads the
:class:`Resolved` scenario; none reads a default itself.

A scenario that is valid JSON but names something the catalog lacks, or asks for what the
method cannot size, raises :class:`SizingError` with one readable sentence that names the
field. :func:`look_up` is the one catalog look-up that does so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from app.domain.catalog import Catalog, ModelSpec, StorageTier
from app.domain.problems import problem, verbatim
from app.domain.result import Assumption
from app.domain.scenario import Scenario
from app.domain.scenario import Workload as ScenarioWorkload
from app.engine.assumptions import catalog_default
from app.engine.configuration import Choice, Configuration, configure
from app.engine.memory import ParameterCounts, parameter_counts
from app.engine.performance import Workload
from app.engine.scale import request_time_s, requests_in_flight
from app.i18n import Message, msg

#: Weight formats Step 3 may choose when the scenario sets no quality floor (8 and 16 bit);
#: the model's native format is added when it is not among them.
DEFAULT_QUALITY_FLOOR = ("bf16", "fp16", "fp8", "int8")

Entry = TypeVar("Entry")


class SizingError(ValueError):
    """A scenario that is valid JSON but cannot be sized (one readable sentence).

    ``message`` keeps the sentence as a Message, so the window can show it in its language;
    ``str()`` is the English sentence.
    """

    def __init__(self, message: str | Message):
        self.message = message if isinstance(message, Message) else verbatim(message)
        super().__init__(self.message.text())


@dataclass(frozen=True)
class Demand:
    """What the deployment must serve: request shape, load, targets and redundancy."""

    work: Workload
    peak_context: int
    users: int | None  # None: saturation ("max")
    ttft_target: float
    speed_target: float
    redundancy: str
    plan_at: str = "conservative"  # or "expected": the figures Step 5 sizes by


@dataclass(frozen=True)
class Resolved:
    """The scenario with every default filled in, in engine terms.

    ``serving`` holds the engine settings the user may override (``memory_fraction``,
    ``batch_limit``, ``batched_tokens``; None where the engine profile decides) and the site
    profile (``site_profile``), in the keywords :func:`~app.engine.configuration.configure`
    takes.
    """

    scenario: Scenario
    model: ModelSpec
    counts: ParameterCounts
    demand: Demand
    weights: str
    kv_cache: str
    allowed_weights: list[str]
    engine: str
    serving: dict
    assumptions: list[Assumption]


def known_ids(table: Mapping[str, Any]) -> str | Message:
    """The ids of a catalog table, sorted and comma-separated ("(none)" when it is empty)."""
    return ", ".join(sorted(table)) or msg("(none)")


def look_up(table: Mapping[str, Entry], key: str, field: str, unknown: Message,
            listed: Mapping[str, Any] | None = None) -> Entry:
    """The catalog entry ``key`` of ``table``.

    Parameters
    ----------
    table : mapping of id to entry
        One catalog table (``catalog.gpus``, ``catalog.models`` ...).
    key : str
        The id the scenario names.
    field : str
        The scenario field that names it (a JSON path), for the error.
    unknown : Message
        The sentence when the id is unknown, with the placeholders ``{value}`` (the id) and
        ``{known}`` (the ids the table has), e.g. ``msg("unknown gpu id '{value}'; known:
        {known}")``.
    listed : mapping, optional
        The entries whose ids the sentence lists (default all of ``table``), e.g. only the
        models that generate text.

    Raises
    ------
    SizingError
        When ``table`` has no entry ``key``: the field, the id and the known ids.
    """
    try:
        return table[key]
    except KeyError:
        known = known_ids(table if listed is None else listed)
        detail = Message(template=unknown.template,
                         params={**unknown.params, "value": key, "known": known})
        raise SizingError(problem(field, detail)) from None


def model_of(scenario: Scenario, catalog: Catalog) -> ModelSpec:
    """The scenario's model: the inline architecture, or the catalog entry it names; it must
    write text (an embedding or reranking model belongs in ``rag.embedding_model``)."""
    if isinstance(scenario.model, ModelSpec):
        model = scenario.model
    else:
        model = look_up(catalog.models, scenario.model, "model",
                        msg("unknown model id '{value}'; known: {known}"),
                        listed={mid: spec for mid, spec in catalog.models.items()
                                if spec.generates})
    if not model.generates:
        raise SizingError(problem("model", msg(
            "{name} is an embedding or reranking model and writes no text; choose it as "
            "rag.embedding_model and serve a text model here", name=model.name)))
    return model


def speculative_choice(scenario: Scenario, model: ModelSpec) -> bool:
    """Whether the speculative-decoding heads are loaded (default off, as engines do)."""
    wanted = bool(scenario.serving.speculative_decoding)
    if wanted and model.speculative is None:
        raise SizingError(problem("serving.speculative_decoding", msg(
            "{name} has no speculative-decoding heads in the catalog; add them to the model "
            "(speculative) or switch speculative decoding off", name=model.name)))
    return wanted


def storage_tier_of(scenario: Scenario, catalog: Catalog) -> StorageTier:
    """The storage tier the scenario names (``availability.storage_tier``)."""
    tier = scenario.availability.storage_tier
    if tier not in catalog.storage:
        raise SizingError(problem("availability.storage_tier", msg(
            "unknown tier '{tier}'; choose one of {tiers}",
            tier=tier, tiers=", ".join(sorted(catalog.storage)))))
    return catalog.storage[tier]


def default_value(catalog: Catalog, name: str, unit: str, assumptions: list[Assumption],
                  given: Any = None) -> Any:
    """A scenario value, or the catalog default ``name`` recorded in ``assumptions``.

    Parameters
    ----------
    catalog : Catalog
        Holds the named defaults (``catalogs/defaults.toml``) and their sources.
    name : str
        The default's name, e.g. ``target_ttft_s``.
    unit : str
        Its unit as the assumptions list shows it, e.g. ``s`` ("" for a pure number).
    assumptions : list of Assumption
        Where the default is recorded when it is used (appended to).
    given : optional
        The scenario's own value; returned as it is unless it is None.
    """
    if given is not None:
        return given
    assumption = catalog_default(catalog, name, unit)
    assumptions.append(assumption)
    return assumption.value


def weight_formats(scenario: Scenario, model: ModelSpec) -> tuple[list[str], str]:
    """(formats Step 3 may choose, the weight format of a given configuration).

    The quality floor is the scenario's ``allowed_weights``, else :data:`DEFAULT_QUALITY_FLOOR`
    and the model's native format; the weight format is the scenario's, else the native one
    when allowed, else the first allowed.
    """
    precision = scenario.precision
    allowed = list(precision.allowed_weights or DEFAULT_QUALITY_FLOOR)
    if precision.allowed_weights is None and model.native_precision not in allowed:
        allowed.append(model.native_precision)
    weights = precision.weights or (
        model.native_precision if model.native_precision in allowed else allowed[0])
    return allowed, weights


def demand_of(scenario: Scenario, catalog: Catalog, assumptions: list[Assumption]) -> Demand:
    """The load, request shape and targets (default targets recorded in ``assumptions``)."""
    workload = scenario.workload
    ttft = default_value(catalog, "target_ttft_s", "s", assumptions, scenario.targets.ttft_s)
    speed = default_value(catalog, "target_tokens_per_s_per_user", "tokens/s", assumptions,
                          scenario.targets.tokens_per_s_per_user)
    users = workload.concurrent_users
    if workload.activity is not None and workload.kind == "online_inference":
        users = activity_concurrency(workload, ttft, speed, catalog, assumptions)
    return Demand(
        work=Workload(workload.prompt_tokens, workload.output_tokens),
        peak_context=workload.context_tokens,
        users=None if users == "max" else users,
        ttft_target=ttft,
        speed_target=speed,
        redundancy=scenario.availability.redundancy,
        plan_at=plan_at_of(scenario, assumptions),
    )


def plan_at_of(scenario: Scenario, assumptions: list[Assumption]) -> str:
    """The scenario's ``targets.plan_at``; conservative when it does not say, recorded in
    ``assumptions`` with the note that scenarios saved before it planned at the expected
    figures (they load as conservative)."""
    if scenario.targets.plan_at is not None:
        return scenario.targets.plan_at
    assumptions.append(Assumption(
        name="plan_at", value="conservative", unit="",
        source_message=msg("Default: replicas are sized so the low end of the expected range "
                           "still meets the targets. Scenarios saved before this setting "
                           "existed were sized at the expected figures; choose 'Plan at: at "
                           "the expected figures' in Step 1 to size them as before.")))
    return "conservative"


def activity_concurrency(workload: ScenarioWorkload, ttft_s: float, speed: float,
                         catalog: Catalog, assumptions: list[Assumption]) -> int:
    """Requests in flight at the busiest hour from the workload's activity model
    (:func:`app.engine.scale.requests_in_flight`, Little's law), each request in flight for
    the time the targets allow (:func:`app.engine.scale.request_time_s`); the active share
    and, without a rate or think time, the request rate default from the catalog (recorded
    in ``assumptions``). The derived figure is recorded there too, with its formula."""
    activity = workload.activity
    share = default_value(catalog, "active_share_busiest_hour", "", assumptions,
                          activity.active_share)
    rate = activity.requests_per_active_user_per_minute
    if rate is None and activity.think_time_s is None:
        rate = default_value(catalog, "requests_per_active_user_per_minute", "requests/min",
                             assumptions)
    request_s = request_time_s(ttft_s, workload.output_tokens, speed)
    active = activity.named_users * share
    users = requests_in_flight(active, request_s, rate, activity.think_time_s)
    figures = {"active": active, "rate": rate, "think": activity.think_time_s,
               "request": request_s, "ttft": ttft_s, "tokens": workload.output_tokens,
               "speed": speed}
    how = (msg("Little's law L = lambda x W (Little 1961): {active:,.1f} active users x "
               "{rate:g} requests per minute / 60 x {request:,.1f} s per request (TTFT {ttft:g} "
               "s + {tokens:,} tokens at {speed:g} tokens/s)", **figures)
           if rate is not None else
           msg("Little's law on the closed loop (Little 1961): {active:,.1f} active users x "
               "{request:,.1f} s / ({request:,.1f} s + {think:g} s think time); a request "
               "takes TTFT {ttft:g} s + {tokens:,} tokens at {speed:g} tokens/s", **figures))
    assumptions.append(Assumption(name="derived_concurrent_users", value=users, unit="",
                                  source_message=how))
    return users


def resolve(scenario: Scenario, catalog: Catalog) -> Resolved:
    """Fill defaults and check the scenario against the catalog.

    Raises
    ------
    SizingError
        For an unknown model, number format or storage tier, or a context longer than the
        model's limit.
    """
    model = model_of(scenario, catalog)
    assumptions: list[Assumption] = []
    allowed, weights = weight_formats(scenario, model)
    kv_cache = scenario.precision.kv_cache or ("fp16" if weights == "fp16" else "bf16")
    for field, value in (("precision.weights", weights), ("precision.kv_cache", kv_cache)):
        if value not in catalog.precisions:
            raise SizingError(problem(field, msg("'{value}' is not in the precision catalog",
                                                 value=value)))
    demand = demand_of(scenario, catalog, assumptions)
    if demand.peak_context > model.max_context_tokens:
        raise SizingError(problem("workload.max_context_tokens", msg(
            "{context:,} exceeds the model's context limit of {limit:,} tokens",
            context=demand.peak_context, limit=model.max_context_tokens)))
    storage_tier_of(scenario, catalog)
    serving = {"memory_fraction": scenario.serving.memory_fraction,
               "batch_limit": scenario.serving.max_batch_size,
               "batched_tokens": scenario.serving.max_batched_tokens,
               "speculative": speculative_choice(scenario, model),
               "site_profile": site_profile_choice(scenario, catalog)}
    return Resolved(scenario, model, parameter_counts(model), demand, weights, kv_cache,
                    allowed, scenario.serving.engine, serving, assumptions)


def site_profile_choice(scenario: Scenario, catalog: Catalog) -> str | None:
    """The scenario's ``serving.site_profile``, checked against the user catalog."""
    wanted = scenario.serving.site_profile
    if wanted not in (None, "none") and wanted not in catalog.site_profiles:
        raise SizingError(problem("serving.site_profile", msg(
            "unknown site profile '{value}'; known: {known}", value=wanted,
            known=known_ids(catalog.site_profiles))))
    return wanted


def configure_for(catalog: Catalog, r: Resolved, choice: Choice) -> Configuration:
    """The configuration of ``choice`` with the scenario's factor overrides and engine
    settings."""
    return configure(catalog, r.model, choice, r.scenario.factor_overrides,
                     counts=r.counts, **r.serving)
