"""Tables for notebook 13 self-preference (T23) and 14 decision guide (T06).

The guide reads a Table-2-shaped frame (`value` per generator, judge, difficulty, condition), so it runs alike on
`paper.reported("T02")` and on reproduced numbers.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ajb_utils import schema
from ajb_utils.tables.main_results import main_verdicts

__all__ = [
    "self_bias",
    "decision_guide",
]


# ---- T23 self-preference ----------------------------------------------------------------------
def self_bias(bench, condition: str = "with_gt", judges: Sequence[str] = schema.MAIN_JUDGES) -> pd.DataFrame:
    """Return judge, generator, metric ('all' = pooled), bias = mean(llm_score - p), n verdicts."""
    v = main_verdicts(bench, judges, [condition])
    work = v[["judge", "generator", "metric"]].astype(str)
    work["d"] = v["llm_score"].to_numpy(float) - v["p"].to_numpy(float)
    work = work[np.isfinite(work["d"])]
    per = work.groupby(["judge", "generator", "metric"])["d"].agg(bias="mean", n="size").reset_index()
    pooled = work.groupby(["judge", "generator"])["d"].agg(bias="mean", n="size").reset_index()
    return pd.concat([per, pooled.assign(metric="all")], ignore_index=True)


def _means(t2: pd.DataFrame, generators: Sequence[str] | None) -> pd.DataFrame:
    """Return (condition, difficulty, judge) -> unweighted mean of value over the generators."""
    sub = t2 if generators is None else t2[t2["generator"].isin(list(generators))]
    return sub.groupby(["condition", "difficulty", "judge"])["value"].mean().reset_index()


def decision_guide(t2: pd.DataFrame, generators: Sequence[str] | None = None) -> pd.DataFrame:
    """Return per (condition, difficulty): best and runner-up judge by mean over generators, gap (pp)."""
    m = _means(t2, generators).sort_values(
        ["condition", "difficulty", "value", "judge"], ascending=[True, True, False, True]
    )
    ranked = m.groupby(["condition", "difficulty"], sort=False)
    best = ranked.nth(0).rename(columns={"judge": "best", "value": "best_align"})
    runner_up = ranked.nth(1).rename(columns={"judge": "runner_up", "value": "runner_up_align"})
    out = best.merge(runner_up, on=["condition", "difficulty"])
    out["gap"] = out["best_align"] - out["runner_up_align"]
    order = {k: i for i, k in enumerate(itertools.product(("without_gt", "with_gt"), schema.DIFFICULTIES))}
    out = out.iloc[np.argsort([order.get(k, 99) for k in zip(out["condition"], out["difficulty"])], kind="stable")]
    return out[["condition", "difficulty", "best", "best_align", "runner_up", "runner_up_align", "gap"]].reset_index(
        drop=True
    )
