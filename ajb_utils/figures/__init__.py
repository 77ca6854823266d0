"""One function per paper figure, each returning (fig, axes); style and save_fig in `style`.

Plot functions never call plt.show(). Modules by notebook group:
- dataset: 01-03 dataset statistics, degradation (F06, F07, F08)
- breakdown: 04-05, 13-14 per-metric, topology, agreement (F03, F09, F10)
- ablations: 06-12 ablations and validation (F04, F05, ...)
- extensions: 15-17 new judge, derivation gap, simulator (X2, X3, X4, X5)
"""

from ajb_utils.figures.style import *  # noqa: F401,F403  (set_style, colours, save_fig)
from ajb_utils.figures.style import (close_all, condition_style, difficulty_marker,  # noqa: F401
                                     figure_paths, generator_color, generator_palette,
                                     judge_color, judge_palette, save_fig, set_style)
from ajb_utils.figures.dataset import *  # noqa: F401,F403
from ajb_utils.figures.breakdown import *  # noqa: F401,F403
from ajb_utils.figures.ablations import *  # noqa: F401,F403
from ajb_utils.figures.extensions import *  # noqa: F401,F403
