"""Networks: scale-up inside a node, the scale-out fabric, front-end, storage and management.

The compute fabric is a rail-optimised fat tree of switches with radix ``k`` (METHOD.md,
"Infrastructure"; HARDWARE.md 3.5-3.6):

- two tiers up to ``k * down`` endpoints, ``down = k * o / (o + 1)`` ports per leaf facing the
  GPUs at oversubscription ``o:1`` (``k/2`` non-blocking, so ``k^2 / 2`` endpoints);
  leaves = ceil(N / down); spines: enough for every leaf uplink, rounded up so that each
  leaf's uplinks spread evenly (a divisor of the uplinks per leaf);
- three tiers beyond: as many spines as leaves, cores = spine uplinks / k (``k^3 / 4`` max).

Checked against NVIDIA's DGX SuperPOD tables: 128 DGX H100 (1,024 GPUs) on QM9700 (k = 64)
give 32 leaves, 16 spines and 1,024 cables per tier.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.i18n import Message, msg, plural

UPLINKS_PER_ACCESS_SWITCH = 4  # front-end, storage and OOB switches keep 4 ports for uplinks


@dataclass(frozen=True)
class Fabric:
    """A sized fat tree."""

    endpoints: int
    radix: int
    tiers: int
    leaves: int
    spines: int
    cores: int
    down_ports_per_leaf: int
    cables_per_tier: tuple[int, ...]
    oversubscription: float

    @property
    def switches(self) -> int:
        return self.leaves + self.spines + self.cores

    @property
    def cables(self) -> int:
        return sum(self.cables_per_tier)

    @property
    def transceivers(self) -> int:
        """Two optical modules per link (one at each end)."""
        return 2 * self.cables


def down_ports(radix: int, oversubscription: float) -> int:
    """Leaf ports facing endpoints at ``oversubscription``:1 (k/2 when non-blocking)."""
    return int(radix * oversubscription / (oversubscription + 1))


def two_tier_limit(radix: int, oversubscription: float = 1.0) -> int:
    """Most endpoints a two-tier fat tree connects: ``k x down`` (k^2/2 non-blocking)."""
    return radix * down_ports(radix, oversubscription)


def even_spines(leaves: int, uplinks_per_leaf: int, radix: int) -> int:
    """Spines for ``leaves`` leaves: every uplink lands, and each leaf spreads evenly."""
    needed = math.ceil(leaves * uplinks_per_leaf / radix)
    for spines in range(needed, uplinks_per_leaf + 1):
        if uplinks_per_leaf % spines == 0:
            return spines
    return needed


def fat_tree(endpoints: int, radix: int, oversubscription: float = 1.0) -> Fabric:
    """Size a rail-optimised fat tree for ``endpoints`` GPUs (NICs) on ``radix``-port switches.

    Parameters
    ----------
    endpoints : GPUs (one NIC each) on the fabric [-]
    radix : switch ports at the fabric speed (QM9700: 64 x 400G) [-]
    oversubscription : down:up bandwidth ratio at the leaves, 1 = non-blocking [-]
    """
    down = down_ports(radix, oversubscription)
    up = radix - down
    leaves = math.ceil(endpoints / down)
    if endpoints <= radix * down:
        spines = even_spines(leaves, up, radix) if leaves > 1 else 0
        cables = (endpoints, leaves * up if spines else 0)
        return Fabric(endpoints, radix, 2 if spines else 1, leaves, spines, 0, down,
                      tuple(c for c in cables if c), oversubscription)
    spines = leaves
    cores = math.ceil(spines * (radix // 2) / radix)
    cables = (endpoints, leaves * up, spines * (radix // 2))
    return Fabric(endpoints, radix, 3, leaves, spines, cores, down, cables, oversubscription)


@dataclass(frozen=True)
class AccessNetwork:
    """A redundant pair-based access network (front-end, storage) or the OOB network."""

    name: str
    ports: int
    switches: int


def redundant_access(name: str, nodes: int, radix: int) -> AccessNetwork:
    """Nodes dual-homed to switch pairs (MLAG): pairs = ceil(nodes / (k - uplinks))."""
    per_switch = radix - UPLINKS_PER_ACCESS_SWITCH
    pairs = max(1, math.ceil(nodes / per_switch))
    return AccessNetwork(name, 2 * nodes, 2 * pairs)


def out_of_band(devices: int, radix: int) -> AccessNetwork:
    """One 1GbE management port per device (BMCs, switches, PDUs)."""
    per_switch = radix - UPLINKS_PER_ACCESS_SWITCH
    return AccessNetwork("out-of-band management", devices, max(1, math.ceil(devices / per_switch)))


SCALE_UP_NAMES = {"nvlink": "NVLink/NVSwitch", "pcie": "PCIe",
                  "infinity-fabric": "Infinity Fabric", "roce": "RoCE"}


def scale_up_description(scale_up: str, gb_per_s: float, gpus_per_node: int) -> Message:
    """Plain words for the link between GPUs of one node, as a translatable sentence.

    Parameters
    ----------
    scale_up : the link's catalog code (nvlink, pcie, infinity-fabric, roce)
    gb_per_s : bandwidth per GPU and direction [GB/s]
    gpus_per_node : GPUs in the node [-]
    """
    return plural(gpus_per_node,
                  msg("{link}, {gb_s:,g} GB/s per GPU per direction, one GPU per node"),
                  msg("{link}, {gb_s:,g} GB/s per GPU per direction, {gpus} GPUs per node"),
                  link=SCALE_UP_NAMES.get(scale_up, scale_up), gb_s=gb_per_s, gpus=gpus_per_node)
