"""ajb_verify: the paper checked against its reproduction, beside the analysis it checks.

Imports point one way: ajb_verify imports the analysis (`ajb_utils`), never the reverse.
- engine      the claim engine: `verdict(claim_id, reproduced)` by the claim's kind and tolerance,
              `checks`, `compare` and `side_by_side` (reproduced beside the paper's reported values)
- display     comparisons and verdicts shown to a reader and written to the output folder
- dataset, main_results, breakdown, agreement, ablations, anchoring, validation, derivation
              each section's claims and comparisons (`compare_T02`, `findings_checks`, ...), one
              module per section of `ajb_utils.tables`
- audit       the paper's consistency audit (X1) and the census of the numbers of its text
- census_rule the class of every number of the text and the kind of check a data number needs
- own_numbers the paper's printed values fed through every claim and comparison
- artifacts   the artifact map: paper table/figure -> notebook -> output files
- headline    the four classes of the headline: reproduced / not reproduced / the paper disagrees
              with itself (beside its X1 audit row) / not comparable here
- scorecard   every compared value and checked claim of an output folder, in one table and figure
Notebooks use it as `import ajb_verify as verify` in their "Against the paper" sections; the package
imports the sections and the audit, whose names it exports; artifacts, headline and scorecard (the
index, the scorecard notebook and the main command) are imported by name where they are used.
"""

from ajb_verify import (
    ablations,
    agreement,
    anchoring,
    audit,
    breakdown,
    census_rule,
    dataset,
    derivation,
    display,
    engine,
    main_results,
    own_numbers,
    validation,
)
from ajb_verify.ablations import *  # noqa: F401,F403
from ajb_verify.agreement import *  # noqa: F401,F403
from ajb_verify.anchoring import *  # noqa: F401,F403
from ajb_verify.audit import *  # noqa: F401,F403
from ajb_verify.breakdown import *  # noqa: F401,F403
from ajb_verify.census_rule import independent_source  # noqa: F401
from ajb_verify.dataset import *  # noqa: F401,F403
from ajb_verify.derivation import *  # noqa: F401,F403
from ajb_verify.display import *  # noqa: F401,F403
from ajb_verify.engine import *  # noqa: F401,F403
from ajb_verify.main_results import *  # noqa: F401,F403
from ajb_verify.own_numbers import *  # noqa: F401,F403
from ajb_verify.validation import *  # noqa: F401,F403

SECTIONS = (
    engine,
    display,
    dataset,
    main_results,
    breakdown,
    agreement,
    ablations,
    anchoring,
    validation,
    audit,
    derivation,
    own_numbers,
)
__all__ = [name for module in SECTIONS for name in module.__all__] + ["census_rule"]
