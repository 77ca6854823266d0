"""Figure functions, each returning (fig, axes) and never calling plt.show(); `style` holds colours,
rcParams, paper_figure and save_fig. Figures 3 and 6-10 are drawn in the cells of notebooks 01, 03, 04
and 05 (their one reader) with `style`.

Modules by paper section (each module's `__all__` is what this package exports; no two share a name):
- ablations: RQ4, RQ6 temperature and prompt format (F04, F05)
- new_judge: beyond the paper (X2)
- simulator: beyond the paper, the judge simulator (X5)
"""

from ajb_utils.figures import ablations, new_judge, simulator, style
from ajb_utils.figures.ablations import *  # noqa: F401,F403
from ajb_utils.figures.new_judge import *  # noqa: F401,F403
from ajb_utils.figures.simulator import *  # noqa: F401,F403
from ajb_utils.figures.style import *  # noqa: F401,F403

SECTIONS = (style, ablations, new_judge, simulator)
__all__ = [name for module in SECTIONS for name in module.__all__]
