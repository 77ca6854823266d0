"""Agreement figure (RQ2, App. T): verdict confusion heatmaps of two judge pairs (F10)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ajb_utils import schema

__all__ = ["figure_F10"]


def figure_F10(f10: pd.DataFrame):
    """Return (fig, axes[2]): 3x3 verdict confusion heatmaps (% of verdicts) of the two pairs in f10."""
    pairs = list(dict.fromkeys(f10["pair"]))
    fig, axes = plt.subplots(1, len(pairs), figsize=(4.2 * len(pairs), 3.6), squeeze=False)
    axes = axes[0]
    labels = ["0", "0.5", "1"]
    for ax, pair in zip(axes, pairs):
        sub = f10[f10["pair"] == pair]
        shares = sub[sub["stat"] == "share_of_verdicts"].set_index("variant")["value"]
        mat = np.array([[shares.get(f"{a}|{b}", np.nan) for b in labels] for a in labels], float)
        ax.imshow(mat, cmap="Blues", vmin=0, vmax=100)
        for (r, c), val in np.ndenumerate(mat):
            ax.text(c, r, f"{val:.1f}%", ha="center", va="center", fontsize=8,
                    color="white" if val > 50 else "black")
        stat = sub.set_index("stat")["value"]
        a, b = sub["judge"].iloc[0], sub["judge_2"].iloc[0]
        ax.set_xticks(range(3), labels)
        ax.set_yticks(range(3), labels)
        ax.set_xlabel(f"{schema.display(b)} verdict")
        ax.set_ylabel(f"{schema.display(a)} verdict")
        ax.grid(False)
        ax.set_title(f"{pair}: agreement {stat['agreement']:.1f}%, κ = {stat['kappa']:.2f}\n"
                     f"off-diagonal with a 0.5: {stat['offdiag_share_with_a_0.5']:.1f}%", fontsize=8)
    fig.tight_layout()
    return fig, axes
