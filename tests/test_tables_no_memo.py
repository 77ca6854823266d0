"""A table handed out is the caller's: changing it never changes a later table (issue 32, no memos)."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from ajb_utils import schema, tables


def _bench() -> SimpleNamespace:
    """Return two judges on two generators, both conditions, hand-made verdicts."""
    rows = []
    for g in ("qwen3_32b", "smollm3_3b"):
        for j in ("judge_qwq_32b", "judge_gpt_5_4"):
            for rid, dag in (("r1", "linear"), ("r2", "fan_in")):
                for c in schema.MAIN_CONDITIONS:
                    for m in schema.METRICS:
                        llm = 0.5 if (rid == "r2" and c == "without_gt") else 1.0
                        rows.append((rid, g, "hard", j, c, m, dag, llm, 1.0))
    cols = ["id", "generator", "difficulty", "judge", "condition", "metric", "dag_type", "llm_score", "p"]
    v = pd.DataFrame(rows, columns=cols)
    v["match"] = 1.0 - (v["p"] - v["llm_score"]).abs()
    for c in cols[:7]:
        v[c] = v[c].astype("category")
    return SimpleNamespace(verdicts=v)


def test_changing_the_per_metric_frame_does_not_change_the_next_one() -> None:
    b = _bench()
    before = tables.per_metric_long(b)
    long = tables.per_metric_long(b)
    long["align"] = 0.0
    pd.testing.assert_frame_equal(tables.per_metric_long(b), before)


def test_the_memos_are_gone() -> None:
    from ajb_utils.tables import breakdown, main_results

    assert not any(
        hasattr(m, n) for m in (main_results, breakdown) for n in ("_RECORDS_MEMO", "_LIFT_MEMO", "_LONG_MEMO")
    )
