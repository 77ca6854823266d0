"""Pure functions of the paper's tables that several places read, `table_T02(bench) -> DataFrame` style.

A module per paper section (each module's `__all__` is what this package exports; no two share a name); a table
only its notebook computes is a cell of that notebook, and the claims that check these live in `ajb_verify`.
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
