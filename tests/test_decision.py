"""P(rank 1) of the decision guide (stats.rank1_probability) against a naive bootstrap; the guide's
wording is notebook 14's (tests/test_notebook_tables.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ajb_utils import stats


def _records(means: dict[str, float], n: int = 50, cells: int = 2, seed: int = 0) -> pd.DataFrame:
    """Return a record frame: judges x cells x n records, mu = clip(mean + shared record noise + own noise)."""
    rng = np.random.default_rng(seed)
    rows = []
    for c in range(cells):
        common = rng.normal(0, 0.15, n)  # the record's difficulty, shared by every judge (why pairing matters)
        for j, m in means.items():
            mu = np.clip(m + common + rng.normal(0, 0.05, n), 0, 1)
            rows += [{"judge": j, "generator": f"g{c}", "id": f"r{i}", "mu": mu[i]} for i in range(n)]
    return pd.DataFrame(rows)


def _naive_rank1(recs: pd.DataFrame, n_resamples: int, seed: int) -> dict[str, float]:
    """P(rank 1) by a plain loop: resample each cell's record ids (shared by judges), mean over cells, argmax."""
    rng = np.random.default_rng(seed)
    judges = sorted(recs["judge"].unique())
    wins = dict.fromkeys(judges, 0)
    by_cell = {g: sub.pivot(index="id", columns="judge", values="mu")[judges] for g, sub in recs.groupby("generator")}
    for _ in range(n_resamples):
        score = np.zeros(len(judges))
        for wide in by_cell.values():
            pick = rng.integers(0, len(wide), len(wide))
            score += wide.to_numpy()[pick].mean(axis=0)
        wins[judges[int(np.argmax(score))]] += 1
    return {j: w / n_resamples for j, w in wins.items()}


@pytest.mark.parametrize("means", [{"a": 0.80, "b": 0.80, "c": 0.75}, {"a": 0.85, "b": 0.80, "c": 0.79}])
def test_rank1_probability_matches_a_naive_bootstrap(means) -> None:
    recs = _records(means)
    lib = stats.rank1_probability(recs, ["generator"], n_resamples=3000, seed=1).set_index("judge")
    naive = _naive_rank1(recs, 1000, seed=2)
    for j in means:
        assert lib.loc[j, "p_rank1"] == pytest.approx(naive[j], abs=0.06), j
    assert lib["p_rank1"].sum() == pytest.approx(1.0)
    point = recs.groupby(["judge", "generator"])["mu"].mean().groupby("judge").mean() * 100
    assert lib["align"].to_dict() == pytest.approx(point.to_dict())


def test_rank1_is_seeded_and_keeps_only_records_every_judge_has() -> None:
    recs = _records({"a": 0.8, "b": 0.7})
    a = stats.rank1_probability(recs, n_resamples=500, seed=4)
    assert a.equals(stats.rank1_probability(recs, n_resamples=500, seed=4))
    dropped = recs.drop(recs.index[(recs["judge"] == "b") & (recs["id"] == "r0")])
    assert stats.rank1_probability(dropped, n_resamples=50, seed=4)["n_records"].iloc[0] == len(recs) // 2 - 2


def test_rank1_draws_equal_the_same_resamples_taken_by_index() -> None:
    """The resample means by draw counts (one matrix product) are those of the drawn indices
    themselves: same generator stream, so the same CI ends and P(rank 1) (non-dyadic mu)."""
    recs = _records({"a": 0.81, "b": 0.80, "c": 0.7}, n=37, cells=3, seed=5)
    lib = stats.rank1_probability(recs, ["generator"], n_resamples=400, seed=9)
    rng = np.random.default_rng(9)
    judges = sorted(recs["judge"].unique())
    draws = np.zeros((400, len(judges)))
    for _, sub in recs.groupby("generator"):
        m = sub.pivot(index="id", columns="judge", values="mu")[judges].to_numpy()
        idx = rng.integers(0, len(m), size=(400, len(m)), dtype=np.int32)
        draws += m[idx].mean(axis=1)
    draws = 100 * draws / 3
    lib = lib.set_index("judge").loc[judges]
    np.testing.assert_allclose(lib["lo"], np.quantile(draws, 0.025, axis=0), rtol=1e-12)
    np.testing.assert_allclose(lib["hi"], np.quantile(draws, 0.975, axis=0), rtol=1e-12)
    assert lib["p_rank1"].tolist() == (np.bincount(draws.argmax(axis=1), minlength=3) / 400).tolist()
