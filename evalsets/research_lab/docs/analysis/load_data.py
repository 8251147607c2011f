"""Read the instrument exports into tidy pandas frames.

Porometer: one CSV per measuring session, comma separated, columns Time, Sample, gs, Leaf_T, RH.
Fluorometer: semicolon-separated export with a 4-line header.
Pressure chamber: readings typed into a CSV by hand, in bar, because that is what the gauge shows.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

BAR_TO_MPA = 0.1  # the Brantley gauge reads in bar; 1 bar = 0.1 MPa

SAMPLE_PATTERN = r"(?P<genotype>Col-0|slx3-1|slx3-2)_(?P<treatment>WW|DR)_(?P<plant>\d{2})"
TREATMENT_CODES = {"WW": "well_watered", "DR": "drought"}


def _split_sample(df: pd.DataFrame, column: str = "Sample") -> pd.DataFrame:
    parts = df[column].str.extract(SAMPLE_PATTERN)
    parts["treatment"] = parts["treatment"].map(TREATMENT_CODES)
    parts["plant_id"] = parts["genotype"] + "_" + parts["treatment"] + "_" + parts["plant"]
    return pd.concat([df.drop(columns=[column]), parts.drop(columns=["plant"])], axis=1)


def load_porometer(folder: Path, day: int) -> pd.DataFrame:
    """All porometer sessions for one drought day."""
    frames = [pd.read_csv(p) for p in sorted(folder.glob(f"day{day:02d}_*.csv"))]
    df = pd.concat(frames, ignore_index=True).rename(columns={"gs": "gs_mmol"})
    df["day"] = day
    return _split_sample(df)


def load_fluorometer(path: Path, day: int) -> pd.DataFrame:
    df = pd.read_csv(path, sep=";", skiprows=4, decimal=",")
    df = df.rename(columns={"Fv/Fm": "fvfm", "ID": "Sample"})
    df["day"] = day
    return _split_sample(df)


def load_pressure_chamber(path: Path) -> pd.DataFrame:
    """Hand-typed balance pressures (bar, positive) -> leaf water potential in MPa (negative)."""
    df = pd.read_csv(path)
    df["psi_leaf_mpa"] = -df["balance_bar"] * BAR_TO_MPA
    return _split_sample(df.drop(columns=["balance_bar"]))


def load_watering_log(path: Path) -> pd.DataFrame:
    """Daily pot weights from the watering spreadsheet (exported as CSV).

    Columns: date, pot_id, weight_before_g, added_ml. Used to check that every drought pot stayed near
    its target; not needed for the gs analysis itself.
    """
    df = pd.read_csv(path, parse_dates=["date"])
    df["weight_after_g"] = df["weight_before_g"] + df["added_ml"]  # 1 ml water = 1 g
    return df


def check_columns(df: pd.DataFrame, required: list[str], source: str) -> None:
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise ValueError(f"{source}: missing columns {missing}")
