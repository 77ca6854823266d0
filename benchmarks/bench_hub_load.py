#!/usr/bin/env python
"""Time the first (cold) and a second (warm) `load_bench("hf")` through the loopback hub stand-in.

    python benchmarks/bench_hub_load.py                          # data/sample served as the repo
    python benchmarks/bench_hub_load.py --folder data/sample_full   # the full-scale sample

The folder is served as ServiceNow-AI/AgentJudgeBench by tests/hub_standin.py on 127.0.0.1;
`huggingface_hub` and `datasets` are pointed at it with HF_ENDPOINT, every cache in a fresh
temporary folder. The first load downloads every file over loopback (no network latency or
bandwidth limit) and converts it to the `datasets` Arrow cache, so it measures the client side
of a first hub load: the part a faster network cannot shorten. Prints both times, the bytes
served and the peak memory.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from hub_standin import HubStandIn, commit_sha, hub_env  # noqa: E402


def main() -> int:
    """Serve the folder, load it twice through the hub clients, print the timings."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folder", type=Path, default=REPO / "data" / "sample")
    ap.add_argument("--runs", action="store_true", help="also load data/runs (default: none)")
    args = ap.parse_args()
    sha = commit_sha("bench")
    with (
        tempfile.TemporaryDirectory(prefix="ajb_hub_bench_") as tmp,
        HubStandIn("ServiceNow-AI/AgentJudgeBench", {sha: args.folder.resolve()}, {"main": sha}) as hub,
    ):
        os.environ.update(hub_env(hub.endpoint, Path(tmp)))  # before the clients are imported
        from ajb_utils.data import load_bench

        start, cpu = time.perf_counter(), time.process_time()  # CPU: steadier on a shared host
        bench = load_bench("hf", runs="auto" if args.runs else None)
        cold, cold_cpu = time.perf_counter() - start, time.process_time() - cpu
        served = hub.bytes_served
        start, cpu = time.perf_counter(), time.process_time()
        load_bench("hf", runs="auto" if args.runs else None)
        warm, warm_cpu = time.perf_counter() - start, time.process_time() - cpu
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
        print(
            f"folder {args.folder}: {served / 1e6:.1f} MB served over loopback, "
            f"{len(bench.verdicts):,} verdict rows, revision {bench.revision}"
        )
        print(
            f"first load (download + Arrow conversion + build): {cold:.1f} s "
            f"({cold_cpu:.1f} s CPU, this process, server thread included)"
        )
        print(f"second load (caches warm, revision re-resolved): {warm:.1f} s ({warm_cpu:.1f} s CPU)")
        print(f"peak memory: {peak:.2f} GB; {len(hub.requests)} requests, {len(hub.unhandled)} unhandled")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
