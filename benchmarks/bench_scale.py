#!/usr/bin/env python
"""How the cold load grows with the data: time and peak memory at 1x and k x the release, one run.

    python -m ajb_utils.sample --scale full                       # once: data/sample_full (1x)
    python benchmarks/make_scaled_sample.py --times 4             # once: data/sample_full_x4
    python benchmarks/bench_scale.py [--sources data/sample_full data/sample_full_x4] [--repeat 1]

Each load runs in a fresh process (`load_bench(source, cache=False)`), so its peak resident
memory (ru_maxrss of that process) is the load's own; the judge reader process it starts is
given beside it (its CPU is counted in the CPU seconds). Prints wall and CPU seconds, verdict rows,
peak memory, and the ratios of each source to the first: rows, time per row, peak. The 1-minute
load average is given with each line (compare ratios measured in one run).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
_CHILD = """
import json, os, resource, sys, tempfile, time
os.environ["AJB_CACHE_DIR"] = tempfile.mkdtemp(prefix="ajb_scale_")
from ajb_utils.data import load_bench
c, t = time.process_time(), time.perf_counter()
bench = load_bench(sys.argv[1], cache=False)
wall, cpu = time.perf_counter() - t, time.process_time() - c
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB -> GiB (Linux)
reader = resource.getrusage(resource.RUSAGE_CHILDREN)  # the judge reader process
cpu += reader.ru_utime + reader.ru_stime
print(json.dumps({"wall": wall, "cpu": cpu, "rows": len(bench.verdicts), "peak_gib": peak, "reader_gib": reader.ru_maxrss / 2**20}))
"""


def measure(source: Path) -> dict:
    """Return one cold load of `source` in a fresh process: wall, cpu, verdict rows, peak GiB."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    load = os.getloadavg()[0]
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(source)], env=env, capture_output=True, text=True, check=True
    )
    return {**json.loads(out.stdout.strip().splitlines()[-1]), "load": load, "source": str(source)}


def main() -> None:
    """Measure every source, then print the ratios to the first."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--sources", nargs="+", type=Path, default=[REPO / "data/sample_full", REPO / "data/sample_full_x4"]
    )
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    results = []
    for _ in range(args.repeat):
        for src in args.sources:
            r = measure(src)
            results.append(r)
            print(
                f"{src.name:<22} {r['rows']:>11,} verdict rows  {r['wall']:7.1f} s wall  {r['cpu']:7.1f} s cpu  "
                f"peak {r['peak_gib']:5.2f} GiB (reader process {r['reader_gib']:4.2f} GiB)  load {r['load']:.1f}",
                flush=True,
            )
    base = results[0]
    for r in results[1:]:
        k = r["rows"] / base["rows"]
        print(
            f"{Path(r['source']).name} / {Path(base['source']).name}: {k:.2f}x the rows, "
            f"{r['wall'] / base['wall'] / k:.2f}x the wall time per row ({r['cpu'] / base['cpu'] / k:.2f}x cpu), "
            f"{r['peak_gib'] / base['peak_gib']:.2f}x the peak ({r['reader_gib'] / base['reader_gib']:.2f}x the reader's)"
        )


if __name__ == "__main__":
    main()
