"""Inference on server CPUs: bandwidth-bound decode, compute-bound prompts.

Sizes in bytes [B], times in seconds [s]. A decode step reads every weight once (and each
sequence's KV cache), so one CPU server generates at most ``bandwidth x efficiency / bytes read``
steps per second, where bandwidth = sockets x channels x MT/s x 8 B. Prompts are compute-bound:
``2 x active parameters x prompt tokens`` FLOPs at the CPU's matrix peak x an efficiency.

Prompts and decode steps share the same cores in turn (llama.cpp and CPU backends of vLLM run
one batch at a time), so with ``u`` users each request waits on average for half of the other
users' prompts, and every user's prompt also delays the others' generation.

References
----------
- METHOD.md Step 4 (memory-bound decode) and llama.cpp issue #11744 (dual EPYC Turin at
  74 % of peak memory bandwidth with NUMA-aware loading, 41 % without).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CpuServer:
    """A CPU server as the time model sees it."""

    id: str
    name: str
    sockets: int
    bandwidth: float  # peak, all sockets [B/s]
    flops: float  # peak dense BF16, all sockets [FLOP/s]
    bandwidth_efficiency: float
    compute_efficiency: float
    power_w: float
    price_usd: float | None


@dataclass(frozen=True)
class CpuEstimate:
    """How the CPU server does on the scenario."""

    single_itl_s: float
    single_ttft_s: float
    users: int
    itl_s: float  # effective, prompts of the other users included
    ttft_s: float
    tokens_per_s_per_user: float
    output_tokens_per_s: float
    users_meeting: int
    meets: bool

    @property
    def single_tokens_per_s(self) -> float:
        return 1.0 / self.single_itl_s


def decode_step_s(server: CpuServer, weights_bytes: float, active_share: float,
                  kv_bytes_per_token: float, context: float, batch: int,
                  active_params: float) -> float:
    """One decode step of ``batch`` sequences [s].

    ``max((W_touched + b x c x kv) / (BW x eff), 2 P_active b / (FLOPs x eff))``;
    a mixture-of-experts model touches ``min(1, b x active share)`` of its weights.
    """
    touched = weights_bytes * min(1.0, batch * active_share)
    memory = (touched + batch * context * kv_bytes_per_token) / (
        server.bandwidth * server.bandwidth_efficiency)
    compute = 2.0 * active_params * batch / (server.flops * server.compute_efficiency)
    return max(memory, compute)


def prefill_s(server: CpuServer, weights_bytes: float, active_params: float,
              prompt_tokens: int) -> float:
    """One prompt: ``max(2 P_active n / (FLOPs x eff), W / (BW x eff))`` [s]."""
    compute = 2.0 * active_params * prompt_tokens / (server.flops * server.compute_efficiency)
    memory = weights_bytes / (server.bandwidth * server.bandwidth_efficiency)
    return max(compute, memory)


def at_load(server: CpuServer, weights_bytes: float, active_share: float,
            kv_bytes_per_token: float, context: float, active_params: float,
            prompt_tokens: int, output_tokens: int, users: int) -> tuple[float, float]:
    """(effective inter-token latency, TTFT) with ``users`` sharing the server [s].

    ``ITL_eff = ITL(u) + u x prefill / output`` (every user's prompt is processed once per
    request, between decode steps); ``TTFT = prefill x (u + 1) / 2`` (a new prompt waits for
    half of the others on average).
    """
    prompt = prefill_s(server, weights_bytes, active_params, prompt_tokens)
    step = decode_step_s(server, weights_bytes, active_share, kv_bytes_per_token, context,
                         users, active_params)
    return step + users * prompt / output_tokens, prompt * (users + 1) / 2


def estimate(server: CpuServer, weights_bytes: float, active_params: float,
             total_params: float, kv_bytes_per_token: float, prompt_tokens: int,
             output_tokens: int, context: float, users: int, speed_target: float,
             ttft_target: float, max_users: int = 4096) -> CpuEstimate:
    """Single-user and at-load figures, and the most users meeting both targets."""
    share = min(1.0, active_params / total_params)
    single = decode_step_s(server, weights_bytes, share, kv_bytes_per_token, context, 1,
                           active_params)
    first = prefill_s(server, weights_bytes, active_params, prompt_tokens)
    itl, ttft = at_load(server, weights_bytes, share, kv_bytes_per_token, context,
                        active_params, prompt_tokens, output_tokens, users)
    meeting = 0
    for u in range(1, max_users + 1):
        itl_u, ttft_u = at_load(server, weights_bytes, share, kv_bytes_per_token, context,
                                active_params, prompt_tokens, output_tokens, u)
        if 1.0 / itl_u < speed_target or ttft_u > ttft_target:
            break
        meeting = u
    meets = 1.0 / itl >= speed_target and ttft <= ttft_target
    return CpuEstimate(single, first, users, itl, ttft, 1.0 / itl, users / itl, meeting, meets)


def verdict(estimate_: CpuEstimate) -> str:
    """cpu-suffices (meets both targets at the load), cpu-for-light-use (at least one user
    meets them), gpu-needed (not even one)."""
    if estimate_.meets:
        return "cpu-suffices"
    if estimate_.users_meeting >= 1:
        return "cpu-for-light-use"
    return "gpu-needed"
