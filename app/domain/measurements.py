"""Measured operating points: what a load test on site reported, in the engine's units.

A point is one benchmark run (one concurrency of a sweep, one request rate, or one
``llama-bench`` test) read from a result file of a load generator (``app.measurements``
reads the formats). Figures are means over the run's successful requests, in SI units:
seconds, tokens per second. Each point keeps the file it came from and that file's SHA-256,
so a report and a site profile can say which measurements they rest on.

Scenario files carry imported points in ``measurements`` (CONTRACT.md: an added field).
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from app.domain.numbers import Numbers
from app.domain.problems import RuleError
from app.i18n import msg

LoadKind = Literal["concurrency", "request_rate", "single_stream"]
Metric = Literal["ttft_s", "itl_s", "tokens_per_s_per_user", "output_tokens_per_s",
                 "prefill_s"]
#: Measured figures a point may carry, in the order tables show them.
METRICS: tuple[Metric, ...] = ("ttft_s", "itl_s", "tokens_per_s_per_user",
                               "output_tokens_per_s", "prefill_s")
#: Figures that fall when the system is faster (times); the others rise (rates).
TIME_METRICS = ("ttft_s", "itl_s", "prefill_s")


class MeasuredPoint(Numbers):
    """One operating point of a load test, as the load generator reported it.

    ``load`` says how the load was applied: ``concurrency`` (a closed loop of
    ``concurrency`` users, each sending its next request when the last one finished),
    ``request_rate`` (requests arriving at ``request_rate`` per second) or ``single_stream``
    (``llama-bench``: one prompt of ``prompt_tokens`` processed alone, ``prefill_s``, or
    ``output_tokens`` generated alone after ``context_tokens`` of context, ``itl_s``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: str = Field(min_length=1, max_length=80,
                      description="Load generator and format ('vllm bench serve', ...).")
    source_file: str = Field(min_length=1, max_length=300, description="File name it came from.")
    source_sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="SHA-256 of that file.")
    label: str = Field(default="", max_length=200, description="Run within the file.")
    load: LoadKind = "concurrency"
    concurrency: float | None = Field(default=None, gt=0, le=10_000_000,
                                      description="Users with a request in flight.")
    request_rate: float | None = Field(default=None, gt=0, le=1e9,
                                       description="Requests arriving per second [1/s].")
    prompt_tokens: float = Field(gt=0, le=10_000_000, description="Mean prompt [tokens].")
    output_tokens: float = Field(ge=0, le=10_000_000, description="Mean output [tokens].")
    context_tokens: float = Field(default=0.0, ge=0, le=10_000_000,
                                  description="Context already held before the run "
                                              "(llama-bench depth) [tokens].")
    ttft_s: float | None = Field(default=None, gt=0, le=86_400,
                                 description="Mean time to first token [s].")
    itl_s: float | None = Field(default=None, gt=0, le=3600,
                                description="Mean inter-token latency [s].")
    tokens_per_s_per_user: float | None = Field(default=None, gt=0, le=1e7)
    output_tokens_per_s: float | None = Field(default=None, gt=0, le=1e9,
                                              description="Aggregate output rate.")
    prefill_s: float | None = Field(default=None, gt=0, le=86_400,
                                    description="Prompt processing alone, no server "
                                                "latency (llama-bench pp) [s].")
    completed: int | None = Field(default=None, ge=0, description="Successful requests.")
    failed: int | None = Field(default=None, ge=0, description="Failed requests.")

    @model_validator(mode="after")
    def _load_given(self) -> MeasuredPoint:
        if self.load == "concurrency" and self.concurrency is None:
            raise RuleError(msg("a closed-loop point needs its concurrency"))
        if self.load == "request_rate" and self.request_rate is None:
            raise RuleError(msg("a request-rate point needs its request rate"))
        if all(getattr(self, name) is None for name in METRICS):
            raise RuleError(msg("a point needs at least one measured figure"))
        return self

    def value(self, metric: Metric) -> float | None:
        """The measured ``metric``; tokens/s per user also from the inter-token latency."""
        found = getattr(self, metric)
        if found is None and metric == "tokens_per_s_per_user" and self.itl_s:
            return 1.0 / self.itl_s
        return found

    @property
    def users(self) -> float:
        """Concurrency of the point (1 for a single stream, 0 when only a rate is known)."""
        if self.load == "single_stream":
            return 1.0
        return self.concurrency or 0.0
