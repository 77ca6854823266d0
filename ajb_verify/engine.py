"""The claim engine: one verdict per claim of data/paper/claims.csv, by its kind and tolerance, and the
side-by-side comparison of reproduced and reported values (the paper's values: `ajb_utils.paper`)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ajb_utils import schema
from ajb_utils.paper import ABLATION_JUDGES, CLAIMS_FILE, _paper_dir, _read_csv

__all__ = [
    "claims",
    "compare",
    "KINDS",
    "INDISTINGUISHABLE",
    "MISSING_DATA",
    "CHECK_COLUMNS",
    "Verdict",
    "printed_decimals",
    "half_unit",
    "bound_slack",
    "accepted_interval",
    "printed_interval",
    "mean_interval",
    "spearman_tie_range",
    "claim",
    "verdict",
    "not_reproduced",
    "checks",
    "side_by_side",
]

_ORDER: dict[str, list[str]] = {
    "generator": schema.GENERATORS,
    "judge": schema.JUDGES + list(ABLATION_JUDGES),
    "judge_2": schema.JUDGES + list(ABLATION_JUDGES),
    "difficulty": schema.DIFFICULTIES,
    "condition": schema.CONDITIONS,
    "metric": schema.METRICS,
    "dag_type": schema.TOPOLOGIES,
}


def claims(paper_dir: Path | str | None = None, artifact: str | None = None) -> pd.DataFrame:
    """Return the named, checkable claims (claims.csv, plus `printed`: paper_value as printed).

    Optionally only those of one artifact."""
    path = _paper_dir(paper_dir) / CLAIMS_FILE
    raw = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""])
    df = _read_csv(path)
    df["printed"] = raw["paper_value"]  # the value as printed, for its precision
    df["printed_hi"] = raw["paper_value_hi"]  # a range's upper bound as printed
    if artifact is not None:
        df = df[df["artifact"] == artifact].reset_index(drop=True)
    return df


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
    """Return df sorted (stably) by the key columns in the paper's order (schema lists), others alphabetic."""

    def rank(col: pd.Series) -> pd.Series:
        """Return sortable text: a listed value by its place, then the others by name, a missing one first."""
        pos = {v: f"0{i:04d}" for i, v in enumerate(_ORDER.get(col.name, []))}
        listed = "1" if pos else "0"
        return col.map(lambda v: pos.get(v) or ("1" if _isnull(v) else listed + str(v)))

    return df.sort_values(on, key=rank, kind="stable").reset_index(drop=True) if len(df) else df


def compare(reproduced: pd.DataFrame, reported: pd.DataFrame, on: list[str], value: str = "value") -> pd.DataFrame:
    """Return on + [reproduced, reported, diff, source] (+ printed, the reported value as printed), an outer
    join in the paper's order: a row on one side only has NaN on the other."""
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
    printed = ["printed"] if rep_col == "value" and "printed" in reported.columns else []
    right = _keys_as_str(reported, on).reindex(columns=on + [rep_col, "source"] + printed)
    merged = left.merge(right.rename(columns={rep_col: "reported"}), on=on, how="outer", sort=False)
    for col in ("reproduced", "reported"):
        merged[col] = pd.to_numeric(merged[col], errors="coerce")
    merged["diff"] = merged["reproduced"] - merged["reported"]
    return _sort_paper_order(merged[on + ["reproduced", "reported", "diff", "source"] + printed], on)


# ---- the claim engine ------------------------------------------------------------------------
# One function family checks every claim of the paper. Each claim has ONE definition (its row of
# claims.csv: kind, paper value, tolerance, population) and gets ONE verdict for given data,
# wherever a notebook shows it. Kinds:
#   value  |r - v| <= half a unit of v's last printed digit + the stated tolerance
#   sign   sign(r) == sign(v) (0 never matches a signed claim); given a CI (`ci=`) that spans
#          0, the verdict is "indistinguishable" (neither holds nor fails: the data cannot tell)
#   order  a ranking or "best of": `expected` is max:<item>, min:<item>, lowest:<a>,<b> (the
#          k lowest are exactly these) or rank:<item>=<k>, checked on a Series of scores indexed by item
#          (ties share the best)
#   share  a count k of a population n, compared as k/n with the paper's v/N (N = population),
#          so it does not scale with corpus size; tolerance in percentage points
#   range  every reproduced value inside [lo, hi] +- tolerance (an open side is blank)
#   count  an exact count, only where the population is the paper's: a numeric population must
#          equal the reproduced one, and "corpus" counts are not compared on synthetic data
KINDS: tuple[str, ...] = ("value", "sign", "order", "share", "range", "count")


# The values of a checks table's `holds` column: yes, no, "indistinguishable" (a sign claim whose CI
# spans 0) and "n/a" (the data lack what the claim needs; the note says what is missing).
INDISTINGUISHABLE: str = "indistinguishable"


MISSING_DATA: str = "missing data: "  # how the note of an n/a verdict starts


CHECK_COLUMNS: list[str] = [
    "claim_id",
    "claim",
    "kind",
    "tolerance",
    "paper value",
    "reproduced value",
    "holds",
    "note",
]


@dataclass(frozen=True)
class Verdict:
    """One claim checked on one set of reproduced values: what was compared and whether it holds."""

    claim_id: str
    claim: str
    kind: str
    tolerance: str
    paper: str
    reproduced: str
    holds: bool | None
    note: str = ""
    state: str = ""  # "" (from holds) or INDISTINGUISHABLE

    @property
    def status(self) -> str:
        """Return the verdict as the `holds` column shows it: yes / no / indistinguishable / n/a."""
        return self.state or ("n/a" if self.holds is None else ("yes" if self.holds else "no"))

    def row(self) -> dict[str, Any]:
        """Return the verdict as a checks-table row (CHECK_COLUMNS)."""
        return dict(zip(CHECK_COLUMNS, (*astuple(self)[:6], self.status, self.note)))


def printed_decimals(value: float | str) -> int:
    """Return the decimals of a number as printed ('13.0' -> 1, '0.430' -> 3, '30' -> 0, '1,322' -> 0)."""
    s = str(value).strip().lstrip("+-").replace(",", "")
    if "e" in s.lower():
        s = f"{float(s):f}".rstrip("0")
    return len(s.split(".", 1)[1]) if "." in s else 0


def half_unit(value: float | str) -> float:
    """Return half a unit of the last printed digit of a number ('92.7' -> 0.05, '30' -> 0.5, '13.0' -> 0.05)."""
    return 0.5 * 10.0 ** (-printed_decimals(value))


def bound_slack(printed: Any) -> float:
    """Return how far a printed bound reaches beyond its value: half a unit of its last digit ('0.3' ->
    0.05, '1.0' -> 0.05, '77' -> 0.5); 0 for a bound of 0 (an identity or 'never exceeds', no digits
    printed) or a missing one."""
    if _isnull(printed) or str(printed).strip() == "":
        return 0.0
    return 0.0 if float(str(printed).replace(",", "")) == 0.0 else half_unit(printed)


def accepted_interval(claim_ref: str | Mapping[str, Any] | pd.Series) -> tuple[float, float]:
    """Return the interval of reproduced values a value or range claim accepts (one rule for every bound).

    A bound is compared at the precision the paper prints it (`bound_slack`: a value that prints as
    the paper prints it is inside), widened by the stated tolerance (for "roughly", never for
    rounding); a value claim is the point range [v, v]. An open side is infinite."""
    c = claim(claim_ref) if isinstance(claim_ref, str) else claim_ref
    kind = str(_get(c, "kind")).strip()
    if kind not in ("value", "range"):
        raise ValueError(
            f"claim {_get(c, 'claim_id')!r} is a {kind!r} claim; only value and range claims have an interval"
        )
    tol = _get(c, "tolerance")
    tol = 0.0 if _isnull(tol) else float(tol)
    v, hi = float(_get(c, "paper_value")), float(_get(c, "paper_value_hi"))
    p_lo, p_hi = _printed(c, "printed", v), _printed(c, "printed_hi", hi)
    if kind == "value":
        hi, p_hi = v, p_lo
    lo_b = -math.inf if math.isnan(v) else v - bound_slack(p_lo) - tol
    up_b = math.inf if math.isnan(hi) else hi + bound_slack(p_hi) + tol
    return (min(lo_b, up_b), max(lo_b, up_b))


def printed_interval(printed: Any) -> tuple[float, float]:
    """Return the unrounded values a printed number can stand for ('84.3' -> (84.25, 84.35))."""
    x, h = float(str(printed).replace(",", "")), half_unit(printed)
    return (x - h, x + h)


def mean_interval(printed: Iterable[Any]) -> tuple[float, float]:
    """Return the interval of the mean of unrounded values consistent with printed numbers."""
    lo_hi = np.array([printed_interval(p) for p in printed], dtype=float)
    return (float(lo_hi[:, 0].mean()), float(lo_hi[:, 1].mean()))


def _tie_breaks(x: np.ndarray, limit: int) -> np.ndarray:
    """Return every ordinal ranking (rows, 1-based) consistent with x's values, ties broken every way."""
    import itertools

    groups = [np.flatnonzero(x == v) for v in np.unique(x)]
    base = np.argsort(np.argsort(x, kind="stable"), kind="stable")  # 0-based ranks, ties by position
    perms = [list(itertools.permutations(g)) for g in groups]
    if int(np.prod([len(p) for p in perms])) > limit:
        raise ValueError(f"more than {limit} ways to break the ties of {len(x)} values")
    rows = []
    for choice in itertools.product(*perms):
        r = base.copy()
        for g, order in zip(groups, choice):
            r[list(order)] = np.sort(base[g])
        rows.append(r + 1)
    return np.array(rows, dtype=float)


def spearman_tie_range(
    x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray, limit: int = 100_000
) -> tuple[float, float]:
    """Return (min, max) of Spearman's rho over every way to break the ties of x and y."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    rx, ry = _tie_breaks(x, limit), _tie_breaks(y, limit)
    n = len(x)
    d2 = ((rx[:, None, :] - ry[None, :, :]) ** 2).sum(axis=2)
    rho = 1.0 - 6.0 * d2 / (n * (n * n - 1))
    return float(rho.min()), float(rho.max())


def claim(claim_id: str, paper_dir: Path | str | None = None) -> pd.Series:
    """Return one claim's definition (its claims.csv row) by id."""
    cl = claims(paper_dir)
    hit = cl[cl["claim_id"] == claim_id]
    if hit.empty:
        raise KeyError(f"unknown claim_id {claim_id!r}; see data/paper/claims.csv")
    return hit.iloc[0]


def _fmt(x: float) -> str:
    """Return a number as the paper would print it (no trailing zeros)."""
    return "" if _isnull(x) else f"{x:,.4f}".rstrip("0").rstrip(".").replace(",", "")


def _printed(c: Mapping[str, Any], key: str, value: float) -> str:
    """Return a claim's bound as printed (its `printed` or `printed_hi` text), else its value formatted."""
    text = _get(c, key)
    return text if isinstance(text, str) else _fmt(value)


def _paper_text(c: Mapping[str, Any]) -> str:
    """Return the claim's paper value as a reader sees it ('77-82', '>= 0.83', '30/30', ...)."""
    kind = str(c["kind"])
    v, hi = _get(c, "paper_value"), _get(c, "paper_value_hi")
    if kind == "order":
        return str(_get(c, "expected"))
    if kind == "range":
        lo_s, hi_s = _printed(c, "printed", v), _fmt(hi)
        if lo_s and hi_s:
            return lo_s if float(v) == float(hi) else f"{lo_s}-{hi_s}"  # a point band: its tolerance says how wide
        return f">= {lo_s}" if lo_s else f"<= {hi_s}"
    if kind == "share":
        pop = float(_get(c, "population"))
        return f"{_fmt(v)}/{_fmt(pop)} ({100 * v / pop:.1f}%)"
    return _printed(c, "printed", v)


def _tolerance_text(c: Mapping[str, Any]) -> str:
    """Return the tolerance a verdict applies, in words short enough for a table column."""
    kind = str(c["kind"])
    tol = _get(c, "tolerance")
    tol = 0.0 if _isnull(tol) else float(tol)
    unit = str(_get(c, "unit")) if not _isnull(_get(c, "unit")) else ""
    if kind == "value":
        hu = half_unit(_get(c, "printed") if isinstance(_get(c, "printed"), str) else c["paper_value"])
        return f"±{_fmt(hu)} (printed)" + (f" + {_fmt(tol)}" if tol else "") + (f" {unit}" if unit else "")
    if kind == "range":
        slack = "printed precision" if any(bound_slack(_get(c, k)) for k in ("printed", "printed_hi")) else ""
        extra = f"±{_fmt(tol)} {unit}".strip() if tol else ""
        return " + ".join(x for x in (slack, extra) if x) or "none"
    if kind == "share":
        return f"±{_fmt(tol)} pp of share" if tol else "exact share"
    if kind == "count":
        return f"±{_fmt(tol)}" if tol else "exact"
    if kind == "order":
        return "ties share the best"
    return "sign only"


def _scores(reproduced: Any) -> pd.Series:
    """Return an order claim's reproduced scores as a float Series indexed by item."""
    if isinstance(reproduced, pd.Series):
        return reproduced.astype(float)
    if isinstance(reproduced, Mapping):
        return pd.Series(dict(reproduced), dtype=float)
    raise TypeError("an 'order' claim needs a Series or mapping of scores indexed by item")


def _check_order(spec: str, s: pd.Series) -> tuple[bool | None, str]:
    """Return (holds, reproduced text) for an order spec on scores (higher = better)."""
    s = s.dropna()
    if s.empty:
        return None, "no scores"
    how, _, arg = spec.partition(":")
    if how in ("max", "min"):
        best = s.max() if how == "max" else s.min()
        tops = [str(i) for i in s.index[np.isclose(s.to_numpy(), best, rtol=0, atol=1e-12)]]
        return arg in tops, f"{how}: {', '.join(tops)} ({_fmt(round(best, 4))})"
    if how == "lowest":
        want = set(arg.split(","))
        low = set(map(str, s.nsmallest(len(want)).index))
        return low == want, "lowest: " + ", ".join(f"{i} {_fmt(round(s[i], 2))}" for i in s.nsmallest(len(want)).index)
    if how == "rank":
        item, _, k = arg.partition("=")
        if item not in s.index:
            return None, f"{item} absent"
        rank = int(s.rank(ascending=False, method="min")[item])
        return rank == int(k), f"rank {rank} of {len(s)}"
    raise ValueError(f"unknown order spec {spec!r}; use max:, min:, lowest:a,b or rank:<item>=<k>")


def _as_share(reproduced: Any) -> tuple[float, float]:
    """Return (k, n) from a (k, n) pair or an iterable of booleans."""
    if isinstance(reproduced, tuple) and len(reproduced) == 2:
        return float(reproduced[0]), float(reproduced[1])
    vals = np.asarray(list(reproduced), dtype=bool)
    return float(vals.sum()), float(vals.size)


def _spans_zero(ci: Any) -> list[bool]:
    """Return, per (lo, hi) interval of `ci` (one pair or a list of pairs), whether it contains 0."""
    pairs = [ci] if len(ci) == 2 and not isinstance(ci[0], (tuple, list, np.ndarray)) else list(ci)
    return [bool(float(lo) <= 0.0 <= float(hi)) for lo, hi in pairs]


def verdict(
    claim_ref: str | Mapping[str, Any] | pd.Series,
    reproduced: Any,
    *,
    shown: str | None = None,
    note: str = "",
    population: float | None = None,
    full_data: bool = True,
    ci: Any = None,
) -> Verdict:
    """Return the Verdict of one claim (a claim_id or its row) on reproduced values.

    `shown` replaces the reproduced-value text; `population` is the reproduced population of a
    count claim; `full_data=False` (the synthetic sample) leaves corpus-sized counts uncompared;
    `ci` is a (lo, hi) interval (or one per value) of a sign claim: if any spans 0 the verdict
    is "indistinguishable" instead of yes or no.
    """
    c = claim(claim_ref) if isinstance(claim_ref, str) else claim_ref
    kind = str(_get(c, "kind")).strip()
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {KINDS}")
    v = float(_get(c, "paper_value"))
    tol = _get(c, "tolerance")
    tol = 0.0 if _isnull(tol) else float(tol)
    eps = 1e-9
    holds: bool | None
    text, state = "", ""
    if kind == "order":
        holds, text = _check_order(str(_get(c, "expected")), _scores(reproduced))
        if holds is None:
            note = _join(note, MISSING_DATA + text)
    elif kind == "share":
        k, n = _as_share(reproduced)
        pop = float(_get(c, "population"))
        if n == 0:
            holds, text, note = None, "0/0", _join(note, MISSING_DATA + "an empty population (0/0)")
        else:
            holds = abs(100 * k / n - 100 * v / pop) <= tol + eps
            text = f"{_fmt(k)}/{_fmt(n)} ({100 * k / n:.1f}%)"
    elif kind == "count":
        if (
            isinstance(reproduced, (list, np.ndarray, pd.Series))
            and len(reproduced)
            and all(isinstance(b, (bool, np.bool_)) for b in reproduced)
        ):
            reproduced = int(sum(bool(b) for b in reproduced))
        rs = _as_values(reproduced)
        if len(rs) != 1:
            raise ValueError("a 'count' claim needs one number or an iterable of bools")
        r = rs[0]
        text = "n/a" if math.isnan(r) else _fmt(r)
        pop = _get(c, "population")
        if math.isnan(r):
            holds = False
        elif str(pop) == "corpus" and not full_data:
            holds = None
            note = _join(note, "synthetic sample: the corpus is not the paper's, so its counts are not compared")
        elif not _isnull(pop) and str(pop) != "corpus" and population is not None and float(population) != float(pop):
            holds = None
            why = f"the paper's population of {_fmt(float(pop))} (here {_fmt(population)}): count not compared"
            note = _join(note, MISSING_DATA + why)
        else:
            holds = abs(round(r) - v) <= tol + eps
    else:
        rs = _as_values(reproduced)
        text = ", ".join("n/a" if math.isnan(r) else _fmt(round(r, 4)) for r in rs)
        if not rs:
            holds, text, note = None, "not reproduced", _join(note, MISSING_DATA + "nothing to compare on this data")
        elif any(math.isnan(r) for r in rs):
            holds = False
        elif kind in ("value", "range"):
            lo, up = accepted_interval(c)
            holds = all(lo - eps <= r <= up + eps for r in rs)
        else:  # sign
            holds = all(np.sign(r) == np.sign(v) and abs(r) > eps for r in rs)
            if ci is not None and any(_spans_zero(ci)):
                holds, state = None, INDISTINGUISHABLE
                note = _join(note, "95% CI spans 0: sign indistinguishable from 0")
    return _verdict_of(c, shown if shown is not None else text, holds, note, state)


def not_reproduced(claim_ref: str | Mapping[str, Any] | pd.Series, why: str) -> Verdict:
    """Return the n/a Verdict of a claim this data cannot test (e.g. an ablation without runs): never 'yes'.

    `why` names the data that are missing; the note starts with MISSING_DATA."""
    c = claim(claim_ref) if isinstance(claim_ref, str) else claim_ref
    return _verdict_of(c, "not reproduced", None, why if why.startswith(MISSING_DATA) else MISSING_DATA + why)


def _verdict_of(c: Mapping[str, Any], shown: str, holds: bool | None, note: str, state: str = "") -> Verdict:
    """Return the Verdict of claim row `c`: its tolerance and paper value as a reader sees them, and the result."""
    head = (str(_get(c, "claim_id")), str(_get(c, "description")), str(_get(c, "kind")).strip())
    return Verdict(*head, _tolerance_text(c), _paper_text(c), shown, holds, note, state)


def _join(a: str, b: str) -> str:
    """Return two notes joined by '; ' (either may be empty)."""
    return "; ".join(x for x in (a, b) if x)


def checks(verdicts: Iterable[Verdict]) -> pd.DataFrame:
    """Return the checks table of verdicts: claim_id, claim, kind, tolerance, paper value,
    reproduced value, holds (yes / no / n/a), note. The only way a `holds` column is made."""
    rows = []
    for vd in verdicts:
        if not isinstance(vd, Verdict):
            raise TypeError(f"checks() takes Verdicts from claims.verdict(), got {type(vd).__name__}")
        rows.append(vd.row())
    return pd.DataFrame(rows, columns=CHECK_COLUMNS)


def _decimals(x: float) -> int:
    """Return the number of decimals of a transcribed value (trailing zeros of a float are lost)."""
    if _isnull(x):
        return 0
    s = f"{float(x):.6f}".rstrip("0")
    return len(s.split(".", 1)[1]) if "." in s else 0


def side_by_side(cmp: pd.DataFrame, tolerance: float = 0.0) -> pd.DataFrame:
    """Return a `compare` result as keys | reported | reproduced | difference | tolerance | within.

    The tolerance of a row is half a unit of the last digit of its reported value as printed
    (the ``printed`` column `compare` carries from the transcription: "13.0" -> 0.05, "0.430"
    -> 0.0005; without it, the most decimals among rows of the same `stat`) plus the stated
    `tolerance`; `within` is yes / no, or n/a when either side is missing. A row whose
    ``same_item`` column says "no" (e.g. a decision-guide slot held by another judge than the
    paper's) is never within tolerance, whatever its difference.
    """
    keys = [c for c in cmp.columns if c not in ("reproduced", "reported", "diff", "source", "printed")]
    rep = cmp["reported"]
    if "printed" in cmp.columns:  # the source's own text: "13.0" has one decimal, "0.430" three
        dec = cmp["printed"].map(lambda t: printed_decimals(t) if isinstance(t, str) else 0)
    else:  # no printed text: the most decimals among rows of the same stat (zeros are lost)
        dec = rep.map(_decimals)
        if "stat" in cmp.columns:
            dec = dec.groupby(cmp["stat"].fillna("")).transform("max")
        else:
            dec = pd.Series(dec.max() if len(dec) else 0, index=cmp.index)
    tol = 0.5 * 10.0 ** (-dec.astype(float)) + float(tolerance)
    ok = cmp["diff"].abs() <= tol + 1e-9
    if "same_item" in cmp.columns:
        ok = ok & (cmp["same_item"].astype(str) != "no")
    within = np.where(cmp["diff"].isna(), "n/a", np.where(ok, "yes", "no"))
    return cmp[keys].assign(
        reported=rep, reproduced=cmp["reproduced"], difference=cmp["diff"], tolerance=tol.round(6), within=within
    )


def _as_values(x: Any) -> list[float]:
    """Return a scalar or an iterable of numbers/bools as a flat list of floats."""
    if isinstance(x, (pd.Series, pd.Index, np.ndarray, list, tuple)) or (
        isinstance(x, Iterable) and not isinstance(x, (str, bytes, Mapping))
    ):
        return [float(v) for v in np.asarray(list(x), dtype=float).ravel()]
    return [float(x)]


def _get(row: Mapping[str, Any] | pd.Series, key: str) -> Any:
    """Return row[key], or NaN when absent/empty."""
    try:
        v = row[key]
    except (KeyError, IndexError):
        return math.nan
    return math.nan if _isnull(v) or v == "" else v
