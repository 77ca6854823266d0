"""No direction, order or band word typed into a notebook's strings (issue 49).

A sentence about the data says which way a number goes, which judge leads, whether a row is inside
a band; those words are chosen by the vocabulary (`ajb_utils.takeaways`) from the numbers and their
CIs, never typed into a notebook's string where a branch that missed a case can print them false.
This test reads every string literal of notebooks 01-17's code cells (f-strings' text parts too)
and fails on such a word, except:
- a string given to a vocabulary call (`tk.change(..., up="more often than")`): the function picks it;
- the reader's prediction in an exercise (`guess = "below"`): the reader types it, `tk.check` judges it;
- the allowlist below: labels, plotting keywords and concept prose that no data can refute, each
  with its reason.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
WORDS = re.compile(
    r"\b(higher|lower|more often|less often|grows|shrinks|inside|outside|leads|lead|best|worst|beats|exceeds"
    r"|trails|above|below|raises|lowers|narrower|wider|steeper|shallower|saves nothing|rises|falls)\b",
    re.IGNORECASE,
)

# exact literal -> why it may hold a direction, order or band word
ALLOWED: dict[str, str] = {
    "outside lower center": "a matplotlib legend position",
    "lower": "a matplotlib keyword (triangle of a matrix / legend position)",
    "Pairwise agreement (\\%, upper) and Cohen's $\\kappa$ (lower)": "a figure title naming the triangles",
    "six judges: best": "a table column's name (what the column holds)",
    "six judges: worst": "a table column's name",
    "best": "a table column's name",
    "best (": "a table column's name",
    "best:": "a table column's name",
    "best: ": "a table column's name",
    "jury vs best": "a table column's name",
    "Decision guide: best judge per condition and difficulty": "a table caption (what it holds)",
    "the best judge, ": "a name (the judge with the highest alignment, picked by the code beside it)",
    "the best single judge (": "a name (picked by the code beside it)",
    "; the {0, 0.5, 1} oracle caps every judge below 100% wherever p is fractional": "arithmetic: no data refutes it",
    "mean over the generators (each generator's rows: T02_reference_judges.csv, below)": "'below' is the page",
    " (one seeded draw; the sweeps below vary one knob at a time)": "'below' is the page",
    ": mean(ℓ − p) ≤ mean|ℓ − p| always, equal only if the judge never scores below p.": "an inequality",
    ". A record on which all three agree has every pair agreeing, so a pair's unanimity is never lower.": "logic",
    "App. H's rule flags a with-GT verdict above p even when it is the nearest point of {0, 0.5, 1} to p: ": (
        "the rule's definition"
    ),
    "(c) Anchoring lowers with-GT alignment only": "a panel title of the simulator's built-in mechanism",
    " pp (never below 0)": "a definition (a maximum of absolute values)",
    "a mean of judges beats its best member when what differs between them cancels more than the weaker ones pull "
    "it down; here the best judge (": ("a condition (06): its instance is computed beside it"),
    "below": "a column name (03's count of judges below p-bar)",
    'Table 22\'s "all deltas positive" cannot fail: a record on which three raters agree has any two of them '
    "agreeing, so dropping a rater never lowers unanimity; it confirms nothing about GPT-5.4": "logic about the paper's table",
    "Table 6 (four open-weight generators) names a best judge per condition and difficulty from gaps of ": (
        "what the paper's table does"
    ),
    "P(rank 1) from a paired bootstrap says how often each judge would come first on resampled records; where the "
    'leader stays below 0.95 the guide says "indistinguishable from" the other plausible winners instead of naming a '
    "best": "the guide's rule (a definition)",
    " have a distinguishable best judge": "a count's definition (the guide's rule); the count is computed",
    ": the static judge beats ": "a count's definition (llm_judges_beaten); the count is computed",
    " pp from the best)": "names the maximum (static minus the top LLM judge, computed)",
    "% against the best LLM judge's ": "names the maximum (computed)",
}


def _is_tk(f: ast.AST | None) -> bool:
    """Return True for a call's function `tk.<name>` (the vocabulary)."""
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "tk"


def literals(source: str) -> list[tuple[int, str, bool]]:
    """Return (line, text, given_to_vocabulary) for every string constant of a cell's code."""
    tree = ast.parse(source)
    given: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(
            _is_tk(getattr(x, "func", None)) for x in [node.left, *node.comparators]
        ):
            given.update(id(n) for n in [node.left, *node.comparators])  # a vocabulary word compared with its result
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "guess" for t in node.targets):
            given.update(id(n) for n in ast.walk(node.value))
        if isinstance(node, ast.Call):
            f = node.func
            if _is_tk(f):
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        given.add(id(arg))
    return [
        (n.lineno, n.value, id(n) in given)
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def typed_words(nb: dict) -> list[str]:
    """Return 'cell N line L: [word] literal' for each direction/order/band word typed into a string."""
    out = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        src = "".join(cell["source"])
        try:
            found = literals(src)
        except SyntaxError:  # a cell magic: not Python
            continue
        for line, text, given in found:
            if given or text in ALLOWED:
                continue
            for m in WORDS.finditer(text):
                out.append(f"cell {i} line {line}: [{m.group(0)}] {text[:100]!r}")
    return out


def test_the_scan_finds_a_typed_word() -> None:
    """The issue's kind of sentence is found; a word given to the vocabulary is not."""
    cell = {"cell_type": "code", "source": "print(f\"the excess {'grows' if up else 'does not grow'} ({x})\")"}
    assert typed_words({"cells": [cell]}) == ["cell 0 line 1: [grows] 'grows'"]
    given = {"cell_type": "code", "source": 'print(tk.change(x, up="more often than", down="less often than"))'}
    assert typed_words({"cells": [given]}) == []
    label = {"cell_type": "code", "source": 'ax.legend(loc="outside lower center")'}
    assert typed_words({"cells": [label]}) == []


def test_no_notebook_types_a_direction_word() -> None:
    found = {
        p.name: typed_words(json.loads(p.read_text(encoding="utf-8")))
        for p in sorted(NOTEBOOKS.glob("[01][0-9]_*.ipynb"))
        if "00" < p.name[:2] < "18"
    }
    found = {k: v for k, v in found.items() if v}
    assert found == {}, "\n".join(f"{k}: {x}" for k, v in found.items() for x in v)


def test_every_allowed_literal_is_still_used() -> None:
    """An allowlist entry no notebook holds any more is removed, so the list stays the notebooks' own."""
    seen = set()
    for p in NOTEBOOKS.glob("[01][0-9]_*.ipynb"):
        for cell in json.loads(p.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                try:
                    seen.update(text for _, text, _ in literals("".join(cell["source"])))
                except SyntaxError:
                    continue
    assert set(ALLOWED) - seen == set()


# ---- the release's layout (no runs/, no annotations/): what cannot be computed is one line ---------
# Every notebook is executed on the release's layout by the release rehearsal, and its printed lines are
# checked there (test_release_rehearsal, printed_sentences.bad_lines); this checks that check on the
# issue's lines.


def test_the_printed_check_finds_the_issues_lines() -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from printed_sentences import bad_lines

    lines = [
        "0 runs; hard: structured nan - free-form nan = +nan pp",
        "0 (record, metric) annotations; overall agreement: by hand: nan | library: nan",
        "Not this time: you predicted 0.26, the data give nan. ...",
    ]
    cells = [{"cell_type": "code", "outputs": [{"output_type": "stream", "text": "\n".join(lines)}]}]
    shown = {"output_type": "display_data", "data": {"text/plain": "Empty DataFrame\nColumns: [a]\nIndex: []"}}
    cells.append({"cell_type": "code", "outputs": [shown]})
    assert len(bad_lines({"cells": cells})) == 4
