"""An afternoon (issue 49): the core path 00_index lists reads in <= 3 hours by the reading-rate rule of
benchmarks/notebook_reading.py, and 00 names every other notebook as a reference chapter."""

from __future__ import annotations

import importlib.util
import json

from ajb_utils.paths import NOTEBOOKS_DIR, REPO_ROOT


def reading():
    """Return benchmarks/notebook_reading.py as a module."""
    spec = importlib.util.spec_from_file_location("notebook_reading", REPO_ROOT / "benchmarks" / "notebook_reading.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_core_path_reads_in_an_afternoon_and_the_rest_are_reference_chapters() -> None:
    nr = reading()
    notebooks = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in NOTEBOOKS_DIR.glob("[0-9][0-9]_*.ipynb")}
    core = nr.core_path(notebooks["00_index"])
    assert len(core) >= 4 and set(core) <= notebooks.keys()
    hours = sum(nr.reading_minutes(nr.measure(notebooks[s])) for s in core) / 60
    assert hours <= nr.CORE_PATH_HOURS, f"core path {hours:.2f} h"
    text = "\n".join("".join(c["source"]) for c in notebooks["00_index"]["cells"] if c["cell_type"] == "markdown")
    chapters = text.split("## Reference chapters", 1)[1].split("\n## ", 1)[0]
    assert set(nr.LINK.findall(chapters)) == notebooks.keys() - set(core)
    assert f"{nr.WORDS_PER_MINUTE} words" in text  # 00 states the rule


def test_the_rule_on_a_hand_made_notebook() -> None:
    """300 words of markdown and 200 printed words are 5 minutes; a core path is read from its section."""
    nr = reading()
    md = {"cell_type": "markdown", "source": ["word " * 300]}
    code = {"cell_type": "code", "source": ["print()"], "outputs": [{"output_type": "stream", "text": ["w " * 200]}]}
    assert nr.reading_minutes(nr.measure({"cells": [md, code]})) == 5.0
    index = {
        "cells": [
            {
                "cell_type": "markdown",
                "source": [f"{nr.CORE_HEADING}\n[a](02_x.ipynb) [b](05_y.ipynb)\n## Next\n[c](07_z.ipynb)"],
            }
        ]
    }
    assert nr.core_path(index) == ["00_index", "02_x", "05_y"]
