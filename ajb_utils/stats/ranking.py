"""Rank correlation and the stability of judge rankings under metric weightings (§3.2, App. G Table 14)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ajb_utils.schema import METRICS
from ajb_utils.stats.frames import PAPER_WEIGHTINGS, _alpha

__all__ = ["spearman", "ranking_stability", "rank1_probability"]


# ---- rank correlation and ranking stability (§3.2, Appendix G Table 14, RQ2) ---------------------
def spearman(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """Return Spearman's (rho, pvalue) of x and y; (nan, nan) when either is constant."""
    from scipy import stats as _sps  # here, not at the top: scipy.stats costs every notebook ~1 s to import

    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(x) and ((x == x[0]).all() or (y == y[0]).all()):
        return float("nan"), float("nan")
    res = _sps.spearmanr(x, y)
    return float(res.statistic), float(res.pvalue)


def ranking_stability(
    per_metric_table: pd.DataFrame,
    weightings: Mapping[str, Mapping[str, float]] = PAPER_WEIGHTINGS,
) -> pd.DataFrame:
    """Return the judges' weighted scores per weighting with Spearman's rho and p against the 'equal' weighting."""
    if "metric" in per_metric_table.columns:
        wide = per_metric_table.groupby(["judge", "metric"], observed=True)["align"].mean().unstack("metric")
    else:
        wide = per_metric_table.copy()
    wide.columns = wide.columns.astype(str)
    metrics = [m for m in METRICS if m in wide.columns] + [m for m in wide.columns if m not in METRICS]
    a = wide[metrics].to_numpy(float)
    w = np.array([[weightings[name].get(m, 1.0) for m in metrics] for name in weightings])  # (W, M)
    scores = (a @ w.T) / w.sum(axis=1)  # (J, W)
    out = pd.DataFrame(
        scores.T, index=pd.Index(list(weightings), name="weighting"), columns=[str(j) for j in wide.index]
    )
    ref = out.loc["equal"].to_numpy() if "equal" in out.index else None
    out[["rho", "pvalue"]] = [spearman(ref, row) if ref is not None else (np.nan, np.nan) for row in out.to_numpy()]
    return out


# ---- P(rank 1): how often each judge comes first under a paired bootstrap (decision guide) -------
def rank1_probability(
    records: pd.DataFrame,
    cells: Sequence[str] = ("generator",),
    n_resamples: int = 2000,
    seed: int = 0,
) -> pd.DataFrame:
    """Return per judge align, its 95% CI and P(rank 1) over paired resamples of the records all judged."""
    cells = list(cells)
    judges = sorted(records["judge"].astype(str).unique())
    rng = np.random.default_rng(seed)
    wide = records.assign(judge=records["judge"].astype(str)).pivot_table(
        index=cells + ["id"], columns="judge", values="mu", observed=True, aggfunc="first"
    )
    wide = wide.reindex(columns=judges).dropna()
    groups = wide.groupby(level=cells, observed=True, sort=True) if cells else [((), wide)]
    point = np.zeros(len(judges))
    draws = np.zeros((n_resamples, len(judges)))
    n_cells = 0
    for _, g in groups:
        m = g.to_numpy(float)  # (n_cell, J)
        if not len(m):
            continue
        idx = rng.integers(0, len(m), size=(n_resamples, len(m)), dtype=np.int32)  # shared by the judges
        # how often each record is drawn in each resample, (n_resamples, n_cell): every judge's
        # resample mean is then one matrix product (no (n_resamples, n_cell) gather per judge)
        rows = np.arange(n_resamples, dtype=np.int64)[:, None] * len(m)
        counts = np.bincount((rows + idx).ravel(), minlength=n_resamples * len(m)).reshape(n_resamples, len(m))
        draws += (counts @ m) / len(m)
        point += m.mean(axis=0)
        n_cells += 1
    if n_cells == 0:
        return pd.DataFrame(columns=["judge", "align", "lo", "hi", "p_rank1", "n_records"])
    draws, point = 100 * draws / n_cells, 100 * point / n_cells
    wins = np.bincount(draws.argmax(axis=1), minlength=len(judges)) / n_resamples
    lo_q, hi_q = _alpha(0.95)
    out = pd.DataFrame(
        {
            "judge": judges,
            "align": point,
            "lo": np.quantile(draws, lo_q, axis=0),
            "hi": np.quantile(draws, hi_q, axis=0),
            "p_rank1": wins,
            "n_records": len(wide),
        }
    )
    return out.sort_values(["align", "judge"], ascending=[False, True], kind="stable").reset_index(drop=True)
