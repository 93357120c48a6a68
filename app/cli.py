"""The ``aisizer`` command line (CONTRACT.md, "Command line").

Errors go to stderr as one readable sentence per problem and exit with status 2; ``--json``
output goes to stdout only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from app import __version__, api, summary
from app.catalog import clear_cache, default_catalog
from app.catalog.hf_import import ModelImportError, read_model_folder, save_to_user_catalog
from app.domain.catalog import KINDS

EXIT_OK, EXIT_INVALID = 0, 2


def fail(problems: list[str]) -> int:
    for problem in problems:
        print(f"aisizer: {problem}", file=sys.stderr)
    return EXIT_INVALID


def cmd_gui(args: argparse.Namespace) -> int:
    from app.ui.app import run

    return run(getattr(args, "scenario", None), getattr(args, "screenshot_dir", None))


def scenario_data(args: argparse.Namespace) -> dict:
    if args.example and args.scenario:
        raise api.ScenarioError(["give a scenario file or --example, not both"])
    if args.example:
        return api.example(args.example)
    if not args.scenario:
        raise api.ScenarioError(["give a scenario file, or --example NAME "
                                 f"({', '.join(api.example_names())})"])
    return api._parse(Path(args.scenario))


def cmd_size(args: argparse.Namespace) -> int:
    try:
        data = scenario_data(args)
        for assignment in args.set or []:
            path, sep, value = assignment.partition("=")
            if not sep:
                raise api.ScenarioError([f"--set {assignment}: expected PATH=VALUE"])
            api.set_field(data, path.strip(), value.strip())
        result = api.size(api.load_scenario(data))
    except api.ScenarioError as exc:
        return fail(exc.problems)
    if args.json:
        json.dump(result.model_dump(mode="json"), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(summary.render(result))
    return EXIT_OK


def report_catalog_problems(catalog) -> None:
    for problem in catalog.problems:
        print(f"aisizer: catalog entry skipped: {problem}", file=sys.stderr)


def cmd_catalog(args: argparse.Namespace) -> int:
    catalog = default_catalog()
    report_catalog_problems(catalog)
    if args.action == "list":
        if args.kind not in KINDS:
            return fail([f"catalog list: unknown kind '{args.kind}'; choose one of "
                         f"{', '.join(KINDS)}"])
        for entry in getattr(catalog, args.kind).values():
            print(f"{entry.id:<22} {entry.name}")
        return EXIT_OK
    matches = [getattr(catalog, kind)[args.id] for kind in KINDS
               if args.id in getattr(catalog, kind)]
    if not matches:
        return fail([f"catalog show: no entry with id '{args.id}'"])
    for entry in matches:
        print(json.dumps(entry.model_dump(mode="json"), indent=2))
    return EXIT_OK


def cmd_import_model(args: argparse.Namespace) -> int:
    try:
        imported = read_model_folder(Path(args.folder), args.id)
        path = save_to_user_catalog(imported.spec)
    except ModelImportError as exc:
        return fail([str(exc)])
    clear_cache()
    for warning in imported.warnings:
        print(f"aisizer: note: {warning}", file=sys.stderr)
    spec = imported.spec
    print(f"Imported '{spec.id}' ({spec.name}) into {path}; use \"model\": \"{spec.id}\".")
    if imported.quantization:
        print(f"Weights on disk are {imported.quantization}; use it as precision.weights.")
    return EXIT_OK


def cmd_example(args: argparse.Namespace) -> int:
    if not args.name:
        print("\n".join(api.example_names()))
        return EXIT_OK
    try:
        print(json.dumps(api.example(args.name), indent=2))
    except api.ScenarioError as exc:
        return fail(exc.problems)
    return EXIT_OK


def cmd_calibration(args: argparse.Namespace) -> int:
    from app.engine.calibration import normalise_case, run_cases, summarise

    path = Path(args.cases)
    try:
        cases = [normalise_case(raw) for raw in json.loads(path.read_text(encoding="utf-8"))]
    except (OSError, ValueError, KeyError) as exc:
        return fail([f"calibration: cannot read cases from '{path}': {exc}"])
    outcomes = run_cases(cases, default_catalog())
    print(f"{'case':<9} {'model':<15} {'weights':<11} {'gpu':<12} {'tp':>2} {'pp':>2} "
          f"{'engine':<13} {'isl/osl':>11} {'metric':<29} {'measured':>10} {'predicted':>10} "
          f"{'ratio':>6}")
    for o in outcomes:
        c = o.case
        print(f"{c.id:<9} {c.model:<15} {c.weights:<11} {c.gpu:<12} {c.tensor_parallel:>2} "
              f"{c.pipeline_parallel:>2} {c.engine:<13} {c.prompt_tokens:>5}/{c.output_tokens:<5} "
              f"{c.metric:<29} {c.measured:>10.1f} {o.predicted:>10.1f} {o.ratio:>6.2f}")
    print()
    for group, row in summarise(outcomes).items():
        print(f"{group:<22} cases {row['cases']:3.0f}  median |error| "
              f"{row['median_abs_error']:6.1%}  p90 {row['p90_abs_error']:6.1%}  worst "
              f"factor {row['worst_factor']:.2f}")
    return EXIT_OK


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="aisizer", description="Size AI infrastructure for LLMs, "
                                "offline.")
    p.add_argument("--version", action="version", version=f"aisizer {__version__}")
    sub = p.add_subparsers(dest="command")
    gui = sub.add_parser("gui", help="open the desktop app")
    gui.add_argument("scenario", nargs="?")
    gui.add_argument("--screenshot-dir", metavar="DIR",
                     help="render every step to a PNG in DIR and exit")
    gui.set_defaults(func=cmd_gui)
    size = sub.add_parser("size", help="size a scenario")
    size.add_argument("scenario", nargs="?", help="scenario JSON file")
    size.add_argument("--example", metavar="NAME", help="size a built-in example instead")
    size.add_argument("--json", action="store_true", help="print the result JSON")
    size.add_argument("--set", action="append", metavar="PATH=VALUE",
                      help="override a field, e.g. workload.concurrent_users=64")
    size.set_defaults(func=cmd_size)
    cat = sub.add_parser("catalog", help="browse the catalogs")
    cat_sub = cat.add_subparsers(dest="action", required=True)
    listing = cat_sub.add_parser("list", help=f"list one kind: {', '.join(KINDS)}")
    listing.add_argument("kind")
    show = cat_sub.add_parser("show", help="show one entry with its source")
    show.add_argument("id")
    cat.set_defaults(func=cmd_catalog)
    imp = sub.add_parser("import-model", help="import a local Hugging Face model folder")
    imp.add_argument("folder")
    imp.add_argument("--id", help="catalog id to use (default: from the folder name)")
    imp.set_defaults(func=cmd_import_model)
    ex = sub.add_parser("example", help="print a built-in example scenario")
    ex.add_argument("name", nargs="?")
    ex.set_defaults(func=cmd_example)
    cal = sub.add_parser("calibration", help="predicted against measured, per case")
    cal.add_argument("--cases", default="tests/validation/calibration_cases.json")
    cal.set_defaults(func=cmd_calibration)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command is None:
        return cmd_gui(args)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
