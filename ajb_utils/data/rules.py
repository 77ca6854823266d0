"""Validation as named rules: every reason a row is left out (the paper's Appendix D and data
hygiene), the one de-duplication policy for generations and judge rows alike, and the snapping of
verdicts to the {0, 0.5, 1} scale. A rule never drops a row silently: it returns the exclusion."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ajb_utils.data.bench import BenchDataError

# Exclusion reasons (Appendix D and data hygiene).
MALFORMED = "malformed JSON line"
UNPARSEABLE = "unparseable generator output"
EMPTY_PLAN = "empty plan"
UNKNOWN_RECORD = "unknown record id"
UNKNOWN_DIFFICULTY = "unknown difficulty"
DUPLICATE = "duplicate row"
NO_GENERATION = "no valid generation for verdict"
NULL_BLOCK = "null judge verdict (whole condition)"
NULL_METRIC = "null judge verdict (metric)"
BAD_RECORD = "unparseable expected calls"
SUPERSEDED = "invalid row superseded by a valid one"
DUPLICATE_JUDGE = "duplicate judge row"
OUT_OF_RANGE = "judge verdict outside {0, 0.5, 1}"
NULL_TOPOLOGY = "null dag_type (record kept; not in topology breakdowns)"
# A loaded llm_score within this distance of 0, 0.5 or 1 is that label (float noise); any other
# value is an exclusion with reason OUT_OF_RANGE (the judge runner already snaps its parses).
VERDICT_LABELS: tuple[float, ...] = (0.0, 0.5, 1.0)
SNAP_TOL = 1e-6

EXCLUSION_COLUMNS = ["config", "id", "generator", "difficulty", "judge", "condition", "metric", "reason"]


def require_columns(frame: pd.DataFrame, config: str, required: list[str]) -> None:
    """Raise BenchDataError naming the config and every missing required column."""
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise BenchDataError(
            f"config {config!r} lacks required column(s) {missing}; it has {sorted(map(str, frame.columns))}"
        )


Excluded = dict[str, list[Any]]  # EXCLUSION_COLUMNS -> values: one batch of exclusion rows


def exclusions(config: str, frame: pd.DataFrame, reason: str | np.ndarray, **fixed: Any) -> Excluded:
    """Return exclusion rows (a batch, `exclusion_frame` joins them) for the rows of `frame` with
    a reason (`fixed` names judge, condition, metric); the names as text (no pandas conversion)."""
    n, given = len(frame), {"config": config, **fixed}
    out: Excluded = {k: [given.get(k)] * n for k in EXCLUSION_COLUMNS}  # a name `frame` lacks: None
    for c in (c for c in ("id", "generator", "difficulty") if c in frame):
        out[c] = [v if type(v) is str else str(v) for v in frame[c].to_numpy(dtype=object)]
    out["reason"] = [reason] * n if isinstance(reason, str) else list(reason)
    return out


def malformed(config: str, bad: list[str], **fixed: Any) -> Excluded:
    """Return one exclusion per malformed JSON line (no id is known for them)."""
    return exclusions(config, pd.DataFrame(index=range(len(bad))), MALFORMED, **fixed)


def exclusion_frame(batches: list[Excluded]) -> pd.DataFrame:
    """Return every exclusion batch as one frame (EXCLUSION_COLUMNS; text columns, object where
    a value is missing)."""
    columns = {c: [v for b in batches for v in b[c]] for c in EXCLUSION_COLUMNS}
    return pd.DataFrame({c: pd.Series(v, dtype=object if None in v else None) for c, v in columns.items()})


def dedup(key: np.ndarray | pd.Series, valid: np.ndarray, duplicate: str) -> np.ndarray:
    """Return each row's de-duplication reason (None = kept): the one policy for every config.

    Per key, a valid row beats invalid ones (those are SUPERSEDED: a failed call and its retry,
    not an Appendix D exclusion); then the first row in file order wins and the later ones of
    the same validity are `duplicate`. A key without a valid row keeps its first invalid row,
    whose own reason stands."""
    key = pd.Series(np.asarray(key))
    valid = np.asarray(valid, dtype=bool)
    out = np.full(len(key), None, dtype=object)
    has_valid = key.isin(key[valid]).to_numpy()
    out[~valid & has_valid] = SUPERSEDED
    dup = pd.DataFrame({"key": key, "valid": valid}).duplicated().to_numpy()  # within a key's valid or invalid rows
    out[dup & (valid | ~has_valid)] = duplicate
    return out


def snap_verdicts(llm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (llm with float noise snapped to 0 / 0.5 / 1 and other values NaN, out-of-range mask)."""
    half = np.round(np.asarray(llm, dtype=float) * 2.0) / 2.0  # the nearest multiple of 0.5
    with np.errstate(invalid="ignore"):  # inf - inf
        near = (np.abs(llm - half) <= SNAP_TOL) & (half >= VERDICT_LABELS[0]) & (half <= VERDICT_LABELS[-1])
    out_of_range = ~np.isnan(llm) & ~near
    return np.where(near, half + 0.0, np.nan), out_of_range  # + 0.0: -0.0 is the label 0
