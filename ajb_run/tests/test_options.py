"""The scripts' command lines are derived from one declaration (`ajb_run.options`): every field is an
option, the two scripts share theirs, and the main command hands its notebook step the options as
values, not as strings it would have to spell the same way."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ajb_run import options
from ajb_run.options import MainOptions, RunOptions
from ajb_utils import paths
from script_modules import load_script

rn = load_script("run_notebooks")
reproduce = load_script("reproduce")


def _flags(cls: type) -> set[str]:
    return {a.option_strings[0] for a in options.parser(cls, None)._actions if a.option_strings[0] != "-h"}


def test_every_field_is_one_option_and_back() -> None:
    fields = {f.name for f in dataclasses.fields(RunOptions)}
    assert {a.dest for a in options.parser(RunOptions, None)._actions} - {"help"} == fields
    assert _flags(RunOptions) == {
        "--params", "--jobs", "--debug", "--only", "--notebooks-dir", "--in-place", "--output-dir", "--html",
        "--failed-dir", "--kernel", "--timeout", "--fail-fast", "--list", "--no-summary",
    }  # fmt: skip
    assert _flags(MainOptions) == {"--params", "--jobs", "--debug", "--skip-notebooks", "--no-html"}


def test_defaults_without_arguments() -> None:
    run = rn.parse_args([])
    assert run == RunOptions() and run.params == paths.REPO_ROOT / "papermill_params" / "sample.yaml"
    assert (run.jobs, run.html, run.summary, run.list_only, run.only) == (2, False, True, False, None)
    main = options.parse(MainOptions, [])
    assert (main.html, main.skip_notebooks, main.jobs) == (True, False, 2)


def test_values_are_converted_by_their_declared_type() -> None:
    run = rn.parse_args(
        ["--only", "03", "15_new_judge", "--timeout", "30", "--output-dir", "x", "--list", "--no-summary"]
    )
    assert run.only == ["03", "15_new_judge"] and run.timeout == 30 and run.output_dir == Path("x")
    assert run.list_only and not run.summary
    assert not options.parse(MainOptions, ["--no-html"]).html


def test_the_main_command_hands_its_own_values_to_the_notebook_step() -> None:
    main = options.parse(MainOptions, ["--params", "papermill_params/full.yaml", "--jobs", "3", "--no-html"])
    run = main.run_options(in_place=False)
    assert isinstance(run, RunOptions)
    assert (run.params, run.jobs, run.html, run.in_place, run.summary) == (
        Path("papermill_params/full.yaml"),
        3,
        False,
        False,
        False,
    )
    assert main.run_options(in_place=True).in_place and options.parse(MainOptions, []).run_options(False).html


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--in-place", "--output-dir", "x"], "argument --output-dir: not allowed with argument --in-place"),
        (["--jobs", "two"], "argument --jobs: invalid int value: 'two'"),
        (["--only"], "argument --only: expected at least one argument"),
    ],
)
def test_a_bad_command_line_is_argparse_s_usage_error(argv: list[str], message: str, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        rn.parse_args(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_shared_options_are_declared_once() -> None:
    """--params, --jobs and --debug have one help text in both scripts: the same field."""
    helps = [{a.dest: a.help for a in options.parser(c, None)._actions} for c in (RunOptions, MainOptions)]
    assert all(helps[0][name] == helps[1][name] for name in ("params", "jobs", "debug"))
    assert not hasattr(reproduce, "argparse") and not hasattr(rn, "argparse")
