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


def figure_F05(f05: pd.DataFrame, t31: pd.DataFrame) -> tuple[plt.Figure, np.ndarray]:
    """Return Figure 5: (a) structured vs free-form alignment, (b) the gap per difficulty.

    Panel (a) draws the first pairing's alignments when runs exist; panel (b) draws the
    structured - free-form gap of both pairings with the paper's values (T31 per difficulty,
    F05 as its +4.8..+6.5 pp band).
    """
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), squeeze=False)
    ax = axes[0, 0]
    diffs = [d for d in schema.DIFFICULTIES]
    x = np.arange(len(diffs))
    if f05["structured"].notna().any():
        s = f05.set_index("difficulty").reindex(diffs)
        ax.bar(x - 0.2, s["structured"], 0.4, label="structured (JSON rubric)",
               color=OKABE_ITO["blue"])
        ax.bar(x + 0.2, s["freeform"], 0.4, label="free-form", color=OKABE_ITO["sky_blue"])
        lo = np.nanmin(s[["structured", "freeform"]].to_numpy())
        ax.set_ylim(max(0, lo - 10), 104)
        ax.set_xticks(x, diffs)
        ax.set_ylabel("alignment with GT (%)")
        ax.legend(fontsize=8, loc="upper right", ncol=2, frameon=False)
        ax.set_title(f"Qwen3-32B on Llama-3.3-70B ({f05['source'].iloc[0]})", fontsize=9)
    else:
        _note(ax, "Qwen3-32B on Llama-3.3-70B\nno runs: the paper prints only the gap\n"
                  "(+4.8 to +6.5 pp, panel b)")
    ax = axes[0, 1]
    ax.axhspan(4.8, 6.5, color=OKABE_ITO["blue"], alpha=0.12,
               label="paper: Qwen3-32B / Llama-3.3-70B range")
    ax.axhline(0, color="black", linewidth=0.8)
    if f05["delta"].notna().any():
        d = f05.set_index("difficulty").reindex(diffs)["delta"]
        ax.plot(x, d, marker="o", color=OKABE_ITO["blue"], label="Qwen3-32B / Llama-3.3-70B")
    t = t31.set_index("difficulty").reindex(diffs)
    ax.plot(x, t["paper_delta"], marker="D", linestyle="none", markerfacecolor="none",
            color=OKABE_ITO["vermillion"], label="paper: QwQ-32B / SmolLM3-3B")
    if t["structured"].notna().any():
        ax.plot(x, t["delta"], marker="o", color=OKABE_ITO["vermillion"],
                label="QwQ-32B / SmolLM3-3B")
    ax.set_xticks(x, diffs)
    ax.set_ylabel("structured − free-form (pp)")
    ax.set_title("Gap per difficulty, both pairings", fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    return fig, axes
