"""How the scripts report a user's error: one line saying what is wrong and what to do, exit status
2, no traceback (`--debug` shows it). Bugs are not user errors: they keep their traceback."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from ajb_utils import paths

EXIT_USER_ERROR: int = 2
DEBUG_FLAG: str = "--debug"
DEBUG_HELP: str = "on an error, show the traceback too (by default one line says what is wrong)"


class UserError(Exception):
    """A problem with what the user asked for (a file, a name, a source); the message is one line."""


def user_errors() -> tuple[type[BaseException], ...]:
    """Return the exception classes reported as one line: UserError, a parameter error and the
    package's data errors (BenchDataError, HubUnavailable and their kind)."""
    from ajb_utils.data.bench import BenchDataError
    from ajb_utils.parameters import ParameterError

    return (UserError, ParameterError, BenchDataError)


def one_line(exc: BaseException) -> str:
    """Return `error: <message>` on one line (extra lines of the message joined with ' / ')."""
    lines = [ln.strip() for ln in str(exc).strip().splitlines() if ln.strip()]
    return "error: " + (" / ".join(lines) if lines else type(exc).__name__)


DATA_HINT: str = (
    "a data source is 'sample', 'hf', a hub repo id, or a copy of the hub repo "
    "(README.md with its configs: header, data/*.jsonl; see docs/DATA_FORMAT.md)"
)


def with_hint(kind: str, message: str) -> str:
    """Return a data error's message with what a data source must be appended (other kinds, and a
    hub error, which says what to do already, unchanged)."""
    if kind in ("BenchDataError", "IncompleteDataError") and "DATA_FORMAT" not in message:
        return f"{message.rstrip('. ')}; {DATA_HINT}"
    return message


def run_main(main: Callable[[list[str]], int], argv: Sequence[str] | None = None) -> int:
    """Return main(argv)'s exit status, or 2 after printing one line for a user error (with its
    traceback first when argv holds --debug)."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return main(args)
    except user_errors() as exc:
        if DEBUG_FLAG in args:
            traceback.print_exc()
        print(with_hint(type(exc).__name__, one_line(exc)), file=sys.stderr, flush=True)
        return EXIT_USER_ERROR


def shipped_parameter_files() -> list[str]:
    """Return the parameter files shipped under papermill_params/, repo-relative and sorted."""
    return sorted(paths.relpath(p) for p in (paths.REPO_ROOT / "papermill_params").glob("*.yaml"))


def require_parameter_file(path: Path | str) -> Path:
    """Return `path` when it is a file; raise UserError naming the shipped parameter files otherwise."""
    p = Path(path)
    if p.is_file():
        return p
    what = "is a folder" if p.is_dir() else "does not exist"
    raise UserError(
        f"parameter file {path} {what}; the shipped ones are "
        f"{', '.join(shipped_parameter_files())} (copy one to make your own)"
    )
