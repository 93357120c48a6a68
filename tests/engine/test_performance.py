"""Operating points from the decode step: saturation, the closed loop, Little's law, the SLO
capacity (app.engine.performance).

Sources: METHOD.md "Step 4" (operating points from Little's law on a closed loop,
``X = B / (o ITL)``, ``C = X (TTFT + o ITL)``; saturation is the largest batch the KV budget,
the batch limit and the token budget ``B (1 + p/o) <= T`` allow; the SLO capacity is the
largest concurrency meeting both targets); Little, "A proof for the queuing formula L = lambda
W" (Operations Research 9, 1961); for Poisson arrivals the Pollaczek-Khinchine mean wait of
an M/D/1 queue, ``W = rho S / (2 (1 - rho))`` (Kleinrock, Queueing Systems Vol. 1, ch. 5).
"""

from __future__ import annotations

import numpy as np
import pytest
from engine_helpers import points

from app.engine.evaluate import batch_cap, plan_memory
from app.engine.inference import batch_prefill_time, decode_step
from app.engine.performance import (
    Workload,
    batch_grid,
    burst,
    by_batch,
    closed_loop,
    concurrency_grid,
    draining,
    erlang_c,
    mean_tpot,
    open_loop,
    poisson_wait,
    prefill_load,
    prefill_service_s,
    prompt_queue_wait,
    ramp_up,
    saturation,
    saturation_batch,
    slo_capacity,
)


@pytest.mark.parametrize(("kv", "limit", "budget", "prompt", "output", "expected"), [
    (10, 256, 8192, 1000, 1000, 10),      # KV capacity binds
    (1000, 64, 8192, 1000, 1000, 64),     # the engine's batch limit binds
    (1000, 2048, 2048, 3000, 1000, 512),  # token budget: B (1 + p/o) <= T -> 2048 / 4
    (1000, 2048, 8192, 8000, 500, 481),   # 8192 / 17 = 481.9
    (0, 256, 8192, 1000, 100, 0),         # nothing fits
    (100, 256, 16, 8000, 100, 1),         # a budget below one step still decodes one
])
def test_saturation_batch_respects_every_limit(kv, limit, budget, prompt, output, expected):
    assert saturation_batch(kv, limit, budget, Workload(prompt, output)) == expected



def test_saturation_batch_in_the_pipeline(sized):
    """The result's saturation batch obeys the KV budget, the batch limit and the token
    budget of the scenario's engine (small-chat example on one L40S)."""
    from app.api import example

    result = sized(example("small-chat"))
    m, sat = result.memory, result.performance.saturation
    work = result.inputs.workload
    ratio = work.prompt_tokens / work.output_tokens
    assert sat.batch <= m.batch_limit
    assert sat.batch * (1 + ratio) <= result.inputs.serving.max_batched_tokens
    admitted_kv = m.kv_budget_bytes_per_gpu / m.kv_bytes_per_token_per_gpu
    assert sat.batch * m.average_context_tokens <= admitted_kv
    assert sat.output_tokens_per_s == pytest.approx(sat.batch / sat.itl_s, rel=1e-9)
    assert sat.output_tokens_per_s > result.performance.single_user.output_tokens_per_s



def littles_ratio(points, work: Workload) -> np.ndarray:
    """C / (X * (TTFT + o * ITL)) with X = output tokens/s / o."""
    x = points.output_tokens_per_s / work.output_tokens
    return points.concurrency / (x * (points.ttft_s + work.output_tokens * points.itl_s))



@pytest.mark.parametrize(("prompt", "output"), [(2000, 500), (1000, 1000), (6144, 2048),
                                                (200, 50)])
def test_littles_law_on_closed_loop_points(configure_replica, prompt, output):
    """METHOD.md Step 4: C = X (TTFT + o ITL) within 2 %, queueing beyond capacity included."""
    config = configure_replica("llama-3.1-70b", "h100-sxm", 4, weights="fp8", kv="fp8")
    work = Workload(prompt, output)
    plan = plan_memory(config, work, prompt + output)
    cap = batch_cap(config, plan, work)
    users = np.array([1, 2, 3, 5, 10, 32, 64, 100, 200, 256, 400, 1000, 5000], dtype=float)
    points = closed_loop(config.replica, work, users, cap)
    np.testing.assert_allclose(points.concurrency, users)
    np.testing.assert_allclose(littles_ratio(points, work), 1.0, rtol=0.02)
    # beyond what memory and the engine admit, users queue: TTFT grows, the batch does not
    assert points.batch.max() <= cap
    assert points.ttft_s[-1] > 10 * points.ttft_s[0]



def test_littles_law_by_batch_is_exact(replica):
    work = Workload(1500, 300)
    points = by_batch(replica, work, np.arange(1, 129, dtype=float))
    np.testing.assert_allclose(littles_ratio(points, work), 1.0, rtol=1e-9)
    assert np.all(np.diff(points.concurrency) > 0)



def test_littles_law_holds_for_one_user_with_long_prompts(configure_replica):
    """Regression: closed_loop once clipped the decode batch to >= 1, so below
    C(B=1) = 1 + TTFT/(o*ITL) users it reported X = 1/(o*ITL) instead of 1/(TTFT + o*ITL):
    22 % too much throughput for one user with 8,000-token prompts and 100-token answers."""
    config = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16")
    work = Workload(8000, 100)
    plan = plan_memory(config, work, 8100)
    points = closed_loop(config.replica, work, np.array([1.0]), batch_cap(config, plan, work))
    np.testing.assert_allclose(littles_ratio(points, work), 1.0, rtol=0.02)



def test_saturation_point_is_b_over_itl(configure_replica):
    config = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16")
    work = Workload(1000, 200)
    point = saturation(config.replica, work, 128)
    assert float(point.batch[0]) == 128
    assert float(point.output_tokens_per_s[0]) == pytest.approx(128 / float(point.itl_s[0]))


def test_ramp_up_counts_the_prompt_chunks_and_the_decode_tokens_beside_them():
    """100 prompts of 1,000 tokens in steps of 8,192: 13 steps; the request finishing in step
    j decodes in the 13 - j later ones (0..12, mean 6), and 100 x (1000 + 6) tokens still
    fit 13 steps."""
    assert ramp_up(100, 1000, 199, 8192) == (13, 6.0)
    # short outputs: a request decodes at most o - 1 = 3 tokens inside the ramp-up
    steps, inside = ramp_up(1000, 128, 3, 8192)
    assert steps == 16 and inside == pytest.approx((0 + 1 + 2 + 3 * 13) / 16)


def test_short_outputs_decode_inside_the_ramp_up_so_tpot_is_a_prefill_step(configure_replica):
    """1,000 prompts of 128 tokens and 4 output tokens (GPUStack's "random 128/4"): nearly
    every output token is made in a step that also carries an 8,192-token prefill chunk, so
    TPOT is close to one such step and far above a pure decode step of the same batch."""
    rep = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16",
                            engine="vllm").replica
    work = Workload(128, 4)
    point = burst(rep, work, 1000, 1024, 248)
    steps, _ = ramp_up(1000, 128, 3, rep.max_batched_tokens)
    chunk_s = batch_prefill_time(rep, 1000, 128) / steps
    decode_s = float(decode_step(rep, 1000.0, work.average_context).itl[0])
    assert float(point.batch[0]) == 1000  # every prompt admitted at once (1,024 slots given)
    assert 0.9 * chunk_s < float(point.itl_s[0]) < 1.1 * chunk_s
    assert float(point.itl_s[0]) > 1.3 * decode_s


def test_a_large_burst_tends_to_saturation_and_its_ttft_is_the_wait(configure_replica):
    """10,000 prompts under a cap of 256: about the saturation rate; the mean request waits
    for half the run."""
    rep = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16").replica
    work = Workload(1000, 200)
    large = burst(rep, work, 10_000, 256, 256)
    steady = saturation(rep, work, 256)
    assert float(large.output_tokens_per_s[0]) == pytest.approx(
        float(steady.output_tokens_per_s[0]), rel=0.02)
    run_s = 10_000 * 200 / float(large.output_tokens_per_s[0])
    assert float(large.ttft_s[0]) == pytest.approx(run_s / 2, rel=0.05)


def test_a_batch_of_geometric_lengths_drains_as_b_e_to_the_minus_t_over_o():
    """1,000 requests of mean length 200: ceil(200 ln 1000) = 1,382 steps until one is left;
    they decode about B o = 200,000 tokens in them (the geometric sum, 200,300)."""
    batches = draining(1000, 200)
    assert batches.size == 1382 and batches[0] == 1000 and batches[-1] >= 1
    assert float(batches.sum()) == pytest.approx(1000 * 200, rel=0.01)


def test_mean_tpot_of_a_constant_timeline_is_that_step():
    assert mean_tpot(np.full(50, 0.02), 30) == pytest.approx(0.02)
    # two steps of 0.3 s then 0.1 s: a request of 2 tokens sees 0.3, a long one about 0.1,
    # so the mean over lengths lies between and nearer 0.1 for long outputs
    both = np.concatenate([np.full(2, 0.3), np.full(500, 0.1)])
    assert 0.1 < mean_tpot(both, 200) < mean_tpot(both, 5) < 0.3


def _fixed_and_varied(configure_replica, slots: int):
    """1,000 requests of 200/200 tokens sent at once to vLLM with Llama-3.1-8B on one H100,
    with fixed and with geometric output lengths."""
    rep = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16",
                            engine="vllm").replica
    work = Workload(200, 200)
    return (burst(rep, work, 1000, slots, slots),
            burst(rep, work, 1000, slots, slots, varied=True))


def test_varying_output_lengths_lengthen_the_run_with_a_shrinking_tail(configure_replica):
    """Same mean lengths, one wave: when outputs vary (ShareGPT) the last requests decode
    alone for a long tail, so the run's rate falls, while most requests' steps are the early,
    full ones: their mean TPOT stays near the fixed lengths' (short requests live through the
    full early steps, long ones through the tail's small ones; within 5 % either way here)."""
    fixed, varied = _fixed_and_varied(configure_replica, 1024)
    assert float(varied.output_tokens_per_s[0]) < 0.95 * float(fixed.output_tokens_per_s[0])
    assert float(varied.itl_s[0]) == pytest.approx(float(fixed.itl_s[0]), rel=0.05)


def test_when_lengths_vary_waiting_requests_are_admitted_from_the_first_steps(configure_replica):
    """1,000 requests at 256 slots: with fixed lengths no slot frees before the first wave's
    ``o`` steps end; with geometric lengths ``B / o`` requests end in every step, so the
    waiting ones are admitted from the start and wait about half the steady phase."""
    fixed, varied = _fixed_and_varied(configure_replica, 256)
    # 12.8 s against 18.6 s here; waiting for the first wave to end gave 16.6 s
    assert float(varied.ttft_s[0]) < 0.75 * float(fixed.ttft_s[0])


# --------------------------------------------------------------------------- SLO capacity


def test_slo_capacity_is_the_last_concurrency_before_a_target_is_missed():
    """Users 1, 2, 4, 8, 16 at 40, 35, 31, 28, 20 tokens/s and TTFT 0.5 .. 2.5 s: with
    targets 30 tokens/s and 2 s, 4 users still meet both, 8 miss the speed."""
    curve = points([1, 2, 4, 8, 16], [0.5, 0.6, 0.8, 1.5, 2.5], [40, 35, 31, 28, 20])
    assert slo_capacity(curve, 2.0, 30.0) == 4
    assert slo_capacity(curve, 2.0, 20.0) == 8  # 16 users miss the TTFT of 2 s
    assert slo_capacity(curve, 3.0, 20.0) == 16  # every point meets both
    assert slo_capacity(curve, 0.4, 10.0) == 0  # one user alone misses the TTFT


def test_slo_capacity_stops_at_the_first_miss_even_if_a_later_point_meets():
    """The capacity is a load every user below it also meets: the first miss ends it."""
    curve = points([1, 2, 3], [0.5, 3.0, 0.5], [50, 50, 50])
    assert slo_capacity(curve, 2.0, 30.0) == 1


def test_slo_capacity_of_a_real_curve_meets_both_targets_on_the_closed_loop(configure_replica):
    """On Llama-3.1-70B FP8 over 4 x H100 the users at the SLO capacity meet both targets
    on the closed loop, and one user more misses one (the by-batch curve is exact there)."""
    config = configure_replica("llama-3.1-70b", "h100-sxm", 4, weights="fp8", kv="fp8")
    work = Workload(2000, 500)
    plan = plan_memory(config, work, 2500)
    curve = by_batch(config.replica, work, np.arange(1, 257, dtype=float))
    capacity = slo_capacity(curve, 2.0, 30.0)
    assert 1 <= capacity <= plan.max_concurrent_sequences * 4
    at = closed_loop(config.replica, work, np.array([capacity, capacity * 1.5]),
                     batch_cap(config, plan, work))
    assert at.ttft_s[0] <= 2.0 * 1.02 and at.tokens_per_s_per_user[0] >= 30.0 * 0.98
    assert at.ttft_s[1] > 2.0 or at.tokens_per_s_per_user[1] < 30.0


@pytest.mark.parametrize("upper", [1, 7, 64, 65, 100, 4096, 100_000])
def test_concurrency_grid_counts_every_user_to_64_then_grows_geometrically(upper):
    grid = concurrency_grid(upper)
    assert grid[0] == 1 and grid[-1] == max(upper, 1)
    assert np.all(np.diff(grid) > 0)
    np.testing.assert_array_equal(grid[:min(upper, 64)], np.arange(1, min(upper, 64) + 1))
    assert len(grid) <= 64 + 96
    assert not grid.flags.writeable  # shared between callers


def test_a_cohort_of_one_is_the_prompt_alone(configure_replica):
    """cohort_ttft(N=1) is inference.prefill_time: nothing ahead of the prompt."""
    from app.engine.inference import prefill_time
    from app.engine.performance import cohort_ttft

    rep = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16").replica
    work = Workload(3000, 500)
    assert cohort_ttft(rep, work, 1) == pytest.approx(prefill_time(rep, 3000))


def test_prompts_that_arrive_together_wait_for_the_ones_ahead(configure_replica):
    """32 prompts of 3200 tokens in a budget of 8192 tokens per step (METHOD.md, "TTFT"):
    102,400 tokens in K = 13 steps; prompt i ends in step ceil(3200 i / 8192), the mean of
    those steps is 6.84, so the mean TTFT is fixed + prefill(32 x 3200) x 6.84 / 13."""
    import math

    from app.engine.inference import batch_prefill_time
    from app.engine.performance import cohort_ttft

    rep = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16").replica
    assert rep.max_batched_tokens == 8192
    work = Workload(3200, 800)
    steps = [math.ceil(3200 * i / 8192) for i in range(1, 33)]
    assert steps[-1] == 13
    share = sum(steps) / 32 / 13
    total = batch_prefill_time(rep, 32, 3200)
    assert cohort_ttft(rep, work, 32) == pytest.approx(
        rep.factors.fixed_latency_s + total * share)
    assert 0.5 < share < 0.55  # about half the cohort's prefill, never less than one prompt's
    assert cohort_ttft(rep, work, 32) > cohort_ttft(rep, work, 4) > cohort_ttft(rep, work, 1)


def test_whole_prompts_in_one_step_all_wait_for_the_whole_step(configure_replica):
    """Without chunked prefill and a budget that holds all 4 prompts, all four get their first
    token at the end of the one step: TTFT = fixed + prefill(4 x P)."""
    import dataclasses

    from app.engine.inference import batch_prefill_time
    from app.engine.performance import cohort_ttft

    rep = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16").replica
    rep = dataclasses.replace(rep, max_batched_tokens=32768)
    work = Workload(3200, 800)
    assert cohort_ttft(rep, work, 4, whole_prompts=True) == pytest.approx(
        rep.factors.fixed_latency_s + batch_prefill_time(rep, 4, 3200))


def test_one_server_waits_the_pollaczek_khinchine_mean_of_an_m_d_1_queue():
    """lambda = 5/s, S = 0.1 s: rho = 0.5, W = 0.5 x 0.1 / (2 x 0.5) = 0.05 s; at rho = 0.9
    W = 0.9 x 0.1 / 0.2 = 0.45 s (Kleinrock Vol. 1, ch. 5); a run of 10^6 requests is long
    enough to reach them."""
    assert poisson_wait(5.0, 1, 0.1, 1e6) == pytest.approx(0.05)
    assert poisson_wait(9.0, 1, 0.1, 1e6) == pytest.approx(0.45)
    assert poisson_wait(0.0, 1, 0.1, 1e6) == 0.0


def test_erlang_c_of_known_queues():
    """One server: C = rho. Two servers at a = 1 (rho = 0.5): C = 1/3 (a^2/2 / (1 - rho) over
    1 + a + a^2/2 / (1 - rho) = 1 / 3)."""
    assert erlang_c(1, 0.7) == pytest.approx(0.7)
    assert erlang_c(2, 1.0) == pytest.approx(1.0 / 3.0)
    assert 0.0 < erlang_c(2000, 1800.0) < 0.01  # many slots at 90 %: hardly anyone waits


def test_a_finite_run_caps_the_wait_near_rho_one_and_grows_past_it():
    """A run of N = 1,000 requests at rho = 0.999 waits the heavy-traffic backlog
    (2/3) S sqrt(2(N-1)/pi) = 1.68 s for S = 0.1 s, not the steady 50 s; past capacity the fluid
    backlog (N - 1)(S - 1/lambda)/2 adds: 499.5 x (0.1 - 0.05) = 24.98 s at lambda = 20/s."""
    critical = 2 / 3 * 0.1 * np.sqrt(1998 / np.pi)
    assert poisson_wait(9.99, 1, 0.1, 1000) == pytest.approx(critical)
    assert poisson_wait(20.0, 1, 0.1, 1000) == pytest.approx(critical + 999 * 0.05 / 2)
    waits = [poisson_wait(r, 1, 0.1, 1000) for r in (2.0, 5.0, 9.0, 9.99, 12.0, 20.0)]
    assert waits == sorted(waits)
    assert poisson_wait(9.99, 1, 0.1, 1) == 0.0  # a run of one request never waits


def test_an_open_loop_queues_its_prompts_and_never_serves_more_than_its_capacity(
        configure_replica):
    """At a low rate the prompts barely wait (TTFT as on the closed-loop curve); near and past
    the replica's capacity TTFT grows with the rate while the output rate stops at the most
    the replica completes."""
    config = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16", engine="vllm")
    rep = config.replica
    work = Workload(1000, 200)
    plan = plan_memory(config, work, 1200)
    cap = batch_cap(config, plan, work)
    most = float(by_batch(rep, work, np.array([cap])).output_tokens_per_s[0])
    service = prefill_service_s(rep, work, 1.0)
    assert 0 < service < 1.0
    low = open_loop(rep, work, 0.1, cap, 500)
    assert float(low.ttft_s[0]) == pytest.approx(
        float(by_batch(rep, work, low.batch).ttft_s[0]), rel=0.01)
    rates = [0.5 * most / 200, 0.9 * most / 200, 2 * most / 200]
    points = [open_loop(rep, work, r, cap, 500) for r in rates]
    ttfts = [float(p.ttft_s[0]) for p in points]
    assert ttfts == sorted(ttfts) and ttfts[-1] > 10 * ttfts[0]
    assert 0.9 * most < float(points[-1].output_tokens_per_s[0]) <= most  # less: the drain


def test_a_short_run_past_capacity_ramps_up_and_drains_instead_of_filling_every_slot(
        configure_replica):
    """500 requests arriving at twice the replica's capacity: the batch grows while they
    arrive and never reaches the KV limit's batch nor N, so the per-token ITL stays below the
    full batch's step; a long run at half capacity sits at the fixed point."""
    config = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16", engine="vllm")
    rep = config.replica
    work = Workload(1000, 200)
    cap = batch_cap(config, plan_memory(config, work, 1200), work)
    full = by_batch(rep, work, np.array([cap]))
    most = float(full.output_tokens_per_s[0]) / 200
    short = open_loop(rep, work, 2 * most, cap, 500)
    assert float(short.batch[0]) < min(cap, 500)
    assert float(short.itl_s[0]) < float(full.itl_s[0])
    steady = open_loop(rep, work, 0.5 * most, cap, 1e6)
    fixed = by_batch(rep, work, steady.batch)
    assert float(steady.itl_s[0]) == pytest.approx(float(fixed.itl_s[0]), rel=1e-6)


def test_a_closed_loop_prompt_waits_the_m_d_1_mean_for_the_prefill_ahead(configure_replica):
    """Known answer: X requests per second each holding the prefill side for S wait
    ``rho S / (2 (1 - rho))`` (Pollaczek-Khinchine, M/D/1; Kleinrock 1975, ch. 5), rho = X S;
    the curve by batch adds it to TTFT, the open loop's unqueued curve does not."""
    config = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16", engine="vllm")
    rep, work = config.replica, Workload(4000, 200)
    batch = np.array([1.0, 8.0, 32.0])
    service = prefill_service_s(rep, work, batch)
    assert service == pytest.approx([prefill_service_s(rep, work, float(b)) for b in batch])
    queued, bare = by_batch(rep, work, batch), by_batch(rep, work, batch, queued=False)
    requests = bare.output_tokens_per_s / work.output_tokens
    rho = requests * service
    assert np.all(rho < 0.98)
    wait = rho * service / (2 * (1 - rho))
    assert queued.ttft_s - bare.ttft_s == pytest.approx(wait)
    assert np.all(queued.concurrency > bare.concurrency)  # users waiting are users too
    assert queued.output_tokens_per_s == pytest.approx(bare.output_tokens_per_s)


def test_a_prefill_side_past_its_capacity_holds_the_batch_and_the_users_queue(
        configure_replica):
    """Long prompts and short answers load the prefill side past 1 at larger batches: the
    wait is capped at MAX_PREFILL_LOAD (24.5 services), and a closed loop stops its batch at
    the largest one whose prompts are prefilled in time, the extra users queueing (TTFT
    rising with them, the output rate flat)."""
    config = configure_replica("llama-3.1-8b", "h100-sxm", 1, weights="bf16", engine="vllm")
    rep, work = config.replica, Workload(30000, 20)
    batch = batch_grid(256)
    curve = by_batch(rep, work, batch)
    requests = curve.output_tokens_per_s / work.output_tokens
    load = prefill_load(rep, work, batch, requests)
    assert np.max(load) > 1.0
    wait = prompt_queue_wait(rep, work, batch, requests)
    service = prefill_service_s(rep, work, batch)
    assert np.max(wait / service) == pytest.approx(0.98 / (2 * 0.02))
    points = closed_loop(rep, work, np.array([2.0, 8.0, 32.0, 128.0]), 256)
    held = float(np.max(batch[load < 0.98]))
    assert np.all(points.batch <= held + 1e-9)
    assert np.all(np.diff(points.ttft_s) > 0) and np.all(np.isfinite(points.ttft_s))
    assert points.output_tokens_per_s[-1] == pytest.approx(points.output_tokens_per_s[-2])
