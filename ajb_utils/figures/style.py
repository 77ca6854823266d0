"""One figure style, one colour per judge/generator, and a deterministic `save_fig`.

Three disjoint palettes: judges (Okabe-Ito, paper order), generators, and runs or new judges; reference judges are
greys, a judge outside every palette neutral grey.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib as mpl
import matplotlib.pyplot as plt
from cycler import cycler
from matplotlib.figure import Figure

from ajb_utils import schema
from ajb_utils.provenance import SYNTHETIC_FIGURE_NOTE, is_synthetic_dir
from ajb_utils.report import WrittenFiles

__all__ = [
    "OKABE_ITO",
    "NEUTRAL_GREY",
    "JUDGE_COLORS",
    "GENERATOR_COLORS",
    "RUN_COLORS",
    "CONDITION_STYLES",
    "PNG_DPI",
    "STYLE_RC",
    "COLUMN_WIDTH",
    "TEXT_WIDTH",
    "FIGURE_WIDTHS",
    "paper_figure",
    "set_style",
    "judge_color",
    "run_color",
    "generator_color",
    "condition_style",
    "ci_bars",
    "save_fig",
    "close_all",
]

# Okabe & Ito (2008), "Color Universal Design".
OKABE_ITO: dict[str, str] = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}
NEUTRAL_GREY: str = "#8C8C8C"

# Paper judge order -> colour (yellow is left out: too faint on white).
JUDGE_COLORS: dict[str, str] = {
    "judge_gpt_5_4": OKABE_ITO["blue"],
    "judge_claude_large": OKABE_ITO["vermillion"],
    "judge_gemini_2_5_pro": OKABE_ITO["bluish_green"],
    "judge_qwq_32b": OKABE_ITO["orange"],
    "judge_gpt_oss_20b": OKABE_ITO["sky_blue"],
    "judge_gpt_oss_120b": OKABE_ITO["reddish_purple"],
    "judge_prometheus2_7b": OKABE_ITO["black"],
}
# Generators take hues no judge uses (ColorBrewer's Dark2 and a dark red), so a colour names one model
# in one role: a generator is never drawn in a judge's colour (GPT-5.4 the generator is not GPT-5.4 the judge).
GENERATOR_COLORS: dict[str, str] = {
    "llama_3_3_70b_instruct": "#A6761D",
    "llama_3_1_8b_instruct": "#66A61E",
    "qwen3_32b": "#7570B3",
    "smollm3_3b": "#E7298A",
    "gpt5_4": "#8B0000",
}
# A run or new judge drawn beside the seven (notebook 15's X2): hues none of the judges or generators use
# (Paul Tol's muted scheme), so a run is never mistaken for a released judge.
RUN_COLORS: tuple[str, ...] = ("#332288", "#999933", "#882255", "#DDCC77", "#44AA99", "#CC6677")
# Line style and marker per condition: with GT solid, without GT dashed, the rest distinct.
CONDITION_STYLES: dict[str, dict[str, Any]] = {
    "with_gt": {"linestyle": "-", "marker": "o"},
    "without_gt": {"linestyle": "--", "marker": "s"},
    "without_gt_05": {"linestyle": "-.", "marker": "D"},
    "corrupted_gt": {"linestyle": ":", "marker": "X"},
    "freeform": {"linestyle": (0, (5, 1, 1, 1, 1, 1)), "marker": "^"},
    "prometheus": {"linestyle": (0, (1, 1)), "marker": "v"},
    "deref": {"linestyle": (0, (6, 2)), "marker": "P"},
}

PNG_DPI: int = 200
# A two-column paper's column and text widths (inches): every figure is one or the other.
COLUMN_WIDTH: float = 3.3
TEXT_WIDTH: float = 6.9
FIGURE_WIDTHS: tuple[float, float] = (COLUMN_WIDTH, TEXT_WIDTH)
# seaborn 0.13's "whitegrid" style and "paper" context, the keys STYLE_RC does not set, written out so that a kernel
# imports neither seaborn nor scipy; tests/test_figures.py checks them against seaborn itself
WHITEGRID_PAPER_RC: dict[str, Any] = {
    "figure.facecolor": "white",
    "axes.facecolor": "white",
    "axes.labelcolor": ".15",
    "axes.grid": True,
    "axes.axisbelow": True,
    "axes.spines.left": True,
    "axes.spines.bottom": True,
    "grid.linestyle": "-",
    "text.color": ".15",
    "xtick.color": ".15",
    "ytick.color": ".15",
    "xtick.direction": "out",
    "ytick.direction": "out",
    "xtick.top": False,
    "ytick.right": False,
    "xtick.bottom": False,
    "ytick.left": False,
    "font.sans-serif": ["Arial", "DejaVu Sans", "Liberation Sans", "Bitstream Vera Sans", "sans-serif"],
    "lines.solid_capstyle": "round",
    "patch.edgecolor": "w",
    "patch.force_edgecolor": True,
    # the "paper" context: seaborn's "notebook" sizes x 0.8
    "axes.linewidth": 1.25 * 0.8,
    "patch.linewidth": 1 * 0.8,
    "xtick.major.width": 1.25 * 0.8,
    "ytick.major.width": 1.25 * 0.8,
    "xtick.minor.width": 1 * 0.8,
    "ytick.minor.width": 1 * 0.8,
    "xtick.major.size": 6 * 0.8,
    "ytick.major.size": 6 * 0.8,
    "xtick.minor.size": 4 * 0.8,
    "ytick.minor.size": 4 * 0.8,
}
# seaborn's "deep" palette: the colour cycle, and (six of its colours and a near-black) the shorthands b, g, r, ...
DEEP: list[str] = ["#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3"]
DEEP += ["#937860", "#DA8BC3", "#8C8C8C", "#CCB974", "#64B5CD"]
COLOR_CODES: dict[str, Any] = {**{c: DEEP[i] for c, i in zip("bgrmyc", (0, 2, 3, 4, 8, 9))}, "k": (0.1, 0.1, 0.1)}
# The paper-style rcParams set_style() applies (on top of seaborn's whitegrid).
STYLE_RC: dict[str, Any] = {
    "font.family": "DejaVu Sans",  # ships with matplotlib: same glyphs on every machine
    "font.size": 8,  # at print size: 7-9 pt, like a paper's captions
    "axes.titlesize": 8.5,
    "axes.labelsize": 8,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "legend.fontsize": 7,
    "legend.title_fontsize": 7,
    "figure.titlesize": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.edgecolor": "0.3",
    "grid.color": "0.88",
    "grid.linewidth": 0.6,
    "lines.linewidth": 1.5,
    "lines.markersize": 4.5,
    "legend.frameon": False,
    "figure.dpi": 100,
    "figure.figsize": (6.9, 3.0),
    "savefig.dpi": PNG_DPI,
    "pdf.fonttype": 42,  # embed TrueType (Type 42), not Type 3
    "ps.fonttype": 42,
    "svg.hashsalt": "ajb",
    "image.cmap": "viridis",
}


def set_style() -> None:
    """Apply the package's figure style globally (seaborn's whitegrid + paper font sizes); returns None."""
    cycle = cycler(color=[mpl.colors.to_rgb(c) for c in DEEP])
    mpl.rcParams.update({**WHITEGRID_PAPER_RC, "axes.prop_cycle": cycle, **STYLE_RC})
    for code, color in COLOR_CODES.items():
        mpl.colors.colorConverter.colors[code] = mpl.colors.to_rgb(color)


def paper_figure(width: float, height: float, nrows: int = 1, ncols: int = 1, **subplot_kw: Any):
    """Return (fig, axes) at a paper width with constrained layout (outside legends stay in the file)."""
    if width not in FIGURE_WIDTHS:
        raise ValueError(f"figure width {width} in: use COLUMN_WIDTH ({COLUMN_WIDTH}) or TEXT_WIDTH ({TEXT_WIDTH})")
    return plt.subplots(nrows, ncols, figsize=(width, height), layout="constrained", **subplot_kw)


def judge_color(name: str) -> str:
    """Return the hex colour of a judge (config, alias, 'judge_'-less or display name); grey for runs and new judges."""
    name = schema.JUDGE_ALIASES.get(name, name)
    by_display = {schema.display(j): j for j in schema.JUDGES}
    key = next((k for k in (name, f"judge_{name}", by_display.get(name)) if k in JUDGE_COLORS), None)
    return JUDGE_COLORS.get(key, NEUTRAL_GREY)


def run_color(k: int) -> str:
    """Return the colour of the k-th run drawn beside the judges (RUN_COLORS, cycling)."""
    return RUN_COLORS[k % len(RUN_COLORS)]


def generator_color(name: str) -> str:
    """Return the hex colour of a generator (config name, alias or display name); grey if unknown."""
    name = schema.canonical_generator(name)
    by_display = {schema.display(g): g for g in schema.GENERATORS}
    return GENERATOR_COLORS.get(by_display.get(name, name), NEUTRAL_GREY)


def condition_style(condition: str) -> dict[str, Any]:
    """Return `ax.plot` keyword arguments (linestyle, marker) for a judging condition."""
    return dict(CONDITION_STYLES.get(condition, {"linestyle": "-", "marker": "."}))


def ci_bars(ax: Any, x: Any, lo: Any, hi: Any, color: str, linewidth: float = 0.8) -> Any:
    """Return capped segments from `lo` to `hi` at `x`, wherever the estimate lies; a missing bound draws nothing."""
    segments = ax.vlines(x, lo, hi, colors=color, linewidth=linewidth)
    for end in (lo, hi):
        ax.plot(x, end, linestyle="none", marker="_", markersize=3, color=color, markeredgewidth=linewidth)
    return segments


def save_fig(fig: Figure, artifact_id: str, name: str, out_dir: Path | str) -> WrittenFiles:
    """Return the [PNG, PDF] paths after saving `fig` reproducibly (footnoted as synthetic in a sample folder)."""
    stem = f"{artifact_id}_{name}" if name else artifact_id
    png, pdf = Path(out_dir) / f"{stem}.png", Path(out_dir) / f"{stem}.pdf"
    png.parent.mkdir(parents=True, exist_ok=True)
    if is_synthetic_dir(out_dir) and not any(t.get_text() == SYNTHETIC_FIGURE_NOTE for t in fig.texts):
        # above the figure (va="bottom" at y=1): it never covers a title or a panel; once per figure
        fig.text(0.0, 1.0, SYNTHETIC_FIGURE_NOTE, ha="left", va="bottom", fontsize=6, color="0.45")
    with mpl.rc_context({"pdf.fonttype": 42, "ps.fonttype": 42}):
        fig.savefig(png, dpi=PNG_DPI, bbox_inches="tight", pad_inches=0.02, metadata={"Software": None})
        fig.savefig(
            pdf,
            bbox_inches="tight",
            pad_inches=0.02,
            metadata={"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None},
        )
    return WrittenFiles([png, pdf])


def close_all() -> None:
    """Close every open figure (after saving, to free memory in long notebooks); returns None."""
    plt.close("all")
