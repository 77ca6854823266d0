#!/usr/bin/env python
"""Time the main command (scripts/reproduce.py) as a user runs it, beside what it is judged against.

    python benchmarks/bench_main_job.py --scale small [--repeat 1] [--plain-pool]
    python benchmarks/bench_main_job.py --scale full --code . /path/to/another/checkout [--sample DIR]

For each checkout in `--code` (default: this one) the main command runs with that checkout's
scripts and library, cold (an empty cache folder, $AJB_CACHE_DIR) and then warm (the same folder
again; `--warm-only` times the build alone instead of the cold command). `--plain-pool` also
times the floor the runner is held to, warm: the main command without its HTML report
(`--no-html`); the same notebooks with the same parameters executed by
`papermill.execute_notebook` in a pool of two processes, nothing else (no build, no sample check,
no HTML); and that pool with each notebook's HTML page written by nbconvert's lab template, as a
user of a plain pool would render a report (`jupyter nbconvert --to html`). The last lines give
the ratios: the main command to the pool, without HTML to the pool, with HTML to the pool with
HTML. Each line: wall and CPU seconds (the command and every process it waited for), the peak
resident memory summed over the process tree (sampled from /proc every 0.2 s), the exit status,
the 1-minute load average before and after. Ratios are only meaningful within one run. At full
scale each checkout's data/sample_full is `--sample` (a symlink made when missing; the sample is
made when `--sample` is missing, about 1.5 minutes).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PARAMS = {"small": "papermill_params/sample.yaml", "full": "papermill_params/full.yaml"}
SOURCES = {"small": "sample", "full": "data/sample_full"}  # the parameter files' data_source
BUILD = "import sys; from ajb_utils.data import build_bench; print(build_bench(sys.argv[1]))"
PLAIN_POOL = """
import concurrent.futures, pathlib, sys, tempfile, papermill, yaml
repo, params_file, html = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3] == "html"
spec = yaml.safe_load(params_file.read_text()) or {}
out = pathlib.Path(tempfile.mkdtemp())
def one(nb):
    params = {k: v for k, v in spec.items() if not isinstance(v, dict)}
    for block in ("default", nb.stem, nb.stem[:2]):
        params.update(spec.get(block) or {})
    declared = papermill.inspect_notebook(str(nb))
    papermill.execute_notebook(str(nb), str(out / nb.name), cwd=str(repo / "notebooks"), progress_bar=False,
                               parameters={k: v for k, v in params.items() if k in declared})
    if html:
        from nbconvert import HTMLExporter
        body, _ = HTMLExporter(template_name="lab").from_filename(str(out / nb.name))
        (out / (nb.stem + ".html")).write_text(body, encoding="utf-8")
books = sorted((repo / "notebooks").glob("[0-9][0-9]_*.ipynb"))
with concurrent.futures.ProcessPoolExecutor(2) as pool:
    list(pool.map(one, books[:-1]))
one(books[-1])  # the scorecard reads what the others wrote
"""


def _tree(root: int) -> list[int]:
    """Return the pids of a process and its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def _rss_kib(pid: int) -> int:
    """Return a process's resident set in KiB (0 when it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)


def timed(cmd: list[str], env: dict[str, str], cwd: Path) -> dict[str, float]:
    """Return wall s, CPU s, peak tree GiB and exit status of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        """Record the largest summed resident set of the tree until the command ends."""
        while not done.wait(0.2):
            peak[0] = max(peak[0], sum(map(_rss_kib, _tree(proc.pid))))

    threading.Thread(target=sample, daemon=True).start()
    out, _ = proc.communicate()
    done.set()
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        print(out[-2000:], file=sys.stderr)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "peak_gib": peak[0] / 1024**2, "status": proc.returncode}


def report(what: str, cmd: list[str], code: Path, cache: Path) -> dict[str, float]:
    """Time one command with `code` on PYTHONPATH and `cache` as the cache folder; print the line."""
    env = {**os.environ, "AJB_CACHE_DIR": str(cache), "PYTHONPATH": str(code)}
    la0 = os.getloadavg()[0]
    res = timed(cmd, env, code)
    print(
        f"{what:<44} {res['wall']:7.1f} s  cpu {res['cpu']:7.1f} s  peak {res['peak_gib']:5.2f} GiB  "
        f"status {res['status']}  load {la0:4.1f} -> {os.getloadavg()[0]:4.1f}",
        flush=True,
    )
    return res


def ratio(what: str, a: dict[str, float], b: dict[str, float]) -> None:
    """Print the wall and CPU ratio of two timed lines."""
    print(f"  {what:<58} {a['wall'] / b['wall']:5.2f}x wall  {a['cpu'] / b['cpu']:5.2f}x cpu", flush=True)


def time_checkout(code: Path, scale: str, plain_pool: bool, warm_only: bool) -> None:
    """Time one checkout's main command cold (or, `warm_only`, the build alone) and warm and, if
    asked, beside the plain pools."""
    cache = Path(tempfile.mkdtemp(prefix="ajb_bench_cache_"))
    try:
        main_cmd = [sys.executable, str(code / "scripts" / "reproduce.py"), "--params", PARAMS[scale]]
        if warm_only:
            report(f"build_bench only, cold ({code.name})", [sys.executable, "-c", BUILD, SOURCES[scale]], code, cache)
        else:
            report(f"main command, cold ({code.name})", main_cmd, code, cache)
        warm = report(f"main command, warm ({code.name})", main_cmd, code, cache)
        if not plain_pool:
            return
        bare = report(f"main command --no-html, warm ({code.name})", [*main_cmd, "--no-html"], code, cache)
        pool_cmd = [sys.executable, "-c", PLAIN_POOL, str(code), str(code / PARAMS[scale])]
        pool = report(f"plain papermill pool, warm ({code.name})", [*pool_cmd, "-"], code, cache)
        pages = report(f"plain pool + nbconvert pages, warm ({code.name})", [*pool_cmd, "html"], code, cache)
        ratio("main command / plain pool", warm, pool)
        ratio("main command --no-html / plain pool", bare, pool)
        ratio("main command / plain pool + nbconvert pages", warm, pages)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def main() -> None:
    """Time the main command of each checkout (cold, warm) and, if asked, the plain pools."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", choices=sorted(PARAMS), default="small")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--code", type=Path, nargs="+", default=[REPO], help="checkouts whose main command to time")
    ap.add_argument("--plain-pool", action="store_true", help="also time the plain papermill pools (2 workers)")
    ap.add_argument("--sample", type=Path, default=REPO / "data" / "sample_full", help="the full-scale sample")
    ap.add_argument("--warm-only", action="store_true", help="the build alone instead of a cold main command")
    args = ap.parse_args()
    if args.scale == "full" and not (args.sample / "README.md").exists():
        subprocess.run([sys.executable, "-m", "ajb_sample", "--scale", "full", "--out", str(args.sample)], check=True)
    print(f"{os.cpu_count()} cores; scale {args.scale}; {args.repeat} run(s) each")
    for _ in range(args.repeat):
        for code in (c.resolve() for c in args.code):
            linked = code / "data" / "sample_full"
            if args.scale == "full" and not linked.exists():
                linked.symlink_to(args.sample.resolve())
            time_checkout(code, args.scale, args.plain_pool, args.warm_only)


if __name__ == "__main__":
    main()
