#!/usr/bin/env python
"""Time loading and scoring on the full-scale synthetic sample (the real grid's size).

    python benchmarks/bench_load_score.py [--source data/sample_full] [--engine json|datasets]

Makes the full-scale sample first if it is missing (python -m ajb_utils.sample --scale full,
about 1.5 minutes, 1.1 GB, git-ignored). Prints load time, scoring time for every generation
(the vectorised scorer, then the per-plan reference scorer for comparison), and the process's
peak memory, against the targets of the foundation issue: load <= 30 s, scoring <= 10 s,
peak memory <= 4 GB.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from ajb_utils.data import load_bench  # noqa: E402
from ajb_utils.scoring import programmatic_scores, score_frame  # noqa: E402

TARGETS = {"load_s": 30.0, "score_s": 10.0, "peak_gb": 4.0}


def ensure_full_sample(path: Path) -> None:
    """Generate the full-scale sample at `path` when it does not exist yet."""
    if (path / "README.md").exists():
        return
    print(f"generating the full-scale sample into {path} ...", flush=True)
    subprocess.run(
        [sys.executable, "-m", "ajb_utils.sample", "--scale", "full", "--out", str(path)], check=True, cwd=REPO
    )


def peak_gb() -> float:
    """Return this process's peak resident memory in GB (Linux ru_maxrss is in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2


def main() -> int:
    """Run the benchmark and print the results table; return 0 if every target is met."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", default=str(REPO / "data" / "sample_full"))
    ap.add_argument("--engine", default="json", choices=["json", "datasets"])
    ap.add_argument(
        "--reference-rows", type=int, default=5000, help="plans scored by the per-plan reference scorer, for comparison"
    )
    args = ap.parse_args()
    source = Path(args.source)
    ensure_full_sample(source)

    t0 = time.perf_counter()
    bench = load_bench(source, engine=args.engine, runs=None)
    load_s = time.perf_counter() - t0  # includes scoring once, inside load_bench
    n_gen, n_ver = len(bench.generations), len(bench.verdicts)

    expected = bench.records.set_index("id")["expected_calls"]
    gens = bench.generations[["id", "generator", "difficulty", "generated_calls"]]
    t0 = time.perf_counter()
    score_frame(gens, expected)
    score_s = time.perf_counter() - t0

    sub = gens.head(args.reference_rows)
    t0 = time.perf_counter()
    for g, i in zip(sub["generated_calls"], sub["id"].astype(str)):
        programmatic_scores(g, expected[i])
    ref_s = (time.perf_counter() - t0) * n_gen / max(len(sub), 1)

    rows = [
        ("load (engine=%s, all configs, incl. scoring)" % args.engine, load_s, "s", TARGETS["load_s"]),
        (f"score {n_gen:,} generations (vectorised)", score_s, "s", TARGETS["score_s"]),
        (f"score {n_gen:,} generations (per-plan reference, extrapolated)", ref_s, "s", None),
        ("peak memory", peak_gb(), "GB", TARGETS["peak_gb"]),
    ]
    print(
        f"\nfull-scale sample: {len(bench.records):,} records, {n_gen:,} generations, "
        f"{n_ver:,} verdict rows, {len(bench.exclusions):,} exclusions"
    )
    print(f"{'measure':<62} {'value':>9}  {'target':>8}  result")
    ok = True
    for name, value, unit, target in rows:
        verdict = "" if target is None else ("PASS" if value <= target else "FAIL")
        ok &= verdict != "FAIL"
        tgt = "" if target is None else f"<= {target:g}"
        print(f"{name:<62} {value:>7.2f} {unit:<2} {tgt:>8}  {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
