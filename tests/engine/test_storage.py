"""Storage: what the deployment keeps and how fast it writes (app.engine.storage).

Capacities in bytes (METHOD.md, "Infrastructure": model repository = versions x formats x
weights x copies; request logs and metrics kept for the retention period).
"""

import pytest

from app.engine import storage


def test_the_model_repository_keeps_every_version_format_and_copy():
    # 70 GB of weights, 3 versions, 1 format, 2 copies: 420 GB.
    assert storage.model_repository_bytes(70e9, 3, 1, 2) == pytest.approx(420e9)


def test_request_logs_grow_with_rate_size_and_retention():
    # 10 requests/s of 4 kB each for 30 days: 10 x 86,400 x 4,000 x 30 B = 103.7 GB.
    assert storage.request_log_bytes(10, 4_000, 30) == pytest.approx(103.68e9)
    assert storage.request_log_bytes(10, 4_000, 0) == 0


def test_metrics_grow_with_gpus_and_retention():
    # 64 GPUs x 50 MB per GPU and day x 90 days = 288 GB.
    assert storage.metrics_bytes(64, 50e6, 90) == pytest.approx(288e9)
