"""Claims and comparisons of the paper's derivation section (the tables: `ajb_utils.tables.derivation`)."""

from __future__ import annotations

import pandas as pd

from ajb_utils.schema import DIFFICULTIES, TOPOLOGIES
from ajb_verify import engine

__all__ = [
    "checks_X3",
]


def checks_X3(x3: pd.DataFrame) -> list[engine.Verdict]:
    """Return the X3 verdict: the rewrite tiers make arguments less visible (easy > medium > hard VISIBLE share)."""
    falls, shown = [], []
    for topo, g in x3.groupby("dag_type", observed=True, sort=True):
        v = g.set_index("difficulty")["VISIBLE"].reindex(list(DIFFICULTIES)).to_numpy(float)
        if str(topo) in TOPOLOGIES:  # the population is the six topologies; the pooled row is shown only
            falls.append(bool(v[0] > v[1] > v[2]))
        shown.append(f"{topo} {' > '.join(f'{x:.1f}' for x in v)}")
    return [engine.verdict("X3.visible_falls", falls, note="; ".join(shown))]
