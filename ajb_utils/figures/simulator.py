"""Judge simulator figure (X5): alignment, agreement and kappa as hedging, leniency, anchoring and sensitivity vary."""

from __future__ import annotations

import pandas as pd

from ajb_utils.figures.style import OKABE_ITO, TEXT_WIDTH, condition_style, paper_figure

__all__ = ["figure_X5"]

_SIM_LABEL = {"with_gt": "With GT", "without_gt": "Without GT"}


def _sweep_lines(ax, sw: pd.DataFrame, col: str, conditions, label_fmt: str, **kw) -> None:
    """Draw one line per condition of a sweep column on ax."""
    for cond in conditions:
        d = sw[sw["condition"] == cond].sort_values("value")
        ax.plot(100 * d["value"], d[col], label=label_fmt.format(c=_SIM_LABEL[cond]), **{**condition_style(cond), **kw})


def _legend_below(ax, handles=None, labels=None, ncol: int = 2) -> None:
    """Put the panel's legend under its x-axis label (constrained layout makes room for it)."""
    from matplotlib.transforms import offset_copy

    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    below = offset_copy(ax.transAxes, fig=ax.figure, y=-24, units="points")
    ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=below, ncol=ncol)


def figure_X5(sweeps: dict[str, pd.DataFrame]):
    """Return (fig, axes) 2x2: alignment vs hedge rate (ternary/binary), vs leniency (with/without GT), vs anchoring, and twin agreement/kappa vs blind sensitivity."""
    fig, axes = paper_figure(TEXT_WIDTH, 6.6, 2, 2)
    ax = axes[0, 0]
    _sweep_lines(ax, sweeps["hedge_rate"], "align", ["with_gt", "without_gt"], "{c}, ternary", color=OKABE_ITO["blue"])
    _sweep_lines(
        ax,
        sweeps["hedge_rate"],
        "align_binary",
        ["with_gt", "without_gt"],
        "{c}, binary",
        color=OKABE_ITO["vermillion"],
    )
    ax.set(
        title="(a) Hedging wins only under the binary collapse",
        xlabel="hedge rate (% of verdicts 0.5)",
        ylabel="alignment (%)",
    )
    ax = axes[0, 1]
    _sweep_lines(ax, sweeps["leniency"], "align", ["with_gt", "without_gt"], "{c}", color=OKABE_ITO["bluish_green"])
    ax.set(
        title="(b) Leniency narrows the GT gap",
        xlabel="leniency (% of detected flaws credited 1.0)",
        ylabel="alignment (%)",
    )
    ax = axes[1, 0]
    _sweep_lines(ax, sweeps["anchoring"], "align", ["with_gt", "without_gt"], "{c}", color=OKABE_ITO["reddish_purple"])
    ax.set(
        title="(c) Anchoring lowers with-GT alignment only",
        xlabel="anchoring (% of verdicts copying the reference)",
        ylabel="alignment (%)",
    )
    ax = axes[1, 1]
    sw = sweeps["blind_sensitivity"]
    _sweep_lines(ax, sw, "twin_agreement_pct", ["without_gt"], "agreement of two judges (%)", color=OKABE_ITO["orange"])
    _sweep_lines(ax, sw, "align", ["without_gt"], "alignment (%)", color=OKABE_ITO["sky_blue"])
    ax2 = ax.twinx()
    _sweep_lines(ax2, sw, "twin_kappa", ["without_gt"], "Cohen's kappa (right axis)", color="0.35")
    ax2.set_ylabel("Cohen's kappa between two judges")
    ax2.set_ylim(-0.05, 1.0)
    ax2.grid(False)  # the left axis's grid is enough; a second grid would cross the legend
    ax.set(
        title="(d) Without GT: agreement stays high, kappa does not",
        xlabel="sensitivity without GT (% of errors detected)",
        ylabel="agreement, alignment (%)",
    )
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    _legend_below(ax, h1 + h2, l1 + l2)
    for a in axes.flat[:3]:
        _legend_below(a)
    return fig, axes
