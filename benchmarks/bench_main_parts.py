#!/usr/bin/env python
"""The main command's own work beside its notebooks, part by part, for one or several checkouts.

    python benchmarks/bench_main_parts.py --code . /path/to/another/checkout [--repeat 2]

What the main command does that a plain papermill pool does not, each as whole processes with the
checkout's code (CPU seconds from the kernel's accounting of the process and its children, so a
busy machine lengthens the wall time far more than the CPU time):
- `reproduce.py --skip-notebooks` on the sample, warm (a build in a fresh cache folder first):
  the parameter check, the probe, the sample remade by its generator, the build step's report;
- the 19 HTML pages of the committed notebooks, rendered as that checkout's runner renders them:
  by its own process with one exporter when it has `render_pages`, else in two worker processes,
  one exporter per page (the code before);
- `scorecard.print_summary` of figures/sample/ (the command's last lines).
The notebooks themselves are the same work in every checkout and are left out.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PAGES = """
import concurrent.futures, sys, tempfile
from pathlib import Path
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/scripts"]
import run_notebooks as rn
books = rn.list_notebooks(Path(sys.argv[1]) / "notebooks")
out = Path(tempfile.mkdtemp())
if hasattr(rn, "render_pages"):
    rn.render_pages([(rn.Task(nb, nb, {}, out, out), rn.Result(nb.stem, True, 0.0)) for nb in books])
else:
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        list(pool.map(rn.render_html, books, [out] * len(books)))
"""
SUMMARY = """
import io, contextlib, sys
from ajb_verify import scorecard
with contextlib.redirect_stdout(io.StringIO()):
    scorecard.print_summary(sys.argv[1] + "/figures/sample", write=False)
"""


def timed(cmd: list[str], code: Path, cache: Path) -> tuple[float, float, int]:
    """Return (wall s, CPU s of the process and its children, exit status) of one command."""
    env = {**os.environ, "AJB_CACHE_DIR": str(cache), "PYTHONPATH": str(code)}
    before, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    proc = subprocess.run(cmd, cwd=code, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        print(proc.stdout[-1500:] + proc.stderr[-1500:], file=sys.stderr)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return time.perf_counter() - t0, cpu, proc.returncode


def main() -> None:
    """Time each part for each checkout, alternating checkouts within each repeat."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--code", type=Path, nargs="+", default=[REPO])
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    caches = {code: Path(tempfile.mkdtemp(prefix="ajb_parts_")) for code in args.code}
    py = sys.executable
    for code, cache in caches.items():
        timed([py, "-c", "from ajb_utils.data import build_bench; build_bench('sample')"], code.resolve(), cache)
    parts = {
        "reproduce.py --skip-notebooks, warm": lambda c: [py, str(c / "scripts" / "reproduce.py"), "--skip-notebooks"],
        "the 19 HTML pages": lambda c: [py, "-c", PAGES, str(c)],
        "scorecard summary": lambda c: [py, "-c", SUMMARY, str(c)],
    }
    try:
        for _ in range(args.repeat):
            for what, cmd in parts.items():
                for code in (c.resolve() for c in args.code):
                    la0 = os.getloadavg()[0]
                    wall, cpu, status = timed(cmd(code), code, caches[code])
                    print(
                        f"{what:<38} {code.name:<10} {wall:6.1f} s  cpu {cpu:6.1f} s  status {status}  "
                        f"load {la0:4.1f} -> {os.getloadavg()[0]:4.1f}",
                        flush=True,
                    )
    finally:
        for cache in caches.values():
            shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
