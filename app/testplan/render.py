"""The test plan as files: a README, the server's launch script, the load script, the pass
figures as CSV, and the scenario to compare the results with.

:func:`plan_files` returns ``{file name: text}``; :func:`write_plan` writes them into a folder
(atomically each; scripts executable). Texts are in the language asked for (``tr``); the
commands are the same in every language.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from app import __version__, atomic
from app.domain.testplan import LoadLevel, TestPlanResult
from app.i18n import localise_number, msg, tr
from app.testplan import commands
from app.testplan.commands import Command, shell

README = "README.md"
LAUNCH = "launch-server.sh"
LOAD = "run-load-test.sh"
EXPECTED = "expected.csv"
SCENARIO = "scenario.json"
TOOLS = ("vllm", "sglang", "aiperf", "genai-perf", "guidellm")
RESULT_PATTERNS = ("vllm-*.json", "sglang.jsonl", "profile_export_aiperf.json",
                   "profile_export_genai_perf.json", "guidellm-*.json", "llama-bench-*.json")
STEP_NAMES = {"one user": msg("one user"), "sweep": msg("sweep"),
              "scenario load": msg("scenario load"), "saturation": msg("saturation"),
              "beyond saturation": msg("beyond saturation"),
              "half load (rate)": msg("half the load's rate"),
              "load (rate)": msg("the load's rate"),
              "saturation (rate)": msg("the saturation rate")}


def num(value: float, spec: str, lang: str) -> str:
    return localise_number(format(value, spec), lang)


def seconds(value: float, lang: str) -> str:
    if value < 0.1:
        return f"{num(value * 1e3, ',.1f', lang)} ms"
    return f"{num(value, ',.2f', lang)} s"


def duration(value: float, lang: str) -> str:
    if value < 120:
        return f"{num(value, ',.0f', lang)} s"
    return f"{num(value / 60, ',.0f', lang)} min"


def time_cell(step: LoadLevel, metric: str, lang: str) -> str:
    e = step.expected[metric]
    return f"{seconds(e.value, lang)} ({seconds(e.low, lang)}–{seconds(e.high, lang)})"


def rate_cell(step: LoadLevel, metric: str, lang: str) -> str:
    e = step.expected[metric]
    spec = ",.1f" if e.value < 100 else ",.0f"
    return f"{num(e.value, spec, lang)} ({num(e.low, spec, lang)}–{num(e.high, spec, lang)})"


def level_name(step: LoadLevel, lang: str) -> str:
    return STEP_NAMES[step.name].text(lang)


def load_cell(step: LoadLevel, lang: str) -> str:
    if step.kind == "concurrency":
        return num(step.concurrency, ",d", lang)
    return f"{num(step.request_rate, ',.3g', lang)}/s"


def must_cell(step: LoadLevel, lang: str) -> str:
    """The pass figures of a level: its targets, else the pessimistic end of the range."""
    ttft = step.targets.get("ttft_s")
    speed = step.targets.get("tokens_per_s_per_user")
    parts = [tr("TTFT ≤ {value}", lang, value=seconds(ttft if ttft is not None else
                                                     step.expected["ttft_s"].high, lang)),
             tr("{value} tokens/s per user or more", lang,
                value=num(speed if speed is not None else
                          step.expected["tokens_per_s_per_user"].low, ",.1f", lang)),
             tr("no failed request", lang)]
    return "; ".join(parts)


def expected_table(plan: TestPlanResult, lang: str) -> list[str]:
    header = [tr("Level", lang), tr("Users or rate", lang), tr("Requests", lang),
              tr("Duration", lang), tr("TTFT (range)", lang),
              tr("Inter-token latency (range)", lang), tr("Tokens/s per user (range)", lang),
              tr("Output tokens/s (range)", lang), tr("Passes when", lang)]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for step in plan.levels:
        cells = [level_name(step, lang), load_cell(step, lang), num(step.requests, ",d", lang),
                 duration(step.duration_s, lang), time_cell(step, "ttft_s", lang),
                 time_cell(step, "itl_s", lang), rate_cell(step, "tokens_per_s_per_user", lang),
                 rate_cell(step, "output_tokens_per_s", lang), must_cell(step, lang)]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def range_sentence(plan: TestPlanResult, lang: str) -> str:
    if plan.site_profile:
        return tr("The range is x{low:,.2f} to x{high:,.2f} of the expected figures, from the "
                  "site profile '{profile}' (site-calibrated).", lang, low=plan.band_low,
                  high=plan.band_high, profile=plan.site_profile)
    return tr("The range is x{low:,.2f} to x{high:,.2f} of the expected figures (the "
              "calibration residuals of the {engine} profile).", lang, low=plan.band_low,
              high=plan.band_high, engine=plan.engine_name)


def configuration_sentence(plan: TestPlanResult, lang: str) -> str:
    return tr("One replica is {model} on {gpus:,} x {gpu} (tensor parallel {tp:,}, pipeline "
              "parallel {pp:,}) under {engine}, weights in {weights}, KV cache in {kv}, "
              "{context:,} tokens of context per sequence; the requests have {prompt:,} prompt "
              "and {output:,} output tokens.", lang, model=plan.model_name,
              gpus=plan.gpus_per_replica, gpu=plan.gpu_name, tp=plan.tensor_parallel,
              pp=plan.pipeline_parallel, engine=plan.engine_name, weights=plan.weights.upper(),
              kv=plan.kv_cache.upper(), context=plan.context_tokens, prompt=plan.prompt_tokens,
              output=plan.output_tokens)


def load_sentence(plan: TestPlanResult, lang: str) -> str:
    if plan.serving_of_training:
        return tr("Serving the trained model at the scenario's inference settings puts "
                  "{users:,.0f} users on the replica.", lang, users=plan.users_per_replica)
    if plan.users_total is None:
        return tr("The scenario runs each replica at saturation ({users:,.0f} sequences); "
                  "the plan has {replicas:,} replicas.", lang, users=plan.users_per_replica,
                  replicas=plan.replicas)
    return tr("The scenario's {total:,} users put {users:,.0f} on each replica: {load:,} "
              "replicas carry the load, {replicas:,} with the redundancy ({redundancy}). Test "
              "one replica directly, not through the load balancer, so that the figures "
              "compare with the per-replica figures below.", lang, total=plan.users_total,
              users=plan.users_per_replica, load=plan.replicas_for_load,
              replicas=plan.replicas, redundancy=plan.redundancy.upper())


def engine_notes(plan: TestPlanResult, lang: str) -> list[str]:
    notes = []
    if plan.engine == "generic":
        notes.append(tr("The scenario names no particular engine (generic profile); the "
                        "launch command is vLLM's, with the generic profile's settings.", lang))
    if commands.needs_checkpoint(plan):
        notes.append(tr("Serve a checkpoint already quantised to {fmt} (the engine reads the "
                        "format from the checkpoint's configuration); the sizing assumed "
                        "weights in {fmt}.", lang, fmt=plan.weights.upper()))
    if commands.quantisation(plan):
        notes.append(tr("The engine quantises the {native} checkpoint to {fmt} when it loads "
                        "(--quantization {flag}); a checkpoint already in {fmt} works too.",
                        lang, native=plan.native_precision.upper(), fmt=plan.weights.upper(),
                        flag=commands.quantisation(plan)))
    if plan.kv_cache == "int8" and plan.engine in ("vllm", "sglang", "generic"):
        notes.append(tr("{engine} has no INT8 KV cache; the command uses its default (16 bit), "
                        "which needs more memory than the sizing assumed: size with an FP8 KV "
                        "cache instead.", lang, engine=plan.engine_name))
    if plan.engine == "llama.cpp":
        notes.append(tr("llama-server shares --ctx-size among its --parallel slots, so the "
                        "context is the sized context per sequence times the slots. Releases "
                        "before mid-2025 take --flash-attn without a value.", lang))
    if plan.serving_of_training:
        notes.append(tr("The scenario is a training run; this plan tests serving the trained "
                        "model as the sizing's Steps 2 and 4 describe it.", lang))
    return notes


def bench_commands(plan: TestPlanResult, tool: str) -> list[Command]:
    if tool == "guidellm":
        return [commands.guidellm(plan, steps) for steps in (plan.sweep, plan.rates) if steps]
    build = {"vllm": commands.vllm_bench, "sglang": commands.sglang_bench,
             "aiperf": commands.aiperf, "genai-perf": commands.genai_perf}[tool]
    return [build(plan, step) for step in plan.levels]


def tools_of(plan: TestPlanResult) -> tuple[str, ...]:
    return (*TOOLS, "llama-bench") if plan.engine == "llama.cpp" else TOOLS


def tool_commands(plan: TestPlanResult, tool: str) -> list[Command]:
    if tool == "llama-bench":
        return commands.llama_bench(plan)
    return bench_commands(plan, tool)


TOOL_TITLES = {"vllm": "vLLM (vllm bench serve)", "sglang": "SGLang (python -m "
               "sglang.bench_serving)", "aiperf": "NVIDIA AIPerf (aiperf profile)",
               "genai-perf": "NVIDIA GenAI-Perf (genai-perf profile)",
               "guidellm": "guidellm (guidellm run)", "llama-bench": "llama.cpp (llama-bench)"}


def readme(plan: TestPlanResult, lang: str, today: dt.date) -> str:
    t = lambda text, **p: tr(text, lang, **p)  # noqa: E731
    lines = [f"# {t('Load test')}: {plan.scenario_name}", "",
             t("Written by AI Sizer {version} on {date} from the sizing of this scenario. The "
               "figures are predictions for one replica: a sizing is an estimate until it is "
               "measured under representative load.", version=__version__, date=str(today)),
             "", configuration_sentence(plan, lang), load_sentence(plan, lang),
             range_sentence(plan, lang), "", f"## 1. {t('Start one replica')}", "",
             t("Set MODEL to the model's folder (or the name the server loads) and run:"), "",
             "```sh", f"MODEL=/models/{plan.model_id} ./{LAUNCH}", "```", "",
             t("The script runs:"), "", "```sh", shell(commands.launch(plan)), "```", ""]
    lines += [f"- {note}" for note in engine_notes(plan, lang)]
    lines += ["", f"## 2. {t('Run the load')}", "",
              t("With the server up, run one load generator (vllm, sglang, aiperf, genai-perf, "
                "guidellm, llama-bench; default vllm). Each level saves its results under "
                "results/.") if plan.engine == "llama.cpp" else
              t("With the server up, run one load generator (vllm, sglang, aiperf, genai-perf, "
                "guidellm; default vllm). Each level saves its results under results/."),
              "", "```sh", f"MODEL=/models/{plan.model_id} ./{LOAD} vllm", "```", "",
              t("The levels: a concurrency sweep from one user through the scenario's load to "
                "saturation and beyond, then the same load as requests arriving at a rate "
                "(Poisson). All levels take about {hours:,.1f} hours with one tool, at the "
              "predicted speed. The commands per tool:", hours=plan.duration_s / 3600), ""]
    for tool in tools_of(plan):
        lines += [f"### {TOOL_TITLES[tool]}", "", "```sh"]
        lines += [shell(c) for c in tool_commands(plan, tool)]
        lines += ["```", ""]
    lines += [f"## 3. {t('What each level must reach')}", "", passing_sentence(plan, lang),
              ""]
    lines += expected_table(plan, lang)
    lines += ["", f"## 4. {t('Bring the results back')}", "",
              t("Import the result files into AI Sizer: the Validation step shows them beside "
                "the prediction, judges the targets and fits the site's decode and prefill "
                "factors. From the command line:"), "", "```sh",
              f"aisizer measurements import $(find results -name '{RESULT_PATTERNS[0]}' \\",
              *[f"    -o -name '{p}' \\" for p in RESULT_PATTERNS[1:-1]],
              f"    -o -name '{RESULT_PATTERNS[-1]}') --scenario {SCENARIO} --save", "```", "",
              t("or drop the files onto the Validation step of the window. The pass figures "
                "are also in {file} for a spreadsheet.", file=EXPECTED), ""]
    return "\n".join(lines)


def passing_sentence(plan: TestPlanResult, lang: str) -> str:
    if not plan.targets:
        return tr("Expected figures are means over each level's requests, with the range in "
                  "brackets. A batch job has no per-user targets: a level passes when it is no "
                  "worse than the pessimistic end of the range. A level outside the range "
                  "means the site runs differently from the model: import the results and let "
                  "AI Sizer fit the site's factors.", lang)
    return tr("Expected figures are means over each level's requests, with the range in "
              "brackets. Up to the scenario's load the targets apply (TTFT at most {ttft}, "
              "{speed:,.0f} tokens/s per user or more, where the sizing expects them met); "
              "above it, a level passes when it is no worse than the pessimistic end of the "
              "range. A level outside the range means the site runs differently from the "
              "model: import the results and let AI Sizer fit the site's factors.", lang,
              ttft=seconds(plan.targets["ttft_s"], lang),
              speed=plan.targets["tokens_per_s_per_user"])


def script_header(title: str) -> list[str]:
    return ["#!/usr/bin/env bash", f"# {title}", f"# Written by AI Sizer {__version__}.",
            "set -euo pipefail", 'cd "$(dirname "$0")"',
            ': "${MODEL:?set MODEL to the model folder or the name the server serves}"',
            'HOST="${HOST:-127.0.0.1}"', 'PORT="${PORT:-8000}"']


def launch_script(plan: TestPlanResult) -> str:
    lines = script_header(f"Start one replica of '{plan.scenario_name}' with the sized "
                          "settings.")
    options = commands.trtllm_options(plan) if plan.engine == "tensorrt-llm" else None
    if options:
        lines += [f"cat > {commands.TRTLLM_OPTIONS} <<'YAML'", options.rstrip("\n"), "YAML"]
    lines += ["exec " + shell(commands.launch(plan))]
    return "\n".join(lines) + "\n"


def step_comment(step: LoadLevel) -> str:
    e = step.expected
    return (f"  # {step.name}: {step.requests} requests; expected TTFT {e['ttft_s'].value:.3f} s, "
            f"ITL {e['itl_s'].value * 1e3:.1f} ms, "
            f"{e['output_tokens_per_s'].value:.0f} output tokens/s")


def tool_function(plan: TestPlanResult, tool: str) -> list[str]:
    name = tool.replace("-", "_")
    lines = [f"run_{name}() {{"]
    if tool in ("guidellm", "llama-bench"):
        found = tool_commands(plan, tool)
        for index, command in enumerate(found):
            text = shell(command)
            if tool == "llama-bench":
                part = "pp" if index == 0 else "tg"
                text += f' > "$RESULTS/llama-bench-{part}.json"'
            lines.append("  " + text.replace("\n", "\n  "))
    else:
        for step, command in zip(plan.levels, tool_commands(plan, tool), strict=True):
            lines += [step_comment(step), "  " + shell(command).replace("\n", "\n  ")]
    if tool in ("aiperf", "genai-perf"):
        lines.append(f'  echo "Results in $RESULTS/{tool}-*/"')
    lines.append("}")
    return lines


def load_script(plan: TestPlanResult) -> str:
    tools = tools_of(plan)
    lines = script_header(f"Load test of one replica of '{plan.scenario_name}': a "
                          "concurrency sweep and the request-rate form.")
    lines += ['BASE_URL="${BASE_URL:-http://$HOST:$PORT}"', 'TOKENIZER="${TOKENIZER:-$MODEL}"',
              'RESULTS="${RESULTS:-results}"', 'mkdir -p "$RESULTS"', ""]
    for tool in tools:
        lines += [*tool_function(plan, tool), ""]
    choices = "|".join(tools)
    lines += ['case "${1:-vllm}" in']
    lines += [f"  {tool}) run_{tool.replace('-', '_')} ;;" for tool in tools]
    lines += [f'  *) echo "usage: $0 [{choices}]" >&2; exit 2 ;;', "esac",
              'echo "Done: import the files under $RESULTS with aisizer measurements import '
              f'(see {README}), or drop them onto the Validation step."']
    return "\n".join(lines) + "\n"


def expected_csv(plan: TestPlanResult) -> str:
    metrics = ("ttft_s", "itl_s", "tokens_per_s_per_user", "output_tokens_per_s")
    header = ["level", "kind", "concurrency", "request_rate", "requests"]
    for metric in metrics:
        header += [f"{metric}_expected", f"{metric}_low", f"{metric}_high"]
    header += ["ttft_s_target", "tokens_per_s_per_user_target"]
    rows = [",".join(header)]
    for step in plan.levels:
        cells = [step.name, step.kind, str(step.concurrency),
                 "" if step.request_rate is None else f"{step.request_rate:.6g}",
                 str(step.requests)]
        for metric in metrics:
            e = step.expected[metric]
            cells += [f"{e.value:.6g}", f"{e.low:.6g}", f"{e.high:.6g}"]
        cells += [f"{step.targets[k]:.6g}" if k in step.targets else ""
                  for k in ("ttft_s", "tokens_per_s_per_user")]
        rows.append(",".join(cells))
    return "\n".join(rows) + "\n"


def plan_files(plan: TestPlanResult, scenario_json: dict, lang: str = "en",
               today: dt.date | None = None) -> dict[str, str]:
    """Every file of the plan: name -> text."""
    return {README: readme(plan, lang, today or dt.date.today()),
            LAUNCH: launch_script(plan), LOAD: load_script(plan), EXPECTED: expected_csv(plan),
            SCENARIO: json.dumps(scenario_json, indent=2, ensure_ascii=False) + "\n"}


def write_plan(folder: Path, files: dict[str, str]) -> list[Path]:
    """Write ``files`` into ``folder`` (created when missing); scripts are executable."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in files.items():
        path = folder / name
        atomic.write_text(path, text, 0o755 if name.endswith(".sh") else None)
        written.append(path)
    return written
