"""Seeded percentile bootstrap CIs of cell means (exact multinomial, stratified) and of paired differences."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd

from ajb_utils.stats.alignment import record_alignment
from ajb_utils.stats.frames import (
    PAPER_MISSING,
    Missing,
    SeedLike,
    _alpha,
    _as_list,
    _group_index,
    _is_record_frame,
    _require_unique,
    _rng,
)

# ---------------------------------------------------------------------------------------------
# bootstrap
# ---------------------------------------------------------------------------------------------
# Values whose count in a (cell, stratum) group is below this are resampled by index (see
# _group_sums): a multinomial category costs about one binomial draw (~80 ns) per resample,
# an index draw a few ns per item (half that in pairs), so rare values are cheaper by index.
# Both are exact; 32 (with pairs up to 512 items) was the fastest of a grid on the full-scale
# Table 2 (docs/PERFORMANCE.md).
_MIN_MULTINOMIAL_COUNT = 32


def cell_seed(seed: SeedLike, names: Sequence[str], key: Sequence[object]) -> np.random.SeedSequence:
    """Return the SeedSequence of one cell: entropy from ``seed`` and a stable hash of its key.

    The hash (blake2b of the key's ``name=str(value)`` pairs) does not depend on the process,
    the platform or on which other cells exist, so a cell's resamples depend on the seed and on
    that cell's own rows only.
    """
    return np.random.SeedSequence([*_base_entropy(seed), _key_hash(names, key)])


def _base_entropy(seed: SeedLike) -> list[int]:
    """Return the non-negative integers a seed contributes to every cell's SeedSequence.

    An int is used as is; a SeedSequence gives its generated state; a Generator gives two
    draws (so a Generator is advanced once per call, not once per cell).
    """
    if seed is None:
        raise ValueError("pass an explicit seed or numpy.random.Generator (None is not allowed)")
    if isinstance(seed, np.random.Generator):
        return [int(x) for x in seed.integers(0, 2**63, size=2, dtype=np.uint64)]
    if isinstance(seed, np.random.SeedSequence):
        return [int(x) for x in seed.generate_state(4, np.uint32)]
    if isinstance(seed, list | tuple):
        return [int(x) for x in seed]
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    return [seed]


def _key_hash(names: Sequence[str], key: Sequence[object]) -> int:
    """Return a stable 64-bit hash of a cell key (its ``name=str(value)`` pairs)."""
    text = "\x1f".join(f"{n}={v}" for n, v in zip(names, key, strict=True))
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def _cell_rngs(seed: SeedLike, keys: pd.DataFrame) -> list[np.random.Generator]:
    """Return one Generator per row of ``keys`` (the cells' key columns), seeded by :func:`cell_seed`."""
    base = _base_entropy(seed)
    names = [str(c) for c in keys.columns]
    return [np.random.default_rng(cell_seed(base, names, k)) for k in keys.itertuples(index=False)]


# Rare items of a group are drawn two at a time from a table of their pair sums when the
# table (m * m floats) fits in a core's cache: one uniform index in [0, m*m) is two independent
# uniform picks in [0, m), so half the draws and gathers for the same exact distribution.
_MAX_PAIR_ITEMS = 512


def _ragged_sums(table: np.ndarray, k: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Return per resample the sum of k[r] uniform picks from ``table`` (n_resamples,)."""
    out = np.zeros(k.size)
    total = int(k.sum())
    if total:
        draws = table[rng.integers(0, table.size, size=total)]
        pos = k > 0
        out[pos] = np.add.reduceat(draws, (np.cumsum(k) - k)[pos])
    return out


def _group_sums(
    counts: np.ndarray,
    values: np.ndarray,
    n_resamples: int,
    rng: np.random.Generator,
    min_count: int = _MIN_MULTINOMIAL_COUNT,
    max_pair: int = _MAX_PAIR_ITEMS,
) -> np.ndarray:
    """Return resampled sums (n_resamples,) of a group given distinct values (K,) and counts (K,).

    Exact bootstrap of the sum of n = counts.sum() items drawn with replacement: split the
    values into frequent (count >= min_count) and rare ones; the number T of draws that land on
    rare items is Binomial(n, n_rare / n), the frequent counts are Multinomial(n - T, their
    frequencies), and the T rare draws are uniform over the rare items (drawn in pairs from a
    pair-sum table when there are at most ``max_pair`` rare items, T // 2 pairs plus one single
    pick when T is odd). This is the same joint distribution as Multinomial(n, counts / n),
    hence as index resampling.
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
    if m and m <= max_pair:
        sums += _ragged_sums((rare[:, None] + rare[None, :]).ravel(), t // 2, rng)
        sums += _ragged_sums(rare, t & 1, rng)
    elif m:
        sums += _ragged_sums(rare, t, rng)
    return sums


def _cell_mean_draws(
    cell: np.ndarray,
    stratum: np.ndarray,
    values: np.ndarray,
    n_cells: int,
    n_resamples: int,
    rng: np.random.Generator | Sequence[np.random.Generator],
    min_count: int = _MIN_MULTINOMIAL_COUNT,
) -> np.ndarray:
    """Return bootstrap means (n_cells, n_resamples), resampling within each (cell, stratum).

    cell, stratum: int codes (n,); values: float (n,), no NaN. One sort turns the rows into
    counts of distinct values per (cell, stratum) group; each group of size n_s then gets an
    exact count-based resample of its sum (:func:`_group_sums`), added to its cell's sum.
    ``rng``: one Generator per cell (cell i draws from ``rng[i]``, its strata in code order, so
    its resamples depend on its own rows only), or one Generator shared by the cells in order.
    """
    rngs = [rng] * n_cells if isinstance(rng, np.random.Generator) else list(rng)
    if len(rngs) != n_cells:
        raise ValueError(f"{len(rngs)} generators for {n_cells} cells")
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
    # a loop over (cell, stratum) groups, never over rows; cells in parallel threads (numpy's
    # generators release the GIL), each cell with its own Generator, so the result does not
    # depend on the number of threads or their schedule
    bounds = np.r_[g_starts, uc.size]
    cells_of = uc[g_starts]
    first = np.searchsorted(cells_of, np.arange(n_cells + 1))

    def cell_sums(k: int) -> None:
        for i in range(first[k], first[k + 1]):
            a, b = bounds[i], bounds[i + 1]
            sums[k] += _group_sums(counts[a:b], uv[a:b], n_resamples, rngs[k], min_count)

    shared = len({id(r) for r in rngs}) < n_cells  # one Generator for several cells: in order
    workers = 1 if shared or n_cells < 2 else min(_max_threads(), n_cells)
    if workers == 1:
        for k in range(n_cells):
            cell_sums(k)
    else:
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(cell_sums, range(n_cells)))
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums / n_cell[:, None]


def _max_threads() -> int:
    """Return how many threads the bootstrap may use: the usable cores, at most 4 ($AJB_THREADS overrides)."""
    env = os.environ.get("AJB_THREADS")
    if env:
        return max(1, int(env))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(4, cores))


def _index_draws(values: np.ndarray, stratum: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
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
    exact multinomial draw (n_resamples, K) per (cell, stratum). Each cell draws from its own
    Generator seeded by ``seed`` and the cell's key (:func:`cell_seed`), its strata in sorted
    order, so a cell's interval is deterministic for a seed and does not change when other
    cells (judges, generators, ...) are added to or dropped from the frame. ``scale`` multiplies
    mean, lo and hi (100 for percent alignment from a record frame's ``mu``). NaN values are
    dropped; a NaN in a ``by`` column is a cell of its own (never dropped silently).
    """
    by = _as_list(by)
    cols = by + ([strata] if strata else []) + [value]
    df = frame[cols]
    df = df[df[value].notna()]
    fast = _group_index(df, by)  # a NaN key is a cell of its own
    if fast is None:
        g = df.groupby(by, observed=True, sort=True, dropna=False)
        cell = g.ngroup().to_numpy(np.int64)
        keys = g.size().rename("n").reset_index()
    else:  # the same cells from the categorical codes
        cell, keys = fast
        keys["n"] = np.bincount(cell, minlength=len(keys)).astype(np.int64)
    n_cells = len(keys)
    strat = (
        pd.factorize(df[strata], sort=True)[0].astype(np.int64) if strata else np.zeros(len(df), np.int64)
    )  # sorted codes: a cell's strata in label order
    vals = df[value].to_numpy(dtype=float)
    draws = _cell_mean_draws(cell, strat, vals, n_cells, n_resamples, _cell_rngs(seed, keys[by]))
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
    missing: Missing = PAPER_MISSING,
    scale: float = 100.0,
) -> pd.DataFrame:
    """Return paired difference a - b of conditions with CI: columns by..., diff, lo, hi, n_pairs, n_cells.

    Records are paired on ``pair_on`` within ``by`` (records in both conditions only) and
    resampled jointly (paired) within each cell of ``cells``; the statistic is the mean over
    cells of each cell's mean paired difference, i.e. the GT lift of Eq. 5b on paired records
    (in percentage points with the default ``scale``). ``frame``: verdicts or a record frame.
    Each cell draws from its own Generator (:func:`cell_seed`), so a group's interval does not
    depend on the other groups in the frame.
    """
    by = _as_list(by)
    recs = frame if _is_record_frame(frame) else record_alignment(frame, missing=missing)
    idx = list(dict.fromkeys(by + list(cells) + list(pair_on)))
    sub = recs[recs["condition"].isin([a, b])]
    _require_unique(sub, idx + ["condition"], "record")
    wide = sub.groupby(idx + ["condition"], observed=True)["mu"].first().unstack("condition")
    if a not in wide.columns or b not in wide.columns:
        return pd.DataFrame(columns=by + ["diff", "lo", "hi", "n_pairs", "n_cells"])
    diff = (wide[a] - wide[b]).dropna().rename("d").reset_index()
    cg = diff.groupby(by + list(cells), observed=True, sort=True)
    cell = cg.ngroup().to_numpy(np.int64)
    ckeys = cg.size().rename("n").reset_index()
    vals = diff["d"].to_numpy(float)
    rngs = _cell_rngs(seed, ckeys[by + list(cells)])  # per cell: a judge's CI depends on its rows only
    draws = _cell_mean_draws(cell, np.zeros_like(cell), vals, len(ckeys), n_resamples, rngs)
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
    out = (
        ckeys.groupby(by, observed=True, sort=True)
        .agg(diff=("point", "mean"), n_pairs=("n", "sum"), n_cells=("n", "size"))
        .reset_index()
    )
    out["diff"] *= scale
    out.insert(len(by) + 1, "lo", scale * qs[0])
    out.insert(len(by) + 2, "hi", scale * qs[1])
    return out
