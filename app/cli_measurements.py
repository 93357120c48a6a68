"""The command line of the measurement loop: ``test-plan`` and ``measurements import|fit``.

    aisizer test-plan SCENARIO -o DIR [--lang en|de] [--force]
    aisizer measurements import FILE... [--scenario S] [--save] [--replace] [--json]
    aisizer measurements fit [FILE...] --scenario S [--save-profile --engine-version V
                             [--note TEXT]] [--json]

Errors go to stderr as one sentence per problem (exit 2); ``--json`` output to stdout only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from app import api
from app.catalog import clear_cache

EXIT_OK, EXIT_INVALID = 0, 2


def fail(problems: list[str]) -> int:
    for problem in problems:
        print(f"aisizer: {problem}", file=sys.stderr)
    return EXIT_INVALID


def _scenario(args: argparse.Namespace) -> api.Scenario | None:
    """The scenario of --scenario/--example with --set applied (``args.read_scenario`` is
    the command line's reader of a scenario file, an example or a report PDF)."""
    if not (args.scenario or args.example):
        return None
    return api.apply_settings(args.read_scenario(args), getattr(args, "set", None) or [])


# --------------------------------------------------------------------------- test-plan


def cmd_test_plan(args: argparse.Namespace) -> int:
    from app.testplan.render import write_plan

    try:
        scenario = _scenario(args)
        if scenario is None:
            raise api.ScenarioError(["give a scenario file, or --example NAME "
                                     f"({', '.join(api.example_names())})"])
        files = api.test_plan_files(scenario, args.lang)
    except api.ScenarioError as exc:
        return fail(exc.problems)
    folder = Path(args.output)
    present = [name for name in files if (folder / name).exists()]
    if present and not args.force:
        return fail([f"'{folder}' already holds {', '.join(present)}; give --force to replace "
                     "them, or choose another folder; nothing was written"])
    try:
        written = write_plan(folder, files)
    except OSError as exc:
        return fail([f"cannot write into '{folder}': {exc.strerror or exc}"])
    print(f"Wrote the test plan of '{scenario.name}' into {folder}:")
    for path in written:
        print(f"  {path.name}")
    print(f"Start with {folder / 'README.md'}.")
    return EXIT_OK


# --------------------------------------------------------------------------- measurements


def point_line(point) -> str:
    load = (f"{point.request_rate:g} req/s" if point.load == "request_rate"
            else f"{point.users:g} users")
    figures = []
    if point.ttft_s:
        figures.append(f"TTFT {point.ttft_s * 1e3:,.0f} ms")
    if point.itl_s:
        figures.append(f"ITL {point.itl_s * 1e3:,.1f} ms")
    if point.prefill_s:
        figures.append(f"prompt {point.prefill_s * 1e3:,.0f} ms")
    if point.output_tokens_per_s:
        figures.append(f"{point.output_tokens_per_s:,.0f} output tokens/s")
    return (f"  {point.source_file}: {point.label or load}, {point.prompt_tokens:,.0f}/"
            f"{point.output_tokens:,.0f} tokens: {', '.join(figures)}")


METRIC_LABELS = {"ttft_s": ("TTFT", 1e3, "ms"), "itl_s": ("ITL", 1e3, "ms"),
                 "tokens_per_s_per_user": ("tokens/s/user", 1.0, ""),
                 "output_tokens_per_s": ("output tok/s", 1.0, ""),
                 "prefill_s": ("prompt", 1e3, "ms")}


def comparison_lines(validation) -> list[str]:
    lines = ["Predicted against measured (one replica; error = measured / predicted - 1):",
             f"  {'point':<34} {'figure':<14} {'measured':>11} {'predicted':>11} "
             f"{'range':>19} {'error':>8}"]
    for row in validation.points:
        m = row.measured
        name = (m.label or m.source_file)[:34]
        for metric, predicted in row.predicted.items():
            label, scale, unit = METRIC_LABELS[metric]
            measured = m.value(metric)
            span = f"{row.low[metric] * scale:,.1f}-{row.high[metric] * scale:,.1f}"
            flag = "" if row.in_range(metric) else " !"
            lines.append(f"  {name:<34} {label:<14} {measured * scale:>11,.1f} "
                         f"{predicted * scale:>11,.1f} {span:>19} "
                         f"{row.error(metric):>+8.1%}{flag}")
            name = ""
    lines.append("  (! outside the expected range)")
    return lines


def fit_lines(fit) -> list[str]:
    lines = [f"Site factors fitted to {len(fit.residuals)} measured figures: decode "
             f"x{fit.decode_scale:.3f}{'' if fit.decode_fitted else ' (not measured)'}, "
             f"prefill x{fit.prefill_scale:.3f}"
             f"{'' if fit.prefill_fitted else ' (not measured)'}; median error "
             f"{fit.median_error_before:.1%} before, {fit.median_error_after:.1%} after; "
             f"range x{fit.band_low:.2f} to x{fit.band_high:.2f}.",
             f"  {'point':>5} {'figure':<14} {'measured':>11} {'before':>11} {'after':>11} "
             f"{'residual':>9}"]
    for r in fit.residuals:
        label, scale, _ = METRIC_LABELS[r.metric]
        lines.append(f"  {r.point + 1:>5} {label:<14} {r.measured * scale:>11,.2f} "
                     f"{r.before * scale:>11,.2f} {r.after * scale:>11,.2f} "
                     f"{r.error_after:>+9.2%}")
    lines += [f"  {m.text()}" for m in fit.messages]
    return lines


def validation_lines(validation) -> list[str]:
    lines = comparison_lines(validation)
    if validation.verdicts:
        lines += ["", f"Targets at the scenario's load ({validation.users_per_replica:,.0f} "
                      "users per replica):"]
        lines += [f"  {v.message.text()}" for v in validation.verdicts]
    if validation.messages:
        lines += ["", "What it means for the plan:"]
        lines += [f"  {m.text()}" for m in validation.messages]
    if validation.fit is not None:
        lines += ["", *fit_lines(validation.fit)]
    return lines


def save_into(path: Path, scenario) -> None:
    from app import atomic

    data = scenario.model_dump(mode="json", exclude_defaults=True)
    data["schema_version"] = scenario.schema_version
    atomic.write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def imported(args: argparse.Namespace):
    scenario = _scenario(args)
    outcome = api.import_measurements(args.files, scenario) if args.files else None
    return scenario, outcome


def cmd_measurements_import(args: argparse.Namespace) -> int:
    from app.measurements import MeasurementError

    try:
        scenario, outcome = imported(args)
        if args.save and not args.scenario:
            raise api.ScenarioError(["--save needs --scenario FILE (the scenario file to "
                                     "store the measurements in)"])
        if args.save and args.set:
            raise api.ScenarioError(["--save stores the scenario file as it is: it cannot be "
                                     "combined with --set"])
        if scenario is not None:
            scenario = api.with_measurements(scenario, outcome.points, args.replace)
            result = api.size(scenario)
    except MeasurementError as exc:
        return fail([f"nothing was imported: {p}" for p in exc.problems])
    except api.ScenarioError as exc:
        return fail(exc.problems)
    if args.json:
        data = {"points": [p.model_dump(mode="json") for p in outcome.points]}
        if scenario is not None:
            data["validation"] = result.validation.model_dump(mode="json")
        json.dump(data, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return EXIT_OK
    print(f"Read {len(outcome.points)} operating point(s) from {len(outcome.files)} file(s):")
    for file in outcome.files:
        print(f"  {file.name}: {file.format.tool} {file.format.file}, {file.points} point(s), "
              f"SHA-256 {file.sha256}")
    for point in outcome.points:
        print(point_line(point))
    if scenario is not None:
        print()
        print("\n".join(validation_lines(result.validation)))
    if args.save:
        save_into(Path(args.scenario), scenario)
        print(f"\nSaved {len(scenario.measurements)} measured point(s) into {args.scenario}; "
              "'aisizer report' shows them in its Validation section.")
    return EXIT_OK


def cmd_measurements_fit(args: argparse.Namespace) -> int:
    from app.measurements import MeasurementError

    try:
        scenario, outcome = imported(args)
        if scenario is None:
            raise api.ScenarioError(["measurements fit needs --scenario FILE or --example "
                                     "NAME: the configuration the files measured"])
        if outcome is not None:
            scenario = api.with_measurements(scenario, outcome.points, replace=True)
        result = api.size(scenario)
        fit = result.validation.fit if result.validation else None
        if fit is None:
            raise api.ScenarioError(["no measured figure the fit can use: give the load "
                                     "test's result files (or a scenario that holds them)"])
        saved = None
        if args.save_profile:
            saved = api.save_site_profile(scenario, args.engine_version or "", args.note or "")
    except MeasurementError as exc:
        return fail([f"nothing was imported: {p}" for p in exc.problems])
    except api.ScenarioError as exc:
        return fail(exc.problems)
    if saved is not None:
        clear_cache()
    if args.json:
        data = {"fit": fit.model_dump(mode="json")}
        if saved is not None:
            data["site_profile"] = saved[0].model_dump(mode="json")
        json.dump(data, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return EXIT_OK
    print("\n".join(fit_lines(fit)))
    if saved is not None:
        profile, path = saved
        print(f"\nSaved site profile '{profile.id}' into {path}. Sizings on {profile.gpu} "
              f"under {profile.engine} now use it (site-calibrated, range "
              f"x{profile.band_low:.2f} to x{profile.band_high:.2f}).")
    elif not args.json:
        print("\nGive --save-profile --engine-version VERSION [--note TEXT] to keep it as a "
              "site profile.")
    return EXIT_OK


# --------------------------------------------------------------------------- parsers


def _scenario_options(parser: argparse.ArgumentParser, positional: bool) -> None:
    if positional:
        parser.add_argument("scenario", nargs="?", help="scenario JSON file (or a report PDF)")
    else:
        parser.add_argument("--scenario", metavar="SCENARIO.json",
                            help="the scenario the files measured")
    parser.add_argument("--example", metavar="NAME", help="a built-in example instead")
    parser.add_argument("--set", action="append", metavar="PATH=VALUE",
                        help="override a field, e.g. workload.concurrent_users=64")


def add_parsers(sub, read_scenario) -> None:
    """Add ``test-plan`` and ``measurements`` to the subcommands ``sub``; ``read_scenario``
    reads the scenario of parsed arguments (``app.cli.scenario_data``)."""
    plan = sub.add_parser("test-plan", help="write the load test the sizing implies (script "
                          "and README) into a folder")
    _scenario_options(plan, positional=True)
    plan.add_argument("-o", "--output", required=True, metavar="DIR")
    plan.add_argument("--lang", choices=["en", "de"], default="en")
    plan.add_argument("--force", action="store_true", help="replace the plan's files in DIR")
    plan.set_defaults(func=cmd_test_plan, read_scenario=read_scenario)
    measurements = sub.add_parser("measurements", help="import load-test results, compare "
                                  "them with the sizing, fit the site's factors")
    actions = measurements.add_subparsers(dest="action", required=True)
    imp = actions.add_parser("import", help="read result files (vllm bench serve, SGLang "
                             "bench_serving, AIPerf, GenAI-Perf, guidellm, llama-bench, CSV)")
    imp.add_argument("files", nargs="+", metavar="FILE")
    _scenario_options(imp, positional=False)
    imp.add_argument("--save", action="store_true",
                     help="store the points in the scenario file (for the report)")
    imp.add_argument("--replace", action="store_true",
                     help="replace the measurements the scenario has instead of adding")
    imp.add_argument("--json", action="store_true")
    imp.set_defaults(func=cmd_measurements_import, read_scenario=read_scenario)
    fit = actions.add_parser("fit", help="fit the decode and prefill factors to the "
                             "measurements; optionally save them as a site profile")
    fit.add_argument("files", nargs="*", metavar="FILE",
                     help="result files (default: the measurements the scenario holds)")
    _scenario_options(fit, positional=False)
    fit.add_argument("--save-profile", action="store_true",
                     help="save the fit as a site profile in the user catalog")
    fit.add_argument("--engine-version", metavar="VERSION",
                     help="the engine version measured (with --save-profile)")
    fit.add_argument("--note", metavar="TEXT", help="the operator's note (with --save-profile)")
    fit.add_argument("--json", action="store_true")
    fit.set_defaults(func=cmd_measurements_fit, read_scenario=read_scenario)
