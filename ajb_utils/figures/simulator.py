"""Judge simulator figure (X5): alignment, agreement and kappa as hedging, leniency, anchoring and sensitivity vary."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from ajb_utils.figures.style import condition_style

__all__ = ["figure_X5"]

_SIM_LABEL = {"with_gt": "With GT", "without_gt": "Without GT"}


def _sweep_lines(ax, sw: pd.DataFrame, col: str, conditions, label_fmt: str, **kw) -> None:
    """Draw one line per condition of a sweep column on ax."""
    for cond in conditions:
        d = sw[sw["condition"] == cond].sort_values("value")
        ax.plot(100 * d["value"], d[col], label=label_fmt.format(c=_SIM_LABEL[cond]), **{**condition_style(cond), **kw})


def figure_X5(sweeps: dict[str, pd.DataFrame]):
    """Return (fig, axes) 2x2: alignment vs hedge rate (ternary/binary), vs leniency (with/without GT), vs anchoring, and twin agreement/kappa vs blind sensitivity."""
    fig, axes = plt.subplots(2, 2, figsize=(11, 8.2))
    ax = axes[0, 0]
    _sweep_lines(ax, sweeps["hedge_rate"], "align", ["with_gt", "without_gt"], "{c}, ternary {{0, .5, 1}}", color="#1f77b4")
    _sweep_lines(ax, sweeps["hedge_rate"], "align_binary", ["with_gt", "without_gt"], "{c}, binary collapse", color="#d62728")
    ax.set(title="(a) Hedging: wins only under the binary collapse", xlabel="hedge rate (% of verdicts set to 0.5)", ylabel="alignment (%)")
    ax = axes[0, 1]
    _sweep_lines(ax, sweeps["leniency"], "align", ["with_gt", "without_gt"], "{c}", color="#2ca02c")
    ax.set(title="(b) Leniency compresses the with/without-GT gap", xlabel="leniency (% of detected flaws credited 1.0)", ylabel="alignment (%)")
    ax = axes[1, 0]
    _sweep_lines(ax, sweeps["anchoring"], "align", ["with_gt", "without_gt"], "{c}", color="#9467bd")
    ax.set(title="(c) Anchoring lowers with-GT alignment only", xlabel="anchoring (% of verdicts copying the reference)", ylabel="alignment (%)")
    ax = axes[1, 1]
    sw = sweeps["blind_sensitivity"]
    _sweep_lines(ax, sw, "twin_agreement_pct", ["without_gt"], "{c}: agreement of two judges (%)", color="#ff7f0e")
    _sweep_lines(ax, sw, "align", ["without_gt"], "{c}: alignment (%)", color="#8c564b")
    ax2 = ax.twinx()
    _sweep_lines(ax2, sw, "twin_kappa", ["without_gt"], "{c}: Cohen's kappa (right axis)", color="#7f7f7f")
    ax2.set_ylabel("Cohen's kappa between two judges")
    ax2.set_ylim(-0.05, 1.0)
    ax.set(title="(d) Compression: agreement stays high, kappa does not", xlabel="sensitivity without GT (% of errors detected)", ylabel="%")
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=8, loc="lower right")
    for a in axes.flat[:3]:
        a.legend(fontsize=8)
    for a in axes.flat:
        a.grid(alpha=0.3)
    fig.tight_layout()
    return fig, axes
