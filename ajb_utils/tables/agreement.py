"""Frames for notebook 05 inter-judge agreement: the pairs behind T03 and F10, the cells behind T29 (the
tables themselves are cells of the notebook).

Agreement and kappa compare two judges' raw verdicts on the same (id, generator, difficulty,
metric) key; pairs use only keys where both have a non-null verdict in {0, 0.5, 1}.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ajb_utils import paper, schema, stats
from ajb_utils.stats import PAPER_MISSING, Missing
from ajb_utils.tables.breakdown import released_verdicts

__all__ = [
    "pairwise_long",
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
