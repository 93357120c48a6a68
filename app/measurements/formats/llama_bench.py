"""``llama-bench -o json`` (a list of tests) or ``-o jsonl`` (one test per line).

Fields as ``tools/llama-bench/llama-bench.cpp`` prints them (``test::get_fields``):
``n_prompt``, ``n_gen``, ``n_depth``, ``avg_ns`` (mean time of one repetition [ns]),
``avg_ts``, ``model_type``, ``gpu_info``, ``build_commit``. A prompt test (``-p N``: n_prompt
> 0, n_gen 0) gives the prompt's processing time alone; a generation test (``-n N``:
n_gen > 0, n_prompt 0) the time per generated token after ``n_depth`` tokens of context.
"""

from __future__ import annotations

from typing import Any

from app.domain.measurements import MeasuredPoint
from app.i18n import msg
from app.measurements.formats import Format
from app.measurements.formats.common import make_point, only_documents
from app.measurements.reading import FileProblem, ResultFile, number_at

FORMAT = Format(
    id="llama-bench", tool="llama-bench", file="-o json / -o jsonl",
    source="ggml-org/llama.cpp, tools/llama-bench/llama-bench.cpp at commit "
           "0104b151c56d54143e2e3554aabe9e2b2b8dbdba")
NS = 1e-9
MARKERS = ("n_prompt", "n_gen", "avg_ns")


def tests_of(documents: list[Any]) -> list[Any]:
    if len(documents) == 1 and isinstance(documents[0], list):
        return documents[0]
    return documents


def matches(documents: list[Any]) -> bool:
    tests = tests_of(documents)
    return only_documents(tests, dict) and all(all(k in t for k in MARKERS) for t in tests)


def test_point(test: dict, index: int, file: ResultFile) -> MeasuredPoint:
    tool = "llama-bench"
    where = f"test {index + 1}"
    prompt = number_at(test, "n_prompt", file, tool, positive=False)
    generated = number_at(test, "n_gen", file, tool, positive=False)
    depth = number_at(test, "n_depth", file, tool, positive=False) if "n_depth" in test else 0.0
    seconds = number_at(test, "avg_ns", file, tool) * NS
    if prompt > 0 and generated > 0:
        raise FileProblem(msg("'{file}' (llama-bench), {where}: a combined prompt and "
                              "generation test (-pg) cannot be split into prefill and decode; "
                              "run llama-bench with -p and -n only", file=file.name,
                              where=where))
    if prompt > 0:
        return make_point(file, tool, f"{where}: pp{prompt:.0f}", load="single_stream",
                          prompt_tokens=prompt, output_tokens=0.0, context_tokens=depth,
                          prefill_s=seconds)
    if generated > 0:
        return make_point(file, tool, f"{where}: tg{generated:.0f}", load="single_stream",
                          prompt_tokens=max(depth, 1.0), output_tokens=generated,
                          context_tokens=depth, itl_s=seconds / generated)
    raise FileProblem(msg("'{file}' (llama-bench), {where}: n_prompt and n_gen are both 0",
                          file=file.name, where=where))


def points(documents: list[Any], file: ResultFile) -> list[MeasuredPoint]:
    tests = tests_of(documents)
    if not tests:
        raise FileProblem(msg("'{file}' (llama-bench) holds no test", file=file.name))
    return [test_point(t, i, file) for i, t in enumerate(tests)]
