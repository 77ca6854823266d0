"""One function per paper figure, each returning (fig, axes) and never calling plt.show(); `style` holds
colours, rcParams and save_fig.

Modules by paper section (each module's `__all__` is what this package exports; no two share a name):
- main_results: §4.2 degradation (F08)
- ablations: RQ4, RQ6 temperature and prompt format (F04, F05)
- new_judge: beyond the paper (X2)
- simulator: beyond the paper, the judge simulator (X5)
"""

from ajb_utils.figures import ablations, main_results, new_judge, simulator, style
from ajb_utils.figures.ablations import *  # noqa: F401,F403
from ajb_utils.figures.main_results import *  # noqa: F401,F403
from ajb_utils.figures.new_judge import *  # noqa: F401,F403
from ajb_utils.figures.simulator import *  # noqa: F401,F403
from ajb_utils.figures.style import *  # noqa: F401,F403

SECTIONS = (style, main_results, ablations, new_judge, simulator)
__all__ = [name for module in SECTIONS for name in module.__all__]
