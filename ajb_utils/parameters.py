"""Notebook parameters: the names a notebook declares, and checks that stop an unknown name or value first.

The scripts check a parameter file before any kernel starts; in a kernel `check_namespace` reads the input history,
where papermill's injected cell follows the `parameters` cell.
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ajb_utils import paths, schema

# The first line of the cell papermill injects (its Python translator's comment).
INJECTED_HEADER: str = "# Parameters"
MISSING_RULES: tuple[str, ...] = ("exclude", "miss", "authors")  # ajb_utils.stats.frames.MISSING_RULES
BACKENDS: tuple[str, ...] = ("static", "openai")


# Every notebook parameter and its default (the notebooks' parameters cells declare the same
# defaults: tests/test_notebook_parameters.py checks it). The default values write figures/<label>/.
DEFAULT_PARAMETERS: dict[str, Any] = {
    "seed": 20260826,
    "n_bootstrap": 2000,
    "missing": "authors",
    "runs": "shipped",
    "anchoring_judge": "judge_gemini_2_5_pro",
    "anchoring_difficulty": "hard",
    "n_cases": 3,
    "annotation_sheet_path": None,
    "sheet_generator": "llama_3_3_70b_instruct",
    "backend": "static",
    "base_url": "http://localhost:8000/v1",
    "model": None,
    "api_key_env": None,
    "run_name": "static_schema_judge",
    "temperature": 0.0,
    "concurrency": 8,
    "conditions": ["with_gt", "without_gt"],
    "generators": None,
    "difficulties": None,
    "limit": None,
    "budget_tokens": None,
    "budget_usd": None,
    "run_names": ["synthetic_qwq_32b_thinking_off", "synthetic_qwq_32b_thinking_on"],
    "reference_judge": "judge_gpt_5_4",
    "price_in": 0.4,
    "price_out": 1.6,
    "x2_by_generator": False,
    "judges": None,
    "static_conditions": ["with_gt", "without_gt", "deref"],
    "sensitivity": 0.85,
    "blind_sensitivity": 0.30,
    "leniency": 0.15,
    "hedge_rate": 0.10,
    "anchoring": 0.10,
    "false_alarm": 0.03,
    "n_grid": 11,
}
# Parameters that say where data comes from or goes, or how fast a run goes: they never name a folder.
LOCATION_PARAMETERS: tuple[str, ...] = ("data_source", "revision", "out_dir", "concurrency")


class ParameterError(ValueError):
    """An unknown parameter name or value: a one-line message that lists the valid ones."""

    def _render_traceback_(self) -> list[str]:
        """Return the one line IPython shows for this error in a kernel: the message, not the frames."""
        return [f"{type(self).__name__}: {self}"]


def assigned_names(source: str) -> set[str]:
    """Return the top-level names a cell assigns (plain or annotated), empty if it does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names: set[str] = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def injected_from_history(history: Sequence[str]) -> tuple[set[str], set[str]] | None:
    """Return (declared, injected) names of a kernel's last papermill-injected cell and the cell before it."""
    cells = list(history)
    for i in range(len(cells) - 1, 0, -1):
        if str(cells[i]).lstrip().startswith(INJECTED_HEADER):
            return assigned_names(str(cells[i - 1])), assigned_names(str(cells[i]))
    return None


def _quoted(names: Iterable[str]) -> str:
    """Return names as 'a', 'b' (sorted)."""
    return ", ".join(repr(n) for n in sorted(names))


def _suggestions(unknown: Iterable[str], valid: Iterable[str]) -> str:
    """Return '; did you mean ...?' for the close matches of the unknown names ('' when none)."""
    valid = sorted(valid)
    pairs = [(u, m[0]) for u in sorted(unknown) if (m := difflib.get_close_matches(u, valid, n=1, cutoff=0.75))]
    return "; " + ", ".join(f"{u!r}: did you mean {m!r}?" for u, m in pairs) if pairs else ""


def unknown_names_message(unknown: Iterable[str], valid: Iterable[str], where: str) -> str:
    """Return the one-line message for parameter names `where` does not declare."""
    unknown, valid = sorted(unknown), sorted(valid)
    noun = "parameter" if len(unknown) == 1 else "parameters"
    return f"unknown {noun} {_quoted(unknown)} {where}{_suggestions(unknown, valid)}; valid names: {', '.join(valid)}"


def check_names(given: Iterable[str], declared: Iterable[str], notebook: str) -> None:
    """Raise ParameterError when `given` holds a name the notebook does not declare; returns None."""
    unknown = set(given) - set(declared)
    if unknown:
        raise ParameterError(unknown_names_message(unknown, declared, f"for {notebook}"))


def run_names() -> list[str]:
    """Return the names of the judge runs under data/runs/ (a run's name is a valid judge name)."""
    return sorted(p.name.removesuffix(".jsonl") for p in paths.RUNS_DIR.glob("*.jsonl"))  # [] without the folder


# The names a judge or generator parameter accepts: config names and their aliases.
JUDGE_NAMES: list[str] = [*schema.JUDGES, *schema.JUDGE_ALIASES]
GENERATOR_NAMES: list[str] = [*schema.GENERATORS, *schema.GENERATOR_ALIASES]
# parameter -> (valid values, whether it is a list); a None value always means "the default set".
CHOICES: dict[str, tuple[Any, bool]] = {
    "anchoring_judge": (lambda: JUDGE_NAMES, False),
    "reference_judge": (lambda: JUDGE_NAMES, False),
    "judges": (lambda: [*JUDGE_NAMES, *run_names()], True),
    "sheet_generator": (lambda: GENERATOR_NAMES, False),
    "generators": (lambda: GENERATOR_NAMES, True),
    "anchoring_difficulty": (lambda: schema.DIFFICULTIES, False),
    "difficulties": (lambda: schema.DIFFICULTIES, True),
    "conditions": (lambda: schema.CONDITIONS, True),
    "static_conditions": (lambda: schema.CONDITIONS, True),
    "missing": (lambda: MISSING_RULES, False),
    "backend": (lambda: BACKENDS, False),
}


def value_problems(params: Mapping[str, Any]) -> list[str]:
    """Return one line per parameter whose value names no known judge/generator/condition/rule."""
    problems = []
    for name, (valid_of, is_list) in CHOICES.items():
        value = params.get(name)
        if name not in params or value is None:
            continue
        values = list(value) if is_list and isinstance(value, (list, tuple)) else [value]
        if is_list and isinstance(value, str):
            problems.append(f"{name} must be a list (e.g. [{value!r}]), got {value!r}")
            continue
        valid = [str(v) for v in valid_of()]
        bad = [v for v in values if str(v) not in valid]
        if bad:
            problems.append(
                f"unknown {name} value {_quoted(map(str, bad))}{_suggestions(map(str, bad), valid)}; "
                f"valid: {', '.join(valid)}"
            )
    return problems


def check_values(params: Mapping[str, Any]) -> None:
    """Raise ParameterError (one line) when a parameter value names nothing known; returns None."""
    problems = value_problems(params)
    if problems:
        raise ParameterError(" | ".join(problems))


def check_namespace(namespace: Mapping[str, Any]) -> None:
    """Raise ParameterError for a name papermill injected undeclared, or an unknown value; returns None."""
    found = injected_from_history(namespace.get("In") or [])
    if found is not None:
        declared, injected = found
        check_names(injected, declared, "this notebook")
    check_values({k: namespace[k] for k in CHOICES if k in namespace})
