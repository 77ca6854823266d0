"""Repository, data and figure folders, derived from the package location (never the cwd)."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT: Path = Path(__file__).resolve().parent.parent
DATA_DIR: Path = REPO_ROOT / "data"
SAMPLE_DIR: Path = DATA_DIR / "sample"
PAPER_DIR: Path = DATA_DIR / "paper"
RUNS_DIR: Path = DATA_DIR / "runs"
CACHE_DIR: Path = Path(os.environ.get("AJB_CACHE_DIR") or DATA_DIR / "cache")  # tests: a tmp dir
FIGURES_DIR: Path = REPO_ROOT / "figures"
NOTEBOOKS_DIR: Path = REPO_ROOT / "notebooks"
RESOURCES_DIR: Path = Path(__file__).resolve().parent / "resources"

# In an output folder while a run writes it, and after a run that failed or was stopped (its files may be
# partial or stale); a run that ends OK removes it. Never listed as an output.
INCOMPLETE_FILE = "RUN_INCOMPLETE.txt"


def relpath(path: Path | str) -> str:
    """Return `path` relative to the repository root when inside it (for machine-independent output)."""
    p = Path(path).resolve()
    try:
        return p.relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return p.name
