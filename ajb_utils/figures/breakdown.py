"""Breakdown figures (RQ1, App. Q, S): per-metric alignment (F03) and alignment by DAG topology (F09).

Each function takes a table from ``ajb_utils.tables`` and returns (fig, axes); never plt.show().
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ajb_utils import schema
from ajb_utils.figures.style import judge_color

__all__ = ["figure_F03", "figure_F09"]


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
