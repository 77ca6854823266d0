"""Agreement figure (RQ2, App. T): verdict confusion heatmaps of two judge pairs (F10)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.colors import PowerNorm

from ajb_utils import schema
from ajb_utils.figures.style import TEXT_WIDTH, paper_figure

__all__ = ["figure_F10"]


def figure_F10(f10: pd.DataFrame, condition: str | None = None):
    """Return (fig, axes[2]): 3x3 verdict confusion heatmaps (% of verdicts) of the two pairs in f10,
    the condition in the figure title (from f10's `condition` column).

    Both matrices share one colour scale and one colour bar, from 0 to the largest cell of either,
    so the same colour means the same share in both panels; the scale is a square root (PowerNorm
    0.5): most cells are under 20 % while the (1, 1) cell holds most verdicts, and a linear scale
    would paint every off-diagonal cell the same pale colour. The value is written in every cell.
    """
    if condition is None:
        condition = str(f10["condition"].iloc[0]) if "condition" in f10 and len(f10) else ""
    pairs = list(dict.fromkeys(f10["pair"]))
    fig, axes = paper_figure(TEXT_WIDTH, 3.0, 1, len(pairs), squeeze=False)
    axes = axes[0]
    labels = ["0", "0.5", "1"]
    mats = {}
    for pair in pairs:
        sub = f10[f10["pair"] == pair]
        shares = sub[sub["stat"] == "share_of_verdicts"].set_index("variant")["value"]
        mats[pair] = np.array([[shares.get(f"{a}|{b}", np.nan) for b in labels] for a in labels], float)
    finite = [m[np.isfinite(m)] for m in mats.values()]
    top = max((float(f.max()) for f in finite if f.size), default=100.0)
    norm = PowerNorm(0.5, vmin=0.0, vmax=max(top, 1e-9))
    im = None
    for ax, pair in zip(axes, pairs):
        sub = f10[f10["pair"] == pair]
        mat = mats[pair]
        im = ax.imshow(mat, cmap="Blues", norm=norm)
        for (r, c), val in np.ndenumerate(mat):
            ax.text(
                c, r, f"{val:.1f}%", ha="center", va="center", fontsize=7, color="white" if norm(val) > 0.6 else "black"
            )
        stat = sub.set_index("stat")["value"]
        a, b = sub["judge"].iloc[0], sub["judge_2"].iloc[0]
        ax.set_xticks(range(3), labels)
        ax.set_yticks(range(3), labels)
        ax.set_xlabel(f"{schema.display(b)} verdict")
        ax.set_ylabel(f"{schema.display(a)} verdict")
        ax.grid(False)
        ax.set_title(
            f"{pair.capitalize()} agreement: {stat['agreement']:.1f}%, κ = {stat['kappa']:.2f}\n"
            f"off-diagonal with a 0.5: {stat['offdiag_share_with_a_0.5']:.1f}%"
        )
    if im is not None:
        fig.colorbar(im, ax=list(axes), label="% of verdicts (one square-root scale)", shrink=0.8)
    cond = schema.CONDITION_DISPLAY.get(condition, condition)
    fig.suptitle(
        f"Verdict confusion of the most and least agreeing judge pairs ({cond})"
        if cond
        else "Verdict confusion of the most and least agreeing judge pairs"
    )
    return fig, axes
