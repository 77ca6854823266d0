"""Figure helpers: `style` holds colours, rcParams, paper_figure and save_fig; each figure is its notebook's cells."""

from ajb_utils.figures import style
from ajb_utils.figures.style import *  # noqa: F401,F403

SECTIONS = (style,)
__all__ = [name for module in SECTIONS for name in module.__all__]
