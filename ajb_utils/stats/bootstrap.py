"""Seeded percentile bootstrap CIs of cell means (stratified) and of paired differences: one resampler."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ajb_utils.stats.alignment import record_alignment
from ajb_utils.stats.frames import (
    PAPER_MISSING,
    Missing,
    SeedLike,
    _alpha,
    _as_list,
    _is_record_frame,
    _require_unique,
)

__all__ = ["bootstrap_cells", "bootstrap_diff_ci"]


# ---- bootstrap -----------------------------------------------------------------------------------
def cell_seed(seed: SeedLike, names: Sequence[str], key: Sequence[object]) -> np.random.SeedSequence:
    """Return one cell's SeedSequence from `seed` and a process-independent 64-bit hash of its `name=value` pairs."""
    text = "\x1f".join(f"{n}={v}" for n, v in zip(names, key, strict=True))
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()
    return np.random.SeedSequence([*_base_entropy(seed), int.from_bytes(digest, "little")])


def _base_entropy(seed: SeedLike) -> list[int]:
    """Return the integers a seed gives every cell's SeedSequence (a Generator is advanced once)."""
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


def _cell_rngs(seed: SeedLike, keys: pd.DataFrame) -> list[np.random.Generator]:
    """Return one Generator per row of ``keys`` (the cells' key columns), seeded by :func:`cell_seed`."""
    base = _base_entropy(seed)
    names = [str(c) for c in keys.columns]
    return [np.random.default_rng(cell_seed(base, names, k)) for k in keys.itertuples(index=False)]


def _resampled_means(values: np.ndarray, stratum: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Return bootstrap means of one cell's values, one multinomial draw over distinct values per stratum."""
    total = np.zeros(n_resamples)
    for s in np.unique(stratum):
        uniq, counts = np.unique(values[stratum == s], return_counts=True)
        total += rng.multinomial(counts.sum(), counts / counts.sum(), size=n_resamples) @ uniq
    return total / values.size if values.size else np.full(n_resamples, np.nan)


def _cell_means(
    cell: np.ndarray, stratum: np.ndarray, values: np.ndarray, rngs: Sequence[np.random.Generator], n_resamples: int
) -> np.ndarray:
    """Return bootstrap means (n_cells, n_resamples): cell k's rows resampled from its own Generator rngs[k]."""
    order = np.argsort(cell, kind="stable")
    bounds = np.searchsorted(cell[order], np.arange(len(rngs) + 1))
    rows = [
        _resampled_means(values[order[a:b]], stratum[order[a:b]], n_resamples, rng)
        for a, b, rng in zip(bounds[:-1], bounds[1:], rngs, strict=True)
    ]
    return np.vstack(rows) if rows else np.empty((0, n_resamples))


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
    """Return mean and percentile CI of `value` per cell (seeded per cell, resampled within `strata`), times `scale`.

    NaN values are dropped; a NaN in a `by` column is a cell of its own (never dropped silently)."""
    by = _as_list(by)
    cols = by + ([strata] if strata else []) + [value]
    df = frame.loc[frame[value].notna(), cols]
    g = df.groupby(by, observed=True, sort=True, dropna=False)  # a NaN key is a cell of its own
    cell = g.ngroup().to_numpy(np.int64)
    keys = g.size().rename("n").reset_index()
    n_cells = len(keys)
    # sorted codes: a cell's strata in label order
    strat = pd.factorize(df[strata], sort=True)[0].astype(np.int64) if strata else np.zeros(len(df), np.int64)
    vals = df[value].to_numpy(dtype=float)
    draws = _cell_means(cell, strat, vals, _cell_rngs(seed, keys[by]), n_resamples)
    qs = np.quantile(draws, _alpha(ci), axis=1) if n_cells else np.empty((2, 0))
    mean = np.bincount(cell, weights=vals, minlength=n_cells) / keys["n"].to_numpy(float)
    return keys.assign(mean=scale * mean, lo=scale * qs[0], hi=scale * qs[1])[[*by, "mean", "lo", "hi", "n"]]


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
) -> pd.DataFrame:
    """Return the paired difference a - b of conditions (pp) per `by` group with its percentile CI: the mean
    over `cells` of each cell's mean paired difference (Eq. 5b's lift on records in both conditions)."""
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
    draws = _cell_means(cell, np.zeros_like(cell), vals, rngs, n_resamples)
    ckeys["point"] = np.bincount(cell, weights=vals, minlength=len(ckeys)) / ckeys["n"]
    grp = ckeys.groupby(by, observed=True, sort=True).ngroup().to_numpy(np.int64)
    n_grp = int(grp.max()) + 1 if grp.size else 0
    n_c = np.bincount(grp, minlength=n_grp).astype(float)
    # mean over cells per group: (n_grp, n_cells) indicator / n_c @ draws
    agg = np.zeros((n_grp, n_resamples))
    np.add.at(agg, grp, draws)
    agg /= n_c[:, None]
    qs = np.quantile(agg, _alpha(ci), axis=1) if n_grp else np.empty((2, 0))
    out = (
        ckeys.groupby(by, observed=True, sort=True)
        .agg(diff=("point", "mean"), n_pairs=("n", "sum"), n_cells=("n", "size"))
        .reset_index()
    )
    out = out.assign(diff=100.0 * out["diff"], lo=100.0 * qs[0], hi=100.0 * qs[1])
    return out[[*by, "diff", "lo", "hi", "n_pairs", "n_cells"]]
