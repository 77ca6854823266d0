"""Column keys, verdict labels, metric weightings and the small frame helpers every statistic shares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd

from ajb_utils.scoring import match

__all__ = [
    "SeedLike",
    "Missing",
    "MISSING_RULES",
    "PAPER_MISSING",
    "MISSING_RULE_NAMES",
    "rule_name",
    "LABELS",
    "RECORD_KEYS",
    "RECORD_EXTRAS",
    "CELL_KEYS",
    "JURY_KEYS",
    "PAIR_KEYS",
    "PAPER_WEIGHTINGS",
]

SeedLike = int | np.random.SeedSequence | np.random.Generator
Missing = Literal["exclude", "miss", "authors"]
MISSING_RULES: tuple[str, ...] = ("exclude", "miss", "authors")
# The library's one default (every statistic, table, notebook and the main command's summary): the authors' rule.
PAPER_MISSING: Missing = "authors"
# How a rule is named wherever a number made under it is printed.
MISSING_RULE_NAMES: dict[str, str] = {
    "authors": "authors' rule (a condition without any verdict dropped, a null metric a miss)",
    "exclude": "exclude (a null metric left out of the record's mean)",
    "miss": "miss (Appendix D: a null metric a miss, a tuple without any verdict dropped in both conditions)",
}


def rule_name(missing: str) -> str:
    """Return the printed name of a missing-verdict rule (MISSING_RULE_NAMES)."""
    _check_missing(missing)
    return MISSING_RULE_NAMES[missing]


LABELS: tuple[float, float, float] = (0.0, 0.5, 1.0)
RECORD_KEYS: tuple[str, ...] = ("id", "generator", "difficulty", "judge", "condition")
# Columns that are constant within a record and are carried to the record level when present.
RECORD_EXTRAS: tuple[str, ...] = ("dag_type",)
CELL_KEYS: tuple[str, ...] = ("judge", "generator", "difficulty", "condition")
JURY_KEYS: tuple[str, ...] = ("id", "generator", "difficulty", "condition", "metric")
PAIR_KEYS: tuple[str, ...] = ("id", "generator", "difficulty", "metric")

# Metric weightings of §3.2 (ranking stability, "five alternative schemes"; the text names four)
# and of Appendix G Table 14 (parameter structure halved / excluded). Unlisted metrics weigh 1.
PAPER_WEIGHTINGS: dict[str, dict[str, float]] = {
    "equal": {},
    "seq_x2": {"sequence_accuracy": 2.0},
    "param_x2": {"parameter_structure": 2.0},
    "cov_x0.5": {"query_coverage": 0.5},
    "seq_x2_param_x2": {"sequence_accuracy": 2.0, "parameter_structure": 2.0},
    "param_x0.5": {"parameter_structure": 0.5},
    "param_excluded": {"parameter_structure": 0.0},
}


# ---- helpers -------------------------------------------------------------------------------------
def _rng(seed: SeedLike) -> np.random.Generator:
    """Return a Generator for an explicit seed (refuses None: CIs must be reproducible)."""
    if seed is None:
        raise ValueError("pass an explicit seed or numpy.random.Generator (None is not allowed)")
    return np.random.default_rng(seed)  # a Generator is returned unaltered


def _as_list(x: str | Sequence[str]) -> list[str]:
    """Return a list of column names from one name or a sequence of names."""
    return [x] if isinstance(x, str) else list(x)


def _match_values(verdicts: pd.DataFrame) -> np.ndarray:
    """Return per-row match (n,) from the ``match`` column, or Eq. 4a of p and llm_score if absent."""
    if "match" in verdicts.columns:
        return verdicts["match"].to_numpy(dtype=float, na_value=np.nan)
    return match(verdicts["p"], verdicts["llm_score"])


def _label_codes(x: np.ndarray, labels: Sequence[float]) -> np.ndarray:
    """Return int codes (n,) of x in labels; -1 for NaN or a value not among the labels."""
    x = np.asarray(x, dtype=float)
    codes = np.full(x.shape, -1, dtype=np.int64)
    for i, lab in enumerate(labels):
        codes[np.isclose(x, lab)] = i
    return codes


def _alpha(ci: float) -> tuple[float, float]:
    """Return the lower and upper percentile levels of a central ``ci`` interval."""
    if not 0.0 < ci < 1.0:
        raise ValueError(f"ci must be in (0, 1), got {ci}")
    a = (1.0 - ci) / 2.0
    return a, 1.0 - a


def _is_record_frame(frame: pd.DataFrame) -> bool:
    """Return True if frame is already record level (has ``mu``, no ``metric``)."""
    return "mu" in frame.columns and "metric" not in frame.columns


def _check_missing(missing: str) -> None:
    """Raise ValueError unless ``missing`` names one of MISSING_RULES."""
    if missing not in MISSING_RULES:
        raise ValueError(f"missing must be one of {MISSING_RULES}, got {missing!r}")


def _require_unique(frame: pd.DataFrame, keys: Sequence[str], what: str) -> None:
    """Raise ValueError if two rows share ``keys`` (the one row rule every statistic follows)."""
    n = int(frame.duplicated(list(keys)).sum()) if len(frame) else 0
    if n:
        raise ValueError(
            f"{n} duplicate {what} row(s) on {list(keys)}: one row per key is "
            "required (load_bench excludes duplicates with a reason; de-duplicate "
            "the frame first)"
        )
