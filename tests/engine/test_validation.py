"""Predicted against measured: errors per point, verdicts per target at the scenario's load,
and what the measured speed means for the number of replicas."""

from __future__ import annotations

import pytest

from app import api
from app.catalog import load_catalog
from app.domain.measurements import MeasuredPoint
from app.engine.validation import Load, measured_at, verdict

SHA = "b" * 64


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(include_user=False)


def point(users, ttft=None, itl=None, rate=None, tps=None, **extra) -> MeasuredPoint:
    load = {"load": "request_rate", "request_rate": rate} if rate else {"concurrency": users}
    return MeasuredPoint(tool="CSV", source_file="m.csv", source_sha256=SHA, prompt_tokens=1500,
                         output_tokens=400, ttft_s=ttft, itl_s=itl, output_tokens_per_s=tps,
                         **load, **extra)


def sized(catalog, points, name="small-chat"):
    scenario = api.load_scenario(api.example(name))
    return api.size(api.with_measurements(scenario, points), catalog)


def test_no_measurements_no_validation(catalog):
    assert api.size(api.load_scenario(api.example("small-chat")), catalog).validation is None


def test_each_point_beside_the_prediction_for_its_own_load(catalog):
    base = api.size(api.load_scenario(api.example("small-chat")), catalog).performance
    one = base.single_user
    result = sized(catalog, [point(1, ttft=one.ttft_s * 1.1, itl=one.itl_s)])
    row = result.validation.points[0]
    assert row.predicted["ttft_s"] == pytest.approx(one.ttft_s, rel=1e-6)
    assert row.error("ttft_s") == pytest.approx(0.1, rel=1e-6)
    assert row.error("itl_s") == pytest.approx(0.0, abs=1e-9)
    assert set(row.predicted) == {"ttft_s", "itl_s", "tokens_per_s_per_user"}
    band = base.band
    assert row.low["ttft_s"] == pytest.approx(one.ttft_s / band.ttft_high)  # TTFT's own range
    assert row.high["ttft_s"] == pytest.approx(one.ttft_s / band.ttft_low)
    assert row.in_range("ttft_s")


def test_a_request_rate_point_is_predicted_as_an_open_loop(catalog):
    result = sized(catalog, [point(None, ttft=0.2, itl=0.03, rate=0.5)])
    row = result.validation.points[0]
    assert row.predicted["ttft_s"] > 0 and row.predicted["itl_s"] > 0


def test_a_request_rate_run_queues_for_the_requests_it_sent():
    """The run's length is what it sent (completed + failed): a short run's prompts cannot
    build the backlog of a long one (METHOD.md Step 4, the open loop's queueing)."""
    assert Load.of(point(None, ttft=0.2, rate=2.0, completed=480, failed=20)).prompts == 500
    assert Load.of(point(None, ttft=0.2, rate=2.0)).prompts is None  # the tool's default


def test_verdicts():
    assert verdict("ttft_s", 1.0, 8, 0.5, 0.2, 8).verdict == "met_with_headroom"
    met = verdict("ttft_s", 1.0, 8, 0.9, 0.2, 8)
    assert (met.verdict, met.margin) == ("met", pytest.approx(0.1))
    missed = verdict("tokens_per_s_per_user", 30, 8, 27, 0.2, 8)
    assert (missed.verdict, missed.margin) == ("missed", pytest.approx(-0.1))
    assert missed.message.text() == "tokens/s per user: missed by 10%"
    assert missed.message.text("de") == "Tokens/s je Nutzer: um 10\u00a0% verfehlt"
    barely = verdict("tokens_per_s_per_user", 30, 8, 29.9, 0.2, 8)  # 0.3 % short
    assert barely.verdict == "missed"
    assert barely.message.text() == "tokens/s per user: missed by less than 1%"
    assert barely.message.text("de") == "Tokens/s je Nutzer: um weniger als 1 % verfehlt"
    just = verdict("ttft_s", 1.0, 8, 0.998, 0.2, 8)
    assert just.verdict == "met" and just.message.text().startswith(
        "TTFT: met (less than 1% to spare")
    absent = verdict("ttft_s", 1.0, 40, None, 0.2, 16)
    assert absent.verdict == "not_measured" and "measured up to 16" in absent.message.text()


def test_the_load_between_two_levels_is_interpolated_in_log_users():
    points = [point(4, ttft=0.2), point(16, ttft=0.4)]
    assert measured_at(points, "ttft_s", 8) == pytest.approx(0.3)
    assert measured_at(points, "ttft_s", 16) == 0.4
    assert measured_at(points, "ttft_s", 32) is None  # beyond the sweep: not measured


def test_verdicts_at_the_scenario_load_and_what_they_mean(catalog):
    base = api.size(api.load_scenario(api.example("small-chat")), catalog).performance
    at = base.at_concurrency  # 8 users, the scenario's load
    one = base.single_user
    # 1.5x slower decode: below the range's low end (x0.77), so the 25 tokens/s target fails
    slow = sized(catalog, [point(1, ttft=one.ttft_s, itl=one.itl_s * 1.5),
                           point(8, ttft=at.ttft_s, itl=at.itl_s * 1.5)])
    v = slow.validation
    verdicts = {x.target: x for x in v.verdicts}
    assert verdicts["ttft_s"].verdict == "met_with_headroom"
    assert verdicts["tokens_per_s_per_user"].verdict == "missed"
    assert v.fit.decode_scale == pytest.approx(1 / 1.5, rel=0.05)
    assert v.replicas_measured > v.replicas_planned
    assert "more than planned" in v.messages[-1].text()


def test_faster_than_predicted_means_fewer_replicas(catalog):
    data = api.example("small-chat")
    data["workload"]["concurrent_users"] = 40
    scenario = api.load_scenario(data)
    p = api.size(scenario, catalog).performance
    fast = [point(c, ttft=f.ttft_s / 1.5, itl=f.itl_s / 1.5)
            for c, f in ((1, p.single_user), (p.at_concurrency.concurrency, p.at_concurrency))]
    v = api.size(api.with_measurements(scenario, fast), catalog).validation
    assert v.replicas_measured < v.replicas_planned
    assert v.users_per_replica_measured > p.slo_capacity_per_replica
    assert "fewer than planned" in v.messages[-1].text()


def test_batch_scenarios_have_no_target_verdicts(catalog):
    result = sized(catalog, [point(16, ttft=2.0, itl=0.05, tps=300).model_copy(
        update={"prompt_tokens": 8000, "output_tokens": 500})], "batch-summaries")
    assert result.validation.verdicts == [] and result.validation.fit is not None


def test_measurements_survive_the_scenario_file_round_trip(catalog):
    scenario = api.with_measurements(api.load_scenario(api.example("small-chat")),
                                     [point(1, ttft=0.2, itl=0.03)])
    again = api.load_scenario(scenario.model_dump(mode="json"))
    assert again.measurements == scenario.measurements


def test_with_measurements_replaces_a_file_read_again():
    scenario = api.load_scenario(api.example("small-chat"))
    first = api.with_measurements(scenario, [point(1, ttft=0.2)])
    second = api.with_measurements(first, [point(1, ttft=0.3)])
    assert [p.ttft_s for p in second.measurements] == [0.3]
    other = point(2, ttft=0.4).model_copy(update={"source_sha256": "c" * 64})
    assert len(api.with_measurements(second, [other]).measurements) == 2
    assert len(api.with_measurements(second, [other], replace=True).measurements) == 1
