"""Notebook parameters: the names a notebook declares, and checks that stop a typo'd name or an
unknown judge/generator/condition value before anything is written.

Two callers share these checks. The scripts (run_notebooks.py, reproduce.py) check a parameter
file against every notebook's `parameters` cell before launching any kernel. Inside a kernel,
`provenance.run_parameters(globals())` (every notebook's load cell) calls `check_namespace`: papermill
injects its `injected-parameters` cell right after the `parameters` cell, so the kernel's input
history (IPython's `In`) holds both, and a name papermill injected that the parameters cell does not
declare fails the notebook (papermill's own CLI only warns "Passed unknown parameter").
"""

from __future__ import annotations

import ast
import difflib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ajb_utils import paths, schema
from ajb_utils.script_errors import UserError, require_parameter_file

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


class ParameterError(UserError, ValueError):
    """An unknown parameter name or value; the message is one line and lists the valid ones."""


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


def parameters_cell_source(notebook: Path | str) -> str:
    """Return the source of a notebook's first cell tagged `parameters` ('' when there is none).

    Read as plain JSON: nbformat's schema validation of a notebook with outputs costs ~0.2 s, and
    the scripts read every notebook before launching."""
    nb = json.loads(Path(notebook).read_text(encoding="utf-8"))
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code" and "parameters" in cell.get("metadata", {}).get("tags", []):
            source = cell.get("source", "")
            return "".join(source) if isinstance(source, list) else source
    return ""


def declared_parameters(notebook: Path | str) -> set[str]:
    """Return the names a notebook's `parameters` cell declares: the top-level names it assigns (an
    AST reading, which also sees PEP 604 annotations such as `revision: str | None = None` that
    papermill's regex misses); papermill.inspect_notebook only when the cell does not parse."""
    source = parameters_cell_source(notebook)
    try:
        ast.parse(source)
    except SyntaxError:
        import papermill as pm

        return set(pm.inspect_notebook(str(notebook)).keys())
    return assigned_names(source)


def injected_from_history(history: Sequence[str]) -> tuple[set[str], set[str]] | None:
    """Return (declared, injected) names from a kernel's input history: the last cell papermill
    injected and the cell executed just before it (the `parameters` cell); None when none was injected."""
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
    return (
        sorted(p.name.removesuffix(".jsonl") for p in paths.RUNS_DIR.glob("*.jsonl")) if paths.RUNS_DIR.is_dir() else []
    )


def _judges() -> list[str]:
    return [*schema.JUDGES, *schema.JUDGE_ALIASES]


def _generators() -> list[str]:
    return [*schema.GENERATORS, *schema.GENERATOR_ALIASES]


# parameter -> (valid values, whether it is a list); a None value always means "the default set".
CHOICES: dict[str, tuple[Any, bool]] = {
    "anchoring_judge": (_judges, False),
    "judges": (lambda: [*_judges(), *run_names()], True),
    "sheet_generator": (_generators, False),
    "generators": (_generators, True),
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
    """Raise ParameterError when papermill injected a name the notebook's `parameters` cell does not
    declare, or a parameter names an unknown judge/generator/condition; returns None."""
    found = injected_from_history(namespace.get("In") or [])
    if found is not None:
        declared, injected = found
        check_names(injected, declared, "this notebook")
    check_values({k: namespace[k] for k in CHOICES if k in namespace})


# ---- parameter files (scripts/run_notebooks.py, scripts/reproduce.py) ---------------------------
# A file's top-level scalars and its `default:` block apply to every notebook; a block keyed by a
# notebook's stem (`03_main_results:`) or number (`03:`, which YAML reads as the int 3) to that one.


def load_parameter_file(path: Path | str) -> dict[str, Any]:
    """Return a parameter file's mapping; a UserError (one line) for a missing file, ParameterError for bad YAML."""
    import yaml

    try:
        data = yaml.safe_load(require_parameter_file(path).read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" (line {mark.line + 1})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or exc
        raise ParameterError(
            f"parameter file {path} is not valid YAML{at}: {problem}; compare papermill_params/sample.yaml"
        ) from None
    if not isinstance(data, dict):
        raise ParameterError(
            f"parameter file {path}: expected a mapping at the top level (name: value lines); "
            "compare papermill_params/sample.yaml"
        )
    return data


def is_notebook_key(key: Any) -> bool:
    """Return True when a parameter-file key names a notebook (two leading digits, or an int)."""
    return isinstance(key, int) or bool(re.match(r"^\d{2}", str(key)))


def block_matches(key: Any, stem: str) -> bool:
    """Return True when a parameter-file block key (`03`, 3 or `03_main_results`) names notebook `stem`."""
    return key in (stem[:2], int(stem[:2]), stem)


def params_for(spec: Mapping[str, Any], stem: str) -> dict[str, Any]:
    """Return one notebook's parameters from a parameter file: top-level scalars < `default:` < number < stem."""
    merged = {k: v for k, v in spec.items() if k != "default" and not is_notebook_key(k)}
    merged.update(spec.get("default") or {})
    for key in (stem[:2], int(stem[:2]), stem):
        if isinstance(spec.get(key), dict):
            merged.update(spec[key])
    return merged


def default_values(source: str) -> dict[str, Any]:
    """Return {name: literal default} for the assignments of a parameters cell whose value is a literal."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    out: dict[str, Any] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        if isinstance(target, ast.Name) and getattr(node, "value", None) is not None:
            try:
                out[target.id] = ast.literal_eval(node.value)
            except ValueError:
                continue
    return out


def drop_defaults(params: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """Return the parameters that differ from a notebook's own defaults (the same literal: 1 is not True)."""

    def same(k: str) -> bool:
        return k in defaults and type(defaults[k]) is type(params[k]) and defaults[k] == params[k]

    return {k: v for k, v in params.items() if not same(k)}


def filter_params(params: Mapping[str, Any], declared: Iterable[str]) -> tuple[dict[str, Any], list[str]]:
    """Return (the parameters a notebook declares, the sorted names it does not)."""
    declared = set(declared)
    return {k: v for k, v in params.items() if k in declared}, sorted(set(params) - declared)


def check_parameter_file(
    spec: Mapping[str, Any], notebooks: Sequence[Path], selected: Sequence[Path], where: str = "the parameters"
) -> None:
    """Raise ParameterError (one line, listing the valid names or values) for a parameter file that names
    what no notebook of `notebooks` declares: a shared name, a block naming no notebook, a name a block
    gives that its notebook does not declare, or an unknown judge/generator/condition value for one of
    the `selected` notebooks; returns None."""
    declared = {Path(nb).stem: declared_parameters(nb) for nb in notebooks}
    known = set().union(*declared.values(), LOCATION_PARAMETERS, DEFAULT_PARAMETERS)
    shared = {k for k in spec if k != "default" and not is_notebook_key(k)} | set(spec.get("default") or {})
    if shared - known:
        raise ParameterError(unknown_names_message(shared - known, known, f"in {where} (declared by no notebook)"))
    for key, block in spec.items():
        stems = [stem for stem in declared if block_matches(key, stem)] if is_notebook_key(key) else None
        if stems == []:
            raise ParameterError(
                f"block {key!r} in {where} names no notebook; valid: {', '.join(declared)} (or their numbers)"
            )
        if stems and not isinstance(block, dict):
            raise ParameterError(f"block {key!r} in {where} must map parameter names to values, got {block!r}")
        for stem in stems or []:
            check_names(block, declared[stem], f"{stem} in {where}")
    problems: list[str] = []
    for nb in selected:
        kept, _ = filter_params(params_for(spec, Path(nb).stem), declared[Path(nb).stem])
        problems += [p for p in (f"{q} (in {where})" for q in value_problems(kept)) if p not in problems]
    if problems:
        raise ParameterError(" | ".join(problems))
