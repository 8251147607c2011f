"""pytest for the QC step: python -m pytest analysis"""

import pandas as pd

from .constants import EXCLUDE_DAYS, OUTLIER_MAD_K
from .qc import drop_excluded_days, flag_outliers, range_check, robust_z, small_groups


def _frame(values, day=14, genotype="Col-0", treatment="drought"):
    return pd.DataFrame({"genotype": genotype, "treatment": treatment, "day": day, "gs_mmol": values})


def test_threshold_is_the_documented_one():
    # if this changes, update the CHANGELOG and the supplement's outlier paragraph
    assert OUTLIER_MAD_K == 3.5


def test_robust_z_constant_group():
    z = robust_z(pd.Series([80.0, 80.0, 80.0]))
    assert (z == 0).all()


def test_one_wild_value_is_flagged():
    df = flag_outliers(_frame([80, 82, 79, 85, 81, 78, 400]))
    assert df["outlier"].tolist() == [False] * 6 + [True]


def test_high_but_plausible_value_is_kept():
    # a bright-morning reading about 3.2 MADs out: dropped at 3.0, kept at 3.5
    df = flag_outliers(_frame([100, 104, 96, 102, 98, 100, 113]))
    assert not df["outlier"].any()


def test_range_check():
    df = range_check(_frame([2.0, 50.0, 950.0]), lo=5.0, hi=900.0)
    assert df["gs_mmol"].tolist() == [50.0]


def test_excluded_days_removed():
    df = pd.concat([_frame([80, 81], day=d) for d in (0, 4, 7, 10, 14)])
    out = drop_excluded_days(df)
    assert not out["day"].isin(EXCLUDE_DAYS).any()
    assert sorted(out["day"].unique()) == [0, 4, 10, 14]


def test_small_groups_reported():
    assert small_groups(_frame([80, 81, 82])) == [("Col-0", "drought", 14)]
