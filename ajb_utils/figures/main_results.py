"""Main-results figure (§4.2, Finding 1): alignment degradation curves by difficulty (F08)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from ajb_utils import schema
from ajb_utils.figures.style import TEXT_WIDTH, condition_style, generator_color, paper_figure

__all__ = ["figure_F08"]


def figure_F08(degradation: pd.DataFrame):
    """Return (fig, axes): mean alignment (%) by difficulty, with GT solid / without GT dashed.

    `degradation` is tables.degradation_table(...): the first panel is 'all' (mean over the six
    judges and the generators), then one panel per generator; three panels to a row.
    """
    gens = list(dict.fromkeys(degradation["generator"]))
    ncols = min(3, len(gens))
    nrows = int(np.ceil(len(gens) / ncols))
    fig, axes = paper_figure(TEXT_WIDTH, 1.75 * nrows + 0.45, nrows, ncols, sharex=True, sharey=True,
                             squeeze=False)
    axes = axes.ravel()
    x = np.arange(len(schema.DIFFICULTIES))
    for ax, g in zip(axes, gens):
        sub = degradation[degradation["generator"] == g]
        color = "black" if g == "all" else generator_color(g)
        for cond in schema.MAIN_CONDITIONS:
            row = sub[sub["condition"] == cond]
            if row.empty:
                continue
            y = row[schema.DIFFICULTIES].to_numpy(float)[0]
            ax.plot(x, y, color=color, label=schema.CONDITION_DISPLAY[cond], **condition_style(cond))
        ax.set_xticks(x, [d.capitalize() for d in schema.DIFFICULTIES])
        ax.margins(x=0.12)  # tick labels of neighbouring panels stay apart
        ax.set_title("All generators" if g == "all" else schema.display(g))
    for ax in axes[len(gens):]:
        ax.set_visible(False)
    for ax in axes.reshape(nrows, ncols)[:, 0]:
        ax.set_ylabel("alignment (%)")
    handles = [Line2D([], [], color="0.3", label=schema.CONDITION_DISPLAY[c], **condition_style(c))
               for c in schema.MAIN_CONDITIONS]
    fig.legend(handles=handles, loc="outside lower center", ncol=len(handles))
    return fig, axes
