"""The README is true: every example command in it runs.

Each fenced shell or Python block of README.md is preceded by a marker: `<!-- runnable -->` (this
test runs it), `<!-- runnable: slow ... -->` (runs it too, marked slow: `-m "not slow"` skips it
locally, CI runs it), `<!-- checked: <the tests that run the same> -->` (its commands are checked,
not run: shell syntax, each script's arguments parsed by its own parser, each notebook named and
each `-p` parameter declared by it with a valid value; the tests it names run the same commands)
or `<!-- not run: <why> -->` (needs a server or the network). A runnable block runs as written,
line by line from the repository's root, in a temporary copy of the repository, so nothing it
writes lands in the checkout; `pip install ...` (the environment the tests run in) and the test
command itself (this suite) are the two lines it leaves out.

The quick start's main command is not run here: the release rehearsal
(tests/test_release_rehearsal.py) is the suite's one end-to-end run of it, and its block says so
(`<!-- not run: tests/test_release_rehearsal.py runs ... -->`); nbval executes each notebook, and
the runner's tests use throwaway notebooks.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from ajb_run import parameter_files
from ajb_utils import parameters, paths
from script_modules import load_script

README = paths.REPO_ROOT / "README.md"
FENCE = re.compile(r"(?:<!--\s*(?P<marker>[^>]*?)\s*-->\s*\n)?```(?P<lang>\w*)\n(?P<body>.*?)\n```", re.S)
SHELL = ("bash", "sh", "shell", "console")


@dataclass(frozen=True)
class Block:
    """One fenced block of the README: its language, body, marker and the line it starts on."""

    lang: str
    body: str
    marker: str
    line: int

    @property
    def runnable(self) -> bool:
        return self.marker.startswith("runnable")

    @property
    def slow(self) -> bool:
        return self.marker.startswith("runnable: slow")

    @property
    def checked(self) -> bool:
        return self.marker.startswith("checked:")


def readme_blocks(text: str) -> list[Block]:
    """Return the README's fenced blocks with their markers ('' when a block has none)."""
    return [
        Block(m["lang"], m["body"], (m["marker"] or "").strip(), text[: m.start("body")].count("\n"))
        for m in FENCE.finditer(text)
    ]


def commands(block: Block) -> str:
    """Return the shell script a runnable block runs: its lines, without `pip install ... &&` and
    without the test command (comments and continuation lines kept)."""
    out = []
    for line in block.body.splitlines():
        line = re.sub(r"^pip install [^&]*&&\s*", "", line)
        if re.match(r"^\s*python -m pytest\b", line):
            continue
        out.append(line)
    return "\n".join(out) + "\n"


def repo_copy(dest: Path) -> Path:
    """Return a copy of the repository's files (tracked and untracked, not ignored) under `dest`."""
    root = paths.REPO_ROOT
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        check=False,
    )
    if listed.returncode == 0:
        for rel in filter(None, listed.stdout.decode().split("\0")):
            src = root / rel
            if src.is_file():
                (dest / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest / rel)
    else:  # not a git checkout: everything but caches and outputs of other runs
        shutil.copytree(
            root,
            dest,
            dirs_exist_ok=True,
            ignore=shutil.ignore_patterns(
                ".git", "__pycache__", "cache", "runs", "_scratch", "sample_full", "*.egg-info"
            ),
        )
    return dest


def command_lines(script: str) -> list[list[str]]:
    """Return each command of a shell script as its words (comments dropped, continuations joined)."""
    text = re.sub(r"\\\n", " ", script)
    return [shlex.split(line, comments=True) for line in text.splitlines() if shlex.split(line, comments=True)]


def papermill_problems(words: list[str]) -> list[str]:
    """Return what is wrong with a `papermill NB OUT ... -p name value` command: a missing notebook, a
    parameter it does not declare, a value the parameter check refuses."""
    notebook = paths.REPO_ROOT / words[1]
    if not notebook.is_file():
        return [f"no notebook {words[1]}"]
    declared = parameter_files.declared_parameters(notebook)
    given = {words[i + 1]: yaml.safe_load(words[i + 2]) for i, w in enumerate(words) if w in ("-p", "--parameters")}
    return [f"{words[1]} declares no parameter {n!r}" for n in given if n not in declared] + parameters.value_problems(
        given
    )


def script_problems(words: list[str]) -> list[str]:
    """Return what is wrong with a `python scripts/run_notebooks.py ...` command: arguments its parser
    refuses, a selection of no notebook."""
    rn = load_script("run_notebooks")
    try:
        args = rn.parse_args(words[2:])
    except SystemExit:
        return [f"run_notebooks.py refuses {shlex.join(words[2:])}"]
    return [] if rn.list_notebooks(args.notebooks_dir, args.only) else [f"no notebook matches {args.only}"]


def check_problems(block: Block) -> list[str]:
    """Return what is wrong with a checked block's commands (see the module docstring); a command of a
    kind this check does not know is a problem too."""
    script = commands(block)
    syntax = subprocess.run(["bash", "-n", "-c", script], capture_output=True, text=True)
    if syntax.returncode:
        return [syntax.stderr.strip()]
    problems = []
    for words in command_lines(script):
        if words[0] == "papermill":
            problems += papermill_problems(words)
        elif words[:2] == ["python", "scripts/run_notebooks.py"]:
            problems += script_problems(words)
        elif words[0] != "printf":
            problems.append(f"no check for {shlex.join(words)}")
    return problems


BLOCKS = readme_blocks(README.read_text(encoding="utf-8"))
RUNNABLE = [b for b in BLOCKS if b.runnable]
CHECKED = [b for b in BLOCKS if b.checked]


def test_every_shell_and_python_block_says_whether_it_runs() -> None:
    unmarked = [
        b.line
        for b in BLOCKS
        if b.lang in (*SHELL, "python") and not (b.runnable or b.checked or b.marker.startswith("not run:"))
    ]
    assert unmarked == [], (
        f"README blocks starting on lines {unmarked} need <!-- runnable -->, <!-- checked: tests --> or <!-- not run: why -->"
    )
    assert len(RUNNABLE) + len(CHECKED) >= 3


def test_the_readme_names_only_files_that_exist() -> None:
    text = README.read_text(encoding="utf-8")
    named = set(
        re.findall(
            r"\b((?:papermill_params|scripts|notebooks|docs|\.ci|benchmarks)/[\w./-]+\.(?:yaml|py|ipynb|md))", text
        )
    )
    named |= {f".ci/{m}" for m in re.findall(r"\.ci/([\w-]+)\b", text)}
    missing = sorted(
        n for n in named if not (paths.REPO_ROOT / n).exists() and n != "docs/PERFORMANCE.md"
    )  # written by branch perf (issue 22 item 6)
    assert missing == []
    shipped = sorted(p.name for p in (paths.REPO_ROOT / "papermill_params").glob("*.yaml"))
    assert all(name in text for name in shipped), shipped
    notebooks = sorted(p.stem for p in paths.NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb"))
    assert f"{len(notebooks)} notebooks" in text and notebooks[0] in text and notebooks[-1] in text
    assert "my/quick.yaml" not in text


def test_commands_leave_out_the_install_and_the_test_command() -> None:
    block = Block(
        "bash",
        'pip install -c requirements.lock -e ".[dev]" && python scripts/reproduce.py\n'
        "# tests\npip install -e . && python -m pytest -q",
        "runnable",
        1,
    )
    assert commands(block) == "python scripts/reproduce.py\n# tests\n"


@pytest.mark.parametrize(
    "block", [pytest.param(b, id=f"line{b.line}", marks=[pytest.mark.slow] if b.slow else []) for b in RUNNABLE]
)
def test_runnable_block_runs(block: Block, tmp_path: Path) -> None:
    root = repo_copy(tmp_path / "repo")
    env = {**os.environ, "PYTHONPATH": str(root)}
    if block.lang == "python":
        argv = [sys.executable, "-c", block.body]
    else:
        argv = ["bash", "-euo", "pipefail", "-c", commands(block)]
    proc = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, (
        f"README block at line {block.line} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    )


@pytest.mark.parametrize("block", [pytest.param(b, id=f"line{b.line}") for b in CHECKED])
def test_checked_block_names_what_exists(block: Block) -> None:
    assert check_problems(block) == []


def test_the_block_check_finds_a_typo() -> None:
    """A mistyped parameter, value, notebook, option or command, and a broken quote, are each found."""
    typo = Block(
        "bash",
        "papermill notebooks/03_main_results.ipynb /tmp/x.ipynb -p n_bootsrap 200 -p missing drop\n"
        "papermill notebooks/03_main_rezults.ipynb /tmp/x.ipynb\n"
        "python scripts/run_notebooks.py --onyl 03\npython scripts/run_notebooks.py --only 99\n"
        "python scripts/reproduce.py --params x.yaml\n",
        "checked: none",
        1,
    )
    found = "\n".join(check_problems(typo))
    for wrong in ("'n_bootsrap'", "'drop'", "03_main_rezults", "--onyl", "['99']", "reproduce.py --params"):
        assert wrong in found, (wrong, found)
    assert check_problems(Block("bash", "printf 'a\n", "checked: none", 1)) != []


def test_a_block_not_run_names_the_test_that_runs_it() -> None:
    """The quick start's main command is the release rehearsal's: no runnable block reruns it, and the
    test a `not run:` marker names exists and runs scripts/reproduce.py."""
    assert not [b.line for b in RUNNABLE if "scripts/reproduce.py" in commands(b)]
    named = {n for b in BLOCKS if b.marker.startswith("not run:") for n in re.findall(r"tests/test_\w+\.py", b.marker)}
    assert named == {"tests/test_release_rehearsal.py"}
    for name in named:
        assert "scripts/reproduce.py" in (paths.REPO_ROOT / name).read_text(encoding="utf-8")
    for block in CHECKED:  # a checked block names the tests that run its commands
        named = re.findall(r"[\w/]*tests/test_\w+\.py", block.marker)
        assert named and all((paths.REPO_ROOT / n).is_file() for n in named), block.marker
