"""Every user-facing error of the scripts is one line saying what is wrong and what to do, exit
status 2, no traceback; `--debug` shows the traceback too. (The hub offline: tests/test_hub.py.)

The scripts run in this process (`run_main(main, argv)`, what their `__main__` block calls), except
the few cases that check the command line itself (a process each): starting Python is the cost."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ajb_run.errors import UserError, one_line, run_main, with_hint
from ajb_utils import data, paths
from mini_repo import write_mini_repo
from script_modules import load_script

SCRIPTS = paths.REPO_ROOT / "scripts"
MAIN_SCRIPTS = ["reproduce.py", "run_notebooks.py"]
rn = load_script("run_notebooks")
MAINS = {"reproduce.py": load_script("reproduce").main, "run_notebooks.py": rn.main}


def _run(script: str, *args: str) -> subprocess.CompletedProcess:
    """Run a script in a process of its own (its command line, as a user types it)."""
    return subprocess.run(
        [sys.executable, str(SCRIPTS / script), *args], capture_output=True, text=True, timeout=300, cwd=paths.REPO_ROOT
    )


@pytest.fixture
def run_here(capsys, monkeypatch):
    """Return a function running a script's main in this process, from the repository's root, as its
    __main__ block does (run_main); it returns what a process would have: exit status, stdout, stderr."""
    monkeypatch.chdir(paths.REPO_ROOT)

    def run(script: str, *args: str) -> subprocess.CompletedProcess:
        capsys.readouterr()
        code = run_main(MAINS[script], list(args))
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess([script, *args], code, out, err)

    return run


def _params(tmp_path: Path, source: Path | str) -> str:
    path = tmp_path / "source.yaml"
    path.write_text(f"default:\n  data_source: {source}\n  out_dir: {tmp_path / 'out'}\n")
    return str(path)


def _only_01(tmp_path: Path) -> list[str]:
    """Return run_notebooks.py's arguments for notebook 01, its executed and failed copies under tmp_path."""
    return ["--only", "01", "--output-dir", str(tmp_path / "executed"), "--failed-dir", str(tmp_path / "failed")]


def _assert_one_line(proc: subprocess.CompletedProcess, *expected: str) -> str:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    for text in expected:
        assert text in lines[0], lines[0]
    return lines[0]


# ---- the helper -------------------------------------------------------------------------------
def test_run_main_turns_user_errors_into_one_line_and_exit_2(capsys) -> None:
    def fails(argv):
        raise data.BenchDataError("config main lacks column id\nsecond line")

    assert run_main(fails, []) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: config main lacks column id / second line; a data source is")
    assert err.endswith("docs/DATA_FORMAT.md)\n") and err.count("\n") == 1
    assert run_main(fails, ["--debug"]) == 2
    assert "Traceback" in capsys.readouterr().err


def test_run_main_leaves_bugs_their_traceback() -> None:
    def bug(argv):
        raise KeyError("a bug")

    with pytest.raises(KeyError):
        run_main(bug, [])


def test_one_line_of_a_user_error() -> None:
    assert one_line(UserError("x")) == "error: x"


# ---- the scripts --------------------------------------------------------------------------------
@pytest.mark.parametrize("script", [*MAIN_SCRIPTS])
def test_missing_parameter_file(script: str) -> None:
    _assert_one_line(
        _run(script, "--params", "my/quick.yaml"), "my/quick.yaml does not exist", "papermill_params/sample.yaml"
    )


@pytest.mark.parametrize("script", [*MAIN_SCRIPTS])
def test_parameter_file_that_is_not_yaml(tmp_path: Path, script: str, run_here) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("default:\n  seed: [1, 2\n")
    _assert_one_line(run_here(script, "--params", str(bad)), "not valid YAML", "sample.yaml")


@pytest.mark.parametrize("script", [*MAIN_SCRIPTS])
def test_missing_data_path(tmp_path: Path, script: str, run_here) -> None:
    line = _assert_one_line(
        run_here(script, "--params", _params(tmp_path, tmp_path / "no_such_folder")), "no_such_folder"
    )
    assert "does not exist" in line


@pytest.mark.parametrize("script", [*MAIN_SCRIPTS])
@pytest.mark.parametrize("source", ["data/sampel", "data/sample_full_not_made"])
def test_a_mistyped_local_path_is_not_taken_for_the_hub(tmp_path: Path, script: str, source: str, run_here) -> None:
    """`data/sampel` (or full.yaml's folder before it is made) names a folder that does not exist; the
    hub is not asked (the line says nothing about reaching it)."""
    line = _assert_one_line(run_here(script, "--params", _params(tmp_path, source)), repr(source), "does not exist")
    assert "reach" not in line and "hub repo id (owner/name)" in line


@pytest.mark.parametrize("case", ["empty folder", "no README"])
def test_a_folder_that_is_not_a_data_source(tmp_path: Path, case: str, run_here) -> None:
    """reproduce.py names the folder (an empty one is refused by the probe, before any notebook; one
    without README by the loader). run_notebooks.py refuses the empty folder the same way; without a
    README its notebooks meet the loader's error in their kernel, and a data error in a kernel is one
    line too (tests/test_hub.py: test_a_data_source_error_in_one_notebook_stops_the_run)."""
    folder = tmp_path / "mirror"
    (folder / "data").mkdir(parents=True)
    if case == "no README":
        write_mini_repo(tmp_path / "mini")
        (tmp_path / "mini" / "README.md").unlink()
        folder = tmp_path / "mini"
    else:
        (folder / "data").rmdir()
    scripts = MAIN_SCRIPTS if case == "empty folder" else ["reproduce.py"]
    for script in scripts:
        args = ["--params", _params(tmp_path, folder)] + (_only_01(tmp_path) if script == "run_notebooks.py" else [])
        line = _assert_one_line(run_here(script, *args), str(folder.name))
        assert "DATA_FORMAT" in line or "README" in line


def test_a_truncated_data_file(tmp_path: Path, run_here) -> None:
    """reproduce.py builds the bench itself: the line names the truncated file. (In a notebook's
    kernel the same error stops run_notebooks.py in one line: test_a_data_error_kind_stops_the_run.)"""
    root = write_mini_repo(tmp_path / "mirror")
    path = root / "data" / "judge_gpt_5_4.jsonl"
    path.write_bytes(path.read_bytes()[: path.stat().st_size * 2 // 3])
    _assert_one_line(run_here("reproduce.py", "--params", _params(tmp_path, root)), "judge_gpt_5_4.jsonl")


@pytest.mark.parametrize("kind", ["BenchDataError", "IncompleteDataError", "HubUnavailable", "ParameterError"])
def test_a_data_error_kind_stops_the_run(kind: str) -> None:
    """Each kind of error the loader and the parameter check raise, met in a kernel, is the user's:
    run_notebooks.py stops and says it in one line (a data error gets what a data source must be)."""
    failed = rn.Result("01_x", False, 0.0, f"{kind}: no such thing")
    assert rn.is_user_error(failed) and not rn.is_user_error(rn.Result("01_x", False, 0.0, "ValueError: boom"))
    assert ("DATA_FORMAT" in with_hint(kind, "no such thing")) == kind.endswith("DataError")


def test_debug_shows_the_traceback() -> None:
    proc = _run("run_notebooks.py", "--params", "my/quick.yaml", "--debug")
    assert proc.returncode == 2 and "Traceback" in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith("error: parameter file my/quick.yaml")


def test_no_notebook_matched(run_here) -> None:
    _assert_one_line(run_here("run_notebooks.py", "--only", "99", "--list"), "no notebook matched '99'", "03")


@pytest.mark.parametrize(
    "args, expected",
    [
        (["3_bad", "Title"], "NN_topic"),
        (["03_main_results", "Title"], "exists; choose another name, or use --force"),
    ],
)
def test_new_notebook_errors(args: list[str], expected: str, run_here) -> None:
    MAINS.setdefault("new_notebook.py", load_script("new_notebook").main)
    _assert_one_line(run_here("new_notebook.py", *args), expected)


def test_new_notebook_skeleton_runs_top_to_bottom(tmp_path: Path) -> None:
    """The skeleton's code cells import every module they use (it used to miss provenance, environment)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("new_notebook", SCRIPTS / "new_notebook.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    nb = mod.skeleton("19_try", "Try")
    namespace: dict = {}
    for cell in nb.cells:
        if cell.cell_type == "code":
            source = cell.source.replace("out_dir: str | None = None", f"out_dir: str | None = {str(tmp_path)!r}")
            exec(compile(source, "<cell>", "exec"), namespace)
    assert (tmp_path / "PROVENANCE.json").exists()
