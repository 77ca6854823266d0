"""The parameter files of run_notebooks.py and reproduce.py: a notebook's declared parameters read
from its parameters cell, and an unknown name or value in a file stops either script before it starts
a kernel or writes anything, in one line listing the valid ones."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ajb_run import parameter_files
from ajb_run.errors import run_main
from ajb_utils import paths
from script_modules import load_script

MAINS = {"run_notebooks.py": load_script("run_notebooks").main, "reproduce.py": load_script("reproduce").main}


def test_declared_parameters_of_a_committed_notebook() -> None:
    nb = paths.NOTEBOOKS_DIR / "03_main_results.ipynb"
    assert {"data_source", "revision", "out_dir", "seed", "n_bootstrap"} <= parameter_files.declared_parameters(nb)


def _params_file(tmp_path: Path, spec: dict) -> Path:
    path = tmp_path / "typo.yaml"
    path.write_text(yaml.safe_dump(spec))
    return path


@pytest.fixture
def run_here(capsys, monkeypatch):
    """Return a function running a script's main in this process (as its __main__ block does, run_main),
    from the repository's root; it returns (exit status, stdout, stderr) and fails the test when
    anything under figures/sample/ was written meanwhile."""
    monkeypatch.chdir(paths.REPO_ROOT)
    sample = paths.FIGURES_DIR / "sample"

    def run(script: str, *args: str) -> tuple[int, str, str]:
        before = {p: p.stat().st_mtime_ns for p in sample.rglob("*")}
        capsys.readouterr()
        code = run_main(MAINS[script], list(args))
        out, err = capsys.readouterr()
        assert {p: p.stat().st_mtime_ns for p in sample.rglob("*")} == before, "figures/sample/ changed"
        return code, out, err

    return run


@pytest.mark.parametrize(
    "spec, expected",
    [
        ({"default": {"n_bootsrap": 10}}, "unknown parameter 'n_bootsrap' in"),
        ({"03_main_results": {"missing": "miss"}}, "unknown parameter 'missing' for 03_main_results"),
        ({"10": {"anchoring_judge": "judge_foo"}}, "anchoring_judge"),
    ],
)
@pytest.mark.parametrize("script", ["run_notebooks.py", "reproduce.py"])
def test_scripts_check_parameters_before_launching(tmp_path: Path, run_here, script, spec, expected) -> None:
    code, out, err = run_here(script, "--params", str(_params_file(tmp_path, spec)))
    assert code == 2, out + err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and expected in lines[0], err
    assert "valid" in lines[0]


def test_shipped_parameter_files_pass_the_check(run_here) -> None:
    for path in sorted((paths.REPO_ROOT / "papermill_params").glob("*.yaml")):
        code, out, err = run_here("run_notebooks.py", "--params", str(path), "--list")
        assert code == 0 and "03_main_results" in out, (path.name, out + err)


def test_declared_names_hold_every_name_papermill_sees() -> None:
    """The AST reading of each committed notebook's parameters cell finds every name papermill's
    own inspection finds, plus the PEP 604-annotated ones papermill misses."""
    import papermill as pm

    for nb in sorted(paths.NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb")):
        theirs, ours = set(pm.inspect_notebook(str(nb))), parameter_files.declared_parameters(nb)
        assert theirs <= ours, (nb.name, theirs - ours)
        assert "data_source" in ours
