"""The ``aisizer`` command line (CONTRACT.md, "Command line").

Errors go to stderr as one readable sentence per problem and exit with status 2; ``--json``
output goes to stdout only. ``verify`` exits 0 for a valid and trusted report, 1 for any other
verdict and 2 when the file cannot be read.
"""

from __future__ import annotations

import argparse
import errno
import getpass
import json
import os
import sys
from pathlib import Path

from app import __version__, api, atomic, paths, reading, summary
from app.catalog import clear_cache, default_catalog
from app.catalog.hf_import import ModelImportError, read_model_folder, save_to_user_catalog
from app.cli_measurements import add_parsers as add_measurement_parsers
from app.domain.catalog import KINDS

EXIT_OK, EXIT_NOT_TRUSTED, EXIT_INVALID = 0, 1, 2
NOT_FINITE = ("the result holds a number that is not finite (NaN or infinite), which JSON "
              "cannot carry; nothing was written. Check the scenario's numbers")
PASSPHRASE_ENV = "AISIZER_SIGNING_PASSPHRASE"


def fail(problems: list[str]) -> int:
    for problem in problems:
        print(f"aisizer: {problem}", file=sys.stderr)
    return EXIT_INVALID


def cmd_gui(args: argparse.Namespace) -> int:
    from app.ui.app import run

    return run(getattr(args, "scenario", None), getattr(args, "screenshot_dir", None),
               getattr(args, "example", None))


def scenario_data(args: argparse.Namespace) -> dict:
    if args.example and args.scenario:
        raise api.ScenarioError(["give a scenario file or --example, not both; examples: "
                                 f"{', '.join(api.example_names())}"])
    if args.example:
        return api.example(args.example)
    if not args.scenario:
        raise api.ScenarioError(["give a scenario file, or --example NAME "
                                 f"({', '.join(api.example_names())})"])
    path = Path(args.scenario)
    if is_pdf(path):  # a report: the scenario attached to it, if the report is as signed
        return report_scenario(path, getattr(args, "accept_modified", False))
    return api._parse(path)


def report_scenario(path: Path, accept_modified: bool) -> dict:
    """The scenario a report carries; refused when the signed report was modified."""
    from app.report import attachments, verify

    try:
        data, outcome = verify.checked_scenario(path, accept_modified)
    except verify.ModifiedReportError as exc:
        raise api.ScenarioError([f"{exc}; give --accept-modified to use it anyway"]) from None
    except attachments.ReportFileError as exc:
        raise api.ScenarioError([str(exc)]) from None
    if outcome.status in (verify.MODIFIED, verify.FORGED):
        print(f"aisizer: warning: '{path}' is {outcome.summary}; its attached scenario is used "
              "because --accept-modified was given, and may not be what was signed",
              file=sys.stderr)
    return data


def is_pdf(path: Path) -> bool:
    return reading.starts_with(path, b"%PDF-")


def sized_scenario(args: argparse.Namespace) -> tuple[dict, object]:
    """The scenario (with --set applied) and its result; ScenarioError on invalid input."""
    data = scenario_data(args)
    scenario = api.apply_settings(data, args.set or [])
    return data, api.size(scenario)


def cmd_size(args: argparse.Namespace) -> int:
    try:
        _, result = sized_scenario(args)
    except api.ScenarioError as exc:
        return fail(exc.problems)
    if args.json:
        try:
            text = json.dumps(result.model_dump(mode="json"), indent=2, allow_nan=False)
        except ValueError:
            return fail([NOT_FINITE])
        sys.stdout.write(text + "\n")
    else:
        sys.stdout.write(summary.render(result))
    return EXIT_OK


def passphrase(args: argparse.Namespace, what: str, confirm: bool = False) -> str:
    """From --passphrase-file, AISIZER_SIGNING_PASSPHRASE, or asked on the terminal."""
    from app.report.identity import IdentityError

    if getattr(args, "passphrase_file", None):
        try:
            text = Path(args.passphrase_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise IdentityError(f"cannot read the passphrase file '{args.passphrase_file}': "
                                f"{getattr(exc, 'strerror', None) or exc}") from None
        return text.splitlines()[0] if text.splitlines() else ""
    if os.environ.get(PASSPHRASE_ENV) is not None:
        return os.environ[PASSPHRASE_ENV]
    if not sys.stdin.isatty():
        raise IdentityError(f"no passphrase for {what}: give --passphrase-file FILE, set "
                            f"{PASSPHRASE_ENV}, or run the command on a terminal")
    try:
        first = getpass.getpass(f"Passphrase for {what}: ")
        if confirm and getpass.getpass("Repeat the passphrase: ") != first:
            raise IdentityError("the two passphrases differ; nothing was written")
    except (EOFError, KeyboardInterrupt):
        raise IdentityError("no passphrase given; nothing was written") from None
    return first


def signing_identity(args: argparse.Namespace):
    """The identity to sign with: --sign FILE, else the configured one, unless --no-sign."""
    from app.report import identity

    if args.no_sign:
        return None
    path = Path(args.sign) if args.sign else identity.identity_path()
    if not args.sign and not path.is_file():
        return None
    return identity.load(path, passphrase(args, f"the signing identity '{path}'"))


MAX_COMPARED = 3


def compared_options(paths: list[str]) -> list[tuple[str, object]]:
    """(name, result) of each scenario file to show beside the report's own sizing."""
    if len(paths) > MAX_COMPARED:
        raise api.ScenarioError([f"--compare: at most {MAX_COMPARED} options beside the "
                                 f"report's own scenario (got {len(paths)})"])
    options = []
    for path in paths:
        scenario = api.load_scenario(Path(path))
        options.append((scenario.name, api.size(scenario)))
    return options


def cmd_report(args: argparse.Namespace) -> int:
    from reportlab.platypus.doctemplate import LayoutError

    from app.report.export import build_report, write_report
    from app.report.identity import IdentityError

    try:
        data, result = sized_scenario(args)
        compared = compared_options(args.compare or [])
        signer = signing_identity(args)
        pdf = build_report(data, result, lang=args.lang, paper=args.paper, identity=signer,
                           catalog=default_catalog(), compared=compared)
    except api.ScenarioError as exc:
        return fail(exc.problems)
    except LayoutError:
        return fail(["the report cannot be laid out: a text of the scenario is too long for "
                     "one page (name, customer, project, region); shorten it. Nothing was "
                     "written"])
    except IdentityError as exc:  # a ValueError: before the clause below
        return fail([str(exc)])
    except ValueError as exc:
        if "JSON compliant" not in str(exc):
            raise
        return fail([NOT_FINITE])
    try:
        write_report(args.output, pdf)
    except OSError as exc:
        return fail([f"cannot write '{args.output}': {exc.strerror}; nothing was written"])
    if signer:
        from app.report.identity import grouped

        print(f"Wrote {args.output}, signed by {signer.name}; certificate SHA-256 "
              f"fingerprint {grouped(signer.fingerprint)}")
    else:
        print(f"Wrote {args.output} (not signed)")
    return EXIT_OK


def cmd_verify(args: argparse.Namespace) -> int:
    from app.report import attachments, verify
    from app.report.identity import IdentityError

    trust = [Path(p) for p in args.trust or []]
    try:
        outcome = verify.verify_file(Path(args.report), trust)
        pinned = verify.pin(outcome, args.pin or None) if args.pin is not None else None
        if pinned is not None:
            outcome = verify.verify_file(Path(args.report), trust)
    except (attachments.ReportFileError, IdentityError) as exc:
        return fail([str(exc)])
    except verify.PinError as exc:
        _print_verification(args, outcome)
        return fail([str(exc)])
    _print_verification(args, outcome)
    if pinned is not None and not args.json:
        print(f"  pinned: the signing certificate is kept in {pinned}; later reports signed "
              "with it verify as trusted")
    return EXIT_OK if outcome.trusted else EXIT_NOT_TRUSTED


def _print_verification(args: argparse.Namespace, outcome) -> None:
    """The verdict, led by the signing certificate's fingerprint in groups of four."""
    from app.report import verify

    if args.json:
        json.dump(outcome.to_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    if outcome.fingerprint:
        groups = outcome.fingerprint_groups.split()
        print("Signing certificate SHA-256 fingerprint (compare it with the signer's, by phone "
              "or letter):")
        print(f"  {' '.join(groups[:8])}")
        print(f"  {' '.join(groups[8:])}")
        print(f"  {verify.PRINTED_CLAIM}")
        if outcome.printed_matches is True:
            print("  The fingerprint printed in the report matches the signing certificate.")
        elif outcome.printed_matches is None:
            print("  The report's pages print no fingerprint to compare.")
        else:
            print("  The fingerprint printed in the report does NOT match the signing "
                  "certificate.")
    elif outcome.status == verify.NOT_SIGNED:
        print("Signing certificate: none. This report is not signed, whatever its pages show.")
    print(f"{args.report}: {outcome.summary}")
    print(f"  {outcome.detail}")
    for label, value in (("signer", outcome.signer), ("organisation", outcome.organisation),
                         ("email", outcome.email), ("signing time", outcome.signing_time),
                         ("certificate SHA-256", outcome.fingerprint),
                         ("printed fingerprint", ", ".join(
                             f for f in outcome.printed_fingerprints if
                             f != outcome.fingerprint)),
                         ("trust anchor", outcome.trust_anchor),
                         ("attachments", ", ".join(outcome.attachments)),
                         ("file SHA-256", outcome.file_sha256)):
        if value:
            print(f"  {label + ':':<21}{value}")


def _accept_modified_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--accept-modified", action="store_true",
                        help="use the scenario of a signed report even when the report was "
                             "modified after signing (a warning says so)")


def _refuse_overwrite(path: Path, force: bool) -> None:
    from app.report.identity import IdentityError

    if path.exists() and not force:
        raise IdentityError(f"a signing identity already exists at '{path}'; give --force to "
                            "replace it")


def cmd_identity(args: argparse.Namespace) -> int:
    from app.report import identity
    from app.report.identity import IdentityError

    try:
        if args.action == "create":
            path = Path(args.output) if args.output else identity.identity_path()
            _refuse_overwrite(path, args.force)
            secret = passphrase(args, "the new signing identity", confirm=True)
            made = identity.create(args.name, args.organisation or "", args.email or "",
                                   secret, path)
            print(f"Created {path} (certificate {path.with_suffix('.pem')})")
            return _show(made.certificate, path)
        if args.action == "import":
            path = Path(args.output) if args.output else identity.identity_path()
            _refuse_overwrite(path, args.force)
            source = Path(args.file)
            made = identity.import_pkcs12(source, passphrase(args, f"'{source}'"), path)
            print(f"Imported {source} as {path} ({len(made.chain)} chain certificate(s))")
            for problem in identity.usage_problems(made.certificate):
                print(f"aisizer: note: {problem}", file=sys.stderr)
            return _show(made.certificate, path)
        return cmd_identity_show(args)
    except IdentityError as exc:
        return fail([str(exc)])


def cmd_identity_show(args: argparse.Namespace) -> int:
    from app.report import identity
    from app.report.identity import IdentityError

    path = Path(args.file) if args.file else identity.identity_path()
    pem = path.with_suffix(".pem")
    if pem.is_file():
        certificate = identity.read_certificates(pem)[0]
    elif path.is_file():
        certificate = identity.load(path, passphrase(args, f"'{path}'")).certificate
    else:
        raise IdentityError(f"no signing identity at '{path}'; create one with 'aisizer "
                            "identity create --name NAME'")
    return _show(certificate, path, as_json=getattr(args, "json", False))


def _show(certificate, path: Path, as_json: bool = False) -> int:
    from app.report import identity

    described = {"identity": str(path), **identity.describe(certificate)}
    if as_json:
        json.dump(described, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return EXIT_OK
    for key, value in described.items():
        print(f"  {key.replace('_', ' ') + ':':<21}{value}")
    return EXIT_OK


def report_catalog_problems(catalog) -> None:
    for problem in catalog.problems:
        print(f"aisizer: catalog entry skipped: {problem}", file=sys.stderr)


def cmd_catalog(args: argparse.Namespace) -> int:
    bundle_commands = {"export": cmd_catalog_export, "import": cmd_catalog_import,
                       "restore": cmd_catalog_restore, "versions": cmd_catalog_versions}
    if args.action in bundle_commands:
        return bundle_commands[args.action](args)
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


def cmd_catalog_export(args: argparse.Namespace) -> int:
    import hashlib

    from app.catalog import bundle

    try:
        manifest = bundle.export_bundle(args.output)
    except bundle.BundleError as exc:
        return fail(exc.problems)
    except OSError as exc:
        return fail([f"cannot write '{args.output}': {exc.strerror or exc}; nothing was "
                     "written"])
    digest = hashlib.sha256(Path(args.output).read_bytes()).hexdigest()
    print(f"Wrote {args.output}: {len(manifest['files'])} catalog file(s), exported "
          f"{manifest['exported_at']} by {manifest['tool']} {manifest['tool_version']}")
    for entry in manifest["files"]:
        print(f"  {entry['path']:<24} {entry['catalog_version']:<14} "
              f"{entry['entries']:>4} entries")
    print(f"SHA-256 of the bundle: {digest}")
    print("Compare it on the target before 'aisizer catalog import'.")
    return EXIT_OK


def cmd_catalog_import(args: argparse.Namespace) -> int:
    from app.catalog import bundle

    try:
        outcome = bundle.import_bundle(args.bundle)
    except bundle.BundleError as exc:
        return fail([f"catalog import refused, nothing was changed: {problem}"
                     for problem in exc.problems])
    clear_cache()
    manifest = outcome.manifest
    print(f"Imported {args.bundle} (SHA-256 {outcome.sha256}), exported "
          f"{manifest.get('exported_at')} by {manifest.get('tool')} "
          f"{manifest.get('tool_version')}, into {outcome.installed}")
    for name, version in outcome.versions.items():
        print(f"  {name:<18} {version}")
    if outcome.dropped:
        count = len(outcome.dropped)
        print(f"aisizer: note: {count} {'entry' if count == 1 else 'entries'} of the previous "
              f"user catalog {'is' if count == 1 else 'are'} not in the bundle: "
              f"{', '.join(outcome.dropped)}", file=sys.stderr)
    if outcome.backup is not None:
        print(f"The previous user catalog is kept in {outcome.backup}; 'aisizer catalog "
              "restore' brings it back.")
    return EXIT_OK


def cmd_catalog_restore(args: argparse.Namespace) -> int:
    from app.catalog import bundle

    if args.list:
        found = bundle.backups()
        if not found:
            print("No earlier user catalogs are kept.")
        for item in found:
            versions = ", ".join(f"{k} {v}" for k, v in item.versions.items())
            print(f"{item.name}  {item.detail}  ({versions or 'no user catalog'})")
        return EXIT_OK
    try:
        outcome = bundle.restore(args.name)
    except bundle.BundleError as exc:
        return fail(exc.problems)
    clear_cache()
    what = "the user catalog" if outcome.restored.had_user_catalog else \
        "no user catalog (the built-in catalogs alone)"
    print(f"Restored {what} from {outcome.restored.name} ({outcome.restored.detail}).")
    for name, version in outcome.versions.items():
        print(f"  {name:<18} {version}")
    print(f"The catalog replaced now is kept in {outcome.saved_as}.")
    for problem in outcome.problems:
        print(f"aisizer: catalog entry skipped: {problem}", file=sys.stderr)
    return EXIT_OK


def cmd_catalog_versions(args: argparse.Namespace) -> int:
    from app.catalog import bundle

    active = bundle.active_versions()
    profiles = default_catalog().site_profiles
    active["site_profiles"] = [site_profile_record(profile) for profile in profiles.values()]
    if args.json:
        json.dump(active, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return EXIT_OK
    builtin, user = active["builtin"], active["user"]
    print(f"Built-in catalogs: {builtin['folder']}")
    if user["present"]:
        print(f"User catalog:      {user['folder']}")
    else:
        print(f"User catalog:      none ({user['folder']} does not exist)")
    print(f"{'file':<18} {'built-in':<16} {'user (wins)':<16}")
    for name in bundle.FILE_NAMES:
        if name in builtin["files"] or name in user["files"]:
            print(f"{name:<18} {builtin['files'].get(name, '-'):<16} "
                  f"{user['files'].get(name, '-'):<16}")
    imported = user.get("imported")
    if imported:
        print(f"The user catalog was imported from {imported['source']} on "
              f"{imported['imported_at']} (exported {imported['exported_at']} by AI Sizer "
              f"{imported['tool_version']}; bundle SHA-256 {imported['sha256']}).")
    for record in active["site_profiles"]:
        print(f"Site profile {record['id']}: {record['gpu']}, {record['engine']} "
              f"{record['engine_version']}, measured {record['as_of']}, decode "
              f"x{record['decode_scale']:.3f}, prefill x{record['prefill_scale']:.3f}, "
              f"{len(record['measurement_files'])} file(s)")
    if active["backups"]:
        print("Earlier user catalogs ('aisizer catalog restore' brings back the newest made "
              "by an import; 'restore NAME' a given one):")
        for item in active["backups"]:
            print(f"  {item['name']}  {item['detail']}")
    return EXIT_OK


def site_profile_record(profile) -> dict:
    """What ``catalog versions`` says of a site profile: its factors and provenance."""
    return profile.model_dump(mode="json", include={
        "id", "gpu", "engine", "engine_version", "as_of", "decode_scale", "prefill_scale",
        "band_low", "band_high", "measurement_files", "operator_note", "tool_version"})


def cmd_selftest(args: argparse.Namespace) -> int:
    from app import selftest

    return selftest.main(verbose=args.verbose)


def cmd_import_model(args: argparse.Namespace) -> int:
    from app.catalog import load_catalog

    builtin = load_catalog(include_user=False).models
    try:
        imported = read_model_folder(Path(args.folder), args.id)
        spec = imported.spec
        renamed = None
        if spec.id in builtin and not args.replace:
            if args.id:  # asked for by name: say what it would do instead of doing it
                return fail([f"import-model: '{spec.id}' is a built-in model; importing under "
                             "that id would replace it for every scenario. Give another "
                             "--id, or --replace to replace it"])
            renamed, spec = spec.id, spec.model_copy(update={"id": unused_id(spec.id,
                                                                             builtin)})
        path = save_to_user_catalog(spec)
    except ModelImportError as exc:
        return fail([str(exc)])
    clear_cache()
    for warning in imported.warnings:
        print(f"aisizer: note: {warning}", file=sys.stderr)
    if renamed:
        print(f"aisizer: note: '{renamed}' is a built-in model; the folder was imported as "
              f"'{spec.id}' so that the built-in one stays as it is (give --id to choose the "
              "id, or --replace to replace the built-in model).", file=sys.stderr)
    print(f"Imported '{spec.id}' ({spec.name}) into {path}; use \"model\": \"{spec.id}\".")
    if imported.quantization:
        print(f"Weights on disk are {imported.quantization}; use it as precision.weights.")
    return EXIT_OK


def unused_id(model_id: str, taken) -> str:
    """``model_id`` with ``-local`` (then ``-local-2``, ...) added: an id not in ``taken``."""
    candidate, number = f"{model_id}-local", 2
    while candidate in taken:
        candidate, number = f"{model_id}-local-{number}", number + 1
    return candidate


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
    from app.engine.calibration import beyond_reach, load_cases, run_cases, summarise
    from app.report.accuracy import cross_validation, cross_validation_lines, read_cases

    files = [Path(p) for p in args.cases] if args.cases else paths.calibration_case_files()
    try:
        cases, _ = load_cases(read_cases(files), default_catalog())
        doc = cross_validation(default_catalog(), files)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        shown = ", ".join(str(f) for f in files)
        return fail([f"calibration: cannot read cases from '{shown}': {exc}"])
    if args.write:
        text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
        atomic.write_bytes(Path(args.write), text.encode("utf-8"))
    print("\n".join(cross_validation_lines(doc)))
    print("In-sample: the catalog's factors as shipped (fitted per engine and GPU family where "
          "the engine has cases, assumed where not)")
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
    print_beyond_reach(beyond_reach(cases, default_catalog()))
    return EXIT_OK


def print_beyond_reach(found) -> None:
    """The cases no efficiency can reproduce (``calibration.headroom_at_peak``)."""
    print()
    print(f"Beyond the engine's reach: {len(found)} case(s) measured faster than the engine "
          "predicts at 100 % of the hardware's peak bandwidth, compute and link with no fixed "
          "time (the model counts more work than ran, or the case's settings are not what ran)")
    print("  headroom at peak             case      model            gpu          tp  engine"
          "          isl/osl   metric")
    for case, headroom in found:
        print(f"  x{headroom:<27.2f} {case.id:<9} {case.model:<16} {case.gpu:<12} "
              f"tp{case.tensor_parallel:<2} {case.engine:<13} "
              f"{case.prompt_tokens:>5}/{case.output_tokens:<5} {case.metric}")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="aisizer", description="Size AI infrastructure for LLMs, "
                                "offline.")
    p.add_argument("--version", action="version", version=f"aisizer {__version__}")
    sub = p.add_subparsers(dest="command")
    gui = sub.add_parser("gui", help="open the desktop app")
    gui.add_argument("scenario", nargs="?")
    gui.add_argument("--screenshot-dir", metavar="DIR",
                     help="render every step to a PNG in DIR and exit")
    gui.add_argument("--example", metavar="NAME",
                     help="open a built-in example as a new scenario (make run: worked-example)")
    gui.set_defaults(func=cmd_gui)
    size = sub.add_parser("size", help="size a scenario")
    size.add_argument("scenario", nargs="?", help="scenario JSON file")
    size.add_argument("--example", metavar="NAME", help="size a built-in example instead")
    _accept_modified_option(size)
    size.add_argument("--json", action="store_true", help="print the result JSON")
    size.add_argument("--set", action="append", metavar="PATH=VALUE",
                      help="override a field, e.g. workload.concurrent_users=64")
    size.set_defaults(func=cmd_size)
    add_report_parsers(sub)
    cat = sub.add_parser("catalog", help="browse the catalogs")
    cat_sub = cat.add_subparsers(dest="action", required=True)
    listing = cat_sub.add_parser("list", help=f"list one kind: {', '.join(KINDS)}")
    listing.add_argument("kind")
    show = cat_sub.add_parser("show", help="show one entry with its source")
    show.add_argument("id")
    export = cat_sub.add_parser("export", help="write the catalogs in use to a bundle (zip) "
                                "for another, air-gapped site")
    export.add_argument("output", metavar="OUT.zip")
    imp_bundle = cat_sub.add_parser("import", help="check a catalog bundle completely, then "
                                    "install it as the user catalog (the previous one is kept)")
    imp_bundle.add_argument("bundle", metavar="BUNDLE.zip")
    restore = cat_sub.add_parser("restore", help="bring back the user catalog the last import "
                                 "replaced")
    restore.add_argument("name", nargs="?", help="a backup name from 'restore --list'")
    restore.add_argument("--list", action="store_true", help="list the kept catalogs")
    versions = cat_sub.add_parser("versions", help="which catalog versions are in use")
    versions.add_argument("--json", action="store_true")
    cat.set_defaults(func=cmd_catalog)
    selftest = sub.add_parser("selftest", help="check that this installation works: catalogs, "
                              "sizing, signed report, window")
    selftest.add_argument("-v", "--verbose", action="store_true",
                          help="print the traceback of a failed check")
    selftest.set_defaults(func=cmd_selftest)
    imp = sub.add_parser("import-model", help="import a local Hugging Face model folder")
    imp.add_argument("folder")
    imp.add_argument("--id", help="catalog id to use (default: from the folder name; a "
                     "built-in model's id gets '-local' added)")
    imp.add_argument("--replace", action="store_true",
                     help="let the import replace a built-in model with the same id")
    imp.set_defaults(func=cmd_import_model)
    ex = sub.add_parser("example", help="print a built-in example scenario")
    ex.add_argument("name", nargs="?")
    ex.set_defaults(func=cmd_example)
    cal = sub.add_parser("calibration", help="predicted against measured, per case")
    cal.add_argument("--cases", action="append", default=None, metavar="FILE",
                     help="case file, repeatable (default: the cases the program ships, "
                          "resources/calibration/calibration_cases*.json)")
    cal.add_argument("--write", metavar="FILE", default=None,
                     help="also write the cross-validated residuals per case as JSON "
                          "(make cross-validation: resources/calibration/cross_validation.json)")
    cal.set_defaults(func=cmd_calibration)
    add_measurement_parsers(sub, scenario_data)
    return p


def _passphrase_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--passphrase-file", metavar="FILE",
                        help=f"read the passphrase from FILE (else {PASSPHRASE_ENV}, else "
                             "asked on the terminal)")


def add_report_parsers(sub) -> None:
    report = sub.add_parser("report", help="write the PDF report of a scenario")
    report.add_argument("scenario", nargs="?", help="scenario JSON file (or a report PDF)")
    report.add_argument("--example", metavar="NAME", help="report a built-in example instead")
    _accept_modified_option(report)
    report.add_argument("-o", "--output", required=True, metavar="OUT.pdf")
    report.add_argument("--sign", metavar="IDENTITY.p12",
                        help="sign with this identity (default: the configured identity, if "
                             "there is one)")
    report.add_argument("--no-sign", action="store_true",
                        help="do not sign, even when an identity is configured")
    _passphrase_option(report)
    report.add_argument("--lang", choices=["en", "de"], default="en")
    report.add_argument("--paper", choices=["a4", "letter"], default="a4")
    report.add_argument("--compare", action="append", metavar="OTHER.json",
                        help="add a compared option (repeat, at most 3)")
    report.add_argument("--set", action="append", metavar="PATH=VALUE",
                        help="override a field, e.g. workload.concurrent_users=64")
    report.set_defaults(func=cmd_report)
    verify = sub.add_parser("verify", help="check a report's signature")
    verify.add_argument("report", help="report PDF")
    verify.add_argument("--trust", action="append", metavar="CA.pem",
                        help="a trust anchor (PEM or DER certificate); may repeat")
    verify.add_argument("--json", action="store_true", help="print the outcome as JSON")
    verify.add_argument("--pin", nargs="?", const="", default=None, metavar="FINGERPRINT",
                        help="trust this report's signer from now on (the certificate is kept "
                             "in the configuration folder's trust/); with FINGERPRINT, only "
                             "if it is the signing certificate's")
    verify.set_defaults(func=cmd_verify)
    ident = sub.add_parser("identity", help="manage the local signing identity")
    ident_sub = ident.add_subparsers(dest="action", required=True)
    create = ident_sub.add_parser("create", help="create a self-signed signing identity")
    create.add_argument("--name", required=True, help="your name, as the certificate shows it")
    create.add_argument("--organisation", default="", help="your organisation")
    create.add_argument("--email", default="", help="your email address")
    imp = ident_sub.add_parser("import", help="import an organisation's PKCS#12 with its chain")
    imp.add_argument("file", metavar="FILE.p12")
    for command in (create, imp):
        command.add_argument("--output", metavar="FILE.p12",
                             help="where to keep it (default: the configuration folder)")
        command.add_argument("--force", action="store_true", help="replace an existing one")
        _passphrase_option(command)
    show = ident_sub.add_parser("show", help="show the certificate and its fingerprint")
    show.add_argument("file", nargs="?", metavar="FILE.p12")
    show.add_argument("--json", action="store_true")
    _passphrase_option(show)
    ident.set_defaults(func=cmd_identity)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command is None:
        return cmd_gui(args)
    try:
        return args.func(args)
    except OSError as exc:
        if not _is_closed_output(exc):
            raise
        return _quit_after_closed_output()
    except RecursionError:  # a reader without its own depth bound (the readers have one)
        return fail(["the input nests objects or lists too deeply to be read; nothing was "
                     "changed"])


def _is_closed_output(exc: OSError) -> bool:
    """Whether writing the output failed because the reader went away (``aisizer ... | head``).

    Linux and macOS raise :class:`BrokenPipeError` (EPIPE); Windows raises ``OSError`` with
    EINVAL when the pipe's reader has closed it. Any other OSError is a real error.
    """
    if isinstance(exc, BrokenPipeError):
        return True
    return exc.errno == errno.EINVAL and _stdout_is_closed()


def _stdout_is_closed() -> bool:
    try:
        sys.stdout.flush()
    except OSError:
        return True
    return False


def _quit_after_closed_output() -> int:
    """Exit without a traceback when the reader stopped reading, with status 1.

    Python's interpreter would flush stdout again at exit and print a second error, so stdout is
    pointed at the null device first (the recipe and the status in the Python docs, ``signal``
    module, "Note on SIGPIPE").
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    finally:
        os.close(devnull)
    return 1


if __name__ == "__main__":
    sys.exit(main())
