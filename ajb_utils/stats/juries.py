"""Juries of judges (RQ2): soft (mean) and majority verdicts as new judge rows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from ajb_utils.scoring import match
from ajb_utils.stats.frames import JURY_KEYS, RECORD_EXTRAS

__all__ = ["soft_jury", "majority_jury"]


# ---- juries (RQ2) --------------------------------------------------------------------------------
def _jury(
    verdicts: pd.DataFrame,
    judges: Sequence[str],
    name: str,
    min_judges: int | None,
    reducer: Callable[[Any], pd.Series],
) -> pd.DataFrame:
    """Return a pseudo-judge in the verdicts long format from a groupby reducer of llm_score."""
    judges = list(judges)
    sub = verdicts[verdicts["judge"].isin(judges) & verdicts["llm_score"].notna()]
    keys = list(JURY_KEYS) + [c for c in RECORD_EXTRAS if c in sub.columns]
    g = sub.groupby(keys, observed=True, sort=True, dropna=False)  # a null dag_type is kept
    out = pd.DataFrame(
        {
            "llm_score": reducer(g["llm_score"]).astype(float),
            "p": g["p"].first().astype(float),
            "n_judges": g["llm_score"].count().astype(np.int64),
        }
    )
    if "p_published" in sub.columns:
        out["p_published"] = g["p_published"].first().astype(float)
    need = len(judges) if min_judges is None else min_judges
    out = out[out["n_judges"] >= need].reset_index()
    out["match"] = match(out["p"], out["llm_score"])
    if "p_published" in out.columns:
        out["match_published"] = match(out["p_published"], out["llm_score"])
    out.insert(3, "judge", pd.Categorical([name] * len(out)))
    return out


def soft_jury(
    verdicts: pd.DataFrame, judges: Sequence[str], name: str = "soft_jury", min_judges: int | None = None
) -> pd.DataFrame:
    """Return the judges' mean llm_score per key as verdict rows (judge = `name`) with n_judges."""
    return _jury(verdicts, judges, name, min_judges, lambda s: s.mean())


def majority_jury(
    verdicts: pd.DataFrame,
    judges: Sequence[str],
    name: str = "majority_jury",
    min_judges: int | None = None,
    tie: Literal["midpoint", "lower", "higher"] = "midpoint",
) -> pd.DataFrame:
    """Return the judges' median llm_score per key as `soft_jury` does the mean (`tie` for even juries)."""
    return _jury(verdicts, judges, name, min_judges, lambda s: s.quantile(0.5, interpolation=tie))
