"""Pure functions of the paper's tables that several places read, `table_T02(bench) -> DataFrame` style;
tables only read frames. A table only its notebook computes is a cell of that notebook (Tables 7-9, 15,
18 and 21 in 01 and 02, T03/T24/T28 pivots in 04-05; T01 and App. H in 10; T12, T13 in 11, T19, T20, T22 in 12, Table 6's P(rank 1)
in 14, X2's lift in 15, X3, X3b and X4 in 16 from `ajb_utils.derivation`'s census).

They return reproduced numbers; the claims and comparisons that check them live in `ajb_verify`.

Modules by paper section (each module's `__all__` is what this package exports; no two share a name):
- main_results: §4.2 main results (T02, T10, T11; notebook 02's examples and T15, and 03's references, F08 data and Findings are cells)
- breakdown: RQ1, App. Q, S, G per-metric and per-topology frames (T24, T28 pivoted in notebook 04), weighting (C-W, T14)
- agreement: RQ2, App. T inter-judge agreement (pairs for T03 and F10; T29 is notebook 05's cells)
- ablations: RQ3-RQ6, App. R (T04, T25, T27, T05, T26, T31)
- anchoring: Finding 2 GT lift (paired, per metric; T01 and App. H mining are notebook 10's cells)
- validation: App. G, N human and rewrite validation: the annotation files and their spellings (T12 and T13 are
  notebook 11's cells, T19, T20, T22 and the claims we question about them notebook 12's)
- gallery: teaching, one generation shown end to end (the failure gallery's rules are notebook 03's cells)
- guide: App. O self-preference and the decision guide (T23, T06)
- new_judge: beyond the paper, a new judge beside the six (X2)
"""

from ajb_utils.tables import (
    ablations,
    agreement,
    anchoring,
    breakdown,
    gallery,
    guide,
    main_results,
    new_judge,
    validation,
)
from ajb_utils.tables.ablations import *  # noqa: F401,F403
from ajb_utils.tables.agreement import *  # noqa: F401,F403
from ajb_utils.tables.anchoring import *  # noqa: F401,F403
from ajb_utils.tables.breakdown import *  # noqa: F401,F403
from ajb_utils.tables.gallery import *  # noqa: F401,F403
from ajb_utils.tables.guide import *  # noqa: F401,F403
from ajb_utils.tables.main_results import *  # noqa: F401,F403
from ajb_utils.tables.new_judge import *  # noqa: F401,F403
from ajb_utils.tables.validation import *  # noqa: F401,F403

SECTIONS = (
    main_results,
    breakdown,
    agreement,
    ablations,
    anchoring,
    validation,
    guide,
    new_judge,
    gallery,
)
__all__ = [name for module in SECTIONS for name in module.__all__]
