"""App. D's persistent null tuples, which the verification counts (Tables 7, 8, 9, 18 and 21 are
cells of notebook 01)."""

from __future__ import annotations

import pandas as pd

from ajb_utils import schema

__all__ = ["null_tuples"]


def null_tuples(bench) -> pd.DataFrame:
    """Return one row per (generator, judge, difficulty, id) of the six judges under the two main
    conditions, with ``n_conditions`` judged and ``null`` (a condition without any verdict)."""
    v = bench.verdicts
    v = v[v["judge"].isin(schema.MAIN_JUDGES) & v["condition"].isin(schema.MAIN_CONDITIONS)]
    keys = ["generator", "judge", "difficulty", "id", "condition"]
    rec = (
        v.assign(has=v["llm_score"].notna())
        .groupby(keys, observed=True)
        .agg(has=("has", "any"), dag_type=("dag_type", "first"))
        .reset_index()
    )
    tup = (
        rec.groupby(keys[:-1], observed=True)
        .agg(
            n_conditions=("condition", "size"),
            null=("has", "all"),  # negated below: a tuple is null unless every condition has a verdict
            dag_type=("dag_type", "first"),
        )
        .reset_index()
    )
    tup["null"] = ~tup["null"].to_numpy(bool)
    return tup
