"""The load test a sizing implies: the levels to run on one replica and what each must reach.

``SizingResult.test_plan`` holds it (``app.engine.test_levels`` computes it; ``app.testplan``
writes the commands, the script and the README from it). Per replica; SI units: seconds,
tokens per second, requests per second.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.domain.measurements import TIME_METRICS


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Expected(Frozen):
    """A predicted figure and its expected range (the result's band)."""

    value: float
    low: float = Field(description="Lower end: times / band.high, speeds x band.low.")
    high: float = Field(description="Upper end: times / band.low, speeds x band.high.")

    def passes(self, metric: str, measured: float) -> bool:
        """Whether ``measured`` is no worse than the pessimistic end of the range."""
        if metric in TIME_METRICS:
            return measured <= self.high
        return measured >= self.low


LevelName = Literal["one user", "sweep", "scenario load", "saturation", "beyond saturation",
                    "half load (rate)", "load (rate)", "saturation (rate)"]


class LoadLevel(Frozen):
    """One load level of the plan on one replica."""

    name: LevelName
    kind: Literal["concurrency", "request_rate"]
    concurrency: int = Field(description="Users (closed loop); for a rate, the users the "
                                         "rate corresponds to.")
    request_rate: float | None = Field(default=None, description="Requests per second.")
    requests: int = Field(description="Requests to send at this level.")
    output_tokens: float = Field(description="Per request [tokens].")
    expected: dict[str, Expected] = Field(description="ttft_s, itl_s, tokens_per_s_per_user, "
                                                      "output_tokens_per_s.")
    targets: dict[str, float] = Field(default_factory=dict, description="The targets that "
                                      "apply here (those the sizing meets, up to its load).")

    @property
    def requests_per_s(self) -> float:
        """Requests completed per second at the predicted throughput [1/s]."""
        return self.expected["output_tokens_per_s"].value / max(self.output_tokens, 1.0)

    @property
    def duration_s(self) -> float:
        """How long the level takes at the predicted throughput [s]."""
        rate = self.request_rate or self.requests_per_s
        return self.requests / rate if rate > 0 else 0.0

    @property
    def tag(self) -> str:
        """The file-name part of the level's results: c8, rate0.51."""
        if self.kind == "concurrency":
            return f"c{self.concurrency}"
        return f"rate{self.request_rate:.3g}"


class TestPlanResult(Frozen):
    """Everything an engineer needs to test one replica of the sized configuration."""

    __test__ = False  # not a pytest test class, despite the name

    scenario_name: str
    model_id: str
    model_name: str
    native_precision: str
    gpu_id: str
    gpu_name: str
    gpus_per_replica: int
    tensor_parallel: int
    pipeline_parallel: int
    weights: str
    kv_cache: str
    engine: str
    engine_name: str
    memory_fraction: float
    batch_limit: int
    batched_tokens: int
    context_tokens: int
    prompt_tokens: int
    output_tokens: int
    users_total: int | None = Field(description="The scenario's users (None: 'max' or batch).")
    users_per_replica: float
    replicas_for_load: int
    replicas: int
    redundancy: str
    band_low: float
    band_high: float
    site_profile: str | None = None
    targets: dict[str, float] = Field(default_factory=dict)
    serving_of_training: bool = Field(default=False, description="The scenario trains a "
                                      "model; the plan tests serving the trained model.")
    levels: list[LoadLevel] = Field(default_factory=list)

    @property
    def sweep(self) -> list[LoadLevel]:
        return [level for level in self.levels if level.kind == "concurrency"]

    @property
    def rates(self) -> list[LoadLevel]:
        return [level for level in self.levels if level.kind == "request_rate"]

    @property
    def duration_s(self) -> float:
        """All levels one after the other, at the predicted throughput [s]."""
        return sum(level.duration_s for level in self.levels)
