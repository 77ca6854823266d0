"""The built bench: a source's tidy frames kept as Parquet in a folder named by what was read.

`data.build_bench` writes the Bench's frames here once; `load_bench` reads them back memory-mapped
(the rationales only when asked). The folder's name hashes what the frames depend on, never where
the source lies: each input file's SHA-256 (or the hub repo and commit), the fields of a run's meta
that shape the frames, the load arguments, the package and library versions and the package's
source (`code_fingerprint`). A file's digest is taken from the bytes the build reads (`read_input`)
and remembered with its (size, mtime_ns, ctime_ns, inode), so a later load finds its build without
reading the files. The folder is `data/cache/` or `$AJB_CACHE_DIR`; deleting it is always safe.
(docs/DECISIONS.md, "Caches are keyed by content".)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
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

log = logging.getLogger("ajb_utils.cache")

CACHE_ENV = "AJB_CACHE_DIR"
FORMAT = 3  # bump when the on-disk layout below changes (3: no pickle, rationales dictionary-encoded)
FRAMES = ("records", "generations", "verdicts", "exclusions", "judges")
RECORD_FRAMES = ("records", "generations", "verdicts")  # the frames with a row per record (or more)
BENCH_DIR = "bench"
DIGEST = "sha256"  # the hash of every content key; it names the memo file, so a memo of another hash is never read
DIGESTS_FILE = f"file_digests.{DIGEST}.json"


def cache_root() -> Path:
    """Return the cache folder: $AJB_CACHE_DIR when set, else data/cache/."""
    env = os.environ.get(CACHE_ENV)
    return Path(env).expanduser() if env else CACHE_DIR


# --------------------------------------------------------------------------------------------
# Content hashes of input files
# --------------------------------------------------------------------------------------------


def _signature(st: os.stat_result) -> list[int]:
    """Return the stat fields that change whenever a file's content may have changed."""
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def digest(data: bytes) -> str:
    """Return the SHA-256 hex digest of bytes (the hash the hub names its large files by)."""
    return hashlib.new(DIGEST, data).hexdigest()


def hash_file(path: Path) -> str:
    """Return the SHA-256 hex digest of a file's bytes."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, DIGEST).hexdigest()


def _read_json(path: Path) -> Any:
    """Return the JSON value of a file (None when it is absent or not JSON)."""
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None


def _read_digests(root: Path) -> dict[str, list[Any]]:
    """Return the remembered {path: [size, mtime_ns, ctime_ns, inode, digest]} ({} if none)."""
    memo = _read_json(root / DIGESTS_FILE)
    return memo if isinstance(memo, dict) else {}


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file and an atomic rename; returns None."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _remember(found: dict[str, list[Any]], root: Path | None = None) -> None:
    """Add {path: [signature..., digest]} to the remembered digests (a read-only cache folder
    only costs the hashing next time)."""
    root = root or cache_root()
    memo = _read_digests(root)
    if any(memo.get(name) != entry for name, entry in found.items()):
        with contextlib.suppress(OSError):
            _atomic_write_bytes(root / DIGESTS_FILE, json.dumps(memo | found).encode())


def read_input(path: Path) -> bytes:
    """Return the bytes of an input file, remembering their digest for `file_digests` (kept
    only when the file did not change while read)."""
    with open(path, "rb") as fh:
        sig = _signature(os.fstat(fh.fileno()))
        data = fh.read()
    if _signature(Path(path).stat()) == sig:
        _remember({str(Path(path).resolve()): [*sig, digest(data)]})
    return data


def file_digests(paths: Iterable[Path], root: Path | None = None, read: bool = True) -> dict[str, str] | None:
    """Return {absolute path: content digest} ("missing" for absent files): the remembered
    digest while the file's size, mtime, ctime and inode are unchanged, else the file hashed
    (remembered); with `read` False, None when a file would have to be read."""
    memo = _read_digests(root or cache_root())
    out: dict[str, str] = {}
    found: dict[str, list[Any]] = {}
    for p in paths:
        name = str(Path(p).resolve())
        try:
            sig = _signature(Path(name).stat())
        except OSError:
            out[name] = "missing"
            continue
        if memo.get(name, [])[:4] == sig:
            out[name] = memo[name][4]
        elif not read:
            return None
        else:
            out[name] = hash_file(Path(name))
            if _signature(Path(name).stat()) == sig:  # unchanged while hashed: safe to remember
                found[name] = [*sig, out[name]]
    if found:
        _remember(found, root)
    return out


def signatures(paths: Iterable[Path]) -> dict[str, list[int] | None]:
    """Return each file's stat signature (None when absent), to detect changes during a load."""
    out: dict[str, list[int] | None] = {}
    for p in paths:
        try:
            out[str(Path(p).resolve())] = _signature(Path(p).stat())
        except OSError:
            out[str(Path(p).resolve())] = None
    return out


# --------------------------------------------------------------------------------------------
# The loader's own code
# --------------------------------------------------------------------------------------------


PACKAGE_DIR = Path(__file__).resolve().parent


def code_fingerprint(package: Path = PACKAGE_DIR) -> str:
    """Return a hash of every Python source file of the `ajb_utils` package (named by its place in it)."""
    h = hashlib.sha256()
    for file in sorted(package.rglob("*.py")):
        h.update(file.relative_to(package).as_posix().encode() + b"\0" + file.read_bytes())
    return h.hexdigest()


def bench_key(parts: dict[str, Any]) -> str:
    """Return the cache key of a load: a hash of its parts plus the package and library versions."""
    full = {
        "format": FORMAT,
        "ajb_utils": __version__,
        "pandas": pd.__version__,
        "pyarrow": pa.__version__,
        "numpy": np.__version__,
        **parts,
    }
    return digest(json.dumps(full, sort_keys=True).encode())


def build_key(parts: dict[str, Any], files: dict[str, Path], read: bool) -> str | None:
    """Return the key of a build: its parts, its input files' content (`file_digests`; a run's file
    hashed when its digest is not known, the source's files only when `read`: else None) and the
    package's code (`code_fingerprint`)."""
    runs = {name: path for name, path in files.items() if name.startswith("runs/")}  # small, rewritten by the runner
    digests = file_digests([p for n, p in files.items() if n not in runs], read=read)
    if digests is None:
        return None
    digests |= file_digests(runs.values())
    inputs = {name: digests[str(path.resolve())] for name, path in files.items()}
    return bench_key({**parts, "inputs": inputs, "loader": code_fingerprint()})


# --------------------------------------------------------------------------------------------
# Frames on disk
# --------------------------------------------------------------------------------------------


FREE_TEXT = ("justification",)  # categoricals of free text: an Arrow dictionary column of their own


def _is_text(values: pd.Series) -> bool:
    """Return True when every value of an object column is a str or None (Parquet-exact)."""
    return all(v is None or type(v) is str for v in values.to_numpy())


def _json_text(values: pd.Series) -> pa.Array:
    """Return a column of JSON values (call lists, tool schemas) as an Arrow column of their JSON
    text (a NaN cell as a null, a None as the text null)."""
    cells = values.tolist()
    return pa.array([None if v != v else json.dumps(v) for v in cells], pa.string())


def _split_frame(frame: pd.DataFrame) -> tuple[pa.Table, dict[str, Any]]:
    """Return (an Arrow table, the column layout) of a frame.

    Categoricals of names are written as their integer codes (the categories and their order go
    to the layout, so unused categories and the paper's order survive); the rationales as one
    dictionary-encoded column; object columns that hold only strings or None as text; any other
    object column (call lists, tool schemas) as the JSON text of each value.
    """
    flat: dict[str, Any] = {}
    layout: dict[str, Any] = {"columns": [], "categories": {}, "ordered": {}, "json": [], "object_text": []}
    for col in frame.columns:
        s = frame[col]
        layout["columns"].append(col)
        if isinstance(s.dtype, pd.CategoricalDtype) and col in FREE_TEXT:
            flat[col] = pa.DictionaryArray.from_pandas(s.array)
        elif isinstance(s.dtype, pd.CategoricalDtype):
            flat[col] = pa.array(s.cat.codes.to_numpy())
            layout["categories"][col] = s.cat.categories.tolist()
            layout["ordered"][col] = bool(s.cat.ordered)
        elif s.dtype == object and not _is_text(s):
            flat[col] = _json_text(s)
            layout["json"].append(col)
        elif s.dtype == object:  # str-or-None values in an object column stay an object column
            flat[col] = pa.array(s.to_numpy(), pa.string())
            layout["object_text"].append(col)
        else:
            flat[col] = pa.Array.from_pandas(s)
    return pa.table(flat) if flat else pa.table({}), layout


def write_frame(frame: pd.DataFrame, folder: Path, name: str) -> dict[str, Any]:
    """Write one frame to `folder` as name.parquet; return its layout."""
    if not all(isinstance(c, str) for c in frame.columns) or frame.columns.duplicated().any():
        raise ValueError(f"frame {name!r}: column names must be unique strings to be cached")
    table, layout = _split_frame(frame.reset_index(drop=True))
    layout["categories"] = {c: list(map(_plain, v)) for c, v in layout["categories"].items()}
    pq.write_table(table, folder / f"{name}.parquet", compression="zstd")  # smaller than snappy, as fast to read
    layout["rows"] = len(frame)
    return layout


def _plain(value: Any) -> Any:
    """Return a category value as a JSON-able Python scalar."""
    return value.item() if isinstance(value, np.generic) else value


def _decoded(column: pa.ChunkedArray, col: str, layout: dict[str, Any]) -> Any:
    """Return a Parquet column as the frame's column (`_split_frame` read backwards)."""
    if col in layout["categories"]:
        codes = column.to_numpy()
        return pd.Categorical.from_codes(
            codes, categories=pd.Index(layout["categories"][col]), ordered=layout["ordered"][col], validate=False
        )
    if col in layout["json"]:  # the whole column's JSON text decoded at once (a null cell: NaN)
        cells = pc.fill_null(column, "NaN").to_pylist()
        return pd.Series(json.loads(f"[{','.join(cells)}]"), dtype=object)
    if col in layout["object_text"]:
        return pd.Series(column.to_numpy(zero_copy_only=False), dtype=object)
    return column.to_pandas()


def read_frame(
    folder: Path, name: str, layout: dict[str, Any], drop: tuple[str, ...] = (), ids: list[str] | None = None
) -> pd.DataFrame:
    """Return one frame written by `write_frame`, without the columns in `drop` (only the other
    columns are read; Parquet read with memory mapping, each column its own block) and, given
    `ids`, only the rows of those records (the file filtered as it is read)."""
    columns = [c for c in layout["columns"] if c not in drop]
    if ids is not None and "id" in layout["categories"]:  # stored as codes
        code = {v: k for k, v in enumerate(layout["categories"]["id"])}
        ids = [code[i] for i in ids if i in code]
    rows = None if ids is None else [("id", "in", ids)]
    path = folder / f"{name}.parquet"
    table = pq.read_table(path, memory_map=True, columns=columns, read_dictionary=FREE_TEXT, filters=rows)
    values = {c: _decoded(table.column(c), c, layout) for c in columns}
    return pd.DataFrame(values, index=pd.RangeIndex(table.num_rows), columns=columns, copy=False)


# --------------------------------------------------------------------------------------------
# Builds
# --------------------------------------------------------------------------------------------


def build_dir(key: str, root: Path | None = None) -> Path:
    """Return the folder of one build: bench/<key prefix> (the key names the content)."""
    return (root or cache_root()) / BENCH_DIR / key[:32]


def build_meta(folder: Path) -> dict[str, Any] | None:
    """Return the meta of a complete build (written last, so its presence means complete), or None."""
    meta = _read_json(folder / "meta.json")
    return meta if isinstance(meta, dict) else None


def read_build(
    folder: Path, drop: dict[str, tuple[str, ...]] | None = None, ids: list[str] | None = None
) -> tuple[dict[str, pd.DataFrame], dict[str, Any]]:
    """Return (frames, meta) of a complete build, each frame without its columns in `drop`; given
    `ids`, the records, generations and verdicts of those records only."""
    meta = build_meta(folder)
    if meta is None:
        raise FileNotFoundError(f"{folder} holds no complete build")
    drop = drop or {}
    frames = {
        name: read_frame(
            folder, name, meta["layouts"][name], drop.get(name, ()), ids if name in RECORD_FRAMES else None
        )
        for name in FRAMES
    }
    return frames, meta


def write_build(folder: Path, frames: dict[str, pd.DataFrame], meta: dict[str, Any]) -> bool:
    """Write a build atomically (a temporary folder renamed into place); return True if written.

    Another process that wrote the same build first wins; older builds of the same source and
    arguments (whose inputs or code have since changed) are removed.
    """
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
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    _remove_stale(folder, meta)
    return True


def _remove_stale(current: Path, meta: dict[str, Any]) -> None:
    """Remove other builds of the same source and load arguments (superseded inputs or code)."""
    for other in current.parent.iterdir():
        old = None if other == current or other.name.startswith(".") else build_meta(other)
        if old and old.get("location") == meta.get("location") and old.get("args") == meta.get("args"):
            shutil.rmtree(other, ignore_errors=True)
