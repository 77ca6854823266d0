"""What a test run must leave as it found it: the checkout's tracked tree and everything under figures/.

conftest.py records `repository_state()` before the first test and fails the session when
`changed_paths` finds a difference at the end (a test writes under its tmp_path, never into the
repository; a stopped run's figures/<label>/RUN_INCOMPLETE.txt left by a test is the case this caught)."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

LOCK = ".PROVENANCE.lock"  # the empty lock any notebook run takes to write PROVENANCE.json (git-ignored)


def repository_state(root: Path) -> dict[str, str]:
    """Return {path: what it is}: one `git status` entry per changed or untracked (not ignored) path,
    and the SHA-256 of every file under figures/ (ignored ones too, the provenance lock left out)."""
    state = {}
    status = subprocess.run(["git", "status", "--porcelain", "-z"], cwd=root, capture_output=True, check=False)
    if status.returncode == 0:  # outside a git checkout: figures/ only
        for entry in filter(None, status.stdout.decode(errors="replace").split("\0")):
            state[f"git status: {entry[3:]}"] = entry[:2]
    for p in sorted((root / "figures").rglob("*")):
        if p.is_file() and p.name != LOCK:
            state[p.relative_to(root).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return state


def changed_paths(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """Return the paths added, removed or changed between two states of `repository_state`."""
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
