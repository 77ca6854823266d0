"""Figures for notebooks 04-05, 13-14 per-metric, topology, agreement (F03, F09, F10).

Each function takes a table from ``ajb_utils.tables`` and returns (fig, axes); never plt.show().
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ajb_utils import schema
from ajb_utils.figures.style import judge_color

__all__ = ["figure_F03", "figure_F09", "figure_F10"]


def figure_F03(t24: pd.DataFrame):
    """Return (fig, axes[2]): grouped bars of per-metric alignment (%) per judge, with / without GT."""
    conds = [c for c in schema.MAIN_CONDITIONS if c in t24.columns.get_level_values(0)]
    fig, axes = plt.subplots(1, len(conds), figsize=(5.2 * len(conds), 3.6), sharey=True, squeeze=False)
    axes = axes[0]
    judges = list(t24.index)
    width = 0.8 / len(judges)
    x = np.arange(len(schema.METRICS))
    for ax, cond in zip(axes, conds):
        for i, j in enumerate(judges):
            vals = t24.loc[j, cond].reindex(schema.METRICS).to_numpy(float)
            ax.bar(x - 0.4 + (i + 0.5) * width, vals, width, color=judge_color(j), label=schema.display(j))
        ax.set_xticks(x, [schema.METRIC_DISPLAY[m] for m in schema.METRICS], rotation=15)
        ax.set_title(schema.CONDITION_DISPLAY[cond])
        ax.set_ylim(max(0.0, np.nanmin(t24.to_numpy(float)) - 5), 100)
    axes[0].set_ylabel("per-metric alignment (%)")
    axes[-1].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), title="judge")
    fig.tight_layout()
    return fig, axes


def figure_F09(t28: pd.DataFrame):
    """Return (fig, ax): heatmap judge x topology of with-GT alignment (%), values annotated."""
    fig, ax = plt.subplots(figsize=(7.2, 0.45 * len(t28) + 1.4))
    a = t28.to_numpy(float)
    im = ax.imshow(a, cmap="viridis", aspect="auto")
    for (r, c), val in np.ndenumerate(a):
        ax.text(c, r, f"{val:.1f}", ha="center", va="center", fontsize=7,
                color="white" if val < np.nanmean(a) else "black")
    ax.set_xticks(range(a.shape[1]), [schema.TOPOLOGY_DISPLAY.get(t, t) for t in t28.columns], rotation=20)
    ax.set_yticks(range(a.shape[0]), [schema.display(j) for j in t28.index])
    ax.grid(False)
    fig.colorbar(im, ax=ax, label="alignment with GT (%)")
    ax.set_title("Alignment by DAG topology (with GT)")
    fig.tight_layout()
    return fig, ax


def figure_F10(f10: pd.DataFrame):
    """Return (fig, axes[2]): 3x3 verdict confusion heatmaps (% of verdicts) of the two pairs in f10."""
    pairs = list(dict.fromkeys(f10["pair"]))
    fig, axes = plt.subplots(1, len(pairs), figsize=(4.2 * len(pairs), 3.6), squeeze=False)
    axes = axes[0]
    labels = ["0", "0.5", "1"]
    for ax, pair in zip(axes, pairs):
        sub = f10[f10["pair"] == pair]
        shares = sub[sub["stat"] == "share_of_verdicts"].set_index("variant")["value"]
        mat = np.array([[shares.get(f"{a}|{b}", np.nan) for b in labels] for a in labels], float)
        ax.imshow(mat, cmap="Blues", vmin=0, vmax=100)
        for (r, c), val in np.ndenumerate(mat):
            ax.text(c, r, f"{val:.1f}%", ha="center", va="center", fontsize=8,
                    color="white" if val > 50 else "black")
        stat = sub.set_index("stat")["value"]
        a, b = sub["judge"].iloc[0], sub["judge_2"].iloc[0]
        ax.set_xticks(range(3), labels)
        ax.set_yticks(range(3), labels)
        ax.set_xlabel(f"{schema.display(b)} verdict")
        ax.set_ylabel(f"{schema.display(a)} verdict")
        ax.grid(False)
        ax.set_title(f"{pair}: agreement {stat['agreement']:.1f}%, κ = {stat['kappa']:.2f}\n"
                     f"off-diagonal with a 0.5: {stat['offdiag_share_with_a_0.5']:.1f}%", fontsize=8)
    fig.tight_layout()
    return fig, axes
