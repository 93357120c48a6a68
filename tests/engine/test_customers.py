"""The three customers of issue 13 (docs/customers/): each sized as a field engineer would,
each plan data-centre grade and its capital complete.

Bank: Llama-3.3-70B chat for 500 named users; hospital: an 8B assistant for 50; public
sector: DeepSeek-R1 for 200 (docs/customers/README.md says what each gets).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.api import load_scenario, size

CUSTOMERS = Path(__file__).parents[2] / "docs" / "customers"
#: Requests in flight each activity model gives (Little's law, docs/customers/README.md).
IN_FLIGHT = {
    # 500 x 0.3 active x 1/min / 60 x (2 s + 400 tokens / 20 tokens/s) = 55
    "bank-chat": 55,
    # 50 x 0.4 active x 13 s / (13 s + 60 s think time) = 3.6 -> 4
    "hospital-assistant": 4,
    # 200 x 0.25 active x 0.5/min / 60 x (5 s + 2,000 tokens / 20 tokens/s) = 43.75 -> 44
    "public-sector-reasoning": 44,
}


@pytest.fixture(scope="module", params=sorted(IN_FLIGHT))
def customer(request, catalog):
    data = json.loads((CUSTOMERS / f"{request.param}.json").read_text(encoding="utf-8"))
    return request.param, size(load_scenario(data), catalog)


def test_the_activity_model_gives_the_requests_in_flight(customer):
    name, result = customer
    assert result.inputs.workload.activity is not None
    assert result.inputs.workload.concurrent_users == IN_FLIGHT[name]


def test_the_plan_is_data_centre_grade(customer, catalog):
    _, result = customer
    assert catalog.gpu(result.selection.chosen.gpu).gpu_class == "datacenter"
    assert not catalog.gpu(result.selection.chosen.gpu).preliminary
    assert catalog.servers[result.scale.server].chassis in ("rack", "rack-scale")
    assert result.selection.chosen.verdict == "meets targets"
    assert all(result.performance.targets_met.values())
    assert not any(word in text for text in result.warnings
                   for word in ("consumer GPU", "workstation GPU", "rack shelf"))
    assert all(rack.power_w <= rack.limit_w for rack in result.infrastructure.racks)
    assert result.scale.nodes >= 2 and result.scale.replicas > result.scale.replicas_for_load


def test_the_capital_leaves_nothing_out(customer):
    _, result = customer
    site = result.infrastructure
    assert site.unpriced == [] and result.cost.unpriced == []
    assert all(line.total_usd is not None for line in site.cost_lines)
    assert result.cost.capital_usd == pytest.approx(sum(line.total_usd
                                                        for line in site.cost_lines))
    names = {g.switch_name for g in site.network.groups}
    assert names <= {line.item for line in site.cost_lines}  # the switches, priced


def test_the_readme_states_what_each_customer_gets(customer):
    name, result = customer
    readme = (CUSTOMERS / "README.md").read_text(encoding="utf-8")
    section = readme.split(f"### `{name}.json`")[1].split("\n#")[0]
    assert f"USD {result.cost.capital_usd:,.0f}" in section
    assert f"{result.scale.gpus_total} x" in section
    assert f"{result.facility.racks} rack" in section
    assert f"{result.facility.it_power_w / 1e3:,.1f} kW" in section
