"""Column keys, verdict labels, metric weightings and the small frame helpers every statistic shares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd

SeedLike = int | np.random.SeedSequence | np.random.Generator
Missing = Literal["exclude", "miss", "authors"]
MISSING_RULES: tuple[str, ...] = ("exclude", "miss", "authors")
# The one default of the library (every `stats` function, every table, the notebooks' `missing`
# parameter, the main command's summary): the authors' analysis script (a condition without any
# verdict is dropped, a null metric inside a verdict counts as a miss). "exclude" and "miss" stay
# available by name.
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


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def _rng(seed: SeedLike) -> np.random.Generator:
    """Return a Generator for an explicit seed (refuses None: CIs must be reproducible)."""
    if seed is None:
        raise ValueError("pass an explicit seed or numpy.random.Generator (None is not allowed)")
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def _as_list(x: str | Sequence[str]) -> list[str]:
    """Return a list of column names from one name or a sequence of names."""
    return [x] if isinstance(x, str) else list(x)


def _match_values(verdicts: pd.DataFrame) -> np.ndarray:
    """Return per-row match (n,) from the ``match`` column, or 1 - |p - llm_score| if absent."""
    if "match" in verdicts.columns:
        return verdicts["match"].to_numpy(dtype=float, na_value=np.nan)
    p = verdicts["p"].to_numpy(dtype=float, na_value=np.nan)
    llm = verdicts["llm_score"].to_numpy(dtype=float, na_value=np.nan)
    return 1.0 - np.abs(p - llm)


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


def _n_duplicates(frame: pd.DataFrame, keys: Sequence[str]) -> int:
    """Return how many rows repeat an earlier row's ``keys``."""
    return int(frame.duplicated(list(keys)).sum()) if len(frame) else 0


def _require_unique(frame: pd.DataFrame, keys: Sequence[str], what: str) -> None:
    """Raise ValueError if two rows share ``keys`` (the one row rule every statistic follows)."""
    n = _n_duplicates(frame, keys)
    if n:
        raise ValueError(
            f"{n} duplicate {what} row(s) on {list(keys)}: one row per key is "
            "required (load_bench excludes duplicates with a reason; de-duplicate "
            "the frame first)"
        )


def as_str(values: pd.Series) -> pd.Series:
    """Return ``values.astype(str)`` (same values, dtype, index and name); for a categorical column
    the categories are converted once and taken by code, not every row (7x faster on 5 M rows)."""
    if not isinstance(getattr(values, "dtype", None), pd.CategoricalDtype):  # also a DataFrame
        return values.astype(str)
    cats = pd.array(values.cat.categories.astype(str))
    taken = cats.take(values.cat.codes.to_numpy(), allow_fill=True)  # code -1 (missing) stays missing
    return pd.Series(taken, index=values.index, name=values.name)


def str_in(values: pd.Series, keep: str | Sequence[str] | pd.Series) -> np.ndarray:
    """Return a bool array (n,): ``as_str(values).isin(keep)`` (a missing value is never kept); for a
    categorical column decided once per category and taken by code, without making the strings."""
    keep = {keep} if isinstance(keep, str) else {str(k) for k in keep}
    if not isinstance(values.dtype, pd.CategoricalDtype):
        return as_str(values).isin(keep).to_numpy(dtype=bool, na_value=False)
    per_cat = np.append(np.array([str(c) in keep for c in values.cat.categories], dtype=bool), False)
    return per_cat[values.cat.codes.to_numpy()]  # code -1 (missing) takes the last entry: False


def _sorted_categorical(labels: pd.Series, codes: np.ndarray, like: pd.Series) -> pd.Series:
    """Return the labels of ``codes`` (positions in ``labels``) as a categorical of sorted, distinct string
    categories (the order a sort of the strings gives; a missing label stays missing), with ``like``'s
    index and name."""
    cat = pd.Series(labels, dtype=str).astype("category")  # sorted categories; a missing label is code -1
    values = pd.Categorical.from_codes(cat.cat.codes.to_numpy()[codes], dtype=cat.dtype)
    return pd.Series(values, index=like.index, name=like.name)


def str_category(values: pd.Series, mapping: pd.Series | dict | None = None) -> pd.Series:
    """Return ``as_str(values)``, or ``as_str(values).map(mapping).astype(str)``, as a categorical of sorted
    string categories: each distinct value converted (and mapped) once, not every row."""
    codes, uniques = pd.factorize(values)
    if (codes < 0).any():  # a missing value: the strings' own rule, row by row
        strings = as_str(values) if mapping is None else as_str(values).map(mapping).astype(str)
        return strings.astype("category")  # sorted categories; a missing string stays missing
    labels = as_str(pd.Series(uniques))
    if mapping is not None:
        labels = labels.map(mapping).astype(str)
    return _sorted_categorical(labels, codes, values)


def str_join(a: pd.Series, b: pd.Series, sep: str) -> pd.Series:
    """Return ``as_str(a) + sep + as_str(b)`` as a categorical of sorted string categories, each distinct
    pair of values joined once (row by row when a value is missing, whose join is missing)."""
    ca, ua = pd.factorize(a)
    cb, ub = pd.factorize(b)
    if (ca < 0).any() or (cb < 0).any():
        return (as_str(a) + sep + as_str(b)).astype("category")
    pair, pairs = pd.factorize(ca.astype(np.int64) * len(ub) + cb)
    sa = as_str(pd.Series(ua)).to_numpy(dtype=object)[pairs // len(ub)]
    sb = as_str(pd.Series(ub)).to_numpy(dtype=object)[pairs % len(ub)]
    return _sorted_categorical(pd.Series(sa + sep + sb, dtype=object), pair, a)


def str_counts(values: pd.Series) -> pd.Series:
    """Return ``as_str(values).value_counts()`` (observed values only; a categorical counted by code)."""
    if not isinstance(values.dtype, pd.CategoricalDtype):
        return as_str(values).value_counts()
    codes = values.cat.codes.to_numpy()
    n = np.bincount(codes[codes >= 0], minlength=len(values.cat.categories))
    counts = pd.Series(n, index=pd.Index(values.cat.categories.astype(str), name=values.name), name="count")
    return counts[counts > 0].sort_values(ascending=False, kind="stable")
