"""The built bench: a source's tidy frames as Parquet in a folder named by what was read (`build_key`).

`build_bench` writes the frames once, `load_bench` reads them memory-mapped. The key hashes what the frames
depend on, never where the source lies; an input file's SHA-256 is remembered with its stat signature. The
folder is `data/cache/` or `$AJB_CACHE_DIR`, always safe to delete (docs/DECISIONS.md, "Caches are keyed by content").
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ajb_utils import __version__
from ajb_utils.paths import CACHE_DIR

CACHE_ENV = "AJB_CACHE_DIR"
FORMAT = 4  # bump when the on-disk layout below changes (4: every object column as JSON text)
FRAMES = ("records", "generations", "verdicts", "exclusions", "judges")
RECORD_FRAMES = ("records", "generations", "verdicts")  # the frames with a row per record (or more)
BENCH_DIR = "bench"
DIGEST = "sha256"  # the hash of every content key; it names the memo file, so a memo of another hash is never read
DIGESTS_FILE = f"file_digests.{DIGEST}.json"
FREE_TEXT = ("justification",)  # categoricals of free text: an Arrow dictionary column of their own
PACKAGE_DIR = Path(__file__).resolve().parent


def cache_root() -> Path:
    """Return the cache folder: $AJB_CACHE_DIR when set, else data/cache/."""
    return Path(os.environ.get(CACHE_ENV) or CACHE_DIR).expanduser()


def _read_dict(path: Path) -> dict[str, Any] | None:
    """Return the JSON object of a file (None when it is absent or not a JSON object)."""
    try:
        value = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _signature(file: str | Path | int) -> list[int] | None:
    """Return the stat fields of a file (path or descriptor) that change with its content; None if absent."""
    try:
        st = os.stat(file)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def digest(data: bytes) -> str:
    """Return the SHA-256 hex digest of bytes (the hash the hub names its large files by)."""
    return hashlib.new(DIGEST, data).hexdigest()


def hash_file(path: Path) -> str:
    """Return the SHA-256 hex digest of a file's bytes."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, DIGEST).hexdigest()


def _remember(found: dict[str, list[Any]]) -> None:
    """Add {path: [signature..., digest]} to the remembered digests' file, replaced atomically (if it is writable)."""
    path = cache_root() / DIGESTS_FILE
    memo = _read_dict(path) or {}
    if all(memo.get(name) == entry for name, entry in found.items()):
        return
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(json.dumps(memo | found).encode())
            os.replace(tmp, path)
        finally:
            Path(tmp).unlink(missing_ok=True)


def read_input(path: Path) -> bytes:
    """Return the bytes of an input file, their digest remembered for `file_digests` if the file did not change."""
    with open(path, "rb") as fh:
        sig = _signature(fh.fileno())
        data = fh.read()
    if _signature(path) == sig:
        _remember({str(Path(path).resolve()): [*sig, digest(data)]})
    return data


def file_digests(paths: Iterable[Path], read: bool = True) -> dict[str, str] | None:
    """Return {absolute path: content digest} ("missing" for absent files): the remembered digest while the file's
    stat signature is unchanged, else the file hashed and remembered (with `read` False: None instead)."""
    memo = _read_dict(cache_root() / DIGESTS_FILE) or {}
    out: dict[str, str] = {}
    for p in paths:
        name = str(Path(p).resolve())
        sig = _signature(name)
        if sig is None:
            out[name] = "missing"
        elif memo.get(name, [])[:4] == sig:
            out[name] = memo[name][4]
        elif not read:
            return None
        else:
            out[name] = hash_file(Path(name))
            if _signature(name) == sig:  # unchanged while hashed: safe to remember
                _remember({name: [*sig, out[name]]})
    return out


def signatures(paths: Iterable[Path]) -> dict[str, list[int] | None]:
    """Return each file's stat signature (None when absent), to detect changes during a load."""
    return {str(Path(p).resolve()): _signature(p) for p in paths}


def code_fingerprint(package: Path = PACKAGE_DIR) -> str:
    """Return a hash of every Python source file of the `ajb_utils` package (named by its place in it)."""
    h = hashlib.sha256()
    for file in sorted(package.rglob("*.py")):
        h.update(file.relative_to(package).as_posix().encode() + b"\0" + file.read_bytes())
    return h.hexdigest()


def build_key(parts: dict[str, Any], files: dict[str, Path], read: bool) -> str | None:
    """Return the key of a build: a hash of its parts (hub commit, runs' meta, arguments), its input files' content
    (`file_digests`: a run's hashed if need be, the source's only if `read`, else None), code and library versions."""
    runs = {name: path for name, path in files.items() if name.startswith("runs/")}  # small, rewritten by the runner
    digests = file_digests([p for n, p in files.items() if n not in runs], read=read)
    if digests is None:
        return None
    digests |= file_digests(runs.values())
    inputs = {name: digests[str(path.resolve())] for name, path in files.items()}
    versions = {"ajb_utils": __version__, "pandas": pd.__version__, "pyarrow": pa.__version__, "numpy": np.__version__}
    key = {"format": FORMAT, **versions, **parts, "inputs": inputs, "loader": code_fingerprint()}
    return digest(json.dumps(key, sort_keys=True).encode())


def write_frame(frame: pd.DataFrame, folder: Path, name: str) -> dict[str, Any]:
    """Write one frame to `folder` as name.parquet and return its layout: a categorical of names as its codes
    (categories and order in the layout, so unused ones and the paper's order survive), the rationales as a
    dictionary column, an object column (calls, tools, str-or-None) as each cell's JSON text (NaN: a null)."""
    if not all(isinstance(c, str) for c in frame.columns) or frame.columns.duplicated().any():
        raise ValueError(f"frame {name!r}: column names must be unique strings to be cached")
    columns: dict[str, pa.Array] = {}
    layout: dict[str, Any] = {"columns": list(frame.columns), "categories": {}, "ordered": {}, "json": []}
    for col, s in frame.items():
        if isinstance(s.dtype, pd.CategoricalDtype) and col not in FREE_TEXT:
            columns[col] = pa.array(s.cat.codes.to_numpy())
            layout["categories"][col] = s.cat.categories.tolist()
            layout["ordered"][col] = bool(s.cat.ordered)
        elif s.dtype == object:
            columns[col] = pa.array([None if v != v else json.dumps(v) for v in s.tolist()], pa.string())
            layout["json"].append(col)
        else:
            columns[col] = pa.Array.from_pandas(s)
    pq.write_table(pa.table(columns), folder / f"{name}.parquet", compression="zstd")  # smaller than snappy
    return layout


def _decoded(column: pa.ChunkedArray, col: str, layout: dict[str, Any]) -> Any:
    """Return a Parquet column as the frame's column (`write_frame` read backwards)."""
    if col in layout["categories"]:
        categories = pd.Index(layout["categories"][col])
        return pd.Categorical.from_codes(column.to_numpy(), categories, layout["ordered"][col], validate=False)
    if col in layout["json"]:  # the whole column's JSON text decoded at once (a null cell: NaN)
        cells = column.fill_null("NaN").to_pylist()
        return pd.Series(json.loads(f"[{','.join(cells)}]"), dtype=object)
    return column.to_pandas()


def read_frame(
    folder: Path, name: str, layout: dict[str, Any], drop: tuple[str, ...] = (), ids: list[str] | None = None
) -> pd.DataFrame:
    """Return one frame written by `write_frame` (memory-mapped), without the columns in `drop` (not read)
    and, given `ids`, with only the rows of those records (filtered as the file is read)."""
    columns = [c for c in layout["columns"] if c not in drop]
    if ids is not None and "id" in layout["categories"]:  # stored as codes
        code = {v: k for k, v in enumerate(layout["categories"]["id"])}
        ids = [code[i] for i in ids if i in code]
    path = folder / f"{name}.parquet"
    # the ids typed as the stored column, so that none (an empty list) is a filter too
    rows = None if ids is None else pc.field("id").isin(pa.array(ids, pq.read_schema(path).field("id").type))
    table = pq.read_table(path, memory_map=True, columns=columns, read_dictionary=FREE_TEXT, filters=rows)
    values = {c: _decoded(table.column(c), c, layout) for c in columns}
    return pd.DataFrame(values, index=pd.RangeIndex(table.num_rows), columns=columns, copy=False)


def build_dir(key: str) -> Path:
    """Return the folder of one build: bench/<key prefix> (the key names the content)."""
    return cache_root() / BENCH_DIR / key[:32]


def build_meta(folder: Path) -> dict[str, Any] | None:
    """Return the meta of a complete build (written last, so its presence means complete), or None."""
    return _read_dict(folder / "meta.json")


def read_build(
    folder: Path, drop: dict[str, tuple[str, ...]] | None = None, ids: list[str] | None = None
) -> tuple[dict[str, pd.DataFrame], dict[str, Any]]:
    """Return (frames, meta) of a complete build, each frame without its columns in `drop`, the record frames
    only of `ids` when given."""
    meta = build_meta(folder)
    if meta is None:
        raise FileNotFoundError(f"{folder} holds no complete build")
    frames: dict[str, pd.DataFrame] = {}
    for name in FRAMES:
        rows = ids if name in RECORD_FRAMES else None
        frames[name] = read_frame(folder, name, meta["layouts"][name], (drop or {}).get(name, ()), rows)
    return frames, meta


def write_build(folder: Path, frames: dict[str, pd.DataFrame], meta: dict[str, Any]) -> bool:
    """Write a build atomically (a temporary folder renamed into place; another process's first write wins) and
    remove the older builds of the same source and arguments; return True if written."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        layouts = {name: write_frame(frame, tmp, name) for name, frame in frames.items()}
        (tmp / "meta.json").write_text(json.dumps({**meta, "layouts": layouts}, indent=2))
        try:
            os.rename(tmp, folder)
        except OSError:  # written meanwhile by a concurrent load
            return False
    finally:
        shutil.rmtree(tmp, ignore_errors=True)  # left only if not renamed
    for other in folder.parent.iterdir():  # builds of superseded inputs or code
        old = None if other == folder or other.name.startswith(".") else build_meta(other)
        if old and old.get("location") == meta.get("location") and old.get("args") == meta.get("args"):
            shutil.rmtree(other, ignore_errors=True)
    return True
