#!/usr/bin/env python
"""Time the main command (scripts/reproduce.py) on the small and the full-scale sample, cold and warm.

    python benchmarks/bench_main_job.py                       # both scales, cold then warm, 1 run each
    python benchmarks/bench_main_job.py --scale small --repeat 3 --jobs 2
    python benchmarks/bench_main_job.py --load-only --repeat 5   # just load_bench, cold / cached

Cold: an empty tidy-frame cache ($AJB_CACHE_DIR set to a fresh temporary folder), so every
notebook's first load reads the JSON lines; warm: the same command again over the cache the cold
run filled. Reports the wall time of the whole command, each notebook's time (from the runner's
report lines), and the peak memory: the largest resident set summed over the command's process
tree (sampled every 0.2 s from /proc), and the largest single process. `--load-only` times
`load_bench` of the full-scale sample in fresh processes instead (cold = cache=False; cached =
a warm cache), with each process's peak resident memory.

Targets (issue 20): main command on the full-scale sample, warm, <= 120 s; on the small sample
<= 45 s (issue 13: 240 s, 60 s); load cold <= 7 s, cached <= 1 s, peak <= 2 GB. The full-scale sample is made
if missing (python -m ajb_utils.sample --scale full, about 1.5 minutes, 1.1 GB, git-ignored).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FULL_DIR = REPO / "data" / "sample_full"
PARAMS = {"small": REPO / "papermill_params" / "sample.yaml", "full": REPO / "papermill_params" / "full.yaml"}
TARGETS = {"small": 45.0, "full": 120.0}  # issue 20 (issue 13: 60 s and 240 s)
LINE = re.compile(r"^(ok  |FAIL) (\d\d_\S+)\s+([\d.]+) s")
LOAD_SNIPPET = """
import resource, sys, time
from ajb_utils.data import load_bench
t = time.perf_counter()
bench = load_bench(sys.argv[1], runs=None, cache=sys.argv[2] == "cached")
seconds = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2
print(f"{seconds:.3f} {peak:.3f} {len(bench.verdicts)}")
"""


def ensure_full_sample() -> None:
    """Make the full-scale sample when it does not exist yet."""
    if not (FULL_DIR / "README.md").exists():
        print(f"making the full-scale sample in {FULL_DIR} ...", flush=True)
        subprocess.run([sys.executable, "-m", "ajb_utils.sample", "--scale", "full"], check=True, cwd=REPO)


def _children() -> dict[int, list[int]]:
    """Return {parent pid: [child pids]} from /proc."""
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(ppid, []).append(int(entry))
    return tree


def _rss_kb(pid: int) -> int:
    """Return a process's resident set in KiB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class TreeMemory(threading.Thread):
    """Sample the summed and the largest resident set of a process tree until stopped."""

    def __init__(self, root: int) -> None:
        super().__init__(daemon=True)
        self.root, self.peak_sum_kb, self.peak_one_kb = root, 0, 0
        self._halt = threading.Event()

    def run(self) -> None:
        """Sample every 0.2 s."""
        while not self._halt.is_set():
            tree, todo, pids = _children(), [self.root], []
            while todo:
                pid = todo.pop()
                pids.append(pid)
                todo.extend(tree.get(pid, []))
            sizes = [_rss_kb(p) for p in pids]
            self.peak_sum_kb = max(self.peak_sum_kb, sum(sizes))
            self.peak_one_kb = max(self.peak_one_kb, max(sizes, default=0))
            self._halt.wait(0.2)

    def stop(self) -> None:
        """Stop sampling."""
        self._halt.set()
        self.join()


def run_main(scale: str, cache_dir: Path, jobs: int | None) -> dict:
    """Return wall seconds, per-notebook seconds, peak memory and status of one main command."""
    cmd = [sys.executable, str(REPO / "scripts" / "reproduce.py"), "--params", str(PARAMS[scale])]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    env = {**os.environ, "AJB_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(REPO)}
    start = time.perf_counter()
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    mem = TreeMemory(proc.pid)
    mem.start()
    out, _ = proc.communicate()
    seconds = time.perf_counter() - start
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)  # the command and every process it waited for
    mem.stop()
    notebooks = {m.group(2): float(m.group(3)) for m in map(LINE.match, out.splitlines()) if m}
    failed = [m.group(2) for m in map(LINE.match, out.splitlines()) if m and m.group(1) == "FAIL"]
    if proc.returncode != 0:
        print(out[-3000:], file=sys.stderr)
    for line in out.splitlines():  # the work shared by notebooks 03, 10 and 16, done once before them
        if "(shared work" in line:
            print(f"  {line.strip()}", flush=True)
    return {
        "seconds": seconds,
        "cpu_seconds": (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime),
        "notebooks": notebooks,
        "failed": failed,
        "status": proc.returncode,
        "peak_tree_gb": mem.peak_sum_kb / 1024**2,
        "peak_process_gb": mem.peak_one_kb / 1024**2,
    }


def fill_cache(scale: str, cache_dir: Path) -> None:
    """Fill the tidy-frame cache with one load of the scale's source (no notebook runs)."""
    source = "sample" if scale == "small" else str(FULL_DIR)
    env = {**os.environ, "AJB_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(REPO)}
    subprocess.run(
        [sys.executable, "-c", "import sys; from ajb_utils.data import load_bench; load_bench(sys.argv[1])", source],
        env=env,
        check=True,
        cwd=REPO,
    )


def bench_main(scales: list[str], repeat: int, jobs: int | None, warm_only: bool = False) -> list[dict]:
    """Return one result row per (scale, cache state, repetition); warm_only: fill the cache by a load, then one warm run."""
    rows = []
    for scale in scales:
        for rep in range(repeat):
            cache_dir = Path(tempfile.mkdtemp(prefix="ajb_bench_cache_"))
            try:
                if warm_only:
                    fill_cache(scale, cache_dir)
                for state in ("warm",) if warm_only else ("cold", "warm"):
                    load0 = os.getloadavg()[0]
                    res = run_main(scale, cache_dir, jobs)
                    res["load_before"], res["load_after"] = load0, os.getloadavg()[0]
                    rows.append({"scale": scale, "cache": state, "run": rep + 1, **res})
                    print(
                        f"{scale:<5} {state:<4} run {rep + 1}: {res['seconds']:6.1f} s "
                        f"({res['cpu_seconds']:.1f} s CPU), peak "
                        f"{res['peak_tree_gb']:.2f} GB (tree) / {res['peak_process_gb']:.2f} GB "
                        f"(one process), status {res['status']}, load average {load0:.1f} -> "
                        f"{res['load_after']:.1f}",
                        flush=True,
                    )
            finally:
                shutil.rmtree(cache_dir, ignore_errors=True)
    return rows


def bench_load(repeat: int) -> list[dict]:
    """Return load_bench timings of the full-scale sample in fresh processes, cold and cached."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="ajb_bench_cache_") as cache_dir:
        env = {**os.environ, "AJB_CACHE_DIR": cache_dir, "PYTHONPATH": str(REPO)}
        subprocess.run(
            [sys.executable, "-c", LOAD_SNIPPET, str(FULL_DIR), "cached"], env=env, check=True, capture_output=True
        )  # fill the cache once
        for rep in range(repeat):
            for state in ("cold", "cached"):
                out = subprocess.run(
                    [sys.executable, "-c", LOAD_SNIPPET, str(FULL_DIR), state],
                    env=env,
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                seconds, peak, n = out.split()
                rows.append(
                    {
                        "state": state,
                        "run": rep + 1,
                        "seconds": float(seconds),
                        "peak_gb": float(peak),
                        "verdict_rows": int(n),
                    }
                )
                print(
                    f"load {state:<6} run {rep + 1}: {float(seconds):6.2f} s, peak "
                    f"{float(peak):.2f} GB, {int(n):,} verdict rows",
                    flush=True,
                )
    return rows


def summarise(rows: list[dict], keys: tuple[str, ...], value: str) -> dict[str, float]:
    """Return the median of `value` per combination of `keys`."""
    groups: dict[str, list[float]] = {}
    for r in rows:
        groups.setdefault(" ".join(str(r[k]) for k in keys), []).append(r[value])
    return {k: statistics.median(v) for k, v in groups.items()}


def main() -> int:
    """Run the benchmark, print medians against the targets; return 0 when all targets are met."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", choices=["small", "full", "both"], default="both")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None, help="notebook workers (default: one per core)")
    ap.add_argument("--load-only", action="store_true")
    ap.add_argument(
        "--warm-only",
        action="store_true",
        help="fill the cache with one load instead of a cold main command, then time one warm run",
    )
    ap.add_argument("--json", type=Path, help="also write every measurement to this JSON file")
    args = ap.parse_args()
    scales = ["small", "full"] if args.scale == "both" else [args.scale]
    if "full" in scales or args.load_only:
        ensure_full_sample()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    ok = True
    if args.load_only:
        rows = bench_load(args.repeat)
        print("\nmedians:")
        for k, v in summarise(rows, ("state",), "seconds").items():
            target = 7.0 if k == "cold" else 1.0
            ok &= v <= target
            print(f"  load {k:<6} {v:6.2f} s  (target <= {target:g} s)")
        peak = max(r["peak_gb"] for r in rows)
        ok &= peak <= 2.0
        print(f"  peak   {peak:6.2f} GB (target <= 2 GB)")
    else:
        rows = bench_main(scales, args.repeat, args.jobs, args.warm_only)
        print("\nmedians:")
        for k, v in summarise(rows, ("scale", "cache"), "seconds").items():
            scale, state = k.split()
            target = TARGETS[scale] if state == "warm" else None
            ok &= target is None or v <= target
            print(f"  {k:<10} {v:6.1f} s" + (f"  (target <= {target:g} s)" if target else ""))
        for k, v in summarise(rows, ("scale", "cache"), "peak_tree_gb").items():
            print(f"  {k:<10} peak {v:.2f} GB summed over the process tree")
        for scale in scales:
            warm = [r for r in rows if r["scale"] == scale and r["cache"] == "warm"]
            names = sorted({n for r in warm for n in r["notebooks"]})
            print(f"\n  per-notebook seconds, {scale}, warm (median of {len(warm)}):")
            for n in names:
                print(f"    {n:<32} {statistics.median(r['notebooks'][n] for r in warm if n in r['notebooks']):6.1f}")
        ok &= all(r["status"] == 0 for r in rows)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
