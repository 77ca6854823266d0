"""Every paper figure rendered from the sample: a paper width (3.3 or 6.9 in), nothing drawn outside
the figure, and no legend covering plotted data (lines, bars, markers, images, text in the axes).

The figures a notebook draws in its own cells (F04, T26, F05, X5) are drawn here by executing those
cells' source on the sample, and on the sample without runs (the release's situation).
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from types import SimpleNamespace

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import Collection  # noqa: E402
from matplotlib.image import AxesImage  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from ajb_utils import figures, simulator, stats, tables  # noqa: E402
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
    return notebook_figure("15", ["colours = ["], b, cells=cells, runs=[RUN], metas=metas)


def _f04(b):
    return notebook_figure("07", ["panels = "], b, t25=ablations.table_T25(b), t27=ablations.table_T27(b))


def _t26(b):
    return notebook_figure("08", ["fig.suptitle"], b, t26=ablations.table_T26(b))


def _f05(b):
    f05, t31 = ablations.format_table(b, "F05"), ablations.table_T31(b)
    return notebook_figure("09", ["ours_gt = "], b, f05=f05, t31=t31)


def _x5(b):
    params = simulator.JudgeParams("simulated", 0.85, 0.30, 0.15, 0.10, 0.10, 0.03)
    p = simulator.p_long(b.generations)
    return notebook_figure("17", ["sweeps = {", "kappa_ax = "], b, p=p, params=params, n_grid=5)


def _references(b) -> dict[str, pd.DataFrame]:
    """Return the reference judges' Table 24 and Table 28 rows as notebook 04 computes them."""
    names = [stats.REFERENCE_JUDGES[k] for k in ("always_1", "oracle")]
    refs = SimpleNamespace(verdicts=stats.reference_verdicts(b.generations, ("always_1", "oracle")))
    return {"T24": tables.table_T24(refs, judges=names), "T28": tables.table_T28(refs, "with_gt", judges=names)}


def _reference_cells(b) -> pd.DataFrame:
    """Return the reference judges' Table 2 cells as notebook 03 computes them."""
    refv = stats.reference_verdicts(b.generations, tables.REFERENCE_KINDS)
    return stats.align(refv, by=tables.T02_KEYS, missing=stats.PAPER_MISSING).astype({k: str for k in tables.T02_KEYS})


def _f08_references(refs: pd.DataFrame) -> pd.DataFrame:
    """Return the reference judges' degradation rows as notebook 03 draws them (without GT; they read no GT)."""
    names = [stats.REFERENCE_JUDGES[k] for k in ("always_1", "oracle")]
    parts = [
        tables.degradation_table(refs, judges=[r]).query("condition == 'without_gt'").assign(judge=r) for r in names
    ]
    return pd.concat(parts, ignore_index=True)


MAKERS = {
    "F03": lambda b: figures.figure_F03(tables.table_T24(b), _references(b)["T24"]),
    "F04": _f04,
    "F05": _f05,
    "T26": _t26,
    "F08": lambda b: figures.figure_F08(
        tables.degradation_table(tables.table_T02(b)),
        tables.degradation_ci(b, 200, 0),
        _f08_references(_reference_cells(b)),
    ),
    "F09": lambda b: figures.figure_F09(tables.table_T28(b, "with_gt"), references=_references(b)["T28"]),
    "F10": lambda b: figures.figure_F10(tables.table_F10(b, "with_gt")),
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


def test_f10_matrices_share_one_colour_scale(bench) -> None:
    """The same colour is the same share in both confusion matrices (one norm, one colour bar)."""
    fig, axes = MAKERS["F10"](bench)
    norms = [ax.images[0].norm for ax in axes]
    assert len({(n.vmin, n.vmax) for n in norms}) == 1
    assert len(fig.axes) == len(axes) + 1  # a single colour bar
    plt.close(fig)


def test_f09_writes_p_bar_as_the_symbol(bench) -> None:
    """The reference row says p̄, as the other figures and the notebooks do, not 'p-bar'."""
    fig, ax = MAKERS["F09"](bench)
    labels = [t.get_text() for t in np.atleast_1d(ax)[0].get_yticklabels()]
    assert any("p̄" in t for t in labels) and not any("p-bar" in t for t in labels)
    plt.close(fig)


@pytest.mark.parametrize("artifact", ["F04", "T26", "F05"])
def test_ablation_figures_without_runs(artifact, bench) -> None:
    """On a source without ablation runs (the release) the notebooks' figure cells still draw: the
    panels say so, and F05 keeps the paper's printed values (its without-GT panel's markers)."""
    keep = bench.judges["origin"] == "release"  # load_bench(..., runs=None), without reloading
    no_runs = dataclasses.replace(
        bench,
        judges=bench.judges[keep].reset_index(drop=True),
        verdicts=bench.verdicts[bench.verdicts["judge"].isin(bench.judges.loc[keep, "judge"])],
    )
    fig, axes = MAKERS[artifact](no_runs)
    if artifact == "F05":
        ys = np.concatenate([ln.get_ydata() for ln in axes[0, 1].get_lines()])
        assert {95.1, 91.8, 84.0, 89.1, 85.9, 79.4} <= set(np.round(ys, 1))
    plt.close(fig)
