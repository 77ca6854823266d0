"""Alignment (Eqs. 4-5): record mu, cell means, per-metric alignment, GT lift, difficulty degradation."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ajb_utils.schema import DIFFICULTIES
from ajb_utils.stats.frames import (
    CELL_KEYS,
    PAPER_MISSING,
    RECORD_EXTRAS,
    RECORD_KEYS,
    Missing,
    _as_list,
    _check_missing,
    _is_record_frame,
    _match_values,
    _require_unique,
)


# ---- alignment (Eqs. 4-5) ------------------------------------------------------------------------
def _kept(recs: pd.DataFrame, keys: list[str], missing: Missing) -> pd.Series:
    """Return a mask of the per-record rows a missing-verdict rule keeps (`miss` drops the whole tuple)."""
    has = recs["n_verdicts"] > 0
    if missing != "miss" or "condition" not in keys:
        return has
    tuple_keys = [k for k in keys if k != "condition" and k not in RECORD_EXTRAS]
    dropped = (~has).groupby([recs[k] for k in tuple_keys], observed=True, dropna=False).transform("any")
    return has & ~dropped


def record_alignment(
    verdicts: pd.DataFrame,
    missing: Missing = PAPER_MISSING,
    keys: Sequence[str] = RECORD_KEYS,
    n_metrics: int | None = None,
) -> pd.DataFrame:
    """Return record-level mu (Eq. 4b) per record (keys, [dag_type], mu, n_verdicts) under the `missing` rule.

    "exclude" averages the verdicts a record has; "miss" and "authors" count a missing one as 0 over
    M metrics (docs/DECISIONS.md); two rows for one (record, metric) are an error, not averaged."""
    _check_missing(missing)
    keys = list(keys) + [c for c in RECORD_EXTRAS if c in verdicts.columns and c not in keys]
    if "metric" in verdicts.columns:
        _require_unique(verdicts, [k for k in keys if k not in RECORD_EXTRAS] + ["metric"], "verdict")
    work = verdicts[keys].assign(_m=_match_values(verdicts))
    recs = work.groupby(keys, observed=True, sort=True, dropna=False)["_m"].agg(["sum", "count"]).reset_index()
    recs = recs.rename(columns={"count": "n_verdicts"})
    recs = recs[_kept(recs, keys, missing)].reset_index(drop=True)
    big_m = n_metrics if n_metrics is not None else int(verdicts["metric"].nunique())
    mu = recs["sum"] / (recs["n_verdicts"] if missing == "exclude" else big_m)
    return recs[keys].assign(mu=mu.astype(float), n_verdicts=recs["n_verdicts"].astype(np.int64))


def align(
    verdicts: pd.DataFrame,
    by: Sequence[str] = CELL_KEYS,
    missing: Missing = PAPER_MISSING,
) -> pd.DataFrame:
    """Return align (Eq. 5a, %) and n records per cell, from verdicts or a record frame (column mu)."""
    by = _as_list(by)
    if _is_record_frame(verdicts):
        recs = verdicts
    else:
        extra = [c for c in by if c not in RECORD_KEYS]
        recs = record_alignment(verdicts, missing=missing, keys=list(RECORD_KEYS) + extra)
    out = recs.groupby(by, observed=True, sort=True)["mu"].agg(["mean", "size"])
    return pd.DataFrame({"align": 100.0 * out["mean"], "n": out["size"].astype(np.int64)}).reset_index()


def per_metric_align(
    verdicts: pd.DataFrame,
    by: Sequence[str] = CELL_KEYS,
    missing: Missing = PAPER_MISSING,
) -> pd.DataFrame:
    """Return mean per-metric match x 100 per cell and metric, whose mean over metrics is `align`."""
    by = _as_list(by)
    _check_missing(missing)
    cols = by + ["metric"]
    m = _match_values(verdicts)
    extra = [c for c in by if c not in RECORD_KEYS]
    work = verdicts[list(dict.fromkeys(list(RECORD_KEYS) + extra + cols))].assign(_m=m)
    if missing != "exclude":  # only the records the rule keeps (a mean over verdicts needs no such step)
        recs = record_alignment(verdicts, missing=missing, keys=list(RECORD_KEYS) + extra)
        work = work.merge(recs[list(RECORD_KEYS) + extra], on=list(RECORD_KEYS) + extra, how="inner")
    g = work.groupby(cols, observed=True, sort=True)["_m"]
    if missing == "exclude":
        out = g.agg(["mean", "count"])
        res = pd.DataFrame({"align": 100.0 * out["mean"], "n": out["count"].astype(np.int64)})
        return res[res["n"] > 0].reset_index()
    num = g.sum(min_count=0).rename("num").reset_index()
    den = recs.groupby(by, observed=True, sort=True).size().rename("n").reset_index()
    res = num.merge(den, on=by, how="left")
    res["align"] = 100.0 * res["num"] / res["n"]
    return res[cols + ["align", "n"]]


def lift(
    cells: pd.DataFrame,
    with_cond: str = "with_gt",
    without_cond: str = "without_gt",
    by: str | Sequence[str] = "judge",
    over: Sequence[str] = ("generator", "difficulty"),
    value: str = "align",
) -> pd.Series:
    """Return GT lift (Eq. 5b) per judge: mean over the cells in both conditions of align_with - align_without."""
    by = _as_list(by)
    keys = by + list(over)
    sub = cells[cells["condition"].isin([with_cond, without_cond])]
    grouped = sub.groupby(keys + ["condition"], observed=True)[value].mean()
    wide = grouped.unstack("condition").reindex(columns=[with_cond, without_cond])
    diff = (wide[with_cond] - wide[without_cond]).dropna()
    res = diff.groupby(level=by, observed=True, sort=True).mean()
    res.name = "lift"
    return res


# ---- difficulty degradation (Finding 1, Appendix F) ----------------------------------------------
def monotone_pairs(
    align_table: pd.DataFrame,
    keys: Sequence[str] = ("generator", "judge", "condition"),
    value: str = "align",
    difficulties: Sequence[str] = DIFFICULTIES,
) -> pd.DataFrame:
    """Return per keys: one column per difficulty and ``monotone`` (strictly easy > medium > hard)."""
    keys = list(keys)
    wide = align_table.groupby(keys + ["difficulty"], observed=True)[value].mean().unstack("difficulty")
    wide.columns = wide.columns.astype(str)
    wide = wide.reindex(columns=list(difficulties))
    a = wide.to_numpy(float)
    mono = np.all(a[:, :-1] > a[:, 1:], axis=1)  # NaN compares False
    wide["monotone"] = mono
    wide.columns.name = None
    return wide.reset_index()


def degradation_slopes(
    align_table: pd.DataFrame,
    by: str | Sequence[str] = "generator",
    conditions: Sequence[str] = ("with_gt", "without_gt"),
    value: str = "align",
    easy: str = "easy",
    hard: str = "hard",
) -> pd.DataFrame:
    """Return the easy-to-hard drop (pp) per condition and their ratio per `by` group and for all."""
    by = _as_list(by)
    sub = align_table[align_table["condition"].isin(list(conditions)) & align_table["difficulty"].isin([easy, hard])]

    def drops(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
        m = frame.groupby(keys + ["condition", "difficulty"], observed=True)[value].mean()
        m = m.unstack("difficulty")
        d = (m[easy] - m[hard]).unstack("condition") if keys else (m[easy] - m[hard]).to_frame().T
        d.columns = [f"drop_{c}" for c in d.columns.astype(str)]
        return d.reindex(columns=[f"drop_{c}" for c in conditions])

    per = drops(sub, by).reset_index() if by else pd.DataFrame()
    for c in by:
        per[c] = per[c].astype(str)
    m = sub.groupby(["condition", "difficulty"], observed=True)[value].mean().unstack("difficulty")
    tot = m[easy] - m[hard]
    tot.index = tot.index.astype(str)
    total = pd.DataFrame([{**{c: "all" for c in by}, **{f"drop_{c}": tot.get(c, np.nan) for c in conditions}}])
    out = pd.concat([per, total], ignore_index=True) if by else total
    c1, c2 = (f"drop_{c}" for c in conditions[:2])
    out["ratio"] = out[c2] / out[c1]
    return out
