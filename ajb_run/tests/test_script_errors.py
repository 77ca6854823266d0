"""Every user-facing error of the scripts is one line saying what is wrong and what to do, exit
status 2, no traceback; `--debug` shows the traceback too. (The hub offline: tests/test_hub.py.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ajb_run.errors import UserError, one_line, run_main
from ajb_utils import data, paths

sys.path.insert(0, str(Path(__file__).parent))
from mini_repo import write_mini_repo  # noqa: E402

SCRIPTS = paths.REPO_ROOT / "scripts"
MAIN_SCRIPTS = ["reproduce.py", "run_notebooks.py"]


def _run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPTS / script), *args], capture_output=True, text=True, timeout=300, cwd=paths.REPO_ROOT
    )


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
def test_parameter_file_that_is_not_yaml(tmp_path: Path, script: str) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("default:\n  seed: [1, 2\n")
    _assert_one_line(_run(script, "--params", str(bad)), "not valid YAML", "sample.yaml")


@pytest.mark.parametrize("script", [*MAIN_SCRIPTS])
def test_missing_data_path(tmp_path: Path, script: str) -> None:
    line = _assert_one_line(_run(script, "--params", _params(tmp_path, tmp_path / "no_such_folder")), "no_such_folder")
    assert "does not exist" in line


@pytest.mark.parametrize("script", [*MAIN_SCRIPTS])
@pytest.mark.parametrize("source", ["data/sampel", "data/sample_full_not_made"])
def test_a_mistyped_local_path_is_not_taken_for_the_hub(tmp_path: Path, script: str, source: str) -> None:
    """`data/sampel` (or full.yaml's folder before it is made) names a folder that does not exist; the
    hub is not asked (the line says nothing about reaching it)."""
    line = _assert_one_line(_run(script, "--params", _params(tmp_path, source)), repr(source), "does not exist")
    assert "reach" not in line and "hub repo id (owner/name)" in line


@pytest.mark.slow
@pytest.mark.parametrize("script", [*MAIN_SCRIPTS])
@pytest.mark.parametrize("case", ["empty folder", "no README"])
def test_a_folder_that_is_not_a_data_source(tmp_path: Path, script: str, case: str) -> None:
    folder = tmp_path / "mirror"
    (folder / "data").mkdir(parents=True)
    if case == "no README":
        write_mini_repo(tmp_path / "mini")
        (tmp_path / "mini" / "README.md").unlink()
        folder = tmp_path / "mini"
    else:
        (folder / "data").rmdir()
    args = ["--params", _params(tmp_path, folder)] + (_only_01(tmp_path) if script == "run_notebooks.py" else [])
    line = _assert_one_line(_run(script, *args), str(folder.name))
    assert "DATA_FORMAT" in line or "README" in line


@pytest.mark.slow
@pytest.mark.parametrize("script", [*MAIN_SCRIPTS])
def test_a_truncated_data_file(tmp_path: Path, script: str) -> None:
    if not hasattr(data, "IncompleteDataError"):
        pytest.skip("the loader raises IncompleteDataError for a truncated file on branch loader")
    root = write_mini_repo(tmp_path / "mirror")
    path = root / "data" / "judge_gpt_5_4.jsonl"
    path.write_bytes(path.read_bytes()[: path.stat().st_size * 2 // 3])
    args = ["--params", _params(tmp_path, root)] + (_only_01(tmp_path) if script == "run_notebooks.py" else [])
    _assert_one_line(_run(script, *args), "judge_gpt_5_4.jsonl")


def test_debug_shows_the_traceback() -> None:
    proc = _run("run_notebooks.py", "--params", "my/quick.yaml", "--debug")
    assert proc.returncode == 2 and "Traceback" in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith("error: parameter file my/quick.yaml")


def test_no_notebook_matched() -> None:
    _assert_one_line(_run("run_notebooks.py", "--only", "99", "--list"), "no notebook matched '99'", "03")


@pytest.mark.parametrize(
    "args, expected",
    [
        (["3_bad", "Title"], "NN_topic"),
        (["03_main_results", "Title"], "exists; choose another name, or use --force"),
    ],
)
def test_new_notebook_errors(args: list[str], expected: str) -> None:
    _assert_one_line(_run("new_notebook.py", *args), expected)


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
