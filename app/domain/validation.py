"""Predicted against measured: the Validation step's and the report section's numbers.

``SizingResult.validation`` holds them when the scenario carries imported measurements
(``app.engine.validation`` computes them). SI units: seconds, tokens per second. Errors are
``measured / predicted - 1`` (positive: the measurement is larger than the prediction).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.domain.measurements import MeasuredPoint
from app.i18n import Message

Verdict = Literal["met_with_headroom", "met", "missed", "not_measured"]
#: How close a measured request must be to the scenario's to be drawn on its curves [-].
SAME_REQUEST = 0.05


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class ValidationPoint(Frozen):
    """One imported point beside the sizing's prediction for the same configuration and load.

    ``predicted``, ``low`` and ``high`` are keyed by metric (``ttft_s``, ``itl_s``,
    ``tokens_per_s_per_user``, ``output_tokens_per_s``, ``prefill_s``) and hold only the
    metrics the point measured. ``low`` / ``high`` bound the expected range (the result's
    band: speeds times low/high, times divided by high/low).
    """

    measured: MeasuredPoint
    predicted: dict[str, float]
    low: dict[str, float]
    high: dict[str, float]

    def error(self, metric: str) -> float | None:
        """``measured / predicted - 1`` for ``metric`` (None when not measured)."""
        measured = self.measured.value(metric)  # type: ignore[arg-type]
        if measured is None or metric not in self.predicted:
            return None
        return measured / self.predicted[metric] - 1.0

    def in_range(self, metric: str) -> bool | None:
        measured = self.measured.value(metric)  # type: ignore[arg-type]
        if measured is None or metric not in self.low:
            return None
        return self.low[metric] <= measured <= self.high[metric]


class TargetVerdict(Frozen):
    """How a target fares at the scenario's load per replica, measured."""

    target: Literal["ttft_s", "tokens_per_s_per_user"]
    target_value: float
    concurrency: float = Field(description="Users per replica the verdict is made at.")
    measured: float | None = Field(description="Measured there (interpolated between the "
                                               "two nearest points); None if not measured.")
    margin: float | None = Field(description="Share by which the measurement beats (> 0) or "
                                             "misses (< 0) the target.")
    verdict: Verdict
    message: Message


class FitResidual(Frozen):
    """One measured figure against the prediction before and after the site fit."""

    point: int = Field(description="Index into ValidationResult.points.")
    metric: str
    measured: float
    before: float = Field(description="Predicted with the catalog's factors.")
    after: float = Field(description="Predicted with the fitted site factors.")

    @property
    def error_before(self) -> float:
        return self.measured / self.before - 1.0

    @property
    def error_after(self) -> float:
        return self.measured / self.after - 1.0


class SiteFit(Frozen):
    """Decode and prefill factors fitted to the imported sweep (METHOD.md, "Site factors").

    ``decode_scale`` multiplies the decode-side efficiencies of the engine profile (and divides
    its decode-side latencies); ``prefill_scale`` does the same for the prefill side. A side
    the measurements do not show (no TTFT or prompt time, or no inter-token latency) keeps
    1.0 and ``*_fitted`` is false.
    """

    gpu: str
    engine: str
    model: str
    decode_scale: float
    prefill_scale: float
    decode_fitted: bool
    prefill_fitted: bool
    residuals: list[FitResidual]
    median_error_before: float = Field(description="Median |measured / predicted - 1|.")
    median_error_after: float
    band_low: float = Field(description="The site profile's range, low multiplier on speed.")
    band_high: float
    catalog_version: str = Field(description="Version of the engine catalog fitted against.")
    messages: list[Message] = Field(default_factory=list)


class ValidationResult(Frozen):
    """Every imported point beside its prediction, the verdicts and what they mean."""

    points: list[ValidationPoint]
    verdicts: list[TargetVerdict]
    users_per_replica: float = Field(description="The scenario's load on one replica.")
    replicas_planned: int
    replicas_measured: int | None = Field(
        description="Replicas for the same load and targets with the measured speed (site "
                    "fit); None when the measurements cannot tell.")
    users_per_replica_measured: int | None = Field(
        description="Users one replica carries at the targets with the measured speed.")
    fit: SiteFit | None = None
    messages: list[Message] = Field(default_factory=list, description="What the "
                                    "measurements mean for the plan, sentence by sentence.")

    def over_users(self, metric: str, prompt: float, output: float
                   ) -> list[tuple[float, float]]:
        """(users, measured ``metric``) of the closed-loop and single-stream points whose
        requests are the scenario's (``prompt``, ``output`` tokens, within 5 %): the Step 4
        curves are for that request; other points are only in the table."""
        found = []
        for row in self.points:
            m = row.measured
            value = m.value(metric)  # type: ignore[arg-type]
            like = (abs(m.prompt_tokens / prompt - 1) <= SAME_REQUEST
                    and abs(m.output_tokens / max(output, 1) - 1) <= SAME_REQUEST)
            if m.load in ("concurrency", "single_stream") and value is not None and like:
                found.append((m.users, value))
        return sorted(found)

    def one_user_ttft(self) -> list[tuple[float, float]]:
        """(prompt tokens, measured TTFT) of the points of one user alone."""
        return sorted((row.measured.prompt_tokens, row.measured.ttft_s) for row in self.points
                      if row.measured.ttft_s is not None and row.measured.users == 1)
