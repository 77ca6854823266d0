"""Reading one config's bytes into rows: the JSON-lines files directly, by `ajb_utils.decode`
(judge files in a reader process on the other core), or through `datasets.load_dataset`, whose
rows are decoded from their JSON lines the same way (and which falls back to the files when
Arrow type inference fails, saying so). Whatever the engine, the result is a `Raw` of the same
shape; what the rows mean is decided later, once (`ajb_utils.calls`, `build`).

A file that ends inside a line, or a config with fewer rows than its card declares, is an
IncompleteDataError naming the file: a malformed line in the middle is a counted exclusion, but a
cut file silently loses every row after the cut."""

from __future__ import annotations

import logging
import os
import pickle
import queue
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import pandas as pd
from orjson import loads as _loads

from ajb_utils import cache as bench_cache
from ajb_utils import decode
from ajb_utils.data.bench import BenchDataError, IncompleteDataError
from ajb_utils.data.source import Card, Source, fetch

log = logging.getLogger("ajb_utils.data")

_FIELDS = {"main": decode.MAIN_FIELDS, "generator": decode.GENERATOR_FIELDS}


@dataclass
class Raw:
    """One config as read: `rows` holds nested values (dicts, lists or JSON strings) or, for a
    judge config, its flat columns (`decode.judge_columns`: `cond.metric.field` numbers); `bad`
    the malformed lines' reasons; `unknown` the condition-like columns that are not known
    conditions; `n` rows in the files."""

    rows: pd.DataFrame
    bad: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        """Return the number of lines read (valid and malformed)."""
        return len(self.rows) + len(self.bad)


def _cut(path: Path, what: str) -> IncompleteDataError:
    """Return the error for a file that ends inside a line."""
    return IncompleteDataError(
        f"{path}: the file ends inside a line ({what}), so it is incomplete: download it again "
        "(for the hub, delete it from the hub cache; for a judge run, rerun it: it resumes)"
    )


# --------------------------------------------------------------------------------------------
# datasets
# --------------------------------------------------------------------------------------------


def _datasets_cache_dir(src: Source, files: list[str]) -> Path:
    """Return where `datasets` keeps its Arrow copy of a config: for a local folder a directory
    keyed by the folder's path and the content of the config's files (datasets itself keys local
    folders by their basename only, and would serve stale or foreign data)."""
    if not src.is_local:
        return bench_cache.cache_root() / "datasets"  # hub data: datasets keys it by commit
    root = Path(src.location)
    return bench_cache.datasets_cache_dir(src.location, [root / "README.md", *(root / f for f in files)])


def dataset_table(src: Source, config: str, revision: str | None, files: list[str]) -> Any:
    """Return a config's Arrow table through `datasets.load_dataset` (cached by content)."""
    import datasets

    datasets.disable_progress_bars()
    datasets.logging.set_verbosity_error()
    ds = datasets.load_dataset(
        src.location, config, split="train", revision=revision, cache_dir=str(_datasets_cache_dir(src, files))
    )
    return ds.data.table


def _pylist(column: Any) -> list[Any]:
    """Return an Arrow column as Python values, decoding datasets' Json feature (the JSON text
    `datasets` stores for a column whose type changes between rows) back to the values."""
    values = column.to_pylist()
    if getattr(column.type, "extension_name", None) == "arrow.json":
        return [None if v is None else _loads(v) for v in values]
    return values


# --------------------------------------------------------------------------------------------
# One config, whatever the engine
# --------------------------------------------------------------------------------------------


def _checked(raw: Raw, config: str, card: Card, where: list[str]) -> Raw:
    """Return `raw` after checking its row count against the card's declared count."""
    declared = card.rows.get(config)
    if declared is not None and raw.n < declared:
        raise IncompleteDataError(
            f"config {config!r} ({', '.join(where)}) has {raw.n} rows but its card declares "
            f"{declared}: the download is incomplete; download it again"
        )
    return raw


def read_config(
    src: Source,
    card: Card,
    config: str,
    revision: str | None,
    engine: str,
    messages: list[str],
    kind: str = "main",
    justifications: bool | str = False,
    reader: JudgeReader | None = None,
) -> Raw:
    """Return the rows of one config of `kind` ("main", "generator" or "judge"). engine
    "datasets" reads through `datasets.load_dataset` and falls back to the files on inference
    errors (saying so); "json" reads the files (`read_files`)."""
    files = card.files.get(config)
    if not files:
        raise BenchDataError(f"config {config!r} has no data files in the README header")
    if engine == "datasets":
        try:
            table = dataset_table(src, config, revision, files)
        except Exception as exc:  # Arrow inference / cast failures, missing optional deps
            msg = (
                f"config {config!r}: datasets could not infer Arrow types "
                f"({type(exc).__name__}); read the JSON-lines file directly instead"
            )
            messages.append(msg)
            log.warning(msg)
        else:
            rows = pd.DataFrame({c: _pylist(table.column(c)) for c in table.column_names})
            return _checked(read_files([json_lines(rows)], kind, justifications), config, card, files)
    paths = [fetch(src, rel, revision) for rel in files]
    return _checked(read_files(paths, kind, justifications, reader), config, card, files)


def read_files(
    sources: list[decode.Source],
    kind: str = "main",
    justifications: bool | str = False,
    reader: JudgeReader | None = None,
) -> Raw:
    """Return the rows of JSON-lines files (or lines) by `ajb_utils.decode`: a judge config's flat
    columns (one file by the `reader` process when given), the fields the loader reads of others.
    `justifications`: True keeps a judge config's rationales too, "notes" keeps only them."""
    if kind != "judge":
        return _raw(decode.row_columns(sources, _FIELDS[kind]))
    mode = justifications if isinstance(justifications, str) else "all" if justifications else "scores"
    one = reader and len(sources) == 1 and not isinstance(sources[0], list)
    return _raw(reader.take(sources[0], mode) if one else decode.decoded(sources, mode))


def json_lines(rows: pd.DataFrame) -> list[bytes]:
    """Return a frame of rows of Python values (`datasets`' Arrow rows, a static judge's rows) as
    JSON lines, to be decoded as the files are (NaN as null)."""
    option = orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_NON_STR_KEYS
    return [orjson.dumps(r, option=option) + b"\n" for r in rows.to_dict("records")]


def _raw(columns: decode.Columns) -> Raw:
    """Return decoded columns as a Raw (a judge config's id, generator and difficulty, given as
    (codes, uniques), as categoricals); IncompleteDataError when a file ends inside a line."""
    if columns["cut"] is not None:
        raise _cut(Path(columns["cut"][0]), columns["cut"][1])
    rows = {k: v for k, v in columns.items() if k not in ("bad", "cut", "unknown")}
    rows.update({k: pd.Categorical.from_codes(*v, validate=False) for k, v in rows.items() if isinstance(v, tuple)})
    return Raw(pd.DataFrame(rows), columns["bad"], columns.get("unknown", []))


class JudgeReader:
    """Judge files decoded in a reader process (`python -m ajb_utils.decode`) on the other core
    while this one builds the generations; `take(path, mode)` returns them in the order given
    (`jobs`: (path, mode) pairs, mode as `decode.decoded`'s). When the process cannot start or
    fails, a file is decoded here instead (slower, the same columns); AJB_DECODE_PROCESS=0
    decodes every file here."""

    def __init__(self, jobs: list[tuple[Path, str]]) -> None:
        self.order = [(str(p), mode) for p, mode in jobs]
        self.done: queue.Queue[tuple[str, decode.Columns | None] | None] = queue.Queue()
        self.proc: subprocess.Popen[bytes] | None = None
        if not jobs or os.environ.get("AJB_DECODE_PROCESS") == "0":
            return
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(Path(decode.__file__).parents[1]), env.get("PYTHONPATH", "")])
        self.errors = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "ajb_utils.decode"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.errors,
                env=env,
            )
            self.proc.stdin.write("".join(f"{m} {p}\n" for p, m in self.order).encode())  # type: ignore[union-attr]
            self.proc.stdin.close()  # type: ignore[union-attr]
        except OSError as exc:
            log.warning("judge reader process not started (%s); reading here", exc)
            self.proc = None
            return
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        """Put each result the process writes on the queue, then None (end or failure)."""
        try:
            while True:
                self.done.put(pickle.load(self.proc.stdout))  # type: ignore[union-attr]
        except Exception:  # EOFError at the end; a crash or a short write
            self.done.put(None)

    def take(self, path: Path, mode: str) -> decode.Columns | None:
        """Return `decode.decoded(path, mode)`, the next file of the order given."""
        expected = bool(self.order) and self.order[0] == (str(path), mode)
        if expected:
            self.order.pop(0)
        got = self.done.get() if self.proc is not None and expected else None
        if got is not None and got[0] == str(path):
            return got[1]
        if self.proc is not None:
            self._stop("the judge reader process ended early")
        return decode.decoded(path, mode)

    def _stop(self, why: str) -> None:
        """End the reader process (saying why, with its error output, when it failed)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        proc.kill()
        proc.wait()
        proc.stdout.close()  # type: ignore[union-attr]
        self.errors.seek(0)
        err = self.errors.read().decode("utf-8", "replace").strip().splitlines()
        log.warning("%s (%s); reading judge files in this process", why, err[-1] if err else f"exit {proc.returncode}")

    def close(self) -> None:
        """Wait for the reader process to end (killed if files are left unread); close its pipe
        and error file."""
        proc, self.proc = self.proc, None
        if proc is not None:
            if self.order:
                proc.kill()
            proc.wait()
            proc.stdout.close()  # type: ignore[union-attr]
        if hasattr(self, "errors"):
            self.errors.close()

    def __enter__(self) -> JudgeReader:
        """Return the reader (a context manager that ends the process on exit)."""
        return self

    def __exit__(self, *exc: object) -> None:
        """End the reader process."""
        self.close()
