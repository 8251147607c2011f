"""pytest: python -m pytest analysis"""

import pytest

from .watering import Pot, target_pot_weight, water_to_add


def test_target_weight_drought():
    pot = Pot("T01-A1", dry_soil_g=42.0, fc_water_g=110.0)
    assert target_pot_weight(pot, 0.30) == pytest.approx(18.4 + 42.0 + 33.0)


def test_never_remove_water():
    pot = Pot("T01-A2", dry_soil_g=42.0, fc_water_g=110.0)
    assert water_to_add(pot, 500.0, 0.80) == 0.0


def test_bad_fraction():
    with pytest.raises(ValueError):
        target_pot_weight(Pot("x", 40.0, 100.0), 1.5)
