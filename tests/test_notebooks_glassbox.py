"""Glass box (DESIGN.md): each listed notebook shows its central quantity in the open and asserts
that the library gives the same number.

A notebook passes when it has cells tagged ``glass-box`` in their metadata: a markdown cell with
the equation (LaTeX), and code cells that are executed with outputs (committed notebooks), with
no error, no function definitions, at least one ``assert`` in a cell nbval checks (not tagged to
be skipped or to have its output ignored), and a printed ``by hand: ... | library: ...`` line, or
``by hand: ... | table: ...`` where the table is computed in the notebook's own cells (issue 35).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from ajb_utils.paths import REPO_ROOT

TAG = "glass-box"
NOTEBOOKS: list[str] = [
    "01_dataset_statistics",
    "02_programmatic_judge",
    "03_main_results",
    "04_rq1_metrics_topology",
    "05_rq2_agreement",
    "06_rq3_default_score",
    "07_rq4_temperature",
    "08_rq5_thinking",
    "09_rq6_prompt_format",
    "10_anchoring",
    "11_human_validation",
    "12_rewrite_validation",
    "13_self_preference",
    "14_decision_guide",
    "15_new_judge",
    "16_derivation_gap",
    "17_judge_simulator",
]
UNCHECKED_TAGS = {"nbval-skip", "nbval-ignore-output", "raises-exception", "skip-execution"}


def _source(cell: dict[str, Any]) -> str:
    """Return a cell's source as one string."""
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _text_outputs(cell: dict[str, Any]) -> str:
    """Return a code cell's stream and text/plain outputs joined."""
    parts = []
    for o in cell.get("outputs", []):
        t = o.get("text") or o.get("data", {}).get("text/plain", "")
        parts.append("".join(t) if isinstance(t, list) else t)
    return "".join(parts)


def glass_box_problems(nb: dict[str, Any]) -> list[str]:
    """Return what a notebook's glass-box cells lack (an empty list: the notebook passes)."""
    cells = [c for c in nb.get("cells", []) if TAG in c.get("metadata", {}).get("tags", [])]
    if not cells:
        return [f"no cell tagged {TAG!r}"]
    problems = []
    md = [c for c in cells if c["cell_type"] == "markdown"]
    code = [c for c in cells if c["cell_type"] == "code"]
    if not any("$" in _source(c) for c in md):
        problems.append("no glass-box markdown cell with an equation ($...$)")
    checked_assert = False
    for c in code:
        tree = ast.parse(_source(c))
        nodes = list(ast.walk(tree))
        if any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef) for n in nodes):
            problems.append(f"cell {c.get('id')}: defines a function")
        if not c.get("outputs") and c.get("execution_count") is None:
            problems.append(f"cell {c.get('id')}: not executed")
        if any(o.get("output_type") == "error" for o in c.get("outputs", [])):
            problems.append(f"cell {c.get('id')}: error output")
        tags = set(c.get("metadata", {}).get("tags", []))
        if any(isinstance(n, ast.Assert) for n in nodes) and not tags & UNCHECKED_TAGS:
            out = _text_outputs(c)
            if "by hand" in out and ("library" in out or "table:" in out):
                checked_assert = True
    if not checked_assert:
        problems.append("no checked glass-box cell with an assert that prints 'by hand ... library' (or '... table:')")
    return problems


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_has_glass_box(name: str) -> None:
    """The notebook shows its central quantity by hand and asserts the library agrees."""
    path = REPO_ROOT / "notebooks" / f"{name}.ipynb"
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    assert glass_box_problems(nb) == []


def _cell(kind: str, source: str, tags: list[str], outputs: list[dict] | None = None) -> dict[str, Any]:
    """Return a minimal notebook cell."""
    c = {"cell_type": kind, "id": f"c{len(source)}", "metadata": {"tags": tags}, "source": source}
    if kind == "code":
        c.update(execution_count=1, outputs=outputs or [])
    return c


_PRINTED = [{"output_type": "stream", "name": "stdout", "text": "x: by hand: 1.00 | library: 1.00\n"}]
_GOOD = [
    _cell("markdown", "$\\mu = 1 - |p - \\ell|$", [TAG]),
    _cell("code", "x = 1.0\nprint(f'x: by hand: {x:.2f} | library: {x:.2f}')\nassert x == 1.0", [TAG], _PRINTED),
]


def test_checker_accepts_a_complete_glass_box() -> None:
    assert glass_box_problems({"cells": _GOOD}) == []


@pytest.mark.parametrize(
    "cells, expected",
    [
        ([_cell("code", "x = 1", [])], "no cell tagged"),
        ([_GOOD[1]], "equation"),
        ([_GOOD[0], _cell("code", "x = 1.0\nprint('by hand | library')", [TAG], _PRINTED)], "assert"),
        ([_GOOD[0], _cell("code", _source(_GOOD[1]), [TAG, "nbval-ignore-output"], _PRINTED)], "assert"),
        ([_GOOD[0], _cell("code", "assert True", [TAG], [{"output_type": "stream", "text": "ok\n"}])], "by hand"),
        ([*_GOOD, _cell("code", "f = lambda x: x", [TAG], _PRINTED)], "defines a function"),
        (
            [*_GOOD, _cell("code", "1 / 0", [TAG], [{"output_type": "error", "ename": "ZeroDivisionError"}])],
            "error output",
        ),
    ],
    ids=["untagged", "no-equation", "no-assert", "ignored-output", "no-by-hand-line", "lambda", "error"],
)
def test_checker_reports_what_is_missing(cells: list[dict], expected: str) -> None:
    problems = glass_box_problems({"cells": cells})
    assert any(expected in p for p in problems), problems
