"""The scripts' options, declared once: a dataclass per command whose fields are its options (name,
type, default, help), and `parse` that derives the command line from it with argparse.

`scripts/run_notebooks.py` parses `RunOptions`; `scripts/reproduce.py` parses `MainOptions` and
hands its notebook step a `RunOptions` built from its own fields (`MainOptions.run_options`), never
a list of option strings, so an option cannot mean one thing in one script and another in the
other. The parameters a notebook takes are not options: they come from the parameter file
(`--params`) and are checked against each notebook's `parameters` cell (`parameter_files`).
"""

from __future__ import annotations

import argparse
import dataclasses
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ajb_run.errors import DEBUG_HELP
from ajb_utils import paths

DEFAULT_PARAMS: Path = paths.REPO_ROOT / "papermill_params" / "sample.yaml"
DEFAULT_JOBS: int = 2


def option(help: str | None = None, **argparse_kwargs: Any) -> Any:
    """Return a dataclass field's metadata for `parse`: its help line and any argparse keyword
    (`flag` the option's name when it is not --<field-name>, `group` a mutually exclusive group)."""
    return {"help": help, **argparse_kwargs}


@dataclass
class CommonOptions:
    """The options both scripts take."""

    params: Path = field(
        default=DEFAULT_PARAMS, metadata=option("parameter file (default papermill_params/sample.yaml)")
    )
    jobs: int = field(default=DEFAULT_JOBS, metadata=option(f"notebooks at once (default {DEFAULT_JOBS})"))
    debug: bool = field(default=False, metadata=option(DEBUG_HELP))


@dataclass
class RunOptions(CommonOptions):
    """scripts/run_notebooks.py: which notebooks, where the executed copies and pages go."""

    only: list[str] | None = field(default=None, metadata=option("notebook numbers or stems to run", metavar="NN"))
    notebooks_dir: Path = field(default=paths.NOTEBOOKS_DIR, metadata=option())
    in_place: bool = field(
        default=False, metadata=option("overwrite the notebooks with executed versions", group="where")
    )
    output_dir: Path | None = field(
        default=None,
        metadata=option("for executed notebooks (default figures/_scratch/notebooks/<label>/)", group="where"),
    )
    html: bool = field(default=False, metadata=option("also render HTML pages to <output folder>/html/"))
    failed_dir: Path | None = field(
        default=None, metadata=option("failed executions (default: figures/_scratch/failed/)")
    )
    kernel: str = field(default="python3", metadata=option())
    timeout: int | None = field(default=None, metadata=option("per-cell timeout in seconds"))
    fail_fast: bool = field(default=False, metadata=option("stop at the first failing notebook"))
    list_only: bool = field(
        default=False, metadata=option("print the notebooks and their parameters, run nothing", flag="--list")
    )
    summary: bool = field(default=True, metadata=option("leave out where the outputs are", flag="--no-summary"))


@dataclass
class MainOptions(CommonOptions):
    """scripts/reproduce.py: the main command's steps."""

    skip_notebooks: bool = field(default=False, metadata=option("the build and the sample check only"))
    html: bool = field(default=True, metadata=option("no HTML report (figures/<label>/html/)", flag="--no-html"))

    def run_options(self, in_place: bool) -> RunOptions:
        """Return the notebook step's options: these parameters, workers and HTML choice, no closing summary."""
        return RunOptions(
            params=self.params, jobs=self.jobs, debug=self.debug, in_place=in_place, html=self.html, summary=False
        )


def _argparse_type(hint: Any) -> tuple[Any, bool]:
    """Return (the argparse `type` of a field's annotation, whether it is a list)."""
    args = [a for a in typing.get_args(hint) if a is not type(None)] if isinstance(hint, types.UnionType) else [hint]
    inner = args[0]
    if typing.get_origin(inner) is list:
        return typing.get_args(inner)[0], True
    return inner, False


def add_option(ap: argparse.ArgumentParser | Any, f: dataclasses.Field, hint: Any) -> None:
    """Add one dataclass field to a parser as --<field-name> (or its `flag`): a bool default False is a
    switch that sets it, default True one that clears it; other types are converted by their type."""
    meta = dict(f.metadata)
    flag = meta.pop("flag", "--" + f.name.replace("_", "-"))
    meta.pop("group", None)
    kwargs = {"dest": f.name, "default": f.default, **{k: v for k, v in meta.items() if v is not None}}
    if hint is bool:
        ap.add_argument(flag, action="store_false" if f.default else "store_true", **kwargs)
        return
    kind, is_list = _argparse_type(hint)
    ap.add_argument(flag, type=kind, **({"nargs": "+"} if is_list else {}), **kwargs)


def parser(options: type, description: str | None) -> argparse.ArgumentParser:
    """Return the argparse parser of an options dataclass: one option per field, the fields of one
    `group` mutually exclusive, in field order (a subclass's own fields after the shared ones)."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    hints = typing.get_type_hints(options)
    groups: dict[str, Any] = {}
    for f in dataclasses.fields(options):
        group = f.metadata.get("group")
        if group and group not in groups:
            groups[group] = ap.add_mutually_exclusive_group()
        add_option(groups[group] if group else ap, f, hints[f.name])
    return ap


def parse(options: type, argv: list[str] | None, description: str | None = None) -> Any:
    """Return an instance of the options dataclass `options` from a command line (argparse's usage
    error, exit status 2, for a bad one)."""
    return options(**vars(parser(options, description).parse_args(argv)))
