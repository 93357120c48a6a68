"""The result formats AI Sizer reads, each from the tool's own code (repository, file, commit).

Each format module has ``FORMAT`` (a :class:`Format`), ``matches(documents)`` (whether parsed
JSON documents are of this format) and ``points(documents, file)`` (the operating points, or
``FileProblem`` naming the field). The plain CSV is matched on its header instead.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Format:
    """A result format and where its definition was read."""

    id: str
    tool: str  # shown with every point: "vllm bench serve"
    file: str  # what the user has: "--save-result JSON"
    source: str  # repository, path and commit the fields were taken from


from app.measurements.formats import (  # noqa: E402  (the modules use Format)
    aiperf,
    guidellm,
    llama_bench,
    plain_csv,
    sglang,
    vllm,
)

#: JSON formats in the order they are tried (the most specific test first).
JSON_FORMATS = (vllm, sglang, aiperf, guidellm, llama_bench)
FORMATS: tuple[Format, ...] = (vllm.FORMAT, sglang.FORMAT, aiperf.FORMAT, aiperf.GENAI_PERF,
                               guidellm.FORMAT, llama_bench.FORMAT, plain_csv.FORMAT)
