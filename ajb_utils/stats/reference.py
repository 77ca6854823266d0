"""Reference judges: what no judgement at all (or perfect judgement on the {0, 0.5, 1} scale) scores.

always_1 (its alignment is p-bar), always_0.5 (the hedge), uniform (seeded), the oracle (the {0, 0.5, 1} verdict
nearest p, upper at a tie: the ceiling of any such judge) and the static judge's rows a notebook passes in.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ajb_utils.schema import MAIN_CONDITIONS, METRICS, P_COLUMNS
from ajb_utils.scoring import match
from ajb_utils.stats.frames import SeedLike, _rng

__all__ = [
    "REFERENCE_JUDGES",
    "metric_rows",
    "oracle_match",
    "reference_verdicts",
    "ternary_oracle",
    "uniform_expectation",
]

# Judge names of the reference judges in verdict frames and tables (readable as they stand).
REFERENCE_JUDGES: dict[str, str] = {
    "always_1": "ref: always 1.0 (= p-bar)",
    "always_0.5": "ref: always 0.5",
    "uniform": "ref: uniform {0, 0.5, 1}",
    "uniform_expected": "ref: uniform, expected",
    "oracle": "ref: {0, 0.5, 1} oracle (ceiling)",
    "static": "ref: static schema-only",
}


def ternary_oracle(p: Sequence[float] | np.ndarray) -> np.ndarray:
    """Return the {0, 0.5, 1} verdict nearest each p (n,); ties at 0.25 / 0.75 go up."""
    p = np.asarray(p, dtype=float)
    return np.where(p < 0.25, 0.0, np.where(p < 0.75, 0.5, 1.0))


def oracle_match(p: Sequence[float] | np.ndarray) -> np.ndarray:
    """Return the best match 1 - |p - l| any {0, 0.5, 1} verdict l can reach at each p (n,)."""
    p = np.asarray(p, dtype=float)
    return match(p, ternary_oracle(p))


def uniform_expectation(p: Sequence[float] | np.ndarray) -> np.ndarray:
    """Return the expected match (n,) of a verdict drawn uniformly from {0, 0.5, 1}, exactly."""
    p = np.asarray(p, dtype=float)
    return (match(p, 0.0) + match(p, 0.5) + match(p, 1.0)) / 3.0


def metric_rows(generations: pd.DataFrame) -> pd.DataFrame:
    """Return one row per (generation, metric) with its p, generations in order, metrics in paper order."""
    keys = [c for c in ("id", "generator", "difficulty", "dag_type") if c in generations.columns]
    base = generations[keys].reset_index(drop=True)
    n = len(base)
    out = base.loc[np.repeat(np.arange(n), len(METRICS))].reset_index(drop=True).astype(str)
    out["metric"] = np.tile(METRICS, n)
    out["p"] = generations[[P_COLUMNS[m] for m in METRICS]].to_numpy(float).ravel()  # (n, 4) read row by row
    return out[out["p"].notna()].reset_index(drop=True)


def reference_verdicts(
    generations: pd.DataFrame,
    kinds: Sequence[str] = ("always_1", "always_0.5", "uniform", "oracle"),
    seed: SeedLike = 0,
    static: pd.DataFrame | None = None,
    conditions: Sequence[str] = tuple(MAIN_CONDITIONS),
) -> pd.DataFrame:
    """Return verdict rows of the reference judges (judge = REFERENCE_JUDGES[kind]) under each of `conditions`."""
    cols = ["id", "generator", "difficulty", "dag_type", "condition", "metric", "llm_score", "p", "match", "judge"]
    rows = metric_rows(generations)
    p = rows["p"].to_numpy(float)
    rng = _rng(seed)
    parts = []
    for kind in kinds:
        if kind == "static":
            continue
        if kind == "always_1":
            l, m = np.ones_like(p), p.copy()  # 1 - |p - 1| = p on [0, 1], kept exact (no 1 - (1 - p) rounding)
        elif kind == "uniform_expected":
            l, m = np.full_like(p, np.nan), uniform_expectation(p)
        elif kind == "always_0.5":
            l = np.full_like(p, 0.5)
        elif kind == "uniform":
            l = rng.integers(0, 3, size=p.size) / 2.0
        elif kind == "oracle":
            l = ternary_oracle(p)
        else:
            raise ValueError(f"unknown reference judge {kind!r}; known: {sorted(REFERENCE_JUDGES)}")
        if kind in ("always_0.5", "uniform", "oracle"):
            m = match(p, l)
        for cond in conditions:
            parts.append(rows.assign(condition=cond, llm_score=l, match=m, judge=REFERENCE_JUDGES[kind]))
    if static is not None:
        s = static[static["condition"].astype(str).isin(list(conditions))]
        s = s[[c for c in cols if c in s.columns]].astype(
            {c: str for c in ("id", "generator", "difficulty", "condition", "metric")}
        )
        parts.append(s.assign(judge=REFERENCE_JUDGES["static"]))
    if not parts:
        return pd.DataFrame(columns=cols)
    return pd.concat(parts, ignore_index=True)[cols]
