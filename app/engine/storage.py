"""Storage: what the deployment keeps, where, and how fast it must read (METHOD.md).

Capacities in bytes, bandwidths in B/s. Tiers: GPU-direct (weights loaded at cold start),
hot (model repository, local NVMe cache), warm (request logs and metrics), cold (archive).
"""

from __future__ import annotations

SECONDS_PER_DAY = 86_400.0


def model_repository_bytes(weights_bytes: float, versions: int, formats: int,
                           copies: int) -> float:
    """Model registry: versions x formats x weights, times the copies the store keeps [B]."""
    return weights_bytes * versions * formats * copies


def request_log_bytes(requests_per_s: float, bytes_per_request: float,
                      retention_days: float) -> float:
    """Request logs kept for ``retention_days`` [B]."""
    return requests_per_s * SECONDS_PER_DAY * bytes_per_request * retention_days


def metrics_bytes(gpus: int, bytes_per_gpu_day: float, retention_days: float) -> float:
    """Monitoring time series kept for ``retention_days`` [B]."""
    return gpus * bytes_per_gpu_day * retention_days
