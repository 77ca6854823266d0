"""Claims and comparisons of the paper's agreement section (the tables: `ajb_utils.tables.agreement`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ajb_utils import paper, schema, stats
from ajb_utils.stats import PAPER_MISSING, Missing
from ajb_utils.tables.agreement import (
    TIER_NOTE,
    hard_cell_means,
    judge_side_bound,
    pairwise_long,
    t29_spearman,
    tier_gap_rho,
)
from ajb_utils.tables.breakdown import released_verdicts
from ajb_verify import engine

__all__ = [
    "compare_T29",
    "jury_checks",
    "t29_checks",
    "f10_checks",
]


def compare_T29(t29: pd.DataFrame, reported: pd.DataFrame | None = None) -> pd.DataFrame:
    """Return T29 under the both-collapsed reading beside the paper's tab:abl-binary (standard, binary,
    delta, half-credit rate), with the judge-side reading's value beside it (``judge_side``, not
    compared) and its bound ``judge_side_bound`` = 0.5 x 0.5-rate on the delta rows."""
    t = t29.reset_index()
    both = t.assign(binary=t["binary_both"], delta=t["delta_both"])
    long = both.melt(
        id_vars="judge", value_vars=["standard", "binary", "delta", "half_credit_rate"], var_name="variant"
    )
    rep = paper.reported("T29") if reported is None else reported
    rep = rep.dropna(subset=["judge"])
    rep = rep.assign(
        variant=rep["variant"]
        .where(rep["stat"] != "half_credit_rate", "half_credit_rate")
        .replace({"binary_minus_standard": "delta"})
    )
    out = engine.compare(long, rep, on=["judge", "variant"])
    side = t.melt(
        id_vars="judge",
        value_vars=["standard", "binary", "delta", "half_credit_rate"],
        var_name="variant",
        value_name="judge_side",
    )
    attrs = dict(out.attrs)
    out = out.merge(side.astype({"judge": str}), on=["judge", "variant"], how="left")
    rate = rep[rep["variant"] == "half_credit_rate"].set_index("judge")["value"]
    out["judge_side_bound"] = np.where(
        out["variant"] == "delta", judge_side_bound(out["judge"].map(rate).astype(float)), np.nan
    )
    out.attrs = attrs
    return out


def jury_checks(bench, missing: Missing = PAPER_MISSING) -> list[engine.Verdict]:
    """Return the C-J verdicts (soft jury, mean agreement and kappa, tier-gap rho, kappa range, Prometheus)."""
    six = schema.MAIN_JUDGES
    out = []
    m = hard_cell_means(bench, six, "with_gt", missing=missing)
    best = m.drop("soft_jury").idxmax()
    out.append(
        engine.verdict(
            "CJ.soft_jury_hard_gt",
            m["soft_jury"],
            shown=f"{m['soft_jury']:.2f}",
            note=f"best single: {schema.display(best)} {m[best]:.1f}",
        )
    )
    out.append(
        engine.verdict("CJ.jury_not_above_best_gt", m["soft_jury"] - m[best], shown=f"{m['soft_jury'] - m[best]:+.2f}")
    )
    pw = pairwise_long(bench, six)
    for cond in schema.MAIN_CONDITIONS:
        sub = pw[pw["condition"] == cond]
        for stat in ("agreement", "kappa"):
            val = sub[stat].mean()
            out.append(engine.verdict(f"CJ.mean_{stat}_{cond}", val, shown=f"{val:.3f}"))
        rho = tier_gap_rho(pw, cond)
        out.append(  # the paper does not define its tiering: no verdict is possible, whatever the data
            engine.not_reproduced(
                f"CJ.kappa_tier_rho_{cond}",
                f"the paper's judge tiering (undefined; schema.JUDGE_TIER gives rho {rho:.3f}). {TIER_NOTE}",
            )
        )
    kg = pw[pw["condition"] == "with_gt"]["kappa"]
    for cid in ("CJ.kappa_range_with_gt", "P.kappa_range"):
        out.append(engine.verdict(cid, [kg.min(), kg.max()], shown=f"{kg.min():.3f}-{kg.max():.3f}"))
    gt = pw[pw["condition"] == "with_gt"]
    agree = pd.Series(gt["agreement"].to_numpy(float), index=gt["judge"].astype(str) + "|" + gt["judge_2"].astype(str))
    out += [engine.verdict("CJ.highest_pair", agree), engine.verdict("CJ.lowest_pair", agree)]
    t2 = stats.align(
        released_verdicts(bench, list(six) + ["judge_prometheus2_7b"]),
        by=["judge", "generator", "difficulty", "condition"],
        missing=missing,
    )
    t2["judge"] = t2["judge"].astype(str)
    if (t2["judge"] == "judge_prometheus2_7b").any():
        cell = t2.pivot_table(
            index=["generator", "difficulty", "condition"], columns="judge", values="align", observed=True
        )
        gap = cell[[j for j in six if j in cell.columns]].mean(axis=1) - cell["judge_prometheus2_7b"]
        per = gap.groupby(level="condition", observed=True).mean()  # pandas 2.x: no unobserved "nan" conditions
        out.append(
            engine.verdict(
                "CJ.prometheus_gap",
                per,
                shown=", ".join(f"{c} {x:.1f}" for c, x in per.items()),
                note="six-judge mean minus Prometheus-2, mean over cells, per condition",
            )
        )
    else:
        out.append(engine.not_reproduced("CJ.prometheus_gap", "no Prometheus-2 verdicts in this data"))
    prom = pairwise_long(bench, six + ["judge_prometheus2_7b"])
    prom = prom[prom["judge_2"] == "judge_prometheus2_7b"]
    if not prom.empty:
        for stat, cid, fmt in (
            ("agreement", "CJ.prometheus_agreement", "{:.1f}"),
            ("kappa", "CJ.prometheus_kappa", "{:.3f}"),
        ):
            lo, hi = prom[stat].min(), prom[stat].max()
            out.append(
                engine.verdict(cid, [lo, hi], shown=f"{fmt.format(lo)}-{fmt.format(hi)}", note="both conditions")
            )
    return out


def t29_checks(t29: pd.DataFrame) -> list[engine.Verdict]:
    """Return the T29 verdicts on the both-collapsed reading the paper's values need: the ranking rho
    (P.binary_rho), the 0.5-rate gain (T29.half_rate_gain) and takeaway (4) (T06.binary_prefers_oss20b)."""
    rho, pval = t29_spearman(t29)
    gain, _ = stats.spearman(t29["half_credit_rate"], t29["delta_both"])
    out = [
        engine.verdict("P.binary_rho", rho, shown=f"{rho:+.3f}", note=f"p = {pval:.3f}; both-collapsed reading"),
        engine.verdict(
            "T29.half_rate_gain", gain, shown=f"{gain:+.3f}", note="Spearman over the judges, both-collapsed delta"
        ),
    ]
    b = t29["binary_both"]
    if {"judge_gpt_oss_20b", "judge_qwq_32b"} <= set(b.index):
        d = float(b["judge_gpt_oss_20b"] - b["judge_qwq_32b"])
        out.append(engine.verdict("T06.binary_prefers_oss20b", d, shown=f"{d:+.2f}", note="both-collapsed reading"))
    else:
        out.append(engine.not_reproduced("T06.binary_prefers_oss20b", "no GPT-OSS-20B or QwQ-32B verdicts"))
    return out


def f10_checks(f10: pd.DataFrame) -> list[engine.Verdict]:
    """Return the F10 verdict: share of off-diagonal mass with a 0.5 verdict, both pairs (CJ.offdiag_half_credit)."""
    off = f10.query("stat == 'offdiag_share_with_a_0.5'")["value"]
    return [engine.verdict("CJ.offdiag_half_credit", off)]
