"""The session check that a test run leaves the checkout as it found it (conftest.py, checkout_state)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from ajb_utils import paths
from checkout_state import changed_paths, repository_state


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True, capture_output=True
    )


def test_a_marker_left_in_figures_and_an_edited_file_are_found(tmp_path: Path) -> None:
    """A stopped run's marker under figures/ (git-ignored or not), an edited tracked file and a new
    untracked one are each named; the same bytes written again, or the provenance lock, are no change."""
    (tmp_path / "figures" / "sample").mkdir(parents=True)
    (tmp_path / "figures" / "sample" / "T02.csv").write_text("a\n")
    (tmp_path / "README.md").write_text("x\n")
    (tmp_path / ".gitignore").write_text("figures/*/html/\n.PROVENANCE.lock\n")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "c")
    before = repository_state(tmp_path)
    (tmp_path / "figures" / "sample" / "T02.csv").write_text("a\n")  # rewritten, same bytes
    (tmp_path / "figures" / "sample" / ".PROVENANCE.lock").write_text("")  # a notebook's provenance lock
    assert changed_paths(before, repository_state(tmp_path)) == []
    (tmp_path / "figures" / "sample" / paths.INCOMPLETE_FILE).write_text("stopped")
    (tmp_path / "figures" / "sample" / "html").mkdir()
    (tmp_path / "figures" / "sample" / "html" / "03.html").write_text("<p>")  # ignored by git, still found
    (tmp_path / "README.md").write_text("y\n")
    (tmp_path / "notes.txt").write_text("new")
    assert changed_paths(before, repository_state(tmp_path)) == [
        f"figures/sample/{paths.INCOMPLETE_FILE}",
        "figures/sample/html/03.html",
        "git status: README.md",
        "git status: figures/sample/RUN_INCOMPLETE.txt",
        "git status: notes.txt",
    ]


def test_outside_a_git_checkout_figures_are_still_compared(tmp_path: Path) -> None:
    (tmp_path / "figures").mkdir()
    before = repository_state(tmp_path)
    (tmp_path / "figures" / "F03.png").write_bytes(b"\x89PNG")
    assert changed_paths(before, repository_state(tmp_path)) == ["figures/F03.png"]
