"""Frames for notebook 05 inter-judge agreement: the pairs behind T03 and F10 (the tables are the notebook's cells)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ajb_utils import paper, schema, stats
from ajb_utils.tables.main_results import main_verdicts

__all__ = [
    "pairwise_long",
]


def pairwise_long(
    bench,
    judges: Sequence[str] | None = None,
    conditions: Sequence[str] = schema.MAIN_CONDITIONS,
) -> pd.DataFrame:
    """Return judge, judge_2, condition, agreement (%), kappa, n per pair over T03's population."""
    v = main_verdicts(bench, judges, conditions, generators=paper.population("T03").generators)
    have = set(v["judge"].astype(str))
    judges = [j for j in (schema.JUDGES if judges is None else judges) if j in have]
    pairs = [stats.pairwise_agreement(v, cond, judges=judges).assign(condition=cond) for cond in conditions]
    out = pd.concat(pairs, ignore_index=True)
    out = out.rename(columns={"judge_a": "judge", "judge_b": "judge_2", "agreement_pct": "agreement"})
    return out[["judge", "judge_2", "condition", "agreement", "kappa", "n"]]
