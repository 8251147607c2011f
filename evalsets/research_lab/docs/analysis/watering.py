"""Helpers for the gravimetric drought protocol (protocols/drought_stress_v2.md).

Every pot is weighed daily and topped up to its target weight. The target depends on how much water the
soil in that pot holds at field capacity, measured once before sowing.
"""

from __future__ import annotations

from dataclasses import dataclass

POT_TARE_G = 18.4  # empty 7 cm square pot plus its saucer, mean of 20 weighed


@dataclass
class Pot:
    pot_id: str
    dry_soil_g: float  # oven-dried soil in this pot (estimated from the fill weight)
    fc_water_g: float  # water held at field capacity, from the saturate-and-drain step


def target_pot_weight(pot: Pot, fc_fraction: float) -> float:
    """Weight (g) to water a pot back to each day.

    tare + dry soil + the chosen fraction of the water the soil holds at field capacity.
    The rosette is ignored: at drought day 14 a Col-0 rosette weighs under 1.5 g.
    """
    if not 0 < fc_fraction <= 1:
        raise ValueError("fc_fraction must be in (0, 1]")
    return round(POT_TARE_G + pot.dry_soil_g + fc_fraction * pot.fc_water_g, 1)


def water_to_add(pot: Pot, current_weight_g: float, fc_fraction: float) -> float:
    """Millilitres to add today (never negative: a pot above target is left alone)."""
    return max(0.0, round(target_pot_weight(pot, fc_fraction) - current_weight_g, 1))


def watering_sheet(pots: list[Pot], weights: dict[str, float], fc_fraction: float) -> list[str]:
    lines = ["pot_id,weight_g,target_g,add_ml"]
    for pot in pots:
        w = weights[pot.pot_id]
        t = target_pot_weight(pot, fc_fraction)
        lines.append(f"{pot.pot_id},{w:.1f},{t:.1f},{water_to_add(pot, w, fc_fraction):.1f}")
    return lines
