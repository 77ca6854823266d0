#!/usr/bin/env python
"""Write notebooks/00_index.ipynb (the artifact map) without outputs; execute it afterwards with

    python scripts/make_index_notebook.py
    python scripts/run_notebooks.py --only 00 --in-place

The artifact map itself is data (ajb_utils/resources/artifacts.csv); edit that, not the notebook.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import nbformat  # noqa: E402
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook  # noqa: E402

from ajb_utils import paths  # noqa: E402

TITLE = """\
# AgentJudgeBench reproduction — index

This package regenerates every table and figure of *AgentJudgeBench* (arXiv 2608.26623) from the
released data, shows each beside the paper's reported value, and reruns the protocol with new
judges. One notebook per paper section, numbered in paper order; the logic lives in `ajb_utils`.

**Inputs.** `ajb_utils/resources/artifacts.csv` (the artifact map). No data is loaded here.

**Outputs.** None. The table below lists the files each notebook writes under
`figures/<data label>/` (`sample`, `hf`, or a local mirror's folder name); every file name starts
with its artifact ID. Links to output files work once the notebook has been run for that label."""

PARAMETERS = '''\
data_source: str = "sample"  # "sample", "hf", or a path to a local mirror of the hub repo
out_dir: str | None = None  # where the other notebooks write; default figures/<data label>/'''

SETUP = '''\
import os

from IPython.display import Markdown, display

from ajb_utils import artifacts, environment, paths, provenance, report

label = provenance.data_label(data_source)
files_root = f"../figures/{label}" if out_dir is None else os.path.relpath(
    provenance.output_dir(label, out_dir), paths.NOTEBOOKS_DIR)
print(f"data label: {label}; outputs linked under {files_root}/")'''

SWITCH = """\
## How to switch data source

Every notebook's first code cell (tagged `parameters`) holds its defaults: the embedded synthetic
sample, offline. Change them by editing that cell, or from the command line with papermill
(parameter sets live in `papermill_params/`):

```bash
# everything on the synthetic sample (the default; refreshes the committed outputs)
python scripts/run_notebooks.py --params papermill_params/sample.yaml --in-place

# everything on the released data from the Hugging Face hub -> figures/hf/, plus HTML
python scripts/run_notebooks.py --params papermill_params/hf.yaml --html

# one notebook, pinned to a hub revision, with papermill directly
papermill notebooks/03_main_results.ipynb /tmp/03_hf.ipynb --cwd notebooks \\
    -p data_source hf -p revision 13ac79a

# a local mirror of the hub repo (outputs go to figures/<folder name>/)
papermill notebooks/03_main_results.ipynb /tmp/03_local.ipynb --cwd notebooks \\
    -p data_source /data/AgentJudgeBench

# other settings never overwrite the committed outputs: they get a folder of their own,
# figures/sample-p<hash of the changed parameters>/ here, figures/sample-<file name>/ with a
# run_notebooks.py parameter file; PROVENANCE.json there lists every parameter
papermill notebooks/03_main_results.ipynb /tmp/03_quick.ipynb --cwd notebooks \\
    -p n_bootstrap 200 -p seed 7

# a new judge beside the paper's six (notebook 15): static judge, or any OpenAI-compatible endpoint
python scripts/run_notebooks.py --params papermill_params/new_judge_static.yaml --only 15
python scripts/run_notebooks.py --params papermill_params/new_judge_vllm.yaml --only 15
```

`run_notebooks.py` passes each notebook only the parameters it declares and never leaves a
half-written notebook behind; see `notebooks/README.md`."""


def build() -> nbformat.NotebookNode:
    """Return the index notebook (no outputs, deterministic cell ids)."""
    cells = [
        new_markdown_cell(TITLE),
        new_code_cell(PARAMETERS, metadata={"tags": ["parameters"]}),
        new_code_cell(SETUP),
        new_markdown_cell("## Notebooks\n\nPaper order; `files` counts the output files each must write."),
        new_code_cell("report.show(artifacts.notebook_map())"),
        new_markdown_cell("## Artifact map\n\nWhere each artifact's data comes from:"),
        new_code_cell("display(Markdown(artifacts.origin_markdown()))"),
        new_code_cell("display(Markdown(artifacts.artifact_markdown(label, files_root)))"),
        new_markdown_cell(SWITCH),
        new_markdown_cell("## Environment"),
        new_code_cell("environment.environment_report()", metadata={"tags": ["nbval-ignore-output"]}),
    ]
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"00-{i:02d}"
    return nb


def main() -> int:
    """Write notebooks/00_index.ipynb; return 0."""
    import argparse
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()  # --help only
    nb = build()
    nbformat.validate(nb)
    target = paths.NOTEBOOKS_DIR / "00_index.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target)
    print(f"wrote {paths.relpath(target)}")
    return 0


if __name__ == "__main__":
    from ajb_utils.script_errors import run_main

    sys.exit(run_main(lambda argv: main()))
