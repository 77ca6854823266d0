"""Claims and comparisons of the paper's breakdown section (the tables: `ajb_utils.tables.breakdown`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ajb_utils import schema
from ajb_utils.stats import PAPER_MISSING, Missing
from ajb_utils.tables.breakdown import table_T14, topology_long, weighting_stability
from ajb_verify import engine

__all__ = [
    "topology_weighting_shift",
    "weighting_checks",
    "breakdown_checks",
]


def topology_weighting_shift(topo_long: pd.DataFrame) -> pd.DataFrame:
    """Return per judge: unweighted and record-count-weighted topology means, shift (pp), ranks."""
    g = topo_long.assign(_w=topo_long["align"] * topo_long["n_records"]).groupby("judge", sort=False)
    out = pd.DataFrame({"unweighted": g["align"].mean(), "count_weighted": g["_w"].sum() / g["n_records"].sum()})
    out["shift_pp"] = out["count_weighted"] - out["unweighted"]
    out["rank_unweighted"] = out["unweighted"].rank(ascending=False, method="min").astype(int)
    out["rank_count_weighted"] = out["count_weighted"].rank(ascending=False, method="min").astype(int)
    return out


def weighting_checks(bench, missing: Missing = PAPER_MISSING) -> list[engine.Verdict]:
    """Return the C-W verdicts (ranking stability, topology weighting, T14) from the claim engine."""
    out = []
    rhos = {
        cond: weighting_stability(bench, condition=cond, missing=missing)["rho"].drop("equal")
        for cond in schema.MAIN_CONDITIONS
    }  # one claim, one verdict: both conditions' rhos
    allr = pd.concat(rhos.values())
    out.append(
        engine.verdict(
            "CW.weighting_rho",
            allr,
            shown=f"min {allr.min():.3f}",
            note="; ".join(f"{c}: min {r.min():.3f} ({r.idxmin()})" for c, r in rhos.items())
            + "; five schemes: the text names four, param_x0.5 (App. G) is the fifth (X1.weighting_schemes_named)",
        )
    )
    shift = topology_weighting_shift(topology_long(bench, "with_gt", schema.MAIN_JUDGES, missing))
    max_shift = float(shift["shift_pp"].abs().max())
    changed = int((shift["rank_unweighted"] != shift["rank_count_weighted"]).sum())
    out.append(
        engine.verdict(
            "CW.topology_weighting_shift",
            max_shift,
            shown=f"{max_shift:.2f}",
            note="with GT; weights = records per topology",
        )
    )
    out.append(engine.verdict("CW.topology_rank_changes", (changed, len(shift))))
    t14 = table_T14(bench, missing=missing)
    qwq = float(t14.loc["judge_qwq_32b", "shift_excluded_pp"]) if "judge_qwq_32b" in t14.index else np.nan
    out.append(engine.verdict("CW.param_weighting_qwq_shift", abs(qwq), shown=f"{abs(qwq):.2f}"))
    return out


def breakdown_checks(t24_long: pd.DataFrame, topo: pd.DataFrame) -> list[engine.Verdict]:
    """Return the verdicts of Figure 3's and Figure 9's captions and RQ1's text on reproduced frames.

    `t24_long`: judge, condition, metric, align (six judges); `topo`: judge, dag_type, align (with GT).
    """
    pm = t24_long[t24_long["judge"].isin(schema.MAIN_JUDGES)]
    pm = pm.assign(judge=pm["judge"].astype(str), metric=pm["metric"].astype(str))
    spread = pm.groupby(["condition", "metric"])["align"].agg(lambda v: v.max() - v.min())
    gt_metric = pm[pm["condition"] == "with_gt"].groupby("metric")["align"].mean()
    tp = topo[topo["judge"].isin(schema.MAIN_JUDGES)]
    tp = tp.assign(judge=tp["judge"].astype(str), dag_type=tp["dag_type"].astype(str))
    wide = tp.pivot_table(index="judge", columns="dag_type", values="align")
    mean = wide.mean()
    top = wide.idxmax(axis=1)
    leader = wide.idxmax(axis=0)
    bottom = wide.idxmin(axis=0)
    nogt = spread.xs("without_gt") if "without_gt" in spread.index.get_level_values(0) else pd.Series(dtype=float)
    return [
        engine.verdict("F03.seq_weakest_gt", gt_metric),
        engine.verdict("F03.seq_spread_gt", spread.get(("with_gt", "sequence_accuracy"), np.nan)),
        engine.verdict("F03.seq_spread_nogt", spread.get(("without_gt", "sequence_accuracy"), np.nan)),
        engine.verdict("F03.within_3pp_nogt", nogt, shown=", ".join(f"{x:.2f}" for x in nogt)),
        engine.verdict("F09.fan_out_easiest", mean),
        engine.verdict("F09.fan_out_every_judge", (top == "fan_out").tolist()),
        engine.verdict("F09.hardest_fan_in_loop", mean),
        engine.verdict("T28.qwq_leads_topologies", (leader == "judge_qwq_32b").tolist()),
        engine.verdict("T28.oss120b_leads_fan_out", wide["fan_out"] if "fan_out" in wide else pd.Series(dtype=float)),
        engine.verdict("T28.gemini_weakest", (bottom == "judge_gemini_2_5_pro").tolist()),
        engine.verdict("T28.easiest_hardest_gap", float(mean.get("fan_out", np.nan) - mean.get("fan_in", np.nan))),
    ]
