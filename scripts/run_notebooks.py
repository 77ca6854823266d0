#!/usr/bin/env python
"""Execute notebooks/NN_*.ipynb with papermill, parameters from a YAML file.

    python scripts/run_notebooks.py --params papermill_params/sample.yaml --in-place # refresh committed outputs
    python scripts/run_notebooks.py --params papermill_params/hf.yaml --only 03 05 --html

The parameter file (top-level names and `default:` for every notebook, a block `03:` or
`03_main_results:` for one) is checked against every notebook's `parameters` cell before any kernel
starts, and a hub data source is probed once; each notebook gets only the parameters it declares.
Notebooks run on plain `python3` kernels (papermill, working directory notebooks/), `--jobs` at a time
(default 2), 18_scorecard after the others. A notebook is executed into a temporary folder and moved
into place only when it succeeded (failures kept in --failed-dir). Default parameters write
figures/<data label>/ (and --in-place refreshes the committed notebooks); any other set writes its own
folder and leaves the committed files alone. --html renders <output folder>/html/. Exit status 1 when
a notebook fails, 2 for a user error (one line).
"""

from __future__ import annotations

import concurrent.futures
import logging
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from ajb_run import options, pages, parameter_files  # noqa: E402
from ajb_run.errors import UserError, run_main, with_hint  # noqa: E402
from ajb_run.kernel import kernel_arguments, kernel_environment  # noqa: E402
from ajb_run.options import RunOptions  # noqa: E402
from ajb_run.parameter_files import default_values, drop_defaults, filter_params, params_for  # noqa: E402
from ajb_run.parameter_files import load_parameter_file as load_params  # noqa: E402
from ajb_utils import paths, provenance  # noqa: E402

NOTEBOOK_RE = re.compile(r"^(\d{2})_.+\.ipynb$")
# Errors about what the user asked for (the data source, a parameter): every notebook would fail the
# same way, so the run stops there with one line and exit status 2.
DATA_SOURCE_ERRORS = ("HubUnavailable", "BenchDataError", "IncompleteDataError", "ParameterError")
RUN_LAST: frozenset[str] = frozenset({"18_scorecard"})  # reads what the others write
SCRATCH_DIR = paths.FIGURES_DIR / "_scratch"
OFFLINE_COMMAND = (
    "python scripts/run_notebooks.py --params papermill_params/sample.yaml (the embedded synthetic sample)"
)
VOLATILE_NB_KEYS = ("input_path", "output_path", "start_time", "end_time", "duration")
STOPPED = "stopped before its end (or is still running)"  # the incomplete mark while a run writes
LINK_RE = re.compile(r'(?P<attr>\b(?:href|src)=)(?P<q>["\'])(?P<url>[^"\']*)(?P=q)')


def shown(path: Path | str) -> str:
    """Return a path as printed: relative to the repository inside it, whole outside it."""
    p = Path(path).resolve()
    return p.relative_to(REPO_ROOT).as_posix() if p.is_relative_to(REPO_ROOT) else str(p)


# ---- parameters --------------------------------------------------------------------------------
def list_notebooks(notebooks_dir: Path, only: list[str] | None = None) -> list[Path]:
    """Return the NN_*.ipynb notebooks of a folder in number order, restricted to `only` (numbers or stems)."""
    nbs = sorted(p for p in notebooks_dir.iterdir() if NOTEBOOK_RE.match(p.name))
    wanted = {o.removesuffix(".ipynb") for o in only or []}
    return [p for p in nbs if not wanted or p.stem in wanted or p.name[:2] in wanted]


def output_folder_of(params: dict[str, Any]) -> Path:
    """Return the folder a notebook run with `params` writes to (out_dir, else figures/<label>/)."""
    out = params.get("out_dir")
    if out:
        return Path(out) if Path(out).is_absolute() else REPO_ROOT / out
    return paths.FIGURES_DIR / provenance.data_label(str(params.get("data_source") or "sample"))


@dataclass
class Run:
    """One planned notebook: the parameters to inject, the names dropped, and every resolved value."""

    notebook: Path
    params: dict[str, Any]
    dropped: list[str]
    resolved: dict[str, Any]


def plan_runs(spec: dict[str, Any], notebooks: list[Path], params_file: Path | None) -> tuple[list[Run], str | None]:
    """Return ([Run per notebook], the out_dir forced on every notebook or None).

    All defaults (or a file that sets out_dir): no forced folder. A parameter set for every notebook
    differs from the defaults: every notebook writes to figures/<label>-<parameter file stem>/, so the
    committed outputs stay untouched. Only a block for one notebook differs (hf.yaml's run name of
    notebook 15): every notebook writes to figures/<label>/, except for the sample, whose folder is
    committed (then figures/sample-<stem>/ as above)."""
    plan = []
    for nb in notebooks:
        declared = parameter_files.declared_parameters(nb)
        params, dropped = filter_params(params_for(spec, nb.stem), declared)
        defaults = default_values(parameter_files.parameters_cell_source(nb))
        plan.append((nb, declared, params, dropped, defaults))
    resolved = [{**p[4], **p[2]} for p in plan]
    forced = None
    if not any(r.get("out_dir") for r in resolved) and any(provenance.nondefault_parameters(r) for r in resolved):
        stem = params_file.stem if params_file is not None else "params"
        label = provenance.data_label(str(resolved[0].get("data_source") or "sample"))
        shared = parameter_files.shared_params(spec)
        own = provenance.nondefault_parameters(shared) or label == provenance.data_label("sample")
        forced = shown(paths.FIGURES_DIR / provenance.output_folder_name(label, {"_": 1} if own else {}, stem))
    runs = []
    for (nb, declared, params, dropped, defaults), res in zip(plan, resolved):
        if forced and "out_dir" in declared:
            params, res = {**params, "out_dir": forced}, {**res, "out_dir": forced}
        runs.append(Run(nb, drop_defaults(params, defaults), dropped, res))
    return runs, forced


# ---- one notebook ------------------------------------------------------------------------------
@dataclass
class Result:
    """Outcome of one notebook: name, ok flag, wall seconds, error summary."""

    name: str
    ok: bool
    seconds: float
    error: str = ""


@dataclass
class Task:
    """One notebook to execute: where from, where to, with what, and where its HTML page goes."""

    notebook: Path
    dest: Path
    params: dict[str, Any]
    failed_dir: Path
    html_dir: Path | None = None
    kernel: str = "python3"
    timeout: int | None = None
    note: str = ""


def coalesce_streams(outputs: list[Any]) -> list[Any]:
    """Return cell outputs with consecutive stream outputs of the same name joined into one: how one
    print is split into messages depends on flush timing, which must not change the file."""
    out: list[Any] = []
    for o in outputs:
        prev = out[-1] if out else None
        if (
            prev is not None
            and o.get("output_type") == prev.get("output_type") == "stream"
            and o["name"] == prev["name"]
        ):
            prev["text"] = prev["text"] + o["text"]
        else:
            out.append(o)
    return out


def scrub_volatile(nb: Any) -> Any:
    """Return the executed notebook without timestamps, durations and temp paths, and with coalesced
    streams, so that executing it again gives the same bytes."""
    pm_meta = nb.metadata.get("papermill", {})
    for key in VOLATILE_NB_KEYS:
        pm_meta.pop(key, None)
    for cell in nb.cells:
        cell.metadata.pop("papermill", None)
        cell.metadata.pop("execution", None)
        if cell.get("cell_type") == "code" and cell.get("outputs"):
            cell["outputs"] = coalesce_streams(cell["outputs"])
        if "injected-parameters" in cell.metadata.get("tags", []):
            cell["id"] = "injected-parameters"
    return nb


def write_whole(dest: Path, data: bytes) -> None:
    """Write `data` beside `dest`, then rename it over `dest`: never a half-written file; returns None."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(f".{dest.name}.{os.getpid()}.partial")
    try:
        partial.write_bytes(data)
        os.replace(partial, dest)
    finally:
        partial.unlink(missing_ok=True)


def run_task(task: Task) -> Result:
    """Return the Result of executing one notebook into `task.dest` (untouched on failure; the executed
    copy of a failure kept in `task.failed_dir`); called from a thread of `run_tasks`, which renders its HTML page."""
    import nbformat
    import papermill as pm
    from traitlets.config import Config

    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ajb_nb_") as tmp:
        out, clean = Path(tmp) / task.notebook.name, nbformat.read(task.notebook, as_version=4)
        clean.cells = [c for c in clean.cells if "injected-parameters" not in c.metadata.get("tags", [])]
        try:
            pm.execute_notebook(
                clean,
                str(out),
                parameters=task.params,
                kernel_name=task.kernel,
                # the kernel's folder (papermill's cwd= would change this whole process's folder)
                resources={"metadata": {"path": str(task.notebook.parent)}},
                progress_bar=False,
                execution_timeout=task.timeout,
                config=Config(KernelManager={"transport": "ipc", "ip": str(Path(tmp) / "kernel")}),  # local sockets
                extra_arguments=kernel_arguments(),  # the kernel's own logs quiet (ajb_run.kernel)
            )
        except Exception as exc:  # papermill raises PapermillExecutionError, a dead kernel others
            if out.exists():
                task.failed_dir.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(out, task.failed_dir / task.notebook.name)
            lines = str(getattr(exc, "evalue", exc)).strip().splitlines()
            kind = getattr(exc, "ename", type(exc).__name__)
            return Result(
                task.notebook.stem, False, time.perf_counter() - start, f"{kind}: {lines[0] if lines else ''}"
            )
        text = nbformat.writes(scrub_volatile(nbformat.read(out, as_version=4)))
        write_whole(task.dest, (text if text.endswith("\n") else text + "\n").encode("utf-8"))  # as nbformat.write
    return Result(task.notebook.stem, True, time.perf_counter() - start)


# ---- HTML pages --------------------------------------------------------------------------------
def is_relative_link(url: str) -> bool:
    """Return True for a link that points into the repository (not a scheme, anchor, data or absolute URL)."""
    return bool(url) and not url.startswith(("#", "/", "data:")) and not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", url)


def rewrite_link(url: str, notebook_dir: Path, html_dir: Path) -> str:
    """Return a notebook-relative link rewritten for a page in `html_dir`: NN_*.ipynb -> NN_*.html, files relative."""
    if not is_relative_link(url):
        return url
    path, sep, frag = url.partition("#")
    target = (notebook_dir / path).resolve()
    if NOTEBOOK_RE.match(target.name) and target.parent == notebook_dir.resolve():
        return f"{target.stem}.html{sep}{frag}"
    return os.path.relpath(target, html_dir.resolve()).replace(os.sep, "/") + sep + frag


def rewrite_links(body: str, notebook_dir: Path, html_dir: Path) -> str:
    """Return HTML with every relative href/src rewritten by `rewrite_link`."""

    def sub(m: re.Match) -> str:
        return f"{m['attr']}{m['q']}{rewrite_link(m['url'], notebook_dir, html_dir)}{m['q']}"

    return LINK_RE.sub(sub, body)


def render_html(notebook: Path, html_dir: Path, source_dir: Path | None = None, exporter: Any = None) -> Path:
    """Return the HTML page written for an executed notebook (nbconvert with the package's template,
    its equations drawn as SVG: the page loads no script), links rewritten for `html_dir`;
    `source_dir` is the folder its relative links were written for (default: its own); `exporter`
    one `pages.html_exporter()` for several pages (its templates compiled once)."""
    import nbformat

    exporter = exporter or pages.html_exporter()
    body, _ = exporter.from_notebook_node(pages.offline_equations(nbformat.read(notebook, as_version=4)))
    out = html_dir / f"{notebook.stem}.html"
    write_whole(out, rewrite_links(body, source_dir or notebook.parent, html_dir).encode("utf-8"))
    return out


# ---- the run -----------------------------------------------------------------------------------
def mark_incomplete(folders: list[Path], how: str) -> None:
    """Write the incomplete mark into each folder (made when missing): what happened to the run."""
    text = (
        f"The run writing this folder {how}; its files may be partial or stale. A run that ends OK removes this file.\n"
    )
    for f in folders:
        f.mkdir(parents=True, exist_ok=True)
        (f / paths.INCOMPLETE_FILE).write_text(text, encoding="utf-8")


NO_SCORECARD: str = "ended OK, but its scorecard was not rewritten since (run 18_scorecard or scripts/reproduce.py)"


def start_outputs(folders: list[Path]) -> None:
    """Before the first notebook: mark each output folder incomplete and its old scorecard stale."""
    from ajb_verify import scorecard

    mark_incomplete(folders, STOPPED)
    for f in folders:
        scorecard.mark_stale(f)


def finish_outputs(folders: list[Path]) -> None:
    """After a run that ended OK: take the mark away, except where a scorecard no longer describes the tables."""
    from ajb_verify import scorecard

    for f in folders:
        if scorecard.is_stale(f):
            mark_incomplete([f], NO_SCORECARD)
        else:
            (f / paths.INCOMPLETE_FILE).unlink(missing_ok=True)


def leftovers(new: list[Path]) -> tuple[list[Path], list[Path]]:
    """Return (folders made by this run holding no output, the other folders) after a failed run; a folder
    with nothing but PROVENANCE.json, its lock and the incomplete mark holds no output."""
    bare = {"PROVENANCE.json", ".PROVENANCE.lock", paths.INCOMPLETE_FILE}
    empty = [f for f in new if f.is_dir() and all(p.is_dir() or p.name in bare for p in f.rglob("*"))]
    return empty, [f for f in new if f not in empty]


def is_user_error(res: Result) -> bool:
    """Return True when a notebook failed on what the user asked for (data source, parameter), not a bug."""
    return not res.ok and res.error.split(":", 1)[0] in DATA_SOURCE_ERRORS


def report_line(task: Task, res: Result) -> str:
    """Return the printed line for one finished notebook."""
    status = "ok  " if res.ok else "FAIL"
    return f"{status} {task.notebook.stem:<32} {res.seconds:7.1f} s{task.note}" + (
        f"  {res.error}" if res.error else ""
    )


def render_pages(done: list[tuple[Task, Result]]) -> None:
    """Write the HTML page of every notebook in `done` that ran OK and asked for one (one exporter)."""
    wanted = [task for task, res in done if res.ok and task.html_dir is not None]
    exporter = pages.html_exporter() if wanted else None
    for task in wanted:
        render_html(task.dest, task.html_dir, source_dir=task.notebook.parent, exporter=exporter)


def unknown_parameter_warning(record: logging.LogRecord) -> bool:
    """Return False for papermill's "Passed unknown parameter" warning: only declared parameters are
    passed, and papermill's own check misses PEP 604 annotations."""
    return "Passed unknown parameter" not in record.getMessage()


def run_tasks(tasks: list[Task], jobs: int, fail_fast: bool = False) -> list[Result]:
    """Return the Results of the tasks, `jobs` at a time in a thread pool, each line printed in
    notebook order; the RUN_LAST notebooks start when all the others have ended. A data-source error
    (or any failure under `fail_fast`), or Ctrl-C, stops the run: the notebooks not started yet are not run.
    The HTML pages are rendered here, in this process, while the next batch runs: the scorecard
    notebook runs alone, so its core is the only one busy meanwhile."""
    results: list[Result] = []
    batches = [[t for t in tasks if t.notebook.stem not in RUN_LAST], [t for t in tasks if t.notebook.stem in RUN_LAST]]
    done: list[tuple[Task, Result]] = []  # finished, page not rendered yet
    logging.getLogger("papermill").addFilter(unknown_parameter_warning)  # added once, however often called
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:  # each kernel is its own process
        try:
            for batch in batches:
                futures = [pool.submit(run_task, t) for t in batch]
                render_pages(done)
                done = []
                for task, future in zip(batch, futures):
                    res = future.result()
                    results.append(res)
                    done.append((task, res))
                    if not is_user_error(res):  # said once, in one line, by execute()
                        print(report_line(task, res), flush=True)
                    if not res.ok and (fail_fast or is_user_error(res)):
                        # the ones running finish; the others never start
                        pool.shutdown(wait=False, cancel_futures=True)
                        render_pages(done)
                        return results
        except KeyboardInterrupt:  # Ctrl-C: the same stop; the pool's exit waits for the running ones
            pool.shutdown(wait=False, cancel_futures=True)
            print(
                "interrupted: the notebooks not started will not run; waiting for the running ones to end", flush=True
            )
            raise
    render_pages(done)
    return results


def probe_sources(spec: dict[str, Any], notebooks: list[Path], command: str = OFFLINE_COMMAND) -> str | None:
    """Return None when every data source the notebooks will read is there (a hub source answers, a
    local path exists), else one line saying what failed (each source probed once)."""
    from ajb_utils.data import BenchDataError, HubUnavailable, probe_hub

    wanted = {(str(p.get("data_source")), p.get("revision")) for p in (params_for(spec, nb.stem) for nb in notebooks)}
    for source, revision in sorted(s for s in wanted if s[0] != "None"):
        try:
            probe_hub(source, revision)
        except HubUnavailable as exc:
            return f"error: {exc.reason}. Offline, this works: {command}"
        except BenchDataError as exc:  # a local path that does not exist, an empty folder
            return f"error: {exc}"
    return None


def end_summary(folder: Path, html_dir: Path | None) -> list[str]:
    """Return the closing lines: where the report, the scorecard and the tables/figures are."""
    entries = [] if html_dir is None else [(what, html_dir / page) for what, page in pages.REPORT_PAGES]
    lines = [f"{what}: {shown(page)}" for what, page in entries if page.exists()]
    lines.append(f"tables and figures: {shown(folder)}/")
    cards = sorted(p for p in folder.glob("[Ss][Cc][Oo][Rr][Ee][Cc][Aa][Rr][Dd]*") if p.is_file())
    found = ", ".join(shown(p) for p in cards)
    lines.append(f"scorecard: {found or 'none in this folder (it comes from the claim-check notebooks)'}")
    return lines


def execute(spec: dict[str, Any], notebooks: list[Path], args: RunOptions) -> int:
    """Execute checked notebooks as `args` (parse_args) say; return the exit status: 0 all ok, 1 a
    notebook failed, 2 a data-source error inside a notebook (said in one line)."""
    os.environ.update(kernel_environment())
    failed_dir = args.failed_dir or SCRATCH_DIR / "failed"
    runs, forced = plan_runs(spec, notebooks, args.params)
    if forced:
        own = Path(forced).name != provenance.data_label(str(runs[0].resolved.get("data_source") or "sample"))
        why = "non-default parameters" if own else "parameters for single notebooks only"
        print(f"{why}: outputs go to {forced}/" + " (the committed figures stay untouched)" * own, flush=True)
    in_place = args.in_place and not any(r.params for r in runs)
    if args.in_place and not in_place:
        where = shown(SCRATCH_DIR / "notebooks")
        print(f"--in-place refreshes the committed notebooks for the default parameters only; copies go to {where}/")
    folder = output_folder_of(runs[0].resolved)
    dest_dir = args.output_dir or SCRATCH_DIR / "notebooks" / folder.name
    tasks = [
        Task(
            r.notebook,
            r.notebook if in_place else dest_dir / r.notebook.name,
            r.params,
            failed_dir,
            output_folder_of(r.resolved) / "html" if args.html else None,
            args.kernel,
            args.timeout,
            f"  (ignored: {', '.join(r.dropped)})" if r.dropped else "",
        )
        for r in runs
    ]
    outputs = sorted({output_folder_of(r.resolved) for r in runs})
    new = [f for f in {dest_dir, *outputs} if not f.exists()]
    start_outputs(outputs)
    start = time.perf_counter()
    results = run_tasks(tasks, args.jobs, args.fail_fast)
    failed = [r for r in results if not r.ok]
    if failed:  # no folder that looks complete: one without outputs removed, the others marked
        empty, _ = leftovers(new)
        for f in empty:
            shutil.rmtree(f, ignore_errors=True)
        marked = [f for f in outputs if f not in empty]
        mark_incomplete(marked, f"did not end OK (failed: {', '.join(r.name for r in failed)})")
        if marked:
            where = ", ".join(f"{shown(f)}/" for f in marked)
            print(
                f"marked incomplete ({paths.INCOMPLETE_FILE}): {where}; removed (no output in them): "
                + (", ".join(f"{shown(f)}/" for f in empty) or "none"),
                flush=True,
            )
    else:
        finish_outputs(outputs)
    stopped = next((r for r in failed if is_user_error(r)), None)
    if stopped is not None:
        kind, _, message = stopped.error.partition(": ")
        where = f"in {stopped.name}; the run stopped there, as every other notebook would fail the same way"
        print(f"error: {with_hint(kind, message)} ({where})", file=sys.stderr)
        return 2
    wall = time.perf_counter() - start
    busy = sum(r.seconds for r in results)
    print(f"{len(results) - len(failed)} ok, {len(failed)} failed, {busy:.1f} s notebook time in {wall:.1f} s wall")
    if failed:
        print(f"failed: {', '.join(r.name for r in failed)} (executed copies in {shown(failed_dir)}/)")
        return 1
    print(f"executed notebooks: {shown(tasks[0].dest.parent)}/")
    if args.summary:
        print("\n".join(end_summary(folder, folder / "html" if args.html else None)))
    return 0


def parse_args(argv: list[str] | None) -> RunOptions:
    """Return the parsed command line (its options are `ajb_run.options.RunOptions`' fields)."""
    return options.parse(RunOptions, argv, __doc__)


def selected_notebooks(args: RunOptions) -> list[Path]:
    """Return the notebooks `args` select; UserError for a missing folder or when none matches."""
    if not args.notebooks_dir.is_dir():
        raise UserError(f"notebook folder {args.notebooks_dir} does not exist; the notebooks are in notebooks/")
    notebooks = list_notebooks(args.notebooks_dir, args.only)
    if not notebooks:
        numbers = ", ".join(p.name[:2] for p in list_notebooks(args.notebooks_dir)) or "none"
        only = " ".join(args.only or [])
        where = shown(args.notebooks_dir)
        raise UserError(f"no notebook matched {only!r} in {where}/; --only takes numbers or stems (there: {numbers})")
    return notebooks


def main(argv: list[str] | None = None) -> int:
    """Check the parameter file and the data source, then run the notebooks; return the exit status (0 all
    ok, 1 a notebook failed, 2 a user error: a bad parameter file or name, no notebook, a data-source error)."""
    args = parse_args(argv)
    spec = load_params(args.params)
    notebooks = selected_notebooks(args)
    parameter_files.check_parameter_file(spec, list_notebooks(args.notebooks_dir), notebooks, str(args.params))
    if args.list_only:
        for r in plan_runs(spec, notebooks, args.params)[0]:
            print(f"{r.notebook.stem}: {r.params}" + (f"  (not declared: {', '.join(r.dropped)})" if r.dropped else ""))
        return 0
    problem = probe_sources(spec, notebooks)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    return execute(spec, notebooks, args)


if __name__ == "__main__":
    sys.exit(run_main(main))
