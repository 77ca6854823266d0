"""Tables for notebook 03, main results (T02; T10, T11 and C-F are its cells).

Cells come from `stats.align` on the released judges' verdicts (`stats.PAPER_MISSING`); six-judge statistics use
schema.MAIN_JUDGES (Prometheus-2 is a baseline row, never one of them).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ajb_utils import schema, stats

__all__ = [
    "T02_KEYS",
    "main_verdicts",
    "table_T02",
    "table2_summary",
    "REFERENCE_KINDS",
]

T02_KEYS: list[str] = ["generator", "judge", "difficulty", "condition"]


# ---- Table 2 and Table 10 ------------------------------------------------------------------------
def main_verdicts(
    bench,
    judges: Sequence[str] | None = None,
    conditions: Sequence[str] = schema.MAIN_CONDITIONS,
    generators: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Return the verdicts of released `judges` under `conditions` (the two main ones) on `generators`."""
    v = bench.verdicts
    keep = v["judge"].isin(list(schema.JUDGES if judges is None else judges)) & v["condition"].isin(list(conditions))
    if generators is not None:
        keep &= v["generator"].isin(list(generators))
    return v[keep]


def table_T02(bench, missing: stats.Missing = stats.PAPER_MISSING) -> pd.DataFrame:
    """Return Table 2 long: generator, judge, difficulty, condition, align (%, Eq. 5a), n (records)."""
    return stats.align(main_verdicts(bench), by=T02_KEYS, missing=missing).astype({c: str for c in T02_KEYS})


def table2_summary(bench, missing: stats.Missing = stats.PAPER_MISSING) -> tuple[pd.DataFrame, str]:
    """Return (Table 2's judge means per condition and difficulty, to 0.1; its missing rule's name)."""
    cells = table_T02(bench, missing=missing)
    wide = cells.pivot_table(index="judge", columns=["condition", "difficulty"], values="align", observed=True)
    order = [j for j in schema.JUDGES if j in wide.index]
    cols = [(c, d) for c in schema.MAIN_CONDITIONS for d in schema.DIFFICULTIES if (c, d) in wide.columns]
    wide = wide.reindex(index=order, columns=pd.MultiIndex.from_tuples(cols, names=["condition", "difficulty"]))
    wide.index = pd.Index([schema.display(j) for j in wide.index], name="judge")
    return wide.round(1), stats.rule_name(missing)


# ---- Reference judges beside Table 2 (always-1.0 = p-bar, always-0.5, uniform, oracle, static) ----
REFERENCE_KINDS: tuple[str, ...] = ("always_1", "always_0.5", "uniform", "uniform_expected", "oracle")
