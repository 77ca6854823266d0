"""Repo-level pytest setup: the repository is importable, notebook kernels (nbval) start with
the same environment as scripts/run_notebooks.py (repo on PYTHONPATH, progress bars off), and
every cache (the built benches, datasets' Arrow copies) goes to a temporary folder for the
session, so no test reads or writes the repository's data/cache/. A test leaves the checkout as it
found it: the session fails when the tracked tree or any file under figures/ changed (checked by
the process that runs the session: pytest-xdist's controller, before its first worker starts and
after its last one ends; a worker's view would meet the other worker's tests half-way)."""

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


# The test files that read the committed figures/sample/, which nbval's notebook runs rewrite (the same
# bytes, file by file): under pytest-xdist they run in the notebooks' worker, never beside a rewrite.
FIGURES_READERS = (
    "tests/test_notebook_tables.py",
    "tests/test_outputs_provenance.py",
    "tests/test_parameters.py",
    "tests/test_report.py",
    "ajb_run/tests/test_parameter_files.py",
    "ajb_run/tests/test_report_links.py",
    "ajb_run/tests/test_run_notebooks.py",
    "ajb_verify/tests/test_scorecard.py",
)
NOTEBOOK_GROUP = "notebooks and the readers of figures/sample/"
# the two longest units of work, handed out first (the others: the most tests first, xdist's order)
LONGEST = ("tests/test_release_rehearsal.py", NOTEBOOK_GROUP)


def work_group(nodeid: str) -> str:
    """Return the unit of work a pytest-xdist worker takes whole, its tests in collection order: a test
    file (its module fixtures run once), or every notebook (nbval, in order: 18_scorecard reads the
    others' outputs), then notebooks/test_outputs.py (the files they rewrote), with FIGURES_READERS."""
    path = nodeid.split("::", 1)[0]
    return NOTEBOOK_GROUP if path.startswith("notebooks/") or path in FIGURES_READERS else path


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Hand each pytest-xdist worker whole groups (work_group), LONGEST first, the next group to the
    first worker free."""
    from xdist.scheduler import LoadScopeScheduling

    class ByGroup(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_group(nodeid)

        def _assign_work_unit(self, node) -> None:
            for scope in reversed(LONGEST):
                if scope in self.workqueue:
                    self.workqueue.move_to_end(scope, last=False)
            super()._assign_work_unit(node)

    return ByGroup(config, log)


def pytest_collection_modifyitems(config, items) -> None:
    """Mark nbval's notebook cells slow: `python -m pytest -m "not slow"` skips them (CI runs all)."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)


def _is_xdist_worker(config) -> bool:
    """Return True in a pytest-xdist worker process (the controller and a plain run: False)."""
    return hasattr(config, "workerinput")


def pytest_sessionstart(session) -> None:
    """Record the checkout's state before the first test."""
    if not _is_xdist_worker(session.config):
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
