"""Tables for notebook 10 anchoring (T01, GT lift, App. H mining).

GT lift (Eq. 5b) per judge and per metric from the released with/without-GT verdicts; Table 1
(C3 corrupted-GT control) from judge runs with ``study == "c3"``; Appendix H over-anchoring
instance mining (vectorised over the verdicts frame) and a display of mined cases.

Table 1 rests on C3 runs the release does not contain (the sample's synthetic runs, or the user's
own under data/runs): ``bench.has_runs("c3")`` says whether there are any; without them Table 1 is
empty, the notebook shows the paper's values beside it and :func:`c3_status` the commands that make
the runs.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ajb_utils import paper, schema, stats

__all__ = [
    "LIFT_EXCLUDED_GENERATORS",
    "anchoring_runs",
    "base_judge",
    "gt_lift",
    "paired_lift",
    "per_metric_lift",
    "table_T01",
    "reported_T01",
    "anchoring_split",
    "c3_command",
    "c3_status",
    "mine_over_anchoring",
    "anchoring_counts",
]

# The paper's Eq. 5b lift averages 12 (g, d) cells: the four open-weight generators (claims.csv).
LIFT_EXCLUDED_GENERATORS: tuple[str, ...] = ("gpt5_4",)
C3_JUDGES: tuple[str, ...] = ("judge_qwq_32b", "judge_gemini_2_5_pro")
C3_GENERATOR: str = "llama_3_3_70b_instruct"


# ---------------------------------------------------------------------------------------------
# runs
# ---------------------------------------------------------------------------------------------
def base_judge(name: str) -> str:
    """Return the released judge config name for a run's base model ('qwq_32b' -> 'judge_qwq_32b')."""
    name = str(name)
    return name if name.startswith("judge_") or f"judge_{name}" not in schema.JUDGES else f"judge_{name}"


def anchoring_runs(bench, study: str) -> pd.DataFrame:
    """Return bench.judges rows of runs with this study, plus `base` (released judge name)."""
    j = bench.judges
    runs = j[(j["study"] == study) & (j["origin"] != "release")].copy()
    runs["base"] = runs["base_model"].map(base_judge)
    return runs.reset_index(drop=True)


def c3_command(source: str = "hf", judge_model: str = "<model>", name: str = "qwq_32b_c3") -> str:
    """Return the judge runner command that produces a C3 run (Table 1) for one judge."""
    return (
        "python -m ajb_judge run --backend openai --base-url <endpoint>/v1 "
        f"--model {judge_model} --source {source} --conditions with_gt,without_gt,corrupted_gt "
        f"--generators {C3_GENERATOR} --study c3 --judge-label {name.removesuffix('_c3')} "
        f"--name {name}"
    )


def c3_status(bench, data_source: str) -> str:
    """Return the C3 runs Table 1 reads (or what it would show and that they are missing) and the
    commands that make the missing ones."""
    runs = anchoring_runs(bench, "c3")
    if bench.has_runs("c3"):
        lines = ["C3 runs used: " + ", ".join(f"{r} (base {b})" for r, b in zip(runs["judge"], runs["base"]))]
    else:
        lines = [
            "Table 1 would show how a corrupted reference moves alignment (C3); this source holds no C3 runs, "
            "so it is empty and the paper's values are shown beside it."
        ]
    missing = [j for j in C3_JUDGES if j not in set(runs["base"])]
    if missing:
        lines.append("To produce the missing C3 runs (judge runner; serve the model first):")
        lines += [
            c3_command(
                data_source if data_source != "sample" else "hf",
                f"<{schema.display(j)} model id>",
                f"{j.removeprefix('judge_')}_c3",
            )
            for j in missing
        ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# GT lift (Eq. 5b) per judge and per metric
# ---------------------------------------------------------------------------------------------
def _released(verdicts: pd.DataFrame, judges: Sequence[str] | None, exclude_generators: Sequence[str]) -> pd.DataFrame:
    """Return with/without-GT verdicts of the given judges, minus excluded generators."""
    judges = list(judges) if judges is not None else schema.MAIN_JUDGES
    keep = (
        verdicts["judge"].isin(judges)
        & verdicts["condition"].isin(schema.MAIN_CONDITIONS)
        & ~verdicts["generator"].isin(list(exclude_generators))
    )
    v = verdicts[keep]
    for c in ("judge", "generator", "condition"):
        if isinstance(v[c].dtype, pd.CategoricalDtype):
            v = v.assign(**{c: v[c].cat.remove_unused_categories()})
    return v


def paired_lift(
    v: pd.DataFrame, n_bootstrap: int, seed: int, missing: stats.Missing = stats.PAPER_MISSING
) -> pd.DataFrame:
    """Return per judge: the paired GT lift (pp) with its paired-bootstrap CI and sign, the unpaired lift beside it.

    ``v``: the verdicts, or their record frame (``stats.record_alignment``, ``missing`` already applied).

    ``lift`` is Eq. 5b over the records judged in both conditions (mean over cells of the mean
    paired difference), the quantity its interval [lo, hi] resamples; ``lift_unpaired`` is Eq. 5b
    as the paper writes it (difference of the cells' mean alignments, each over all its records).
    The two differ only where a record has a verdict in one condition (one-sided nulls).
    """
    recs = v if "mu" in v.columns and "metric" not in v.columns else stats.record_alignment(v, missing=missing)
    ci = stats.bootstrap_diff_ci(recs, n_resamples=n_bootstrap, seed=seed, missing=missing)
    ci = ci.rename(columns={"diff": "lift"})
    ci["judge"] = ci["judge"].astype(str)
    unpaired = stats.lift(stats.align(recs, missing=missing)).rename("lift_unpaired").reset_index()
    unpaired["judge"] = unpaired["judge"].astype(str)
    out = unpaired.merge(ci[["judge", "lift", "lo", "hi", "n_pairs", "n_cells"]], on="judge", how="outer")
    out["sign"] = np.where(
        out["lo"] > 0, "+", np.where(out["hi"] < 0, "-", np.where(out["lo"].isna(), "n/a", "0 (CI spans 0)"))
    )
    return out[["judge", "lift", "lo", "hi", "sign", "lift_unpaired", "n_cells", "n_pairs"]]


def gt_lift(
    bench,
    judges: Sequence[str] | None = None,
    exclude_generators: Sequence[str] = LIFT_EXCLUDED_GENERATORS,
    n_bootstrap: int = 2000,
    seed: int = 0,
) -> pd.DataFrame:
    """Return GT lift per judge (pp): paired lift (Eq. 5b) with its paired CI and sign, unpaired lift, n_cells, n_pairs."""
    return paired_lift(_released(bench.verdicts, judges, exclude_generators), n_bootstrap, seed)


def per_metric_lift(
    bench, judges: Sequence[str] | None = None, exclude_generators: Sequence[str] = LIFT_EXCLUDED_GENERATORS
) -> pd.DataFrame:
    """Return per-metric lift (pp) wide: rows judges, columns metrics (with-GT minus without-GT)."""
    v = _released(bench.verdicts, judges, exclude_generators)
    pm = stats.per_metric_align(v)
    per = stats.lift(pm, by=["judge", "metric"]).reset_index()
    wide = per.pivot(index="judge", columns="metric", values="lift")
    wide = wide[[m for m in schema.METRICS if m in wide.columns]]
    wide.index = wide.index.astype(str)
    wide.columns = wide.columns.astype(str)
    wide.columns.name = None
    return wide


# ---------------------------------------------------------------------------------------------
# Table 1: C3 corrupted-GT control
# ---------------------------------------------------------------------------------------------
def table_T01(bench, generator: str = C3_GENERATOR) -> pd.DataFrame:
    """Return Table 1 long: judge, difficulty, condition, stat (alignment|delta_*), value, n.

    From runs with study "c3" (their with_gt, without_gt and corrupted_gt columns); one block
    per run, labelled by its released base judge. Empty when there are no C3 runs.
    """
    cols = ["judge", "run", "difficulty", "condition", "stat", "value", "n"]
    runs = anchoring_runs(bench, "c3")
    if runs.empty:
        return pd.DataFrame(columns=cols)
    v = bench.verdicts
    v = v[v["judge"].isin(runs["judge"].tolist()) & (v["generator"] == generator)]
    cells = stats.align(v, by=["judge", "difficulty", "condition"], missing=stats.PAPER_MISSING)
    cells["judge"] = cells["judge"].astype(str)
    cells = cells.rename(columns={"judge": "run", "align": "value"})
    cells["run"] = cells["run"].astype(str)
    cells["stat"] = "alignment"
    wide = cells.pivot_table(index=["run", "difficulty"], columns="condition", values="value", observed=True)
    deltas = []
    for ref, stat in (("with_gt", "delta_vs_with_gt"), ("without_gt", "delta_vs_without_gt")):
        if "corrupted_gt" in wide and ref in wide:
            d = (wide["corrupted_gt"] - wide[ref]).rename("value").reset_index()
            deltas.append(d.assign(condition="corrupted_gt", stat=stat, n=np.nan))
    out = pd.concat(
        [cells.astype({"condition": str, "difficulty": str})] + [d.astype({"difficulty": str}) for d in deltas],
        ignore_index=True,
    )
    out["judge"] = out["run"].map(dict(zip(runs["judge"], runs["base"])))
    order = {d: i for i, d in enumerate(schema.DIFFICULTIES)}
    out["_d"] = out["difficulty"].map(order)
    out = out.sort_values(["run", "_d", "stat", "condition"]).drop(columns="_d")
    return out[cols].reset_index(drop=True)


def reported_T01() -> pd.DataFrame:
    """Return the paper's Table 1 cells (alignment and deltas), judge/difficulty/condition/stat/value."""
    r = paper.reported("T01")
    r = r[r["stat"].isin(["alignment", "delta_vs_with_gt", "delta_vs_without_gt"])]
    return r[["judge", "difficulty", "condition", "stat", "value", "source"]].reset_index(drop=True)


def anchoring_split(t01: pd.DataFrame) -> pd.DataFrame:
    """Return per judge: max over difficulties of |cGT - GT| and |cGT - noGT| (pp) and which one cGT tracks."""
    d = t01[t01["stat"].isin(["delta_vs_with_gt", "delta_vs_without_gt"])].copy()
    d["abs"] = d["value"].astype(float).abs()
    w = d.pivot_table(index="judge", columns="stat", values="abs", aggfunc="max")
    w = w.rename(columns={"delta_vs_with_gt": "max_abs_cGT_minus_GT", "delta_vs_without_gt": "max_abs_cGT_minus_noGT"})
    w["corrupted GT tracks"] = np.where(
        w["max_abs_cGT_minus_GT"] < w["max_abs_cGT_minus_noGT"],
        "with GT (anchors to any reference)",
        "without GT (ignores a wrong reference)",
    )
    w.columns.name = None
    return w.reset_index()


# ---------------------------------------------------------------------------------------------
# Appendix H: over-anchoring instance mining
# ---------------------------------------------------------------------------------------------
MINING_KEYS: list[str] = ["judge", "generator", "difficulty", "id", "metric"]


def mine_over_anchoring(
    verdicts: pd.DataFrame,
    judges: Sequence[str] | None = None,
    difficulties: Sequence[str] | None = None,
    margin: float = 0.1,
    eps: float = 1e-6,
) -> pd.DataFrame:
    """Return the metric verdicts meeting App. H's rule: p < 1, l_GT > p, l_noGT <= p + margin.

    Columns: judge, generator, difficulty, id, dag_type, metric, p, l_with_gt, l_without_gt.
    Vectorised: one pivot of with/without-GT scores per (judge, generator, difficulty, id, metric).
    """
    v = verdicts[verdicts["condition"].isin(schema.MAIN_CONDITIONS)]
    if judges is not None:
        v = v[v["judge"].isin(list(judges))]
    if difficulties is not None:
        v = v[v["difficulty"].isin(list(difficulties))]
    g = v.groupby(MINING_KEYS + ["condition"], observed=True, sort=True)
    wide = g["llm_score"].first().unstack("condition")
    p = g["p"].first().groupby(level=MINING_KEYS, observed=True).first()
    wide = wide.reindex(columns=schema.MAIN_CONDITIONS)
    lw, lo, pp = (
        wide["with_gt"].to_numpy(float),
        wide["without_gt"].to_numpy(float),
        p.reindex(wide.index).to_numpy(float),
    )
    hit = (pp < 1.0 - eps) & (lw > pp + eps) & (lo <= pp + margin + eps)
    out = wide.index[hit].to_frame(index=False)
    out["p"], out["l_with_gt"], out["l_without_gt"] = pp[hit], lw[hit], lo[hit]
    for c in ("judge", "generator", "difficulty", "metric"):
        out[c] = out[c].astype(str)
    out["id"] = out["id"].astype(str)
    dag = verdicts.drop_duplicates("id").set_index(verdicts.drop_duplicates("id")["id"].astype(str))
    out.insert(4, "dag_type", out["id"].map(dag["dag_type"].astype(str)) if "dag_type" in dag else "")
    return out


def _paired_records(verdicts: pd.DataFrame) -> pd.DataFrame:
    """Return record counts with both conditions per judge and difficulty."""
    v = verdicts[verdicts["condition"].isin(schema.MAIN_CONDITIONS)]
    r = v.groupby(["judge", "difficulty", "generator", "id"], observed=True)["condition"].nunique()
    r = r[r == 2].groupby(level=["judge", "difficulty"], observed=True).size().rename("n_records")
    return r.reset_index().astype({"judge": str, "difficulty": str})


def anchoring_counts(verdicts: pd.DataFrame, mined: pd.DataFrame, judges: Sequence[str] | None = None) -> pd.DataFrame:
    """Return per judge x difficulty: instances (records with >= 1 flagged metric), records, share %."""
    judges = list(judges) if judges is not None else schema.MAIN_JUDGES
    rec = _paired_records(verdicts[verdicts["judge"].isin(judges)])
    inst = (
        mined.drop_duplicates(["judge", "difficulty", "generator", "id"])
        .groupby(["judge", "difficulty"], observed=True)
        .size()
        .rename("instances")
        .reset_index()
    )
    out = rec.merge(inst, on=["judge", "difficulty"], how="left").fillna({"instances": 0})
    out["instances"] = out["instances"].astype(np.int64)
    out["share_pct"] = 100.0 * out["instances"] / out["n_records"]
    return _paper_sort(out, ["judge", "difficulty"])[["judge", "difficulty", "instances", "n_records", "share_pct"]]


def _paper_sort(df: pd.DataFrame, on: list[str]) -> pd.DataFrame:
    """Return df sorted by judge / difficulty / metric in the paper's order."""
    orders = {
        "judge": schema.JUDGES,
        "difficulty": schema.DIFFICULTIES,
        "metric": schema.METRICS,
        "generator": schema.GENERATORS,
    }
    keys = [df[c].map({v: i for i, v in enumerate(orders.get(c, []))}).fillna(99) for c in on]
    idx = np.lexsort([k.to_numpy() for k in reversed(keys)])
    return df.iloc[idx].reset_index(drop=True)
