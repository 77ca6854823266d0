"""Figure helpers: `style` holds colours, rcParams, paper_figure and save_fig. Every paper figure is
drawn in the cells of its one reader, a notebook, with `style`: Figures 3 and 6-10 in notebooks 01,
03, 04 and 05; F04 in 07, T26 in 08, F05 in 09, X2 in 15, X5 in 17.
"""

from ajb_utils.figures import style
from ajb_utils.figures.style import *  # noqa: F401,F403

SECTIONS = (style,)
__all__ = [name for module in SECTIONS for name in module.__all__]
