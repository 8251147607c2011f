"""Per-day comparisons that go in the supplement next to the mixed model.

The mixed model in analysis/R/mixed_model.R is the main analysis. These tests are the simple version
reviewers like to see: each mutant against Col-0, per treatment and drought day.
"""

from __future__ import annotations

import pandas as pd
from scipy import stats
from statsmodels.stats.multitest import multipletests

from .constants import GENOTYPE_ORDER


def welch_per_day(df: pd.DataFrame, column: str = "gs_mmol") -> pd.DataFrame:
    rows = []
    ref = GENOTYPE_ORDER[0]
    for (treatment, day), sub in df.groupby(["treatment", "day"]):
        a = sub.loc[sub["genotype"] == ref, column]
        for mutant in GENOTYPE_ORDER[1:]:
            b = sub.loc[sub["genotype"] == mutant, column]
            if len(b) == 0:
                continue
            t, p = stats.ttest_ind(b, a, equal_var=False)
            rows.append({"treatment": treatment, "day": day, "mutant": mutant, "t": t, "p_raw": p})
    res = pd.DataFrame(rows)
    # Holm across every comparison in the table, not per day: one family per response variable.
    res["p_holm"] = multipletests(res["p_raw"], method="holm")[1]
    return res


def percent_drop(df: pd.DataFrame, day: int, column: str = "gs_mmol") -> pd.Series:
    """Drop in mean gs under drought relative to well-watered plants of the same genotype, in %."""
    sub = df.loc[df["day"] == day].groupby(["genotype", "treatment"])[column].mean().unstack()
    return (1 - sub["drought"] / sub["well_watered"]) * 100


def summary_table(df: pd.DataFrame, column: str, prefix: str) -> pd.DataFrame:
    """Mean, SD and n per genotype x treatment x day, in the layout of the files in data/."""
    out = (
        df.groupby(["genotype", "treatment", "day"])[column]
        .agg(["mean", "std", "size"])
        .rename(columns={"mean": f"{prefix}_mean", "std": f"{prefix}_sd", "size": "n"})
        .reset_index()
    )
    return out.round({f"{prefix}_mean": 3, f"{prefix}_sd": 3})
