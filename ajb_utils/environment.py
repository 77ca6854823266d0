"""The environment report at the end of every notebook and the environment notebook kernels start with."""

from __future__ import annotations

import importlib.metadata
import os
import platform
from collections.abc import Mapping, Sequence

import pandas as pd

from ajb_utils import paths

ENV_PACKAGES: list[str] = [
    "numpy", "pandas", "scipy", "matplotlib", "seaborn", "datasets", "papermill",
]


def package_version(name: str) -> str:
    """Return the installed version of a distribution, or 'not installed'."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def environment_report(packages: Sequence[str] = ENV_PACKAGES) -> pd.DataFrame:
    """Return python, platform and package versions as a two-column frame (no paths, hosts or times)."""
    from ajb_utils import __version__

    rows = [
        ("python", platform.python_version()),
        ("platform", f"{platform.system()} {platform.machine()}"),
        ("ajb_utils", __version__),
        *((p, package_version(p)) for p in packages),
    ]
    return pd.DataFrame(rows, columns=["component", "version"])


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
