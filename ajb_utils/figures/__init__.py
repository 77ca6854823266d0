"""One function per paper figure, each returning (fig, axes) and never calling plt.show(); `style` holds
colours, rcParams and save_fig.

Modules by paper section (each module's `__all__` is what this package exports; no two share a name):
- main_results: §4.2 degradation (F08)
- breakdown: RQ1 per metric and topology (F03, F09)
- agreement: RQ2 confusion heatmaps (F10)

A figure only one notebook draws is drawn in that notebook's cells (F04 in 07, T26 in 08, F05 in 09, X2 in 15, X5 in 17).
"""

from ajb_utils.figures import agreement, breakdown, main_results, style
from ajb_utils.figures.agreement import *  # noqa: F401,F403
from ajb_utils.figures.breakdown import *  # noqa: F401,F403
from ajb_utils.figures.main_results import *  # noqa: F401,F403
from ajb_utils.figures.style import *  # noqa: F401,F403

SECTIONS = (style, main_results, breakdown, agreement)
__all__ = [name for module in SECTIONS for name in module.__all__]
