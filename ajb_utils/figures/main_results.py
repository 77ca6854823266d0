"""Main-results figure (§4.2, Finding 1): alignment degradation curves by difficulty (F08)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from ajb_utils import schema
from ajb_utils.figures.style import TEXT_WIDTH, condition_style, generator_color, paper_figure

__all__ = ["figure_F08"]


_REF_STYLES: dict[str, dict] = {
    "ref: always 1.0 (= p-bar)": {
        "color": "0.45",
        "linestyle": ":",
        "linewidth": 1.1,
        "label": "always-1.0 judge (= p̄)",
    },
    "ref: {0, 0.5, 1} oracle (ceiling)": {
        "color": "0.65",
        "linestyle": "-.",
        "linewidth": 1.0,
        "label": "{0, 0.5, 1} oracle (ceiling)",
    },
}


def figure_F08(degradation: pd.DataFrame, ci: pd.DataFrame | None = None, references: pd.DataFrame | None = None):
    """Return (fig, axes): mean alignment (%) by difficulty, with GT solid / without GT dashed.

    `degradation` is tables.degradation_table(...): the first panel is 'all' (mean over the six
    judges and the generators), then one panel per generator; three panels to a row. `ci`
    (tables.degradation_ci) adds 95% bootstrap error bars (its half-widths around each point);
    `references` (degradation rows of reference judges with a `judge` column: notebook 03) adds them as grey lines.
    """
    gens = list(dict.fromkeys(degradation["generator"]))
    ncols = min(3, len(gens))
    nrows = int(np.ceil(len(gens) / ncols))
    fig, axes = paper_figure(TEXT_WIDTH, 1.75 * nrows + 0.45, nrows, ncols, sharex=True, sharey=True, squeeze=False)
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
            dx = -0.04 if cond == "with_gt" else 0.04  # error bars of the two conditions side by side
            ax.plot(x + dx, y, color=color, label=schema.CONDITION_DISPLAY[cond], **condition_style(cond))
            if ci is not None:
                c = ci[(ci["generator"] == g) & (ci["condition"] == cond)].set_index("difficulty")
                hw = c["half_width"].reindex(schema.DIFFICULTIES).to_numpy(float)
                ax.errorbar(x + dx, y, yerr=hw, fmt="none", ecolor=color, elinewidth=0.8, capsize=2)
        if references is not None and len(references):
            for name, style in _REF_STYLES.items():
                r = references[(references["generator"] == g) & (references["judge"] == name)]
                if len(r):
                    ax.plot(
                        x, r[schema.DIFFICULTIES].to_numpy(float)[0], **{k: v for k, v in style.items() if k != "label"}
                    )
        ax.set_xticks(x, [d.capitalize() for d in schema.DIFFICULTIES])
        ax.margins(x=0.12)  # tick labels of neighbouring panels stay apart
        ax.set_title("All generators" if g == "all" else schema.display(g))
    for ax in axes[len(gens) :]:
        ax.set_visible(False)
    for ax in axes.reshape(nrows, ncols)[:, 0]:
        ax.set_ylabel("alignment (%)")
    handles = [
        Line2D([], [], color="0.3", label=schema.CONDITION_DISPLAY[c], **condition_style(c))
        for c in schema.MAIN_CONDITIONS
    ]
    if references is not None and len(references):
        handles += [Line2D([], [], **style) for name, style in _REF_STYLES.items() if name in set(references["judge"])]
    fig.legend(handles=handles, loc="outside lower center", ncol=len(handles))
    return fig, axes
