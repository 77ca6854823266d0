"""Breakdown figures (RQ1, App. Q, S): per-metric alignment (F03) and alignment by DAG topology (F09).

Each function takes a table from ``ajb_utils.tables`` and returns (fig, axes); never plt.show().
"""

from __future__ import annotations

import matplotlib as mpl
import numpy as np
import pandas as pd

from ajb_utils import schema
from ajb_utils.figures.style import TEXT_WIDTH, judge_color, paper_figure

__all__ = ["figure_F03", "figure_F09"]


def figure_F03(t24: pd.DataFrame):
    """Return (fig, axes[2]): grouped bars of per-metric alignment (%) per judge, with / without GT."""
    conds = [c for c in schema.MAIN_CONDITIONS if c in t24.columns.get_level_values(0)]
    fig, axes = paper_figure(TEXT_WIDTH, 2.9, 1, len(conds), sharey=True, squeeze=False)
    axes = axes[0]
    judges = list(t24.index)
    width = 0.8 / len(judges)
    x = np.arange(len(schema.METRICS))
    for ax, cond in zip(axes, conds):
        for i, j in enumerate(judges):
            vals = t24.loc[j, cond].reindex(schema.METRICS).to_numpy(float)
            ax.bar(x - 0.4 + (i + 0.5) * width, vals, width, color=judge_color(j), label=schema.display(j))
        ax.set_xticks(x, [schema.METRIC_DISPLAY[m] for m in schema.METRICS], rotation=20, ha="right")
        ax.set_title(schema.CONDITION_DISPLAY[cond])
        ax.set_ylim(max(0.0, np.nanmin(t24.to_numpy(float)) - 5), 100)
        ax.grid(axis="x", visible=False)
    axes[0].set_ylabel("per-metric alignment (%)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=4)
    return fig, axes


def figure_F09(t28: pd.DataFrame, scale_judges: list[str] | None = None):
    """Return (fig, ax): heatmap judge x topology of with-GT alignment (%), values annotated.

    The colour scale spans the `scale_judges` (default: the six main judges present), so one far
    weaker judge (Prometheus-2) does not flatten the differences among the six; cells below the
    scale are drawn light grey, with their value written in them.
    """
    a = t28.to_numpy(float)
    scale = [j for j in (scale_judges or schema.MAIN_JUDGES) if j in t28.index] or list(t28.index)
    ref = t28.loc[scale].to_numpy(float)
    vmin, vmax = float(np.nanmin(ref)), float(np.nanmax(ref))
    cmap = mpl.colormaps["viridis"].with_extremes(under="0.85")
    fig, ax = paper_figure(TEXT_WIDTH, 0.27 * len(t28) + 1.0)
    im = ax.imshow(a, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    mid = (vmin + vmax) / 2
    for (r, c), val in np.ndenumerate(a):
        dark = vmin <= val < mid
        ax.text(c, r, f"{val:.1f}", ha="center", va="center", fontsize=7, color="white" if dark else "black")
    ax.set_xticks(range(a.shape[1]), [schema.TOPOLOGY_DISPLAY.get(t, t) for t in t28.columns])
    ax.set_yticks(range(a.shape[0]), [schema.display(j) for j in t28.index])
    ax.grid(False)
    low, high = np.nanmin(a) < vmin, np.nanmax(a) > vmax
    extend = {(True, True): "both", (True, False): "min", (False, True): "max"}.get((low, high), "neither")
    fig.colorbar(im, ax=ax, label="alignment with GT (%)", extend=extend, shrink=0.9)
    return fig, ax
