"""Notebook parameters: an unknown name or value fails before anything is written, listing the
valid ones, when the notebook is run by papermill's own CLI (run_notebooks.py and reproduce.py check
a parameter file before they start: ajb_run/tests/test_parameter_files.py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from ajb_utils import parameters, paths, provenance, schema

SCRIPTS = paths.REPO_ROOT / "scripts"
SAMPLE_FIGURES = paths.FIGURES_DIR / "sample"


# ---- the kernel's input history -> (declared, injected) --------------------------------------
PARAMS_SRC = "seed: int = 1  # seeded\nrevision: str | None = None  # PEP 604\nn_bootstrap = 2000\n"


def test_history_without_an_injected_cell_has_nothing_to_check() -> None:
    assert parameters.injected_from_history(["", PARAMS_SRC, "x = 1"]) is None
    assert parameters.injected_from_history([]) is None


def test_history_names_the_declared_and_the_injected_names() -> None:
    history = ["", PARAMS_SRC, "# Parameters\nn_bootsrap = 10\nseed = 7\n", "bench = 1"]
    declared, injected = parameters.injected_from_history(history)
    assert declared == {"seed", "revision", "n_bootstrap"}
    assert injected == {"n_bootsrap", "seed"}


def test_history_rerun_uses_the_last_injection() -> None:
    history = ["", PARAMS_SRC, "# Parameters\nfoo = 1\n", "y = 2", PARAMS_SRC, "# Parameters\nseed = 3\n"]
    assert parameters.injected_from_history(history) == ({"seed", "revision", "n_bootstrap"}, {"seed"})


def test_check_namespace_raises_one_line_with_the_valid_names_and_a_suggestion() -> None:
    ns = {
        "In": ["", PARAMS_SRC, "# Parameters\nn_bootsrap = 10\n"],
        "n_bootsrap": 10,
        "seed": 1,
        "revision": None,
        "n_bootstrap": 2000,
    }
    with pytest.raises(parameters.ParameterError) as err:
        provenance.run_parameters(ns)
    msg = str(err.value)
    assert len(msg.splitlines()) == 1
    assert "unknown parameter 'n_bootsrap'" in msg and "did you mean 'n_bootstrap'" in msg
    assert "valid names: n_bootstrap, revision, seed" in msg


def test_check_namespace_accepts_declared_names_and_interactive_runs() -> None:
    ok = {"In": ["", PARAMS_SRC, "# Parameters\nseed = 7\n"], "seed": 7, "revision": None, "n_bootstrap": 5}
    assert provenance.run_parameters(ok)["seed"] == 7
    assert provenance.run_parameters({"seed": 1, "whatever": 2}) == {"seed": 1}  # no history: nothing to check


# ---- values -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, value, valid",
    [
        ("anchoring_judge", "judge_foo", "judge_gemini_2_5_pro"),
        ("sheet_generator", "foo_gen", "llama_3_3_70b_instruct"),
        ("generators", ["gpt5_4", "foo_gen"], "qwen3_32b"),
        ("judges", ["judge_foo"], "judge_qwq_32b"),
        ("difficulties", ["hard", "harder"], "medium"),
        ("anchoring_difficulty", "extreme", "easy"),
        ("conditions", ["with_gt", "with_gtt"], "without_gt"),
        ("static_conditions", ["nope"], "deref"),
        ("missing", "drop", "authors"),
        ("backend", "vllm", "openai"),
    ],
)
def test_unknown_values_are_named_with_the_valid_ones(name: str, value, valid: str) -> None:
    problems = parameters.value_problems({name: value})
    assert len(problems) == 1 and name in problems[0] and valid in problems[0], problems
    with pytest.raises(parameters.ParameterError, match=name):
        parameters.check_values({name: value})


def test_known_values_aliases_and_none_pass() -> None:
    good = {
        "anchoring_judge": "judge_reranker_gemini",
        "generators": None,
        "judges": list(schema.JUDGES),
        "sheet_generator": "gpt_5_4",
        "difficulties": ["easy"],
        "conditions": list(schema.CONDITIONS),
        "missing": "miss",
        "backend": "static",
        "seed": 3,
        "run_name": "anything",
    }
    assert parameters.value_problems(good) == []


def test_every_choice_parameter_is_a_notebook_parameter() -> None:
    assert set(parameters.CHOICES) <= set(provenance.DEFAULT_PARAMETERS)


def test_check_names_lists_every_unknown_one() -> None:
    with pytest.raises(parameters.ParameterError) as err:
        parameters.check_names({"seed", "sed", "zzz"}, {"seed", "n_bootstrap"}, "03_main_results")
    msg = str(err.value)
    assert "unknown parameters 'sed', 'zzz' for 03_main_results" in msg
    assert "valid names: n_bootstrap, seed" in msg


# ---- end to end: nothing is written under figures/sample/ -------------------------------------
def _snapshot() -> dict[str, float]:
    return {str(p): p.stat().st_mtime_ns for p in SAMPLE_FIGURES.rglob("*")} if SAMPLE_FIGURES.exists() else {}


@pytest.fixture
def untouched_figures():
    """Fail when the test wrote anything under figures/sample/."""
    before = _snapshot()
    yield
    assert _snapshot() == before, "figures/sample/ changed"


@pytest.mark.slow
@pytest.mark.parametrize(
    "nb, args, expected",
    [
        ("03_main_results.ipynb", ["-p", "n_bootsrap", "10"], "unknown parameter 'n_bootsrap'"),
        ("10_anchoring.ipynb", ["-p", "anchoring_judge", "judge_foo"], "anchoring_judge"),
        ("18_scorecard.ipynb", ["-p", "out_dri", "x"], "unknown parameter 'out_dri'"),
    ],
)
def test_papermill_cli_fails_before_writing(tmp_path: Path, untouched_figures, nb, args, expected) -> None:
    proc = subprocess.run(
        [
            "papermill",
            str(paths.NOTEBOOKS_DIR / nb),
            str(tmp_path / "x.ipynb"),
            "--cwd",
            str(paths.NOTEBOOKS_DIR),
            *args,
            "--no-progress-bar",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "ParameterError" in proc.stderr and expected in proc.stderr, proc.stderr[-2000:]


def test_papermill_is_on_path() -> None:
    assert shutil.which("papermill"), "the papermill CLI is installed with the package"


def test_run_parameters_checks_the_kernel_namespace(monkeypatch, tmp_path: Path) -> None:
    """The parameters a notebook reads (run_parameters, before output_dir) are checked against what it declares."""
    import IPython

    shell = type("Shell", (), {"user_ns": {"In": ["", "out_dir = None\n", "# Parameters\nout_dri = 'x'\n"]}})()
    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)
    with pytest.raises(parameters.ParameterError, match="unknown parameter 'out_dri'.*did you mean 'out_dir'"):
        provenance.output_dir("sample", tmp_path / "o", provenance.run_parameters(shell.user_ns))
    assert not (tmp_path / "o").exists()
    shell.user_ns["In"] = ["", "out_dir = None\n", "x = 1"]
    assert provenance.output_dir("sample", tmp_path / "o", provenance.run_parameters(shell.user_ns)) == tmp_path / "o"


# ---- papermill's own run: the check comes before the data is read (issue 49) --------------------
@pytest.mark.parametrize("path", sorted(paths.NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb")), ids=lambda p: p.stem[:2])
def test_every_notebook_checks_its_parameters_before_reading_data(path: Path) -> None:
    """The code cell that calls run_parameters(globals()) runs it before load_bench or any other reading."""
    import json

    cells = ["".join(c["source"]) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    check = next(k for k, s in enumerate(cells) if "run_parameters(globals())" in s)
    reads = [k for k, s in enumerate(cells) if "load_bench(" in s or "read_bench(" in s]
    assert (
        not reads
        or check < min(reads)
        or (check == min(reads) and cells[check].index("run_parameters(globals())") < cells[check].index("load_bench("))
    ), f"{path.stem}: load_bench runs before the parameters are checked"


@pytest.mark.slow
def test_papermill_cli_stops_in_the_check_with_one_line(tmp_path: Path, untouched_figures) -> None:
    """A mistyped name on a data source that does not exist: the parameter error, not the data's, and the
    kernel's traceback of it is one line (IPython's _render_traceback_), not the cell's frames."""
    proc = subprocess.run(
        ["papermill", str(paths.NOTEBOOKS_DIR / "03_main_results.ipynb"), str(tmp_path / "o.ipynb")]
        + ["--cwd", str(paths.NOTEBOOKS_DIR), "-p", "n_bootsrap", "200", "-p", "data_source", str(tmp_path / "none")]
        + ["--no-progress-bar"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode != 0
    assert "unknown parameter 'n_bootsrap'" in proc.stderr and "BenchDataError" not in proc.stderr, proc.stderr[-3000:]
    import json

    (err,) = [
        o
        for c in json.loads((tmp_path / "o.ipynb").read_text())["cells"]
        for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert len(err["traceback"]) == 1 and "unknown parameter 'n_bootsrap'" in err["traceback"][0], err["traceback"]
