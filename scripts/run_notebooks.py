#!/usr/bin/env python
"""Execute notebooks/NN_*.ipynb in order with papermill, parameters from a YAML file.

    python scripts/run_notebooks.py --params papermill_params/sample.yaml            # all, to figures/_scratch/
    python scripts/run_notebooks.py --params papermill_params/sample.yaml --in-place # refresh committed outputs
    python scripts/run_notebooks.py --params papermill_params/hf.yaml --only 03 05 --html

Parameter YAML: top-level scalars and a `default:` block apply to every notebook; a block keyed
by a notebook stem (`03_main_results:`) or number (`03:`) applies to that notebook only. Each
notebook receives only the parameters its `parameters` cell declares (papermill would inject
the others too, with a warning). Kernel `python3`, working directory notebooks/, the repository
on PYTHONPATH. A notebook is executed into a temporary folder and moved into place only when it
succeeded, so a failure never leaves a half-written notebook behind; failed executions are kept
under --failed-dir for debugging. Exit status 1 when any notebook fails.

Outputs never clobber the committed ones: with the notebooks' default parameters the tables and
figures go to figures/<data label>/; a parameter file that changes any other parameter sends every
notebook's outputs to figures/<data label>-<parameter file name>/ (unless it sets `out_dir`), and
--in-place then keeps the executed notebooks under figures/_scratch/ instead of overwriting them.
With --html, the rendered notebooks go to <output folder>/html/ with links rewritten to work when
that folder is opened in a browser (notebook links to .html, file links relative to html/).

Notebooks run in parallel, one worker process per core by default (`--jobs N`; `--jobs 1` runs
them one after another in this process). Each notebook is executed on its own kernel with the
same parameters either way, so the outputs do not depend on the number of workers; the report
lines come in notebook order.

A hub data source is probed once before any notebook runs (one request, a few seconds at most):
offline, one line says what failed and the command that works offline (exit status 2). A
data-source error inside a notebook (BenchDataError, HubUnavailable) stops the run there, since
every later notebook would fail the same way.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import dataclasses
import functools
import html.parser
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import yaml  # noqa: E402

from ajb_utils import environment, parameters, paths, provenance  # noqa: E402
from ajb_utils.parameters import ParameterError, assigned_names, parameters_cell_source  # noqa: E402,F401
from ajb_utils.script_errors import DEBUG_HELP, UserError, require_parameter_file, run_main, with_hint  # noqa: E402

NOTEBOOK_RE = re.compile(r"^(\d{2})_.+\.ipynb$")
# Errors a notebook raises about what the user asked for (the data source, a parameter): the same in
# every notebook, so the run stops there with one line and exit status 2.
DATA_SOURCE_ERRORS = ("HubUnavailable", "BenchDataError", "IncompleteDataError", "ParameterError")
RUN_LAST: frozenset[str] = frozenset({"18_scorecard"})  # reads what the others write: starts when they are done
# The longest notebooks (measured on the sample and at full scale, docs/PERFORMANCE.md) start first, so that
# the workers finish together; the others follow in number order. Outputs and report lines do not depend on it.
LONGEST_FIRST: tuple[str, ...] = ("15", "03", "14", "04", "05", "10", "07", "16", "17", "01")
# Work that several of the package's notebooks share is done once, by one worker, before them (the
# other workers run the rest meanwhile): every judge's verdicts with their justifications (the
# gallery of 03, App. H's cases in 10) and the static judge's verdicts (03, 16), each kept in the
# content-keyed cache the notebooks then read. Without it (another notebook folder, or it failed)
# each notebook computes them itself; outputs do not depend on it.
SHARED_BY: frozenset[str] = frozenset({"03", "10", "16"})
STATIC_CONDITIONS: tuple[str, ...] = ("with_gt", "without_gt", "deref")  # notebooks 03 and 16, by default
SCRATCH_DIR = paths.FIGURES_DIR / "_scratch"
KERNEL_FORK = Path(__file__).resolve().parent / "kernel_fork.py"  # kernels forked from one preloaded server
KERNEL_FORK_ENV = "AJB_KERNEL_SERVER"  # the server's socket, for the kernel managers of the workers
PRELOAD_BENCH_ENV = "AJB_PRELOAD_BENCH"  # the load the server reads once for its kernels (kernel_fork.py)
ENGINE = "ajb_end_save"  # the papermill engine execute_one uses (see papermill_engine)


@dataclass
class Result:
    """Outcome of one notebook: name, ok flag, wall seconds, error summary, output path."""

    name: str
    ok: bool
    seconds: float
    error: str = ""
    output: Path | None = None


def list_notebooks(notebooks_dir: Path, only: list[str] | None = None) -> list[Path]:
    """Return the NN_*.ipynb notebooks of a folder in number order, restricted to `only` (numbers or stems)."""
    nbs = sorted(p for p in notebooks_dir.iterdir() if NOTEBOOK_RE.match(p.name))
    if not only:
        return nbs
    wanted = {o.removesuffix(".ipynb") for o in only}
    return [p for p in nbs if p.stem in wanted or p.name[:2] in wanted]


def load_params(path: Path | None) -> dict[str, Any]:
    """Return the parsed parameter YAML ({} when no file is given); UserError for a missing or bad file."""
    if path is None:
        return {}
    try:
        data = yaml.safe_load(require_parameter_file(path).read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        at = f" (line {where.line + 1})" if where is not None else ""
        raise UserError(
            f"parameter file {path} is not valid YAML{at}: "
            f"{getattr(exc, 'problem', None) or exc}; compare papermill_params/sample.yaml"
        ) from None
    if not isinstance(data, dict):
        raise UserError(
            f"parameter file {path}: expected a mapping at the top level (name: value lines); "
            "compare papermill_params/sample.yaml"
        )
    return data


def is_notebook_key(key: Any) -> bool:
    """Return True when a YAML key names a notebook (two leading digits, or an int: YAML reads `03:` as 3)."""
    return isinstance(key, int) or bool(re.match(r"^\d{2}", str(key)))


def params_for(spec: dict[str, Any], stem: str) -> dict[str, Any]:
    """Return the merged parameters for one notebook: top-level scalars < `default:` < number < stem."""
    merged = {k: v for k, v in spec.items() if k != "default" and not is_notebook_key(k)}
    merged.update(spec.get("default") or {})
    for key in (stem[:2], int(stem[:2]), stem):
        block = spec.get(key)
        if isinstance(block, dict):
            merged.update(block)
    return merged


def default_values(source: str) -> dict[str, Any]:
    """Return {name: literal default} for the assignments of a parameters cell whose value is a literal."""
    import ast

    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    out: dict[str, Any] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        if isinstance(target, ast.Name) and getattr(node, "value", None) is not None:
            try:
                out[target.id] = ast.literal_eval(node.value)
            except ValueError:
                continue
    return out


def drop_defaults(params: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """Return the parameters that differ from the notebook's own defaults (no injected cell when none do)."""

    def same(k: str) -> bool:
        return k in defaults and type(defaults[k]) is type(params[k]) and defaults[k] == params[k]

    return {k: v for k, v in params.items() if not same(k)}


VOLATILE_NB_KEYS = ("input_path", "output_path", "start_time", "end_time", "duration")


def coalesce_streams(outputs: list[Any]) -> list[Any]:
    """Return cell outputs with consecutive stream outputs of the same name joined into one: how
    one print is split into messages depends on flush timing, which must not change the file."""
    out: list[Any] = []
    for o in outputs:
        if (
            o.get("output_type") == "stream"
            and out
            and out[-1].get("output_type") == "stream"
            and out[-1].get("name") == o.get("name")
        ):
            out[-1]["text"] = "".join([out[-1]["text"], o["text"]])
        else:
            out.append(o)
    return out


def scrub_volatile(nb: Any) -> Any:
    """Return the executed notebook without timestamps, durations and temp paths, and with
    coalesced streams (stable diffs)."""
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


def strip_injected(src: Path, dest: Path) -> Path:
    """Return `dest` after writing `src` to it without earlier `injected-parameters` cells."""
    import nbformat

    nb = nbformat.read(src, as_version=4)
    nb.cells = [c for c in nb.cells if "injected-parameters" not in c.metadata.get("tags", [])]
    nbformat.write(nb, dest)
    return dest


def scrub_file(path: Path) -> None:
    """Rewrite an executed notebook file in place without its volatile metadata; returns None."""
    import nbformat

    nbformat.write(scrub_volatile(nbformat.read(path, as_version=4)), path)


def declared_parameters(notebook: Path) -> set[str]:
    """Return the names the notebook's `parameters` cell declares (see parameters.declared_parameters)."""
    return set(_declared(Path(notebook).resolve()))


@functools.lru_cache(maxsize=None)
def _declared(notebook: Path) -> frozenset[str]:
    """Return the declared names of a notebook file, read once per process."""
    return frozenset(parameters.declared_parameters(notebook))


def block_matches(key: Any, stem: str) -> bool:
    """Return True when a parameter-file block key (`03`, 3 or `03_main_results`) names notebook `stem`."""
    return key in (stem[:2], int(stem[:2]), stem)


def check_spec(spec: dict[str, Any], notebooks_dir: Path, selected: list[Path], params_file: Path | None) -> None:
    """Raise ParameterError (one line, listing the valid names or values) before any notebook runs: a
    shared name no notebook declares, a block naming no notebook, a name its notebook's block gives that
    the notebook does not declare, or an unknown judge/generator/condition value; returns None."""
    where = str(params_file) if params_file is not None else "the parameters"  # as the user gave it
    declared = {nb.stem: declared_parameters(nb) for nb in list_notebooks(notebooks_dir)}
    known = set().union(*declared.values(), provenance.LOCATION_PARAMETERS, provenance.DEFAULT_PARAMETERS)
    shared = {k for k in spec if k != "default" and not is_notebook_key(k)} | set(spec.get("default") or {})
    if shared - known:
        raise ParameterError(
            parameters.unknown_names_message(shared - known, known, f"in {where} (declared by no notebook)")
        )
    for key, block in spec.items():
        if not is_notebook_key(key):
            continue
        stems = [stem for stem in declared if block_matches(key, stem)]
        if not stems:
            raise ParameterError(
                f"block {key!r} in {where} names no notebook in {paths.relpath(notebooks_dir)}/; "
                f"valid: {', '.join(declared)} (or their numbers)"
            )
        if not isinstance(block, dict):
            raise ParameterError(f"block {key!r} in {where} must map parameter names to values, got {block!r}")
        for stem in stems:
            parameters.check_names(block, declared[stem], f"{stem} in {where}")
    problems = []
    for nb in selected:
        kept, _ = filter_params(params_for(spec, nb.stem), declared.get(nb.stem) or declared_parameters(nb))
        problems += [
            f"{p} (in {where})" for p in parameters.value_problems(kept) if f"{p} (in {where})" not in problems
        ]
    if problems:
        raise ParameterError(" | ".join(problems))


def filter_params(params: dict[str, Any], declared: set[str]) -> tuple[dict[str, Any], list[str]]:
    """Return (parameters the notebook declares, sorted names dropped)."""
    kept = {k: v for k, v in params.items() if k in declared}
    return kept, sorted(set(params) - declared)


def data_label_of(params: dict[str, Any]) -> str:
    """Return the data label a parameter set resolves to (data_source 'sample' by default)."""
    return provenance.data_label(str(params.get("data_source") or "sample"))


def atomic_copy(src: Path, dest: Path) -> None:
    """Copy `src` to `dest` through a temporary file in dest's folder and an atomic rename; returns None."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".partial", dir=dest.parent)
    os.close(fd)
    try:
        shutil.copyfile(src, tmp)
        os.chmod(tmp, 0o666 & ~current_umask())  # mkstemp makes 0600; a notebook is an ordinary file
        os.replace(tmp, dest)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


LINK_RE = re.compile(r'(?P<attr>\b(?:href|src)=)(?P<q>["\'])(?P<url>[^"\']*)(?P=q)')


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


class _LinkCollector(html.parser.HTMLParser):
    """Collect the href/src values of an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.links += [v for k, v in attrs if k in ("href", "src") and v]


def page_links(page: Path) -> list[str]:
    """Return every href/src of an HTML page, parsed (not regex-matched)."""
    collector = _LinkCollector()
    collector.feed(page.read_text(encoding="utf-8"))
    return collector.links


def broken_links(page: Path) -> list[str]:
    """Return the relative links of an HTML page whose target file does not exist."""
    from urllib.parse import unquote

    bad = []
    for url in page_links(page):
        if is_relative_link(url) and not (page.parent / unquote(url.partition("#")[0])).exists():
            bad.append(url)
    return bad


def current_umask() -> int:
    """Return the process umask (read by setting and restoring it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


PAGE_KEY_MARK = "<!-- page key (xxh3-128 of the notebook, the folders, the renderer): "
# What an HTML page is made of besides the notebook's bytes and the two folders: the renderer's packages.
PAGE_RENDERER = ("nbconvert", "nbformat", "jinja2", "pygments", "mistune", "bleach", "beautifulsoup4")


def page_key(notebook: Path, html_dir: Path, source_dir: Path) -> str:
    """Return the content key of a notebook's HTML page: its bytes, where its links point from and to,
    the renderer's package versions and this script's code (every input of `render_html`)."""
    import importlib.metadata

    import xxhash

    h = xxhash.xxh3_128(notebook.read_bytes())
    h.update(f"\0{source_dir.resolve()}\0{html_dir.resolve()}\0".encode())
    for name in PAGE_RENDERER:
        try:
            h.update(f"{name}={importlib.metadata.version(name)}\0".encode())
        except importlib.metadata.PackageNotFoundError:
            h.update(f"{name}=-\0".encode())
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()


def page_is_current(page: Path, key: str) -> bool:
    """Return True when `page` exists and ends with the mark of `key` (made from the same inputs)."""
    try:
        with open(page, "rb") as fh:
            fh.seek(max(0, os.path.getsize(page) - 256))
            tail = fh.read()
    except OSError:
        return False
    return f"{PAGE_KEY_MARK}{key} -->".encode() in tail


def render_html(notebook: Path, html_dir: Path, source_dir: Path | None = None) -> Path:
    """Return the HTML file written for an executed notebook (nbconvert), links rewritten for `html_dir`.

    `source_dir` is the folder the notebook's relative links were written for (default: its own). A page
    made from the same inputs (`page_key`, kept in a comment at its end) is kept as it is, not rendered again.
    """
    source_dir = source_dir or notebook.parent
    out = html_dir / f"{notebook.stem}.html"
    key = page_key(notebook, html_dir, source_dir)
    if page_is_current(out, key):
        return out
    import nbformat
    from nbconvert import HTMLExporter

    body, _ = HTMLExporter().from_notebook_node(nbformat.read(notebook, as_version=4))
    html_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".partial", dir=html_dir)
    try:  # never a half-written page: written beside it, then renamed over it
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(rewrite_links(body, source_dir, html_dir))
            fh.write(f"\n{PAGE_KEY_MARK}{key} -->\n")
        os.chmod(tmp, 0o666 & ~current_umask())
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return out


@functools.lru_cache(maxsize=None)
def papermill_engine() -> str:
    """Return the name of this runner's papermill engine, registered once per process: nbclient's, with
    the executed notebook written when the run ends (and by papermill's 30-s autosave during a long cell),
    not at every cell's start and end. Those writes (two per cell, each a copy, a validation and a JSON
    dump of the whole notebook) cost more client CPU than the rest of a small notebook's execution; the
    file papermill writes at the end is the same. A run that raises (a dead kernel, a timeout) still
    writes what it executed, for --failed-dir."""
    from papermill.engines import NBClientEngine, NotebookExecutionManager, papermill_engines

    class EndSaveManager(NotebookExecutionManager):
        """papermill's execution manager, its per-cell saves left out (`hold`)."""

        hold = False

        def save(self, **kwargs: Any) -> None:
            if not self.hold:
                super().save(**kwargs)

        @contextlib.contextmanager
        def held(self) -> Iterator[None]:
            """Leave papermill's saves out while the block runs."""
            self.hold = True
            try:
                yield
            finally:
                self.hold = False

        def cell_start(self, cell: Any, cell_index: int | None = None, **kwargs: Any) -> None:
            with self.held():
                super().cell_start(cell, cell_index, **kwargs)

        def cell_complete(self, cell: Any, cell_index: int | None = None, **kwargs: Any) -> None:
            with self.held():
                super().cell_complete(cell, cell_index, **kwargs)

    class EndSaveEngine(NBClientEngine):
        """nbclient's engine run with EndSaveManager (papermill's Engine.execute_notebook otherwise)."""

        @classmethod
        def execute_notebook(
            cls,
            nb: Any,
            kernel_name: str,
            output_path: str | None = None,
            progress_bar: bool = True,
            log_output: bool = False,
            autosave_cell_every: int = 30,
            **kwargs: Any,
        ) -> Any:
            nb_man = EndSaveManager(
                nb,
                output_path=output_path,
                progress_bar=progress_bar,
                log_output=log_output,
                autosave_cell_every=autosave_cell_every,
            )
            with nb_man.held():  # the start state is the input: nothing worth writing yet
                nb_man.notebook_start()
            try:
                cls.execute_managed_notebook(nb_man, kernel_name, log_output=log_output, **kwargs)
            except BaseException:
                nb_man.cleanup_pbar()
                nb_man.notebook_complete()  # written: what ran before the kernel died or timed out
                raise
            nb_man.cleanup_pbar()
            nb_man.hold = True  # papermill writes the finished notebook itself right after this
            nb_man.notebook_complete()
            nb_man.hold = False
            return nb_man.nb

    papermill_engines.register(ENGINE, EndSaveEngine)
    return ENGINE


def execute_one(
    notebook: Path,
    dest: Path,
    params: dict[str, Any],
    kernel: str,
    failed_dir: Path,
    timeout: int | None,
) -> Result:
    """Return the Result of executing one notebook into `dest` (untouched on failure)."""
    import papermill as pm

    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ajb_nb_") as tmp:
        out = Path(tmp) / notebook.name
        clean = strip_injected(notebook, Path(tmp) / f"input_{notebook.name}")
        try:
            pm.execute_notebook(
                str(clean),
                str(out),
                parameters=params,
                kernel_name=kernel,
                cwd=str(notebook.parent),
                progress_bar=False,
                log_output=False,
                execution_timeout=timeout,
                config=kernel_config(Path(tmp)),
                engine_name=papermill_engine(),
            )
        except Exception as exc:  # papermill raises PapermillExecutionError, kernels others
            seconds = time.perf_counter() - start
            if out.exists():
                failed_dir.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(out, failed_dir / notebook.name)
            summary = getattr(exc, "ename", type(exc).__name__)
            evalue = getattr(exc, "evalue", str(exc)).strip().splitlines()
            return Result(notebook.stem, False, seconds, f"{summary}: {evalue[0] if evalue else ''}")
        scrub_file(out)
        atomic_copy(out, dest)
    return Result(notebook.stem, True, time.perf_counter() - start, output=dest)


def quiet_kernel_manager() -> type:
    """Return a kernel manager class that does not SIGINT the kernel on shutdown.

    jupyter_client interrupts a kernel before asking it to shut down; an idle ipykernel then logs
    "[IPKernelApp] ERROR | KeyboardInterrupt caught in kernel", which reads as a failure on a
    successful run. The shutdown request alone stops an idle kernel; a hung one is still killed.
    """
    from jupyter_client.manager import AsyncKernelManager

    class QuietShutdownKernelManager(AsyncKernelManager):
        """AsyncKernelManager without the interrupt that precedes a shutdown request."""

        async def _async_interrupt_kernel(self) -> None:
            if self.shutting_down:
                return
            await super()._async_interrupt_kernel()

        def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
            return forked_kernel_cmd(super().format_kernel_cmd(extra_arguments), os.environ.get(KERNEL_FORK_ENV))

    return QuietShutdownKernelManager


def forked_kernel_cmd(cmd: list[str], server: str | None) -> list[str]:
    """Return the command that starts a kernel: with a kernel server (scripts/kernel_fork.py), an
    ipykernel command becomes its light launcher (the kernel a fork of the server); else `cmd` itself."""
    if not server or cmd[1:3] != ["-m", "ipykernel_launcher"]:
        return cmd
    return [cmd[0], "-I", "-S", str(KERNEL_FORK), "launch", server, *cmd[3:]]


def pages_to_render(tasks: list[Task]) -> bool:
    """Return True when some task's HTML page would be rendered if its notebook came out as it is now
    (missing, or made from other inputs: `page_is_current`)."""
    return any(
        t.html_dir is not None
        and not (
            t.dest.exists()
            and page_is_current(t.html_dir / f"{t.dest.stem}.html", page_key(t.dest, t.html_dir, t.notebook.parent))
        )
        for t in tasks
    )


def preload_runner(html: bool) -> None:
    """Import papermill (and nbconvert for --html, when pages are to be rendered) in this process, so
    that worker processes forked from it do not import them each; returns None."""
    import papermill  # noqa: F401

    if html:
        import nbformat
        from nbconvert import HTMLExporter

        # one small real notebook rendered here: nbconvert loads its templates, filters and lexers on
        # the first rendering (~2 s), which each worker forked from here would otherwise repeat
        index = paths.NOTEBOOKS_DIR / "00_index.ipynb"
        if index.exists():
            HTMLExporter().from_notebook_node(nbformat.read(index, as_version=4))


def start_kernel_server(folder: Path) -> subprocess.Popen | None:
    """Return the kernel server (scripts/kernel_fork.py) started with this process's environment, its
    socket in `folder` and named by KERNEL_FORK_ENV for the kernel managers; None where kernels cannot
    be forked (not POSIX) or AJB_KERNEL_FORK=0."""
    if not hasattr(os, "fork") or os.environ.get("AJB_KERNEL_FORK", "1") == "0":
        return None
    sock = folder / "kernels.sock"
    server = subprocess.Popen([sys.executable, str(KERNEL_FORK), "serve", str(sock)], cwd=paths.NOTEBOOKS_DIR)
    os.environ[KERNEL_FORK_ENV] = str(sock)
    os.environ["AJB_KERNEL_SERVER_PID"] = str(server.pid)  # scripts/kernel_fork.py SERVER_PID_ENV
    return server


def preload_spec(runs: list[tuple[Path, dict[str, Any], list[str], dict[str, Any]]]) -> str:
    """Return the JSON of the load the kernel server reads once for the kernels (scripts/kernel_fork.py
    PRELOAD_BENCH_ENV): the data source and revision every planned notebook uses; "" when they differ."""
    specs = {(r[3].get("data_source", "sample"), r[3].get("revision")) for r in runs}
    if len(specs) != 1:
        return ""
    source, revision = specs.pop()
    return json.dumps({"source": source, "revision": revision})


def stop_kernel_server(server: subprocess.Popen | None) -> None:
    """Stop the kernel server (its kernels have ended with their notebooks); returns None."""
    os.environ.pop(KERNEL_FORK_ENV, None)
    os.environ.pop("AJB_KERNEL_SERVER_PID", None)
    if server is None:
        return
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def probe_sources(spec: dict[str, Any], notebooks: list[Path]) -> str | None:
    """Return None when every hub data source the notebooks will read answers, else one line
    saying what failed and the command that works offline (each source probed once)."""
    from ajb_utils.data import BenchDataError, HubUnavailable, probe_hub

    wanted = {
        (str(p.get("data_source")), p.get("revision"))
        for p in (params_for(spec, nb.stem) for nb in notebooks)
        if p.get("data_source")
    }
    for source, revision in sorted(wanted, key=str):
        try:
            probe_hub(source, revision)
        except HubUnavailable as exc:
            return (
                f"error: {exc.reason}. Offline, this works: python scripts/run_notebooks.py "
                "--params papermill_params/sample.yaml (the embedded synthetic sample)"
            )
        except BenchDataError as exc:  # a source that is neither the hub nor a folder
            return f"error: {exc}"
    return None


def kernel_config(socket_dir: Path | None = None) -> Any:
    """Return the kernel manager config: IPC transport (local sockets, not TCP on loopback), quiet
    shutdown, the sockets in `socket_dir` (a folder per notebook, so kernels running at once never share one)."""
    from traitlets.config import Config

    config = Config()
    config.KernelManager.transport = "ipc"
    config.NotebookClient.kernel_manager_class = quiet_kernel_manager()
    if socket_dir is not None:
        config.KernelManager.ip = str(socket_dir / "kernel")
    return config


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Return the parsed command line."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--params",
        type=Path,
        default=REPO_ROOT / "papermill_params" / "sample.yaml",
        help="parameter YAML (default: papermill_params/sample.yaml)",
    )
    ap.add_argument("--only", nargs="+", metavar="NN", help="notebook numbers or stems to run")
    ap.add_argument("--notebooks-dir", type=Path, default=paths.NOTEBOOKS_DIR)
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--in-place", action="store_true", help="overwrite the notebooks with executed versions")
    where.add_argument(
        "--output-dir", type=Path, help="folder for executed notebooks (default: figures/_scratch/notebooks/<label>/)"
    )
    ap.add_argument("--html", action="store_true", help="also render HTML to <out_dir or figures/<label>>/html/")
    ap.add_argument(
        "--failed-dir", type=Path, help="where failed executions are kept (default: figures/_scratch/failed/)"
    )
    ap.add_argument("--kernel", default="python3")
    ap.add_argument("--timeout", type=int, default=None, help="per-cell timeout in seconds")
    ap.add_argument("--fail-fast", action="store_true", help="stop at the first failing notebook")
    ap.add_argument("--list", action="store_true", help="print the notebooks and their parameters, run nothing")
    ap.add_argument("--no-summary", action="store_true", help="leave out the closing lines saying where outputs are")
    ap.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="notebooks executed at once, one worker process each (default: one per core)",
    )
    ap.add_argument(
        "--start-on-stdin",
        action="store_true",
        help="start the kernel server and the imports now, the notebooks when a line 'go' arrives on stdin "
        "(scripts/reproduce.py, so that they overlap its load); end of input first: exit 1, nothing run",
    )
    ap.add_argument("--debug", action="store_true", help=DEBUG_HELP)
    return ap.parse_args(argv)


def html_dir_for(params: dict[str, Any]) -> Path:
    """Return the HTML folder for a parameter set: <out_dir>/html or figures/<label>/html."""
    return provenance.output_dir(data_label_of(params), params.get("out_dir")) / "html"


def run_out_dir(resolved: list[dict[str, Any]], params_file: Path | None) -> str | None:
    """Return the out_dir every notebook of a run is given: None when all parameters are the defaults
    (figures/<label>/) or the file sets out_dir, else figures/<label>-<parameter file stem>."""
    if any(r.get("out_dir") for r in resolved):
        return None
    if not any(provenance.nondefault_parameters(r) for r in resolved):
        return None
    label = data_label_of(resolved[0]) if resolved else "sample"
    stem = params_file.stem if params_file is not None else "params"
    return paths.relpath(paths.FIGURES_DIR / provenance.output_folder_name(label, {"_": 1}, stem))


def output_folder_of(params: dict[str, Any]) -> Path:
    """Return the folder a notebook run with `params` writes to (out_dir, else figures/<label>/)."""
    return provenance.output_dir(data_label_of(params), params.get("out_dir"))


def plan_runs(
    spec: dict[str, Any], notebooks: list[Path], params_file: Path | None
) -> tuple[list[tuple[Path, dict[str, Any], list[str], dict[str, Any]]], str | None]:
    """Return ([(notebook, parameters to inject, names dropped, resolved parameters)], forced out_dir)."""
    plan = []
    for nb in notebooks:
        declared = declared_parameters(nb)
        params, dropped = filter_params(params_for(spec, nb.stem), declared)
        defaults = default_values(parameters_cell_source(nb))
        plan.append((nb, declared, params, dropped, defaults, {**defaults, **params}))
    forced = run_out_dir([p[5] for p in plan], params_file)
    runs = []
    for nb, declared, params, dropped, defaults, resolved in plan:
        if forced and "out_dir" in declared:
            params = {**params, "out_dir": forced}
            resolved = {**resolved, "out_dir": forced}
        runs.append((nb, drop_defaults(params, defaults), dropped, resolved))
    return runs, forced


def report_locations(params_file: Path, notebooks_dir: Path = paths.NOTEBOOKS_DIR) -> list[str]:
    """Return the closing lines of a whole run with `params_file` (where report, scorecard, figures are)."""
    runs, _ = plan_runs(load_params(params_file), list_notebooks(notebooks_dir), params_file)
    folder = output_folder_of(runs[0][3]) if runs else paths.FIGURES_DIR
    return end_summary(folder, folder / "html")


def end_summary(folder: Path, html_dir: Path | None) -> list[str]:
    """Return the closing lines: where the report, the scorecard and the tables/figures are."""
    from ajb_utils.report import report_page_lines

    lines = report_page_lines(html_dir) + [f"tables and figures: {paths.relpath(folder)}/"]
    cards = sorted(p for p in folder.glob("*[Ss][Cc][Oo][Rr][Ee][Cc][Aa][Rr][Dd]*") if p.is_file())
    lines.append(
        "scorecard: "
        + (
            ", ".join(paths.relpath(p) for p in cards)
            if cards
            else "none in this folder (it comes from the claim-check notebooks)"
        )
    )
    return lines


@dataclass
class Task:
    """One notebook to execute: where from, where to, with what, and where its HTML goes."""

    notebook: Path
    dest: Path
    params: dict[str, Any]
    kernel: str
    failed_dir: Path
    timeout: int | None
    html_dir: Path | None
    note: str = ""


def shared_work(
    params: dict[str, Any], conditions: tuple[str, ...] = STATIC_CONDITIONS, justifications: bool = True
) -> Result:
    """Return the Result of filling the cache entries the SHARED_BY notebooks read (see there): the
    load with justifications, the static verdicts of `conditions`; an error is not raised (each
    notebook then computes them and reports it)."""
    from ajb_utils import judge, schema
    from ajb_utils.data import load_bench

    start = time.perf_counter()
    source, revision = params.get("data_source", "sample"), params.get("revision")
    try:
        if justifications:
            load_bench(source, revision=revision, judges=list(schema.JUDGES), runs=None, justifications=True)
        if conditions:
            judge.static_verdicts(load_bench(source, revision=revision), conditions, cache=True)
    except Exception as exc:  # noqa: BLE001 - the notebooks redo it and say what is wrong
        return Result("shared work", False, time.perf_counter() - start, f"{type(exc).__name__}: {exc}")
    return Result("shared work", True, time.perf_counter() - start)


def shared_for(runs: list[tuple[Path, dict[str, Any], list[str], dict[str, Any]]]) -> functools.partial[Result] | None:
    """Return the shared work the planned runs need (with the data source of the notebooks that read it), or None."""
    resolved = {r[0].name[:2]: r[3] for r in runs if r[0].name[:2] in SHARED_BY}
    if not resolved:
        return None
    conditions = dict.fromkeys(["with_gt", "without_gt"] if "03" in resolved else [])
    conditions.update(dict.fromkeys(resolved.get("16", {}).get("static_conditions") or []))
    justifications = "03" in resolved or "10" in resolved
    return functools.partial(shared_work, next(iter(resolved.values())), tuple(conditions), justifications)


def needs_shared(task: Task) -> bool:
    """Return True for a notebook that reads what `shared_work` fills."""
    return task.notebook.name[:2] in SHARED_BY


def run_task(task: Task) -> Result:
    """Return the Result of executing one Task (and rendering its HTML when asked)."""
    res = execute_one(task.notebook, task.dest, task.params, task.kernel, task.failed_dir, task.timeout)
    if res.ok and task.html_dir is not None:
        render_html(task.dest, task.html_dir, source_dir=task.notebook.parent)
    return res


def report_line(task: Task, res: Result) -> str:
    """Return the printed line for one finished notebook."""
    status = "ok  " if res.ok else "FAIL"
    return f"{status} {task.notebook.stem:<32} {res.seconds:7.1f} s{task.note}" + (
        f"  {res.error}" if res.error else ""
    )


def stops_the_run(task: Task, res: Result, fail_fast: bool) -> bool:
    """Return True when a result ends the run: any failure under --fail-fast, or a data-source
    error (every later notebook would fail the same way), which is said in one line."""
    if res.ok:
        return False
    return is_user_error(res) or fail_fast


def is_user_error(res: Result) -> bool:
    """Return True when a notebook failed on what the user asked for (data source, parameter), not a bug."""
    return not res.ok and res.error.split(":", 1)[0] in DATA_SOURCE_ERRORS


def submission_order(tasks: list[Task]) -> list[int]:
    """Return the task indices in the order they are handed to the workers: LONGEST_FIRST, then the rest in order."""
    rank = {nn: i for i, nn in enumerate(LONGEST_FIRST)}
    return sorted(range(len(tasks)), key=lambda i: (rank.get(tasks[i].notebook.name[:2], len(rank)), i))


def runs_last(task: Task) -> bool:
    """Return True for a notebook that reads what the others write (RUN_LAST): it starts when they are done."""
    return task.notebook.stem in RUN_LAST


def render_task(task: Task) -> None:
    """Render the HTML page of an executed Task (see render_html); returns None."""
    if task.html_dir is not None:
        render_html(task.dest, task.html_dir, source_dir=task.notebook.parent)


def run_tasks(
    tasks: list[Task], jobs: int, fail_fast: bool, shared: functools.partial[Result] | None = None
) -> list[Result]:
    """Return the Results of the tasks in their order, `jobs` at a time, printing each line in order.

    `shared` (see `shared_work`) runs first on one worker; the notebooks that need it are handed out
    only once it is done, the others meanwhile (in `submission_order`). The RUN_LAST notebooks start
    once every other one has ended (and none stopped the run). With several workers a notebook's HTML
    page is rendered as a job of its own, handed out only when no notebook is ready to start: the
    workers render while a notebook waits for the shared work or while the RUN_LAST ones run alone.
    The pages are the same; the run ends when every page is written."""
    results: list[Result] = []
    if not any(needs_shared(t) for t in tasks):
        shared = None
    if jobs <= 1 or len(tasks) <= 1:
        if shared is not None:
            print(shared_line(shared()), flush=True)
        for task in sorted(tasks, key=runs_last):
            res = run_task(task)
            if not is_user_error(res):  # said once, in one line, by main()
                print(report_line(task, res), flush=True)
            results.append(res)
            if stops_the_run(task, res, fail_fast):
                break
        return results
    tasks = sorted(tasks, key=runs_last)  # stable: the RUN_LAST ones at the end, in number order
    n_first = sum(not runs_last(t) for t in tasks)
    with concurrent.futures.ProcessPoolExecutor(max_workers=min(jobs, len(tasks) + (shared is not None))) as pool:
        first = pool.submit(shared) if shared is not None else None
        waiting = submission_order(tasks)  # not handed out yet, in the order they are handed out
        futures: dict[int, concurrent.futures.Future] = {}
        pages: list[int] = []  # executed notebooks whose page is not handed out yet, in the order they ended
        rendering: list[concurrent.futures.Future] = []
        noted: set[int] = set()  # executed notebooks already looked at for a page
        printed, stop, said = 0, False, first is None
        while (printed < len(tasks) or pages or not all(f.done() for f in rendering)) and not stop:
            blocked = first is not None and not first.done()
            busy = [*futures.values(), *rendering]
            running = sum(not f.done() for f in busy) + blocked
            ready = [
                i
                for i in waiting
                if not (blocked and needs_shared(tasks[i])) and (not runs_last(tasks[i]) or printed >= n_first)
            ]
            for i in ready[: max(0, jobs - running)]:
                waiting.remove(i)
                futures[i] = pool.submit(run_task, dataclasses.replace(tasks[i], html_dir=None))
                running += 1
            while pages and running < jobs:
                rendering.append(pool.submit(render_task, tasks[pages.pop(0)]))
                running += 1
            if not said and first.done():
                print(shared_line(first.result()), flush=True)
                said = True
            for i, f in futures.items():
                if f.done() and i not in noted and f.exception() is None:
                    noted.add(i)
                    if f.result().ok and tasks[i].html_dir is not None:
                        pages.append(i)
            while printed in futures and futures[printed].done():
                task, res = tasks[printed], futures[printed].result()
                if not is_user_error(res):
                    print(report_line(task, res), flush=True)
                results.append(res)
                printed += 1
                if stops_the_run(task, res, fail_fast):
                    stop = True
                    break
            if stop:
                break
            pending = [f for f in [*futures.values(), *rendering, first] if f is not None and not f.done()]
            if pending and not (pages and running < jobs):
                concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
        if stop:
            pool.shutdown(wait=True, cancel_futures=True)  # the ones already running finish
        for f in rendering:
            if not f.cancelled():
                f.result()  # a page that failed to render fails the run, as before
    return results


def shared_line(res: Result) -> str:
    """Return the printed line for the shared work."""
    return f"{'ok  ' if res.ok else 'note'} (shared work: justifications, static verdicts) {res.seconds:7.1f} s" + (
        f"  {res.error} (the notebooks compute it themselves)" if res.error else ""
    )


def main(argv: list[str] | None = None) -> int:
    """Run the notebooks; return the process exit status (0 all ok, 1 any failed, 2 a user error:
    a missing or bad parameter file, an unknown parameter, no notebook matched, a data-source error)."""
    args = parse_args(argv)
    spec = load_params(args.params)
    if not args.notebooks_dir.is_dir():
        raise UserError(
            f"notebook folder {args.notebooks_dir} does not exist; the notebooks are in "
            f"{paths.relpath(paths.NOTEBOOKS_DIR)}/"
        )
    notebooks = list_notebooks(args.notebooks_dir, args.only)
    if not notebooks:
        numbers = ", ".join(p.name[:2] for p in list_notebooks(args.notebooks_dir)) or "none"
        raise UserError(
            f"no notebook matched {' '.join(args.only or [])!r} in {paths.relpath(args.notebooks_dir)}/; "
            f"--only takes numbers or stems (there: {numbers})"
        )
    check_spec(spec, args.notebooks_dir, notebooks, args.params)
    problem = None if args.list else probe_sources(spec, notebooks)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    os.environ.update(environment.kernel_environment())
    # We pass only declared parameters; papermill's own check misses PEP 604 annotations.
    logging.getLogger("papermill").addFilter(lambda r: "Passed unknown parameter" not in r.getMessage())
    failed_dir = args.failed_dir or SCRATCH_DIR / "failed"
    runs, forced = plan_runs(spec, notebooks, args.params)
    notes = []  # printed when the notebooks start (after the go of --start-on-stdin)
    if forced and not args.list:
        notes.append(f"non-default parameters: outputs go to {forced}/ (the committed figures stay untouched)")
    in_place = args.in_place and not any(r[1] for r in runs)
    if args.in_place and not in_place and not args.list:
        notes.append(
            "--in-place refreshes the committed notebooks with their default parameters only; "
            f"executed copies go to {paths.relpath(SCRATCH_DIR / 'notebooks')}/ instead"
        )
    folder, html_dir, dest = paths.FIGURES_DIR, None, paths.NOTEBOOKS_DIR
    tasks: list[Task] = []
    for nb, params, dropped, resolved in runs:
        if args.list:
            print(f"{nb.stem}: {params}" + (f"  (not declared: {', '.join(dropped)})" if dropped else ""))
            continue
        if in_place:
            dest = nb
        else:
            out_root = args.output_dir or SCRATCH_DIR / "notebooks" / output_folder_of(resolved).name
            dest = out_root / nb.name
        folder = output_folder_of(resolved)
        html_dir = html_dir_for(resolved) if args.html else None
        note = f"  (ignored: {', '.join(dropped)})" if dropped else ""
        tasks.append(
            Task(
                nb,
                dest,
                params,
                args.kernel,
                failed_dir,
                args.timeout,
                html_dir_for(resolved) if args.html else None,
                note,
            )
        )
    if args.list:
        return 0
    start = time.perf_counter()
    shared = shared_for(runs) if args.notebooks_dir.resolve() == paths.NOTEBOOKS_DIR.resolve() else None
    with tempfile.TemporaryDirectory(prefix="ajb_kernels_") as sockets:
        os.environ[PRELOAD_BENCH_ENV] = preload_spec(runs) if os.environ.get("AJB_KERNEL_PRELOAD", "1") != "0" else ""
        server = start_kernel_server(Path(sockets))
        try:
            if args.jobs > 1:  # while the server imports: the workers are forked from here with these loaded
                preload_runner(html=args.html and pages_to_render(tasks))
            if args.start_on_stdin and sys.stdin.readline().strip() != "go":
                return 1  # the caller ended (its own error said why): nothing ran, nothing to say
            start = time.perf_counter() if args.start_on_stdin else start
            for line in notes:
                print(line, flush=True)
            results = run_tasks(tasks, args.jobs, args.fail_fast, shared)
        finally:
            stop_kernel_server(server)
            os.environ.pop(PRELOAD_BENCH_ENV, None)
    stopped = next((r for r in results if is_user_error(r)), None)
    if stopped is not None:
        kind, _, message = stopped.error.partition(": ")
        print(
            f"error: {with_hint(kind, message)} (in {stopped.name}; the run stopped there, as every other "
            "notebook would fail the same way)",
            file=sys.stderr,
        )
        return 2
    failed = [r.name for r in results if not r.ok]
    total = sum(r.seconds for r in results)
    print(
        f"{len(results) - len(failed)} ok, {len(failed)} failed, {total:.1f} s of notebook time "
        f"in {time.perf_counter() - start:.1f} s wall ({max(1, args.jobs)} worker(s))"
    )
    if failed:
        print(f"failed: {', '.join(failed)} (executed copies in {paths.relpath(failed_dir)}/)")
        return 1
    if not args.no_summary:
        print(f"executed notebooks: {paths.relpath(dest.parent)}/")
        print("\n".join(end_summary(folder, html_dir)))
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
