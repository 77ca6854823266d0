"""Comparisons and claim verdicts for a reader: checks tables, side-by-side comparisons shown whole
(or as a heatmap of reproduced - reported and the largest differences) and written to the output folder."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from ajb_utils import paths, schema
from ajb_utils.report import (
    COMPARISON_LARGEST,
    COMPARISON_SHOWN_WHOLE,
    MAX_SHOWN_ROWS,
    SCORECARD_POINTER,
    _no_negative_zero,
    show,
)
from ajb_verify import engine

__all__ = [
    "checks_table",
    "show_checks",
    "comparison_path",
    "largest_differences",
    "comparison_grid",
    "comparison_heatmap",
    "show_comparison",
    "write_side_by_side",
    "audit_comparison",
    "audit_checks",
]


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


def comparison_path(artifact_id: str, out_dir: Path | str) -> Path:
    """Return where `show_comparison` writes the full side-by-side table: <out_dir>/<artifact_id>_compare.csv."""
    return Path(out_dir) / f"{artifact_id}_compare.csv"


def largest_differences(sbs: pd.DataFrame, k: int = COMPARISON_LARGEST) -> pd.DataFrame:
    """Return the `k` rows of a side-by-side table with the largest |difference| (ties in table order;
    rows without a difference last), so the reader sees the worst cells first."""
    size = sbs["difference"].abs().fillna(-1.0).to_numpy()
    order = np.argsort(-size, kind="stable")
    return sbs.iloc[order[:k]]


def _key_columns(sbs: pd.DataFrame) -> list[str]:
    """Return the key columns of a side-by-side table (everything but the value columns)."""
    values = {"reported", "reproduced", "difference", "tolerance", "within"}
    return [c for c in sbs.columns if c not in values]


def _label(values: pd.DataFrame) -> pd.Series:
    """Return one text label per row joining its key values with ' · ' (display names, 'n/a' for NaN)."""
    parts = [
        values[c].map(
            lambda v: (
                "n/a"
                if v is None or (isinstance(v, float) and v != v)
                else str(schema.DISPLAY.get(v, v))
                if isinstance(v, str)
                else str(v)
            )
        )
        for c in values.columns
    ]
    if not parts:
        return pd.Series([""] * len(values), index=values.index)
    out = parts[0]
    for p in parts[1:]:
        out = out + " · " + p
    return out


def comparison_grid(sbs: pd.DataFrame, max_columns: int = 12) -> pd.DataFrame:
    """Return reproduced - reported as a 2-D grid (rows x columns of joined key labels) for a heatmap.

    The key columns with the fewest distinct values go to the columns while their product stays
    <= `max_columns` (at least one key stays on the rows); rows and columns keep the table's order.
    A missing difference (one side only) is NaN.
    """
    keys = _key_columns(sbs)
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
    r = _label(sbs[rows])
    c = _label(sbs[cols]) if cols else pd.Series("difference", index=sbs.index)
    frame = pd.DataFrame({"row": r.to_numpy(), "col": c.to_numpy(), "d": sbs["difference"].to_numpy(float)})
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
    height = min(9.0, 1.2 + 0.17 * n_rows)
    fig, ax = plt.subplots(figsize=(6.9, height), layout="constrained")
    vals = grid.to_numpy(float)
    lim = float(np.nanmax(np.abs(vals))) if np.isfinite(vals).any() else 1.0
    lim = lim if lim > 0 else 1.0
    cmap = plt.get_cmap("RdBu_r").with_extremes(bad="0.85")
    im = ax.imshow(np.ma.masked_invalid(vals), cmap=cmap, vmin=-lim, vmax=lim, aspect="auto", interpolation="nearest")
    ax.set_xticks(
        range(n_cols),
        [str(c) for c in grid.columns],
        rotation=30 if n_cols > 4 else 0,
        ha="right" if n_cols > 4 else "center",
        fontsize=6,
    )
    ax.set_yticks(range(n_rows), [str(r) for r in grid.index], fontsize=max(4, min(7, 90 // max(n_rows, 1))))
    ax.set_xlabel(grid.columns.name or "")
    ax.set_ylabel(grid.index.name or "")
    ax.grid(False)
    if n_rows * n_cols <= 120:
        for (i, j), v in np.ndenumerate(vals):
            if np.isfinite(v):
                ax.text(
                    j,
                    i,
                    _no_negative_zero(f"{v:+.1f}".replace("+0.0", "0.0")),
                    ha="center",
                    va="center",
                    fontsize=5,
                    color="white" if abs(v) > 0.6 * lim else "black",
                )
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
    cut silently). `from_paper=True` (no runs: the "reproduced" column holds the paper's own
    values) shows the values (at most MAX_SHOWN_ROWS rows) and writes nothing, so the scorecard
    never counts the paper against itself.
    """
    sbs = engine.side_by_side(cmp, tolerance)
    if from_paper:
        print(
            f"{artifact_id}: no reproduced values on this data (the paper's own numbers are shown); nothing is compared"
        )
        vals = sbs.drop(columns=["reproduced", "difference", "tolerance", "within"])
        if len(vals) > MAX_SHOWN_ROWS:
            print(f"the first {MAX_SHOWN_ROWS} of {len(vals)} reported values (all of them: data/paper/)")
        show(vals.iloc[:MAX_SHOWN_ROWS], digits)
        return
    path = write_side_by_side(sbs, artifact_id, out_dir)
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
    fig, _ = comparison_heatmap(
        sbs, f"{artifact_id}: reproduced − reported, {int(both.sum())} values (max |difference| {worst:.2f})"
    )
    display(fig)
    plt.close(fig)
    k = min(COMPARISON_LARGEST, len(sbs))
    print(f"the {k} largest |differences| of {len(sbs)} rows; the full table ({len(sbs)} rows): {paths.relpath(path)}")
    show(largest_differences(sbs, k), digits)


def write_side_by_side(sbs: pd.DataFrame, artifact_id: str, out_dir: Path | str) -> Path:
    """Return the path <out_dir>/<artifact_id>_compare.csv after writing a side-by-side table there whole."""
    path = comparison_path(artifact_id, out_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    sbs.to_csv(path, index=False, float_format="%.10g", lineterminator="\n")
    return path


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
    sbs = engine.side_by_side(cmp, tolerance)
    path = write_side_by_side(sbs, artifact_id, out_dir)
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
    if not brief:
        if write:
            show_checks(table, artifact_id, out_dir)
        else:
            show(table)
        return
    if write:
        path.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(path, index=False, lineterminator="\n")
    counts = table["holds"].astype(str).value_counts() if len(table) else pd.Series(dtype=int)
    parts = ", ".join(
        f"{int(counts.get(k, 0))} {k}" for k in ("yes", "no", "indistinguishable", "n/a") if counts.get(k, 0)
    )
    where = paths.relpath(path) if write else "the file written above"
    print(f"{artifact_id}: {len(table)} claims checked ({parts or 'none'}); {where}; {SCORECARD_POINTER}")
