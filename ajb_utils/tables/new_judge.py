"""A new judge beside the paper's six (X2): each run's alignment with its CI, P(rank 1) and paired difference."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ajb_utils import schema, stats
from ajb_utils.schema import MAIN_JUDGES

__all__ = ["x2_verdicts", "x2_runs_cells", "table_X2_runs"]


def x2_verdicts(verdicts: pd.DataFrame, run_name: str, judges: list[str] | None = None) -> pd.DataFrame:
    """Return the verdicts of the new judge and the six on the items and conditions the new judge judged."""
    judges = [*(judges or MAIN_JUDGES), run_name]
    v = verdicts[verdicts["judge"].isin(judges) & verdicts["condition"].isin(schema.MAIN_CONDITIONS)]
    mine = v["judge"] == run_name
    v = v[v["condition"].isin(v.loc[mine, "condition"].unique())]
    items = pd.MultiIndex.from_frame(v[["id", "generator", "difficulty"]])
    v = v[items.isin(items[(v["judge"] == run_name).to_numpy()])]
    if isinstance(v["judge"].dtype, pd.CategoricalDtype):
        v = v.assign(judge=v["judge"].cat.remove_unused_categories())
    return v


def _cell_ranks(
    sub: pd.DataFrame, run: str, reference: str, strata: list[str], n_bootstrap: int, seed: int
) -> pd.DataFrame:
    """Return one cell's judges' align, CI, P(rank 1), n_items, and the run's delta to the reference."""
    r = stats.rank1_probability(sub, strata, n_resamples=n_bootstrap, seed=seed).rename(
        columns={"n_records": "n_items"}
    )
    wide = sub.pivot_table(index=[*strata, "id"], columns="judge", values="mu", aggfunc="first", observed=True).dropna()
    r["rank"] = r["align"].rank(ascending=False, method="min").astype(int)
    r["of"] = len(r)
    r[["delta", "delta_lo", "delta_hi"]] = np.nan
    if reference in wide and run in wide and run != reference:
        d = (wide[run] - wide[reference]).rename("mu").reset_index().assign(judge="d")
        dr = stats.rank1_probability(d, strata, n_resamples=n_bootstrap, seed=seed).iloc[0]
        r.loc[r["judge"] == run, ["delta", "delta_lo", "delta_hi"]] = [dr["align"], dr["lo"], dr["hi"]]
    return r


def x2_runs_cells(
    verdicts: pd.DataFrame,
    runs: list[str],
    judges: list[str] | None = None,
    reference: str = "judge_gpt_5_4",
    n_bootstrap: int = 2000,
    seed: int = 0,
    by_generator: bool = False,
) -> pd.DataFrame:
    """Return per run, cell and judge (on the run's items) align, CI, P(rank 1), rank, and delta to `reference`."""
    keys = ["condition", "difficulty", *(["generator"] if by_generator else [])]
    strata = [] if by_generator else ["generator"]
    parts = []
    for run in runs:
        recs = stats.record_alignment(x2_verdicts(verdicts, run, judges), missing="exclude")
        recs = recs.astype({k: str for k in ("judge", "condition", "difficulty", "generator")})
        for i, (cell, sub) in enumerate(recs.groupby(keys, sort=False)):
            r = _cell_ranks(sub, run, reference, strata, n_bootstrap, seed + i)
            parts.append(r.assign(run=run, **dict(zip(keys, cell, strict=True))))
    cols = [
        "run",
        *keys,
        "judge",
        "align",
        "lo",
        "hi",
        "p_rank1",
        "rank",
        "of",
        "n_items",
        "delta",
        "delta_lo",
        "delta_hi",
    ]
    out = pd.concat(parts, ignore_index=True)[cols] if parts else pd.DataFrame(columns=cols)
    out = schema.paper_sorted(out, [k for k in ("generator", "difficulty", "condition") if k in keys])
    run_order = {r: i for i, r in enumerate(runs)}
    return out.sort_values("run", key=lambda s: s.map(run_order), kind="stable").reset_index(drop=True)


def table_X2_runs(cells: pd.DataFrame, reference: str = "judge_gpt_5_4") -> pd.DataFrame:
    """Return per run and cell its alignment [CI], rank, P(rank 1), the best of the six and its delta [CI]."""
    keys = [k for k in ("condition", "difficulty", "generator") if k in cells.columns]
    runs = cells[cells["judge"] == cells["run"]]
    six = cells[(cells["judge"] != cells["run"])]
    best = six.sort_values("align", ascending=False, kind="stable").drop_duplicates(["run", *keys])
    best = best.assign(best_of_six=best["judge"].map(schema.display))[["run", *keys, "best_of_six", "align", "p_rank1"]]
    best = best.rename(columns={"align": "best_six_align", "p_rank1": "best_six_p_rank1"})
    out = runs.merge(best, on=["run", *keys], how="left")
    d = f"minus {schema.display(reference)}"
    out = out.rename(columns={"n_items": "items", "delta": d, "delta_lo": f"{d} lo", "delta_hi": f"{d} hi"})
    return out[
        [
            "run",
            *keys,
            "items",
            "align",
            "lo",
            "hi",
            "rank",
            "of",
            "p_rank1",
            "best_of_six",
            "best_six_align",
            "best_six_p_rank1",
            d,
            f"{d} lo",
            f"{d} hi",
        ]
    ].reset_index(drop=True)
