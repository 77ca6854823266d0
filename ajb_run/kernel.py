"""The environment the notebook kernels start with (scripts/run_notebooks.py, the tests' nbval runs)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from ajb_utils import paths

# The kernel's own logs, which share the runner's stderr, kept quiet: jupyter_client interrupts a kernel
# before shutting it down, and an idle one then logs "KeyboardInterrupt caught in kernel" (ipykernel's
# log); ipykernel 7.4 can race while it shuts down and log "Uncaught exception in ZMQStream callback"
# (tornado's log; ipython/ipykernel#1518 quiets one such path). Both come after the notebook has ended;
# a notebook that fails says so through its cells, a dead kernel or a timeout.
KERNEL_CONFIG = Path(__file__).parent / "resources" / "kernel_config.json"


def kernel_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """Return an environment for notebook kernels: repo on PYTHONPATH, progress bars and debugger noise off."""
    env = dict(os.environ if base is None else base)
    root = str(paths.REPO_ROOT)
    parts = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join([root, *[p for p in parts if p != root]])
    env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # ipykernel's frozen-modules warning
    env.setdefault("TQDM_DISABLE", "1")
    env.setdefault("HF_DATASETS_DISABLE_PROGRESS_BARS", "1")
    # tqdm.auto (imported by `datasets`) warns on stderr when ipywidgets is missing; matched by message
    # so that interpreter start-up need not import tqdm.
    warn = "ignore:IProgress not found"
    if warn not in env.get("PYTHONWARNINGS", ""):
        env["PYTHONWARNINGS"] = ",".join(w for w in (env.get("PYTHONWARNINGS", ""), warn) if w)
    env.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    return env


def kernel_arguments() -> list[str]:
    """Return the kernel's extra command-line arguments: its config file, its own logs quiet."""
    return [f"--config={KERNEL_CONFIG}"]
