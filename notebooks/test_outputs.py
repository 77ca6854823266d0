"""Every artifact file the notebooks promise (ajb_utils/resources/artifacts.csv) is on disk.

pytest collects this file after the notebooks (digits sort before "t"), so when nbval has just
executed a notebook in this session, its files must also be newer than the session start: the
notebooks, run with their default parameters, produce every listed table and figure.
"""

from __future__ import annotations

import time

import pytest

from ajb_utils import paths
from ajb_verify import artifacts

SESSION_START = time.time()  # module import happens at collection, before any notebook runs
LABEL = "sample"


def _notebooks() -> list[str]:
    """Return the notebooks that have output files listed in the artifact map."""
    table = artifacts.artifact_table()
    return sorted({nb for nb in table["notebook"] if artifacts.expected_outputs(nb, LABEL)})


@pytest.mark.parametrize("notebook", _notebooks())
def test_notebook_wrote_every_listed_artifact(
    notebook: str, request: pytest.FixtureRequest
) -> None:
    expected = artifacts.expected_outputs(notebook, LABEL)
    root = paths.REPO_ROOT
    missing = [f for f in expected if not (root / f).exists()]
    assert not missing, f"{notebook} did not write {missing}"
    ran_now = any(
        notebook in item.nodeid and item.nodeid.endswith(".ipynb::Cell 0")
        for item in request.session.items
    )
    if ran_now:
        stale = [f for f in expected if (root / f).stat().st_mtime < SESSION_START]
        assert not stale, f"{notebook} ran in this session but did not rewrite {stale}"
