"""The paper's artifact map (shared ARTIFACTS.md as data): which notebook writes which file.

`resources/artifacts.csv` has one row per artifact ID with columns
`artifact_id, paper_artifact, origin, notebook, output_files, note`. `output_files` lists the
file names (no folder) the notebook writes under `figures/<data label>/`, separated by "; ".
A notebook may be named by its stem (`03_main_results`) or just its number (`03`), so the
map survives a renamed notebook as long as the number stays.
"""

from __future__ import annotations

import re

import pandas as pd

from ajb_utils import paths

ARTIFACTS_CSV = paths.RESOURCES_DIR / "artifacts.csv"
ORIGINS: tuple[str, ...] = ("HF", "RUN", "PAPER", "TEXT", "-")
COLUMNS: list[str] = ["artifact_id", "paper_artifact", "origin", "notebook", "output_files", "note"]


def artifact_table() -> pd.DataFrame:
    """Return the artifact map, one row per artifact ID, in the CSV's (paper-section) order."""
    df = pd.read_csv(ARTIFACTS_CSV, dtype=str, keep_default_na=False)
    return df[COLUMNS]


def split_files(cell: str) -> list[str]:
    """Return the file names of one `output_files` cell ("a.csv; a.tex" -> ["a.csv", "a.tex"])."""
    return [f.strip() for f in cell.split(";") if f.strip()]


def notebook_number(notebook: str) -> str:
    """Return the two-digit number of a notebook name, stem or file name ("03_x.ipynb" -> "03")."""
    m = re.match(r"^(\d{2})", notebook.rsplit("/", 1)[-1])
    if not m:
        raise ValueError(f"notebook name {notebook!r} does not start with a two-digit number")
    return m.group(1)


def artifacts_for(notebook: str) -> pd.DataFrame:
    """Return the rows of the artifact map owned by one notebook (matched by its number)."""
    df = artifact_table()
    num = notebook_number(notebook)
    return df[df["notebook"].str[:2] == num].reset_index(drop=True)


def expected_outputs(notebook: str, label: str) -> list[str]:
    """Return the repo-relative files one notebook must write for a data label, sorted."""
    files = [f for cell in artifacts_for(notebook)["output_files"] for f in split_files(cell)]
    return sorted(f"figures/{label}/{f}" for f in files)


def all_expected_outputs(label: str) -> list[str]:
    """Return the repo-relative files the whole notebook run must write for a data label."""
    files = [f for cell in artifact_table()["output_files"] for f in split_files(cell)]
    return sorted(f"figures/{label}/{f}" for f in files)


ORIGIN_LEGEND: dict[str, str] = {
    "HF": "computable from the released dataset",
    "RUN": "needs judge runs beyond the release (the sample simulates them; real data uses data/runs/)",
    "PAPER": "only the paper's reported values exist (shown, with the workflow to make new ones)",
    "TEXT": "descriptive table without data",
    "-": "teaching material, no paper counterpart",
}


def notebook_map() -> pd.DataFrame:
    """Return one row per notebook (number order): notebook, artifact IDs, origins, number of files."""
    df = artifact_table()
    rows = []
    for nb, g in df.groupby("notebook", sort=True):
        n_files = sum(len(split_files(c)) for c in g["output_files"])
        origins = ", ".join(dict.fromkeys(g["origin"]))
        rows.append({"notebook": nb, "artifacts": ", ".join(g["artifact_id"]), "origins": origins,
                     "files": n_files})
    return pd.DataFrame(rows, columns=["notebook", "artifacts", "origins", "files"])


def _md_cell(text: str) -> str:
    """Return text safe inside a Markdown table cell (pipes escaped)."""
    return text.replace("|", "\\|")


def artifact_markdown(label: str, files_root: str | None = None) -> str:
    """Return the artifact map as a Markdown table linking notebooks and their expected output files.

    Links are relative to notebooks/: notebooks as `NN_x.ipynb`, files under `files_root`
    (default `../figures/<label>`).
    """
    root = files_root if files_root is not None else f"../figures/{label}"
    lines = ["| ID | Paper artifact | Origin | Notebook | Output files |", "|---|---|---|---|---|"]
    for r in artifact_table().itertuples():
        files = " ".join(f"[{f}]({root}/{f})" for f in split_files(r.output_files)) or f"— {r.note}"
        nb = f"[{r.notebook}]({r.notebook}.ipynb)"
        lines.append(f"| {r.artifact_id} | {_md_cell(r.paper_artifact)} | {r.origin} | {nb} | {files} |")
    return "\n".join(lines)


def origin_markdown() -> str:
    """Return the origin legend (HF, RUN, PAPER, TEXT, -) as a Markdown bullet list."""
    return "\n".join(f"- **{k}**: {v}" for k, v in ORIGIN_LEGEND.items())
