"""Repo-level pytest setup: the repository is importable, and notebook kernels (nbval) start with
the same environment as scripts/run_notebooks.py (repo on PYTHONPATH, progress bars off)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ajb_utils.environment import kernel_environment  # noqa: E402

os.environ.update(kernel_environment())
