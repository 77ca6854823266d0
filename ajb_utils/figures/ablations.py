"""Figures for notebooks 06-12 ablations and validation (F04 temperature, F05 prompt format).

Both take the tables of :mod:`ajb_utils.tables.ablations` (whatever situation they came from:
sample runs, user runs, or the paper's reported values) and return ``(fig, axes)``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ajb_utils import schema
from ajb_utils.figures.style import OKABE_ITO, TEXT_WIDTH, condition_style, paper_figure

__all__ = ["DIFFICULTY_COLORS", "figure_F04", "figure_F05"]

DIFFICULTY_COLORS: dict[str, str] = {"easy": OKABE_ITO["bluish_green"],
                                     "medium": OKABE_ITO["orange"],
                                     "hard": OKABE_ITO["vermillion"]}


def _note(ax, text: str) -> None:
    """Write a centred note on an empty panel."""
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=9,
            wrap=True)
    ax.set_axis_off()


def _temperature_panel(ax, table: pd.DataFrame, title: str) -> None:
    """Draw alignment vs temperature, one line per (difficulty, condition), on one axis."""
    tcols = [c for c in table.columns if str(c).startswith("T=")]
    source = str(table["source"].iloc[0]) if len(table) else "no data"
    if not tcols:
        spread = ", ".join(f"{v:.2f}" for v in table["max_spread"].dropna())
        _note(ax, f"{title}\nno runs: the paper reports only\nmax spread {spread} pp (with GT)")
        return
    temps = [float(c[2:]) for c in tcols]
    for _, row in table.iterrows():  # at most 6 rows: (difficulty, condition)
        style = condition_style(row["condition"])
        cond = schema.CONDITION_DISPLAY.get(row["condition"], row["condition"])
        ax.plot(temps, row[tcols].astype(float).to_numpy(), linestyle=style["linestyle"],
                marker=style["marker"], color=DIFFICULTY_COLORS.get(row["difficulty"], "grey"),
                label=f"{row['difficulty']}, {cond}")
    ax.set_xticks(temps)
    ax.set_xlabel("judge temperature T")
    ax.set_ylabel("alignment (%)")
    ax.set_title(f"{title}\n({source}; max spread {table['max_spread'].max():.2f} pp)")


def figure_F04(t25: pd.DataFrame, t27: pd.DataFrame) -> tuple[plt.Figure, np.ndarray]:
    """Return Figure 4: alignment vs judge temperature for the two pairings (T25, T27)."""
    fig, axes = paper_figure(TEXT_WIDTH, 3.0, 1, 2, squeeze=False)
    _temperature_panel(axes[0, 0], t25, "Qwen3-32B judge on Llama-3.3-70B")
    _temperature_panel(axes[0, 1], t27, "GPT-OSS-120B judge on Llama-3.1-8B")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    if not handles:
        handles, labels = axes[0, 1].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncol=3)
    return fig, axes


def _format_panel(ax, ours: pd.DataFrame | None, paper_vals: pd.DataFrame, title: str,
                  missing_note: str) -> None:
    """Draw one condition of Figure 5: our structured / free-form alignments (filled) and the paper's printed values (open)."""
    diffs = list(schema.DIFFICULTIES)
    x = np.arange(len(diffs))
    drawn = False
    if ours is not None and len(ours):
        s = ours.set_index("difficulty").reindex(diffs)
        for col, dx, colour, label in (("structured", -0.2, OKABE_ITO["blue"], "structured (JSON rubric)"),
                                       ("freeform", 0.2, OKABE_ITO["sky_blue"], "free-form")):
            if col in s and s[col].notna().any():
                ax.plot(x + dx, s[col], marker="o", markersize=5, linestyle="none", label=label,
                        color=colour)  # points, not bars: the axis does not start at 0
                drawn = True
    p = paper_vals.set_index("difficulty").reindex(diffs)
    for col, dx, label in (("structured", -0.2, "paper: structured"), ("freeform", 0.2, "paper: free-form")):
        ax.plot(x + dx, p[col], marker="D", linestyle="none", markerfacecolor="none",
                color=OKABE_ITO["vermillion"] if col == "structured" else OKABE_ITO["orange"], label=label)
    vals = p[["structured", "freeform"]].to_numpy(float)
    if ours is not None and len(ours):
        vals = np.concatenate([vals.ravel(), ours.drop(columns=["difficulty"], errors="ignore")
                               .select_dtypes("number").drop(columns=["n", "delta"], errors="ignore")
                               .to_numpy(float).ravel()])
    ax.set_ylim(max(0.0, np.floor(np.nanmin(vals) / 5) * 5 - 5), 100)  # alignment ends at 100 %
    ax.set_xticks(x, diffs)
    ax.set_ylabel("alignment (%)")
    ax.set_title(title, fontsize=7)
    if not drawn:
        ax.text(0.5, 0.04, missing_note, ha="center", va="bottom", fontsize=5, transform=ax.transAxes)
    ax.legend(fontsize=5, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, frameon=False)


def figure_F05(f05: pd.DataFrame, t31: pd.DataFrame, f05_without_gt: pd.DataFrame | None = None,
               paper_f05: pd.DataFrame | None = None) -> tuple[plt.Figure, np.ndarray]:
    """Return Figure 5: (a) with GT, (b) without GT, structured vs free-form; (c) the gap per difficulty.

    Panels (a) and (b) draw our alignments as filled points (when runs exist) and the values the draft's
    figure prints as open markers (`paper_f05`: condition, difficulty, structured, freeform,
    delta). Without GT only the structured prompt can be reproduced (the released judge's
    without-GT run); the runner has no free-form without-GT prompt. Panel (c) draws the
    structured - free-form gap of both pairings with the paper's values.
    """
    fig, axes = paper_figure(TEXT_WIDTH, 3.4, 1, 3, squeeze=False)
    diffs = list(schema.DIFFICULTIES)
    x = np.arange(len(diffs))
    pf = paper_f05 if paper_f05 is not None else pd.DataFrame(
        columns=["condition", "difficulty", "structured", "freeform", "delta"])
    ours_gt = f05 if f05["structured"].notna().any() else None
    src = str(f05["source"].iloc[0]) if len(f05) else "no runs"
    _format_panel(axes[0, 0], ours_gt, pf[pf["condition"] == "with_gt"],
                  f"With GT, Qwen3-32B / Llama-3.3-70B\n({src})", "no runs: the paper's values only")
    _format_panel(axes[0, 1], f05_without_gt, pf[pf["condition"] == "without_gt"],
                  "Without GT\n(structured = released without-GT judge)",
                  "no without-GT run of this judge:\nthe paper's values only")
    ax = axes[0, 2]
    ax.axhline(0, color="black", linewidth=0.8)
    for cond, marker in (("with_gt", "D"), ("without_gt", "s")):
        p = pf[pf["condition"] == cond].set_index("difficulty").reindex(diffs)
        if p["delta"].notna().any():
            ax.plot(x, p["delta"], marker=marker, linestyle="none", markerfacecolor="none",
                    color=OKABE_ITO["blue"], label="paper: Qwen3-32B / Llama-3.3-70B, " + ("with GT" if cond == "with_gt" else "without GT"))
    if f05["delta"].notna().any() and ours_gt is not None:
        d = f05.set_index("difficulty").reindex(diffs)["delta"]
        ax.plot(x, d, marker="o", color=OKABE_ITO["blue"], label="Qwen3-32B / Llama-3.3-70B, with GT")
    t = t31.set_index("difficulty").reindex(diffs)
    ax.plot(x, t["paper_delta"], marker="D", linestyle="none", markerfacecolor="none",
            color=OKABE_ITO["vermillion"], label="paper: QwQ-32B / SmolLM3-3B")
    if "structured" in t and t["structured"].notna().any():
        ax.plot(x, t["delta"], marker="o", color=OKABE_ITO["vermillion"],
                label="QwQ-32B / SmolLM3-3B")
    ax.set_xticks(x, diffs)
    ax.set_ylabel("structured − free-form (pp)")
    ax.set_title("Gap per difficulty, both pairings", fontsize=8)
    ax.legend(fontsize=5, loc="upper center", bbox_to_anchor=(0.5, -0.12), frameon=False)
    return fig, axes
