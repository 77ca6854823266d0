"""New-judge figure (X2): the new judge's alignment by difficulty beside the paper's six judges."""

from __future__ import annotations

import pandas as pd

from ajb_utils import schema
from ajb_utils.figures.style import TEXT_WIDTH, judge_color, paper_figure

__all__ = ["figure_X2"]


def figure_X2(x2: pd.DataFrame, run_name: str, judges: list[str] | None = None):
    """Return (fig, axes) 1x2: alignment (%) by difficulty (mean over generators) with / without GT, the six coloured, the new judge in black, the paper's six-judge mean dashed."""
    judges = [j for j in (judges or schema.MAIN_JUDGES) if schema.display(j) in x2.columns]
    allrows = x2[x2["generator"] == "all"]
    fig, axes = paper_figure(TEXT_WIDTH, 3.2, 1, 2, sharey=True)
    for ax, cond, tag in zip(axes, schema.MAIN_CONDITIONS, "ab"):
        d = allrows[allrows["condition"] == cond].set_index("difficulty").reindex(schema.DIFFICULTIES)
        x = range(len(schema.DIFFICULTIES))
        for j in judges:
            ax.plot(
                x, d[schema.display(j)], color=judge_color(j), marker="o", lw=1.2, alpha=0.85, label=schema.display(j)
            )
        ax.plot(x, d["paper_six_mean"], color="#8C8C8C", ls="--", lw=1.2, label="paper: six-judge mean (Table 2)")
        ax.plot(x, d[run_name], color="black", marker="D", lw=2.2, ms=5, label=f"new judge: {run_name}")
        ax.set_xticks(list(x), [t.capitalize() for t in schema.DIFFICULTIES])
        ax.set(title=f"({tag}) {schema.CONDITION_DISPLAY.get(cond, cond)}", xlabel="difficulty tier")
    axes[0].set_ylabel("alignment (%, mean over generators)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=3)
    return fig, axes
