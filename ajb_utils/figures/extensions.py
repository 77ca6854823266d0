"""Figures for notebooks 15-17 new judge, derivation gap, simulator (X2, X3, X4, X5)."""

from __future__ import annotations

# =============================================================================================
# BEGIN notebook 17 (judge simulator: X5) — owner: notebook 17
# =============================================================================================
import matplotlib.pyplot as _plt  # noqa: E402
import pandas as _pd  # noqa: E402

from ajb_utils.figures.style import condition_style as _condition_style  # noqa: E402

_SIM_LABEL = {"with_gt": "With GT", "without_gt": "Without GT"}


def _sweep_lines(ax, sw: _pd.DataFrame, col: str, conditions, label_fmt: str, **kw) -> None:
    """Draw one line per condition of a sweep column on ax."""
    for cond in conditions:
        d = sw[sw["condition"] == cond].sort_values("value")
        ax.plot(100 * d["value"], d[col], label=label_fmt.format(c=_SIM_LABEL[cond]), **{**_condition_style(cond), **kw})


def figure_X5(sweeps: dict[str, _pd.DataFrame]):
    """Return (fig, axes) 2x2: alignment vs hedge rate (ternary/binary), vs leniency (with/without GT), vs anchoring, and twin agreement/kappa vs blind sensitivity."""
    fig, axes = _plt.subplots(2, 2, figsize=(11, 8.2))
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


_NB17_ALL = ["figure_X5"]
# =============================================================================================
# END notebook 17
# =============================================================================================

__all__ = [*globals().get("__all__", []), *_NB17_ALL]

# =============================================================================================
# BEGIN notebook 15 (new judge: X2) — owner: notebook 15
# =============================================================================================
from ajb_utils import schema as _schema  # noqa: E402
from ajb_utils.figures.style import judge_color as _judge_color  # noqa: E402


def figure_X2(x2: _pd.DataFrame, run_name: str, judges: list[str] | None = None):
    """Return (fig, axes) 1x2: alignment (%) by difficulty (mean over generators) with / without GT, the six coloured, the new judge in black, the paper's six-judge mean dashed."""
    judges = [j for j in (judges or _schema.MAIN_JUDGES) if _schema.display(j) in x2.columns]
    allrows = x2[x2["generator"] == "all"]
    fig, axes = _plt.subplots(1, 2, figsize=(10, 4.2), sharey=True)
    for ax, cond, tag in zip(axes, _schema.MAIN_CONDITIONS, "ab"):
        d = allrows[allrows["condition"] == cond].set_index("difficulty").reindex(_schema.DIFFICULTIES)
        x = range(len(_schema.DIFFICULTIES))
        for j in judges:
            ax.plot(x, d[_schema.display(j)], color=_judge_color(j), marker="o", lw=1.4, alpha=0.85, label=_schema.display(j))
        ax.plot(x, d["paper_six_mean"], color="#8C8C8C", ls="--", lw=1.4, label="paper: six-judge mean (Table 2)")
        ax.plot(x, d[run_name], color="black", marker="D", lw=2.8, ms=7, label=f"new judge: {run_name}")
        ax.set_xticks(list(x), [t.capitalize() for t in _schema.DIFFICULTIES])
        ax.set(title=f"({tag}) {_schema.CONDITION_DISPLAY.get(cond, cond)}", xlabel="difficulty tier")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("alignment (%, mean over generators)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=8, frameon=False, bbox_to_anchor=(0.5, -0.12))
    fig.suptitle("New judge beside the paper's six judges", fontsize=11)
    fig.tight_layout()
    return fig, axes


_NB15_ALL = ["figure_X2"]
# =============================================================================================
# END notebook 15
# =============================================================================================

__all__ = [*globals().get("__all__", []), *_NB15_ALL]
