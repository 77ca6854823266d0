#!/usr/bin/env python
"""Time every cell of one notebook: where a slow notebook spends its time.

    python benchmarks/bench_cells.py 03 --params papermill_params/full.yaml [--top 10]

The notebook runs once by papermill (its parameters from `--params`, resolved as the runner does;
the executed copy in a temporary folder), which records each cell's wall time (the runner scrubs
these from the notebooks it writes); the `--top` slowest cells are printed with the first line of
their source. Wall seconds of a kernel
on a shared machine: read them beside the load average printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from ajb_run import parameter_files

REPO = Path(__file__).resolve().parent.parent


def cell_times(executed: Path) -> list[tuple[float, int, str]]:
    """Return (seconds, cell index in the notebook's own file, first source line) of every code cell of
    an executed notebook (papermill's injected-parameters cell left out, so the indices are the file's)."""
    cells = json.loads(executed.read_text())["cells"]
    cells = [c for c in cells if "injected-parameters" not in c.get("metadata", {}).get("tags", [])]
    out = []
    for i, cell in enumerate(cells):
        seconds = (cell.get("metadata", {}).get("papermill", {}) or {}).get("duration")
        if cell["cell_type"] == "code" and seconds is not None:
            out.append((float(seconds), i, "".join(cell["source"]).strip().splitlines()[0][:90]))
    return out


def notebook_params(number: str, params_file: Path) -> tuple[Path, dict]:
    """Return notebook `number`'s path and the parameters a parameter file gives it (the runner's resolution)."""
    (notebook,) = (REPO / "notebooks").glob(f"{number}_*.ipynb")
    spec = parameter_files.load_parameter_file(REPO / params_file)
    params, _ = parameter_files.filter_params(
        parameter_files.params_for(spec, notebook.stem), parameter_files.declared_parameters(notebook)
    )
    return notebook, params


def main() -> None:
    """Run the notebook once and print its slowest cells."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("notebook", help="the notebook's number, e.g. 03")
    ap.add_argument("--params", type=Path, default=Path("papermill_params/full.yaml"))
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    import papermill  # here: bench_cell_memory.py imports this module and measures its own memory

    out = Path(tempfile.mkdtemp(prefix="ajb_cells_"))
    notebook, params = notebook_params(args.notebook, args.params)
    executed = out / notebook.name
    la0 = os.getloadavg()[0]
    papermill.execute_notebook(
        str(notebook), str(executed), cwd=str(notebook.parent), progress_bar=False, parameters=params
    )
    times = cell_times(executed)
    print(
        f"{executed.stem}: {sum(t for t, _, _ in times):.1f} s in {len(times)} code cells, load {la0:.1f} -> {os.getloadavg()[0]:.1f}"
    )
    for seconds, i, first in sorted(times, reverse=True)[: args.top]:
        print(f"  [{i:>3}] {seconds:7.1f} s  {first}")


if __name__ == "__main__":
    main()
