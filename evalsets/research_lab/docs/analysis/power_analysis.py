"""Sample size for run 3 (Caspar Oyelowo, January 2025).

Effect of interest: difference in gs between slx3-1 and Col-0 under drought on drought day 14.
Run 2 gave a difference of about 69 mmol m-2 s-1 with a pooled SD of about 55, so d is roughly 1.25.
We plan for that, two-sided, with a Holm-style allowance for two mutant comparisons.
"""

from __future__ import annotations

import math

from statsmodels.stats.power import TTestIndPower

EFFECT_SIZE_D = 1.25
ALPHA = 0.05
N_COMPARISONS = 2  # slx3-1 and slx3-2 against Col-0
TARGET_POWER = 0.80
EXPECTED_LOSS = 0.10  # plants lost to damping off, bolting or a failed clamp


def plants_needed(d: float = EFFECT_SIZE_D, power: float = TARGET_POWER) -> int:
    alpha = ALPHA / N_COMPARISONS
    n = TTestIndPower().solve_power(effect_size=d, alpha=alpha, power=power, alternative="two-sided")
    return math.ceil(math.ceil(n) / (1 - EXPECTED_LOSS))


if __name__ == "__main__":
    # prints 16 with the numbers above
    print(plants_needed())
