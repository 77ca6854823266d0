"""Derivation gap (seed 004, DeRef): the census of argument derivation paths (X3), the static-judge baseline (X3b), DeRef (X4)."""

from __future__ import annotations

import pandas as pd

from ajb_utils import derivation, stats
from ajb_utils.schema import DIFFICULTIES, MAIN_JUDGES, METRICS, TOPOLOGIES

__all__ = [
    "NONVISIBLE_BINS",
    "NONVISIBLE_LABELS",
    "DEREF_COMMAND",
    "table_X3",
    "table_X4",
    "deref_pool",
    "table_X3b_static_baseline",
]

NONVISIBLE_BINS: list[float] = [-0.001, 0.0, 1 / 3, 2 / 3, 1.0]
NONVISIBLE_LABELS: list[str] = ["0", "(0, 1/3]", "(1/3, 2/3]", "(2/3, 1]"]
DEREF_COMMAND: str = (
    "python -m ajb_judge run --backend openai --base-url http://localhost:8000/v1 "
    "--model <judge model> --deriver-model <deriver model> --source <data source> "
    "--conditions with_gt,without_gt,deref --difficulties hard --name <judge>_deref "
    "--study deref"
)


def table_X3(census: pd.DataFrame) -> pd.DataFrame:
    """Return derivation-path shares (%) by difficulty, overall ("all") and per topology (paper order)."""
    overall = derivation.path_shares(census, ["difficulty"]).assign(dag_type="all")
    per = derivation.path_shares(census, ["dag_type", "difficulty"])
    out = pd.concat([overall, per], ignore_index=True)
    known = ["all", *TOPOLOGIES]
    # a topology the paper does not name keeps its label; a record without one (the census spells
    # it "nan") stays a missing topology, as the loader reports it
    extra = sorted(set(out["dag_type"].dropna().astype(str)) - set(known) - {"nan", "None", ""})
    topology = out["dag_type"].astype(object).where(out["dag_type"].isin(known + extra))
    out["dag_type"] = pd.Categorical(topology, categories=known + extra)
    out["difficulty"] = pd.Categorical(out["difficulty"].astype(str), categories=list(DIFFICULTIES))
    out = out.sort_values(["dag_type", "difficulty"]).reset_index(drop=True)
    return out[["dag_type", "difficulty", "n_args", *derivation.PATHS]]


def table_X4(verdicts: pd.DataFrame, hard: str = "hard") -> pd.DataFrame:
    """Return per judge with `deref` verdicts: alignment (%) with GT, without GT, DeRef, overall and on hard, with the DeRef lifts."""
    has = list(verdicts.loc[verdicts["condition"] == "deref", "judge"].unique())  # no string copy of every row
    v = verdicts[verdicts["judge"].isin(has) & verdicts["condition"].isin(["with_gt", "without_gt", "deref"])]
    cols = ["judge", "subset", "with_gt", "without_gt", "deref", "deref_minus_without", "with_minus_deref", "n"]
    if v.empty:
        return pd.DataFrame(columns=cols)
    parts = []
    for subset, sub in (("all", v), (hard, v[v["difficulty"] == hard])):
        a = stats.align(sub, by=["judge", "condition"])
        w = a.pivot_table(index="judge", columns="condition", values="align", observed=True)
        w["n"] = a[a["condition"] == "deref"].set_index("judge")["n"]
        parts.append(w.reset_index().assign(subset=subset))
    out = pd.concat(parts, ignore_index=True)
    out["deref_minus_without"] = out["deref"] - out["without_gt"]
    out["with_minus_deref"] = out["with_gt"] - out["deref"]
    out["judge"] = out["judge"].astype(str)
    return out[cols].sort_values(["judge", "subset"]).reset_index(drop=True)


def deref_pool(verdicts: pd.DataFrame, static: pd.DataFrame, name: str = "static") -> pd.DataFrame:
    """Return the verdicts :func:`table_X4` reads: the judges with ``deref`` verdicts among ``verdicts``, then ``static`` as judge ``name`` (judge as str)."""
    has = verdicts.loc[verdicts["condition"] == "deref", "judge"].unique()
    llm = verdicts[verdicts["judge"].isin(list(has))]
    return pd.concat([llm.astype({"judge": str}), static.assign(judge=name)], ignore_index=True)


def table_X3b_static_baseline(
    bench,
    static: pd.DataFrame,
    judges: list[str] | None = None,
    conditions: tuple[str, ...] = ("with_gt", "without_gt"),
) -> pd.DataFrame:
    """Return per condition x difficulty x metric: the static judge's alignment (%) beside the LLM judges' best, median and worst, and its rank."""
    present = {str(x) for x in bench.verdicts["judge"].unique()}  # once, not once per judge
    judges = judges or [j for j in MAIN_JUDGES if j in present]
    v = bench.verdicts[bench.verdicts["judge"].isin(judges) & bench.verdicts["condition"].isin(conditions)]
    llm = stats.per_metric_align(v, by=["judge", "condition", "difficulty"])
    llm = llm.assign(
        judge=llm["judge"].astype(str),
        condition=llm["condition"].astype(str),
        difficulty=llm["difficulty"].astype(str),
        metric=llm["metric"].astype(str),
    )
    st = stats.per_metric_align(static[static["condition"].isin(conditions)], by=["condition", "difficulty"])
    st = st.assign(
        condition=st["condition"].astype(str),
        difficulty=st["difficulty"].astype(str),
        metric=st["metric"].astype(str),
    )
    keys = ["condition", "difficulty", "metric"]
    g = llm.groupby(keys, sort=False)["align"]
    best_idx = llm.loc[g.idxmax(), keys + ["judge"]].rename(columns={"judge": "best_llm_judge"})
    summ = g.agg(best_llm="max", median_llm="median", worst_llm="min").reset_index().merge(best_idx, on=keys)
    out = st.rename(columns={"align": "static", "n": "n_static"}).merge(summ, on=keys, how="inner")
    ranks = llm.merge(out[keys + ["static"]], on=keys)
    out = out.merge(
        ranks.assign(beats=ranks["static"] > ranks["align"])
        .groupby(keys)["beats"]
        .sum()
        .rename("llm_judges_beaten")
        .reset_index(),
        on=keys,
    )
    out["static_minus_best"] = out["static"] - out["best_llm"]
    out["condition"] = pd.Categorical(out["condition"], categories=list(conditions))
    out["difficulty"] = pd.Categorical(out["difficulty"], categories=list(DIFFICULTIES))
    out["metric"] = pd.Categorical(out["metric"], categories=METRICS)
    out = out.sort_values(keys).reset_index(drop=True)
    out["llm_judges_beaten"] = out["llm_judges_beaten"].astype(int)
    return out[
        keys
        + [
            "static",
            "best_llm",
            "best_llm_judge",
            "median_llm",
            "worst_llm",
            "llm_judges_beaten",
            "static_minus_best",
            "n_static",
        ]
    ]
