"""The failure gallery's selection rules (notebook 03's cells) on the sample: each case found, satisfying
its rule, deterministic; and `tables.case_view`, which shows a case."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ajb_utils import schema, tables
from ajb_utils.data import load_bench


@pytest.fixture(scope="module")
def bench():
    """Return the sample's released judges with justifications, loaded once."""
    return load_bench("sample", judges=list(schema.JUDGES), runs=None, justifications=True)


def _gallery(bench) -> pd.DataFrame:
    """Return the gallery's cases as notebook 03's cells pick them on `bench`."""
    sys.path.insert(0, str(Path(__file__).parent))
    from notebook_cells import run_cells

    return run_cells("03", ["def first(", "q = v[np.isclose(", "def names("], bench=bench)["gal"]


@pytest.fixture(scope="module")
def cases(bench):
    """Return the gallery's cases on the sample."""
    return _gallery(bench)


def _verdicts(bench, row, condition: str, metric: str | None = None) -> pd.Series:
    """Return the six judges' verdicts of one generation (and metric) in one condition."""
    v = bench.verdicts
    m = (
        (v["id"].astype(str) == row["id"])
        & (v["generator"].astype(str) == row["generator"])
        & (v["difficulty"].astype(str) == row["difficulty"])
        & (v["condition"] == condition)
        & v["judge"].isin(schema.MAIN_JUDGES)
    )
    if metric is not None:
        m &= v["metric"] == metric
    return v.loc[m, "llm_score"]


def _generation(bench, row) -> pd.Series:
    """Return the generation row of a case."""
    g = bench.generations
    return g[
        (g["id"].astype(str) == row["id"])
        & (g["generator"].astype(str) == row["generator"])
        & (g["difficulty"].astype(str) == row["difficulty"])
    ].iloc[0]


def test_every_rule_finds_a_case_on_the_sample(cases) -> None:
    """The three rules each find a record on the sample (none falls back to 'no record')."""
    assert list(cases.index) == ["flawed_hard_passed", "p075_tie", "order_swap"]
    assert cases["id"].notna().all()


def test_flawed_hard_plan_is_passed_by_every_judge(bench, cases) -> None:
    """The case is hard, flawed (mean p < 1), and gets 1.0 from all six judges on all four metrics without GT."""
    row = cases.loc["flawed_hard_passed"]
    assert row["difficulty"] == "hard" and _generation(bench, row)["p_mean"] < 1.0
    l = _verdicts(bench, row, "without_gt")
    assert len(l) == 24 and (l == 1.0).all()


def test_p075_case_splits_judges_between_05_and_1(bench, cases) -> None:
    """The metric has p = 0.75 and, in one condition, both 0.5 and 1.0 verdicts, which score the same match."""
    row = cases.loc["p075_tie"]
    hit = False
    for cond in schema.MAIN_CONDITIONS:
        l = _verdicts(bench, row, cond, row["metric"])
        hit |= (l == 0.5).any() and (l == 1.0).any()
    g = _generation(bench, row)
    col = {
        "tool_selection": "p_tool",
        "parameter_structure": "p_param",
        "sequence_accuracy": "p_seq",
        "query_coverage": "p_cov",
    }[row["metric"]]
    assert g[col] == pytest.approx(0.75) and hit
    assert 1 - abs(0.75 - 0.5) == 1 - abs(0.75 - 1.0)


def test_order_swap_has_the_expected_tools_in_another_order(bench, cases) -> None:
    """The generated tool names are a permutation of the expected ones, not the same order, p_seq < 1, and the
    with-GT and without-GT sequence verdicts differ."""
    row = cases.loc["order_swap"]
    g = _generation(bench, row)
    rec = bench.records[bench.records["id"].astype(str) == row["id"]].iloc[0]
    gen_names = [c["name"] for c in g["generated_calls"]]
    exp_names = [c["name"] for c in rec["expected_calls"]]
    assert sorted(gen_names) == sorted(exp_names) and gen_names != exp_names and g["p_seq"] < 1
    a = _verdicts(bench, row, "with_gt", "sequence_accuracy").mean()
    b = _verdicts(bench, row, "without_gt", "sequence_accuracy").mean()
    assert a != b


def test_selection_is_deterministic_under_row_order(bench, cases) -> None:
    """Shuffling the verdict rows and the generations does not change a single case."""
    rng = np.random.default_rng(5)
    shuffled = dataclasses.replace(
        bench,
        verdicts=bench.verdicts.iloc[rng.permutation(len(bench.verdicts))],
        generations=bench.generations.iloc[rng.permutation(len(bench.generations))],
    )
    again = _gallery(shuffled)
    pd.testing.assert_frame_equal(again, cases)


def test_no_case_says_so() -> None:
    """On data where no record qualifies, a rule reports that instead of raising."""
    b = load_bench("sample", judges=list(schema.JUDGES), runs=None)
    empty = dataclasses.replace(b, verdicts=b.verdicts.iloc[:0])
    out = _gallery(empty)
    assert out["id"].isna().all() and out["why"].str.contains("no record").all()


def test_plan_diff_hand_case() -> None:
    """A swapped pair shows as one removed and one added line; identical plans say so."""
    a = [{"name": "f", "arguments": {"x": 1}}, {"name": "g", "arguments": {}}]
    d = tables.plan_diff(a, a[::-1])
    assert "-f(x=1)" in d or "-g()" in d
    assert sum(line.startswith(("+f", "+g")) for line in d.splitlines()) == 1
    assert tables.plan_diff(a, a) == "(identical plans)"
    assert tables.plan_lines(None) == ["(no parseable plan)"]


def test_case_view_shows_every_judge_both_conditions(bench, cases) -> None:
    """A case view has three queries, p per metric, every judge's verdicts under both conditions, justifications."""
    row = cases.loc["order_swap"]
    view = tables.case_view(bench, row["id"], row["generator"], row["difficulty"])
    assert len(view["queries"]) == 3 and list(view["p"]["metric"]) == schema.METRICS
    assert list(view["verdicts"].index) == schema.JUDGES and view["verdicts"].shape[1] == 8
    assert len(view["justifications"]) == 28 and view["justifications"]["with_gt"].str.contains(":").any()
    assert view["diff"].startswith("--- reference (GT)")


def test_write_case_writes_the_whole_case_labelled(bench, cases, tmp_path) -> None:
    """The case file holds every judge's justification row, the three queries and the record, and
    is labelled synthetic in a sample folder (the notebook links it without showing the case)."""
    from ajb_utils import report

    row = cases.loc["p075_tie"]
    view = tables.case_view(bench, row["id"], row["generator"], row["difficulty"])
    folder = tmp_path / "sample"
    folder.mkdir()
    path = report.write_case(view, folder, "GAL", "case_p075_tie")
    assert path == folder / "GAL_case_p075_tie.csv"
    whole = pd.read_csv(path)
    assert len(whole) == len(view["justifications"]) == 28
    assert {"query_easy", "query_medium", "query_hard", "id", "generator"} <= set(whole.columns)
    assert (whole["id"] == row["id"]).all() and "data" in whole.columns


def test_the_brief_shows_each_judges_justification_on_the_flawed_metrics(bench, cases) -> None:
    """One record on screen (issue 49): each judge's verdict and justification with and without GT, on the
    case's largest flaw (the metrics at its lowest p, below 1); the verdict in each cell is the verdict grid's."""
    from ajb_utils import report

    row = cases.loc["flawed_hard_passed"]
    view = tables.case_view(bench, row["id"], row["generator"], row["difficulty"])
    shown = report.flawed_justifications(view)
    flawed = set(view["p"].loc[view["p"]["p"] == view["p"]["p"].min(), "metric"])
    assert flawed and view["p"]["p"].min() < 1 and set(shown.index.get_level_values("metric")) == flawed
    assert list(shown.columns) == [schema.CONDITION_DISPLAY[c] for c in schema.MAIN_CONDITIONS]
    grid = view["verdicts"]
    for (judge, metric), cells in shown.iterrows():
        config = next(j for j in grid.index if schema.display(j) == judge)
        for cond in schema.MAIN_CONDITIONS:
            text, verdict = cells[schema.CONDITION_DISPLAY[cond]], grid.loc[config, (cond, metric)]
            if pd.isna(verdict):  # a null verdict (the loader's counted case) says so
                assert text in ("null", "(no verdict)"), text
            else:
                assert text.startswith(f"{verdict:g}: ") and len(text) > len(f"{verdict:g}: "), text
    assert set(report.flawed_justifications(view, "tool_selection").index.get_level_values("metric")) == {
        "tool_selection"
    }


def test_a_record_without_topology_is_named_so(bench) -> None:
    """The sample's one record with a null dag_type (messy.py) shows '(no topology)', not 'nan'."""
    rec = bench.records[bench.records["dag_type"].isna()].iloc[0]
    g = bench.generations[bench.generations["id"].astype(str) == str(rec["id"])].iloc[0]
    view = tables.case_view(bench, str(rec["id"]), str(g["generator"]), str(g["difficulty"]))
    assert view["record"]["dag_type"].item() == "(no topology)"
