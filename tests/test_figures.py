"""Every paper figure rendered from the sample: a paper width (3.3 or 6.9 in), nothing drawn outside
the figure, and no legend covering plotted data (lines, bars, markers, images, text in the axes).

The figures a notebook draws in its own cells (F04, T26, F05, X5) are drawn here by executing those
cells' source on the sample, and on the sample without runs (the release's situation).
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import Collection  # noqa: E402
from matplotlib.image import AxesImage  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from ajb_utils import figures, paths, simulator, tables  # noqa: E402
from ajb_utils.data import load_bench  # noqa: E402
from ajb_utils.tables import ablations  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from notebook_cells import notebook_figure  # noqa: E402

RUN = "static_schema_judge"


@pytest.fixture(scope="module")
def bench():
    figures.set_style()
    return load_bench("sample")


def _x2(bench):
    b = load_bench("sample", runs=[RUN])
    cells = tables.x2_runs_cells(b.verdicts, [RUN], n_bootstrap=50, seed=0)
    metas = [{"run": RUN, "model": "static", "synthetic": True}]
    return notebook_figure("15", ["label=labels.get(run, run)"], b, cells=cells, runs=[RUN], metas=metas)


def _f04(b):
    return notebook_figure(
        "07",
        ["runs_t = ", "panels = "],
        b,
        t25=ablations.temperature_table(b, "T25"),
        t27=ablations.temperature_table(b, "T27"),
    )


def _t26(b):
    return notebook_figure("08", ["fig.suptitle"], b, t26=ablations.table_T26(b))


def _f05(b):
    return notebook_figure(
        "09", ["t31 = ablations.format_table", "ours_gt = "], b, f05=ablations.format_table(b, "F05")
    )


def _x5(b):
    params = simulator.JudgeParams("simulated", 0.85, 0.30, 0.15, 0.10, 0.10, 0.03)
    p = simulator.p_long(b.generations)
    return notebook_figure("17", ["sweeps = {", "kappa_ax = "], b, p=p, params=params, n_grid=5)


def _f08(b):
    steps = [
        "cells = tables.table_T02(bench)",
        "import ajb_judge as judge",
        "six = cells[",
        "rec = stats.record_alignment(",
    ]
    return notebook_figure("03", [*steps, "from matplotlib.lines import Line2D"], b)


def _f03(b):
    return notebook_figure("04", ["t24_long = ", "ref_names = [", "conds = list(t24"], b)


def _f09(b):
    return notebook_figure(
        "04", ["t24_long = ", "ref_names = [", "topo = tables.topology_long", "a = pd.concat([t28"], b
    )


def _f10(b):
    return notebook_figure("05", ["pw6 = tables.pairwise_long", "from matplotlib.colors import PowerNorm"], b)


MAKERS = {
    "F03": _f03,
    "F08": _f08,
    "F09": _f09,
    "F10": _f10,
    "F04": _f04,
    "F05": _f05,
    "T26": _t26,
    "X2": _x2,
    "X5": _x5,
}


def _dense(vertices: np.ndarray, k: int = 20) -> np.ndarray:
    """Return the points of a polyline with k points per segment (so a crossing segment is caught)."""
    v = vertices[np.isfinite(vertices).all(axis=1)]
    if len(v) < 2:
        return v
    t = np.linspace(0, 1, k, endpoint=False)[:, None, None]
    pts = v[:-1][None] + t * (v[1:] - v[:-1])[None]
    return np.vstack([pts.reshape(-1, 2), v[-1:]])


def data_extents(ax) -> list:
    """Return (artist, display points or bbox) of the data an axes draws, clipped to the axes."""
    from matplotlib.spines import Spine
    from matplotlib.transforms import Bbox

    out = []
    for art in ax.get_children():
        if not art.get_visible() or art is ax.patch or isinstance(art, Spine):
            continue
        if isinstance(art, Text) and art in (ax.title, ax._left_title, ax._right_title):
            continue
        clip = art.get_clip_on()
        if isinstance(art, Line2D) and len(art.get_xdata()):
            pts = _dense(
                art.get_transform().transform(np.column_stack([art.get_xdata(), art.get_ydata()]).astype(float))
            )
            if clip:
                pts = pts[[ax.bbox.contains(x, y) for x, y in pts]]
            out.append((art, pts))
        elif isinstance(art, (Patch, AxesImage, Collection, Text)):
            if isinstance(art, Text) and not art.get_text().strip():
                continue
            bb = art.get_window_extent()
            if clip and not isinstance(art, Text):
                bb = Bbox.intersection(bb, ax.bbox)
            if bb is not None and bb.width > 0 and bb.height > 0:
                out.append((art, bb))
    return out


def legend_overlaps(fig) -> list[str]:
    """Return a description of every (legend, data artist) pair whose extents intersect."""
    fig.canvas.draw()
    legends = [lg for ax in fig.axes if (lg := ax.get_legend()) is not None] + list(fig.legends)
    hits = []
    for lg in legends:
        box = lg.get_window_extent()
        for ax in fig.axes:
            for art, ext in data_extents(ax):
                if isinstance(ext, np.ndarray):
                    inside = bool(len(ext)) and bool(
                        (
                            (ext[:, 0] >= box.x0)
                            & (ext[:, 0] <= box.x1)
                            & (ext[:, 1] >= box.y0)
                            & (ext[:, 1] <= box.y1)
                        ).any()
                    )
                else:
                    inside = box.overlaps(ext)
                if inside:
                    hits.append(f"legend {[t.get_text() for t in lg.get_texts()][:2]} over {art}")
    return hits


def test_overlap_check_can_fail() -> None:
    """The checker finds a legend that sits on a line (so a pass below means something)."""
    fig, ax = plt.subplots(figsize=(3.3, 2.0))
    ax.plot(np.linspace(0, 1, 50), np.full(50, 0.5), label="a line through the middle")
    ax.set_ylim(0, 1)
    ax.legend(loc="center")
    assert legend_overlaps(fig)
    ax.get_legend().remove()
    ax.legend(loc="upper left")
    assert not legend_overlaps(fig)
    plt.close(fig)


@pytest.mark.parametrize("artifact", sorted(MAKERS))
def test_figure_size_and_legends(artifact, bench, tmp_path) -> None:
    fig, _ = MAKERS[artifact](bench)
    width, height = fig.get_size_inches()
    assert width in figures.FIGURE_WIDTHS, f"{artifact} is {width} in wide"
    assert height <= 9.0
    fig.canvas.draw()
    tight = fig.get_tightbbox(fig.canvas.get_renderer())
    assert tight.x0 >= -0.02 and tight.x1 <= width + 0.02, f"{artifact} draws outside its {width} in: {tight}"
    assert not legend_overlaps(fig), legend_overlaps(fig)
    png, _pdf = figures.save_fig(fig, artifact, "test", tmp_path / "sample")
    from PIL import Image

    px = Image.open(png).size[0] / figures.PNG_DPI
    assert px <= width + 0.05, f"{artifact} saved {px:.2f} in wide"
    plt.close(fig)


def test_set_style_equals_seaborn_whitegrid_paper_with_the_package_rc() -> None:
    """set_style() leaves matplotlib exactly as seaborn's set_theme(whitegrid, paper) + STYLE_RC does
    (every rcParam and the colour shorthands b, g, r, c, m, y, k), without importing seaborn."""
    import matplotlib as mpl
    import seaborn as sns

    from ajb_utils.figures import style

    def state() -> tuple[dict, dict]:
        return dict(mpl.rcParams), {c: mpl.colors.colorConverter.colors[c] for c in "bgrmyck"}

    with mpl.rc_context():
        saved = dict(mpl.colors.colorConverter.colors)
        try:
            mpl.rcdefaults()
            sns.set_theme(style="whitegrid", context="paper", rc=style.STYLE_RC)
            mpl.rcParams.update(style.STYLE_RC)
            want = state()
            mpl.rcdefaults()
            mpl.colors.colorConverter.colors.update({c: saved[c] for c in "bgrmyck"})
            style.set_style()
            got = state()
        finally:
            mpl.colors.colorConverter.colors.clear()
            mpl.colors.colorConverter.colors.update(saved)
    assert got[1] == want[1]
    assert {k: v for k, v in got[0].items() if v != want[0][k]} == {}


def test_a_kernels_setup_imports_neither_seaborn_nor_scipy() -> None:
    """What every notebook's setup cell runs (load the bench, set the style) imports no seaborn or scipy."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import matplotlib.pyplot, pandas\n"
        "import ajb_verify\n"
        "from ajb_utils import environment, figures, paper, provenance, report, schema, stats, tables, takeaways\n"
        "from ajb_utils.data import load_bench\n"
        "figures.set_style()\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'seaborn', 'scipy', 'sklearn', 'duckdb'}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out


def _code_cells(notebook: Path) -> list[str]:
    """Return a notebook's code cells' sources."""
    import json

    return ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"] if c["cell_type"] == "code"]


def _draws(notebook: Path) -> bool:
    """Return True when a cell past a notebook's setup cell draws (uses `figures.`, `plt.` or `mpl.`)."""
    import re

    return any(re.search(r"\b(figures|plt|mpl)\.", c) for c in _code_cells(notebook)[2:])


DRAWS_NOTHING = [
    p
    for p in sorted(paths.NOTEBOOKS_DIR.glob("[01][0-9]_*.ipynb"))
    if "bench_banner(" in _code_cells(p)[1] and not _draws(p)
]  # of the notebooks with a data banner (all but the index and the scorecard)


@pytest.mark.parametrize("notebook", DRAWS_NOTHING, ids=lambda p: p.name[:2])
def test_a_notebook_that_draws_nothing_imports_no_matplotlib(notebook: Path, tmp_path: Path) -> None:
    """A notebook none of whose cells draws runs its parameters and setup cells (up to the data banner) on
    the sample without importing matplotlib: its kernel never needs it."""
    import subprocess

    params, setup = _code_cells(notebook)[:2]
    lines = setup.splitlines()
    setup = "\n".join(lines[: next(i for i, line in enumerate(lines) if "bench_banner(" in line) + 1])
    code = (
        f"{params}\ndata_source = 'sample'\nout_dir = {str(tmp_path)!r}\n{setup}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib')[:3])\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", "import sys\n" + code], capture_output=True, text=True, cwd=notebook.parent, check=True
    )
    assert run.stdout.strip().splitlines()[-1] == "[]", run.stdout[-300:]


def test_judges_generators_and_runs_have_disjoint_colours() -> None:
    """One model, one colour: judges, generators and runs drawn beside the judges take disjoint palettes (a
    generator took a judge's colour: Llama-3.3-70B was Gemini-2.5-Pro's green), each distinct within itself,
    for every judge and generator name."""
    from ajb_utils import figures, schema

    judges = {figures.judge_color(j) for j in schema.JUDGES}
    assert len(judges) == len(schema.JUDGES)
    generators = {figures.generator_color(g) for g in schema.GENERATORS}
    runs = {figures.run_color(k) for k in range(len(figures.RUN_COLORS))}
    assert runs.isdisjoint(judges | generators | {figures.NEUTRAL_GREY})
    assert len(generators) == len(schema.GENERATORS) and generators.isdisjoint(judges | {figures.NEUTRAL_GREY})
    # every alias and display name of a model maps to its one colour
    for j in schema.JUDGES:
        assert figures.judge_color(schema.display(j)) == figures.judge_color(j)
    for g in schema.GENERATORS:
        assert figures.generator_color(schema.display(g)) == figures.generator_color(g)

    def rgb(h: str) -> tuple[int, ...]:
        return tuple(int(h[i : i + 2], 16) for i in (1, 3, 5))

    def apart(a: str, b: str) -> float:
        return sum((x - y) ** 2 for x, y in zip(rgb(a), rgb(b))) ** 0.5

    # visibly different, not only different strings: RGB distance >= 40 from every judge's colour
    assert min(apart(c, j) for c in generators | runs for j in judges) >= 40


def test_ci_bars_draw_a_ci_that_does_not_contain_its_estimate() -> None:
    """A percentile CI need not contain the estimate (errorbar's yerr then goes negative and raises, as on a
    drawn sample in notebook 08); ci_bars draws each segment from lo to hi, nothing where a bound is missing."""
    import matplotlib.pyplot as plt
    import numpy as np
    import pytest

    from ajb_utils import figures

    x, y, lo, hi = np.arange(3.0), np.array([1.0, 2.0, 3.0]), np.array([1.5, 1.0, np.nan]), np.array([2.5, 3.0, 4.0])
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="negative"):
        ax.errorbar(x, y, yerr=[y - lo, hi - y], fmt="none")
    segs = figures.ci_bars(ax, x, lo, hi, "#000000").get_segments()
    ends = sorted((float(s[0][1]), float(s[1][1])) for s in segs if len(s) == 2 and np.isfinite(s).all())
    assert ends == [(1.0, 3.0), (1.5, 2.5)]
    plt.close(fig)


def test_x2_legend_lists_a_run_drawn_in_one_condition_only() -> None:
    """Notebook 15's X2 cell: a run with only the without-GT condition is drawn and named in the legend."""
    import pandas as pd

    from notebook_cells import notebook_figure

    rows = []
    for run, conds in (("run_both", ("with_gt", "without_gt")), ("run_blind", ("without_gt",))):
        for cond in conds:
            for diff in ("easy", "medium", "hard"):
                for judge, align in ((run, 80.0), ("judge_gpt_5_4", 78.0), ("judge_qwq_32b", 82.0)):
                    rows.append(
                        dict(run=run, condition=cond, difficulty=diff, judge=judge, align=align, lo=76.0, hi=84.0)
                    )
    cells = pd.DataFrame(rows)
    metas = [{"run": r, "model": "m", "synthetic": False} for r in ("run_both", "run_blind")]
    fig, axes = notebook_figure(
        "15", ["label=labels.get(run, run)"], None, cells=cells, runs=["run_both", "run_blind"], metas=metas
    )
    (legend,) = fig.legends
    names = [t.get_text() for t in legend.get_texts()]
    assert "run_blind (m)" in names and "run_both (m)" in names
