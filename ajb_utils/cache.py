"""The tidy-frame cache: a loaded `Bench` kept as Parquet under data/cache/bench/, keyed by content.

The first `load_bench(source)` writes the Bench's frames (records, generations, verdicts,
exclusions, judges) as Parquet files; later loads of the same inputs read them back with memory
mapping instead of parsing JSON lines again. The key is a hash of everything the frames depend on:

- the source (its resolved location: never shared between sources, even with equal content);
- the inputs: the content hash of every file read (README.md, each config's data file, every run
  file), or, for the hub, the commit the revision resolves to (unresolved hub loads are not cached);
  of a run's .meta.json only the fields that shape the frames (not when it was made: an identical
  rerun keeps the entry);
- the load arguments (generators, judges, runs, engine, justifications);
- the package version, the library versions that shape the frames, and a hash of the loader's own
  source files (every `ajb_utils` module the `ajb_utils.data` package reaches), so a change of the
  loader's code or semantics invalidates every entry.

`keyed_by_content(plan)` is the decorator that puts a loader behind the cache: `load_bench` is
written as a plain load, and `plan` says how one call is keyed. On a miss the load runs with
cache=True and assembles itself from `Parts` (under parts/): the scored generations and each judge
config's or run's verdicts, each keyed by the content of its own input files (and, for verdicts,
the generations' key) and the loader's code, never by a folder name. So a load with other
`judges=` / `runs=` arguments is a few Parquet reads and a concatenation, and a justification load
reads the kept verdicts and decodes only the rationales.

File hashes are content hashes (xxh3-128 of the bytes). Hashing 1.1 GB on every load would cost a
second, so a digest is remembered per file together with the file's (size, mtime_ns, ctime_ns,
inode) and recomputed when any of these changes; `ctime` cannot be set back by `touch`, so an edit
always leads to a new hash. A load whose inputs change while it runs is not written to the cache.

The cache folder is `data/cache/` (git-ignored), or `$AJB_CACHE_DIR` when set (the tests point it
at a temporary folder so they never share the repository's cache). Deleting it is always safe.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import inspect
import logging
import os
import pickle
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import xxhash

from ajb_utils import __version__
from ajb_utils.paths import CACHE_DIR

log = logging.getLogger("ajb_utils.cache")

CACHE_ENV = "AJB_CACHE_DIR"
FORMAT = 1  # bump when the on-disk layout below changes
FRAMES = ("records", "generations", "verdicts", "exclusions", "judges")
BENCH_DIR = "bench"
PARTS_DIR = "parts"
DIGESTS_FILE = "file_digests.json"
_CHUNK = 1 << 24


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (a load builds or unpickles millions of acyclic objects,
    and each collection would walk them all); restore its state afterwards."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


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


def hash_file(path: Path) -> str:
    """Return the xxh3-128 hex digest of a file's bytes."""
    h = xxhash.xxh3_128()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def _read_digests(root: Path) -> dict[str, list[Any]]:
    """Return the remembered {path: [size, mtime_ns, ctime_ns, inode, digest]} ({} if none)."""
    try:
        memo = orjson.loads((root / DIGESTS_FILE).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
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


def file_digests(paths: Iterable[Path], root: Path | None = None) -> dict[str, str]:
    """Return {absolute path: content digest} ("missing" for absent files), remembering digests.

    A remembered digest is reused only while the file's size, mtime, ctime and inode are unchanged.
    """
    root = root or cache_root()
    memo = _read_digests(root)
    out: dict[str, str] = {}
    changed = False
    for p in paths:
        path = Path(p).resolve()
        name = str(path)
        try:
            sig = _signature(path.stat())
        except OSError:
            out[name] = "missing"
            continue
        seen = memo.get(name)
        if seen is not None and seen[:4] == sig:
            out[name] = seen[4]
            continue
        out[name] = hash_file(path)
        if _signature(path.stat()) == sig:  # unchanged while hashed: safe to remember
            memo[name] = [*sig, out[name]]
            changed = True
    if changed:
        try:
            _atomic_write_bytes(root / DIGESTS_FILE, orjson.dumps(memo))
        except OSError:  # a read-only cache folder only costs the hashing next time
            pass
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


def _package_modules(module: ModuleType) -> set[str]:
    """Return the names of the ajb_utils modules a module refers to in its globals."""
    out = set()
    for value in vars(module).values():
        name = value.__name__ if isinstance(value, ModuleType) else getattr(value, "__module__", None)
        if isinstance(name, str) and name.split(".")[0] == "ajb_utils" and name in sys.modules:
            out.add(name)
    return out


def loader_modules(entry: ModuleType) -> set[str]:
    """Return `entry`, this module, and every ajb_utils module they reach (transitively)."""
    seen: set[str] = set()
    todo = [entry.__name__, __name__]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(_package_modules(sys.modules[name]) - seen)
    return seen


def code_fingerprint(entry: ModuleType) -> str:
    """Return a hash of the source files of `entry` and every ajb_utils module it reaches."""
    h = xxhash.xxh3_128()
    for name in sorted(loader_modules(entry)):
        file = getattr(sys.modules[name], "__file__", None)
        h.update(name.encode())
        if file:
            h.update(Path(file).read_bytes())
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
    return xxhash.xxh3_128(orjson.dumps(full, option=orjson.OPT_SORT_KEYS)).hexdigest()


def datasets_cache_dir(location: str, files: Iterable[Path]) -> Path:
    """Return the `datasets` cache folder for a local config: keyed by its path and content."""
    digests = file_digests(files)
    key = xxhash.xxh3_128(
        orjson.dumps({"location": location, "files": digests}, option=orjson.OPT_SORT_KEYS)
    ).hexdigest()
    return cache_root() / "datasets" / "local" / key[:20]


# --------------------------------------------------------------------------------------------
# Frames on disk
# --------------------------------------------------------------------------------------------


def _is_text(values: pd.Series) -> bool:
    """Return True when every value of an object column is a str or None (Parquet-exact)."""
    return all(v is None or type(v) is str for v in values.to_numpy())


def _split_frame(frame: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, Any], dict[str, list]]:
    """Return (Parquet-able columns, column layout, Python-object columns) of a frame.

    Categoricals are written as their integer codes (the categories and their order go to the
    layout, so unused categories and the paper's order survive); object columns that hold only
    strings or None go to Parquet; any other object column (call lists, tool schemas) is pickled.
    """
    flat: dict[str, Any] = {}
    layout: dict[str, Any] = {"columns": [], "categories": {}, "ordered": {}, "objects": [], "object_text": []}
    objects: dict[str, list] = {}
    for col in frame.columns:
        s = frame[col]
        layout["columns"].append(col)
        if isinstance(s.dtype, pd.CategoricalDtype):
            flat[col] = s.cat.codes.to_numpy()
            layout["categories"][col] = s.cat.categories.tolist()
            layout["ordered"][col] = bool(s.cat.ordered)
        elif s.dtype == object and not _is_text(s):
            objects[col] = s.tolist()
            layout["objects"].append(col)
        elif s.dtype == object:  # str-or-None values in an object column stay an object column
            flat[col] = s
            layout["object_text"].append(col)
        else:
            flat[col] = s
    return pd.DataFrame(flat, index=frame.index), layout, objects


def write_frame(frame: pd.DataFrame, folder: Path, name: str) -> dict[str, Any]:
    """Write one frame to `folder` (name.parquet and, if needed, name.objects.pkl); return its layout."""
    if not (isinstance(frame.index, pd.RangeIndex) and frame.index.start == 0 and frame.index.step == 1):
        frame = frame.reset_index(drop=True)
    if not all(isinstance(c, str) for c in frame.columns) or frame.columns.duplicated().any():
        raise ValueError(f"frame {name!r}: column names must be unique strings to be cached")
    flat, layout, objects = _split_frame(frame)
    layout["categories"] = {c: list(map(_plain, v)) for c, v in layout["categories"].items()}
    table = pa.Table.from_pandas(flat, preserve_index=False)
    pq.write_table(table, folder / f"{name}.parquet", compression="snappy")
    if objects:
        with open(folder / f"{name}.objects.pkl", "wb") as fh:
            pickle.dump(objects, fh, protocol=pickle.HIGHEST_PROTOCOL)
    layout["rows"] = len(frame)
    return layout


def _plain(value: Any) -> Any:
    """Return a category value as a JSON-able Python scalar."""
    return value.item() if isinstance(value, np.generic) else value


def read_frame(folder: Path, name: str, layout: dict[str, Any]) -> pd.DataFrame:
    """Return one frame written by `write_frame` (Parquet read with memory mapping, one block per
    column so that no column is copied into a consolidated block)."""
    table = pq.read_table(folder / f"{name}.parquet", memory_map=True)
    text = {
        col: pd.Series(table.column(col).to_numpy(zero_copy_only=False), dtype=object) for col in layout["object_text"]
    }
    flat = (
        table.to_pandas(split_blocks=True, self_destruct=True)
        if table.num_columns
        else pd.DataFrame(index=pd.RangeIndex(layout["rows"]))
    )
    del table
    objects: dict[str, list] = {}
    if layout["objects"]:
        with open(folder / f"{name}.objects.pkl", "rb") as fh, gc_paused():
            objects = pickle.load(fh)
    for col in layout["columns"]:
        if col in layout["categories"]:
            flat[col] = pd.Categorical.from_codes(
                flat[col].to_numpy(),
                categories=pd.Index(layout["categories"][col]),
                ordered=layout["ordered"][col],
                validate=False,
            )
        elif col in objects:
            values = np.empty(layout["rows"], dtype=object)
            values[:] = objects[col]
            flat[col] = pd.Series(values, dtype=object, copy=False)
        elif col in text:
            flat[col] = text[col]
    return flat[layout["columns"]] if list(flat.columns) != layout["columns"] else flat


# --------------------------------------------------------------------------------------------
# Bench entries
# --------------------------------------------------------------------------------------------


def entry_dir(label: str, key: str, root: Path | None = None) -> Path:
    """Return the folder of one cache entry: bench/<source label>-<key prefix>."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in label)
    return (root or cache_root()) / BENCH_DIR / f"{safe}-{key[:24]}"


def read_entry(folder: Path) -> tuple[dict[str, pd.DataFrame], dict[str, Any]] | None:
    """Return (frames, meta) of a complete cache entry, or None when there is none."""
    try:
        meta = orjson.loads((folder / "meta.json").read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    frames = {name: read_frame(folder, name, meta["layouts"][name]) for name in FRAMES}
    return frames, meta


def write_entry(folder: Path, frames: dict[str, pd.DataFrame], meta: dict[str, Any], extra: Any = None) -> bool:
    """Write a cache entry atomically (a temporary folder renamed into place); return True if written.
    `extra` (any picklable value) is kept beside the frames (extra.pkl).

    Another process that wrote the same entry first wins; older entries of the same source and
    arguments (whose inputs or code have since changed) are removed.
    """
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        layouts = {name: write_frame(frame, tmp, name) for name, frame in frames.items()}
        if extra is not None:
            (tmp / "extra.pkl").write_bytes(pickle.dumps(extra, protocol=pickle.HIGHEST_PROTOCOL))
        (tmp / "meta.json").write_bytes(orjson.dumps({**meta, "layouts": layouts}, option=orjson.OPT_INDENT_2))
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
    """Remove other entries of the same source and load arguments (superseded inputs or code)."""
    for other in current.parent.glob(current.name.rsplit("-", 1)[0] + "-*"):
        if other == current or other.name.startswith("."):
            continue
        try:
            old = orjson.loads((other / "meta.json").read_bytes())
        except (OSError, orjson.JSONDecodeError):
            continue
        if old.get("location") == meta.get("location") and old.get("args") == meta.get("args"):
            shutil.rmtree(other, ignore_errors=True)


# --------------------------------------------------------------------------------------------
# Parts of a load
# --------------------------------------------------------------------------------------------


class Parts:
    """The parts a load is assembled from (the scored generations; each judge config's or run's
    verdicts), kept under parts/ by a key of their content: the input files' digests and the code
    and arguments that shape them (`key`). `get(key)` returns (frames, extra) or None; `put`
    keeps one, replacing the older part of the same `slot` (the same config of the same source).
    Disabled (cache=False), `get` always misses and `put` keeps nothing."""

    def __init__(self, enabled: bool, code: str = "") -> None:
        self.enabled, self.code = enabled, code
        self.root = cache_root() / PARTS_DIR

    def key(self, parts: dict[str, Any]) -> str:
        """Return the key of a part: `parts` (contents and arguments), the loader's code, versions."""
        return bench_key({**parts, "loader": self.code})

    def _folder(self, key: str, slot: str) -> Path:
        """Return the folder of a part: <slot hash>-<key prefix>."""
        return self.root / f"{xxhash.xxh3_64_hexdigest(slot.encode())}-{key[:32]}"

    def get(self, key: str, slot: str) -> tuple[dict[str, pd.DataFrame], Any] | None:
        """Return (frames, extra) of the part `key`, or None when it is not kept."""
        folder = self._folder(key, slot)
        if not self.enabled:
            return None
        try:
            meta = orjson.loads((folder / "meta.json").read_bytes())
            extra = pickle.loads((folder / "extra.pkl").read_bytes())
        except (OSError, orjson.JSONDecodeError, pickle.UnpicklingError, EOFError):
            return None
        return {name: read_frame(folder, name, layout) for name, layout in meta["layouts"].items()}, extra

    def put(self, key: str, slot: str, frames: dict[str, pd.DataFrame], extra: Any) -> None:
        """Keep a part (a failure to write only costs its computation next time); returns None."""
        if not self.enabled:
            return
        try:
            write_entry(self._folder(key, slot), frames, {"key": key, "location": slot, "args": None}, extra)
        except (OSError, ValueError, TypeError, pa.ArrowException, pickle.PicklingError) as exc:
            log.warning("a part of the load was not cached (%s: %s)", type(exc).__name__, exc)


def cached(
    load: Callable[[], Any],
    key_parts: dict[str, Any],
    inputs: list[Path],
    label: str,
    make: Callable[[dict[str, pd.DataFrame], dict[str, Any]], Any],
    provenance: Callable[[Any], dict[str, Any]],
) -> Any:
    """Return `make(frames, meta)` from the cache entry of this load, or `load()` (then cached).

    `key_parts` must name the source, its revision or commit, and the load arguments; the content
    of every path in `inputs` is added to the key. `provenance(bench)` gives the JSON-able fields
    (source, revision, label, synthetic flag, messages) kept beside the frames.
    """
    before = signatures(inputs)
    key = bench_key({**key_parts, "inputs": file_digests(inputs)})
    folder = entry_dir(label, key)
    hit = read_entry(folder)
    if hit is not None:
        return make(*hit)
    bench = load()
    if signatures(inputs) != before:  # an input changed while it was read: do not keep it
        return bench
    meta = {"key": key, "location": key_parts.get("location"), "args": key_parts.get("args"), **provenance(bench)}
    try:
        write_entry(folder, {name: getattr(bench, name) for name in FRAMES}, meta)
    except (OSError, ValueError, TypeError, pa.ArrowException, pickle.PicklingError) as exc:
        log.warning("the bench was loaded but not cached (%s: %s)", type(exc).__name__, exc)
    return bench


@dataclass(frozen=True)
class Plan:
    """How one call of a cached loader is keyed and rebuilt: `parts` (source, commit, arguments and
    any other content of the key), `inputs` (files hashed into the key), the entry's `label`, the
    arguments the load runs with, `make(frames, meta)` rebuilding its result from an entry and
    `provenance(result)` giving the JSON-able fields kept beside the frames."""

    parts: dict[str, Any]
    inputs: list[Path]
    label: str
    args: dict[str, Any]
    make: Callable[[dict[str, pd.DataFrame], dict[str, Any]], Any]
    provenance: Callable[[Any], dict[str, Any]]


def keyed_by_content(plan: Callable[..., Plan]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Return a decorator for a loader with a `cache: bool` parameter: cache=False runs it, else
    `plan(**arguments)` keys the call and the loader runs only on a miss (then the entry is kept).
    The loader's code (its module and every ajb_utils module it reaches) is part of the key."""

    def decorate(load: Callable[..., Any]) -> Callable[..., Any]:
        """Return `load` behind the cache."""
        signature = inspect.signature(load)

        @functools.wraps(load)
        def cached_load(*args: Any, **kwargs: Any) -> Any:
            """Return the load's result, from the cache when its inputs are unchanged."""
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            arguments = dict(bound.arguments)
            if not arguments.pop("cache"):
                return load(**arguments, cache=False)
            p = plan(**arguments)
            parts = {**p.parts, "loader": code_fingerprint(sys.modules[load.__module__])}
            return cached(lambda: load(**p.args, cache=True), parts, p.inputs, p.label, p.make, p.provenance)

        return cached_load

    return decorate
