"""Run the whole analysis for one run config.

python -m analysis.pipeline --config config/run3.yaml [--skip-r]
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

import pandas as pd
import tomllib
import yaml

from . import load_data, plot_figures, qc, stats_tests


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", required=True, type=Path)
    ap.add_argument("--settings", default=Path("config/analysis.toml"), type=Path)
    ap.add_argument("--skip-r", action="store_true", help="do not call the R mixed model")
    args = ap.parse_args(argv)

    run = yaml.safe_load(args.config.read_text())
    settings = tomllib.loads(args.settings.read_text())
    raw = Path(settings["paths"]["porometer"]) / run["run"]

    frames = [load_data.load_porometer(raw, day) for day in run["measurements"]["gs"]["days"]]
    gs = pd.concat(frames, ignore_index=True)
    gs = qc.run_qc(
        gs, settings["qc"]["min_gs_mmol"], settings["qc"]["max_gs_mmol"], settings["qc"]["drop_flagged"]
    )
    summary = (
        gs.groupby(["genotype", "treatment", "day"])["gs_mmol"]
        .agg(gs_mean="mean", gs_sd="std", n="size")
        .reset_index()
    )
    out = Path(settings["paths"]["summaries"]) / f"{run['run']}_gs_summary.csv"
    summary.to_csv(out, index=False)

    stats_tests.welch_per_day(gs).to_csv(out.with_name(f"{run['run']}_welch.csv"), index=False)
    plot_figures.gs_time_course(summary)

    # leaf water potential and Fv/Fm, where the run measured them
    psi_file = Path(settings["paths"]["pressure_chamber"]) / f"{run['run']}_psi.csv"
    if psi_file.exists():
        psi = load_data.load_pressure_chamber(psi_file)
        psi["day"] = run["measurements"]["psi_leaf"]["days"][-1]
        stats_tests.summary_table(psi, "psi_leaf_mpa", "psi_leaf_mpa").to_csv(
            out.with_name(f"{run['run']}_water_potential.csv"), index=False
        )
    if "fvfm" in run["measurements"]:
        fv_dir = Path(settings["paths"]["fluorometer"]) / run["run"]
        fv_days = run["measurements"]["fvfm"]["days"]
        fv = pd.concat(
            [load_data.load_fluorometer(fv_dir / f"day{d:02d}.csv", d) for d in fv_days],
            ignore_index=True,
        )
        fv = qc.drop_excluded_days(fv)
        table = stats_tests.summary_table(fv, "fvfm", "fvfm")
        table["dark_adapt_min"] = run["measurements"]["fvfm"]["dark_adapt_min"]
        table.to_csv(out.with_name(f"{run['run']}_fvfm.csv"), index=False)

    if not args.skip_r:
        subprocess.run([settings["r"]["rscript"], settings["r"]["script"], str(args.config)], check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
