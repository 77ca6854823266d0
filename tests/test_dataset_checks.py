"""Dataset claims are checked on the six named topologies: a record without a topology (an exclusion
row of T07) is not a seventh topology competing for 'rarest'."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd

import ajb_verify as verify
from ajb_utils import schema


def _t07(counts: dict[str, int]) -> pd.DataFrame:
    """Return a T07-shaped frame with the given topology counts and a total row."""
    out = pd.DataFrame({"dag_type": list(counts), "records": list(counts.values())})
    total = int(out["records"].sum())
    out["share"] = 100.0 * out["records"] / total
    out.loc[len(out)] = ["total", total, 100.0]
    return out


def test_a_null_topology_is_not_the_rarest_topology() -> None:
    counts = {t: 20 for t in schema.TOPOLOGIES} | {"loop_like": 5, schema.NO_TOPOLOGY: 1}
    t07 = _t07(counts)
    t08 = pd.DataFrame(
        {
            "variant": ["expected_tool_calls_per_record", "available_tools_per_record", "parameters_per_tool"],
            "min": [2, 8, 1],
            "max": [5, 19, 4],
            "median": [3, 12, 2],
        }
    )
    t09 = pd.DataFrame({"generator": ["total"], "valid": [100], "theoretical_max": [120]})
    verdicts = pd.DataFrame(
        {c: pd.Series(dtype=object) for c in ["generator", "judge", "difficulty", "id", "condition", "dag_type"]}
        | {"llm_score": pd.Series(dtype=float)}
    )  # the corpus checks read it; none here
    bench = SimpleNamespace(synthetic=True, records=pd.DataFrame({"id": range(126)}), verdicts=verdicts)
    rarest = next(v for v in verify.dataset_checks(bench, t07, t08, t09) if v.claim_id == "F06.loop_like_rarest")
    assert rarest.holds is True, rarest
    assert schema.NO_TOPOLOGY not in rarest.reproduced


def test_null_tuples_flags_a_tuple_with_a_condition_without_any_verdict() -> None:
    """A (generator, judge, difficulty, id) tuple is null when one of its conditions has no verdict
    at all (every metric NaN); a single NaN metric next to a verdict is not a null condition."""
    j1, j2 = schema.MAIN_JUDGES[:2]
    rows = []
    for judge, cond, scores in [
        (j1, "with_gt", [1.0, np.nan]),  # one verdict: judged
        (j1, "without_gt", [np.nan, np.nan]),  # none: the tuple is null
        (j2, "with_gt", [0.5, 1.0]),
        (j2, "without_gt", [1.0, 0.0]),
    ]:
        rows += [("r1", "g", "hard", judge, cond, m, s, "chain") for m, s in zip(["a", "b"], scores)]
    cols = ["id", "generator", "difficulty", "judge", "condition", "metric", "llm_score", "dag_type"]
    v = pd.DataFrame(rows, columns=cols).astype({c: "category" for c in cols if c != "llm_score"})
    tup = verify.null_tuples(SimpleNamespace(verdicts=v)).set_index("judge")
    assert tup["null"].to_dict() == {j1: True, j2: False}
    assert tup["null"].dtype == bool and tup["n_conditions"].tolist() == [2, 2]
