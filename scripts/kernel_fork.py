#!/usr/bin/env python
"""Notebook kernels forked from one process that has already imported the analysis stack.

    python scripts/kernel_fork.py serve SOCKET          # the server (started by run_notebooks.py)
    python -I -S scripts/kernel_fork.py launch SOCKET -f CONNECTION_FILE   # what the kernel manager runs

Every notebook's first cell imports pandas, matplotlib, seaborn and the package (2-3 s of CPU a
notebook), and every kernel imports ipykernel first (~0.5 s). The server pays these imports
once; a kernel is then a fork of it (copy-on-write), started in a few milliseconds, with the
working directory, environment and standard streams of the process the kernel manager launched.
That process (`launch`, standard library only) stands in for the kernel towards jupyter_client:
it lives as long as the kernel, forwards the signals it receives (interrupt, terminate) and
exits with the kernel's exit status; a kernel whose launcher is gone stops itself.

What a notebook computes does not change: the modules are the same files, imported in a fresh
interpreter with the kernels' environment (`environment.kernel_environment`), and nothing is
executed in the server beyond imports (no figure, no matplotlib backend) and, when run_notebooks
names it ($AJB_PRELOAD_BENCH), one read of the default load's tidy-frame cache entry, which each
kernel's first read of that same entry then takes instead of the disk (see `_preload_bench`;
AJB_KERNEL_PRELOAD=0 turns it off). The server
stops when its parent (run_notebooks.py) exits. POSIX only (fork); elsewhere, or with
AJB_KERNEL_FORK=0, run_notebooks.py starts kernels the usual way, and a launcher whose server is
gone (or cannot fork) becomes a kernel started the usual way itself.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import struct
import sys
import time

# Imported once by the server: what the notebooks' first cells import (ipykernel first).
PRELOAD: tuple[str, ...] = (
    "ipykernel.kernelapp",
    "ipykernel.ipkernel",
    "IPython.display",
    "numpy",
    "pandas",
    "pyarrow",
    "pyarrow.parquet",
    "scipy.stats",
    "matplotlib",
    "matplotlib.pyplot",
    "matplotlib.backends.backend_agg",  # what save_fig writes with (not the inline backend: the kernel selects it)
    "matplotlib.backends.backend_pdf",
    "fontTools.subset",
    "seaborn",
    "pandas.io.formats.style",  # report.latex_table
    "jinja2",
    "orjson",
    "ajb_utils",
    "ajb_utils.data",
    "ajb_utils.cache",
    "ajb_utils.stats",
    "ajb_utils.tables",
    "ajb_utils.figures",
    "ajb_utils.derivation",
    "ajb_utils.simulator",
    "ajb_utils.judge",
    "ajb_utils.report",
    "ajb_utils.paper",
    "ajb_utils.provenance",
    "ajb_utils.environment",
    "ajb_utils.scorecard",
    "ajb_utils.artifacts",
    "ajb_utils.annotation",
)
PRELOAD_BENCH_ENV = "AJB_PRELOAD_BENCH"  # JSON {"source", "revision"}: the default load every notebook starts with
HEADER = struct.Struct("!Q")  # length of the JSON request that follows the header
CONNECT_WAIT_S = 120.0  # how long a launcher waits for the server to finish its imports
SERVER_PID_ENV = "AJB_KERNEL_SERVER_PID"  # the server's process id: a launcher stops waiting when it is gone


class _KernelStandIn:
    """What `get_ipython()` returns while the server imports PRELOAD: an IPython inside a kernel."""

    kernel = None


def _recv_exactly(conn: socket.socket, n: int) -> bytes:
    """Return exactly n bytes read from conn (ConnectionError if it closes first)."""
    buf = bytearray()
    while len(buf) < n:
        chunk = conn.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("launcher closed the connection")
        buf += chunk
    return bytes(buf)


def _child(request: dict, fds: list[int], keep_closed: list[socket.socket]) -> None:
    """Become the kernel of one request (never returns)."""
    code = 1
    try:
        for s in keep_closed:
            s.close()
        for target, fd in enumerate(fds[:3]):
            os.dup2(fd, target)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        import importlib.util

        spec = importlib.util.find_spec("ipykernel_launcher")
        sys.argv = [spec.origin if spec and spec.origin else "ipykernel_launcher", *request["argv"][1:]]
        import random

        random.seed()  # as a fresh interpreter: unseeded generators do not repeat across kernels
        if "numpy" in sys.modules:
            sys.modules["numpy"].random.seed()
        _watch_launcher(int(request["launcher"]))
        from ipykernel import kernelapp

        # the one default ipykernel reads from the environment when imported (here: in the server)
        kernelapp.IPKernelApp.launch_instance(parent_handle=int(os.environ.get("JPY_PARENT_PID") or 0))
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # the traceback goes to the launcher's stderr
        import traceback

        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _watch_launcher(pid: int) -> None:
    """Start a daemon thread that ends this kernel when its launcher process is gone (killed)."""
    import threading

    def watch() -> None:
        while True:
            time.sleep(0.5)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:
                pass

    threading.Thread(target=watch, name="ajb-launcher-watch", daemon=True).start()


class _NoEntry(Exception):
    """The load to preload has no tidy-frame cache entry yet (the server never parses files)."""


def _preload_bench(spec: dict) -> None:
    """Read the tidy-frame cache entry of `load_bench(spec["source"], revision=spec["revision"])` once,
    here; returns None. In each kernel the first read of that entry (the notebook's own load_bench,
    which still keys it by the inputs' content, so a changed input is another entry) takes these
    frames (copy-on-write, as read from the disk here) instead of reading them again; later reads
    go to the disk. Nothing is preloaded when the entry does not exist or the load fails."""
    import contextlib
    import io

    from ajb_utils import cache
    from ajb_utils.data import load_bench

    read, kept = cache.read_entry, {}

    def remember(folder):  # type: ignore[no-untyped-def]
        """Return the entry read from the disk, kept for the kernels; raise _NoEntry without one."""
        hit = read(folder)
        if hit is None:
            raise _NoEntry
        kept[folder] = hit
        return hit

    cache.read_entry = remember
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            load_bench(spec["source"], revision=spec.get("revision"))
    except Exception:  # noqa: BLE001 - the kernels load it themselves (and report what fails)
        kept.clear()
    finally:
        cache.read_entry = read
    if kept:

        def once(folder):  # type: ignore[no-untyped-def]
            """Return the preloaded entry the first time this kernel reads it, else read the disk."""
            hit = kept.pop(folder, None)
            return hit if hit is not None else read(folder)

        cache.read_entry = once


def serve(path: str) -> int:
    """Import PRELOAD, then fork a kernel for every launcher that connects to `path`; return 0 when the parent is gone."""
    if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
        del sys.path[0]  # as `python -m ipykernel_launcher`: no script folder on the path
    import builtins
    import importlib

    # Imported inside a kernel, a module that asks whether it runs in one must hear yes (pandas sets
    # display.max_columns to 20 in a kernel, to the terminal's width elsewhere): IPython's get_ipython
    # stand-in while importing, with the `kernel` attribute such checks look for; the kernel's shell
    # installs the real one.
    builtins.get_ipython = lambda: _KernelStandIn()  # type: ignore[attr-defined]
    try:
        for name in PRELOAD:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - the kernel imports it itself (and reports what fails)
                pass
    finally:
        del builtins.get_ipython  # type: ignore[attr-defined]
    if os.environ.get(PRELOAD_BENCH_ENV):
        _preload_bench(json.loads(os.environ[PRELOAD_BENCH_ENV]))
    import gc

    gc.collect()
    gc.freeze()  # the preloaded objects stay shared with the kernels (no copy on the collector's writes)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stopped by run_notebooks.py: clean up the socket
    parent = os.getppid()
    tmp = f"{path}.{os.getpid()}"
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(tmp)
    srv.listen(64)
    os.replace(tmp, path)  # the path appears only once the server accepts connections
    launchers: dict[int, socket.socket] = {}  # kernel pid -> its launcher's connection
    try:
        while os.getppid() == parent:
            ready, _, _ = select.select([srv], [], [], 0.05)
            if ready:
                conn, _ = srv.accept()
                try:
                    head, fds, _, _ = socket.recv_fds(conn, HEADER.size, 3)
                    request = json.loads(_recv_exactly(conn, HEADER.unpack(head)[0]))
                except (OSError, ValueError, ConnectionError):
                    conn.close()
                    continue
                pid = os.fork()
                if pid == 0:
                    _child(request, fds, [srv, conn, *launchers.values()])
                for fd in fds:
                    os.close(fd)
                conn.sendall(f"{pid}\n".encode())
                launchers[pid] = conn
            while launchers:
                try:
                    pid, status = os.waitpid(-1, os.WNOHANG)
                except ChildProcessError:
                    break
                if pid == 0:
                    break
                conn = launchers.pop(pid, None)
                if conn is not None:
                    try:
                        conn.sendall(f"exit {os.waitstatus_to_exitcode(status)}\n".encode())
                    except OSError:
                        pass
                    conn.close()
    finally:
        srv.close()
        try:
            os.unlink(path)
        except OSError:
            pass
    return 0


def _server_alive() -> bool:
    """Return False when the server process named by SERVER_PID_ENV is known to be gone."""
    pid = os.environ.get(SERVER_PID_ENV, "")
    if not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def _usual_kernel(argv: list[str]) -> None:
    """Replace this process by a kernel started the usual way (`python -m ipykernel_launcher argv`);
    the fallback when the server is gone or cannot fork. Never returns."""
    print("kernel_fork: no kernel server; starting the kernel the usual way", file=sys.stderr)
    os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", *argv])


def launch(path: str, argv: list[str]) -> int:
    """Ask the server at `path` for a kernel with `argv`; return its exit status once it ends (without
    a server, or if it cannot fork, this process becomes a kernel started the usual way)."""
    deadline = time.monotonic() + CONNECT_WAIT_S
    while True:
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            conn.connect(path)
            break
        except (FileNotFoundError, ConnectionRefusedError):
            conn.close()
            if time.monotonic() > deadline or not _server_alive():
                _usual_kernel(argv)
            time.sleep(0.05)
    body = json.dumps(
        {"argv": ["ipykernel_launcher", *argv], "cwd": os.getcwd(), "env": dict(os.environ), "launcher": os.getpid()}
    ).encode()
    try:
        socket.send_fds(conn, [HEADER.pack(len(body))], [0, 1, 2])
        conn.sendall(body)
        reader = conn.makefile("r")
        first = reader.readline()
    except OSError:
        first = ""
    if not first.strip().isdigit():
        conn.close()
        _usual_kernel(argv)
    pid = int(first)

    def forward(signum: int, _frame: object) -> None:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, forward)
    last = reader.readline().split()
    return int(last[1]) if len(last) == 2 and last[0] == "exit" else 1


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "serve":
        sys.exit(serve(sys.argv[2]))
    if len(sys.argv) >= 3 and sys.argv[1] == "launch":
        sys.exit(launch(sys.argv[2], sys.argv[3:]))
    print(__doc__.splitlines()[2].strip(), file=sys.stderr)
    sys.exit(2)
