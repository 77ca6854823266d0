"""The repository's scripts (scripts/*.py) as modules for the tests, each loaded once per test session.

Every test file that loads a script gets the same module object: a second copy would replace the first in
sys.modules, and objects of the first (e.g. run_notebooks.Task) could then no longer be pickled to the
worker processes by reference. reproduce.py imports scripts/run_notebooks.py itself, as `run_notebooks`: the
same module again."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def load_script(name: str) -> ModuleType:
    """Return scripts/<name>.py as the module `name` (the one already loaded from that file, if any)."""
    path = SCRIPTS / f"{name}.py"
    loaded = sys.modules.get(name)
    if loaded is not None and Path(getattr(loaded, "__file__", "") or "").resolve() == path:
        return loaded
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses look the module up while it loads
    spec.loader.exec_module(mod)
    return mod
