"""New-judge figure (X2): the new judge's alignment by difficulty beside the paper's six judges."""

from __future__ import annotations

import pandas as pd

from ajb_utils import schema
from ajb_utils.figures.style import NEUTRAL_GREY, OKABE_ITO, TEXT_WIDTH, paper_figure

__all__ = ["figure_X2_runs"]


def figure_X2_runs(cells: pd.DataFrame, labels: dict[str, str] | None = None):
    """Return (fig, axes) 1x2: each run's alignment (%) by difficulty with its 95 % CI, with / without GT, beside the six
    judges on the same items (grey dots, their range a grey bar); ``cells`` from ``tables.x2_runs_cells``."""
    runs = list(dict.fromkeys(cells["run"]))
    labels = labels or {r: r for r in runs}
    colours = [c for k, c in OKABE_ITO.items() if k not in ("black", "grey")] or ["C0"]
    fig, axes = paper_figure(TEXT_WIDTH, 3.2, 1, 2, sharey=True)
    width = 0.8 / max(len(runs), 1)
    for ax, cond, tag in zip(axes, schema.MAIN_CONDITIONS, "ab"):
        for k, run in enumerate(runs):
            c = cells[(cells["run"] == run) & (cells["condition"] == cond)]
            x0 = [schema.DIFFICULTIES.index(d) - 0.4 + width * (k + 0.5) for d in c["difficulty"]]
            x = pd.Series(x0, index=c.index)
            six = c[c["judge"] != run]
            lo, hi = six.groupby("difficulty")["align"].min(), six.groupby("difficulty")["align"].max()
            mine = c[c["judge"] == run]
            xs = x[mine.index].to_numpy()
            ax.vlines(
                xs,
                lo.reindex(mine["difficulty"]),
                hi.reindex(mine["difficulty"]),
                color=NEUTRAL_GREY,
                lw=3,
                alpha=0.35,
                label="the six judges on the run's items (range)" if k == 0 else None,
            )
            ax.plot(x[six.index] - width / 4, six["align"], ls="none", marker=".", ms=3, color=NEUTRAL_GREY)
            err = [mine["align"] - mine["lo"], mine["hi"] - mine["align"]]
            ax.errorbar(
                xs,
                mine["align"],
                yerr=err,
                fmt="D",
                ms=4,
                capsize=2,
                color=colours[k % len(colours)],
                label=labels.get(run, run),
            )
        ax.set_xticks(range(len(schema.DIFFICULTIES)), [t.capitalize() for t in schema.DIFFICULTIES])
        ax.set(title=f"({tag}) {schema.CONDITION_DISPLAY.get(cond, cond)}", xlabel="difficulty tier")
    axes[0].set_ylabel("alignment (%, mean over generators, 95 % CI)")
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="outside lower center", ncol=2)
    return fig, axes
