"""Comparisons and claim verdicts for a reader: checks tables, side-by-side comparisons shown whole
(or as a heatmap of reproduced - reported and the largest differences) and written to the output folder."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from ajb_utils import paths, schema
from ajb_utils.report import MAX_SHOWN_ROWS, _no_negative_zero, show
from ajb_verify import engine

__all__ = [
    "checks_table",
    "show_checks",
    "comparison_grid",
    "comparison_heatmap",
    "show_comparison",
    "audit_comparison",
    "audit_checks",
]

COMPARISON_SHOWN_WHOLE: int = 10  # a comparison of at most this many rows is shown whole
COMPARISON_LARGEST: int = 10  # otherwise: a heatmap of every difference + this many largest ones
SCORECARD_POINTER: str = "its rows in SCORECARD.md (notebook 18)"  # the "Against the paper" brief on synthetic data


# ---- claim checks ----------------------------------------------------------------------------
def checks_table(verdicts: Iterable[engine.Verdict]) -> pd.DataFrame:
    """Return the checks table of engine verdicts (`engine.verdict`); see `engine.checks`."""
    return engine.checks(verdicts)


def show_checks(table: pd.DataFrame, artifact_id: str, out_dir: Path | str) -> None:
    """Display a checks table whole and write it to <out_dir>/<artifact_id>_checks.csv (the scorecard reads it)."""
    path = Path(out_dir) / f"{artifact_id}_checks.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(path, index=False, lineterminator="\n")
    show(table)


def _written(cmp: pd.DataFrame, artifact_id: str, out_dir: Path | str, tolerance: float) -> tuple[pd.DataFrame, Path]:
    """Return a comparison's side-by-side table and the path <out_dir>/<artifact_id>_compare.csv it was
    written to whole (the scorecard reads it)."""
    sbs = engine.side_by_side(cmp, tolerance)
    path = Path(out_dir) / f"{artifact_id}_compare.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    sbs.to_csv(path, index=False, float_format="%.10g", lineterminator="\n")
    return sbs, path


def _label(values: pd.DataFrame) -> pd.Series:
    """Return one text label per row joining its key values with ' · ' (display names, 'n/a' for NaN)."""
    if values.columns.empty or values.empty:
        return pd.Series("", index=values.index)
    text = values.map(lambda v: "n/a" if pd.isna(v) else str(schema.DISPLAY.get(v, v) if isinstance(v, str) else v))
    return text.agg(" · ".join, axis=1)


def comparison_grid(sbs: pd.DataFrame, max_columns: int = 12) -> pd.DataFrame:
    """Return reproduced - reported as a 2-D grid (rows x columns of joined key labels) for a heatmap.

    The key columns with the fewest distinct values go to the columns while their product stays
    <= `max_columns` (at least one key stays on the rows); rows and columns keep the table's order.
    A missing difference (one side only) is NaN.
    """
    keys = [c for c in sbs.columns if c not in ("reported", "reproduced", "difference", "tolerance", "within")]
    if not keys:
        return pd.DataFrame({"difference": sbs["difference"].to_numpy()})
    sizes = {k: sbs[k].astype(str).nunique() for k in keys}
    cols: list[str] = []
    width = 1
    for k in sorted(keys, key=lambda k: (sizes[k], keys.index(k))):
        if len(cols) + 1 < len(keys) and sizes[k] > 1 and width * sizes[k] <= max_columns:
            cols.append(k)
            width *= sizes[k]
    cols = [k for k in keys if k in cols]
    rows = [k for k in keys if k not in cols]
    c = _label(sbs[cols]) if cols else pd.Series("difference", index=sbs.index)
    frame = pd.DataFrame(
        {"row": _label(sbs[rows]).to_numpy(), "col": c.to_numpy(), "d": sbs["difference"].to_numpy(float)}
    )
    grid = frame.pivot_table(index="row", columns="col", values="d", aggfunc="first", sort=False, dropna=False)
    grid = grid.reindex(index=pd.unique(frame["row"]), columns=pd.unique(frame["col"]))
    grid.index.name = " · ".join(rows)
    grid.columns.name = " · ".join(cols) if cols else None
    return grid


def comparison_heatmap(sbs: pd.DataFrame, title: str = ""):
    """Return (fig, ax): reproduced - reported of a side-by-side table as a diverging heatmap
    (blue below, red above the paper; grey: one side only; values written in cells up to 120 cells)."""
    import matplotlib.pyplot as plt

    grid = comparison_grid(sbs)
    n_rows, n_cols = grid.shape
    fig, ax = plt.subplots(figsize=(6.9, min(9.0, 1.2 + 0.17 * n_rows)), layout="constrained")
    vals = grid.to_numpy(float)
    lim = float(np.nanmax(np.abs(vals))) if np.isfinite(vals).any() else 1.0
    lim = lim if lim > 0 else 1.0
    cmap = plt.get_cmap("RdBu_r").with_extremes(bad="0.85")
    im = ax.imshow(np.ma.masked_invalid(vals), cmap=cmap, vmin=-lim, vmax=lim, aspect="auto", interpolation="nearest")
    slanted = dict(rotation=30, ha="right") if n_cols > 4 else dict(rotation=0, ha="center")
    ax.set_xticks(range(n_cols), [str(c) for c in grid.columns], fontsize=6, **slanted)
    ax.set_yticks(range(n_rows), [str(r) for r in grid.index], fontsize=max(4, min(7, 90 // max(n_rows, 1))))
    ax.set(xlabel=grid.columns.name or "", ylabel=grid.index.name or "")
    ax.grid(False)
    if n_rows * n_cols <= 120:
        for (i, j), v in np.ndenumerate(vals):
            if np.isfinite(v):
                text = _no_negative_zero(f"{v:+.1f}".replace("+0.0", "0.0"))
                color = "white" if abs(v) > 0.6 * lim else "black"
                ax.text(j, i, text, ha="center", va="center", fontsize=5, color=color)
    fig.colorbar(im, ax=ax, label="reproduced − reported", shrink=0.8)
    ax.set_title(title, fontsize=8)
    return fig, ax


def show_comparison(
    cmp: pd.DataFrame,
    artifact_id: str,
    out_dir: Path | str,
    tolerance: float = 0.0,
    digits: int = 3,
    from_paper: bool = False,
) -> None:
    """Display a `engine.compare` result for reading and write it whole to <out_dir>/<artifact_id>_compare.csv
    (reported | reproduced | difference | tolerance | within; the scorecard reads it); returns None.

    Up to COMPARISON_SHOWN_WHOLE rows the table is shown whole; a longer one is shown as a heatmap
    of reproduced - reported (`comparison_heatmap`) plus its COMPARISON_LARGEST largest
    differences, and a line says how many rows the full table has and where it is (nothing is
    cut silently). `from_paper=True` (nothing reproduced on this data, e.g. no runs: the
    reproduction is empty) shows the paper's values (at most MAX_SHOWN_ROWS rows) and writes nothing, so the scorecard
    never counts the paper against itself.
    """
    if from_paper:
        print(
            f"{artifact_id}: no reproduced values on this data (the paper's own numbers are shown); nothing is compared"
        )
        vals = engine.side_by_side(cmp, tolerance).drop(columns=["reproduced", "difference", "tolerance", "within"])
        if len(vals) > MAX_SHOWN_ROWS:
            print(f"the first {MAX_SHOWN_ROWS} of {len(vals)} reported values (all of them: data/paper/)")
        show(vals.iloc[:MAX_SHOWN_ROWS], digits)
        return
    sbs, path = _written(cmp, artifact_id, out_dir, tolerance)
    both = sbs["within"] != "n/a"
    print(
        f"{artifact_id}: {int(both.sum())} values compared, {int((sbs['within'] == 'yes').sum())} within "
        f"tolerance; {int((~both).sum())} rows on one side only"
    )
    if len(sbs) <= COMPARISON_SHOWN_WHOLE:
        print(f"all {len(sbs)} rows (also in {paths.relpath(path)}):")
        show(sbs, digits)
        return
    import matplotlib.pyplot as plt
    from IPython.display import display

    worst = float(sbs["difference"].abs().max()) if both.any() else float("nan")
    title = f"{artifact_id}: reproduced − reported, {int(both.sum())} values (max |difference| {worst:.2f})"
    fig, _ = comparison_heatmap(sbs, title)
    display(fig)
    plt.close(fig)
    k = min(COMPARISON_LARGEST, len(sbs))
    print(f"the {k} largest |differences| of {len(sbs)} rows; the full table ({len(sbs)} rows): {paths.relpath(path)}")
    largest = np.argsort(-sbs["difference"].abs().fillna(-1.0).to_numpy(), kind="stable")[:k]  # ties in table order
    show(sbs.iloc[largest], digits)


def audit_comparison(
    cmp: pd.DataFrame, artifact_id: str, out_dir: Path | str, brief: bool, tolerance: float = 0.0
) -> None:
    """Show a comparison with the paper in a notebook's final "Against the paper" section.

    ``brief`` (the synthetic sample: its numbers are not the paper's, so the differences teach
    nothing) prints one line: the count within tolerance, where the full table is and the pointer
    to the scorecard; the full side-by-side is written either way, so the scorecard reads it. Not
    brief (released data, a user's runs): `show_comparison` (heatmap and largest differences).
    """
    if not brief:
        show_comparison(cmp, artifact_id, out_dir, tolerance)
        return
    sbs, path = _written(cmp, artifact_id, out_dir, tolerance)
    both = sbs["within"] != "n/a"
    print(
        f"{artifact_id}: {int((sbs['within'] == 'yes').sum())} of {int(both.sum())} values within tolerance "
        f"({int((~both).sum())} on one side only); full table {paths.relpath(path)}; {SCORECARD_POINTER}"
    )


def audit_checks(table: pd.DataFrame, artifact_id: str, out_dir: Path | str, brief: bool, write: bool = True) -> None:
    """Show a claims table in the "Against the paper" section: one line of counts when ``brief``.

    The table is written to <out_dir>/<artifact_id>_checks.csv either way (`show_checks`), unless
    ``write=False`` (a table the notebook already wrote under another name: the scorecard reads
    every ``*checks.csv``, so it must not be written twice).
    """
    path = Path(out_dir) / f"{artifact_id}_checks.csv"
    if write:
        path.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(path, index=False, lineterminator="\n")
    if not brief:
        show(table)
        return
    counts = table["holds"].astype(str).value_counts() if len(table) else pd.Series(dtype=int)
    parts = ", ".join(
        f"{int(counts.get(k, 0))} {k}" for k in ("yes", "no", "indistinguishable", "n/a") if counts.get(k, 0)
    )
    where = paths.relpath(path) if write else "the file written above"
    print(f"{artifact_id}: {len(table)} claims checked ({parts or 'none'}); {where}; {SCORECARD_POINTER}")
