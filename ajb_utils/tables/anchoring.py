"""GT lift (Eq. 5b) per judge, paired over the records judged with and without GT, and per metric (Finding 2)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ajb_utils import schema, stats
from ajb_utils.tables.main_results import main_verdicts

__all__ = [
    "LIFT_EXCLUDED_GENERATORS",
    "paired_lift",
    "per_metric_lift",
]

# The paper's Eq. 5b lift averages 12 (g, d) cells: the four open-weight generators (claims.csv).
LIFT_EXCLUDED_GENERATORS: tuple[str, ...] = ("gpt5_4",)


# ---- GT lift (Eq. 5b) per judge and per metric ---------------------------------------------------
def paired_lift(
    v: pd.DataFrame, n_bootstrap: int, seed: int, missing: stats.Missing = stats.PAPER_MISSING
) -> pd.DataFrame:
    """Return per judge the paired GT lift (pp) with its CI and sign, and the paper's unpaired lift beside it."""
    recs = v if "mu" in v.columns and "metric" not in v.columns else stats.record_alignment(v, missing=missing)
    ci = stats.bootstrap_diff_ci(recs, n_resamples=n_bootstrap, seed=seed, missing=missing)
    ci = ci.rename(columns={"diff": "lift"}).astype({"judge": str})
    unpaired = stats.lift(stats.align(recs, missing=missing)).rename("lift_unpaired")
    unpaired = unpaired.reset_index().astype({"judge": str})
    out = unpaired.merge(ci[["judge", "lift", "lo", "hi", "n_pairs", "n_cells"]], on="judge", how="outer")
    out["sign"] = np.select([out["lo"] > 0, out["hi"] < 0, out["lo"].isna()], ["+", "-", "n/a"], "0 (CI spans 0)")
    return out[["judge", "lift", "lo", "hi", "sign", "lift_unpaired", "n_cells", "n_pairs"]]


def per_metric_lift(bench) -> pd.DataFrame:
    """Return the six judges' per-metric lift (pp) over Eq. 5b's generators: rows judges, columns metrics."""
    v = main_verdicts(bench, schema.MAIN_JUDGES)
    v = v[~v["generator"].isin(LIFT_EXCLUDED_GENERATORS)]
    pm = stats.per_metric_align(v)
    per = stats.lift(pm, by=["judge", "metric"]).reset_index()
    wide = per.pivot(index="judge", columns="metric", values="lift")
    wide = wide[[m for m in schema.METRICS if m in wide.columns]]
    wide.index = wide.index.astype(str)
    wide.columns = wide.columns.astype(str)
    wide.columns.name = None
    return wide
