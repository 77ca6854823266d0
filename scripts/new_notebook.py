#!/usr/bin/env python
"""Write a skeleton notebook that follows the package conventions (see notebooks/README.md).

    python scripts/new_notebook.py 03_main_results "Main results: judge alignment (Section 4.1)"

Cells: title with inputs/outputs (filled from the artifact map), the tagged `parameters` cell
(literals only, annotated, one comment each), a derived-values/setup cell (load_bench, banner,
output folder), a placeholder section, and the environment report. Refuses to overwrite.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import nbformat  # noqa: E402
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook  # noqa: E402

from ajb_run.errors import DEBUG_HELP, UserError, run_main  # noqa: E402
from ajb_utils import paths  # noqa: E402
from ajb_verify import artifacts  # noqa: E402

PARAMETERS_SOURCE = """\
data_source: str = "sample"  # "sample", "hf", or a path to a local mirror of the hub repo
revision: str | None = None  # hub commit or tag to pin
out_dir: str | None = None  # where tables/figures go; default figures/<data label>/
seed: int = 20260826  # every random step is seeded from this"""

SETUP_SOURCE = """\
from IPython.display import display

from ajb_utils import environment, figures, provenance, report, schema
from ajb_utils.data import load_bench

bench = load_bench(data_source, revision=revision)
params = provenance.run_parameters(globals())  # checked: a mistyped parameter stops here, before any file
out = provenance.output_dir(bench.label, out_dir, params)  # figures/<label>/ for the default parameters
provenance.write_provenance(bench, out, params)  # what made this folder: source, revision, parameters
figures.set_style()
display(provenance.bench_banner(bench))"""

ENV_SOURCE = "environment.environment_report()"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def outputs_markdown(stem: str) -> str:
    """Return a bullet list of the artifacts (and files) a notebook writes, from the artifact map."""
    rows = artifacts.artifacts_for(stem) if re.match(r"^\d{2}", stem) else None
    if rows is None or rows.empty:
        return "- (none listed in ajb_utils/resources/artifacts.csv yet)"
    lines = []
    for r in rows.itertuples():
        files = ", ".join(f"`{f}`" for f in artifacts.split_files(r.output_files)) or "no file"
        lines.append(f"- **{r.artifact_id}** {r.paper_artifact} ({r.origin}) → {files}")
    return "\n".join(lines)


def title_markdown(stem: str, title: str) -> str:
    """Return the title cell: heading, one-line purpose, inputs, outputs, how to run."""
    return (
        f"# {title}\n\n"
        "_One sentence on what this notebook reproduces and which paper section it follows._\n\n"
        "**Inputs.** The data source chosen in the parameters cell (default: the embedded synthetic "
        "sample, offline), read with `ajb_utils.data.load_bench`.\n\n"
        "**Outputs** (under `figures/<data label>/`, names start with the artifact ID):\n\n"
        f"{outputs_markdown(stem)}\n\n"
        "**Run with other data:** `python scripts/run_notebooks.py --params papermill_params/hf.yaml "
        f"--only {stem[:2]}` (see `notebooks/README.md`)."
    )


def skeleton(stem: str, title: str) -> nbformat.NotebookNode:
    """Return the skeleton notebook for a stem and title (nbformat v4, no outputs)."""
    params = new_code_cell(PARAMETERS_SOURCE, metadata={"tags": ["parameters"]})
    env = new_code_cell(ENV_SOURCE, metadata={"tags": ["nbval-ignore-output"]})
    cells = [
        new_markdown_cell(title_markdown(stem, title)),
        params,
        new_markdown_cell(
            "## Load the data\n\nThe data source named in the parameters cell, with a banner saying what it is. "
            "Tables and figures go to `out`: `figures/<data label>/` for the default parameters, a folder of "
            "their own for any other parameter set (PROVENANCE.json there records every parameter)."
        ),
        new_code_cell(SETUP_SOURCE),
        new_markdown_cell("## First result\n\n_One short paragraph: what the next table or figure shows._"),
        new_code_cell("# one call into ajb_utils, then report.write_table(...) or figures.save_fig(...)"),
        new_markdown_cell("## Environment"),
        env,
    ]
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = KERNELSPEC
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def cell_ids(nb: nbformat.NotebookNode, stem: str) -> nbformat.NotebookNode:
    """Return `nb` with deterministic cell ids (stem-index) so regenerating gives identical files."""
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"{stem[:2]}-{i:02d}"
    return nb


def main(argv: list[str] | None = None) -> int:
    """Write notebooks/<stem>.ipynb; return 0 (UserError, exit 2 by run_main, if it exists or the name is malformed)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stem", help="NN_topic, e.g. 03_main_results")
    ap.add_argument("title", help="notebook title (markdown heading)")
    ap.add_argument("--dir", type=Path, default=paths.NOTEBOOKS_DIR, help="target folder (default notebooks/)")
    ap.add_argument("--force", action="store_true", help="overwrite an existing notebook")
    ap.add_argument("--debug", action="store_true", help=DEBUG_HELP)
    args = ap.parse_args(argv)
    stem = args.stem.removesuffix(".ipynb")
    if not re.match(r"^\d{2}_[a-z0-9_]+$", stem):
        raise UserError(
            f"the notebook name must look like NN_topic (two digits, lower case), got {stem!r}; e.g. 19_my_topic"
        )
    target = args.dir / f"{stem}.ipynb"
    if target.exists() and not args.force:
        raise UserError(f"{paths.relpath(target)} exists; choose another name, or use --force to overwrite it")
    nb = cell_ids(skeleton(stem, args.title), stem)
    nbformat.validate(nb)
    args.dir.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target)
    print(f"wrote {paths.relpath(target)}")
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
