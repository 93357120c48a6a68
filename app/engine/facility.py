"""Power, heat, cooling, racks and feeds (METHOD.md, "Infrastructure").

Units: W, BTU/h, tons of refrigeration, CFM, L/min, A, V.

References
----------
- HARDWARE.md sections 2 and 7 (conversion factors, cooling limits, PDU rules).
- ASHRAE TC 9.9; NEC 80 % continuous-load rule; OCP OAI liquid-cooling guideline.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

W_TO_BTU_PER_H = 3.41214  # 1 W = 3.41214 BTU/h
BTU_PER_H_PER_TON = 12_000.0  # 1 ton of refrigeration = 12,000 BTU/h = 3.517 kW
CFM_PER_W_PER_F = 3.16  # CFM = 3.16 x W / dT(F) for air at sea level
WATER_DENSITY_KG_PER_L = 1.0
WATER_CP_KJ_PER_KG_K = 4.18
HOURS_PER_YEAR = 8760.0


def heat_btu_per_h(power_w: float) -> float:
    """Heat load of ``power_w`` electrical watts [BTU/h] (1 kW = 3,412.14 BTU/h)."""
    return power_w * W_TO_BTU_PER_H


def cooling_tons(power_w: float) -> float:
    """Tons of refrigeration [-]: BTU/h / 12,000."""
    return heat_btu_per_h(power_w) / BTU_PER_H_PER_TON


def airflow_cfm(power_w: float, delta_t_f: float) -> float:
    """Air flow that removes ``power_w`` at a temperature rise of ``delta_t_f`` [CFM].

    ``CFM = 3.16 x W / dT(F)``; e.g. 10 kW at 20 F needs 1,580 CFM.
    """
    return CFM_PER_W_PER_F * power_w / delta_t_f


def liquid_flow_l_per_min(power_w: float, delta_t_k: float,
                          density_kg_per_l: float = WATER_DENSITY_KG_PER_L,
                          cp_kj_per_kg_k: float = WATER_CP_KJ_PER_KG_K) -> float:
    """Coolant flow that removes ``power_w`` at a rise of ``delta_t_k`` [L/min].

    ``L/min = 60 x kW / (rho x cp x dT)``: 1.43 L/min per kW for water at 10 K.
    """
    return 60.0 * (power_w / 1e3) / (density_kg_per_l * cp_kj_per_kg_k * delta_t_k)


def three_phase_current_a(power_w: float, voltage_v: float, power_factor: float) -> float:
    """Line current of a balanced three-phase load [A]: ``W / (sqrt(3) x V x PF)``."""
    return power_w / (math.sqrt(3) * voltage_v * power_factor)


def pdus_per_feed(current_a: float, rating_a: float, continuous_share: float) -> int:
    """PDUs one feed needs so that each carries at most ``continuous_share`` of its rating."""
    return max(1, math.ceil(current_a / (rating_a * continuous_share)))


def facility_power_w(it_power_w: float, pue: float) -> float:
    """Facility power = IT power x PUE [W]."""
    return it_power_w * pue


def annual_energy_kwh(power_w: float, average_share: float) -> float:
    """Energy over a year at ``average_share`` of ``power_w`` [kWh]."""
    return power_w * average_share * HOURS_PER_YEAR / 1e3


@dataclass(frozen=True)
class Rack:
    """One rack: what it holds and what it draws."""

    kind: str  # "compute" or "network"
    items: tuple[str, ...]
    units_used: int
    power_w: float
    switches: tuple[str, ...] = ()  # top-of-rack switches in a compute rack
    switch_units: int = 0  # the rack units they take [U]


def pack_racks(items: list[tuple[str, int, float]], kind: str, rack_units: int,
               limit_w: float) -> list[Rack]:
    """Next-fit packing of (name, rack units, watts) by space and by the rack's kW limit.

    Items come in order (nodes, then switches of one kind), so filling the open rack before
    starting the next is as good as first-fit here and linear in the number of items. An item
    larger than the power limit still gets a rack of its own (and the caller warns).
    """
    racks: list[list] = []
    for name, units, watts in items:
        rack = racks[-1] if racks else None
        if rack and rack[1] + units <= rack_units and rack[2] + watts <= limit_w:
            rack[0].append(name)
            rack[1] += units
            rack[2] += watts
        else:
            racks.append([[name], units, watts])
    return [Rack(kind, tuple(names), used, power) for names, used, power in racks]


def add_to_racks(racks: list[Rack], items: list[tuple[str, int, float]], rack_units: int,
                 limit_w: float) -> tuple[list[Rack], list[tuple[str, int, float]]]:
    """Put (name, rack units, watts) items (top-of-rack switches) into the racks that have
    room for them by space and the rack's kW limit, each into the first that does; returns
    the racks (the items in ``switches``) and the items that fit none."""
    held = [[list(r.switches), r.units_used, r.power_w, r.switch_units] for r in racks]
    left = []
    for name, units, watts in items:
        rack = next((r for r in held if r[1] + units <= rack_units
                     and r[2] + watts <= limit_w), None)
        if rack is None:
            left.append((name, units, watts))
            continue
        rack[0].append(name)
        rack[1] += units
        rack[2] += watts
        rack[3] += units
    return ([Rack(r.kind, r.items, used, power, tuple(names), switch_units)
             for r, (names, used, power, switch_units) in zip(racks, held, strict=True)], left)
