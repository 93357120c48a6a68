"""Cost: capital by line, running cost, total cost and cost per million tokens
(app.engine.cost). USD throughout, prices indicative (METHOD.md, "Infrastructure").
"""

import pytest

from app.engine import cost


def test_cost_per_million_tokens_known_answer():
    # USD 1M over 5 years + USD 100k/year, 1,000 tokens/s at 50 % load.
    per_m = cost.cost_per_million_tokens(1e6, 1e5, 5, 1000, 0.5)
    tokens = 1000 * 0.5 * 365 * 86400
    assert per_m == pytest.approx((2e5 + 1e5) / tokens * 1e6)



def test_a_line_without_a_price_has_no_total_and_capital_sums_the_priced_ones():
    lines = [cost.CostLine("GPU", 8, 30_000.0, "s"), cost.CostLine("Server", 1, None, "s"),
             cost.CostLine("Racks", 2, 1_500.0, "s", estimated=True)]
    assert [line.total_usd for line in lines] == [240_000.0, None, 3_000.0]
    assert cost.capital_usd(lines) == 243_000.0


def test_total_cost_is_capital_plus_years_of_running_cost():
    assert cost.total_cost_usd(1e6, 2e5, 5) == pytest.approx(2e6)


def test_colocation_is_billed_per_kilowatt_and_month():
    # 40 kW of IT power at USD 150 per kW and month: USD 72,000 a year.
    assert cost.annual_colocation_usd(40_000, 150) == pytest.approx(72_000)


def test_no_load_or_no_years_gives_no_cost_per_token():
    assert cost.cost_per_million_tokens(1e6, 1e5, 5, 0, 0.5) is None
    assert cost.cost_per_million_tokens(1e6, 1e5, 0, 1000, 0.5) is None


@pytest.mark.parametrize(("total_bytes", "tb"), [(0, 0.0), (1e12, 1.0), (1.234567e12, 1.23),
                                                 (5e9, 0.01), (4e9, 0.0)])
def test_storage_is_priced_per_usable_terabyte_to_two_decimals(total_bytes, tb):
    assert cost.storage_terabytes(total_bytes) == tb
