#!/usr/bin/env python
"""Resident memory cell by cell: which cells of one notebook make its peak.

    python benchmarks/bench_cell_memory.py 03 --params papermill_params/full.yaml

The notebook's code cells run in this one process (no kernel: the figures drawn off screen, IPython's
`display` a no-op, `%` and `!` lines left out), its parameters from `--params` resolved as the runner
does and its outputs written to a temporary folder. After each cell it prints the CPU seconds, the
resident memory then and the highest resident memory during the cell (Linux: /proc/self/status
VmRSS and VmHWM, the high-water mark reset before each cell), in GiB. A kernel adds about 0.1 GiB.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from bench_cells import notebook_params

REPO = Path(__file__).resolve().parent.parent


def resident() -> tuple[float, float]:
    """Return this process's (resident, highest resident since the last reset) memory in GiB."""
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return tuple(int(status[k].split()[0]) / 2**20 for k in ("VmRSS", "VmHWM"))


def main() -> None:
    """Run the notebook's cells here and print each one's CPU, resident memory and peak."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("notebook", help="the notebook's number, e.g. 03")
    ap.add_argument("--params", type=Path, default=Path("papermill_params/full.yaml"))
    args = ap.parse_args()
    notebook, params = notebook_params(args.notebook, args.params)
    import matplotlib

    matplotlib.use("Agg")
    os.chdir(notebook.parent)
    sys.path.insert(0, str(REPO))
    space: dict = {"display": lambda *a, **k: None, "get_ipython": lambda: None}
    for i, cell in enumerate(json.loads(notebook.read_text())["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        lines = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
        Path("/proc/self/clear_refs").write_text("5")  # reset the high-water mark
        cpu = time.process_time()
        exec(compile(lines, f"{notebook.stem}[{i}]", "exec"), space)
        if "parameters" in cell.get("metadata", {}).get("tags", []):
            space.update(params, out_dir=tempfile.mkdtemp(prefix="ajb_memory_"))
        now, peak = resident()
        first = (source.strip().splitlines() or [""])[0][:70]
        print(
            f"[{i:2d}] {time.process_time() - cpu:6.1f} s CPU  {now:5.2f} GiB now  {peak:5.2f} GiB peak  {first}",
            flush=True,
        )


if __name__ == "__main__":
    main()
