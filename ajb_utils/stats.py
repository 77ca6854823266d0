"""Statistics for AgentJudgeBench: alignment (Eqs. 4-5), bootstrap CIs, agreement, juries.

Compute only: every function takes tidy frames or arrays and returns frames, series or numbers;
plotting lives in ``ajb_utils.figures``. The input is the ``verdicts`` long frame of
docs/DATA_FORMAT.md section 4 (one row per id, generator, difficulty, judge, condition, metric
with ``llm_score``, ``p`` and ``match``). Names may be categorical; every groupby uses
``observed=True``.

Missing verdicts. The paper's Eq. 4b averages the M = 4 per-metric matches of a record. A metric
whose verdict is missing (NaN ``llm_score``, or no row for that metric although the record has
rows for others) is handled by one of two rules, chosen with ``missing=``:

- ``"exclude"`` (default): the record's mu is the mean over the metrics it has;
- ``"miss"``: a missing verdict counts as a full miss (match 0) and mu = sum of matches / M, as
  the authors' code does.

A record with no row at all is never seen, so neither rule can count it.

Bootstrap. All intervals are percentile intervals. Every random function takes an explicit
``seed`` (int, SeedSequence or ``numpy.random.Generator``); ``None`` is refused so that a CI
never changes between runs. The bootstrap of a mean uses the *multinomial* form: resampling n
items with replacement is the same as drawing the counts of the distinct values from
Multinomial(n, empirical frequencies), and the resampled mean is the count-weighted mean of the
distinct values. This is exact (the same distribution as index resampling, not an
approximation) and costs O(K) per resample for K distinct values instead of O(n), which is what
makes CIs for all Table 2 cells fast. Values that occur fewer than 16 times in a group are
drawn by index instead (a multinomial category costs one binomial draw per resample); the
split keeps the exact multinomial distribution (see ``_group_sums``). A stratified bootstrap draws one multinomial per stratum
with the stratum's own size, so stratum sizes are kept in every resample.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy import stats as _sps

from ajb_utils.schema import DIFFICULTIES, METRICS

SeedLike = int | np.random.SeedSequence | np.random.Generator
Missing = Literal["exclude", "miss"]

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


# ---------------------------------------------------------------------------------------------
# alignment (Eqs. 4-5)
# ---------------------------------------------------------------------------------------------
def record_alignment(
    verdicts: pd.DataFrame,
    missing: Missing = "exclude",
    keys: Sequence[str] = RECORD_KEYS,
    n_metrics: int | None = None,
) -> pd.DataFrame:
    """Return record-level mu (Eq. 4b) per record: columns keys..., [dag_type], mu, n_verdicts.

    ``missing="exclude"`` averages the available per-metric matches; ``missing="miss"`` counts a
    missing verdict (NaN llm_score / absent metric row) as match 0 and divides by M, where M is
    ``n_metrics`` or else the number of distinct metrics in the frame (4 for the full frame).
    ``n_verdicts`` in the output is the number of non-missing metric verdicts of the record.
    Records with no available verdict are dropped under "exclude" (mu would be undefined).
    """
    if missing not in ("exclude", "miss"):
        raise ValueError(f"missing must be 'exclude' or 'miss', got {missing!r}")
    keys = list(keys) + [c for c in RECORD_EXTRAS if c in verdicts.columns and c not in keys]
    m = _match_values(verdicts)
    work = verdicts[keys].copy()
    work["_m"] = m
    g = work.groupby(keys, observed=True, sort=True)["_m"]
    out = g.agg(["sum", "count"])
    if missing == "exclude":
        out = out[out["count"] > 0]
        mu = out["sum"] / out["count"]
    else:
        big_m = n_metrics if n_metrics is not None else int(verdicts["metric"].nunique())
        mu = out["sum"] / big_m
    res = pd.DataFrame({"mu": mu.astype(float), "n_verdicts": out["count"].astype(np.int64)})
    return res.reset_index()


def align(
    verdicts: pd.DataFrame,
    by: Sequence[str] = CELL_KEYS,
    missing: Missing = "exclude",
) -> pd.DataFrame:
    """Return align (Eq. 5a, percent) per cell: columns by..., align, n (records per cell).

    ``verdicts`` may be the long verdicts frame (record mu computed first with ``missing``) or
    a record frame from :func:`record_alignment` (column ``mu``). Each record weighs 1.
    """
    by = _as_list(by)
    if _is_record_frame(verdicts):
        recs = verdicts
    else:
        extra = [c for c in by if c not in RECORD_KEYS]
        recs = record_alignment(verdicts, missing=missing, keys=list(RECORD_KEYS) + extra)
    out = recs.groupby(by, observed=True, sort=True)["mu"].agg(["mean", "size"])
    return pd.DataFrame({"align": 100.0 * out["mean"], "n": out["size"].astype(np.int64)}).reset_index()


def per_metric_align(
    verdicts: pd.DataFrame,
    by: Sequence[str] = CELL_KEYS,
    missing: Missing = "exclude",
) -> pd.DataFrame:
    """Return mean per-metric match x 100 per cell and metric: columns by..., metric, align, n.

    "exclude": mean over available verdicts (n = their count). "miss": sum of matches (NaN as 0)
    over the number of records in the cell that have any row, so that the mean over the four
    metrics equals :func:`align` with ``missing="miss"`` (n = that record count).
    """
    by = _as_list(by)
    cols = by + ["metric"]
    work = verdicts[cols].copy()
    work["_m"] = _match_values(verdicts)
    g = work.groupby(cols, observed=True, sort=True)["_m"]
    if missing == "exclude":
        out = g.agg(["mean", "count"])
        res = pd.DataFrame({"align": 100.0 * out["mean"], "n": out["count"].astype(np.int64)})
        return res[res["n"] > 0].reset_index()
    if missing != "miss":
        raise ValueError(f"missing must be 'exclude' or 'miss', got {missing!r}")
    num = g.sum(min_count=0).rename("num").reset_index()
    extra = [c for c in by if c not in RECORD_KEYS]
    recs = record_alignment(verdicts, missing="miss", keys=list(RECORD_KEYS) + extra)
    den = recs.groupby(by, observed=True, sort=True).size().rename("n").reset_index()
    res = num.merge(den, on=by, how="left")
    res["align"] = 100.0 * res["num"] / res["n"]
    return res[cols + ["align", "n"]]


def lift(
    cells: pd.DataFrame,
    with_cond: str = "with_gt",
    without_cond: str = "without_gt",
    by: str | Sequence[str] = "judge",
    over: Sequence[str] = ("generator", "difficulty"),
    value: str = "align",
) -> pd.Series:
    """Return GT lift (Eq. 5b) per judge: mean over (g, d) cells of align_with - align_without.

    Only cells present under both conditions enter the mean (a paired mean over cells).
    """
    by = _as_list(by)
    keys = by + list(over)
    sub = cells[cells["condition"].isin([with_cond, without_cond])]
    wide = sub.groupby(keys + ["condition"], observed=True)[value].mean().unstack("condition")
    diff = (wide[with_cond] - wide[without_cond]).dropna()
    res = diff.groupby(level=by, observed=True, sort=True).mean()
    res.name = "lift"
    return res


# ---------------------------------------------------------------------------------------------
# bootstrap
# ---------------------------------------------------------------------------------------------
# Values whose count in a (cell, stratum) group is below this are resampled by index (see
# _group_sums): a multinomial category costs about one binomial draw (~80 ns) per resample,
# an index draw a few ns per item, so rare values are cheaper by index. Both are exact.
_MIN_MULTINOMIAL_COUNT = 16


def _group_sums(
    counts: np.ndarray, values: np.ndarray, n_resamples: int, rng: np.random.Generator,
    min_count: int = _MIN_MULTINOMIAL_COUNT,
) -> np.ndarray:
    """Return resampled sums (n_resamples,) of a group given distinct values (K,) and counts (K,).

    Exact bootstrap of the sum of n = counts.sum() items drawn with replacement: split the
    values into frequent (count >= min_count) and rare ones; the number T of draws that land on
    rare items is Binomial(n, n_rare / n), the frequent counts are Multinomial(n - T, their
    frequencies), and the T rare draws are uniform over the rare items. This is the same joint
    distribution as Multinomial(n, counts / n), hence as index resampling.
    """
    n = int(counts.sum())
    sums = np.zeros(n_resamples)
    if counts.size == 1:  # one distinct value: every resample has the same sum
        return sums + n * values[0]
    head = counts >= min_count
    ch, vh = counts[head], values[head]
    rare = np.repeat(values[~head], counts[~head])  # the rare items, (m,)
    m = rare.size
    if m == 0:
        t = np.zeros(n_resamples, np.int64)
    elif m == n:
        t = np.full(n_resamples, n, np.int64)
    else:
        t = rng.binomial(n, m / n, size=n_resamples)
    if ch.size == 1:
        sums += (n - t) * vh[0]
    elif ch.size > 1:
        sums += rng.multinomial(n - t, ch / ch.sum()) @ vh  # (n_resamples, K_head) @ (K_head,)
    if m:
        draws = rare[rng.integers(0, m, size=int(t.sum()))]
        pos = t > 0
        starts = np.cumsum(t) - t
        sums[pos] += np.add.reduceat(draws, starts[pos]) if draws.size else 0.0
    return sums


def _cell_mean_draws(
    cell: np.ndarray,
    stratum: np.ndarray,
    values: np.ndarray,
    n_cells: int,
    n_resamples: int,
    rng: np.random.Generator,
    min_count: int = _MIN_MULTINOMIAL_COUNT,
) -> np.ndarray:
    """Return bootstrap means (n_cells, n_resamples), resampling within each (cell, stratum).

    cell, stratum: int codes (n,); values: float (n,), no NaN. One sort turns the rows into
    counts of distinct values per (cell, stratum) group; each group of size n_s then gets an
    exact count-based resample of its sum (:func:`_group_sums`), added to its cell's sum.
    """
    sums = np.zeros((n_cells, n_resamples))
    n_cell = np.bincount(cell, minlength=n_cells).astype(float)
    if values.size == 0:
        return np.full((n_cells, n_resamples), np.nan)
    order = np.lexsort((values, stratum, cell))
    c, s, v = cell[order], stratum[order], values[order]
    new_val = np.r_[True, (c[1:] != c[:-1]) | (s[1:] != s[:-1]) | (v[1:] != v[:-1])]
    starts = np.flatnonzero(new_val)
    counts = np.diff(np.r_[starts, v.size])
    uc, us, uv = c[starts], s[starts], v[starts]
    new_grp = np.r_[True, (uc[1:] != uc[:-1]) | (us[1:] != us[:-1])]
    g_starts = np.flatnonzero(new_grp)
    g_ends = np.r_[g_starts[1:], uc.size]
    # a loop over (cell, stratum) groups, never over rows
    for a, b in zip(g_starts.tolist(), g_ends.tolist()):
        sums[uc[a]] += _group_sums(counts[a:b], uv[a:b], n_resamples, rng, min_count)
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums / n_cell[:, None]


def _index_draws(
    values: np.ndarray, stratum: np.ndarray, n_resamples: int, rng: np.random.Generator
) -> np.ndarray:
    """Return resampled values (n_resamples, n) by index resampling within each stratum."""
    out = np.empty((n_resamples, values.size))
    pos = 0
    for s in np.unique(stratum):
        idx = np.flatnonzero(stratum == s)
        pick = rng.integers(0, idx.size, size=(n_resamples, idx.size))
        out[:, pos : pos + idx.size] = values[idx][pick]
        pos += idx.size
    return out


def bootstrap_ci(
    values: Sequence[float] | np.ndarray,
    strata: Sequence | np.ndarray | None = None,
    n_resamples: int = 2000,
    ci: float = 0.95,
    seed: SeedLike = 0,
    statistic: Callable[[np.ndarray], np.ndarray] | None = None,
) -> tuple[float, float, float]:
    """Return (estimate, lo, hi): percentile bootstrap CI of a statistic of values (n,).

    Default statistic: the mean, by the exact multinomial method (see module docstring).
    ``statistic`` maps resampled values (n_resamples, n) to (n_resamples,) along the last axis
    and is then bootstrapped by index resampling. ``strata`` (n,): resample within each stratum,
    keeping stratum sizes. NaN values are dropped (with their strata).
    """
    vals = np.asarray(values, dtype=float).ravel()
    strat = np.zeros(vals.size, np.int64) if strata is None else pd.factorize(np.asarray(strata))[0]
    keep = ~np.isnan(vals)
    vals, strat = vals[keep], strat[keep]
    if vals.size == 0:
        return (np.nan, np.nan, np.nan)
    rng = _rng(seed)
    lo_q, hi_q = _alpha(ci)
    if statistic is None:
        est = float(vals.mean())
        draws = _cell_mean_draws(np.zeros(vals.size, np.int64), strat, vals, 1, n_resamples, rng)[0]
    else:
        est = float(np.asarray(statistic(vals[None, :]))[0])
        draws = np.asarray(statistic(_index_draws(vals, strat, n_resamples, rng)), dtype=float)
    lo, hi = np.quantile(draws, [lo_q, hi_q])
    return est, float(lo), float(hi)


def bootstrap_cells(
    frame: pd.DataFrame,
    by: Sequence[str],
    value: str,
    strata: str | None = None,
    n_resamples: int = 2000,
    seed: SeedLike = 0,
    ci: float = 0.95,
    scale: float = 1.0,
) -> pd.DataFrame:
    """Return mean and percentile CI of ``value`` per cell: columns by..., mean, lo, hi, n.

    Vectorised: one pass sorts (cell, stratum, value) to counts of distinct values, then one
    exact multinomial draw (n_resamples, K) per (cell, stratum). Cells are drawn in sorted
    order from one Generator, so the result is deterministic for a seed. ``scale`` multiplies
    mean, lo and hi (100 for percent alignment from a record frame's ``mu``). NaN values are
    dropped.
    """
    by = _as_list(by)
    cols = by + ([strata] if strata else []) + [value]
    df = frame[cols]
    df = df[df[value].notna()]
    g = df.groupby(by, observed=True, sort=True)
    cell = g.ngroup().to_numpy(np.int64)
    keys = g.size().rename("n").reset_index()
    n_cells = len(keys)
    strat = pd.factorize(df[strata])[0].astype(np.int64) if strata else np.zeros(len(df), np.int64)
    vals = df[value].to_numpy(dtype=float)
    draws = _cell_mean_draws(cell, strat, vals, n_cells, n_resamples, _rng(seed))
    lo_q, hi_q = _alpha(ci)
    qs = np.quantile(draws, [lo_q, hi_q], axis=1) if n_cells else np.empty((2, 0))
    mean = np.bincount(cell, weights=vals, minlength=n_cells) / keys["n"].to_numpy(float)
    keys.insert(len(by), "mean", scale * mean)
    keys.insert(len(by) + 1, "lo", scale * qs[0])
    keys.insert(len(by) + 2, "hi", scale * qs[1])
    return keys


def bootstrap_diff_ci(
    frame: pd.DataFrame,
    a: str = "with_gt",
    b: str = "without_gt",
    by: str | Sequence[str] = "judge",
    cells: Sequence[str] = ("generator", "difficulty"),
    pair_on: Sequence[str] = ("id", "generator", "difficulty"),
    n_resamples: int = 2000,
    ci: float = 0.95,
    seed: SeedLike = 0,
    missing: Missing = "exclude",
    scale: float = 100.0,
) -> pd.DataFrame:
    """Return paired difference a - b of conditions with CI: columns by..., diff, lo, hi, n_pairs, n_cells.

    Records are paired on ``pair_on`` within ``by`` (records in both conditions only) and
    resampled jointly (paired) within each cell of ``cells``; the statistic is the mean over
    cells of each cell's mean paired difference, i.e. the GT lift of Eq. 5b on paired records
    (in percentage points with the default ``scale``). ``frame``: verdicts or a record frame.
    """
    by = _as_list(by)
    recs = frame if _is_record_frame(frame) else record_alignment(frame, missing=missing)
    idx = list(dict.fromkeys(by + list(cells) + list(pair_on)))
    sub = recs[recs["condition"].isin([a, b])]
    wide = sub.groupby(idx + ["condition"], observed=True)["mu"].first().unstack("condition")
    if a not in wide.columns or b not in wide.columns:
        return pd.DataFrame(columns=by + ["diff", "lo", "hi", "n_pairs", "n_cells"])
    diff = (wide[a] - wide[b]).dropna().rename("d").reset_index()
    cg = diff.groupby(by + list(cells), observed=True, sort=True)
    cell = cg.ngroup().to_numpy(np.int64)
    ckeys = cg.size().rename("n").reset_index()
    vals = diff["d"].to_numpy(float)
    draws = _cell_mean_draws(cell, np.zeros_like(cell), vals, len(ckeys), n_resamples, _rng(seed))
    ckeys["point"] = np.bincount(cell, weights=vals, minlength=len(ckeys)) / ckeys["n"]
    grp = ckeys.groupby(by, observed=True, sort=True).ngroup().to_numpy(np.int64)
    n_grp = int(grp.max()) + 1 if grp.size else 0
    n_c = np.bincount(grp, minlength=n_grp).astype(float)
    # mean over cells per group: (n_grp, n_cells) indicator / n_c @ draws
    agg = np.zeros((n_grp, n_resamples))
    np.add.at(agg, grp, draws)
    agg /= n_c[:, None]
    lo_q, hi_q = _alpha(ci)
    qs = np.quantile(agg, [lo_q, hi_q], axis=1) if n_grp else np.empty((2, 0))
    out = ckeys.groupby(by, observed=True, sort=True).agg(
        diff=("point", "mean"), n_pairs=("n", "sum"), n_cells=("n", "size")
    ).reset_index()
    out["diff"] *= scale
    out.insert(len(by) + 1, "lo", scale * qs[0])
    out.insert(len(by) + 2, "hi", scale * qs[1])
    return out


# ---------------------------------------------------------------------------------------------
# agreement between judges (RQ2, Table 3, Appendix T)
# ---------------------------------------------------------------------------------------------
def _confusion_counts(a: np.ndarray, b: np.ndarray, labels: Sequence[float]) -> np.ndarray:
    """Return confusion counts (L, L), rows = a; pairs with NaN / unknown labels are dropped."""
    ca, cb = _label_codes(a, labels), _label_codes(b, labels)
    ok = (ca >= 0) & (cb >= 0)
    k = len(labels)
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


def cohen_kappa(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    labels: Sequence[float] = LABELS,
) -> float:
    """Return unweighted Cohen's kappa of two verdict vectors (n,) over ``labels``."""
    return kappa_from_confusion(_confusion_counts(np.asarray(a), np.asarray(b), labels))


def exact_agreement(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Return the fraction (0-1) of pairs (n,) with equal verdicts, over pairs with no NaN."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    ok = ~(np.isnan(a) | np.isnan(b))
    if not ok.any():
        return np.nan
    return float(np.isclose(a[ok], b[ok]).mean())


def _wide_verdicts(
    verdicts: pd.DataFrame, condition: str, judges: Sequence[str] | None, keys: Sequence[str]
) -> pd.DataFrame:
    """Return llm_score pivoted to one column per judge (index = keys) for one condition."""
    sub = verdicts[verdicts["condition"] == condition]
    if judges is not None:
        sub = sub[sub["judge"].isin(list(judges))]
    wide = sub.groupby(list(keys) + ["judge"], observed=True)["llm_score"].first().unstack("judge")
    wide.columns = wide.columns.astype(str)
    if judges is not None:
        wide = wide.reindex(columns=[str(j) for j in judges])
    return wide


def pairwise_agreement(
    verdicts: pd.DataFrame,
    condition: str,
    judges: Sequence[str] | None = None,
    labels: Sequence[float] = LABELS,
    keys: Sequence[str] = PAIR_KEYS,
) -> pd.DataFrame:
    """Return per judge pair: judge_a, judge_b, agreement_pct, kappa, n (aligned on keys).

    Verdicts are pivoted to one column per judge on (id, generator, difficulty, metric); a pair
    uses the rows where both judges have a verdict among ``labels``. Pairs in ``judges`` order.
    """
    wide = _wide_verdicts(verdicts, condition, judges, keys)
    names = list(wide.columns)
    codes = np.column_stack([_label_codes(wide[j].to_numpy(float, na_value=np.nan), labels)
                             for j in names]) if names else np.empty((0, 0), np.int64)
    k = len(labels)
    rows = []
    for i, j in combinations(range(len(names)), 2):
        ca, cb = codes[:, i], codes[:, j]
        ok = (ca >= 0) & (cb >= 0)
        conf = np.bincount(ca[ok] * k + cb[ok], minlength=k * k).reshape(k, k)
        n = int(conf.sum())
        rows.append({
            "judge_a": names[i], "judge_b": names[j],
            "agreement_pct": 100.0 * np.trace(conf) / n if n else np.nan,
            "kappa": kappa_from_confusion(conf), "n": n,
        })
    return pd.DataFrame(rows, columns=["judge_a", "judge_b", "agreement_pct", "kappa", "n"])


def agreement_matrix(pairwise: pd.DataFrame, judges: Sequence[str] | None = None) -> pd.DataFrame:
    """Return a square judge x judge table: upper triangle agreement %, lower triangle kappa."""
    if judges is None:
        judges = list(dict.fromkeys(list(pairwise["judge_a"]) + list(pairwise["judge_b"])))
    judges = [str(j) for j in judges]
    pos = {j: i for i, j in enumerate(judges)}
    mat = np.full((len(judges), len(judges)), np.nan)
    ia = pairwise["judge_a"].astype(str).map(pos)
    ib = pairwise["judge_b"].astype(str).map(pos)
    ok = ia.notna() & ib.notna()
    ia, ib = ia[ok].to_numpy(int), ib[ok].to_numpy(int)
    agr, kap = pairwise["agreement_pct"][ok].to_numpy(float), pairwise["kappa"][ok].to_numpy(float)
    lo, hi = np.minimum(ia, ib), np.maximum(ia, ib)
    mat[lo, hi] = agr
    mat[hi, lo] = kap
    return pd.DataFrame(mat, index=pd.Index(judges, name="judge"), columns=judges)


def confusion(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    labels: Sequence[float] = LABELS,
    normalize: bool = False,
) -> pd.DataFrame:
    """Return the confusion matrix (L, L) of two verdict vectors: rows = a, columns = b.

    Counts, or shares in percent of N with ``normalize=True`` (as in tab:confusion-full).
    """
    conf = _confusion_counts(np.asarray(a), np.asarray(b), labels).astype(float if normalize else np.int64)
    if normalize and conf.sum() > 0:
        conf = 100.0 * conf / conf.sum()
    return pd.DataFrame(conf, index=pd.Index(list(labels), name="a"),
                        columns=pd.Index(list(labels), name="b"))


def offdiag_half_share(conf: pd.DataFrame | np.ndarray, labels: Sequence[float] = LABELS,
                       half: float = 0.5) -> float:
    """Return the share (0-1) of off-diagonal mass in which at least one verdict is ``half``."""
    c = np.asarray(conf, dtype=float)
    lab = np.asarray(list(conf.index) if isinstance(conf, pd.DataFrame) else labels, dtype=float)
    is_half = np.isclose(lab, half)
    off = ~np.eye(len(lab), dtype=bool)
    involves = (is_half[:, None] | is_half[None, :]) & off
    total = c[off].sum()
    return float(c[involves].sum() / total) if total > 0 else np.nan


# ---------------------------------------------------------------------------------------------
# verdict scale (Appendix T, tab:abl-binary)
# ---------------------------------------------------------------------------------------------
def binary_collapse(llm_score: Sequence[float] | np.ndarray, p: Sequence[float] | np.ndarray,
                    half: float = 0.5) -> np.ndarray:
    """Return verdicts (n,) with each 0.5 remapped to 0 if p < 0.5 else 1 (NaN stays NaN)."""
    llm = np.asarray(llm_score, dtype=float)
    p = np.asarray(p, dtype=float)
    is_half = np.isclose(llm, half)
    mapped = np.where(np.isnan(p), np.nan, np.where(p < 0.5, 0.0, 1.0))
    return np.where(is_half, mapped, llm)


def binary_verdicts(verdicts: pd.DataFrame) -> pd.DataFrame:
    """Return a copy of verdicts with llm_score binary-collapsed and match recomputed."""
    out = verdicts.copy()
    p = out["p"].to_numpy(float, na_value=np.nan)
    out["llm_score"] = binary_collapse(out["llm_score"].to_numpy(float, na_value=np.nan), p)
    out["match"] = 1.0 - np.abs(p - out["llm_score"].to_numpy(float))
    return out


def half_rate(verdicts: pd.DataFrame, by: str | Sequence[str] = "judge") -> pd.Series:
    """Return the share (0-1) of non-null verdicts equal to 0.5 per judge (or per ``by``)."""
    by = _as_list(by)
    llm = verdicts["llm_score"].to_numpy(float, na_value=np.nan)
    work = verdicts[by].copy()
    work["_h"] = np.where(np.isnan(llm), np.nan, np.isclose(llm, 0.5).astype(float))
    res = work.groupby(by, observed=True, sort=True)["_h"].mean()
    res.name = "half_rate"
    return res


# ---------------------------------------------------------------------------------------------
# rank correlation and ranking stability (§3.2, Appendix G Table 14, RQ2)
# ---------------------------------------------------------------------------------------------
def spearman(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """Return (rho, pvalue) of Spearman's rank correlation of x (n,) and y (n,) (scipy)."""
    res = _sps.spearmanr(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
    return float(res.statistic), float(res.pvalue)


def ranking_stability(
    per_metric_table: pd.DataFrame,
    weightings: Mapping[str, Mapping[str, float]] = PAPER_WEIGHTINGS,
    reference: str = "equal",
    value: str = "align",
) -> pd.DataFrame:
    """Return rows = weightings, columns = judges' weighted scores, then rho and pvalue vs reference.

    ``per_metric_table``: long (judge, metric, value[, other cell columns]) as from
    :func:`per_metric_align` -- cells are averaged first (unweighted) -- or wide (judges x
    metrics). A judge's score is sum_m w_m a_m / sum_m w_m (weights default to 1). rho is
    Spearman between the judges' scores under a weighting and under ``reference``.
    """
    if "metric" in per_metric_table.columns:
        wide = (per_metric_table.groupby(["judge", "metric"], observed=True)[value].mean()
                .unstack("metric"))
    else:
        wide = per_metric_table.copy()
    wide.columns = wide.columns.astype(str)
    metrics = [m for m in METRICS if m in wide.columns] + [m for m in wide.columns if m not in METRICS]
    a = wide[metrics].to_numpy(float)
    w = np.array([[weightings[name].get(m, 1.0) for m in metrics] for name in weightings])  # (W, M)
    scores = (a @ w.T) / w.sum(axis=1)  # (J, W)
    out = pd.DataFrame(scores.T, index=pd.Index(list(weightings), name="weighting"),
                       columns=[str(j) for j in wide.index])
    ref = out.loc[reference].to_numpy() if reference in out.index else None
    rp = [spearman(ref, row) if ref is not None else (np.nan, np.nan) for row in out.to_numpy()]
    out["rho"] = [r for r, _ in rp]
    out["pvalue"] = [pv for _, pv in rp]
    return out


# ---------------------------------------------------------------------------------------------
# juries (RQ2)
# ---------------------------------------------------------------------------------------------
def _jury(verdicts: pd.DataFrame, judges: Sequence[str], name: str, min_judges: int | None,
          reducer: Callable[[Any], pd.Series]) -> pd.DataFrame:
    """Return a pseudo-judge in the verdicts long format from a groupby reducer of llm_score."""
    judges = list(judges)
    sub = verdicts[verdicts["judge"].isin(judges) & verdicts["llm_score"].notna()]
    keys = list(JURY_KEYS) + [c for c in RECORD_EXTRAS if c in sub.columns]
    g = sub.groupby(keys, observed=True, sort=True)
    out = pd.DataFrame({"llm_score": reducer(g["llm_score"]).astype(float),
                        "p": g["p"].first().astype(float),
                        "n_judges": g["llm_score"].count().astype(np.int64)})
    if "p_published" in sub.columns:
        out["p_published"] = g["p_published"].first().astype(float)
    need = len(judges) if min_judges is None else min_judges
    out = out[out["n_judges"] >= need].reset_index()
    out["match"] = 1.0 - (out["p"] - out["llm_score"]).abs()
    if "p_published" in out.columns:
        out["match_published"] = 1.0 - (out["p_published"] - out["llm_score"]).abs()
    out.insert(3, "judge", pd.Categorical([name] * len(out)))
    return out


def soft_jury(verdicts: pd.DataFrame, judges: Sequence[str], name: str = "soft_jury",
              min_judges: int | None = None) -> pd.DataFrame:
    """Return the mean of the judges' llm_score per (id, generator, difficulty, condition, metric).

    Same long format as verdicts (judge = ``name``; match = 1 - |p - mean|; plus n_judges), so
    :func:`align` applies. Keeps keys with at least ``min_judges`` verdicts (default: all).
    """
    return _jury(verdicts, judges, name, min_judges, lambda s: s.mean())


def majority_jury(verdicts: pd.DataFrame, judges: Sequence[str], name: str = "majority_jury",
                  min_judges: int | None = None,
                  tie: Literal["midpoint", "lower", "higher"] = "midpoint") -> pd.DataFrame:
    """Return the median of the judges' llm_score per key, as :func:`soft_jury` does the mean.

    With an even number of judges the median of the two middle verdicts is their midpoint
    (e.g. 0.75) by default; ``tie="lower"``/``"higher"`` keeps a verdict in {0, 0.5, 1}.
    """
    return _jury(verdicts, judges, name, min_judges,
                 lambda s: s.quantile(0.5, interpolation=tie))


# ---------------------------------------------------------------------------------------------
# difficulty degradation (Finding 1, Appendix F)
# ---------------------------------------------------------------------------------------------
def monotone_pairs(
    align_table: pd.DataFrame,
    keys: Sequence[str] = ("generator", "judge", "condition"),
    value: str = "align",
    difficulties: Sequence[str] = DIFFICULTIES,
) -> pd.DataFrame:
    """Return per keys: one column per difficulty and ``monotone`` (strictly easy > medium > hard)."""
    keys = list(keys)
    wide = (align_table.groupby(keys + ["difficulty"], observed=True)[value].mean()
            .unstack("difficulty"))
    wide.columns = wide.columns.astype(str)
    wide = wide.reindex(columns=list(difficulties))
    a = wide.to_numpy(float)
    mono = np.all(a[:, :-1] > a[:, 1:], axis=1)  # NaN compares False
    wide["monotone"] = mono
    wide.columns.name = None
    return wide.reset_index()


def degradation_slopes(
    align_table: pd.DataFrame,
    by: str | Sequence[str] = "generator",
    conditions: Sequence[str] = ("with_gt", "without_gt"),
    value: str = "align",
    easy: str = "easy",
    hard: str = "hard",
) -> pd.DataFrame:
    """Return easy-to-hard drop (pp) per condition and ratio = drop[cond 2] / drop[cond 1].

    Rows: one per ``by`` group (alignment averaged over the other cells, e.g. judges) and a
    last row ``all`` averaged over everything; columns by..., drop_<condition>..., ratio.
    Finding 1's "1.5x" is the ratio without_gt / with_gt.
    """
    by = _as_list(by)
    sub = align_table[align_table["condition"].isin(list(conditions))
                      & align_table["difficulty"].isin([easy, hard])]

    def drops(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
        m = frame.groupby(keys + ["condition", "difficulty"], observed=True)[value].mean()
        m = m.unstack("difficulty")
        d = (m[easy] - m[hard]).unstack("condition") if keys else (m[easy] - m[hard]).to_frame().T
        d.columns = [f"drop_{c}" for c in d.columns.astype(str)]
        return d.reindex(columns=[f"drop_{c}" for c in conditions])

    per = drops(sub, by).reset_index() if by else pd.DataFrame()
    for c in by:
        per[c] = per[c].astype(str)
    m = sub.groupby(["condition", "difficulty"], observed=True)[value].mean().unstack("difficulty")
    tot = (m[easy] - m[hard])
    tot.index = tot.index.astype(str)
    total = pd.DataFrame([{**{c: "all" for c in by},
                           **{f"drop_{c}": tot.get(c, np.nan) for c in conditions}}])
    out = pd.concat([per, total], ignore_index=True) if by else total
    c1, c2 = (f"drop_{c}" for c in conditions[:2])
    out["ratio"] = out[c2] / out[c1]
    return out
