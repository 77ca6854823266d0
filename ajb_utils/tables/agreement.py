"""Frames for notebook 05 inter-judge agreement (pairs for T03, F10 data, T29; T03 is a cell of the notebook).

Agreement and kappa compare two judges' raw verdicts on the same (id, generator, difficulty,
metric) key; pairs use only keys where both have a non-null verdict in {0, 0.5, 1}.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ajb_utils import paper, schema, stats
from ajb_utils.stats import PAPER_MISSING, Missing
from ajb_utils.tables.breakdown import released_verdicts

__all__ = [
    "pairwise_long",
    "extreme_pairs",
    "confusion_pair",
    "table_F10",
    "binary_cells",
]


def _present(names: Sequence[str], have: Sequence[str]) -> list[str]:
    """Return names (given order) that are in have."""
    s = set(map(str, have))
    return [n for n in names if n in s]


def pairwise_long(
    bench,
    judges: Sequence[str] | None = None,
    conditions: Sequence[str] = schema.MAIN_CONDITIONS,
    generators: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Return judge, judge_2, condition, agreement (%), kappa, n (shared verdicts) per pair, over T03's
    population (`paper.population("T03")`, the 12 cells of four generators) unless ``generators`` says otherwise."""
    gens = paper.population("T03").generators if generators is None else generators
    v = released_verdicts(bench, judges, conditions, generators=gens)
    judges = _present(list(schema.JUDGES if judges is None else judges), v["judge"].unique())
    frames = []
    for cond in conditions:
        pw = stats.pairwise_agreement(v, cond, judges=judges)
        frames.append(
            pw.rename(columns={"judge_a": "judge", "judge_b": "judge_2", "agreement_pct": "agreement"}).assign(
                condition=cond
            )
        )
    out = pd.concat(frames, ignore_index=True)
    return out[["judge", "judge_2", "condition", "agreement", "kappa", "n"]]


def extreme_pairs(
    pw: pd.DataFrame, condition: str = "with_gt", judges: Sequence[str] = schema.MAIN_JUDGES
) -> tuple[tuple[str, str], tuple[str, str]]:
    """Return ((judge, judge_2) with highest agreement, (judge, judge_2) with lowest) among judges."""
    sub = pw[(pw["condition"] == condition) & pw["judge"].isin(judges) & pw["judge_2"].isin(judges)]
    sub = sub.sort_values(["agreement", "judge", "judge_2"], ascending=[False, True, True])
    hi, lo = sub.iloc[0], sub.iloc[-1]
    return (hi["judge"], hi["judge_2"]), (lo["judge"], lo["judge_2"])


def confusion_pair(bench, judge: str, judge_2: str, condition: str = "with_gt") -> pd.DataFrame:
    """Return the 3x3 verdict confusion (% of shared verdicts): rows judge, columns judge_2, over
    F10's population (`paper.population("F10")`, four generators)."""
    v = released_verdicts(bench, [judge, judge_2], [condition], generators=paper.population("F10").generators)
    wide = v.groupby(list(stats.PAIR_KEYS) + ["judge"], observed=True)["llm_score"].first().unstack("judge")
    wide.columns = wide.columns.astype(str)
    conf = stats.confusion(wide[judge].to_numpy(float), wide[judge_2].to_numpy(float), normalize=True)
    conf.index.name, conf.columns.name = schema.display(judge), schema.display(judge_2)
    return conf


def table_F10(bench, condition: str = "with_gt") -> pd.DataFrame:
    """Return F10 data: per extreme pair the 9 confusion shares (%), agreement, kappa, off-diag 0.5 share."""
    pw = pairwise_long(bench, schema.MAIN_JUDGES, [condition])
    rows = []
    for label, (a, b) in zip(("highest", "lowest"), extreme_pairs(pw, condition)):
        conf = confusion_pair(bench, a, b, condition)
        rec = pw[(pw["judge"] == a) & (pw["judge_2"] == b)].iloc[0]
        base = {"pair": label, "judge": a, "judge_2": b, "condition": condition}
        for (x, y), share in conf.stack().items():
            rows.append({**base, "stat": "share_of_verdicts", "variant": f"{x:g}|{y:g}", "value": share})
        rows.append({**base, "stat": "agreement", "variant": np.nan, "value": rec["agreement"]})
        rows.append({**base, "stat": "kappa", "variant": np.nan, "value": rec["kappa"]})
        rows.append(
            {
                **base,
                "stat": "offdiag_share_with_a_0.5",
                "variant": np.nan,
                "value": 100.0 * stats.offdiag_half_share(conf),
            }
        )
    return pd.DataFrame(rows)


def binary_cells(
    bench, judges: Sequence[str] = schema.MAIN_JUDGES, condition: str = "with_gt", missing: Missing = PAPER_MISSING
) -> pd.DataFrame:
    """Return per (judge, generator, difficulty) cell: standard align (%), binary align under the
    judge-side reading (``binary``) and with the reference collapsed too (``binary_both``)."""
    v = released_verdicts(bench, judges, [condition])
    keys = ["judge", "generator", "difficulty"]
    out = stats.align(v, by=keys, missing=missing).rename(columns={"align": "standard"})
    for reading, col in (("judge", "binary"), ("both", "binary_both")):
        b = stats.align(stats.binary_verdicts(v, reading=reading), by=keys, missing=missing)
        out = out.merge(b[keys + ["align"]].rename(columns={"align": col}), on=keys)
    return out
