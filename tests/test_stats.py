"""Tests for ajb_utils.stats: alignment, bootstrap, agreement, juries, degradation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from ajb_utils import stats as S
from ajb_utils.schema import METRICS


@pytest.fixture
def skm():
    """sklearn.metrics (a test-only dependency); tests that need it skip without it."""
    return pytest.importorskip("sklearn.metrics")


# ------------------------------------------------------------------------------------------
# fixtures
# ------------------------------------------------------------------------------------------
def _verdicts(rows: list[tuple]) -> pd.DataFrame:
    """Build a verdicts frame from (id, gen, diff, judge, cond, metric, llm, p) tuples."""
    df = pd.DataFrame(rows, columns=["id", "generator", "difficulty", "judge", "condition", "metric", "llm_score", "p"])
    df["match"] = 1.0 - (df["p"] - df["llm_score"]).abs()
    for c in ["id", "generator", "difficulty", "judge", "condition", "metric"]:
        df[c] = df[c].astype("category")
    return df


@pytest.fixture
def two_records() -> pd.DataFrame:
    """Appendix I worked example (r1) plus a record with one missing verdict (r2)."""
    p1 = (1.0, 1.0, 0.33, 1.0)
    rows = [("r1", "g", "hard", "J", "with_gt", m, 1.0, p) for m, p in zip(METRICS, p1)]
    # r2: tool 1/1 (match 1), param NaN (missing), seq 0.5 vs 1 (0.5), cov 0 vs 0.5 (0.5)
    rows += [
        ("r2", "g", "hard", "J", "with_gt", "tool_selection", 1.0, 1.0),
        ("r2", "g", "hard", "J", "with_gt", "parameter_structure", np.nan, 1.0),
        ("r2", "g", "hard", "J", "with_gt", "sequence_accuracy", 0.5, 1.0),
        ("r2", "g", "hard", "J", "with_gt", "query_coverage", 0.0, 0.5),
    ]
    return _verdicts(rows)


# ------------------------------------------------------------------------------------------
# alignment
# ------------------------------------------------------------------------------------------
def test_record_alignment_worked_example(two_records):
    rec = S.record_alignment(two_records, missing="exclude").set_index("id")
    assert rec.loc["r1", "mu"] == pytest.approx(0.8325)
    assert rec.loc["r1", "n_verdicts"] == 4
    assert rec.loc["r2", "mu"] == pytest.approx(2.0 / 3.0)  # exclude: (1 + .5 + .5) / 3
    assert rec.loc["r2", "n_verdicts"] == 3
    miss = S.record_alignment(two_records, missing="miss").set_index("id")
    assert miss.loc["r1", "mu"] == pytest.approx(0.8325)
    assert miss.loc["r2", "mu"] == pytest.approx(0.5)  # miss: (1 + 0 + .5 + .5) / 4


def _plain_record_alignment(v: pd.DataFrame, missing: str, n_metrics: int) -> pd.DataFrame:
    """Return record mu by a plain pandas groupby (the reference for the code-based grouping)."""
    keys = ["id", "generator", "difficulty", "judge", "condition", "dag_type"]
    m = 1.0 - (v["p"] - v["llm_score"]).abs()
    g = v[keys].assign(_m=m).groupby(keys, observed=True, sort=True, dropna=False)["_m"]
    out = g.agg(["sum", "count"]).reset_index()
    out = out[out["count"] > 0]
    if missing == "miss":  # a (record, generator, judge, difficulty) without a verdict somewhere is dropped
        tup = ["id", "generator", "difficulty", "judge"]
        dropped = v[keys].assign(_m=m).groupby(keys, observed=True, dropna=False)["_m"].count().reset_index()
        dropped = dropped[dropped["_m"] == 0][tup].astype(str).apply(tuple, axis=1)
        out = out[~out[tup].astype(str).apply(tuple, axis=1).isin(set(dropped))]
    mu = out["sum"] / (out["count"] if missing == "exclude" else n_metrics)
    res = out[keys].assign(mu=mu.astype(float), n_verdicts=out["count"].astype(np.int64))
    return res.reset_index(drop=True)


@pytest.mark.parametrize("missing", ["exclude", "miss", "authors"])
def test_record_alignment_equals_plain_groupby(missing):
    """The grouping by combined categorical codes gives pandas' groupby result: order (categories
    in a non-lexical order, a missing key last), dtypes (unused categories kept), NaN verdicts."""
    rows = [
        ("r2", "g1", "hard", "J", "with_gt", "tool_selection", 1.0, 1.0, "chain"),
        ("r2", "g1", "hard", "J", "with_gt", "parameter_structure", np.nan, 1.0, "chain"),
        ("r1", "g1", "hard", "J", "with_gt", "tool_selection", 0.5, 1.0, None),
        ("r1", "g1", "hard", "J", "without_gt", "tool_selection", np.nan, 1.0, None),
        ("r1", "g0", "easy", "K", "with_gt", "sequence_accuracy", 0.0, 0.8333, "fan"),
        ("r1", "g0", "easy", "K", "with_gt", "query_coverage", 1.0, 0.5, "fan"),
        ("r3", "g0", "easy", "K", "with_gt", "tool_selection", 1.0, 1.0, "fan"),
        ("r3", "g0", "easy", "K", "without_gt", "tool_selection", 0.5, 1.0, "fan"),
        ("r3", None, "easy", "K", "with_gt", "tool_selection", 0.5, 0.25, "fan"),
    ]
    v = pd.DataFrame(
        rows, columns=["id", "generator", "difficulty", "judge", "condition", "metric", "llm_score", "p", "dag_type"]
    )
    cats = {
        "id": ["r3", "r2", "r1", "r9"],  # not sorted, one never used
        "generator": ["g1", "g0", "g7"],
        "difficulty": ["easy", "medium", "hard"],
        "judge": ["K", "J"],
        "condition": ["with_gt", "without_gt", "deref"],
        "metric": list(METRICS),
        "dag_type": ["fan", "chain", "tree"],
    }
    for c, cs in cats.items():
        v[c] = pd.Categorical(v[c], categories=cs)
    got = S.record_alignment(v, missing=missing, n_metrics=4)
    want = _plain_record_alignment(v, missing, 4)
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert got["id"].dtype == v["id"].dtype and got["dag_type"].isna().sum() == (1 if missing != "miss" else 0)
    # the same rows as plain strings take pandas' own groupby: same values
    plain = S.record_alignment(v.astype({c: object for c in cats}), missing=missing, n_metrics=4)
    pd.testing.assert_frame_equal(
        got.astype({c: object for c in cats if c != "metric"})
        .sort_values(list(got.columns[:6]))
        .reset_index(drop=True),
        plain.astype({c: object for c in cats if c != "metric"})
        .sort_values(list(got.columns[:6]))
        .reset_index(drop=True),
        check_exact=True,
    )


def test_missing_row_counts_as_miss(two_records):
    dropped = two_records[two_records["llm_score"].notna()]  # the verdicts frame drops nulls
    miss = S.record_alignment(dropped, missing="miss").set_index("id")
    assert miss.loc["r2", "mu"] == pytest.approx(0.5)
    exc = S.record_alignment(dropped, missing="exclude").set_index("id")
    assert exc.loc["r2", "mu"] == pytest.approx(2.0 / 3.0)


def test_align_two_records(two_records):
    a = S.align(two_records, missing="exclude")
    assert len(a) == 1 and a["n"].iloc[0] == 2
    assert a["align"].iloc[0] == pytest.approx(100 * (0.8325 + 2 / 3) / 2)
    am = S.align(two_records, missing="miss")
    assert am["align"].iloc[0] == pytest.approx(100 * (0.8325 + 0.5) / 2)
    one = S.align(two_records[two_records["id"] == "r1"])
    assert one["align"].iloc[0] == pytest.approx(83.25)  # the paper prints 83.3% (half up)
    # a record frame is accepted as input too
    rec = S.record_alignment(two_records, missing="exclude")
    assert S.align(rec)["align"].iloc[0] == pytest.approx(a["align"].iloc[0])


def test_per_metric_align(two_records):
    pm = S.per_metric_align(two_records, missing="exclude").set_index("metric")["align"]
    assert pm["sequence_accuracy"] == pytest.approx(100 * (0.33 + 0.5) / 2)
    assert pm["parameter_structure"] == pytest.approx(100.0)  # only r1 available
    pm_miss = S.per_metric_align(two_records, missing="miss").set_index("metric")
    assert pm_miss.loc["parameter_structure", "align"] == pytest.approx(50.0)
    # under "miss" the mean of per-metric align equals align
    assert pm_miss["align"].mean() == pytest.approx(S.align(two_records, missing="miss")["align"].iloc[0])


def test_lift_hand_table():
    rows = []
    for g, d, w, wo in [("g1", "easy", 90, 80), ("g1", "hard", 70, 75), ("g2", "easy", 88, 84)]:
        rows += [("A", g, d, "with_gt", w), ("A", g, d, "without_gt", wo)]
    rows += [
        ("B", "g1", "easy", "with_gt", 50),
        ("B", "g1", "easy", "without_gt", 60),
        ("B", "g1", "hard", "with_gt", 99),
    ]  # unpaired cell ignored
    cells = pd.DataFrame(rows, columns=["judge", "generator", "difficulty", "condition", "align"])
    lf = S.lift(cells)
    assert lf["A"] == pytest.approx((10 - 5 + 4) / 3)
    assert lf["B"] == pytest.approx(-10)


# ------------------------------------------------------------------------------------------
# bootstrap
# ------------------------------------------------------------------------------------------
def test_multinomial_matches_index_resampling():
    rng = np.random.default_rng(1)
    x = rng.choice([0.0, 0.25, 0.5, 0.8325, 1.0], size=40, p=[0.1, 0.1, 0.2, 0.2, 0.4])
    n_res = 40_000
    mult = S.bootstrap._resampled_means(x, np.zeros(40, np.int64), n_res, np.random.default_rng(2))
    naive = x[np.random.default_rng(3).integers(0, 40, size=(n_res, 40))].mean(axis=1)
    assert mult.mean() == pytest.approx(naive.mean(), abs=2e-3)
    assert mult.std() == pytest.approx(naive.std(), rel=0.03)
    for q in (0.025, 0.25, 0.5, 0.75, 0.975):
        assert np.quantile(mult, q) == pytest.approx(np.quantile(naive, q), abs=0.012)
    # theory: var of a bootstrap mean = population variance / n
    assert mult.var() == pytest.approx(x.var() / 40, rel=0.03)
    assert sps.ks_2samp(mult, naive).pvalue > 1e-4


def _one_cell(values, strata=None, **kw) -> tuple[float, float, float]:
    """Return (mean, lo, hi) of `values` as one cell of `stats.bootstrap_cells`."""
    df = pd.DataFrame({"cell": "a", "v": np.asarray(values, dtype=float)})
    out = S.bootstrap_cells(df.assign(s=strata if strata is not None else 0), ["cell"], "v", strata="s", **kw)
    return tuple(out[["mean", "lo", "hi"]].iloc[0]) if len(out) else (np.nan, np.nan, np.nan)


def test_bootstrap_contains_mean_and_is_seeded():
    x = np.random.default_rng(0).random(200)
    m, lo, hi = _one_cell(x, seed=7)
    assert m == pytest.approx(x.mean())
    assert lo < m < hi
    assert _one_cell(x, seed=7) == (m, lo, hi)
    assert _one_cell(x, seed=8) != (m, lo, hi)
    with pytest.raises(ValueError):
        _one_cell(x, seed=None)


def test_stratified_keeps_stratum_sizes():
    x = np.array([0.0] * 5 + [1.0] * 15)
    strata = np.array(["a"] * 5 + ["b"] * 15)
    # each stratum is constant, so with sizes kept every resample has mean 0.75 exactly
    m, lo, hi = _one_cell(x, strata=strata, seed=0)
    assert (m, lo, hi) == pytest.approx((0.75, 0.75, 0.75))
    m2, lo2, hi2 = _one_cell(x, seed=0)
    assert hi2 - lo2 > 0.1


def test_bootstrap_degenerate():
    assert _one_cell([0.7], seed=0) == pytest.approx((0.7, 0.7, 0.7))
    assert _one_cell([0.5] * 10, seed=0) == pytest.approx((0.5, 0.5, 0.5))
    assert all(np.isnan(_one_cell([], seed=0)))
    assert _one_cell([1.0, np.nan], seed=0) == pytest.approx((1.0, 1.0, 1.0))


def test_bootstrap_cells_matches_index_resampling():
    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        {
            "cell": np.repeat(["a", "b", "c"], [50, 1, 80]),
            "dag": rng.choice(["x", "y"], size=131),
            "v": rng.choice([0.0, 0.5, 0.75, 1.0], size=131),
        }
    )
    out = S.bootstrap_cells(df, by=["cell"], value="v", n_resamples=4000, seed=3)
    assert list(out.columns) == ["cell", "mean", "lo", "hi", "n"]
    assert out["n"].tolist() == [50, 1, 80]
    assert np.allclose(out["mean"], df.groupby("cell")["v"].mean().to_numpy())
    assert (out["lo"] <= out["mean"]).all() and (out["mean"] <= out["hi"]).all()
    b = out.set_index("cell").loc["b"]
    assert b["lo"] == b["hi"] == b["mean"]
    v = df.loc[df.cell == "c", "v"].to_numpy()
    naive = v[np.random.default_rng(3).integers(0, len(v), size=(4000, len(v)))].mean(axis=1)  # index resampling
    ref = np.quantile(naive, [0.025, 0.975])
    c = out.set_index("cell").loc["c"]
    assert c["lo"] == pytest.approx(ref[0], abs=0.02) and c["hi"] == pytest.approx(ref[1], abs=0.02)
    again = S.bootstrap_cells(df, by=["cell"], value="v", n_resamples=4000, seed=3)
    pd.testing.assert_frame_equal(out, again)
    other = S.bootstrap_cells(df, by=["cell"], value="v", n_resamples=4000, seed=4)
    # (quantiles of a discrete bootstrap distribution can coincide for two seeds: compare both ends)
    assert not (np.allclose(out["lo"], other["lo"]) and np.allclose(out["hi"], other["hi"]))
    strat = S.bootstrap_cells(df, by=["cell"], value="v", strata="dag", n_resamples=500, seed=3, scale=100)
    assert np.allclose(strat["mean"], 100 * out["mean"])


def test_bootstrap_cells_full_grid_runs():
    # 210 cells x 3,800 records, value distribution like record mu (sanity, no timing assert)
    rng = np.random.default_rng(0)
    n_cells, n = 210, 3800
    levels = np.array([0, 1 / 3, 0.5, 2 / 3, 0.25, 0.75, 0.2, 0.4, 0.6, 0.8])
    p = np.where(rng.random((n_cells * n, 4)) < 0.75, 1.0, rng.choice(levels, (n_cells * n, 4)))
    llm = np.where(rng.random(p.shape) < 0.8, np.round(p * 2) / 2, rng.choice([0, 0.5, 1], p.shape))
    df = pd.DataFrame(
        {
            "cell": np.repeat(np.arange(n_cells), n),
            "dag": rng.integers(0, 6, n_cells * n),
            "mu": (1 - np.abs(p - llm)).mean(axis=1),
        }
    )
    out = S.bootstrap_cells(df, by=["cell"], value="mu", strata="dag", n_resamples=200, seed=0)
    assert len(out) == n_cells and (out["n"] == n).all()
    assert ((out["hi"] - out["lo"]) < 0.02).all()


def test_bootstrap_diff_ci_paired():
    # judge A: with_gt mu = without_gt mu + 0.1 on every record -> diff exactly 10 pp, zero width
    rows = []
    rng = np.random.default_rng(0)
    for g in ("g1", "g2"):
        for i in range(30):
            base = rng.choice([0.5, 0.75, 0.9])
            rows.append((f"r{i}", g, "easy", "A", "with_gt", base + 0.1))
            rows.append((f"r{i}", g, "easy", "A", "without_gt", base))
            rows.append((f"r{i}", g, "easy", "B", "with_gt", rng.choice([0.0, 1.0])))
            rows.append((f"r{i}", g, "easy", "B", "without_gt", rng.choice([0.0, 1.0])))
    rows.append(("r99", "g1", "easy", "A", "with_gt", 0.0))  # unpaired: ignored
    recs = pd.DataFrame(rows, columns=["id", "generator", "difficulty", "judge", "condition", "mu"])
    out = S.bootstrap_diff_ci(recs, seed=0).set_index("judge")
    assert out.loc["A", "diff"] == pytest.approx(10.0)
    assert out.loc["A", "lo"] == pytest.approx(10.0) and out.loc["A", "hi"] == pytest.approx(10.0)
    assert out.loc["A", "n_pairs"] == 60 and out.loc["A", "n_cells"] == 2
    assert out.loc["B", "lo"] < out.loc["B", "diff"] < out.loc["B", "hi"]
    # point estimate equals lift() on paired cells
    cells = S.align(recs[recs["id"] != "r99"])
    assert out.loc["B", "diff"] == pytest.approx(S.lift(cells)["B"])
    # the same draws at a lower level: percentiles of the same resamples, so nested in the 95% interval
    narrow = S.bootstrap_diff_ci(recs, ci=0.8, seed=0).set_index("judge")
    assert out.loc["B", "lo"] < narrow.loc["B", "lo"] < narrow.loc["B", "hi"] < out.loc["B", "hi"]


# ------------------------------------------------------------------------------------------
# agreement
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(5))
def test_kappa_vs_sklearn_random(seed, skm):
    rng = np.random.default_rng(seed)
    a = rng.choice([0.0, 0.5, 1.0], size=300, p=[0.1, 0.3, 0.6])
    b = np.where(rng.random(300) < 0.6, a, rng.choice([0.0, 0.5, 1.0], size=300))
    ref = skm.cohen_kappa_score((2 * a).astype(int), (2 * b).astype(int), labels=[0, 1, 2])
    assert S.cohen_kappa(a, b) == pytest.approx(ref)
    assert S.exact_agreement(a, b) == pytest.approx((a == b).mean())


def test_kappa_hand_cases():
    a = np.array([0.0, 0.5, 1.0, 1.0, 0.5, 0.0])
    assert S.cohen_kappa(a, a) == pytest.approx(1.0)
    # independence: b's distribution identical in every row of a -> kappa 0
    a2 = np.repeat([0.0, 0.5, 1.0], 4)
    b2 = np.tile([0.0, 0.5, 1.0, 1.0], 3)
    assert S.cohen_kappa(a2, b2) == pytest.approx(0.0, abs=1e-12)
    # large random independent vectors: near 0
    rng = np.random.default_rng(0)
    x, y = rng.choice([0, 0.5, 1], 20000), rng.choice([0, 0.5, 1], 20000)
    assert abs(S.cohen_kappa(x, y)) < 0.03
    # NaN pairs dropped
    assert S.cohen_kappa([1.0, 0.0, np.nan], [1.0, 0.0, 0.5]) == pytest.approx(1.0)


def test_kappa_and_half_share_paper_confusion():
    # tab:confusion-full, QwQ-32B x GPT-OSS-120B (% of N): kappa 0.61, agreement 87.9%
    conf = pd.DataFrame(
        [[1.3, 0.8, 0.3], [1.3, 10.3, 4.9], [0.4, 4.4, 76.3]], index=[0.0, 0.5, 1.0], columns=[0.0, 0.5, 1.0]
    )
    assert S.kappa_from_confusion(conf) == pytest.approx(0.61, abs=0.01)
    assert S.offdiag_half_share(conf) == pytest.approx(0.947, abs=0.01)


def test_confusion_counts():
    a = [0, 0.5, 1, 1, 0.5, np.nan]
    b = [0, 1, 1, 0.5, 0.5, 1]
    c = S.confusion(a, b)
    assert c.loc[1.0, 0.5] == 1 and c.loc[0.5, 1.0] == 1 and c.to_numpy().sum() == 5
    assert np.trace(c.to_numpy()) == 3
    assert S.offdiag_half_share(c) == 1.0
    assert S.confusion(a, b, normalize=True).to_numpy().sum() == pytest.approx(100.0)


def _three_judges() -> pd.DataFrame:
    a = [1.0, 1.0, 0.5, 0.0, 1.0, 0.5]
    b = [1.0, 0.5, 0.5, 0.0, 1.0, 1.0]
    c = [1.0, 1.0, 0.5, 0.0, 1.0, np.nan]
    rows = []
    for judge, v in (("A", a), ("B", b), ("C", c)):
        for k, score in enumerate(v):
            rows.append((f"r{k // 2}", "g", "easy", judge, "with_gt", METRICS[k % 2], score, 1.0))
    return _verdicts(rows)


def test_pairwise_agreement_three_judges(skm):
    v = _three_judges()
    pw = S.pairwise_agreement(v, "with_gt", ["A", "B", "C"])
    assert list(pw.columns) == ["judge_a", "judge_b", "agreement_pct", "kappa", "n"]
    pw = pw.set_index(["judge_a", "judge_b"])
    a = np.array([1.0, 1.0, 0.5, 0.0, 1.0, 0.5])
    b = np.array([1.0, 0.5, 0.5, 0.0, 1.0, 1.0])
    assert pw.loc[("A", "B"), "n"] == 6
    assert pw.loc[("A", "B"), "agreement_pct"] == pytest.approx(100 * 4 / 6)
    assert pw.loc[("A", "B"), "kappa"] == pytest.approx(skm.cohen_kappa_score((2 * a).astype(int), (2 * b).astype(int)))
    assert pw.loc[("A", "C"), "n"] == 5 and pw.loc[("A", "C"), "agreement_pct"] == 100.0
    assert pw.loc[("A", "C"), "kappa"] == pytest.approx(1.0)
    assert pw.loc[("B", "C"), "agreement_pct"] == pytest.approx(80.0)
    m = S.agreement_matrix(pw.reset_index(), ["A", "B", "C"])
    assert m.loc["A", "B"] == pytest.approx(100 * 4 / 6)  # upper: agreement
    assert m.loc["B", "A"] == pytest.approx(pw.loc[("A", "B"), "kappa"])  # lower: kappa
    assert np.isnan(m.loc["A", "A"])
    # the other condition has no rows
    assert S.pairwise_agreement(v, "without_gt", ["A", "B"])["n"].tolist() == [0]


# ------------------------------------------------------------------------------------------
# verdict scale
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "llm,p,expected",
    [
        (0.5, 0.0, 0.0),
        (0.5, 0.49, 0.0),
        (0.5, 0.5, 1.0),
        (0.5, 0.67, 1.0),
        (0.5, 1.0, 1.0),
        (0.0, 1.0, 0.0),
        (1.0, 0.0, 1.0),
        (0.0, 0.3, 0.0),
        (1.0, 0.9, 1.0),
    ],
)
def test_binary_collapse_table(llm, p, expected):
    assert S.binary_collapse([llm], [p])[0] == expected


def test_binary_collapse_nan_and_frame(two_records):
    out = S.binary_collapse([np.nan, 0.5], [1.0, np.nan])
    assert np.isnan(out).all()
    bv = S.binary_verdicts(two_records)
    r2 = bv[(bv["id"] == "r2") & (bv["metric"] == "sequence_accuracy")]
    assert r2["llm_score"].iloc[0] == 1.0 and r2["match"].iloc[0] == 1.0


def test_half_rate():
    hr = S.half_rate(_three_judges())
    assert hr["A"] == pytest.approx(2 / 6)
    assert hr["C"] == pytest.approx(1 / 5)  # NaN not counted


# ------------------------------------------------------------------------------------------
# ranking
# ------------------------------------------------------------------------------------------
def test_spearman_vs_hand_formula():
    """rho = 1 - 6 sum d^2 / (n (n^2 - 1)) without ties; p from the t statistic with n - 2 df."""
    x, y = [1, 2, 3, 4, 5], [2, 1, 4, 3, 5]  # d = 1, 1, 1, 1, 0
    rho, p = S.spearman(x, y)
    assert rho == pytest.approx(1 - 6 * 4 / (5 * 24))  # 0.8
    t = 0.8 * np.sqrt(3 / (1 - 0.64))
    assert p == pytest.approx(2 * sps.t.sf(t, 3))
    # ties get average ranks: y ranks (1, 2, 3.5, 3.5) -> Pearson of the ranks
    rho_t, _ = S.spearman([1, 2, 3, 4], [10, 20, 30, 30])
    assert rho_t == pytest.approx(np.corrcoef([1, 2, 3, 4], [1, 2, 3.5, 3.5])[0, 1])
    assert S.spearman([1, 2, 3, 4], [40, 30, 20, 10])[0] == pytest.approx(-1.0)


def test_spearman_of_a_constant_is_undefined_without_a_warning():
    """A constant x or y has no ranking: rho and p are NaN (as scipy gives them), and no warning is raised."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for x, y in (([1, 1, 1], [1, 2, 3]), ([1, 2, 3], [5, 5, 5]), ([2, 2], [2, 2])):
            assert all(np.isnan(S.spearman(x, y)))
        assert S.spearman([1, 2, 3], [1, 3, 2])[0] == pytest.approx(0.5)
    with pytest.warns(sps.ConstantInputWarning):  # what scipy itself says, for the record
        assert np.isnan(sps.spearmanr([1, 1, 1], [1, 2, 3]).statistic)


def test_ranking_stability():
    table = pd.DataFrame(
        {
            "tool_selection": [90.0, 80.0, 70.0],
            "parameter_structure": [60.0, 80.0, 95.0],
            "sequence_accuracy": [90.0, 80.0, 70.0],
            "query_coverage": [90.0, 80.0, 70.0],
        },
        index=pd.Index(["A", "B", "C"], name="judge"),
    )
    before = table.copy()
    rs = S.ranking_stability(table)
    pd.testing.assert_frame_equal(table, before)  # input not modified
    assert list(rs.index) == list(S.PAPER_WEIGHTINGS)
    assert rs.loc["equal", "A"] == pytest.approx(82.5)
    assert rs.loc["param_excluded", "C"] == pytest.approx(70.0)
    assert rs.loc["param_x2", "C"] == pytest.approx((70 * 3 + 95 * 2) / 5)
    assert rs.loc["equal", "rho"] == pytest.approx(1.0)
    assert rs.loc["param_excluded", "rho"] == pytest.approx(1.0)
    # long input (as from per_metric_align) gives the same scores
    long = table.reset_index().melt(id_vars="judge", var_name="metric", value_name="align")
    rs_long = S.ranking_stability(long)
    pd.testing.assert_frame_equal(rs, rs_long, check_names=False)


# ------------------------------------------------------------------------------------------
# juries
# ------------------------------------------------------------------------------------------
def test_soft_and_majority_jury():
    v = _three_judges()
    sj = S.soft_jury(v, ["A", "B"])
    assert set(sj["judge"]) == {"soft_jury"}
    assert len(sj) == 6 and (sj["n_judges"] == 2).all()
    r1 = sj[(sj["id"] == "r0") & (sj["metric"] == METRICS[1])].iloc[0]
    assert r1["llm_score"] == pytest.approx(0.75) and r1["match"] == pytest.approx(0.75)
    # all three: the key where C is missing is dropped by default, kept with min_judges=2
    assert len(S.soft_jury(v, ["A", "B", "C"])) == 5
    assert len(S.soft_jury(v, ["A", "B", "C"], min_judges=2)) == 6
    a = S.align(sj)
    assert a["judge"].tolist() == ["soft_jury"]
    assert a["align"].iloc[0] == pytest.approx(100 * sj["match"].mean())
    mj = S.majority_jury(v, ["A", "B", "C"])
    got = {(str(i), str(m)): x for i, m, x in zip(mj["id"], mj["metric"], mj["llm_score"])}
    want = [1.0, 1.0, 0.5, 0.0, 1.0]  # medians of keys k = 0..4 of _three_judges
    assert got == {(f"r{k // 2}", METRICS[k % 2]): want[k] for k in range(5)}
    mid = S.majority_jury(v, ["A", "B"]).set_index(["id", "metric"])["llm_score"]
    assert mid[("r0", METRICS[1])] == pytest.approx(0.75)  # midpoint of 1 and 0.5
    low = S.majority_jury(v, ["A", "B"], tie="lower")
    assert set(low["llm_score"]) <= {0.0, 0.5, 1.0}


# ------------------------------------------------------------------------------------------
# degradation
# ------------------------------------------------------------------------------------------
def _align_table() -> pd.DataFrame:
    rows = []
    for g, j, cond, vals in [
        ("g1", "A", "with_gt", (90, 85, 80)),
        ("g1", "A", "without_gt", (90, 82, 75)),
        ("g1", "B", "with_gt", (92, 92, 80)),
        ("g1", "B", "without_gt", (88, 83, 73)),
    ]:
        for d, x in zip(("easy", "medium", "hard"), vals):
            rows.append((j, g, d, cond, float(x)))
    return pd.DataFrame(rows, columns=["judge", "generator", "difficulty", "condition", "align"])


def test_monotone_pairs():
    mp = S.monotone_pairs(_align_table()).set_index(["judge", "condition"])
    assert mp.loc[("A", "with_gt"), "monotone"]
    assert not mp.loc[("B", "with_gt"), "monotone"]  # 92 = 92 is not strict
    assert list(mp.columns[1:4]) == ["easy", "medium", "hard"]


def test_degradation_slopes():
    ds = S.degradation_slopes(_align_table())
    assert ds["generator"].tolist() == ["g1", "all"]
    row = ds.iloc[0]
    assert row["drop_with_gt"] == pytest.approx((10 + 12) / 2)
    assert row["drop_without_gt"] == pytest.approx((15 + 15) / 2)
    assert row["ratio"] == pytest.approx(15 / 11)
    assert ds.iloc[1]["ratio"] == pytest.approx(15 / 11)


# ------------------------------------------------------------------------------------------
# bootstrap: a cell's interval depends on that cell only (issue 20, defect 4)
# ------------------------------------------------------------------------------------------
def _grid_records(judges=("A", "B", "C"), generators=("g1", "g2"), n=60, seed=0):
    """Record frame (judge, generator, difficulty, condition, dag_type, mu) over a small grid."""
    rng = np.random.default_rng(seed)
    rows = []
    for j in judges:
        for g in generators:
            for d in ("easy", "hard"):
                for c in ("with_gt", "without_gt"):
                    mu = rng.choice([0.25, 0.5, 0.75, 0.8333, 1.0], size=n)
                    dag = rng.choice(["chain", "fan_in", "parallel"], size=n)
                    rows += [(j, g, d, c, t, m) for t, m in zip(dag, mu)]
    df = pd.DataFrame(rows, columns=["judge", "generator", "difficulty", "condition", "dag_type", "mu"])
    for c in ["judge", "generator", "difficulty", "condition", "dag_type"]:
        df[c] = df[c].astype("category")
    return df


KEYS4 = ["judge", "generator", "difficulty", "condition"]


@pytest.mark.parametrize("drop", [{"judge": "A"}, {"generator": "g1"}, {"judge": "C"}])
def test_bootstrap_cell_ci_does_not_depend_on_other_cells(drop):
    recs = _grid_records()
    full = S.bootstrap_cells(recs, by=KEYS4, value="mu", strata="dag_type", n_resamples=300, seed=5)
    ((col, val),) = drop.items()
    part = S.bootstrap_cells(recs[recs[col] != val], by=KEYS4, value="mu", strata="dag_type", n_resamples=300, seed=5)
    kept = full[full[col] != val].reset_index(drop=True)
    assert len(part) == len(kept) > 0
    for c in ("mean", "lo", "hi", "n"):
        np.testing.assert_array_equal(part[c].to_numpy(), kept[c].to_numpy())
    # the rows' order in the frame does not matter either
    shuffled = recs.sample(frac=1.0, random_state=1)
    again = S.bootstrap_cells(shuffled, by=KEYS4, value="mu", strata="dag_type", n_resamples=300, seed=5)
    pd.testing.assert_frame_equal(again, full)
    # still seeded: another seed moves the intervals
    other = S.bootstrap_cells(recs, by=KEYS4, value="mu", strata="dag_type", n_resamples=300, seed=6)
    assert not np.allclose(other["lo"], full["lo"])


def test_bootstrap_diff_ci_judge_interval_does_not_depend_on_other_judges():
    recs = _grid_records(n=40).drop(columns="dag_type")
    recs["id"] = recs.groupby(KEYS4, observed=True).cumcount().map("r{}".format)
    full = S.bootstrap_diff_ci(recs, n_resamples=300, seed=2).set_index("judge")
    part = S.bootstrap_diff_ci(recs[recs["judge"] != "A"], n_resamples=300, seed=2).set_index("judge")
    pd.testing.assert_frame_equal(part, full.loc[part.index])


def test_bootstrap_cells_stratified_agrees_with_naive_resampler():
    # one cell, two strata: exact counts scheme vs index resampling within each stratum
    rng = np.random.default_rng(4)
    x = rng.choice([0.0, 0.25, 0.5, 0.8333, 1.0], size=90, p=[0.1, 0.1, 0.2, 0.2, 0.4])
    s = np.repeat([0, 1], [30, 60])
    df = pd.DataFrame({"cell": "c", "dag": s, "v": x})
    n_res = 20_000
    out = S.bootstrap_cells(df, by=["cell"], value="v", strata="dag", n_resamples=n_res, seed=0)
    pick = np.random.default_rng(9)
    naive = np.hstack([x[s == k][pick.integers(0, (s == k).sum(), size=(n_res, (s == k).sum()))] for k in (0, 1)]).mean(
        1
    )
    lo, hi = np.quantile(naive, [0.025, 0.975])
    assert out["lo"].iloc[0] == pytest.approx(lo, abs=0.01)
    assert out["hi"].iloc[0] == pytest.approx(hi, abs=0.01)


@pytest.mark.parametrize(
    "drop", [("judge", "judge_gpt_5_4"), ("generator", "llama_3_3_70b_instruct"), ("generator", "gpt5_4")]
)
def test_T10_qwq_intervals_unchanged_when_others_are_dropped(drop):
    # the example: dropping GPT-5.4 used to move QwQ-32B intervals (every cell after it
    # in the one shared Generator's order)
    from types import SimpleNamespace

    from ajb_utils import tables
    from ajb_utils.data import load_bench

    v = load_bench("sample").verdicts
    col, name = drop

    def t10(v: pd.DataFrame) -> pd.DataFrame:  # Table 10 as notebook 03's cell computes it
        recs = S.record_alignment(tables.main_verdicts(SimpleNamespace(verdicts=v)))
        return S.bootstrap_cells(recs, tables.T02_KEYS, "mu", strata="dag_type", n_resamples=200, seed=1, scale=100.0)

    full, part = t10(v), t10(v[v[col] != name])
    key = ["generator", "judge", "difficulty", "condition"]
    qwq = full[(full["judge"] == "judge_qwq_32b") & (full[col] != name)].set_index(key)
    assert len(qwq) >= 24
    pd.testing.assert_frame_equal(part.set_index(key).loc[qwq.index], qwq)


def test_the_bench_label_columns_are_categoricals_of_strings() -> None:
    """Plain pandas works on the loaded frames: every label column is a categorical whose categories are
    strings, so `==`, `.isin` and `.astype(str)` need no helper, and an unknown name matches nothing."""
    from ajb_utils.data import load_bench

    bench = load_bench("sample")
    v, g = bench.verdicts, bench.generations
    for frame, cols in (
        (v, ("id", "generator", "difficulty", "condition", "metric", "judge", "dag_type")),
        (g, ("generator", "difficulty", "dag_type")),
    ):
        for c in cols:
            assert isinstance(frame[c].dtype, pd.CategoricalDtype), c
            assert all(isinstance(x, str) for x in frame[c].cat.categories), c
    gemini = v[v["judge"] == "judge_gemini_2_5_pro"]
    assert len(gemini) and set(gemini["judge"].astype(str)) == {"judge_gemini_2_5_pro"}
    assert (
        v["condition"].isin(["with_gt", "without_gt"]).sum()
        == v["condition"].astype(str).isin(["with_gt", "without_gt"]).sum()
        > 0
    )
    assert not (v["judge"] == "judge_nobody").any()


def test_pairwise_agreement_by_codes_equals_the_pivot_path():
    """Categorical columns (placed by their codes) and plain strings (pandas pivot) give one table:
    unused categories, a judge named but absent, a NaN verdict, a missing key, an off-scale score."""
    rows = [
        ("r1", "g", "hard", "tool_selection", "A", "with_gt", 1.0),
        ("r1", "g", "hard", "tool_selection", "B", "with_gt", 1.0),
        ("r1", "g", "hard", "tool_selection", "C", "with_gt", 0.5),
        ("r2", "g", "hard", "tool_selection", "A", "with_gt", 0.0),
        ("r2", "g", "hard", "tool_selection", "B", "with_gt", np.nan),
        ("r2", "g", "hard", "tool_selection", "C", "with_gt", 0.0),
        ("r3", "g", "hard", "sequence_accuracy", "B", "with_gt", 0.5),
        ("r3", "g", "hard", "sequence_accuracy", "C", "with_gt", 0.5),
        ("r3", "g", "hard", "sequence_accuracy", "A", "with_gt", 0.7),
        (None, "g", "hard", "tool_selection", "A", "with_gt", 1.0),
        ("r1", "g", "hard", "tool_selection", "A", "without_gt", 0.0),
    ]
    cols = ["id", "generator", "difficulty", "metric", "judge", "condition", "llm_score"]
    plain = pd.DataFrame(rows, columns=cols)
    cat = plain.copy()
    cat["judge"] = pd.Categorical(cat["judge"], categories=["C", "Z", "A", "B"])
    for c in ("id", "generator", "difficulty", "metric", "condition"):
        cat[c] = pd.Categorical(cat[c], categories=sorted(cat[c].dropna().unique()) + ["unused"])
    for judges in (None, ["A", "B", "C"], ["B", "nobody", "A"]):
        got = S.pairwise_agreement(cat, "with_gt", judges=judges)
        if judges is not None:
            want = S.pairwise_agreement(plain, "with_gt", judges=judges)
        else:  # the pivot sorts plain judge names; renamed so that they sort in the category order
            want = S.pairwise_agreement(plain.replace({"judge": {"C": "0C", "A": "1A", "B": "2B"}}), "with_gt")
            want[["judge_a", "judge_b"]] = want[["judge_a", "judge_b"]].replace({"0C": "C", "1A": "A", "2B": "B"})
        pd.testing.assert_frame_equal(got, want, check_exact=True)


def test_bootstrap_cells_by_codes_equals_the_groupby_path(monkeypatch):
    """Categorical cell keys grouped by their codes give the cells, dtypes, seeds and intervals of
    pandas' groupby: unused categories, a missing key (a cell of its own), NaN values."""

    rng = np.random.default_rng(3)
    n = 300
    frame = pd.DataFrame(
        {
            "judge": pd.Categorical(rng.choice(["B", "A", None], n), categories=["B", "A", "unused"]),
            "difficulty": pd.Categorical(rng.choice(["hard", "easy"], n), categories=["easy", "hard", "medium"]),
            "dag_type": rng.choice(["chain", "fan"], n),
            "mu": np.where(rng.random(n) < 0.05, np.nan, rng.choice([0.0, 0.25, 0.5, 1.0], n)),
        }
    )
    args = (["judge", "difficulty"], "mu", "dag_type", 300, 7)
    got = S.bootstrap_cells(frame, *args)
    want = (
        frame.groupby(["judge", "difficulty"], observed=True, dropna=False)["mu"].agg(["mean", "count"]).reset_index()
    )
    np.testing.assert_allclose(got["mean"], want["mean"])
    assert got["n"].tolist() == want["count"].tolist()
    assert got["judge"].isna().sum() == 2  # the missing judge is a cell per difficulty
