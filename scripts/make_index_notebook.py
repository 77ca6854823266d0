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
judges. One notebook per paper section, in paper order (arXiv v1 numbering); the logic lives in
`ajb_utils`.

**Inputs.** `ajb_utils/resources/artifacts.csv` (the artifact map); no data. **Outputs.** None.
Below: a reading path, a glossary, the notebooks, and the files each writes under
`figures/<data label>/` (`sample`, `hf`, or a local mirror's folder name), each named by its
artifact ID; the links work once the notebooks have run for that label."""

PARAMETERS = """\
data_source: str = "sample"  # "sample", "hf", or a path to a local mirror of the hub repo
out_dir: str | None = None  # where the other notebooks write; default figures/<data label>/"""

SETUP = """\
import os

from IPython.display import Markdown, display

from ajb_utils import environment, paths, provenance, report
from ajb_verify import artifacts

label = provenance.data_label(data_source)
files_root = f"../figures/{label}" if out_dir is None else os.path.relpath(
    provenance.output_dir(label, out_dir, provenance.run_parameters(globals())), paths.NOTEBOOKS_DIR)
print(f"data label: {label}; outputs linked under {files_root}/")"""

SWITCH = """\
## How to switch data source

Every notebook's first code cell (tagged `parameters`) holds its defaults (the synthetic sample,
offline). Change them there, or with papermill (parameter sets in `papermill_params/`):

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

# other settings get a folder of their own (figures/sample-p<hash>/), with a PROVENANCE.json
papermill notebooks/03_main_results.ipynb /tmp/03_quick.ipynb --cwd notebooks \\
    -p n_bootstrap 200 -p seed 7

# a new judge beside the paper's six (notebook 15): static judge, or any OpenAI-compatible endpoint
python scripts/run_notebooks.py --params papermill_params/new_judge_static.yaml --only 15
python scripts/run_notebooks.py --params papermill_params/new_judge_vllm.yaml --only 15
```

More in `notebooks/README.md`."""


READING_PATH = """\
## Where to start: a reading path

The concepts first, then the paper's order:

1. **The ideas, on judges whose behaviour is known.** [17_judge_simulator](17_judge_simulator.ipynb)
   simulates judges that hedge, are lenient or anchor: what alignment, agreement and kappa each
   reward, before real judges. Then
   [02_programmatic_judge](02_programmatic_judge.ipynb): the reference every judge is measured
   against (§3.2, Eqs. 1-5), worked by hand on real records (App. I).
2. **The data.** [01_dataset_statistics](01_dataset_statistics.ipynb): records, topologies, what
   was excluded and why (App. C, D).
3. **The paper's results** (§4.2). [03_main_results](03_main_results.ipynb) (Table 2, Findings 1-3,
   the without-GT ceiling), [04_rq1_metrics_topology](04_rq1_metrics_topology.ipynb) (RQ1),
   [05_rq2_agreement](05_rq2_agreement.ipynb) (RQ2), the ablations
   [06](06_rq3_default_score.ipynb) (RQ3, C2), [07](07_rq4_temperature.ipynb) (RQ4),
   [08](08_rq5_thinking.ipynb) (RQ5), [09](09_rq6_prompt_format.ipynb) (RQ6, A5), and
   [10_anchoring](10_anchoring.ipynb) (Finding 2, C3, App. H, J).
4. **How far to trust the reference and the rewrites.** [11_human_validation](11_human_validation.ipynb)
   (App. G), [12_rewrite_validation](12_rewrite_validation.ipynb) (App. N),
   [13_self_preference](13_self_preference.ipynb) (App. O).
5. **Choosing a judge.** [14_decision_guide](14_decision_guide.ipynb) (App. A).
6. **Beyond the paper.** [15_new_judge](15_new_judge.ipynb) (your judge beside the six, X2) and
   [16_derivation_gap](16_derivation_gap.ipynb) (the derivation gap and DeRef, X3, X4).
7. **The verdict, and the paper against itself.** [18_scorecard](18_scorecard.ipynb): every compared
   value and checked claim of the run, the X1 consistency audit of the paper's own tables and the
   census of its numbers, and a link to every file it wrote."""

SCORECARD_LINKS = """\
display(Markdown(
    "**The scorecard of this run:** [18_scorecard](18_scorecard.ipynb) (what reproduces, by paper section, "
    "and every output file) · " + " · ".join(f"[SCORECARD.{x}]({files_root}/SCORECARD.{x})"
                                           for x in ("md", "png", "pdf", "csv"))))"""

GLOSSARY = """\
## Glossary

- **programmatic score p** (§3.2, Eqs. 1-3): the deterministic reference score of a plan on one
  metric (tool selection, parameter structure, sequence, query coverage), in [0, 1]. **p̄** is its
  mean: a generator's programmatic accuracy (Table 11).
- **verdict ℓ**: an LLM judge's score of the same plan on the same metric, one of {0, 0.5, 1}.
- **alignment** (Eqs. 4-5a): μ = 1 − |p − ℓ| per metric, averaged over metrics and records, in %:
  a judge against the *reference*.
- **agreement** (RQ2, Table 3): the share of identical verdicts of *two judges*, whatever the
  reference says. Two judges can agree perfectly and both be wrong.
- **kappa** (Cohen's κ, Table 3): agreement corrected for chance agreement from the two judges'
  verdict frequencies; 0 is chance level, 1 perfect. Two judges that always answer 1.0 agree
  100 % while κ is undefined (0/0).
- **hedge**: a verdict of 0.5 given when unsure; against a p of 0 or 1 it scores exactly 0.5.
- **GT, with GT / without GT**: the ground-truth tool-call trace, shown to the judge or withheld
  (the two conditions of §3.2; prompts in App. W.2 and W.3).
- **lift** (GT lift, Eq. 5b): a judge's mean alignment with GT minus without GT. Negative lift:
  seeing the reference made the judge worse.
- **anchoring** (over-anchoring; Finding 2, App. H, C3): judging the plan by its resemblance to the
  GT trace rather than by its correctness, e.g. penalising an equivalent plan in another order.
- **ceiling**: the 77-82 % band that, the paper reports, hard without-GT alignment reaches whatever
  the judge (Finding 1, §4.2); read it beside always-1.0, which scores p̄ without looking at a plan.
- **reference judges** (no judgement, computed from the data): *always-1.0* (alignment
  1 − (1 − p) = p, so exactly **p̄**), *always-0.5*, *uniform random* over {0, 0.5, 1}, the
  *ternary oracle* (the verdict nearest p: the best any judge on that scale can do), and the
  *static schema-only judge* (the plan against the tool schemas, no model).
- **C2** (RQ3, Table 4): the without-GT prompt with a 0.5 default instead of the 1.0 default of
  the standard rubric. **C3** (Table 1, App. J): the corrupted-GT control, the reference replaced by
  the GT of another record of the same topology. **A5** (RQ6, App. X): the free-form prompt, no
  per-metric rubric.
- **W.2, W.3, W.4**: the appendix sections that print the with-GT, without-GT and Prometheus-2
  judge prompts (shipped as data files).
- **X1-X6**: the package's artifacts beyond the paper's numbering. X1 the consistency audit of the
  paper's own tables (notebook 18), X2 a new judge beside the six (15), X3 the derivation-path census
  and X3b its static-judge baseline (16), X4 the DeRef condition (16), X5 the judge simulator (17),
  X6 the reproduction scorecard (18). T, F, EQ and App. IDs are the paper's tables, figures,
  equations and appendices; C-F, C-W, C-J are checks of the findings, weightings and jury.
- **DeRef** and **"seed 004"**: "Judges Follow the Reference: The Derivation Gap in Verifying
  Tool-Call Arguments" (arXiv 2610.18497), the second paper drawn on (seed 004 after the file that
  holds its text). In its DeRef condition a separate model writes each argument's expected value
  and source for the judge.
- **missing-verdict rules** (`missing=`): what a record without a judge score counts as. `authors`
  follows the authors' analysis script (a condition with no verdict is dropped, a single null
  metric is a miss), the default of every table compared with the paper; `exclude` (the `stats`
  default) averages the metrics a record has; `miss` counts a null metric as a miss and, as App. D
  does, drops a record with no verdict. Notebook 03 shows which reproduces Table 2 best.
- **synthetic sample**: the simulated data in `data/sample/`, with the paper's qualitative patterns
  planted: a pattern found there shows the package detects it, not that the paper is right."""


CELLS: list[tuple[str, str, str, list[str]]] = [  # (id, kind, source, tags); ids stay put when cells are added
    ("00-00", "markdown", TITLE, []),
    ("00-01", "code", PARAMETERS, ["parameters"]),
    ("00-02", "code", SETUP, []),
    ("00-ca1", "markdown", READING_PATH, []),
    ("00-ca2", "code", SCORECARD_LINKS, []),
    ("00-ca3", "markdown", GLOSSARY, []),
    ("00-03", "markdown", "## Notebooks\n\nPaper order; `files` counts the output files each must write.", []),
    ("00-04", "code", "report.show(artifacts.notebook_map())", []),
    ("00-05", "markdown", "## Artifact map\n\nWhere each artifact's data comes from:", []),
    ("00-06", "code", "display(Markdown(artifacts.origin_markdown()))", []),
    ("00-07", "code", "display(Markdown(artifacts.artifact_markdown(label, files_root)))", []),
    (
        "00-ca4",
        "markdown",
        "The map lists the tables and figures of each artifact. The comparisons with the paper "
        "(`*_compare.csv`), the claim checks (`*_checks.csv`) and every other file of a run are linked, by "
        "notebook, at the end of [18_scorecard](18_scorecard.ipynb).",
        [],
    ),
    ("00-08", "markdown", SWITCH, []),
    ("00-09", "markdown", "## Environment", []),
    ("00-10", "code", "environment.environment_report()", ["nbval-ignore-output"]),
]


def build() -> nbformat.NotebookNode:
    """Return the index notebook (no outputs, fixed cell ids)."""
    cells = []
    for cid, kind, source, tags in CELLS:
        meta = {"tags": tags} if tags else {}
        cell = new_code_cell(source, metadata=meta) if kind == "code" else new_markdown_cell(source, metadata=meta)
        cell["id"] = cid
        cells.append(cell)
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
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
    from ajb_run.errors import run_main

    sys.exit(run_main(lambda argv: main()))
