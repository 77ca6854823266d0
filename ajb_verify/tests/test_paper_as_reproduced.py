"""The paper's own printed numbers as the test of every comparison and claim (issue 29).

Fed the paper's values (data/paper/) as if they were reproduced, every comparison must be within
tolerance and every claim must hold or be n/a with a reason, except the named paper
inconsistencies, each of which the X1 audit reports. The populations each artifact averages over
are pinned by the paper's own cross-table arithmetic.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import ajb_verify as verify
import every_claim  # a test helper: every claim checked on one Bench
from ajb_utils import paper, schema, stats, tables
from ajb_verify import headline

FOUR = schema.OPEN_WEIGHT_GENERATORS


def _t02() -> pd.DataFrame:
    """Return the paper's Table 2 alignment cells."""
    t = paper.reported("T02")
    return t[t["stat"] == "alignment"]


def _t02_mean(generators, condition: str | None = None) -> pd.Series:
    """Return the paper's T02 mean per (judge, condition) over the given generators."""
    t = _t02()
    t = t[t["generator"].isin(list(generators))]
    return t.groupby(["judge", "condition"])["value"].mean()


# ---- point 1: populations pinned by the paper's cross-table arithmetic -----------------------
def _t02_weighted_mean(generators) -> pd.Series:
    """Return the paper's T02 mean per (judge, condition) over the given generators, each (g, d) cell
    weighted by its valid records (Table 9): the mean of the records pooled."""
    n = paper.reported("T09").query("stat == 'valid_records'").dropna(subset=["difficulty"])
    n = n.set_index(["generator", "difficulty"])["value"]
    t = _t02()[_t02()["generator"].isin(list(generators))]
    t = t.assign(n=[n[(g, d)] for g, d in zip(t["generator"], t["difficulty"])])
    g = t.assign(x=t["value"] * t["n"]).groupby(["judge", "condition"])
    return g["x"].sum() / g["n"].sum()


def test_t24_row_mean_is_the_record_weighted_four_generator_t02_mean() -> None:
    """The paper's T24 pools records: every row's mean is Table 2's four-generator mean weighted by
    Table 9's record counts (QwQ-32B with GT: 89.25 printed, 89.262 weighted, 89.117 unweighted)."""
    t24 = paper.reported("T24").query("stat == 'alignment'")
    row = t24.groupby(["judge", "condition"])["value"].mean()
    weighted = row - _t02_weighted_mean(FOUR).reindex(row.index)
    plain = row - _t02_mean(FOUR).reindex(row.index)
    assert len(row) == 12 and weighted.abs().max() <= 0.025, weighted  # printed precision of 1-2 decimals
    assert (plain > 0.05).sum() >= 10, plain  # the cells' plain mean misses most rows
    assert row[("judge_qwq_32b", "with_gt")] == pytest.approx(89.25)
    d5 = row - _t02_mean(schema.GENERATORS).reindex(row.index)
    assert (d5.abs() > weighted.abs() + 0.1).all(), d5


def test_t28_record_weighted_mean_is_the_four_generator_t02_mean() -> None:
    t28 = paper.reported("T28").query("stat == 'alignment'")
    n = paper.reported("T07").query("stat == 'records'").set_index("dag_type")["value"]
    w = t28.assign(n=t28["dag_type"].map(n))
    g = w.assign(x=w["value"] * w["n"]).groupby("judge")
    mean = g["x"].sum() / g["n"].sum()
    m4 = _t02_mean(FOUR).xs("with_gt", level="condition").reindex(mean.index)
    m5 = _t02_mean(schema.GENERATORS).xs("with_gt", level="condition").reindex(mean.index)
    assert (mean - m4).between(-0.05, 0.2).all(), mean - m4
    assert ((mean - m5).abs() > (mean - m4).abs() + 0.1).all()


def test_t06_is_the_four_generator_mean_of_t02() -> None:
    t06 = paper.reported("T06").query("variant in ['best', 'runner_up']")
    idx = list(zip(t06["condition"], t06["difficulty"], t06["judge"]))
    for gens, ok in ((FOUR, True), (schema.GENERATORS, False)):
        t = _t02()[_t02()["generator"].isin(list(gens))]
        m = t.groupby(["condition", "difficulty", "judge"])["value"].mean().reindex(idx).to_numpy()
        # interval arithmetic: a printed 1-decimal mean vs the mean of 1-decimal cells, +-0.05 each
        assert (np.abs(m - t06["value"].to_numpy(float)) <= 0.1 + 1e-9).all() == ok


def test_t29_standard_is_the_five_generator_with_gt_mean() -> None:
    t29 = paper.reported("T29").query("variant == 'standard' and stat == 'alignment'").set_index("judge")["value"]
    m5 = _t02_mean(schema.GENERATORS).xs("with_gt", level="condition").reindex(t29.index)
    off = (t29 - m5).abs() > 0.1 + 1e-9
    # QwQ-32B's 87.6 is 0.39 below its own 15-cell mean: a listed paper inconsistency
    assert list(t29.index[off]) == ["judge_qwq_32b"]


def test_one_place_declares_each_population() -> None:
    for art in ("T24", "F03", "T28", "F09", "T03", "F10", "T06", "C-F2"):
        assert paper.population(art).generators == tuple(FOUR), art
    for art in ("T02", "T29", "C-F1", "C-F3", "F08", "C-J"):
        assert paper.population(art).generators == tuple(schema.GENERATORS), art
    assert all(paper.population(a).evidence for a in paper.POPULATIONS)


def test_rq3_best_single_judge_pools_records() -> None:
    """CJ.best_single_hard_nogt (79.8, GPT-5.4) is T02's hard without-GT cells pooled over records
    (Table 9 counts), not their plain mean; over four or five generators alike."""
    t = _t02().query("difficulty == 'hard' and condition == 'without_gt' and judge == 'judge_gpt_5_4'")
    n = paper.reported("T09").query("stat == 'valid_records' and difficulty == 'hard'").set_index("generator")["value"]
    printed = float(verify.claims().set_index("claim_id").loc["CJ.best_single_hard_nogt", "paper_value"])
    for gens in (FOUR, schema.GENERATORS):
        s = t[t["generator"].isin(list(gens))]
        pooled = (s["value"] * s["generator"].map(n)).sum() / s["generator"].map(n).sum()
        assert abs(pooled - printed) <= 0.05 < abs(s["value"].mean() - printed), (gens, pooled)


def _five_gen_bench() -> SimpleNamespace:
    """Return a bench of two judges on all five generators in which GPT-5.4's generations differ."""
    rows = []
    for g in schema.GENERATORS:
        for j in ("judge_qwq_32b", "judge_gpt_5_4"):
            for rid, dag in (("r1", "linear"), ("r2", "fan_out"), ("r3", "fan_in")):
                for c in schema.MAIN_CONDITIONS:
                    for m in schema.METRICS:
                        llm = 0.0 if g == "gpt5_4" else (0.5 if (rid == "r2" and j == "judge_qwq_32b") else 1.0)
                        rows.append((rid, g, "hard", j, c, m, dag, llm, 1.0))
    cols = ["id", "generator", "difficulty", "judge", "condition", "metric", "dag_type", "llm_score", "p"]
    v = pd.DataFrame(rows, columns=cols)
    v["match"] = 1.0 - (v["p"] - v["llm_score"]).abs()
    for c in cols[:7]:
        v[c] = v[c].astype("category")
    return SimpleNamespace(verdicts=v)


def test_t24_t28_t03_average_the_declared_generators_on_data() -> None:
    b = _five_gen_bench()
    pm = tables.per_metric_long(b, judges=["judge_qwq_32b", "judge_gpt_5_4"])
    assert set(pm["n_cells"]) == {4}  # 4 generators x 1 difficulty
    assert pm.set_index(["judge", "metric", "condition"])["align"].min() == pytest.approx(100 * 5 / 6)
    topo = tables.topology_long(b, "with_gt", ["judge_qwq_32b", "judge_gpt_5_4"])
    assert set(topo["n_cells"]) == {4}
    assert topo.set_index(["judge", "dag_type"])["align"][("judge_gpt_5_4", "linear")] == pytest.approx(100.0)
    pw = tables.pairwise_long(b, ["judge_qwq_32b", "judge_gpt_5_4"])
    assert set(pw["n"]) == {4 * 3 * 4}  # 4 generators x 3 records x 4 metrics, GPT-5.4's left out
    # T24's row mean equals Table 2's mean over the same generators (no verdict missing here)
    t2 = tables.table_T02(b).query("judge in ['judge_qwq_32b', 'judge_gpt_5_4'] and generator in @FOUR")
    row = pm.groupby(["judge", "condition"])["align"].mean()
    assert row.to_numpy() == pytest.approx(t2.groupby(["judge", "condition"])["align"].mean().to_numpy())


# ---- point 2: bounds at the precision the paper prints them --------------------------------
@pytest.mark.parametrize(
    ("claim_id", "value"),
    [
        ("P.c2_strong", [0.44, 1.04, 0.46]),
        ("P.cot_max", 0.34),
        ("P.temperature_spread", 0.64),
        ("CW.eq2_upper_bound_shift", 0.094),
        ("T06.hard_nogt_spread", 2.15),
    ],
)
def test_a_bound_holds_at_its_printed_precision(claim_id: str, value) -> None:
    assert verify.verdict(claim_id, value).holds is True


@pytest.mark.parametrize(
    ("claim_id", "value"),
    [("P.c2_strong", [0.44, 1.06]), ("P.cot_max", 0.36), ("CW.eq2_upper_bound_shift", 0.096)],
)
def test_a_bound_fails_beyond_its_printed_precision(claim_id: str, value) -> None:
    assert verify.verdict(claim_id, value).holds is False


def test_one_phrase_one_tolerance() -> None:
    # "roughly 1.5x" (Finding 1, Figure 8's caption): the same interval in both claims, the nearest half
    assert verify.accepted_interval("CF1.slope_ratio") == pytest.approx(
        verify.accepted_interval("F08.slope_every_generator")
    )
    for x, ok in ((1.74, True), (1.76, False), (1.26, True), (1.24, False)):
        assert verify.verdict("CF1.slope_ratio", x).holds is ok
        assert verify.verdict("F08.slope_every_generator", [x]).holds is ok


# ---- point 3: a stated count is compared as the count ---------------------------------------
def test_app_h_count_is_compared_as_stated() -> None:
    counts = pd.DataFrame(
        {"judge": ["judge_gemini_2_5_pro"], "difficulty": ["hard"], "instances": [1322], "n_records": [17700]}
    )
    assert [v.holds for v in verify.apph_checks(counts)] == [True]  # a perfect 1,322 of 17,700
    assert [v.holds for v in verify.apph_checks(counts.assign(instances=1321))] == [False]
    assert [v.holds for v in verify.apph_checks(counts.assign(instances=30), full_data=False)] == [None]


# ---- point 4: interval arithmetic on printed precision -------------------------------------
def _audit() -> pd.DataFrame:
    return verify.audit_cross_tables()


def test_t29_spearman_is_consistent_once_ties_are_unrounded() -> None:
    row = _audit().set_index("claim_id").loc["X1.T29_spearman"]
    assert row["holds"] == "yes", row.to_dict()


def test_t04_mean_is_consistent_within_printed_precision() -> None:
    row = _audit().set_index("claim_id").loc["X1.T04_from_T02"]
    assert row["holds"] == "yes", row.to_dict()


def test_interval_mean_of_printed_values() -> None:
    lo, hi = verify.mean_interval(["84.2", "84.3", "84.2", "84.3", "84.2", "84.2"])
    assert (lo, hi) == pytest.approx((84.18333, 84.28333), abs=1e-4)
    assert verify.printed_interval("84.3")[0] <= hi  # the intervals meet: rounding explains the difference
    assert verify.printed_interval("84.4")[0] > hi  # they do not


def test_spearman_range_over_ties_brackets_scipy() -> None:
    x = pd.Series([1.0, 2.0, 3.0, 4.0])
    y = pd.Series([2.0, 2.0, 3.0, 1.0])
    lo, hi = verify.spearman_tie_range(x, y)
    from scipy.stats import spearmanr

    assert lo <= spearmanr(x, y)[0] <= hi
    # the tie broken either way: ranks (3, 2, 4, 1) give -0.4, (2, 3, 4, 1) give -0.2
    assert (lo, hi) == pytest.approx((spearmanr(x, [2.1, 2.0, 3.0, 1.0])[0], spearmanr(x, [2.0, 2.1, 3.0, 1.0])[0]))
    assert (lo, hi) == pytest.approx((-0.4, -0.2))


# ---- every claim and every comparison on the paper's own numbers ----------------------------
@pytest.fixture(scope="module")
def own() -> pd.DataFrame:
    return verify.paper_claim_verdicts()


def _audit_all() -> pd.DataFrame:
    return pd.concat(
        [
            verify.audit_table2(paper.reported("T02"), paper.reported("T06")),
            verify.audit_cross_tables(),
            verify.audit_text_table(),
        ],
        ignore_index=True,
    )


def test_every_claim_gets_a_verdict_on_the_papers_numbers(own) -> None:
    assert every_claim.unchecked_claims(own) == []
    assert set(own["holds"]) <= {"yes", "no", "n/a"}
    na = own[own["holds"] == "n/a"]
    assert na["note"].str.startswith(verify.MISSING_DATA).all(), na[["claim_id", "note"]]


def test_no_claim_fails_outside_the_listed_paper_inconsistencies(own) -> None:
    bad = own[(own["holds"] == "no") & ~own["claim_id"].isin(verify.PAPER_INCONSISTENCIES)]
    assert bad.empty, bad[["claim_id", "paper value", "reproduced value", "checked on"]].to_string()


def test_each_listed_inconsistency_fails_and_has_its_audit_row(own) -> None:
    audit = _audit_all()
    for cid, why in verify.PAPER_INCONSISTENCIES.items():
        row = headline.audit_row(cid)  # the claim's own id, or its X1 twin
        assert (own.loc[own["claim_id"] == cid, "holds"] == "no").any(), (
            f"{cid} holds on the paper: not an inconsistency"
        )
        assert (audit.loc[audit["claim_id"] == row, "holds"] == "no").any(), f"{cid}: no failing audit row {row}"
        assert why


def test_every_comparison_path_is_within_tolerance_on_the_papers_numbers() -> None:
    comps = verify.paper_comparisons()
    assert {"T02", "T10", "T24", "F03", "T28"} <= set(comps)
    for art, sbs in comps.items():
        assert len(sbs) and (sbs["within"] == "yes").all(), (art, sbs[sbs["within"] != "yes"])


def test_the_decision_guide_from_t02_reproduces_t06_on_its_population() -> None:
    t2 = paper.reported("T02").query("stat == 'alignment'")
    guide = tables.decision_guide(t2, paper.population("T06").generators)
    sbs = verify.side_by_side(verify.compare_T06_values(guide, paper.reported("T06")), tolerance=0.05)
    assert (sbs["within"] == "yes").all(), sbs[sbs["within"] != "yes"]
    five = tables.decision_guide(t2, schema.GENERATORS)
    assert (verify.side_by_side(verify.compare_T06_values(five, paper.reported("T06")), 0.05)["within"] == "no").any()


def test_table2_summary_names_its_rule() -> None:
    v = _five_gen_bench()
    summ, rule = tables.table2_summary(v)
    assert rule == stats.rule_name("authors") and rule.startswith("authors' rule")
    cells = tables.table_T02(v)
    want = cells.groupby(["judge", "condition", "difficulty"], observed=True)["align"].mean().round(1)
    got = summ.stack(["condition", "difficulty"], future_stack=True).dropna()
    assert sorted(got.to_numpy()) == pytest.approx(sorted(want.to_numpy()))


def test_t24_from_t02_is_a_derived_path_that_pooling_passes_and_plain_means_fail() -> None:
    """T24's row means derived from Table 2 pooled by Table 9's records (the paper's own numbers) are
    within tolerance; the same path with the cells' plain mean, or over five generators, is not."""
    sbs = verify.paper_comparisons()["T24-from-T02"]
    assert len(sbs) == 12 and (sbs["within"] == "yes").all(), sbs
    assert sbs["tolerance"].max() <= verify.T24_FROM_T02_TOLERANCE + 0.001
    qwq = sbs.set_index(["judge", "condition"]).loc[("judge_qwq_32b", "with_gt")]
    assert qwq["reported"] == pytest.approx(89.25) and qwq["reproduced"] == pytest.approx(89.262, abs=5e-4)
    five = verify.side_by_side(verify.compare_T24_from_T02(schema.GENERATORS), verify.T24_FROM_T02_TOLERANCE)
    assert (five["within"] == "no").all()
    plain = _t02_mean(FOUR).rename("align").reset_index()
    rows = paper.reported("T24").query("stat == 'alignment'").groupby(["judge", "condition"])["value"].mean()
    cmp = verify.compare(plain, rows.reset_index(), on=["judge", "condition"], value="align")
    assert (verify.side_by_side(cmp, verify.T24_FROM_T02_TOLERANCE)["within"] == "no").sum() >= 10


def test_weighting_stability_pools_records_as_its_docstring_says() -> None:
    """Two cells of 1 and 3 records, matches 1.0 and 0.5: the pooled score is 62.5 (the cells' mean 75)."""
    rows = []
    for g, n, llm in (("llama_3_3_70b_instruct", 1, 1.0), ("qwen3_32b", 3, 0.5)):
        for i in range(n):
            for m in schema.METRICS:
                rows.append((f"{g}{i}", g, "easy", "judge_qwq_32b", "with_gt", m, "linear", llm, 1.0))
    cols = ["id", "generator", "difficulty", "judge", "condition", "metric", "dag_type", "llm_score", "p"]
    v = pd.DataFrame(rows, columns=cols)
    v["match"] = 1.0 - (v["p"] - v["llm_score"]).abs()
    for c in cols[:7]:
        v[c] = v[c].astype("category")
    rs = tables.weighting_stability(SimpleNamespace(verdicts=v), judges=["judge_qwq_32b"])
    assert rs.loc["equal", "judge_qwq_32b"] == pytest.approx(62.5)
