"""Quality control: drop impossible readings, then flag outliers with a robust z-score."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .constants import EXCLUDE_DAYS, MAD_SCALE, MIN_GROUP_N, OUTLIER_MAD_K

GROUP = ["genotype", "treatment", "day"]


def range_check(df: pd.DataFrame, lo: float, hi: float, column: str = "gs_mmol") -> pd.DataFrame:
    """Readings outside the instrument's plausible range are typos or failed clamps."""
    ok = df[column].between(lo, hi)
    return df.loc[ok].copy()


def robust_z(values: pd.Series) -> pd.Series:
    med = values.median()
    mad = np.median(np.abs(values - med)) * MAD_SCALE
    if mad == 0:
        return pd.Series(0.0, index=values.index)
    return (values - med) / mad


def flag_outliers(df: pd.DataFrame, column: str = "gs_mmol") -> pd.DataFrame:
    out = df.copy()
    out["robust_z"] = out.groupby(GROUP)[column].transform(robust_z)
    out["outlier"] = out["robust_z"].abs() > OUTLIER_MAD_K
    return out


def drop_excluded_days(df: pd.DataFrame) -> pd.DataFrame:
    return df.loc[~df["day"].isin(EXCLUDE_DAYS)].copy()


def small_groups(df: pd.DataFrame) -> list[tuple]:
    """Groups left with fewer than MIN_GROUP_N readings after QC; reported, not silently dropped."""
    counts = df.groupby(GROUP).size()
    return [key for key, n in counts.items() if n < MIN_GROUP_N]


def run_qc(df: pd.DataFrame, lo: float, hi: float, drop_flagged: bool = True) -> pd.DataFrame:
    df = drop_excluded_days(range_check(df, lo, hi))
    df = flag_outliers(df)
    if drop_flagged:
        df = df.loc[~df["outlier"]]
    return df
