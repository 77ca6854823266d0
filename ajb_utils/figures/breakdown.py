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


_REF_LINES: dict[str, dict] = {
    "ref: always 1.0 (= p-bar)": {"color": "0.35", "linestyle": ":", "linewidth": 1.2, "label": "always-1.0 (= p̄)"},
    "ref: {0, 0.5, 1} oracle (ceiling)": {
        "color": "0.6",
        "linestyle": "-.",
        "linewidth": 1.0,
        "label": "{0, 0.5, 1} oracle (ceiling)",
    },
}


def figure_F03(t24: pd.DataFrame, references: pd.DataFrame | None = None):
    """Return (fig, axes[2]): per-metric alignment (%) per judge as points, with / without GT.

    Points, not bars: the values sit in a narrow band far from 0, and a bar on a truncated axis
    exaggerates the differences its length encodes. `references` (the reference judges'
    table_T24 rows, notebook 04) adds each reference judge as a grey segment across its metric's group of points.
    """
    conds = [c for c in schema.MAIN_CONDITIONS if c in t24.columns.get_level_values(0)]
    fig, axes = paper_figure(TEXT_WIDTH, 3.1, 1, len(conds), sharey=True, squeeze=False)
    axes = axes[0]
    judges = list(t24.index)
    width = 0.8 / len(judges)
    x = np.arange(len(schema.METRICS))
    for ax, cond in zip(axes, conds):
        for i, j in enumerate(judges):
            vals = t24.loc[j, cond].reindex(schema.METRICS).to_numpy(float)
            ax.plot(
                x - 0.4 + (i + 0.5) * width,
                vals,
                linestyle="none",
                marker="o",
                markersize=4.5,
                color=judge_color(j),
                label=schema.display(j),
            )
        if references is not None and cond in references.columns.get_level_values(0):
            for name, style in _REF_LINES.items():
                if name not in references.index:
                    continue
                vals = references.loc[name, cond].reindex(schema.METRICS).to_numpy(float)
                for k, val in enumerate(vals):
                    ax.hlines(
                        val,
                        x[k] - 0.45,
                        x[k] + 0.45,
                        label=style["label"] if k == 0 else None,
                        **{a: b for a, b in style.items() if a != "label"},
                    )
        ax.set_xticks(x, [schema.METRIC_DISPLAY[m] for m in schema.METRICS], rotation=20, ha="right")
        ax.set_title(schema.CONDITION_DISPLAY[cond])
        ax.set_xlim(-0.5, len(schema.METRICS) - 0.5)
        ax.set_ylim(None, 100)
        ax.grid(axis="x", visible=False)
    axes[0].set_ylabel("per-metric alignment (%)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=5)
    return fig, axes


def figure_F09(t28: pd.DataFrame, scale_judges: list[str] | None = None, references: pd.DataFrame | None = None):
    """Return (fig, ax): heatmap judge x topology of with-GT alignment (%), values annotated.

    The colour scale spans the `scale_judges` (default: the six main judges present), so one far
    weaker (or stronger) judge does not flatten the differences among the six; cells outside the
    scale, below or above it, are drawn light grey, with their value written in them. `references`
    (the reference judges' table_T28 rows, notebook 04) adds the reference judges as rows below a line, their
    values written on white (they are yardsticks, not judges, and take no colour).
    """
    n_ref = 0 if references is None else len(references)
    if n_ref:
        t28 = pd.concat([t28, references.reindex(columns=t28.columns)])
    a = t28.to_numpy(float)
    scale = [j for j in (scale_judges or schema.MAIN_JUDGES) if j in t28.index] or list(t28.index)
    ref = t28.loc[scale].to_numpy(float)
    vmin, vmax = float(np.nanmin(ref)), float(np.nanmax(ref))
    cmap = mpl.colormaps["viridis"].with_extremes(under="0.85", over="0.85")
    fig, ax = paper_figure(TEXT_WIDTH, 0.27 * len(t28) + 1.0)
    colour = np.ma.masked_array(a, mask=np.zeros_like(a, dtype=bool))
    if n_ref:
        colour.mask[-n_ref:] = True
    im = ax.imshow(colour, cmap=cmap.with_extremes(bad="white"), vmin=vmin, vmax=vmax, aspect="auto")
    mid = (vmin + vmax) / 2
    for (r, c), val in np.ndenumerate(a):
        dark = vmin <= val < mid and r < len(a) - n_ref
        ax.text(
            c,
            r,
            f"{val:.1f}",
            ha="center",
            va="center",
            fontsize=7,
            color="white" if dark else "black",
            style="italic" if r >= len(a) - n_ref else "normal",
        )
    if n_ref:
        ax.axhline(len(a) - n_ref - 0.5, color="black", linewidth=1.0)
    ax.set_xticks(range(a.shape[1]), [schema.TOPOLOGY_DISPLAY.get(t, t) for t in t28.columns], rotation=15, ha="right")
    ax.set_yticks(range(len(t28)), [schema.display(j).replace("ref: ", "").replace("p-bar", "p̄") for j in t28.index])
    ax.grid(False)
    a = a[: len(a) - n_ref] if n_ref else a
    low, high = np.nanmin(a) < vmin, np.nanmax(a) > vmax
    extend = {(True, True): "both", (True, False): "min", (False, True): "max"}.get((low, high), "neither")
    fig.colorbar(im, ax=ax, label="alignment with GT (%)", extend=extend, shrink=0.9)
    return fig, ax
