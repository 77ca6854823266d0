"""Agreement between judges (RQ2, Table 3, App. T): confusion, Cohen's kappa, exact agreement, binary collapse."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np
import pandas as pd

from ajb_utils.scoring import match
from ajb_utils.stats.frames import LABELS, PAIR_KEYS, _as_list, _label_codes, _require_unique

__all__ = [
    "kappa_from_confusion",
    "cohen_kappa",
    "exact_agreement",
    "pairwise_agreement",
    "agreement_matrix",
    "confusion",
    "offdiag_half_share",
    "BINARY_READINGS",
    "binary_collapse",
    "binary_verdicts",
    "half_rate",
]


# ---- agreement between judges (RQ2, Table 3, Appendix T) -----------------------------------------
def _confusion_counts(ca: np.ndarray, cb: np.ndarray, k: int) -> np.ndarray:
    """Return confusion counts (k, k) of two label-code vectors, rows = a; pairs with a code -1 are dropped."""
    ok = (ca >= 0) & (cb >= 0)
    return np.bincount(ca[ok] * k + cb[ok], minlength=k * k).reshape(k, k)


def kappa_from_confusion(conf: np.ndarray | pd.DataFrame) -> float:
    """Return unweighted Cohen's kappa of a confusion matrix (L, L) of counts or shares."""
    c = np.asarray(conf, dtype=float)
    n = c.sum()
    if n == 0:
        return np.nan
    po = np.trace(c) / n
    pe = float(c.sum(axis=1) @ c.sum(axis=0)) / n**2
    if np.isclose(pe, 1.0):
        return np.nan  # both raters constant and equal: kappa undefined (sklearn gives nan too)
    return float((po - pe) / (1.0 - pe))


def cohen_kappa(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Return unweighted Cohen's kappa of two verdict vectors (n,) over LABELS."""
    return kappa_from_confusion(_confusion_counts(_label_codes(a, LABELS), _label_codes(b, LABELS), len(LABELS)))


def exact_agreement(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Return the fraction (0-1) of pairs (n,) with equal verdicts, over pairs with no NaN."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    ok = ~(np.isnan(a) | np.isnan(b))
    if not ok.any():
        return np.nan
    return float(np.isclose(a[ok], b[ok]).mean())


def pairwise_agreement(verdicts: pd.DataFrame, condition: str, judges: Sequence[str] | None = None) -> pd.DataFrame:
    """Return per judge pair (in `judges` order) agreement_pct, kappa and n over the keys (PAIR_KEYS) both judged."""
    sub = verdicts[verdicts["condition"] == condition]
    if judges is not None:
        sub = sub[sub["judge"].isin(list(judges))]
    _require_unique(sub, [*PAIR_KEYS, "judge"], "verdict")
    wide = sub.groupby([*PAIR_KEYS, "judge"], observed=True)["llm_score"].first().unstack("judge")
    wide.columns = wide.columns.astype(str)
    if judges is not None:
        wide = wide.reindex(columns=[str(j) for j in judges])
    names = list(wide.columns)
    codes = {j: _label_codes(wide[j].to_numpy(float, na_value=np.nan), LABELS) for j in names}  # -1: no verdict
    rows = []
    for a, b in combinations(names, 2):
        conf = _confusion_counts(codes[a], codes[b], len(LABELS))
        n = int(conf.sum())
        rows.append((a, b, 100.0 * np.trace(conf) / n if n else np.nan, kappa_from_confusion(conf), n))
    return pd.DataFrame(rows, columns=["judge_a", "judge_b", "agreement_pct", "kappa", "n"])


def agreement_matrix(pairwise: pd.DataFrame, judges: Sequence[str] | None = None) -> pd.DataFrame:
    """Return a square judge x judge table: upper triangle agreement %, lower triangle kappa."""
    if judges is None:
        judges = list(dict.fromkeys(list(pairwise["judge_a"]) + list(pairwise["judge_b"])))
    judges = [str(j) for j in judges]
    pos = {j: i for i, j in enumerate(judges)}
    mat = np.full((len(judges), len(judges)), np.nan)
    ia, ib = (pairwise[c].astype(str).map(pos) for c in ("judge_a", "judge_b"))
    ok = ia.notna() & ib.notna()  # pairs of the listed judges only
    lo, hi = np.minimum(ia[ok], ib[ok]).to_numpy(int), np.maximum(ia[ok], ib[ok]).to_numpy(int)
    mat[lo, hi] = pairwise["agreement_pct"][ok].to_numpy(float)
    mat[hi, lo] = pairwise["kappa"][ok].to_numpy(float)
    return pd.DataFrame(mat, index=pd.Index(judges, name="judge"), columns=judges)


def confusion(
    a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, normalize: bool = False
) -> pd.DataFrame:
    """Return the (L, L) confusion matrix of verdicts a (rows) and b (columns) over LABELS: counts, or % of N."""
    conf = _confusion_counts(_label_codes(a, LABELS), _label_codes(b, LABELS), len(LABELS))
    conf = conf.astype(float if normalize else np.int64)
    if normalize and conf.sum() > 0:
        conf = 100.0 * conf / conf.sum()
    return pd.DataFrame(conf, index=pd.Index(list(LABELS), name="a"), columns=pd.Index(list(LABELS), name="b"))


def offdiag_half_share(conf: pd.DataFrame | np.ndarray) -> float:
    """Return the share (0-1) of off-diagonal mass in which at least one verdict is 0.5 (labels: conf's or LABELS)."""
    c = np.asarray(conf, dtype=float)
    lab = np.asarray(list(conf.index) if isinstance(conf, pd.DataFrame) else LABELS, dtype=float)
    is_half = np.isclose(lab, 0.5)
    off = ~np.eye(len(lab), dtype=bool)
    involves = (is_half[:, None] | is_half[None, :]) & off
    total = c[off].sum()
    return float(c[involves].sum() / total) if total > 0 else np.nan


# ---- verdict scale (Appendix T, tab:abl-binary) --------------------------------------------------
# Two readings of App. T's binary collapse (docs/DECISIONS.md): the judge's 0.5 remapped to p's side ("judge"), or
# p collapsed too ("both"), as "always counted as correct" needs: p = 0.5 and a 0.5 verdict match 0.5 vs 1.
BINARY_READINGS: tuple[str, ...] = ("judge", "both")


def _side(p: np.ndarray) -> np.ndarray:
    """Return the binary side of programmatic scores: 0 below 0.5, else 1 (NaN stays NaN)."""
    return np.where(np.isnan(p), np.nan, np.where(p < 0.5, 0.0, 1.0))


def binary_collapse(
    llm_score: Sequence[float] | np.ndarray, p: Sequence[float] | np.ndarray, reading: str = "judge"
) -> np.ndarray:
    """Return verdicts with each 0.5 remapped to p's side (0 if p < 0.5 else 1); NaN stays NaN."""
    if reading not in BINARY_READINGS:
        raise ValueError(f"reading must be one of {BINARY_READINGS}, got {reading!r}")
    llm = np.asarray(llm_score, dtype=float)
    p = np.asarray(p, dtype=float)
    return np.where(np.isclose(llm, 0.5), _side(p), llm)


def binary_verdicts(verdicts: pd.DataFrame, reading: str = "judge") -> pd.DataFrame:
    """Return verdicts binary-collapsed, match recomputed against p (`reading='judge'`) or p's side ('both')."""
    out = verdicts.copy()
    p = out["p"].to_numpy(float, na_value=np.nan)
    out["llm_score"] = binary_collapse(out["llm_score"].to_numpy(float, na_value=np.nan), p, reading=reading)
    ref = _side(p) if reading == "both" else p
    if reading == "both":
        out["p"] = ref
    out["match"] = match(ref, out["llm_score"])
    return out


def half_rate(verdicts: pd.DataFrame, by: str | Sequence[str] = "judge") -> pd.Series:
    """Return the share (0-1) of non-null verdicts equal to 0.5 per judge (or per ``by``)."""
    by = _as_list(by)
    llm = verdicts["llm_score"].to_numpy(float, na_value=np.nan)
    half = verdicts[by].assign(half_rate=np.where(np.isnan(llm), np.nan, np.isclose(llm, 0.5).astype(float)))
    return half.groupby(by, observed=True, sort=True)["half_rate"].mean()
