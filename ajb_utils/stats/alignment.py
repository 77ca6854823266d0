"""Alignment (Eqs. 4-5): record mu, cell means, per-metric alignment, GT lift, difficulty degradation."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ajb_utils.schema import DIFFICULTIES, MAIN_CONDITIONS
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

__all__ = ["record_alignment", "align", "per_metric_align", "lift", "monotone_pairs", "degradation_slopes"]


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
    extra = [c for c in by if c not in RECORD_KEYS]
    work = verdicts[list(dict.fromkeys(list(RECORD_KEYS) + extra + cols))].assign(_m=_match_values(verdicts))
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


def lift(cells: pd.DataFrame, by: str | Sequence[str] = "judge") -> pd.Series:
    """Return GT lift (Eq. 5b) per `by`: mean over the (generator, difficulty) cells in both conditions of
    align_with - align_without."""
    by = _as_list(by)
    sub = cells[cells["condition"].isin(MAIN_CONDITIONS)]
    grouped = sub.groupby([*by, "generator", "difficulty", "condition"], observed=True)["align"].mean()
    wide = grouped.unstack("condition").reindex(columns=MAIN_CONDITIONS)
    diff = (wide["with_gt"] - wide["without_gt"]).dropna()
    return diff.groupby(level=by, observed=True, sort=True).mean().rename("lift")


# ---- difficulty degradation (Finding 1, Appendix F) ----------------------------------------------
def monotone_pairs(
    align_table: pd.DataFrame, keys: Sequence[str] = ("generator", "judge", "condition")
) -> pd.DataFrame:
    """Return per keys: one column per difficulty and ``monotone`` (strictly easy > medium > hard)."""
    keys = list(keys)
    wide = align_table.groupby(keys + ["difficulty"], observed=True)["align"].mean().unstack("difficulty")
    wide.columns = wide.columns.astype(str)
    wide = wide.reindex(columns=DIFFICULTIES)
    a = wide.to_numpy(float)
    wide["monotone"] = np.all(a[:, :-1] > a[:, 1:], axis=1)  # NaN compares False
    return wide.rename_axis(columns=None).reset_index()


def degradation_slopes(align_table: pd.DataFrame, by: str | Sequence[str] = "generator") -> pd.DataFrame:
    """Return the easy-to-hard drop (pp) with and without GT and their ratio per `by` group and for all ('all')."""
    by = _as_list(by)
    sub = align_table[align_table["condition"].isin(MAIN_CONDITIONS) & align_table["difficulty"].isin(["easy", "hard"])]

    def drops(frame: pd.DataFrame) -> pd.DataFrame:
        m = frame.groupby(by + ["condition", "difficulty"], observed=True)["align"].mean().unstack("difficulty")
        d = (m["easy"] - m["hard"]).unstack("condition")
        d.columns = [f"drop_{c}" for c in d.columns.astype(str)]
        return d.reindex(columns=[f"drop_{c}" for c in MAIN_CONDITIONS]).reset_index()

    out = pd.concat([drops(sub), drops(sub.assign(**dict.fromkeys(by, "all")))], ignore_index=True)
    out[by] = out[by].astype(str)
    out["ratio"] = out["drop_without_gt"] / out["drop_with_gt"]
    return out
