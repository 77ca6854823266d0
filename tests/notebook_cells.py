"""Run a notebook's own cells in a test: the figures a notebook draws in its cells (issue 35) are
checked by executing those cells' source on a bench, with the names earlier cells defined."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg

from ajb_utils import figures, paper, report, schema, simulator, stats, tables
from ajb_utils import takeaways as tk
from ajb_utils.tables import ablations

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def _bare(code: str) -> str:
    """Return `code` without whitespace: a marker still finds its cell after the formatter wraps a line."""
    return re.sub(r"\s+", "", code)


def _cell(nn: str, marker: str) -> str:
    """Return the source of the one code cell of notebook `nn` that contains `marker` (whitespace aside)."""
    nb = json.loads(next(NOTEBOOKS.glob(f"{nn}_*.ipynb")).read_text())
    sources = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    (src,) = [s for s in sources if _bare(marker) in _bare(s)]
    return src


def notebook_figure(nn: str, markers: list[str], bench, **names):
    """Return (fig, axes) drawn by a notebook's cells (`markers` pick them, in order) on `bench`;
    `names` are what earlier cells defined. Files go to a throwaway folder."""
    ns = dict(bench=bench, np=np, pd=pd, plt=plt, figures=figures, tk=tk, seed=0, display=lambda *a: None)
    ns.update(schema=schema, stats=stats, tables=tables, ablations=ablations, simulator=simulator, paper=paper)
    ns.update(report=report, mpl=mpl, missing="authors", n_bootstrap=50)
    ns.update(names, out=Path(tempfile.mkdtemp()) / "sample")
    for m in markers:
        exec(_cell(nn, m), ns)  # noqa: S102 - the notebook's own code
    FigureCanvasAgg(ns["fig"])  # the cell closed its figure (plt.close): a canvas to draw it again
    return ns["fig"], ns.get("axes", ns.get("ax"))


def run_cells(nn: str, markers: list[str], **names) -> dict:
    """Return the namespace after executing a notebook's cells (`markers` pick them, in order) with
    `names` defined as earlier cells would (e.g. a hand-made `bench`)."""
    ns = dict(np=np, pd=pd, schema=schema, stats=stats, tables=tables, report=report, tk=tk, display=lambda *a: None)
    ns.update(names)
    for m in markers:
        exec(_cell(nn, m), ns)  # noqa: S102 - the notebook's own code
    return ns
