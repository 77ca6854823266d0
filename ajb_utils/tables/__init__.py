"""One pure function per paper table: `table_T02(bench) -> DataFrame` style.

Modules by notebook group:
- dataset: 01 dataset statistics (T07, T08, T09, T18, T21)
- main_results: 02-03 programmatic judge and main results (EQ1-5, AppI, T15, T02, T10, T11, C-F)
- breakdown: 04 per-metric and per-topology (T24, T28, C-W) and 11's T14
- agreement: 05 inter-judge agreement (T03, F10 data, T29, C-J)
- audit: 13 self-preference (T23) and 14 decision guide and consistency audit (T06, X1)
- ablations: 06-09 ablations (T04, T25, T27, T05, T26, T31)
- anchoring: 10 anchoring (T01, GT lift, App. H mining)
- validation: 11 human validation (T12, T13) and 12 rewrite validation (T19, T20, T22)
- extensions: 15-17 new judge, derivation gap, simulator (X2, X3, X4, static judge)
"""

from ajb_utils.tables.dataset import *  # noqa: F401,F403
from ajb_utils.tables.main_results import *  # noqa: F401,F403
from ajb_utils.tables.breakdown import *  # noqa: F401,F403
from ajb_utils.tables.agreement import *  # noqa: F401,F403
from ajb_utils.tables.audit import *  # noqa: F401,F403
from ajb_utils.tables.ablations import *  # noqa: F401,F403
from ajb_utils.tables.anchoring import *  # noqa: F401,F403
from ajb_utils.tables.validation import *  # noqa: F401,F403
from ajb_utils.tables.extensions import *  # noqa: F401,F403
