"""Repo-level pytest setup: the repository is importable, notebook kernels (nbval) start with
the same environment as scripts/run_notebooks.py (repo on PYTHONPATH, progress bars off), and
every cache (the built benches, datasets' Arrow copies) goes to a temporary folder for the
session, so no test reads or writes the repository's data/cache/. A test leaves the checkout as it
found it: the session fails when the tracked tree or any file under figures/ changed."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ajb_run.kernel import kernel_environment  # noqa: E402
from ajb_utils.cache import CACHE_ENV  # noqa: E402
from tests.checkout_state import changed_paths, repository_state  # noqa: E402

_STATE = pytest.StashKey[dict]()
os.environ.update(kernel_environment())
_SESSION_CACHE = tempfile.mkdtemp(prefix="ajb_test_cache_")
os.environ[CACHE_ENV] = _SESSION_CACHE  # inherited by nbval's notebook kernels
atexit.register(shutil.rmtree, _SESSION_CACHE, ignore_errors=True)


def pytest_collection_modifyitems(config, items) -> None:
    """Mark nbval's notebook cells slow: `python -m pytest -m "not slow"` skips them (CI runs all)."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)


def pytest_sessionstart(session) -> None:
    """Record the checkout's state before the first test."""
    session.config.stash[_STATE] = repository_state(ROOT)


def pytest_sessionfinish(session, exitstatus) -> None:
    """Fail the session when a test left the tracked tree or figures/ changed (say what changed)."""
    before = session.config.stash.get(_STATE, None)
    if before is None or exitstatus == pytest.ExitCode.INTERRUPTED:
        return
    changed = changed_paths(before, repository_state(ROOT))
    if changed:
        print(f"\nerror: the tests changed the checkout (a test must write under tmp_path): {changed}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
