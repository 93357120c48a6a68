"""The Step 3 search keeps measured candidates (selection.MeasuredCache): re-ranking from the
cache must give exactly the result of measuring again, never another catalog's numbers."""

from __future__ import annotations

import pytest

from app import api
from app.engine import selection
from app.engine.performance import Points, Workload


def search_scenario(users: int, **changes) -> dict:
    data = {**api.example("choose-gpu"), "selection": {"rank_by": "capital_cost"}}
    data.pop("hardware", None)
    data = api.set_field(data, "workload.concurrent_users", str(users))
    for dotted, value in changes.items():
        data = api.set_field(data, dotted, value)
    return data


def sized(data: dict, catalog) -> dict:
    return api.size(api.load_scenario(data), catalog).model_dump(mode="json")


@pytest.fixture(autouse=True)
def empty_cache():
    selection.MEASURED.clear()
    yield
    selection.MEASURED.clear()


def test_a_change_of_users_re_ranks_to_the_same_result_as_measuring_again(catalog):
    sized(search_scenario(40), catalog)  # fills the cache
    filled = len(selection.MEASURED)
    cached = sized(search_scenario(300), catalog)
    assert len(selection.MEASURED) == filled  # nothing measured again
    selection.MEASURED.clear()
    assert cached == sized(search_scenario(300), catalog)


def test_a_change_of_the_request_shape_measures_again(catalog):
    sized(search_scenario(40), catalog)
    filled = len(selection.MEASURED)
    longer = sized(search_scenario(40, **{"workload.prompt_tokens": "4096"}), catalog)
    assert len(selection.MEASURED) == 2 * filled
    selection.MEASURED.clear()
    assert longer == sized(search_scenario(40, **{"workload.prompt_tokens": "4096"}), catalog)


def test_another_catalog_never_gets_the_first_ones_measurements(catalog):
    sized(search_scenario(40), catalog)
    gpus = dict(catalog.gpus)
    gpus["h100-sxm"] = gpus["h100-sxm"].model_copy(
        update={"memory_bandwidth_gb_s": gpus["h100-sxm"].memory_bandwidth_gb_s / 4})
    slower = catalog.model_copy(update={"gpus": gpus})
    with_slower = sized(search_scenario(40), slower)
    selection.MEASURED.clear()
    assert with_slower == sized(search_scenario(40), slower)
    assert with_slower != sized(search_scenario(40), catalog)


def test_the_cache_keeps_only_the_most_recent_contexts(catalog):
    cache = selection.MeasuredCache(contexts=2)
    for name in ("a", "b", "a", "c"):
        cache.group(catalog, (name,))[name] = name
    assert [key[1:] for key in cache.groups] == [("a",), ("c",)]  # "b" was least recent
    assert cache.group(catalog, ("a",)) == {"a": "a"}  # kept, not measured again
    other = catalog.model_copy()
    assert cache.group(other, ("a",)) == {}  # another catalog's context starts empty


def test_cached_curves_cannot_be_changed_by_a_caller(catalog, configure_replica):
    config = configure_replica("llama-3.1-8b", "l40s")
    curve = selection.measure(config, Workload(1024, 256), 4096).curve
    assert isinstance(curve, Points)
    with pytest.raises(ValueError):
        curve.itl_s[0] = 0.0
