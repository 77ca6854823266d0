"""Dataset figures (App. C): records by topology (F06), structural statistics (F07).

Each function returns (fig, axes) and never calls plt.show(); colours and order follow
ajb_utils.figures.style and ajb_utils.schema.
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import MaxNLocator

from ajb_utils import schema
from ajb_utils.figures.style import COLUMN_WIDTH, OKABE_ITO, TEXT_WIDTH, paper_figure
from ajb_utils.tables.dataset import structural_counts, table_T07

__all__ = ["figure_F06", "figure_F07"]

_TOPO_COLORS = [OKABE_ITO[k] for k in ("blue", "orange", "bluish_green", "vermillion", "reddish_purple", "sky_blue")]
# The paper's axis names for the three structural statistics (App. C, Figure 7).
F07_AXES: dict[str, tuple[str, str]] = {
    "available_tools_per_record": ("Tools", "records"),
    "parameters_per_tool": ("Parameters", "tools"),
    "expected_tool_calls_per_record": ("Tool calls", "records"),
}


def figure_F06(bench):
    """Return (fig, ax): records per DAG topology as horizontal bars, each labelled with count and share."""
    t = table_T07(bench)
    t = t[t["dag_type"].isin(schema.TOPOLOGIES)]  # records without a topology: T07's own row
    labels = [schema.TOPOLOGY_DISPLAY[d] for d in t["dag_type"]]
    n = t["records"].to_numpy(int)
    fig, ax = paper_figure(COLUMN_WIDTH, 2.3)
    y = np.arange(len(labels))[::-1]  # paper order from the top
    bars = ax.barh(y, n, color=_TOPO_COLORS[: len(n)])
    ax.bar_label(bars, [f"{k:,} ({100 * k / n.sum():.1f}%)" for k in n], padding=2, fontsize=7)
    ax.set_yticks(y, labels)
    ax.set_xlabel(f"records (n = {n.sum():,})")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(0, n.max() * 1.35)  # room for the labels
    ax.grid(axis="y", visible=False)
    return fig, ax


def figure_F07(bench):
    """Return (fig, axes[3]): histograms of tools per record, parameters per tool and tool calls per record; the mean in each title and as a dashed line."""
    counts = structural_counts(bench)
    fig, axes = paper_figure(TEXT_WIDTH, 2.1, 1, 3)
    for ax, (key, x), color in zip(axes, counts.items(), _TOPO_COLORS):
        x = np.asarray(x)
        bins = np.arange(x.min(), x.max() + 2) - 0.5
        ax.hist(x, bins=bins, color=color, edgecolor="white")
        ax.axvline(x.mean(), color="black", linestyle="--", linewidth=1.0)
        xlabel, unit = F07_AXES.get(key, (key, "count"))
        ax.set_title(f"{xlabel} (mean {x.mean():.1f})")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(unit)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    return fig, axes
