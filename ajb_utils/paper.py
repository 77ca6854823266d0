"""The paper's reported values (data/paper/*.csv) and side-by-side comparison with reproductions.

Files are named ``<ID>[-<ID>...]_<topic>.csv`` with artifact IDs from shared/ARTIFACTS.md
(arXiv v1 numbering: T02 = Table 2, F08 = Figure 8, ...). Each holds tidy long-format rows:
the dimension columns that apply (generator, judge, judge_2, difficulty, condition, metric,
dag_type, variant, stat), then ``value``, ``unit``, ``source`` and ``note``. Named claims
(Findings 1-3, C-W, C-J, the X1 audit, prose numbers) are rows of ``claims.csv``.
These are the paper's REPORTED values, not reproduced ones; see data/paper/README.md.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ajb_utils import schema
from ajb_utils.paths import PAPER_DIR

DIMENSIONS: list[str] = [
    "generator", "judge", "judge_2", "difficulty", "condition", "metric", "dag_type", "variant",
    "stat",
]
VALUE_COLUMNS: list[str] = ["value", "unit", "source", "note"]
CLAIM_COLUMNS: list[str] = [
    "claim_id", "artifact", "description", "paper_value", "paper_value_hi", "unit",
    "comparison", "tolerance", "source", "note",
]
COMPARISONS: tuple[str, ...] = ("eq", ">=", "<=", "between", "sign", "count")
# Judges of the paper's ablations that are not released configs (RQ4/RQ6 use Qwen3-32B as judge).
ABLATION_JUDGES: dict[str, str] = {"judge_qwen3_32b": "Qwen3-32B (ablation judge, RQ4/RQ6)"}
CLAIMS_FILE: str = "claims.csv"

_ORDER: dict[str, list[str]] = {
    "generator": schema.GENERATORS,
    "judge": schema.JUDGES + list(ABLATION_JUDGES),
    "judge_2": schema.JUDGES + list(ABLATION_JUDGES),
    "difficulty": schema.DIFFICULTIES,
    "condition": schema.CONDITIONS,
    "metric": schema.METRICS,
    "dag_type": schema.TOPOLOGIES,
}
_ID_RE = re.compile(r"^[A-Z][A-Za-z]*[0-9]*$")


def _paper_dir(paper_dir: Path | str | None) -> Path:
    """Return the folder holding the reported-value CSVs."""
    return Path(paper_dir) if paper_dir is not None else PAPER_DIR


def _file_ids(path: Path) -> list[str]:
    """Return the artifact IDs encoded in a file name (``T07-F06_dag_counts.csv`` -> [T07, F06])."""
    return path.stem.split("_", 1)[0].split("-")


def _artifact_files(paper_dir: Path | str | None = None) -> dict[str, Path]:
    """Return {artifact ID: CSV path} for every reported-value file (claims.csv excluded)."""
    out: dict[str, Path] = {}
    for p in sorted(_paper_dir(paper_dir).glob("*.csv")):
        if p.name == CLAIMS_FILE:
            continue
        for aid in _file_ids(p):
            if _ID_RE.match(aid):
                out[aid] = p
    return out


def _normalise_id(artifact: str) -> str:
    """Return an artifact ID in file spelling ('t2' -> 'T02', 'T02_main' -> 'T02')."""
    a = artifact.strip().split("_", 1)[0].upper()
    m = re.fullmatch(r"([TF])(\d{1,2})", a)
    return f"{m.group(1)}{int(m.group(2)):02d}" if m else a


def _read_csv(path: Path) -> pd.DataFrame:
    """Return a reported-value CSV with string dimensions (missing -> NaN) and float values."""
    df = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""])
    for col in ("value", "paper_value", "paper_value_hi", "tolerance"):
        if col in df.columns:
            df[col] = pd.to_numeric(df[col])
    return df


def reported(artifact: str, paper_dir: Path | str | None = None) -> pd.DataFrame:
    """Return the paper's reported values for one artifact ID (e.g. "T02", "F08", "T26")."""
    files = _artifact_files(paper_dir)
    aid = _normalise_id(artifact)
    if aid not in files:
        claim_ids = sorted(set(claims(paper_dir)["artifact"]) - set(files))
        raise KeyError(
            f"no reported values for artifact {artifact!r}. Available table/figure IDs: "
            f"{', '.join(sorted(files))}. Claim-only artifacts (use claims(artifact=...)): "
            f"{', '.join(claim_ids)}."
        )
    df = _read_csv(files[aid])
    df.attrs["artifact"] = aid
    df.attrs["path"] = files[aid].name
    return df


def claims(paper_dir: Path | str | None = None, artifact: str | None = None) -> pd.DataFrame:
    """Return the named, checkable claims (claims.csv), optionally only those of one artifact."""
    df = _read_csv(_paper_dir(paper_dir) / CLAIMS_FILE)
    if artifact is not None:
        df = df[df["artifact"] == artifact].reset_index(drop=True)
    return df


def list_artifacts(paper_dir: Path | str | None = None) -> pd.DataFrame:
    """Return one row per artifact ID: file, topic, number of reported rows and of claims."""
    files = _artifact_files(paper_dir)
    cl = claims(paper_dir)
    n_claims = cl.groupby("artifact").size().to_dict()
    rows = []
    for aid, path in files.items():
        rows.append({"artifact": aid, "file": path.name, "topic": path.stem.split("_", 1)[1],
                     "n_rows": len(_read_csv(path)), "n_claims": int(n_claims.get(aid, 0))})
    for aid in sorted(set(n_claims) - set(files)):
        rows.append({"artifact": aid, "file": "", "topic": "claims only", "n_rows": 0,
                     "n_claims": int(n_claims[aid])})
    return pd.DataFrame(rows, columns=["artifact", "file", "topic", "n_rows", "n_claims"])


def _keys_as_str(df: pd.DataFrame, on: list[str]) -> pd.DataFrame:
    """Return a copy whose key columns hold plain strings (NaN kept) so categoricals join cleanly."""
    out = df.copy()
    for c in on:
        out[c] = out[c].astype(object).map(lambda x: np.nan if _isnull(x) else str(x))
    return out


def _isnull(x: Any) -> bool:
    """Return True for None / NaN / pd.NA."""
    try:
        return bool(pd.isna(x))
    except (TypeError, ValueError):
        return False


def _sort_paper_order(df: pd.DataFrame, on: list[str]) -> pd.DataFrame:
    """Return df sorted by the key columns in the paper's order (schema lists), others alphabetic."""
    if df.empty:
        return df
    keys = []
    for c in on:
        order = _ORDER.get(c)
        if order:
            rank = {v: i for i, v in enumerate(order)}
            keys.append(df[c].map(lambda v, r=rank: (0, r[v], "") if v in r else
                                  (1, 0, "" if _isnull(v) else str(v))))
        else:
            keys.append(df[c].map(lambda v: (1 if _isnull(v) else 0, "" if _isnull(v) else str(v))))
    order_idx = sorted(range(len(df)), key=lambda i: tuple(k.iloc[i] for k in keys))
    return df.iloc[order_idx].reset_index(drop=True)


def compare(reproduced: pd.DataFrame, reported: pd.DataFrame, on: list[str],
            value: str = "value") -> pd.DataFrame:
    """Return on + [reproduced, reported, diff, source] (outer join; attrs['unmatched'] counts misses)."""
    on = list(on)
    for name, frame in (("reproduced", reproduced), ("reported", reported)):
        missing = [c for c in on if c not in frame.columns]
        if missing:
            raise KeyError(f"{name} frame lacks key column(s) {missing}; it has {list(frame.columns)}")
    if value not in reproduced.columns:
        raise KeyError(f"reproduced frame lacks value column {value!r}")
    rep_col = value if value in reported.columns else "value"
    if rep_col not in reported.columns:
        raise KeyError(f"reported frame lacks value column {value!r} (and 'value')")
    left = _keys_as_str(reproduced, on)[on + [value]].rename(columns={value: "reproduced"})
    right_cols = on + [rep_col] + (["source"] if "source" in reported.columns else [])
    right = _keys_as_str(reported, on)[right_cols].rename(columns={rep_col: "reported"})
    if "source" not in right.columns:
        right["source"] = np.nan
    merged = left.merge(right, on=on, how="outer", indicator=True, sort=False)
    merged["reproduced"] = pd.to_numeric(merged["reproduced"], errors="coerce")
    merged["reported"] = pd.to_numeric(merged["reported"], errors="coerce")
    merged["diff"] = merged["reproduced"] - merged["reported"]
    n_left = int((merged["_merge"] == "left_only").sum())
    n_right = int((merged["_merge"] == "right_only").sum())
    out = _sort_paper_order(merged[on + ["reproduced", "reported", "diff", "source"]], on)
    out.attrs = {}
    out.attrs["unmatched"] = n_left + n_right
    out.attrs["unmatched_reproduced"] = n_left
    out.attrs["unmatched_reported"] = n_right
    return out


def _as_values(x: Any) -> list[float]:
    """Return a scalar or an iterable of numbers/bools as a flat list of floats."""
    if isinstance(x, (pd.Series, pd.Index, np.ndarray, list, tuple)) or (
            isinstance(x, Iterable) and not isinstance(x, (str, bytes, Mapping))):
        return [float(v) for v in np.asarray(list(x), dtype=float).ravel()]
    return [float(x)]


def _get(row: Mapping[str, Any] | pd.Series, key: str) -> Any:
    """Return row[key], or NaN when absent/empty."""
    try:
        v = row[key]
    except (KeyError, IndexError):
        return math.nan
    return math.nan if _isnull(v) or v == "" else v


def check_claim(claim_row: Mapping[str, Any] | pd.Series | str, reproduced_value: Any) -> bool:
    """Return True when the reproduced value satisfies the claim's comparison within tolerance.

    Kinds: eq (|r - v| <= tol), >= (r >= v - tol), <= (r <= v + tol), between (v - tol <= r <=
    hi + tol), sign (sign(r) == sign(v); |r| <= tol when v == 0), count (round(r) equals v within
    tol; an iterable of bools is summed first). For eq/>=/<=/between/sign an iterable must hold
    for every element. NaN reproduced values never satisfy a claim. A str is a claim_id.
    """
    if isinstance(claim_row, str):
        cl = claims()
        hit = cl[cl["claim_id"] == claim_row]
        if hit.empty:
            raise KeyError(f"unknown claim_id {claim_row!r}")
        claim_row = hit.iloc[0]
    kind = str(_get(claim_row, "comparison")).strip()
    if kind not in COMPARISONS:
        raise ValueError(f"unknown comparison {kind!r}; expected one of {COMPARISONS}")
    v = float(_get(claim_row, "paper_value"))
    hi = float(_get(claim_row, "paper_value_hi"))
    tol = _get(claim_row, "tolerance")
    tol = 0.0 if _isnull(tol) else float(tol)
    eps = 1e-9
    if kind == "count":
        vals = list(reproduced_value) if isinstance(reproduced_value, (list, tuple, np.ndarray,
                                                                      pd.Series)) else None
        if vals is not None and all(isinstance(b, (bool, np.bool_)) for b in vals):
            r = float(sum(bool(b) for b in vals))
        else:
            rs = _as_values(reproduced_value)
            if len(rs) != 1:
                raise ValueError("a 'count' claim needs one number or an iterable of bools")
            r = rs[0]
        if math.isnan(r):
            return False
        return abs(round(r) - v) <= tol + eps
    rs = _as_values(reproduced_value)
    if not rs or any(math.isnan(r) for r in rs):
        return False
    if kind == "eq":
        return all(abs(r - v) <= tol + eps for r in rs)
    if kind == ">=":
        return all(r >= v - tol - eps for r in rs)
    if kind == "<=":
        return all(r <= v + tol + eps for r in rs)
    if kind == "between":
        if math.isnan(hi):
            raise ValueError("a 'between' claim needs paper_value_hi")
        lo, up = min(v, hi), max(v, hi)
        return all(lo - tol - eps <= r <= up + tol + eps for r in rs)
    # sign
    if v == 0:
        return all(abs(r) <= tol + eps for r in rs)
    return all(np.sign(r) == np.sign(v) and abs(r) > eps for r in rs)
