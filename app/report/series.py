"""The series the charts plot, taken from a SizingResult and nothing else.

The desktop app and the PDF draw the same series: the engine's curve over concurrency, its
TTFT curve over prompt length, and the memory a GPU must hold. The band is the result's
low/high multiplier on expected speed (times are divided by it). No drawing library here.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.domain.result import Band, SizingResult


@dataclass(frozen=True)
class Series:
    """A curve with its band: ``y`` expected, ``low``/``high`` the pessimistic/optimistic."""

    x: tuple[float, ...]
    y: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]


@dataclass(frozen=True)
class MemoryBar:
    """What one GPU holds at peak context, and what it may hold [B]."""

    weights: float
    kv_cache: float
    runtime: float
    usable: float
    capacity: float

    @property
    def needed(self) -> float:
        return self.weights + self.kv_cache + self.runtime


def _speed(x, y, band: Band) -> Series:
    ranges = [band.speed_range(v) for v in y]
    return Series(tuple(x), tuple(y), tuple(low for low, _ in ranges),
                  tuple(high for _, high in ranges))


def _time(x, y, band: Band) -> Series:
    """A TTFT series with its expected range (``Band.ttft_range``)."""
    ranges = [band.ttft_range(v) for v in y]
    return Series(tuple(x), tuple(y), tuple(low for low, _ in ranges),
                  tuple(high for _, high in ranges))


def tokens_per_user(result: SizingResult) -> Series:
    """Generation speed each user sees [tokens/s] against concurrent users (one replica)."""
    curve = result.performance.curve
    return _speed([p.concurrency for p in curve], [p.tokens_per_s_per_user for p in curve],
                  result.performance.band)


def aggregate_throughput(result: SizingResult) -> Series:
    """Output tokens/s of one replica against concurrent users."""
    curve = result.performance.curve
    return _speed([p.concurrency for p in curve], [p.output_tokens_per_s for p in curve],
                  result.performance.band)


def ttft_by_prompt(result: SizingResult) -> Series:
    """Time to first token [s] of one user alone against prompt length [tokens]."""
    curve = result.performance.ttft_curve
    return _time([p.prompt_tokens for p in curve], [p.ttft_s for p in curve],
                 result.performance.band)


def memory_bar(result: SizingResult) -> MemoryBar:
    """Per-GPU memory at peak context (the fullest GPU of a replica)."""
    m = result.memory
    return MemoryBar(m.weights_bytes_per_gpu, m.kv_cache_bytes_per_gpu, m.runtime_bytes_per_gpu,
                     m.gpu_usable_bytes, m.gpu_memory_bytes)


def measured_over_users(result: SizingResult, metric: str) -> list[tuple[float, float]]:
    """(users, measured ``metric``) of the imported points drawn on the curves over users."""
    if result.validation is None:
        return []
    workload = result.inputs.workload
    return result.validation.over_users(metric, workload.prompt_tokens, workload.output_tokens)


def measured_ttft_by_prompt(result: SizingResult) -> list[tuple[float, float]]:
    """(prompt tokens, measured TTFT) of the imported points of one user alone."""
    return [] if result.validation is None else result.validation.one_user_ttft()
