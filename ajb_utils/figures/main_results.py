"""Main-results figure (§4.2, Finding 1): alignment degradation curves by difficulty (F08)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ajb_utils import schema
from ajb_utils.figures.style import condition_style, generator_color

__all__ = ["figure_F08"]


def figure_F08(degradation: pd.DataFrame):
    """Return (fig, axes): mean alignment (%) by difficulty, with GT solid / without GT dashed.

    `degradation` is tables.degradation_table(...): the first panel is 'all' (mean over the six
    judges and the generators), then one panel per generator.
    """
    gens = list(dict.fromkeys(degradation["generator"]))
    fig, axes = plt.subplots(1, len(gens), figsize=(2.2 * len(gens), 3.0), sharey=True)
    axes = np.atleast_1d(axes)
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
        ax.set_title("All generators" if g == "all" else schema.display(g))
        ax.set_xlabel("difficulty")
    axes[0].set_ylabel("mean alignment (%)")
    axes[0].legend(loc="lower left")
    fig.suptitle("Alignment degrades with difficulty (mean over six judges)")
    fig.tight_layout()
    return fig, axes
