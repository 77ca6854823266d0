"""Tests for tables.breakdown / agreement / audit (notebooks 04, 05, 13, 14) against independent references."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

import ajb_verify as verify
from ajb_utils import paper, schema, tables


def _bench(verdicts: pd.DataFrame) -> SimpleNamespace:
    """Return a minimal Bench-like object holding only a verdicts frame."""
    return SimpleNamespace(verdicts=verdicts)


def _verdicts(rows: list[tuple]) -> pd.DataFrame:
    """Return a verdicts frame from (id, generator, difficulty, judge, condition, metric, dag_type, llm, p)."""
    cols = ["id", "generator", "difficulty", "judge", "condition", "metric", "dag_type", "llm_score", "p"]
    v = pd.DataFrame(rows, columns=cols)
    v["match"] = 1.0 - (v["p"] - v["llm_score"]).abs()
    for c in cols[:7]:
        v[c] = v[c].astype("category")
    return v


@pytest.fixture(scope="module")
def tiny() -> SimpleNamespace:
    """Two judges, two generators, one difficulty, two metrics, two topologies (hand-checkable)."""
    rows = []
    for j, offs in (("judge_gpt_5_4", 0.0), ("judge_qwq_32b", 0.5)):
        for g in ("qwen3_32b", "gpt5_4"):
            for rid, dag in (("r1", "linear"), ("r2", "linear"), ("r3", "diamond")):
                rows.append((rid, g, "hard", j, "with_gt", "tool_selection", dag, 1.0, 1.0))
                llm = 1.0 if (rid == "r1" or offs == 0.0) else 0.5
                rows.append(
                    (rid, g, "hard", j, "with_gt", "sequence_accuracy", dag, llm, 1.0 if g == "gpt5_4" else 0.0)
                )
    return _bench(_verdicts(rows))


def test_per_metric_long_over_equal_cells(tiny):
    t = tables.per_metric_long(tiny, judges=["judge_gpt_5_4", "judge_qwq_32b"], generators=["qwen3_32b", "gpt5_4"])
    t = t.set_index(["judge", "metric"])["align"]
    # GPT-5.4 judge: sequence llm 1 everywhere; p = 0 (qwen) and 1 (gpt5_4) -> cells 0 and 100 -> 50
    assert t[("judge_gpt_5_4", "sequence_accuracy")] == pytest.approx(50.0)
    # QwQ: r1 llm 1, r2/r3 0.5; qwen cell (p=0): (0 + .5 + .5)/3; gpt5_4 cell (p=1): (1 + .5 + .5)/3
    assert t[("judge_qwq_32b", "sequence_accuracy")] == pytest.approx(100 * ((1 / 3) + (2 / 3)) / 2)
    assert t[("judge_qwq_32b", "tool_selection")] == pytest.approx(100.0)
    # T24's own population (four open-weight generators) leaves GPT-5.4's outputs out: only the qwen cell
    own = tables.per_metric_long(tiny, judges=["judge_gpt_5_4"]).set_index("metric")
    assert own.loc["sequence_accuracy", "align"] == pytest.approx(0.0) and own["n_cells"].eq(1).all()


def test_t24_and_t28_pool_records_as_the_paper_does():
    """A cell of 3 records at 100 % and one of 1 record at 0 %: pooled 75 %, not the cells' mean 50 %
    (the paper's T24 rows sit on Table 2 weighted by Table 9's record counts, not on its plain mean)."""
    rows = [
        (f"r{i}", "qwen3_32b", "hard", "judge_gpt_5_4", "with_gt", "tool_selection", "linear", 1.0, 1.0)
        for i in range(3)
    ]
    rows.append(("r9", "smollm3_3b", "hard", "judge_gpt_5_4", "with_gt", "tool_selection", "linear", 1.0, 0.0))
    b = _bench(_verdicts(rows))
    pm = tables.per_metric_long(b, judges=["judge_gpt_5_4"]).set_index("metric")
    assert pm.loc["tool_selection", "align"] == pytest.approx(75.0) and pm.loc["tool_selection", "n_cells"] == 2
    topo = tables.topology_long(b, "with_gt", ["judge_gpt_5_4"]).set_index("dag_type")
    assert topo.loc["linear", "align"] == pytest.approx(75.0) and topo.loc["linear", "n_records"] == 4


def test_topology_weighting_shift_hand_computed():
    topo = pd.DataFrame(
        {
            "judge": ["a", "a", "b", "b"],
            "dag_type": ["x", "y", "x", "y"],
            "align": [80.0, 90.0, 70.0, 100.0],
            "n_records": [3, 1, 1, 1],
        }
    )
    s = verify.topology_weighting_shift(topo)
    assert s.loc["a", "unweighted"] == pytest.approx(85.0)
    assert s.loc["a", "count_weighted"] == pytest.approx((240 + 90) / 4)
    assert s.loc["b", "shift_pp"] == pytest.approx(0.0)


def test_table_T14_weights(tiny):
    t14 = tables.table_T14(tiny, judges=["judge_gpt_5_4", "judge_qwq_32b"])
    # no parameter_structure rows: every weighting gives the same score
    assert np.allclose(t14["equal"], t14["param_excluded"])
    assert (t14["rank_equal"] == t14["rank_param_excluded"]).all()


def test_table_T14_weights_with_parameter_structure_rows():
    """A: tool 100, param 0; B: tool 60, param 80 (one cell, one record): hand-computed weighted means."""
    rows = []
    for j, tool, param in (("judge_gpt_5_4", 1.0, 0.0), ("judge_qwq_32b", 0.6, 0.8)):
        rows.append(("r1", "qwen3_32b", "hard", j, "with_gt", "tool_selection", "linear", 1.0, tool))
        rows.append(("r1", "qwen3_32b", "hard", j, "with_gt", "parameter_structure", "linear", 1.0, param))
    t14 = tables.table_T14(_bench(_verdicts(rows)), judges=["judge_gpt_5_4", "judge_qwq_32b"])
    a, b = t14.loc["judge_gpt_5_4"], t14.loc["judge_qwq_32b"]
    assert (a["equal"], b["equal"]) == (pytest.approx(50.0), pytest.approx(70.0))
    assert (a["param_x0.5"], b["param_x0.5"]) == (pytest.approx(100 / 1.5), pytest.approx(100 / 1.5))
    assert (a["param_excluded"], b["param_excluded"]) == (pytest.approx(100.0), pytest.approx(60.0))
    assert (a["rank_equal"], a["rank_param_excluded"]) == (2, 1)  # excluding the metric flips the order
    assert a["shift_excluded_pp"] == pytest.approx(50.0)


def test_pairwise_kappa_matches_sklearn(tiny):
    from sklearn.metrics import cohen_kappa_score

    pw = tables.pairwise_long(tiny, judges=["judge_gpt_5_4", "judge_qwq_32b"], conditions=["with_gt"])
    v = tiny.verdicts
    wide = v.pivot_table(index=["id", "generator", "metric"], columns="judge", values="llm_score", observed=True)
    a = (wide["judge_gpt_5_4"] * 2).astype(int)
    b = (wide["judge_qwq_32b"] * 2).astype(int)
    assert pw["kappa"].iloc[0] == pytest.approx(cohen_kappa_score(a, b, labels=[0, 1, 2]))
    assert pw["agreement"].iloc[0] == pytest.approx(100 * (a == b).mean())


def test_tier_gap_rho_matches_scipy():
    pw = pd.DataFrame(
        {
            "judge": ["judge_gpt_oss_20b", "judge_gpt_oss_20b", "judge_qwq_32b"],
            "judge_2": ["judge_qwq_32b", "judge_gpt_5_4", "judge_gpt_5_4"],
            "condition": "without_gt",
            "kappa": [0.5, 0.1, 0.3],
        }
    )
    gap = [1, 3, 2]
    assert verify.tier_gap_rho(pw, "without_gt") == pytest.approx(sps.spearmanr(gap, [0.5, 0.1, 0.3]).statistic)


def test_t29_rho_from_paper_columns():
    rep = paper.reported("T29").dropna(subset=["judge"])
    t29 = pd.DataFrame(
        {
            "standard": rep.query("variant == 'standard' and stat == 'alignment'")["value"].to_numpy(),
            "binary": rep.query("variant == 'binary'")["value"].to_numpy(),
        }
    )
    rho, _ = verify.t29_spearman(t29)
    assert rho == pytest.approx(-0.029, abs=0.001)  # README item 10: the paper prints 0.03 without sign


def test_self_bias_sign(tiny):
    b = tables.self_bias(tiny, judges=["judge_gpt_5_4"]).set_index(["generator", "metric"])["bias"]
    assert b[("qwen3_32b", "sequence_accuracy")] == pytest.approx(1.0)  # llm 1, p 0
    assert b[("gpt5_4", "sequence_accuracy")] == pytest.approx(0.0)
    assert b[("qwen3_32b", "all")] == pytest.approx(0.5)


# ---- the audit on the paper's own Table 2 (values from data/paper/README.md) -------------------
@pytest.fixture(scope="module")
def t2() -> pd.DataFrame:
    return paper.reported("T02")


def test_decision_guide_four_generators_reproduces_paper_T06(t2):
    guide = tables.decision_guide(t2, schema.OPEN_WEIGHT_GENERATORS)
    cmp_ = verify.compare_T06(guide, paper.reported("T06"))
    assert (cmp_["same_best"] == "yes").all()
    assert cmp_["diff_best"].abs().max() <= 0.05 + 1e-9
    # five-generator QwQ-32B GT easy is 92.3, not the printed 94.0
    five = tables.decision_guide(t2).set_index(["condition", "difficulty"])
    assert five.loc[("with_gt", "easy"), "best_align"] != pytest.approx(94.0, abs=0.05)


def test_audit_table2_on_paper(t2):
    x1 = verify.audit_table2(t2, paper.reported("T06"))
    assert {"claim_id", "kind", "tolerance", "holds", "checked on"} <= set(x1.columns)
    four = x1[x1["checked on"].str.contains("4 open-weight")].set_index("claim_id")
    five = x1[x1["checked on"].str.contains("5 generators")].set_index("claim_id")
    find = x1[x1["checked on"] == "paper T02"].set_index("claim_id")
    # the guide's numbers are four-generator means, its caption says five (README item 1)
    assert four.loc["X1.qwq_mean_with_gt", "reproduced value"] == "89.12"
    assert five.loc["X1.qwq_mean_with_gt", "reproduced value"] == "87.99"
    assert four.loc["X1.T06_from_T02", "holds"] == "yes" and five.loc["X1.T06_from_T02", "holds"] == "no"
    assert five.loc["X1.guide_takeaways_5gen", "holds"] == "no"
    # Findings on their definitions: Eq. 5b's four generators for the lifts, five for the rest
    assert find.loc["CF2.lift_gemini", "reproduced value"] == "-3.85"
    assert find.loc["CF2.lift_gemini", "holds"] == "yes"
    assert find.loc["CF1.monotone_pairs", "reproduced value"] == "30/30 (100.0%)"
    assert find.loc["CF1.band_generators", "holds"] == "no"  # 2 of 5 (README item 3)
    assert find.loc["CF3.qwq_best_with_gt", "holds"] == "yes"
    assert "11 if ties count" in find.loc["CF3.qwq_best_with_gt", "note"]


def test_audit_cross_tables_known_inconsistencies():
    x = verify.audit_cross_tables().set_index("claim_id")
    assert x.loc["X1.F10_from_T03", "holds"] == "no"  # 87.9 vs 89.4 (README item 8)
    assert x.loc["X1.F10_kappa_from_T03", "holds"] == "yes"  # 0.61 is 0.606 rounded
    assert x.loc["X1.T09_totals", "holds"] == "yes"
    assert x.loc["X1.T09_tuples", "holds"] == "yes" and x.loc["X1.T09_instances", "holds"] == "yes"
    assert x.loc["X1.F03_from_T24", "holds"] == "yes" and x.loc["X1.F06_from_T07", "holds"] == "yes"
    assert x.loc["X1.F05_gaps", "holds"] == "yes"
    assert x.loc["X1.T01_from_T02", "holds"] == "no" and x.loc["X1.T29_from_T02", "holds"] == "no"
    assert x.loc["X1.T13_qwq_human_rank", "reproduced value"] == "rank 3 of 6"
    assert x.loc["X1.T13_spearman", "holds"] == "yes"
    assert x.loc["X1.ci_half_width", "holds"] == "no"


def test_exports_are_declared():
    from ajb_utils.tables import agreement, breakdown, guide

    for mod in (breakdown, agreement, guide):
        for name in mod.__all__:
            # the very object, not a same-named one from another section (a shadowing star import)
            assert getattr(tables, name) is getattr(mod, name), name
    assert schema.MAIN_JUDGES[0] == "judge_gpt_5_4"


def test_per_metric_long_memo_follows_the_verdicts_content(tiny):
    """The memo is keyed by the verdicts' content: a frame changed in place is recomputed, and each
    call gets its own copy (changing it changes no later result)."""
    v = tiny.verdicts.copy()
    bench = _bench(v)
    first = tables.per_metric_long(bench)
    first.loc[:, "align"] = -1.0  # the caller's copy
    again = tables.per_metric_long(bench)
    assert (again["align"] >= 0).all()
    v.loc[v["metric"] == "tool_selection", "llm_score"] = 0.0  # in place: same object, new content
    v["match"] = 1.0 - (v["p"] - v["llm_score"]).abs()
    changed = tables.per_metric_long(bench)
    tool = changed[changed["metric"] == "tool_selection"]
    assert (tool["align"] == 0.0).all() and not changed.equals(again)
