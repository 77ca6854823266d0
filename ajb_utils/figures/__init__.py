"""One function per paper figure, each returning (fig, axes) and never calling plt.show(); `style` holds
colours, rcParams and save_fig.

Modules by paper section (each module's `__all__` is what this package exports; no two share a name):
- main_results: §4.2 degradation (F08)
- breakdown: RQ1 per metric and topology (F03, F09)
- agreement: RQ2 confusion heatmaps (F10)
- ablations: RQ4, RQ6 temperature and prompt format (F04, F05)
- new_judge: beyond the paper (X2)
"""

from ajb_utils.figures import ablations, agreement, breakdown, main_results, new_judge, style
from ajb_utils.figures.ablations import *  # noqa: F401,F403
from ajb_utils.figures.agreement import *  # noqa: F401,F403
from ajb_utils.figures.breakdown import *  # noqa: F401,F403
from ajb_utils.figures.main_results import *  # noqa: F401,F403
from ajb_utils.figures.new_judge import *  # noqa: F401,F403
from ajb_utils.figures.style import *  # noqa: F401,F403

SECTIONS = (style, main_results, breakdown, agreement, ablations, new_judge)
__all__ = [name for module in SECTIONS for name in module.__all__]
