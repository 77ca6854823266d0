"""Rank correlation and the stability of judge rankings under metric weightings (§3.2, App. G Table 14)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ajb_utils.schema import METRICS
from ajb_utils.stats.frames import PAPER_WEIGHTINGS


# ---------------------------------------------------------------------------------------------
# rank correlation and ranking stability (§3.2, Appendix G Table 14, RQ2)
# ---------------------------------------------------------------------------------------------
def spearman(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """Return (rho, pvalue) of Spearman's rank correlation of x (n,) and y (n,) (scipy)."""
    from scipy import stats as _sps  # here, not at the top: scipy.stats costs every notebook ~1 s to import

    res = _sps.spearmanr(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
    return float(res.statistic), float(res.pvalue)


def ranking_stability(
    per_metric_table: pd.DataFrame,
    weightings: Mapping[str, Mapping[str, float]] = PAPER_WEIGHTINGS,
    reference: str = "equal",
    value: str = "align",
) -> pd.DataFrame:
    """Return rows = weightings, columns = judges' weighted scores, then rho and pvalue vs reference.

    ``per_metric_table``: long (judge, metric, value[, other cell columns]) as from
    :func:`per_metric_align` -- cells are averaged first (unweighted) -- or wide (judges x
    metrics). A judge's score is sum_m w_m a_m / sum_m w_m (weights default to 1). rho is
    Spearman between the judges' scores under a weighting and under ``reference``.
    """
    if "metric" in per_metric_table.columns:
        wide = (per_metric_table.groupby(["judge", "metric"], observed=True)[value].mean()
                .unstack("metric"))
    else:
        wide = per_metric_table.copy()
    wide.columns = wide.columns.astype(str)
    metrics = [m for m in METRICS if m in wide.columns] + [m for m in wide.columns if m not in METRICS]
    a = wide[metrics].to_numpy(float)
    w = np.array([[weightings[name].get(m, 1.0) for m in metrics] for name in weightings])  # (W, M)
    scores = (a @ w.T) / w.sum(axis=1)  # (J, W)
    out = pd.DataFrame(scores.T, index=pd.Index(list(weightings), name="weighting"),
                       columns=[str(j) for j in wide.index])
    ref = out.loc[reference].to_numpy() if reference in out.index else None
    rp = [spearman(ref, row) if ref is not None else (np.nan, np.nan) for row in out.to_numpy()]
    out["rho"] = [r for r, _ in rp]
    out["pvalue"] = [pv for _, pv in rp]
    return out
