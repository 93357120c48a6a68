"""A small, stable facade for notebooks and scripts (CONTRACT.md, "Python API").

    from app.api import load_scenario, size
    result = size(load_scenario("scenario.json"))
    result.model_dump(mode="json")
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from app import paths, reading
from app.catalog.loader import default_catalog
from app.domain import safe_json
from app.domain.catalog import Catalog
from app.domain.field_paths import FieldPathError, path_of, set_value
from app.domain.problems import Problem, composed, detail, either, problem, verbatim
from app.domain.result import SizingResult
from app.domain.scenario import Scenario
from app.i18n import Message, msg

__all__ = ["ScenarioError", "calibrate", "example", "example_names", "import_measurements",
           "load_scenario", "save_site_profile", "set_field", "size", "size_in_stages",
           "test_plan", "test_plan_files", "with_measurements"]


MAX_SCENARIO_BYTES = 32 * 2**20
"""The largest scenario file read [B] (a scenario with a thousand measured points is a few
hundred KB)."""


class ScenarioError(ValueError):
    """Invalid scenario input: one readable sentence per problem.

    ``problems`` holds the English sentences (the command line and the JSON contract);
    ``messages`` the same problems as Messages, which the window renders in its language.
    """

    def __init__(self, problems: list[str | Message]):
        self.messages = [p if isinstance(p, Message) else verbatim(p) for p in problems]
        self.problems = [m.text() for m in self.messages]
        super().__init__("\n".join(self.problems))


def _shown(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def describe_messages(error: ValidationError) -> list[Problem]:
    """One Problem per field: the field path, what is wrong, the value given.

    A value that fits none of a field's alternatives (``int`` or ``"max"``) is one problem,
    with the alternatives joined by "or".
    """
    grouped: dict[str, list[dict]] = {}
    for item in error.errors():
        grouped.setdefault(path_of(item["loc"]), []).append(item)
    found = []
    for location, items in grouped.items():
        details = list({m.text(): m for m in (detail(i) for i in items)}.values())
        if all(isinstance(d, Problem) and d.field for d in details):
            found.extend(details)  # a rule that names its own field and value (a layout)
            continue
        given = items[0]
        field = location or "scenario"
        if given["type"] == "missing":
            found.append(problem(field, either(details)))
        else:
            found.append(problem(field, either(details), given["input"],
                                 _shown(given["input"])))
    return found


def describe(error: ValidationError) -> list[str]:
    """One English sentence per problem: field, value given, what is allowed."""
    return [p.text() for p in describe_messages(error)]


def _parse(source: str | Path | dict) -> dict:
    if isinstance(source, dict):
        return source
    text = str(source)
    if isinstance(source, Path) or not text.lstrip().startswith("{"):
        path = Path(source)
        try:
            text = reading.regular_file_bytes(path, MAX_SCENARIO_BYTES,
                                              "a scenario file").decode("utf-8")
        except (reading.NotARegularFile, reading.TooLarge) as exc:
            raise ScenarioError([verbatim(str(exc))]) from None
        except OSError as exc:
            raise ScenarioError([composed(msg("cannot read scenario file '{path}': {reason}",
                                              path=str(path), reason=str(exc.strerror)))]
                                ) from None
        except UnicodeDecodeError:
            raise ScenarioError([composed(msg(
                "scenario file '{path}' is not UTF-8 text (a scenario is a JSON file)",
                path=str(path)))]) from None
    try:
        data = safe_json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError([composed(msg(
            "scenario is not valid JSON: {error} at line {line}, column {column}",
            error=exc.msg, line=exc.lineno, column=exc.colno))]) from None
    except safe_json.JsonLimitError as exc:
        raise ScenarioError([problem("scenario", exc.message)]) from None
    if not isinstance(data, dict):
        raise ScenarioError([problem("scenario", msg("must be a JSON object"))])
    return data


def load_scenario(source: str | Path | dict) -> Scenario:
    """Read and validate a scenario from a path, a JSON string or a dict.

    Raises
    ------
    ScenarioError
        With one readable sentence per problem (field, value, what is allowed).
    """
    data = _parse(source)
    version = data.get("schema_version", 1)
    if version != 1:
        raise ScenarioError([problem("schema_version", msg(
            "{version} is not supported; this version reads schema_version 1",
            version=repr(version)))])
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(describe_messages(exc)) from None


def apply_settings(data: dict, assignments: list[str]) -> Scenario:
    """``data`` with ``PATH=VALUE`` assignments applied, validated.

    A value is read as JSON (numbers, true/false, lists) and falls back to text when the field
    wants text (``--set project=2025``).
    """
    parsed = []
    for assignment in assignments:
        path, sep, value = assignment.partition("=")
        if not sep:
            raise ScenarioError([f"--set {assignment}: expected PATH=VALUE"])
        parsed.append((path.strip(), value.strip()))
        set_field(data, path.strip(), value.strip())
    try:
        return load_scenario(data)
    except ScenarioError as exc:
        retried = False
        for path, value in parsed:
            if any(isinstance(m, Problem) and m.field == path for m in exc.messages):
                set_field(data, path, json.dumps(value))
                retried = True
        if not retried:
            raise
        return load_scenario(data)


def set_field(data: dict, dotted: str, raw: str) -> dict:
    """``data`` with the field at ``dotted`` set to ``raw`` parsed as JSON (or as text)."""
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    try:
        return set_value(data, dotted, value)
    except FieldPathError as exc:
        if exc.key:
            raise ScenarioError([f"--set {dotted}: '{exc.key}' is not a group of fields"]
                                ) from None
        raise ScenarioError([f"--set {dotted}: not a field path like workload.concurrent_users"]
                            ) from None


def size(scenario: Scenario, catalog: Catalog | None = None) -> SizingResult:
    """Run the five steps of the method (raises ScenarioError on what cannot be sized)."""
    *_, (result, _) = size_in_stages(scenario, catalog)
    return result


def size_in_stages(scenario: Scenario, catalog: Catalog | None = None
                   ) -> Iterator[tuple[SizingResult, bool]]:
    """:func:`size` in two steps for a live view: ``(result, levers_follow)`` without the
    levers first, then, when a target is missed, the result with them."""
    # on first use: the window shows before numpy loads
    from app.engine import pipeline
    from app.engine.resolved import SizingError

    try:
        yield from pipeline.size_in_stages(scenario, catalog or default_catalog())
    except SizingError as exc:
        raise ScenarioError([exc.message]) from None


def calibrate(scenario: Scenario, metric: str, measured: float, concurrency: float,
              catalog: Catalog | None = None) -> Scenario:
    """``scenario`` with factor overrides fitted to a measurement of its configuration.

    ``metric`` is one of itl_s, tokens_per_s_per_user, output_tokens_per_s, ttft_s, measured
    at ``concurrency`` users.
    """
    from app.engine.resolved import SizingError
    from app.engine.serving_chain import overrides_from_measurement

    try:
        overrides = overrides_from_measurement(scenario, catalog or default_catalog(), metric,
                                               measured, concurrency)
    except SizingError as exc:
        raise ScenarioError([problem("calibration", exc.message)]) from None
    except ValueError as exc:
        raise ScenarioError([problem("calibration", verbatim(str(exc)))]) from None
    return scenario.model_copy(update={"factor_overrides": overrides})


# --------------------------------------------------------------------------- test plan


def test_plan(scenario: Scenario, catalog: Catalog | None = None):
    """The load test one replica of the sizing implies (``SizingResult.test_plan``; for a
    training scenario, of serving the trained model)."""
    return size(scenario, catalog).test_plan


def test_plan_files(scenario: Scenario, lang: str = "en",
                    catalog: Catalog | None = None) -> dict[str, str]:
    """The test plan's files (README, scripts, pass figures, the scenario): name -> text."""
    from app.testplan import plan_files

    return plan_files(test_plan(scenario, catalog), scenario.model_dump(
        mode="json", exclude_defaults=True, exclude={"measurements"}), lang)


# --------------------------------------------------------------------------- measurements


def import_measurements(paths: list[str | Path], scenario: Scenario | None = None):
    """Read load-test result files (``app.measurements.ImportOutcome``); a CSV without
    lengths takes the scenario's. Raises ``app.measurements.MeasurementError``."""
    from app.measurements import import_files

    workload = scenario.workload if scenario is not None else None
    lengths = ((workload.prompt_tokens, workload.output_tokens) if workload is not None
               else (0.0, 0.0))
    return import_files(paths, lengths)


def with_measurements(scenario: Scenario, points: list, replace: bool = False) -> Scenario:
    """``scenario`` carrying ``points``: added to the ones it has (files already there are
    replaced by their new reading), or instead of them."""
    new_files = {p.source_sha256 for p in points}
    kept = [] if replace else [p for p in scenario.measurements
                               if p.source_sha256 not in new_files]
    try:
        return scenario.model_copy(update={"measurements": [*kept, *points]})
    except ValidationError as exc:
        raise ScenarioError(describe_messages(exc)) from None


def save_site_profile(scenario: Scenario, engine_version: str, note: str = "",
                      catalog: Catalog | None = None):
    """Fit the scenario's measurements and save the site profile into the user catalog.

    Returns (profile, path). Raises ScenarioError when the scenario has no measurements the
    fit can use, or the profile cannot be saved.
    """
    from app.catalog.site_profiles import SiteProfileError, profile_from_fit, save_profile

    catalog = catalog or default_catalog()
    result = size(scenario, catalog)
    fit = result.validation.fit if result.validation is not None else None
    if fit is None:
        raise ScenarioError([problem("measurements", msg(
            "no imported measurement the fit can use (TTFT, inter-token latency, tokens/s or "
            "prompt time); import the load test's result files first"))])
    try:
        profile = profile_from_fit(fit, list(scenario.measurements), engine_version, note,
                                   scenario.name, result.gpu.name,
                                   catalog.engine(fit.engine).name)
        return profile, save_profile(profile)
    except SiteProfileError as exc:
        raise ScenarioError([problem("site_profile", verbatim(str(exc)))]) from None


def examples_dir() -> Path:
    return paths.resources_dir() / "examples"


def example_names() -> list[str]:
    """Names of the built-in example scenarios."""
    return sorted(p.stem for p in examples_dir().glob("*.json"))


def example(name: str) -> dict:
    """A built-in example scenario as a dict (ScenarioError lists the names)."""
    path = examples_dir() / f"{name}.json"
    if not path.is_file():
        raise ScenarioError([f"example: unknown name '{name}'; choose one of "
                             f"{', '.join(example_names())}"])
    return json.loads(path.read_text(encoding="utf-8"))
