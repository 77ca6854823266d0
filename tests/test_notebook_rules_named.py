"""A notebook's prose names the missing-verdict rule its code uses: a markdown cell that says the
notebook reads missing verdicts by one rule (`missing="X"`) is true only when X is the package's
default (`stats.PAPER_MISSING`, what every function uses unless told) or the notebook's code passes
`missing="X"`. A cell that defines the rules side by side (it names all three) is a concept, not a
claim about this notebook."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ajb_utils import stats

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("[0-9][0-9]_*.ipynb"))
RULES = ("authors", "exclude", "miss")
NAMED = re.compile(r'missing=`?"(\w+)"')


def false_rule_claims(cells: list[dict]) -> list[str]:
    """Return the rules a notebook's markdown says it uses that are neither the default nor passed by its code."""
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    passed = set(re.findall(r'missing\s*=\s*"(\w+)"', code))
    out = []
    for cell in (c for c in cells if c["cell_type"] == "markdown"):
        text = "".join(cell["source"])
        if all(f'"{r}"' in text for r in RULES):
            continue  # the three rules defined side by side
        out += [r for r in NAMED.findall(text) if r != stats.PAPER_MISSING and r not in passed]
    return out


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem[:2] for p in NOTEBOOKS])
def test_a_notebook_names_the_missing_rule_it_uses(path: Path) -> None:
    assert false_rule_claims(json.loads(path.read_text())["cells"]) == []


def test_the_rule_finds_a_stale_claim_and_spares_a_definition() -> None:
    def md(text: str) -> dict:
        return {"cell_type": "markdown", "source": [text]}

    uses_default = {"cell_type": "code", "source": ["stats.align(v)"]}
    passes = {"cell_type": "code", "source": ['stats.align(v, missing="exclude")']}
    claim = md('Null verdicts are excluded (`missing="exclude"`).')
    assert false_rule_claims([claim, uses_default]) == ["exclude"]
    assert false_rule_claims([claim, passes]) == []
    assert false_rule_claims([md(f'missing="{stats.PAPER_MISSING}" is the default'), uses_default]) == []
    concept = md('With `missing="exclude"` n counts the verdicts; with `"authors"` and `"miss"` a null scores 0.')
    assert false_rule_claims([concept, uses_default]) == []
