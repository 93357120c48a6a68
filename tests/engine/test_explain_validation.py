"""The Validation section: imported measurements beside the prediction, with the result's
range, the verdicts and the site fit (app.engine.explain_validation)."""

from __future__ import annotations

import pytest

from app import api
from app.domain.measurements import MeasuredPoint
from app.engine.explain_validation import validation_result, with_validation
from app.engine.resolved import resolve
from app.engine.selection import select

SHA = "c" * 64


def point(users, ttft, itl) -> MeasuredPoint:
    return MeasuredPoint(tool="CSV", source_file="m.csv", source_sha256=SHA, prompt_tokens=1500,
                         output_tokens=400, ttft_s=ttft, itl_s=itl, concurrency=users)


@pytest.fixture(scope="module")
def base(catalog):
    scenario = api.load_scenario(api.example("small-chat"))
    r = resolve(scenario, catalog)
    return scenario, select(catalog, r)[0].config, api.size(scenario, catalog)


def test_without_measurements_there_is_no_section(catalog, base):
    scenario, config, result = base
    assert validation_result(catalog, scenario, config, result) is None
    assert with_validation(catalog, scenario, config, result) is result


def test_every_point_sits_beside_its_prediction_and_the_results_range(catalog, base):
    scenario, config, result = base
    one = result.performance.single_user
    measured = api.with_measurements(scenario, [point(1, one.ttft_s * 1.2, one.itl_s * 1.1),
                                                point(8, None, result.performance
                                                      .at_concurrency.itl_s)])
    section = validation_result(catalog, measured, config, result)
    first = section.points[0]
    band = result.performance.band
    assert first.predicted["ttft_s"] == pytest.approx(one.ttft_s, rel=1e-9)
    assert (first.low["ttft_s"], first.high["ttft_s"]) == pytest.approx(
        band.ttft_range(first.predicted["ttft_s"]))
    assert first.error("ttft_s") == pytest.approx(0.2, rel=1e-6)
    assert section.users_per_replica == result.performance.at_concurrency.concurrency
    assert section.replicas_planned == result.scale.replicas_for_load
    assert with_validation(catalog, measured, config, result).validation == section
