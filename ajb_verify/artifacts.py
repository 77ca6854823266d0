"""The paper's artifact map (shared ARTIFACTS.md as data): which notebook writes which file.

`resources/artifacts.csv` has one row per artifact ID with columns
`artifact_id, paper_artifact, origin, notebook, output_files, note`. `output_files` lists the
file names (no folder) the notebook writes under `figures/<data label>/`, separated by "; ".
A notebook may be named by its stem (`03_main_results`) or just its number (`03`), so the
map survives a renamed notebook as long as the number stays.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from ajb_utils import paths

ARTIFACTS_CSV = Path(__file__).resolve().parent / "resources" / "artifacts.csv"
COLUMNS: list[str] = ["artifact_id", "paper_artifact", "origin", "notebook", "output_files", "note"]


def artifact_table() -> pd.DataFrame:
    """Return the artifact map, one row per artifact ID, in the CSV's (paper-section) order."""
    return pd.read_csv(ARTIFACTS_CSV, dtype=str, keep_default_na=False)[COLUMNS]


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


ORIGIN_LEGEND: dict[str, str] = {
    "HF": "computable from the released dataset",
    "RUN": "needs judge runs beyond the release (the sample simulates them; real data uses data/runs/)",
    "PAPER": "only the paper's reported values exist (shown, with the workflow to make new ones)",
    "TEXT": "descriptive table without data",
    "-": "the package's own (teaching material, the scorecard), no paper counterpart",
}


def notebook_map() -> pd.DataFrame:
    """Return one row per notebook (number order): notebook, artifact IDs, origins, number of files."""
    df = artifact_table()
    rows = []
    for nb, g in df.groupby("notebook", sort=True):
        n_files = sum(len(split_files(c)) for c in g["output_files"])
        origins = ", ".join(dict.fromkeys(g["origin"]))
        rows.append({"notebook": nb, "artifacts": ", ".join(g["artifact_id"]), "origins": origins, "files": n_files})
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
    header = ["| ID | Paper artifact | Origin | Notebook | Output files |", "|---|---|---|---|---|"]
    table = artifact_table()
    part = table["notebook"].str[:2].map(lambda n: next(name for name, last in MAP_PARTS if n <= last))
    blocks = []
    for name, _ in MAP_PARTS:  # one table per part of the paper, each short enough to read
        lines = [f"**{name}**", "", *header]
        for r in table[part == name].itertuples():
            files = " ".join(f"[{f}]({root}/{f})" for f in split_files(r.output_files)) or f"— {r.note}"
            nb = f"[{r.notebook}]({r.notebook}.ipynb)"
            lines.append(f"| {r.artifact_id} | {_md_cell(r.paper_artifact)} | {r.origin} | {nb} | {files} |")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


# the parts of the artifact map (name, last notebook number of the part)
MAP_PARTS: tuple[tuple[str, str], ...] = (
    ("The data and the programmatic judge (§3)", "02"),
    ("Main results and the research questions (§4)", "10"),
    ("Validation, self-preference, decision guide (appendices)", "14"),
    ("Beyond the paper", "99"),
)


def origin_markdown() -> str:
    """Return the origin legend (HF, RUN, PAPER, TEXT, -) as a Markdown bullet list."""
    return "\n".join(f"- **{k}**: {v}" for k, v in ORIGIN_LEGEND.items())


# files a notebook writes whose names do not start with an artifact ID: name prefix -> notebook
PREFIX_NOTEBOOKS: dict[str, str] = {"annotation_sheet_": "11_human_validation", "GAL_": "03_main_results"}


def notebook_of(artifact_id: str, table: pd.DataFrame | None = None) -> str:
    """Return the notebook that shows an artifact ('C-F1' -> C-F's, 'T01-T24lift' -> T01's, 'X3b' -> X3's), '' if
    unmapped; `table` is the artifact map when the caller has read it."""
    m = (artifact_table() if table is None else table).set_index("artifact_id")["notebook"]
    for key in (
        artifact_id,
        artifact_id.rstrip("0123456789"),
        artifact_id.split("-")[0],
        re.sub(r"[a-z]+$", "", artifact_id),
    ):  # 'X3b' (a variant of X3) -> X3
        if key in m.index:
            return str(m[key])
    return ""


def notebook_of_file(name: str, table: pd.DataFrame | None = None) -> str:
    """Return the notebook that writes an output file of a figures/<label>/ folder, by the map, then by
    its artifact-ID prefix ('T02_compare.csv' -> 03_main_results); '' for the folder's own files."""
    df = artifact_table() if table is None else table
    for r in df.itertuples():
        if name in split_files(r.output_files):
            return str(r.notebook)
    for prefix, nb in PREFIX_NOTEBOOKS.items():
        if name.startswith(prefix):
            return nb
    return notebook_of(name.split("_", 1)[0], df) if "_" in name else ""


def folder_files(out_dir: Path | str) -> pd.DataFrame:
    """Return every file of an output folder (top level, hidden files and the run's incomplete mark left out) by name: file, notebook."""
    names = sorted(
        p.name
        for p in Path(out_dir).iterdir()
        if p.is_file() and not p.name.startswith(".") and p.name != paths.INCOMPLETE_FILE
    )
    table = artifact_table()
    return pd.DataFrame(
        {"file": names, "notebook": [notebook_of_file(n, table) for n in names]}, columns=["file", "notebook"]
    )


def folder_markdown(out_dir: Path | str, files_root: str) -> str:
    """Return a Markdown table linking every file of an output folder, one row per notebook (number
    order, the folder's own files last); links are `files_root/<file>` (relative to notebooks/)."""
    files = folder_files(out_dir) if Path(out_dir).is_dir() else pd.DataFrame(columns=["file", "notebook"])
    lines = ["| notebook | files |", "|---|---|"]
    order = sorted(set(files["notebook"]) - {""}) + ([""] if (files["notebook"] == "").any() else [])
    for nb in order:
        links = " · ".join(f"[{_md_cell(f)}]({files_root}/{f})" for f in files.loc[files["notebook"] == nb, "file"])
        lines.append(f"| {f'[{nb}]({nb}.ipynb)' if nb else 'the folder itself'} | {links} |")
    return "\n".join(lines)
