"""Tables for notebook 13 self-preference (T23) and 14 decision guide and consistency audit (T06, X1).

The decision guide and the X1 audit are pure functions over a *Table-2-shaped* frame: one row
per (generator, judge, difficulty, condition) with the cell alignment in ``value`` (%), the
shape of ``paper.reported("T02")``. ``table2_frame(bench)`` builds the same shape from data, so
the audit runs unchanged on the paper's own table and on reproduced numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ajb_utils import paper, schema, stats
from ajb_utils.stats import Missing
from ajb_utils.tables.breakdown import released_verdicts

__all__ = [
    "self_bias", "table_T23", "table_T23_other_judges", "table2_frame",
    "decision_guide", "table_T06", "compare_T06", "band_cells", "best_cells", "audit_table2",
    "t23_checks", "table_T06_both",
]

_KEYS = ["generator", "judge", "difficulty", "condition"]


# ---- T23 self-preference ----------------------------------------------------------------------
def self_bias(bench, condition: str = "with_gt", judges: Sequence[str] = schema.MAIN_JUDGES) -> pd.DataFrame:
    """Return judge, generator, metric ('all' = pooled), bias = mean(llm_score - p), n verdicts."""
    v = released_verdicts(bench, judges, [condition])
    work = v[["judge", "generator", "metric"]].astype(str)
    work["d"] = v["llm_score"].to_numpy(float) - v["p"].to_numpy(float)
    work = work[np.isfinite(work["d"])]
    per = work.groupby(["judge", "generator", "metric"])["d"].agg(bias="mean", n="size").reset_index()
    pooled = work.groupby(["judge", "generator"])["d"].agg(bias="mean", n="size").reset_index()
    return pd.concat([per, pooled.assign(metric="all")], ignore_index=True)


def _bias_wide(long: pd.DataFrame, index: str, order: Sequence[str]) -> pd.DataFrame:
    """Return bias pivoted to rows = index (in order), columns = metrics then 'all'."""
    wide = long.pivot(index=index, columns="metric", values="bias")
    wide = wide.reindex(index=[o for o in order if o in wide.index],
                        columns=[m for m in schema.METRICS + ["all"] if m in wide.columns])
    wide.columns.name = None
    return wide


def table_T23(bench, judge: str = "judge_gpt_5_4", condition: str = "with_gt") -> pd.DataFrame:
    """Return T23: the judge's signed bias (llm - p) per generator (rows) and metric (columns)."""
    long = self_bias(bench, condition, [judge])
    return _bias_wide(long, "generator", schema.GENERATORS)


def table_T23_other_judges(bench, generator: str = "gpt5_4", condition: str = "with_gt") -> pd.DataFrame:
    """Return every main judge's signed bias on one generator's outputs: rows judges, columns metrics."""
    long = self_bias(bench, condition)
    return _bias_wide(long[long["generator"] == generator], "judge", schema.MAIN_JUDGES)


# ---- T06 decision guide -----------------------------------------------------------------------
def table2_frame(bench, judges: Sequence[str] = schema.MAIN_JUDGES, missing: Missing = "exclude") -> pd.DataFrame:
    """Return the Table-2-shaped frame from data: generator, judge, difficulty, condition, value (%)."""
    cells = stats.align(released_verdicts(bench, judges), by=_KEYS, missing=missing)
    out = cells.rename(columns={"align": "value"})
    for c in _KEYS:
        out[c] = out[c].astype(str)
    return out[_KEYS + ["value", "n"]]


def _means(t2: pd.DataFrame, generators: Sequence[str] | None) -> pd.DataFrame:
    """Return (condition, difficulty, judge) -> unweighted mean of value over the generators."""
    sub = t2 if generators is None else t2[t2["generator"].isin(list(generators))]
    return sub.groupby(["condition", "difficulty", "judge"])["value"].mean().reset_index()


def decision_guide(t2: pd.DataFrame, generators: Sequence[str] | None = None) -> pd.DataFrame:
    """Return per (condition, difficulty): best and runner-up judge by mean over generators, gap (pp)."""
    m = _means(t2, generators).sort_values(["condition", "difficulty", "value", "judge"],
                                          ascending=[True, True, False, True])
    top = m.groupby(["condition", "difficulty"], sort=False).head(2)
    top = top.assign(rank=top.groupby(["condition", "difficulty"]).cumcount())
    best, run = top[top["rank"] == 0], top[top["rank"] == 1]
    out = best.merge(run, on=["condition", "difficulty"], suffixes=("_best", "_runner_up"))
    out = out.rename(columns={"judge_best": "best", "value_best": "best_align",
                              "judge_runner_up": "runner_up", "value_runner_up": "runner_up_align"})
    out["gap"] = out["best_align"] - out["runner_up_align"]
    order = {(c, d): i for i, (c, d) in enumerate(
        [(c, d) for c in ("without_gt", "with_gt") for d in schema.DIFFICULTIES])}
    out = out.iloc[np.argsort([order.get(k, 99) for k in zip(out["condition"], out["difficulty"])],
                              kind="stable")]
    return out[["condition", "difficulty", "best", "best_align", "runner_up", "runner_up_align",
                "gap"]].reset_index(drop=True)


def table_T06(bench, generators: Sequence[str] | None = None, missing: Missing = "exclude") -> pd.DataFrame:
    """Return T06 from data: the decision guide over the given generators (default all five)."""
    return decision_guide(table2_frame(bench, missing=missing), generators)


def compare_T06(guide: pd.DataFrame, reported: pd.DataFrame) -> pd.DataFrame:
    """Return the guide beside the paper's T06: judges, values, difference (pp), same judge yes/no."""
    rep = reported[reported["variant"].isin(["best", "runner_up"])]
    rep = rep.pivot(index=["condition", "difficulty"], columns="variant", values=["judge", "value"])
    rep.columns = [f"paper_{'judge' if a == 'judge' else 'align'}_{b}" for a, b in rep.columns]
    out = guide.merge(rep.reset_index(), on=["condition", "difficulty"], how="left")
    out["diff_best"] = out["best_align"] - out["paper_align_best"].astype(float)
    out["same_best"] = np.where(out["best"] == out["paper_judge_best"], "yes", "no")
    return out[["condition", "difficulty", "best", "best_align", "paper_judge_best", "paper_align_best",
                "diff_best", "same_best", "runner_up", "runner_up_align", "paper_judge_runner_up",
                "paper_align_runner_up"]]


# ---- X1 consistency audit ---------------------------------------------------------------------
def band_cells(t2: pd.DataFrame, lo: float = 77.0, hi: float = 82.0,
               generators: Sequence[str] | None = None) -> pd.DataFrame:
    """Return per generator: min, max of hard without-GT cells, and all_in_band (lo <= v <= hi)."""
    sub = t2[(t2["condition"] == "without_gt") & (t2["difficulty"] == "hard")]
    if generators is not None:
        sub = sub[sub["generator"].isin(list(generators))]
    g = sub.groupby("generator")["value"]
    out = pd.DataFrame({"min": g.min(), "max": g.max()})
    out["all_in_band"] = (out["min"] >= lo) & (out["max"] <= hi)
    return out


def best_cells(t2: pd.DataFrame, judge: str = "judge_qwq_32b", condition: str = "with_gt",
               generators: Sequence[str] | None = None) -> tuple[int, int, int]:
    """Return (cells where judge is strictly best, cells where it is best or tied, cells) at one decimal."""
    sub = t2[t2["condition"] == condition]
    if generators is not None:
        sub = sub[sub["generator"].isin(list(generators))]
    wide = sub.assign(value=sub["value"].round(1)).pivot(
        index=["generator", "difficulty"], columns="judge", values="value")
    top = wide.max(axis=1)
    is_top = wide[judge] == top
    n_top = (wide.eq(top, axis=0)).sum(axis=1)
    return int((is_top & (n_top == 1)).sum()), int(is_top.sum()), int(len(wide))


def _lift(t2: pd.DataFrame, judge: str) -> float:
    """Return mean over cells of with-GT minus without-GT value for one judge."""
    sub = t2[t2["judge"] == judge].pivot(index=["generator", "difficulty"], columns="condition",
                                         values="value")
    return float((sub["with_gt"] - sub["without_gt"]).mean())


def _audit_values(t2: pd.DataFrame, guide_reported: pd.DataFrame | None,
                  gens: Sequence[str]) -> dict[str, tuple[float, str]]:
    """Return {claim_id: (recomputed value, note)} over the generators gens of a Table-2 frame."""
    t = t2[t2["generator"].isin(list(gens))]
    qwq = t[t["judge"] == "judge_qwq_32b"].groupby("condition")["value"].mean()
    band = band_cells(t)
    hard = t[(t["condition"] == "without_gt") & (t["difficulty"] == "hard")]["value"]
    inside = int(hard.between(77.0, 82.0).sum())
    mono = stats.monotone_pairs(t.rename(columns={"value": "align"}))
    mono_n = mono.groupby("condition")["monotone"].agg(["sum", "size"])
    slopes = stats.degradation_slopes(t.rename(columns={"value": "align"}))
    strict, tied, n_cells = best_cells(t)
    vals = {
        "X1.qwq_mean_with_gt": (qwq.get("with_gt", np.nan), ""),
        "X1.qwq_mean_without_gt": (qwq.get("without_gt", np.nan), ""),
        "X1.lift_gpt_5_4": (_lift(t, "judge_gpt_5_4"), ""),
        "X1.lift_gemini": (_lift(t, "judge_gemini_2_5_pro"), ""),
        "X1.hard_nogt_band": (list(hard), f"{inside}/{len(hard)} cells in [77, 82]; "
                                          f"range {hard.min():.1f}-{hard.max():.1f}"),
        "X1.band_generators": (int(band["all_in_band"].sum()),
                               f"of {len(band)}: " + ", ".join(schema.display(g) for g in band.index[band["all_in_band"]])),
        "X1.monotone_pairs": (int(mono_n["sum"].min()),
                              "; ".join(f"{c}: {int(r['sum'])}/{int(r['size'])}" for c, r in mono_n.iterrows())),
        "X1.slope_ratio": (float(slopes["ratio"].iloc[-1]), "drop without GT / drop with GT, easy->hard"),
        "X1.qwq_best_cells": (strict, f"of {n_cells}; {tied} if ties count"),
    }
    if guide_reported is not None:
        rep = guide_reported[guide_reported["variant"].isin(["best", "runner_up"])]
        m = _means(t, None).set_index(["condition", "difficulty", "judge"])["value"]
        idx = list(zip(rep["condition"], rep["difficulty"], rep["judge"]))
        diffs = (rep["value"].to_numpy(float) - m.reindex(idx).to_numpy(float))
        vals["X1.T06_from_T02"] = (float(np.nanmax(np.abs(diffs))), "max |T06 - mean of T02| over its 12 entries")
    return vals


def audit_table2(t2: pd.DataFrame, guide_reported: pd.DataFrame | None = None,
                 claims: pd.DataFrame | None = None) -> pd.DataFrame:
    """Return X1: per claim the claimed value, values recomputed over 12 and 15 cells, holds, notes."""

    cl = (paper.claims() if claims is None else claims).set_index("claim_id")
    v12 = _audit_values(t2, guide_reported, schema.OPEN_WEIGHT_GENERATORS)
    v15 = _audit_values(t2, guide_reported, schema.GENERATORS)
    rows = []
    for cid in v15:
        c = cl.loc[cid]
        claimed = f"{c['paper_value']:g}" + (f"-{c['paper_value_hi']:g}" if pd.notna(c["paper_value_hi"]) else "")
        r12, n12 = v12[cid]
        r15, n15 = v15[cid]
        h12 = paper.check_claim(c, r12)
        if cid == "X1.monotone_pairs":  # 12-cell version: all 24 pairs of the four generators
            h12 = n12.count("24/24") == 2
        show = (lambda x: f"{min(x):.1f}-{max(x):.1f}") if cid == "X1.hard_nogt_band" else (
            lambda x: round(float(x), 2))
        rows.append({"claim_id": cid, "description": c["description"], "claimed": claimed,
                     "recomputed_12": show(r12), "holds_12": "yes" if h12 else "no",
                     "recomputed_15": show(r15), "holds_15": "yes" if paper.check_claim(c, r15) else "no",
                     "note_12": n12, "note_15": n15})
    return pd.DataFrame(rows)


def t23_checks(bench, condition: str = "with_gt") -> list[tuple]:
    """Return T23 check rows (claim, paper, reproduced, holds, note) from the signed-bias table."""
    long = self_bias(bench, condition).set_index(["judge", "generator", "metric"])["bias"]
    own = "judge_gpt_5_4", "gpt5_4"
    others = [g for g in schema.OPEN_WEIGHT_GENERATORS]
    seq_other = long.loc[[(own[0], g, "sequence_accuracy") for g in others]]
    all_other = long.loc[[(own[0], g, "all") for g in others]]
    rows = [
        ("GPT-5.4 judge bias on own generations, sequence", "+0.172",
         round(long[(*own, "sequence_accuracy")], 3), abs(long[(*own, "sequence_accuracy")] - 0.172) <= 0.0005, ""),
        ("GPT-5.4 judge bias on other generators, sequence (max)", "<= +0.008",
         round(seq_other.max(), 3), seq_other.max() <= 0.008 + 0.0005, ""),
        ("GPT-5.4 judge bias on own generations, all metrics", "+0.012",
         round(long[(*own, "all")], 3), abs(long[(*own, "all")] - 0.012) <= 0.0005, ""),
        ("GPT-5.4 judge bias on other four generators, all metrics (range)", "-0.024 to +0.034",
         f"{all_other.min():+.3f} to {all_other.max():+.3f}",
         all_other.min() >= -0.0245 and all_other.max() <= 0.0345, ""),
    ]
    if ("judge_gpt_oss_120b", "gpt5_4", "all") in long.index:
        b = long[("judge_gpt_oss_120b", "gpt5_4", "all")]
        rows.append(("GPT-OSS-120B bias on GPT-5.4 generations, all metrics", "+0.072",
                     round(b, 3), abs(b - 0.072) <= 0.0005, "a non-self judge, for contrast"))
    return rows


def table_T06_both(t2: pd.DataFrame) -> pd.DataFrame:
    """Return the decision guide over all five generators and over the four open-weight ones (column generators)."""
    five = decision_guide(t2, schema.GENERATORS).assign(generators=5)
    four = decision_guide(t2, schema.OPEN_WEIGHT_GENERATORS).assign(generators=4)
    return pd.concat([five, four], ignore_index=True)
