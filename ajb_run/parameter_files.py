"""Parameter files (papermill_params/*.yaml) checked against the notebooks' `parameters` cells before any
kernel starts: the names a notebook declares, one notebook's parameters from a file, and the check
that stops a typo'd name or an unknown judge/generator/condition value with one line.

A file's top-level scalars and its `default:` block apply to every notebook; a block keyed by a
notebook's stem (`03_main_results:`) or number (`03:`, which YAML reads as the int 3) to that one.
The names a cell declares are read with `ast`: papermill's `inspect_notebook` (a regex) misses an
annotated parameter such as `revision: str | None = None`, so it is only the fallback for a cell
that does not parse.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ajb_run.errors import require_parameter_file
from ajb_utils.parameters import (
    DEFAULT_PARAMETERS,
    LOCATION_PARAMETERS,
    ParameterError,
    assigned_names,
    check_names,
    unknown_names_message,
    value_problems,
)


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


def shared_params(spec: Mapping[str, Any]) -> dict[str, Any]:
    """Return what a parameter file gives every notebook: its top-level scalars < its `default:` block."""
    return {
        **{k: v for k, v in spec.items() if k != "default" and not is_notebook_key(k)},
        **(spec.get("default") or {}),
    }


def params_for(spec: Mapping[str, Any], stem: str) -> dict[str, Any]:
    """Return one notebook's parameters from a parameter file: top-level scalars < `default:` < number < stem."""
    merged = shared_params(spec)
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
    shared = set(shared_params(spec))
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
