"""Tables for notebook 13 self-preference (T23) and 14 decision guide (T06).

The guide reads a Table-2-shaped frame (`value` per generator, judge, difficulty, condition), so it runs alike on
`paper.reported("T02")` and on reproduced numbers.
"""

from __future__ import annotations

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
    top = m.groupby(["condition", "difficulty"], sort=False).head(2)
    top = top.assign(rank=top.groupby(["condition", "difficulty"]).cumcount())
    best, run = top[top["rank"] == 0], top[top["rank"] == 1]
    out = best.merge(run, on=["condition", "difficulty"], suffixes=("_best", "_runner_up"))
    out = out.rename(
        columns={
            "judge_best": "best",
            "value_best": "best_align",
            "judge_runner_up": "runner_up",
            "value_runner_up": "runner_up_align",
        }
    )
    out["gap"] = out["best_align"] - out["runner_up_align"]
    order = {
        (c, d): i for i, (c, d) in enumerate([(c, d) for c in ("without_gt", "with_gt") for d in schema.DIFFICULTIES])
    }
    out = out.iloc[np.argsort([order.get(k, 99) for k in zip(out["condition"], out["difficulty"])], kind="stable")]
    return out[["condition", "difficulty", "best", "best_align", "runner_up", "runner_up_align", "gap"]].reset_index(
        drop=True
    )
