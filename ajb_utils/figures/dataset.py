"""Dataset figures (App. C): topology shares and counts (F06), structural statistics (F07).

Each function returns (fig, axes) and never calls plt.show(); colours and order follow
ajb_utils.figures.style and ajb_utils.schema.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ajb_utils import schema
from ajb_utils.figures.style import OKABE_ITO
from ajb_utils.tables.dataset import STRUCTURAL_VARIANTS, structural_counts, table_T07

__all__ = ["figure_F06", "figure_F07"]

_TOPO_COLORS = [OKABE_ITO[k] for k in ("blue", "orange", "bluish_green", "vermillion",
                                       "reddish_purple", "sky_blue")]


def figure_F06(bench):
    """Return (fig, (ax_pie, ax_bar)): topology shares as a pie and record counts as bars."""
    t = table_T07(bench)
    t = t[t["dag_type"].isin(schema.TOPOLOGIES)]  # records without a topology: T07's own row
    labels = [schema.TOPOLOGY_DISPLAY[d] for d in t["dag_type"]]
    fig, (ax_pie, ax_bar) = plt.subplots(1, 2, figsize=(9.0, 3.6))
    ax_pie.pie(t["records"], labels=labels, colors=_TOPO_COLORS, autopct="%1.1f%%",
               startangle=90, counterclock=False, textprops={"fontsize": 7})
    ax_pie.set_title("Share of records by DAG topology")
    bars = ax_bar.bar(labels, t["records"], color=_TOPO_COLORS)
    ax_bar.bar_label(bars, fontsize=7)
    ax_bar.set_ylabel("records")
    ax_bar.set_title(f"Records by DAG topology (n = {int(t['records'].sum())})")
    ax_bar.set_xticks(range(len(labels)), labels, rotation=30, ha="right")
    fig.tight_layout()
    return fig, (ax_pie, ax_bar)


def figure_F07(bench):
    """Return (fig, axes[3]): histograms of tools/record, params/tool, calls/record, dashed mean."""
    counts = structural_counts(bench)
    fig, axes = plt.subplots(1, 3, figsize=(10.0, 3.2))
    for ax, (key, x), color in zip(axes, counts.items(), _TOPO_COLORS):
        bins = np.arange(x.min(), x.max() + 2) - 0.5
        ax.hist(x, bins=bins, color=color, edgecolor="white")
        ax.axvline(x.mean(), color="black", linestyle="--", linewidth=1.2,
                   label=f"mean = {x.mean():.1f}")
        ax.set_title(STRUCTURAL_VARIANTS[key])
        ax.set_xlabel("count")
        ax.set_ylabel("frequency")
        ax.legend(loc="upper right")
    fig.tight_layout()
    return fig, axes
