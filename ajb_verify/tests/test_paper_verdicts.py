"""Hand-made cases for the comparisons with the paper (issue 19): the T29 reading and its bound,
a T06 slot held by another judge, printed precision with trailing zeros, "indistinguishable"
sign verdicts, the kappa-vs-tier search, Figure 10's matrices, and each corrected claim definition.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

import ajb_verify as verify
from ajb_utils import paper, schema, stats, tables


# ---- printed precision: from the printed string, trailing zeros kept -----------------------
def test_half_unit_keeps_trailing_zeros() -> None:
    assert verify.half_unit("13.0") == pytest.approx(0.05)
    assert verify.half_unit("0.430") == pytest.approx(0.0005)
    assert verify.half_unit("94.0") == pytest.approx(0.05)
    assert verify.half_unit("94") == pytest.approx(0.5)
    assert verify.printed_decimals("1,322") == 0


def test_transcriptions_keep_the_printed_string() -> None:
    t03 = paper.reported("T03").dropna(subset=["judge_2"]).set_index(["judge", "judge_2", "stat"])
    assert t03.at[("judge_gpt_5_4", "judge_claude_large", "kappa"), "printed"] == "0.430"
    assert t03.at[("judge_claude_large", "judge_qwq_32b", "kappa"), "printed"] == "0.490"
    t29 = paper.reported("T29").set_index(["judge", "variant", "stat"])
    assert t29.at[("judge_gpt_oss_20b", "binary_minus_standard", "delta"), "printed"] == "13.0"


def test_side_by_side_tolerance_from_trailing_zero() -> None:
    rep = pd.DataFrame(
        {
            "judge": ["a", "b", "c"],
            "stat": "x",
            "value": [13.0, 7.9, 0.43],
            "printed": ["13.0", "7.9", "0.430"],
            "source": "s",
        }
    )
    got = pd.DataFrame({"judge": ["a", "b", "c"], "stat": "x", "value": [13.3, 7.93, 0.4304]})
    sbs = verify.side_by_side(verify.compare(got, rep, on=["judge", "stat"])).set_index("judge")
    assert sbs.loc["a", "tolerance"] == pytest.approx(0.05)  # not 0.5: "13.0" has one decimal
    assert sbs.loc["a", "within"] == "no"
    assert sbs.loc["c", "tolerance"] == pytest.approx(0.0005) and sbs.loc["c", "within"] == "yes"
    assert "printed" not in sbs.columns
    # without the printed text, the old rule (most decimals of the stat's floats) would give 0.005
    old = verify.side_by_side(verify.compare(got, rep.drop(columns="printed"), on=["judge", "stat"]))
    assert old["tolerance"].iloc[0] == pytest.approx(0.005)


# ---- sign claims: a CI that spans 0 is "indistinguishable" ---------------------------------
def test_sign_with_ci_spanning_zero_is_indistinguishable() -> None:
    c = {"claim_id": "t", "description": "t", "kind": "sign", "paper_value": -1.0, "printed": "-1"}
    vd = verify.verdict(c, -0.4, ci=(-1.2, 0.3))
    assert vd.holds is None and vd.status == verify.INDISTINGUISHABLE
    assert vd.row()["holds"] == "indistinguishable" and "spans 0" in vd.note
    assert verify.verdict(c, -0.4, ci=(-1.2, -0.1)).status == "yes"
    assert verify.verdict(c, 0.4, ci=(0.1, 0.9)).status == "no"
    assert verify.verdict(c, 0.4, ci=(-0.1, 0.9)).status == verify.INDISTINGUISHABLE  # wrong sign, but noise
    assert verify.verdict(c, [-0.4, -0.5], ci=[(-1, -0.1), (-1, 0.2)]).status == verify.INDISTINGUISHABLE
    assert verify.checks([vd])["holds"].tolist() == ["indistinguishable"]


def test_na_notes_name_the_missing_data() -> None:
    vd = verify.not_reproduced("P.cot_max", "no thinking runs")
    assert vd.status == "n/a" and vd.note == verify.MISSING_DATA + "no thinking runs"
    assert verify.verdict("P.cot_max", []).note.startswith(verify.MISSING_DATA)


# ---- T29: the both-collapsed reading is compared; the judge-side bound -----------------------
def _t29_bench() -> pd.DataFrame:
    """Two verdicts of one judge: p = 0.75 with l = 1 (no 0.5), p = 1 with l = 0.5 (a 0.5-rate of 50 %)."""
    return pd.DataFrame(
        {
            "id": ["r1", "r2"],
            "generator": "g",
            "difficulty": "hard",
            "condition": "with_gt",
            "metric": "tool_selection",
            "judge": "j",
            "p": [0.75, 1.0],
            "llm_score": [1.0, 0.5],
        }
    ).assign(match=lambda d: 1 - (d["p"] - d["llm_score"]).abs())


def test_judge_side_collapse_gains_at_most_half_a_verdict_per_0_5() -> None:
    v = _t29_bench()
    std = stats.align(v, by=["judge"])["align"].iloc[0]
    side = stats.align(stats.binary_verdicts(v, "judge"), by=["judge"])["align"].iloc[0]
    both = stats.align(stats.binary_verdicts(v, "both"), by=["judge"])["align"].iloc[0]
    bound = verify.judge_side_bound(50.0)  # 0.5 x the 0.5-rate (%) = 25 pp
    assert std == pytest.approx(100 * (0.75 + 0.5) / 2)
    assert side == pytest.approx(100 * (0.75 + 1.0) / 2)  # only the 0.5 moves, by at most 0.5
    assert side - std <= bound + 1e-9
    assert both == pytest.approx(100.0)  # p = 0.75 collapses to 1 as well: the reference moves too
    assert both - std > bound  # so only this reading can exceed the bound, as the paper's T29 does


def test_compare_T29_uses_the_both_collapsed_reading() -> None:
    t29 = pd.DataFrame(
        {
            "standard": [80.0],
            "binary": [84.0],
            "delta": [4.0],
            "binary_both": [88.0],
            "delta_both": [8.0],
            "half_credit_rate": [14.0],
        },
        index=pd.Index(["judge_qwq_32b"], name="judge"),
    )
    rep = pd.DataFrame(
        {
            "judge": "judge_qwq_32b",
            "condition": "with_gt",
            "variant": ["standard", "binary", "binary_minus_standard", "standard"],
            "stat": ["alignment", "alignment", "delta", "half_credit_rate"],
            "value": [80.0, 88.0, 8.0, 14.0],
            "printed": ["80.0", "88.0", "8.0", "14.0"],
            "source": "s",
        }
    )
    cmp = verify.compare_T29(t29, rep).set_index("variant")
    assert cmp.loc["binary", "reproduced"] == 88.0 and cmp.loc["binary", "judge_side"] == 84.0
    assert cmp.loc["delta", "diff"] == 0.0 and cmp.loc["delta", "judge_side_bound"] == pytest.approx(7.0)
    assert np.isnan(cmp.loc["standard", "judge_side_bound"])


def test_audit_states_the_bound_the_papers_T29_breaks() -> None:
    row = verify.audit_text_table().set_index("claim_id").loc["X1.T29_judge_side_bound"]
    assert row["holds"] == "no" and "GPT-OSS-120B delta 7.9 vs bound 7.0" in row["note"]
    assert "Gemini-2.5-Pro delta 8.3 vs bound 6.1" in row["note"]


# ---- T06: a value counts only with the paper's judge in the slot ----------------------------
def test_T06_value_with_another_judge_in_the_slot_is_not_within() -> None:
    rep = paper.reported("T06")
    guide = rep[rep["variant"].isin(["best", "runner_up"])].pivot(
        index=["condition", "difficulty"], columns="variant", values=["judge", "value"]
    )
    guide.columns = [f"{a}_{b}" for a, b in guide.columns]
    guide = guide.reset_index().rename(
        columns={
            "judge_best": "best",
            "judge_runner_up": "runner_up",
            "value_best": "best_align",
            "value_runner_up": "runner_up_align",
        }
    )
    guide["best_align"] = guide["best_align"].astype(float)
    guide["runner_up_align"] = guide["runner_up_align"].astype(float)
    ok = verify.side_by_side(verify.compare_T06_values(guide, rep))
    assert (ok["within"] == "yes").all() and (ok["same_item"] == "yes").all()
    wrong = guide.copy()
    i = wrong.index[(wrong["condition"] == "without_gt") & (wrong["difficulty"] == "medium")][0]
    wrong.loc[i, "runner_up"] = "judge_claude_large"  # same value, another judge
    sbs = verify.side_by_side(verify.compare_T06_values(wrong, rep))
    bad = sbs[(sbs["condition"] == "without_gt") & (sbs["difficulty"] == "medium") & (sbs["variant"] == "runner_up")]
    assert bad["difference"].iloc[0] == 0.0 and bad["within"].iloc[0] == "no"
    assert (sbs["within"] == "yes").sum() == len(sbs) - 1


# ---- the authors' rule is every paper comparison's default --------------------------------
def test_the_library_has_one_default_the_authors_rule() -> None:
    import inspect

    assert stats.PAPER_MISSING == "authors"
    for fn in (
        tables.table_T02,
        tables.per_metric_long,
        tables.topology_long,
        verify.jury_checks,
        verify.weighting_checks,
        verify.hard_cell_means,
    ):
        assert inspect.signature(fn).parameters["missing"].default == "authors", fn.__name__
    for fn in (stats.align, stats.record_alignment, stats.per_metric_align, stats.bootstrap_diff_ci):
        assert inspect.signature(fn).parameters["missing"].default == "authors", fn.__name__
    assert stats.rule_name(stats.PAPER_MISSING).startswith("authors' rule")


def test_authors_rule_against_a_hand_computed_cell() -> None:
    # record r1: 3 of 4 metrics judged (one null), matches 1, 1, 0.5 -> authors 2.5 / 4, exclude 2.5 / 3
    # record r2: every metric null (no verdict in this condition) -> dropped by both rules
    rows = []
    for rid, llm in (("r1", [1.0, 1.0, 0.5, np.nan]), ("r2", [np.nan] * 4)):
        for m, l in zip(schema.METRICS, llm):
            rows.append(
                {
                    "id": rid,
                    "generator": "g",
                    "difficulty": "hard",
                    "condition": "with_gt",
                    "judge": "j",
                    "metric": m,
                    "p": 1.0,
                    "llm_score": l,
                }
            )
    v = pd.DataFrame(rows).assign(match=lambda d: 1 - (d["p"] - d["llm_score"]).abs())
    authors = stats.align(v, by=["judge"], missing=stats.PAPER_MISSING)
    assert authors["align"].iloc[0] == pytest.approx(100 * 2.5 / 4) and authors["n"].iloc[0] == 1
    assert stats.align(v, by=["judge"], missing="exclude")["align"].iloc[0] == pytest.approx(100 * 2.5 / 3)
    assert stats.align(v, by=["judge"])["align"].iloc[0] == pytest.approx(100 * 2.5 / 4)  # the one default


# ---- the kappa-vs-tier search ----------------------------------------------------------------
def test_tier_search_enumerates_every_weak_ordering_and_finds_no_capacity_tiering() -> None:
    t03 = paper.reported("T03").query("stat == 'kappa' and condition == 'with_gt'").dropna(subset=["judge_2"])
    search = verify.tier_search(t03.assign(kappa=t03["value"]))
    assert len(search) == 4683  # the ordered Bell (Fubini) number of 6
    assert search["capacity_ordered"].sum() == 26
    hit = search[(search["rho"] + 0.171).abs() <= 0.0005]
    assert len(hit) == 2 and not hit["capacity_ordered"].any()
    schema_rho = verify.tier_gap_rho(t03.assign(kappa=t03["value"]), "with_gt")
    assert schema_rho == pytest.approx(-0.2275, abs=1e-4)  # schema.JUDGE_TIER gives -0.227, not -0.171


def test_tier_search_rho_is_scipys_spearman_for_every_tiering() -> None:
    """The tierings' rhos are computed as one array; each is scipy's Spearman rho of its tier gaps
    and the kappas (NaN where every gap is equal), on Table 3 and on random values with ties."""
    from scipy.stats import spearmanr

    from ajb_verify.agreement import _row_spearman

    t03 = paper.reported("T03").query("stat == 'kappa' and condition == 'with_gt'").dropna(subset=["judge_2"])
    search = verify.tier_search(t03.assign(kappa=t03["value"]))
    tier = {schema.display(j): j for j in schema.MAIN_JUDGES}
    a, b = t03["judge"].astype(str).to_numpy(), t03["judge_2"].astype(str).to_numpy()
    for _, row in search.iloc[::97].iterrows():  # every 97th of the 4,683 tierings
        t = {tier[k]: int(v) for k, v in (p.rsplit("=", 1) for p in row["tiering"].split(", "))}
        gap = np.abs(np.array([t[x] for x in a]) - np.array([t[y] for y in b]))
        ref = spearmanr(gap, t03["value"].to_numpy(float)).statistic if len(set(gap)) > 1 else np.nan
        assert row["rho"] == pytest.approx(ref, abs=1e-12, nan_ok=True)
    rng = np.random.default_rng(7)
    x, y = rng.integers(0, 4, size=(50, 12)), rng.integers(0, 5, size=12).astype(float)
    x[3] = 2  # a constant row
    want = [spearmanr(r, y).statistic if len(set(r)) > 1 else np.nan for r in x]
    np.testing.assert_allclose(_row_spearman(x, y), want, atol=1e-12)


def test_kappa_tier_verdicts_say_their_definition_is_unknown() -> None:
    assert "unknown definition" in verify.agreement.TIER_NOTE


# ---- Figure 10: kappa and agreement derived from each printed matrix --------------------------
def test_matrix_stats_match_sklearn_on_a_hand_matrix() -> None:
    counts = {("0", "0"): 2, ("0", "0.5"): 1, ("0.5", "0.5"): 3, ("0.5", "1"): 2, ("1", "1"): 10, ("1", "0"): 2}
    a, b, rows = [], [], []
    for (x, y), n in counts.items():
        a += [float(x)] * n
        b += [float(y)] * n
    tot = sum(counts.values())
    for x, y in itertools.product(["0", "0.5", "1"], repeat=2):
        rows.append(
            {
                "judge": "A",
                "judge_2": "B",
                "condition": "with_gt",
                "stat": "share_of_verdicts",
                "variant": f"{x}|{y}",
                "value": 100 * counts.get((x, y), 0) / tot,
            }
        )
    ms = verify.matrix_stats(pd.DataFrame(rows)).iloc[0]
    lab = {0.0: 0, 0.5: 1, 1.0: 2}
    assert ms["kappa"] == pytest.approx(cohen_kappa_score([lab[x] for x in a], [lab[y] for y in b]))
    assert ms["agreement"] == pytest.approx(100 * 15 / 20)


def test_figure_10_matrix_implies_another_kappa_than_table_3() -> None:
    ms = verify.matrix_stats(paper.reported("F10").query("condition == 'with_gt'")).set_index(["judge", "judge_2"])
    assert ms.at[("judge_claude_large", "judge_gpt_oss_20b"), "kappa"] == pytest.approx(0.266, abs=0.001)
    assert ms.at[("judge_qwq_32b", "judge_gpt_oss_120b"), "agreement"] == pytest.approx(87.9, abs=0.05)
    row = verify.audit_text_table().set_index("claim_id").loc["X1.F10_kappa_from_matrix"]
    assert row["holds"] == "no" and "0.266 vs T03 0.225" in row["note"]


# ---- the corrected claim definitions ----------------------------------------------------------
def _cells(values: dict[str, list[float]], condition: str = "without_gt", difficulty: str = "hard") -> pd.DataFrame:
    rows = [
        {"generator": g, "judge": j, "difficulty": difficulty, "condition": condition, "align": x}
        for g, xs in values.items()
        for j, x in zip(schema.MAIN_JUDGES, xs)
    ]
    return pd.DataFrame(rows)


def test_band_is_four_of_five_generators_not_all_thirty_cells() -> None:
    vals = {g: [78.0, 79, 80, 80, 81, 81.5] for g in schema.GENERATORS}
    vals["smollm3_3b"] = [70.0, 71, 72, 73, 74, 75]  # the one generator outside, as the text allows
    four, out = verify.band_four_of_five(_cells(vals))
    assert out == "smollm3_3b" and len(four) == 24
    claim = verify.claim("CF1.hard_nogt_band")
    assert verify.verdict(claim, four).holds is True
    assert verify.verdict(claim, _cells(vals)["align"]).holds is False  # the old 30-cell reading fails


def test_medium_hard_drop_uses_the_four_open_weight_generators() -> None:
    rows = []
    for g in schema.GENERATORS:
        drop = 20.0 if g == "gpt5_4" else 6.0  # GPT-5.4 alone would pull a five-generator mean out of 5-7
        for d, x in (("easy", 95.0), ("medium", 90.0), ("hard", 90.0 - drop)):
            for c in schema.MAIN_CONDITIONS:
                rows += [
                    {"generator": g, "judge": j, "difficulty": d, "condition": c, "align": x - i * 0.1}
                    for i, j in enumerate(schema.MAIN_JUDGES)
                ]
    vs = {v.claim_id: v for v in verify.finding_verdicts(pd.DataFrame(rows))}
    assert vs["CF1.medium_hard_drop_gt"].reproduced == "6.00" and vs["CF1.medium_hard_drop_gt"].holds
    assert "5 generators: 8.80" in vs["CF1.medium_hard_drop_gt"].note


def test_finding_3_counts_ties_the_same_way_in_both_halves() -> None:
    # one (generator, difficulty) cell per condition where QwQ-32B ties for the top at one decimal
    gt = _cells({"llama_3_3_70b_instruct": [80.0, 80, 80, 85.01, 80, 85.04]}, "with_gt")
    nogt = _cells({"llama_3_3_70b_instruct": [80.0, 80, 80, 85.01, 80, 85.04]}, "without_gt")
    best = verify.finding3_best_judge(pd.concat([gt, nogt]), 5)
    # the claims read a tie at the top as no lead: 0 of 1 in both halves
    alone_gt = int((best.query("condition == 'with_gt'")["qwq"] & (best["n_tied"] == 1)).sum())
    alone_nogt = int((best.query("condition == 'without_gt'")["qwq"] & (best["n_tied"] == 1)).sum())
    assert alone_gt == alone_nogt == 0
    assert "a tie at the top is not a lead" in verify.claim("CF3.qwq_best_with_gt")["note"]
    assert "a tie at the top is not a lead" in verify.claim("CF3.qwq_best_without_gt")["note"]


def test_x3_population_is_the_six_topologies() -> None:
    rows = [
        {"dag_type": t, "difficulty": d, "VISIBLE": x}
        for t in ["all", *schema.TOPOLOGIES]
        for d, x in zip(schema.DIFFICULTIES, (60.0, 50.0, 40.0))
    ]
    vd = verify.checks_X3(pd.DataFrame(rows))[0]
    assert vd.reproduced == "6/6 (100.0%)" and vd.holds


def test_t05_paired_cells_can_fail() -> None:
    t26 = pd.DataFrame(
        {
            "generator": "g",
            "difficulty": "hard",
            "condition": ["with_gt"] * 12 + ["without_gt"] * 12,
            "delta": [0.1] * 23 + [np.nan],
            "source": "user runs",
        }
    )
    vd = verify.thinking_checks(tables.table_T05(t26)).set_index("claim_id").loc["T05.paired_cells"]
    assert vd["holds"] == "no" and vd["reproduced value"] == "23"


def test_frontier_lead_counts_cells_led_by_gemini_or_gpt_5_4() -> None:
    x = verify.audit_table2(paper.reported("T02")).query("`checked on` == 'paper T02'").set_index("claim_id")
    vd = x.loc["CF3.frontier_lead_without_gt"]
    assert vd["holds"] == "no" and "GPT-5.4 easy: Claude Sonnet 4.5" in vd["note"]  # Table 2's 87.3 / 85.4 / 81.2
    # per-generator ratios 1.33-1.61: "roughly 1.5x" each, read as the nearest half (docs/DECISIONS.md)
    assert x.loc["F08.slope_every_generator", ["reproduced value", "holds"]].tolist() == ["1.33-1.61", "yes"]


def test_lowest_and_highest_pair_orders() -> None:
    agree = pd.Series(
        {
            "judge_qwq_32b|judge_gpt_oss_120b": 89.4,
            "judge_claude_large|judge_gpt_oss_20b": 70.4,
            "judge_gpt_5_4|judge_claude_large": 78.4,
        }
    )
    assert verify.verdict("CJ.highest_pair", agree).holds and verify.verdict("CJ.lowest_pair", agree).holds
