"""Figures for notebooks 06-12 ablations and validation (F04 temperature, F05 prompt format).

They take the tables of :mod:`ajb_utils.tables.ablations` (reproduced numbers only: a table without
rows, when the data hold no runs, gives a panel that says so) and return ``(fig, axes)``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ajb_utils import schema
from ajb_utils.figures.style import OKABE_ITO, TEXT_WIDTH, condition_style, generator_color, paper_figure

__all__ = ["DIFFICULTY_COLORS", "figure_F04", "figure_F05", "figure_T26"]

DIFFICULTY_COLORS: dict[str, str] = {
    "easy": OKABE_ITO["bluish_green"],
    "medium": OKABE_ITO["orange"],
    "hard": OKABE_ITO["vermillion"],
}


def _note(ax, text: str) -> None:
    """Write a centred note on an empty panel."""
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=9, wrap=True)
    ax.set_axis_off()


def _temperature_panel(ax, table: pd.DataFrame, title: str, ci: pd.DataFrame | None = None) -> None:
    """Draw alignment vs temperature, one line per (difficulty, condition), on one axis; with `ci`
    (ablations.temperature_ci) each point gets its 95% bootstrap interval (lines nudged apart in T)."""
    tcols = [c for c in table.columns if str(c).startswith("T=")]
    if table.empty or not tcols:
        _note(ax, f"{title}\nno temperature runs in this data")
        return
    temps = [float(c[2:]) for c in tcols]
    has_ci = ci is not None and len(ci) > 0
    for i, (_, row) in enumerate(table.iterrows()):  # at most 6 rows: (difficulty, condition)
        style = condition_style(row["condition"])
        cond = schema.CONDITION_DISPLAY.get(row["condition"], row["condition"])
        y = row[tcols].astype(float).to_numpy()
        x = np.asarray(temps) + ((i - (len(table) - 1) / 2) * 0.012 if has_ci else 0.0)
        colour = DIFFICULTY_COLORS.get(row["difficulty"], "grey")
        ax.plot(
            x,
            y,
            linestyle=style["linestyle"],
            marker=style["marker"],
            color=colour,
            label=f"{row['difficulty']}, {cond}",
        )
        if has_ci:
            c = ci[(ci["difficulty"] == row["difficulty"]) & (ci["condition"] == row["condition"])]
            c = c.set_index("temperature").reindex(temps)
            ax.errorbar(
                x,
                y,
                yerr=[y - c["lo"].to_numpy(float), c["hi"].to_numpy(float) - y],
                fmt="none",
                ecolor=colour,
                elinewidth=0.8,
                capsize=1.5,
            )
    ax.set_xticks(temps)
    ax.set_xlabel("judge temperature T")
    ax.set_ylabel("alignment (%)")
    bars = "; bars: 95% CI" if has_ci else ""
    ax.set_title(f"{title}\n(max spread {table['max_spread'].max():.2f} pp{bars})")


def figure_F04(
    t25: pd.DataFrame, t27: pd.DataFrame, ci25: pd.DataFrame | None = None, ci27: pd.DataFrame | None = None
) -> tuple[plt.Figure, np.ndarray]:
    """Return Figure 4: alignment vs judge temperature for the two pairings (T25, T27), with 95%
    bootstrap error bars per point when `ci25` / `ci27` (ablations.temperature_ci) are given."""
    fig, axes = paper_figure(TEXT_WIDTH, 3.0, 1, 2, squeeze=False)
    _temperature_panel(axes[0, 0], t25, "Qwen3-32B judge on Llama-3.3-70B", ci25)
    _temperature_panel(axes[0, 1], t27, "GPT-OSS-120B judge on Llama-3.1-8B", ci27)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    if not handles:
        handles, labels = axes[0, 1].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncol=3)
    return fig, axes


def _format_panel(ax, ours: pd.DataFrame | None, paper_vals: pd.DataFrame, title: str, missing_note: str) -> None:
    """Draw one condition of Figure 5: our structured / free-form alignments (filled) and the paper's printed values (open)."""
    diffs = list(schema.DIFFICULTIES)
    x = np.arange(len(diffs))
    drawn = False
    if ours is not None and len(ours):
        s = ours.set_index("difficulty").reindex(diffs)
        for col, dx, colour, label in (
            ("structured", -0.2, OKABE_ITO["blue"], "structured (JSON rubric)"),
            ("freeform", 0.2, OKABE_ITO["sky_blue"], "free-form"),
        ):
            if col in s and s[col].notna().any():
                ax.plot(
                    x + dx, s[col], marker="o", markersize=5, linestyle="none", label=label, color=colour
                )  # points, not bars: the axis does not start at 0
                if f"{col}_lo" in s and s[f"{col}_lo"].notna().any():  # 95% bootstrap CI
                    y = s[col].to_numpy(float)
                    ax.errorbar(
                        x + dx,
                        y,
                        yerr=[y - s[f"{col}_lo"].to_numpy(float), s[f"{col}_hi"].to_numpy(float) - y],
                        fmt="none",
                        ecolor=colour,
                        elinewidth=0.8,
                        capsize=2,
                    )
                drawn = True
    p = paper_vals.set_index("difficulty").reindex(diffs)
    for col, dx, label in (("structured", -0.2, "paper: structured"), ("freeform", 0.2, "paper: free-form")):
        ax.plot(
            x + dx,
            p[col],
            marker="D",
            linestyle="none",
            markerfacecolor="none",
            color=OKABE_ITO["blue"]
            if col == "structured"
            else OKABE_ITO["sky_blue"],  # the prompt's colour, open: the paper's
            label=label,
        )
    vals = p[["structured", "freeform"]].to_numpy(float)
    if ours is not None and len(ours):
        shown = [c for c in ours.columns if c.split("_")[0] in ("structured", "freeform")]  # values and CIs
        vals = np.concatenate([vals.ravel(), ours[shown].to_numpy(float).ravel()])
    ax.set_ylim(max(0.0, np.floor(np.nanmin(vals) / 5) * 5 - 5), 100)  # alignment ends at 100 %
    ax.set_xticks(x, diffs)
    ax.set_ylabel("alignment (%)")
    ax.set_title(title, fontsize=7)
    if not drawn:
        ax.text(0.5, 0.04, missing_note, ha="center", va="bottom", fontsize=5, transform=ax.transAxes)
    ax.legend(fontsize=5, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, frameon=False)


def figure_F05(
    f05: pd.DataFrame,
    t31: pd.DataFrame,
    f05_without_gt: pd.DataFrame | None = None,
    paper_f05: pd.DataFrame | None = None,
) -> tuple[plt.Figure, np.ndarray]:
    """Return Figure 5: (a) with GT, (b) without GT, structured vs free-form; (c) the gap per difficulty.

    Panels (a) and (b) draw our alignments as filled points (when runs exist) and the values the draft's
    figure prints as open markers (`paper_f05`: condition, difficulty, structured, freeform,
    delta). Without GT only the structured prompt can be reproduced (the released judge's
    without-GT run); the runner has no free-form without-GT prompt. Panel (c) draws the
    structured - free-form gap of both pairings with the paper's values.

    Colour means one thing per panel family: in (a) and (b) the prompt (blue structured, sky blue
    free-form; filled ours, open the paper's), in (c) the pairing (blue Qwen3-32B / Llama-3.3-70B,
    vermillion QwQ-32B / SmolLM3-3B). (a) and (b) share one y range.
    """
    fig, axes = paper_figure(TEXT_WIDTH, 3.4, 1, 3, squeeze=False)
    pf = (
        paper_f05
        if paper_f05 is not None
        else pd.DataFrame(columns=["condition", "difficulty", "structured", "freeform", "delta"])
    )
    ours_gt = f05 if f05["structured"].notna().any() else None
    _format_panel(
        axes[0, 0],
        ours_gt,
        pf[pf["condition"] == "with_gt"],
        "With GT, Qwen3-32B / Llama-3.3-70B",
        "no runs: the paper's values only",
    )
    _format_panel(
        axes[0, 1],
        f05_without_gt,
        pf[pf["condition"] == "without_gt"],
        "Without GT\n(structured = released without-GT judge)",
        "no without-GT run of this judge:\nthe paper's values only",
    )
    low = min(a.get_ylim()[0] for a in axes[0, :2])  # neighbouring panels on one y range
    for a in axes[0, :2]:
        a.set_ylim(low, 100)
    _gap_panel(axes[0, 2], f05 if ours_gt is not None else None, t31, pf)
    return fig, axes


def _gap_panel(ax, f05: pd.DataFrame | None, t31: pd.DataFrame, pf: pd.DataFrame) -> None:
    """Draw Figure 5 (c): the structured - free-form gap per difficulty of both pairings, ours (filled,
    with paired CIs when present; `f05` None without runs) and the paper's (open)."""
    diffs = list(schema.DIFFICULTIES)
    x = np.arange(len(diffs))
    ax.axhline(0, color="black", linewidth=0.8)
    for cond, marker in (("with_gt", "D"), ("without_gt", "s")):
        p = pf[pf["condition"] == cond].set_index("difficulty").reindex(diffs)
        if p["delta"].notna().any():
            ax.plot(
                x,
                p["delta"],
                marker=marker,
                linestyle="none",
                markerfacecolor="none",
                color=OKABE_ITO["blue"],
                label="paper: Qwen3-32B / Llama-3.3-70B, " + ("with GT" if cond == "with_gt" else "without GT"),
            )
    if f05 is not None and f05["delta"].notna().any():
        d = f05.set_index("difficulty").reindex(diffs)["delta"]
        ax.plot(x, d, marker="o", color=OKABE_ITO["blue"], label="Qwen3-32B / Llama-3.3-70B, with GT")
        _delta_bars(ax, x, f05.set_index("difficulty").reindex(diffs), OKABE_ITO["blue"])
    t = t31.set_index("difficulty").reindex(diffs)
    ax.plot(
        x,
        t["paper_delta"],
        marker="D",
        linestyle="none",
        markerfacecolor="none",
        color=OKABE_ITO["vermillion"],
        label="paper: QwQ-32B / SmolLM3-3B",
    )
    if "structured" in t and t["structured"].notna().any():
        ax.plot(x, t["delta"], marker="o", color=OKABE_ITO["vermillion"], label="QwQ-32B / SmolLM3-3B")
        _delta_bars(ax, x, t, OKABE_ITO["vermillion"])
    ax.set_xticks(x, diffs)
    ax.set_ylabel("structured − free-form (pp)")
    ax.set_title("Gap per difficulty, both pairings\n(bars: paired 95% CI)", fontsize=8)
    ax.legend(fontsize=5, loc="upper center", bbox_to_anchor=(0.5, -0.12), frameon=False)


def _delta_bars(ax, x: np.ndarray, t: pd.DataFrame, colour: str) -> None:
    """Draw the paired 95% CI of a delta column (delta_lo, delta_hi) as error bars, when present."""
    if "delta_lo" not in t or not t["delta_lo"].notna().any():
        return
    d = t["delta"].to_numpy(float)
    ax.errorbar(
        x,
        d,
        yerr=[d - t["delta_lo"].to_numpy(float), t["delta_hi"].to_numpy(float) - d],
        fmt="none",
        ecolor=colour,
        elinewidth=0.8,
        capsize=2,
    )


def figure_T26(t26: pd.DataFrame) -> tuple[plt.Figure, np.ndarray]:
    """Return the T26 deltas (thinking on - off, pp) per generator x difficulty with paired 95% CIs,
    one panel per condition (with GT, without GT); points on a zero line, no bars from 0."""
    fig, axes = paper_figure(TEXT_WIDTH, 2.6, 1, 2, squeeze=False, sharey=True)
    diffs = list(schema.DIFFICULTIES)
    gens = [g for g in schema.GENERATORS if g in set(t26["generator"].astype(str))]
    has_ci = "delta_lo" in t26 and t26["delta_lo"].notna().any()
    for ax, cond in zip(axes[0], ("with_gt", "without_gt")):
        ax.axhline(0, color="black", linewidth=0.8)
        sub = t26[t26["condition"].astype(str) == cond]
        for k, g in enumerate(gens):
            s = sub[sub["generator"].astype(str) == g].set_index("difficulty").reindex(diffs)
            x = np.arange(len(diffs)) + (k - (len(gens) - 1) / 2) * 0.15
            colour = generator_color(g)
            d = s["delta"].to_numpy(float)
            ax.plot(x, d, marker="o", linestyle="none", color=colour, label=schema.display(g))
            if has_ci:
                ax.errorbar(
                    x,
                    d,
                    yerr=[d - s["delta_lo"].to_numpy(float), s["delta_hi"].to_numpy(float) - d],
                    fmt="none",
                    ecolor=colour,
                    elinewidth=0.8,
                    capsize=1.5,
                )
        ax.set_xticks(np.arange(len(diffs)), diffs)
        ax.set_title(schema.CONDITION_DISPLAY.get(cond, cond) + ("; bars: paired 95% CI" if has_ci else ""))
    axes[0, 0].set_ylabel("thinking on − off (pp)")
    fig.suptitle("QwQ-32B: chain-of-thought on vs off" + ("" if len(t26) else " (no thinking runs in this data)"))
    handles, labels = axes[0, 0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncol=len(handles))
    return fig, axes
