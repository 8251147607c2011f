"""Figures for the paper. Style follows config/analysis.toml [figures]."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from .constants import GENOTYPE_ORDER, PALETTE

MM_PER_INCH = 25.4
FIG_WIDTH_MM = 180  # double column; was 85 before v0.6.1
FIG_DIR = Path("figures") / "paper"


def _size(height_mm: float) -> tuple[float, float]:
    return FIG_WIDTH_MM / MM_PER_INCH, height_mm / MM_PER_INCH


def gs_time_course(summary: pd.DataFrame, out_name: str = "fig1_gs_time_course") -> Path:
    fig, axes = plt.subplots(1, 2, figsize=_size(70), sharey=True)
    for ax, treatment in zip(axes, ["well_watered", "drought"], strict=True):
        sub = summary.loc[summary["treatment"] == treatment]
        for g in GENOTYPE_ORDER:
            d = sub.loc[sub["genotype"] == g]
            ax.errorbar(d["day"], d["gs_mean"], yerr=d["gs_sd"], color=PALETTE[g], label=g, capsize=2)
        ax.set_title(treatment.replace("_", " "))
        ax.set_xlabel("drought day")
    axes[0].set_ylabel("gs (mmol m$^{-2}$ s$^{-1}$)")
    axes[1].legend(frameon=False)
    return _save(fig, out_name)


def psi_bars(summary: pd.DataFrame, out_name: str = "fig2_leaf_water_potential") -> Path:
    fig, ax = plt.subplots(figsize=_size(60))
    x = range(len(summary))
    ax.bar(
        x,
        summary["psi_mean_mpa"],
        yerr=summary["psi_sd_mpa"],
        color=[PALETTE[g] for g in summary["genotype"]],
    )
    ax.set_ylabel("leaf water potential (MPa)")
    return _save(fig, out_name)


def fvfm_panel(summary: pd.DataFrame, out_name: str = "figS1_fvfm") -> Path:
    fig, ax = plt.subplots(figsize=_size(55))
    for g in GENOTYPE_ORDER:
        d = summary.loc[(summary["genotype"] == g) & (summary["treatment"] == "drought")]
        ax.errorbar(d["day"], d["fvfm_mean"], yerr=d["fvfm_sd"], color=PALETTE[g], label=g, marker="o")
    ax.axhline(0.75, color="0.6", linestyle=":", linewidth=0.8)
    ax.set_ylim(0.70, 0.86)
    ax.set_ylabel("Fv/Fm")
    ax.set_xlabel("drought day")
    ax.legend(frameon=False)
    return _save(fig, out_name)


def aba_bars(summary: pd.DataFrame, out_name: str = "fig3_aba") -> Path:
    fig, ax = plt.subplots(figsize=_size(60))
    sub = summary.loc[summary["day"] == 14]
    labels = [f"{g}\n{t.replace('_', ' ')}" for g, t in zip(sub["genotype"], sub["treatment"], strict=True)]
    ax.bar(
        range(len(sub)),
        sub["aba_ng_g_fw_mean"],
        yerr=sub["aba_ng_g_fw_sd"],
        color=[PALETTE[g] for g in sub["genotype"]],
    )
    ax.set_xticks(range(len(sub)), labels, fontsize=6)
    ax.set_ylabel("ABA (ng g$^{-1}$ FW)")
    return _save(fig, out_name)


def _save(fig, name: str) -> Path:
    FIG_DIR.mkdir(parents=True, exist_ok=True)
    path = FIG_DIR / f"{name}.pdf"
    fig.savefig(path, dpi=600, bbox_inches="tight")
    fig.savefig(path.with_suffix(".png"), dpi=600, bbox_inches="tight")
    plt.close(fig)
    return path
