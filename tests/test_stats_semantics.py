"""The paper's definitions, exactly (issue 9 §2) and the GT lift's estimate vs interval (issue 14 item 3)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import ajb_verify as verify
from ajb_utils import stats
from ajb_utils.schema import METRICS
from ajb_utils.tables import anchoring

COLS = ["id", "generator", "difficulty", "judge", "condition", "metric", "llm_score", "p"]


def _frame(rows: list[tuple]) -> pd.DataFrame:
    """Return a verdicts frame from (id, generator, difficulty, judge, condition, metric, llm, p) rows."""
    v = pd.DataFrame(rows, columns=COLS)
    v["match"] = 1.0 - (v["p"] - v["llm_score"]).abs()
    for c in COLS[:6]:
        v[c] = v[c].astype("category")
    return v


def _record(
    rid: str,
    cond: str,
    llm: list[float],
    p: list[float],
    judge: str = "J",
    gen: str = "llama_3_1_8b_instruct",
    diff: str = "hard",
) -> list[tuple]:
    """Return the four metric rows of one record."""
    return [(rid, gen, diff, judge, cond, m, l, q) for m, l, q in zip(METRICS, llm, p)]


ONES = [1.0] * 4
NAN = [np.nan] * 4


# ------------------------------------------------------------------ item 3: paired lift everywhere
def _one_sided() -> pd.DataFrame:
    """r1 judged in both conditions (match 1 both); r2 has no with-GT verdict and a 0 without GT."""
    return _frame(
        _record("r1", "with_gt", ONES, ONES)
        + _record("r1", "without_gt", ONES, ONES)
        + _record("r2", "with_gt", NAN, ONES)
        + _record("r2", "without_gt", [0.0] * 4, ONES)
    )


def test_paired_lift_estimate_and_interval_measure_the_same_pairs():
    out = anchoring.paired_lift(_one_sided(), n_bootstrap=50, seed=0).set_index("judge")
    assert out.at["J", "lift"] == pytest.approx(0.0)  # paired: r1 only, 1 - 1
    assert out.at["J", "lo"] <= out.at["J", "lift"] <= out.at["J", "hi"]
    assert out.at["J", "lift_unpaired"] == pytest.approx(50.0)  # 100 (r1) - 50 (r1, r2)
    assert out.at["J", "n_pairs"] == 1


def test_notebook_15_lift_is_the_paired_estimate_too():
    sys.path.insert(0, str(Path(__file__).parent))
    from notebook_cells import run_cells  # notebook 15 computes its GT lift in a cell

    bench = SimpleNamespace(verdicts=_one_sided())
    ns = run_cells("15", ["v_new = tables.x2_verdicts"], bench=bench, run_name="J", n_bootstrap=50, seed=0)
    row = ns["lift_all"].iloc[0]
    assert row["lift"] == pytest.approx(0.0) and row["lo"] <= row["lift"] <= row["hi"]
    assert row["lift_unpaired"] == pytest.approx(50.0)


# ------------------------------------------------------------------ binary collapse, both readings
def test_binary_collapse_two_readings_on_a_hand_cell():
    # (p, llm): (0.5, 0.5), (1, 0.5), (0.25, 0.5), (0.75, 1)
    p = np.array([0.5, 1.0, 0.25, 0.75])
    llm = np.array([0.5, 0.5, 0.5, 1.0])
    judge = stats.binary_collapse(llm, p, reading="judge")
    assert judge.tolist() == [1.0, 1.0, 0.0, 1.0]
    # judge side only: match = 1 - |p - l| = 0.5, 1, 0.75, 0.75 -> mean 0.75
    v = _frame([("r", "g", "hard", "J", "with_gt", m, l, q) for m, l, q in zip(METRICS, llm, p)])
    a_judge = stats.align(stats.binary_verdicts(v, reading="judge"))["align"].item()
    assert a_judge == pytest.approx(75.0)
    # judge and reference collapsed: p -> 1, 1, 0, 1; every remapped 0.5 is correct -> 4 / 4
    a_both = stats.align(stats.binary_verdicts(v, reading="both"))["align"].item()
    assert a_both == pytest.approx(100.0)
    with pytest.raises(ValueError, match="reading"):
        stats.binary_collapse(llm, p, reading="other")


# ------------------------------------------------------------------ missing-verdict rules
def _missing_cell() -> pd.DataFrame:
    """r1 all matches 1; r2 one null metric and a 0.5; r3 no with-GT verdict at all; without GT all 1."""
    rows = _record("r1", "with_gt", ONES, ONES) + _record("r2", "with_gt", [1.0, np.nan, 1.0, 0.5], ONES)
    rows += _record("r3", "with_gt", NAN, ONES)
    for r in ("r1", "r2", "r3"):
        rows += _record(r, "without_gt", ONES, ONES)
    return _frame(rows)


def test_missing_rules_against_a_hand_computed_cell():
    v = _missing_cell()

    def cells(rule: str) -> dict[str, tuple[float, int]]:
        a = stats.align(v, missing=rule)
        return {str(c): (round(x, 4), int(n)) for c, x, n in zip(a["condition"], a["align"], a["n"])}

    # exclude: r2 = 2.5 / 3; r3 has nothing -> (1 + 0.8333) / 2
    assert cells("exclude") == {"with_gt": (91.6667, 2), "without_gt": (100.0, 3)}
    # miss (Appendix D): r2 = 2.5 / 4; r3's tuple is excluded in both conditions
    assert cells("miss") == {"with_gt": (81.25, 2), "without_gt": (100.0, 2)}
    # authors: a condition with no verdict is dropped there only; a single null metric is a miss
    assert cells("authors") == {"with_gt": (81.25, 2), "without_gt": (100.0, 3)}


def test_per_metric_align_follows_the_same_record_set():
    v = _missing_cell()
    for rule in ("exclude", "miss", "authors"):
        pm = stats.per_metric_align(v, missing=rule)
        a = stats.align(v, missing=rule).set_index("condition")["align"]
        if rule != "exclude":  # the four per-metric means average to the cell's alignment
            means = pm.groupby("condition", observed=True)["align"].mean()
            for c in a.index:
                assert means[c] == pytest.approx(a[c])


def test_missing_rule_fit_names_the_rule_the_reported_values_follow(monkeypatch):
    """With reported values made by the 'authors' rule, that rule fits exactly and is marked best."""
    from ajb_utils import paper
    from ajb_utils.data import load_bench
    from ajb_utils.tables import main_results

    bench = load_bench("sample")
    truth = main_results.table_T02(bench, missing="authors").rename(columns={"align": "value"})
    truth = truth.assign(stat="alignment", source="test", **{k: truth[k].astype(str) for k in main_results.T02_KEYS})
    monkeypatch.setattr(paper, "reported", lambda artifact: truth)
    fit = verify.missing_rule_fit(bench).set_index("missing")
    assert fit.at["authors", "max_abs_diff"] == pytest.approx(0.0)
    assert fit["best"].tolist() == [False, False, True]
    assert fit.at["exclude", "max_abs_diff"] > 0  # the sample's null metrics make the rules differ
