"""Site factors: two measured scales applied to an engine profile's factors, by class.

A site profile (``app.domain.catalog.SiteProfile``) says how much faster or slower than the
catalog's engine profile a serving engine runs on one site's GPUs: ``decode`` for everything
that sets the inter-token latency, ``prefill`` for what sets the prompt's processing. Each
factor of the profile belongs to one side and is of one kind, decided from its name, so the
rule keeps working when the factor set grows (a per-format or MoE efficiency, say):

- side: *prefill* when the name contains ``prefill`` or ``ttft`` or is the fixed latency
  added to the first token (``fixed_latency_s``); *decode* otherwise;
- kind: a *share* of the roofline (``eta_*``, ``*_efficiency``) is multiplied by the scale
  and kept at most 1; a *time* (``*_s``) is divided by it; other names are left as they are.

Notes
-----
With ``s`` the side's scale, a share ``eta`` becomes ``min(1, s * eta)`` and a time ``t``
becomes ``t / s``: the same reading as ``Factors.scaled`` (a faster engine for s > 1), split
in two so that decode and prefill are fitted separately (METHOD.md, "Site factors").
"""

from __future__ import annotations

from typing import Literal

Side = Literal["decode", "prefill"]
Kind = Literal["share", "time"]

PREFILL_MARKERS = ("prefill", "ttft")
PREFILL_NAMES = ("fixed_latency_s",)


def factor_side(name: str) -> Side:
    """Which side of serving an efficiency factor sets: ``decode`` or ``prefill``."""
    if name in PREFILL_NAMES or any(marker in name for marker in PREFILL_MARKERS):
        return "prefill"
    return "decode"


def factor_kind(name: str) -> Kind | None:
    """``share`` (a fraction of the roofline), ``time`` (seconds) or None (not scaled)."""
    if name.startswith("eta_") or name.endswith("efficiency"):
        return "share"
    if name.endswith("_s"):
        return "time"
    return None


def scaled_factor(name: str, value: float, decode: float, prefill: float) -> float:
    """``value`` of factor ``name`` with its side's scale applied (see the module notes)."""
    scale = prefill if factor_side(name) == "prefill" else decode
    kind = factor_kind(name)
    if kind == "share":
        return min(1.0, value * scale)
    if kind == "time":
        return value / scale
    return value


def site_scaled(values: dict[str, float], decode: float, prefill: float) -> dict[str, float]:
    """Every factor of ``values`` with the site's decode and prefill scales applied.

    Parameters
    ----------
    values : factor name -> value, as an engine profile holds them [-] or [s]
    decode : decode-side scale; > 1 is faster than the profile [-]
    prefill : prefill-side scale [-]
    """
    if decode <= 0 or prefill <= 0:
        raise ValueError(f"site scales must be positive, got decode {decode}, "
                         f"prefill {prefill}")
    return {name: scaled_factor(name, float(value), decode, prefill)
            for name, value in values.items()}
