"""ABA from the Metabolomics Core's LC-MS export.

The core reports peak areas for ABA and the d6-ABA internal standard per injection. We convert the area
ratio to ng with the calibration slope they send with each batch, then to ng per g fresh weight.
"""

from __future__ import annotations

import pandas as pd

D6_ABA_SPIKE_NG = 10.0  # internal standard added to every extraction
DEFAULT_TISSUE_MG = 50


def ng_per_g_fw(df: pd.DataFrame, slope: float, intercept: float = 0.0) -> pd.Series:
    ratio = df["area_aba"] / df["area_d6"]
    ng = (ratio - intercept) / slope * D6_ABA_SPIKE_NG
    return ng / (df["tissue_mg"] / 1000.0)


def load_batch(path: str, slope: float) -> pd.DataFrame:
    df = pd.read_csv(path)
    if "tissue_mg" not in df:
        df["tissue_mg"] = DEFAULT_TISSUE_MG
    df["aba_ng_g_fw"] = ng_per_g_fw(df, slope)
    return df
