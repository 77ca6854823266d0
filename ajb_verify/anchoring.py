"""Claims and comparisons of the paper's anchoring section (the tables: `ajb_utils.tables.anchoring`)."""

from __future__ import annotations

import pandas as pd

from ajb_verify import engine

__all__ = [
    "lift_checks",
    "t01_checks",
    "apph_checks",
]


def lift_checks(lift: pd.DataFrame) -> list[engine.Verdict]:
    """Return Finding 2's verdicts (lift values and signs) for a gt_lift/finding2_lift frame.

    A sign claim is decided only when its paired bootstrap CI excludes 0, as the paper states its
    signs "with non-overlapping bootstrap CIs"; a CI that spans 0 is "indistinguishable".
    """
    lv = lift.set_index("judge")
    ids = {
        "gpt_5_4": "judge_gpt_5_4",
        "gemini": "judge_gemini_2_5_pro",
        "qwq": "judge_qwq_32b",
        "oss_120b": "judge_gpt_oss_120b",
    }
    out = []
    for c in engine.claims(artifact="C-F2").itertuples():
        j = ids.get(c.claim_id.split(".", 1)[1].removeprefix("lift_").removeprefix("sign_"))
        if j is None or j not in lv.index:
            continue
        r, lo, hi = (float(lv.at[j, k]) for k in ("lift", "lo", "hi"))
        ci = f"paired {r:+.2f} [{lo:+.2f}, {hi:+.2f}]"
        if c.kind == "sign":  # the paper states its signs "with non-overlapping bootstrap CIs"
            out.append(
                engine.verdict(
                    c.claim_id, r, shown=ci, ci=(lo, hi), note="paired CI excludes 0" if (lo > 0 or hi < 0) else ""
                )
            )
        else:  # the paper's value is Eq. 5b: a difference of cell means over 12 (g, d) cells
            u = float(lv.at[j, "lift_unpaired"])
            out.append(
                engine.verdict(
                    c.claim_id,
                    u,
                    shown=f"{u:+.2f} (Eq. 5b); {ci}",
                    note="12 (g,d) cells, unpaired as the paper defines it",
                )
            )
    return out


def t01_checks(split: pd.DataFrame) -> list[engine.Verdict]:
    """Return the anchoring-split verdicts (Gemini cGT ~ GT within 1.8 pp; QwQ cGT ~ noGT within 0.2 pp)."""
    s = split.set_index("judge")
    out = []
    for cid, j, col in (
        ("T01.gemini_cgt_vs_gt", "judge_gemini_2_5_pro", "max_abs_cGT_minus_GT"),
        ("T01.qwq_cgt_vs_nogt", "judge_qwq_32b", "max_abs_cGT_minus_noGT"),
    ):
        r = [float(s.at[j, col])] if j in s.index else []
        out.append(engine.verdict(cid, r))
    return out


def apph_checks(counts: pd.DataFrame, full_data: bool = True) -> list[engine.Verdict]:
    """Return the App. H verdict: Gemini-2.5-Pro's hard over-anchoring instances, the count the paper
    states (1,322), compared as that count on the full corpus (not on the synthetic sample)."""
    hit = counts[(counts["judge"] == "judge_gemini_2_5_pro") & (counts["difficulty"] == "hard")]
    if not len(hit):
        return [engine.not_reproduced("P.anchoring_instances", "no Gemini-2.5-Pro hard verdicts in both conditions")]
    k, n = int(hit["instances"].iloc[0]), int(hit["n_records"].iloc[0])
    return [
        engine.verdict(
            "P.anchoring_instances", k, full_data=full_data, note=f"of {n:,} hard records judged in both conditions"
        )
    ]
