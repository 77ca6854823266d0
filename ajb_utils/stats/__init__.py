"""Statistics for AgentJudgeBench: alignment (Eqs. 4-5), bootstrap CIs, agreement, ranking, juries, reference judges.

Compute only, over the tidy `verdicts` frame (docs/DATA_FORMAT.md section 4); every groupby uses observed=True.
The missing-verdict rules (`missing=`, default `PAPER_MISSING`) and the exact multinomial bootstrap with an
explicit seed are docs/DECISIONS.md's "Missing judge scores" and "Bootstrap".
"""

from ajb_utils.stats import agreement, alignment, bootstrap, frames, juries, ranking, reference
from ajb_utils.stats.agreement import *  # noqa: F401,F403
from ajb_utils.stats.alignment import *  # noqa: F401,F403
from ajb_utils.stats.bootstrap import *  # noqa: F401,F403
from ajb_utils.stats.frames import *  # noqa: F401,F403
from ajb_utils.stats.juries import *  # noqa: F401,F403
from ajb_utils.stats.ranking import *  # noqa: F401,F403
from ajb_utils.stats.reference import *  # noqa: F401,F403

SECTIONS = (frames, alignment, bootstrap, agreement, ranking, juries, reference)
__all__ = [name for module in SECTIONS for name in module.__all__]
