"""One loading path for the hub, a local mirror of it, and the embedded sample.

`load_bench(source)` resolves `source` to a repository ("sample" -> data/sample, "hf" ->
ServiceNow-AI/AgentJudgeBench on the hub, or a directory laid out like the hub repo), reads each
config with `datasets.load_dataset(repo, config)` and, when Arrow type inference fails on a
config (a nested value whose type changes between rows), falls back to reading the config's
JSON-lines file directly, saying so. Everything then goes through the same normalisation
(`ajb_utils.calls`) into the tidy frames of a `Bench` (docs/DATA_FORMAT.md §4).

Bad rows never crash the load: they are counted in `Bench.exclusions` with a reason, following
the paper's Appendix D (unparseable or empty generator output; null judge verdicts).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import logging
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml

try:  # orjson parses JSON lines several times faster than the standard library
    from orjson import JSONDecodeError as _JSONError, loads as _loads
except ImportError:  # pragma: no cover - orjson is a declared dependency
    from json import JSONDecodeError as _JSONError, loads as _loads

from ajb_utils import cache as bench_cache, schema
from ajb_utils.calls import normalize_tools, try_normalize_calls
from ajb_utils.paths import REPO_ROOT, RUNS_DIR, SAMPLE_DIR
from ajb_utils.scoring import P_COLUMNS, check_published_scores, score_frame  # noqa: F401 (re-exported)

log = logging.getLogger("ajb_utils.data")

# Exclusion reasons (Appendix D and data hygiene).
UNPARSEABLE = "unparseable generator output"
EMPTY_PLAN = "empty plan"
UNKNOWN_RECORD = "unknown record id"
UNKNOWN_DIFFICULTY = "unknown difficulty"
DUPLICATE = "duplicate row"
NO_GENERATION = "no valid generation for verdict"
NULL_BLOCK = "null judge verdict (whole condition)"
NULL_METRIC = "null judge verdict (metric)"
BAD_RECORD = "unparseable expected calls"
SUPERSEDED = "invalid row superseded by a valid one"
DUPLICATE_JUDGE = "duplicate judge row"
OUT_OF_RANGE = "judge verdict outside {0, 0.5, 1}"
NULL_TOPOLOGY = "null dag_type (record kept; not in topology breakdowns)"
# A loaded llm_score within this distance of 0, 0.5 or 1 is that label (float noise); any other
# value is an exclusion with reason OUT_OF_RANGE (the judge runner already snaps its parses).
VERDICT_LABELS: tuple[float, ...] = (0.0, 0.5, 1.0)
SNAP_TOL = 1e-6

EXCLUSION_COLUMNS = ["config", "id", "generator", "difficulty", "judge", "condition",
                     "metric", "reason"]


class BenchDataError(ValueError):
    """A data problem the loader cannot work around (missing column, unknown source)."""


@dataclass
class Bench:
    """The benchmark as tidy frames (docs/DATA_FORMAT.md §4) plus provenance."""

    records: pd.DataFrame
    generations: pd.DataFrame
    verdicts: pd.DataFrame
    exclusions: pd.DataFrame
    judges: pd.DataFrame
    source: str
    revision: str | None
    label: str
    synthetic: bool
    messages: list[str] = field(default_factory=list)

    def provenance(self) -> str:
        """Return a one-line description of where the data came from."""
        kind = "SYNTHETIC sample" if self.synthetic else "data"
        return f"{kind} from {self.source} (revision {self.revision or 'unpinned'})"

    def exclusion_summary(self) -> pd.DataFrame:
        """Return exclusion counts by config and reason."""
        if self.exclusions.empty:
            return pd.DataFrame(columns=["config", "reason", "n"])
        return (self.exclusions.groupby(["config", "reason"], observed=True).size()
                .rename("n").reset_index())


# --------------------------------------------------------------------------------------------
# Sources and configs
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Source:
    """Where configs come from: a local directory or a hub repo id."""

    location: str
    is_local: bool
    label: str


def resolve_source(source: str | Path) -> Source:
    """Return the Source for "sample", "hf", a hub repo id, or a local directory."""
    if str(source) == "sample":
        return Source(str(SAMPLE_DIR), True, "sample")
    if str(source) == "hf":
        return Source(schema.HF_REPO_ID, False, "hf")
    path = Path(source).expanduser()
    if not path.is_absolute() and not path.is_dir() and (REPO_ROOT / path).is_dir():
        path = REPO_ROOT / path  # e.g. data/sample_full from notebooks/ or any other folder
    if path.is_dir():
        return Source(str(path.resolve()), True, path.resolve().name)
    if "/" in str(source) and not path.exists() and not str(source).startswith((".", "/")):
        return Source(str(source), False, str(source).replace("/", "__"))
    raise BenchDataError(f"data source {source!r} is neither 'sample', 'hf', a hub repo id, "
                         "nor an existing directory")


def _yaml_header(text: str) -> dict[str, Any]:
    """Return the YAML front matter of a hub README (empty dict if none)."""
    if not text.startswith("---"):
        return {}
    end = text.find("\n---", 3)
    return yaml.safe_load(text[3:end]) or {} if end > 0 else {}


def _readme_text(src: Source, revision: str | None) -> str:
    """Return the repo's README.md text (local file or downloaded from the hub)."""
    if src.is_local:
        path = Path(src.location) / "README.md"
        return path.read_text(encoding="utf-8") if path.exists() else ""
    from huggingface_hub import hf_hub_download
    return Path(hf_hub_download(src.location, "README.md", repo_type="dataset",
                                revision=revision)).read_text(encoding="utf-8")


def config_files(src: Source, revision: str | None = None) -> dict[str, list[str]]:
    """Return config name -> data file paths (relative to the repo) from the README header."""
    header = _yaml_header(_readme_text(src, revision))
    out: dict[str, list[str]] = {}
    for cfg in header.get("configs", []) or []:
        files = cfg.get("data_files", [])
        paths: list[str] = []
        for f in files if isinstance(files, list) else [files]:
            p = f.get("path") if isinstance(f, dict) else f
            paths.extend(p if isinstance(p, list) else [p])
        name = schema.JUDGE_ALIASES.get(cfg["config_name"], cfg["config_name"])
        out[name] = paths
    return out


# --------------------------------------------------------------------------------------------
# The hub: one short question first (probe), and the exact commit every read is pinned to
# --------------------------------------------------------------------------------------------

HUB_TIMEOUT: float = 5.0  # seconds the probe waits for the hub before giving up


class HubUnavailable(BenchDataError):
    """The hub, the repo or the revision cannot be reached; `reason` says which, in one line."""

    def __init__(self, reason: str, hint: str) -> None:
        super().__init__(f"{reason}. {hint}")
        self.reason = reason


OFFLINE_HINT = ("Offline, use data_source='sample' (the embedded synthetic sample) or a local "
                "mirror folder of the hub repo")


def _first_line(exc: BaseException, limit: int = 160) -> str:
    """Return `Type: first line of the message`, shortened to `limit` characters."""
    lines = str(exc).strip().splitlines()
    text = f"{type(exc).__name__}: {lines[0] if lines else ''}".rstrip(": ")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _cached_ref(repo_id: str, revision: str | None) -> Path:
    """Return the file where the local hub cache keeps the commit a branch or tag named."""
    from huggingface_hub import constants
    folder = Path(constants.HF_HUB_CACHE) / ("datasets--" + repo_id.replace("/", "--"))
    return folder / "refs" / (revision or "main")


def hub_commit(repo_id: str, revision: str | None = None,
               timeout: float = HUB_TIMEOUT) -> str:
    """Return the full commit sha that `revision` (branch, tag, sha; None = main) names on the
    hub, asked once with `timeout`; raise HubUnavailable with a one-line reason otherwise.

    The answer is kept in the local hub cache (refs/<revision>), so with HF_HUB_OFFLINE=1 a
    revision read before resolves to the same commit without the hub."""
    from huggingface_hub import HfApi, constants
    from huggingface_hub.utils import (GatedRepoError, OfflineModeIsEnabled,
                                       RepositoryNotFoundError, RevisionNotFoundError)
    where = f"{repo_id!r} at {constants.ENDPOINT}"
    ref = _cached_ref(repo_id, revision)
    try:
        sha = HfApi().dataset_info(repo_id, revision=revision, timeout=timeout).sha
        if sha and sha != revision:
            try:  # best effort, as huggingface_hub does it; a read-only cache is no error
                ref.parent.mkdir(parents=True, exist_ok=True)
                ref.write_text(sha)
            except OSError:
                pass
        return sha
    except RevisionNotFoundError:
        reason = f"revision {revision!r} does not exist in {where}"
    except GatedRepoError:
        reason = f"{where} needs an access token with access to the repo (set HF_TOKEN)"
    except RepositoryNotFoundError:
        reason = f"dataset repo {where} not found (or not accessible without a token)"
    except OfflineModeIsEnabled:
        snapshot = ref.parent.parent / "snapshots" / (revision or "")
        cached = revision if revision and snapshot.is_dir() else (
            ref.read_text().strip() if ref.is_file() else None)
        if cached:
            log.warning("HF_HUB_OFFLINE: revision %s of %s is commit %s in the local hub cache",
                        revision or "main", repo_id, cached)
            return cached
        reason = (f"HF_HUB_OFFLINE is set and revision {revision or 'main'} of {repo_id!r} "
                  "is not in the local hub cache")
    except Exception as exc:  # connection refused, DNS, timeout, TLS, HTTP 5xx
        waited = f" after {timeout:g} s" if "timeout" in type(exc).__name__.lower() else ""
        reason = f"cannot reach {where}{waited} ({_first_line(exc)})"
        if ref.is_file():
            reason += f"; commit {ref.read_text().strip()[:12]} is cached: set HF_HUB_OFFLINE=1"
    raise HubUnavailable(reason, OFFLINE_HINT) from None


def probe_hub(source: str | Path, revision: str | None = None,
              timeout: float = HUB_TIMEOUT) -> str | None:
    """Return the commit a hub source's revision resolves to, None for a local source; raise
    HubUnavailable (one line) when the hub cannot answer, BenchDataError for a bad source."""
    src = resolve_source(source)
    return None if src.is_local else hub_commit(src.location, revision, timeout)


# Columns the per-generator configs repeat from `main`; dropped on read to save memory.
GENERATOR_DROP: tuple[str, ...] = ("available_tools", "expected_tool_calls")


def _read_jsonl(path: Path, drop: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Return the rows of a JSON-lines file without the `drop` keys; malformed lines become
    {'__bad__': reason}."""
    rows: list[dict[str, Any]] = []
    with open(path, "rb") as fh:
        for i, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = _loads(line)
            except _JSONError as exc:
                rows.append({"__bad__": f"line {i}: {exc}"})
                continue
            if not isinstance(row, dict):
                row = {"__bad__": f"line {i}: not an object"}
            for key in drop:
                row.pop(key, None)
            rows.append(row)
    return rows


def _verdict_arrow_schema() -> Any:
    """Return the explicit Arrow schema of a judge config (every known condition column)."""
    import pyarrow as pa
    metric = pa.struct([("llm_score", pa.float64()), ("justification", pa.string()),
                        ("programmatic_score", pa.float64()), ("match_score", pa.float64())])
    block = pa.struct([(m, metric) for m in schema.METRICS]
                      + [("overall_alignment_pct", pa.float64())])
    return pa.schema([("id", pa.string()), ("generator", pa.string()),
                      ("difficulty", pa.string()), ("dag_type", pa.string())]
                     + [(c, block) for c in schema.CONDITIONS])


def read_judge_arrow(path: Path) -> pd.DataFrame | None:
    """Return a judge config with flattened `cond.metric.field` columns, read by Arrow's C++
    JSON reader against the released schema; None when the file does not fit that schema
    (JSON-string blocks, other metric spellings, malformed lines) and the general path must
    read it."""
    import pyarrow as pa
    import pyarrow.json as paj
    with open(path, "rb") as fh:
        first = next((line for line in fh if line.strip()), b"")
    try:
        head = _loads(first) if first else {}
    except _JSONError:
        return None
    for cond in schema.CONDITIONS:  # other spellings or JSON-string blocks: general path
        block = head.get(cond) if isinstance(head, dict) else None
        if block is not None and not (isinstance(block, dict)
                                      and all(m in block for m in schema.METRICS)):
            return None
    try:
        table = paj.read_json(path, parse_options=paj.ParseOptions(
            explicit_schema=_verdict_arrow_schema(), unexpected_field_behavior="ignore"))
    except (pa.ArrowInvalid, pa.ArrowTypeError, OSError):
        return None
    frame = flatten_judge_table(table)
    if frame is not None:
        frame.attrs["justifications_path"] = str(path)
    return frame


def flatten_judge_table(table: Any) -> pd.DataFrame | None:
    """Return a judge config's Arrow table as flat `cond.metric.field` numeric columns.

    None when a condition block is not a struct with every metric's `llm_score` (JSON-string
    blocks, other metric spellings): the general per-row path must read such a config.
    """
    import pyarrow as pa
    flat = table
    while any(pa.types.is_struct(f.type) for f in flat.schema):
        flat = flat.flatten()
    names = set(flat.column_names)
    if not {"id", "generator", "difficulty"} <= names:
        return None
    numeric = ("llm_score", "programmatic_score", "match_score")
    cols: dict[str, Any] = {c: flat.column(c).to_numpy(zero_copy_only=False)
                            for c in ("id", "generator", "difficulty")}
    for cond in schema.CONDITIONS:
        if not any(n.startswith(cond + ".") for n in names):
            if cond in names:  # a condition column that is not a struct
                return None
            continue
        block: dict[str, np.ndarray] = {}
        for m in schema.METRICS:
            for f in numeric:
                name = f"{cond}.{m}.{f}"
                if name in names:
                    col = flat.column(name)
                    if not (pa.types.is_floating(col.type) or pa.types.is_integer(col.type)
                            or pa.types.is_null(col.type)):
                        return None
                    block[name] = col.to_numpy(zero_copy_only=False).astype(float)
                elif f == "llm_score":
                    return None  # the block spells its metrics differently
                else:
                    block[name] = np.full(flat.num_rows, np.nan)
        overall = f"{cond}.overall_alignment_pct"
        block[overall] = (flat.column(overall).to_numpy(zero_copy_only=False).astype(float)
                          if overall in names else np.full(flat.num_rows, np.nan))
        scores = np.column_stack([block[f"{cond}.{m}.{f}"] for m in schema.METRICS
                                  for f in ("llm_score", "programmatic_score")])
        if np.isnan(scores).all() and np.isnan(block[overall]).all():
            continue  # absent from this file (explicit schemas fill absent columns with nulls)
        if (~np.isnan(block[overall]) & np.isnan(scores).all(axis=1)).any():
            return None  # blocks whose metric keys the schema did not catch
        cols.update(block)
    frame = pd.DataFrame(cols)
    if len(frame) and frame["id"].isna().any():
        return None
    frame.attrs["flattened"] = True
    return frame


def _read_direct(src: Source, files: list[str], revision: str | None,
                 drop: tuple[str, ...] = ()) -> pd.DataFrame:
    """Return a config read straight from its JSON-lines files (no Arrow inference)."""
    rows: list[dict[str, Any]] = []
    for rel in files:
        if src.is_local:
            path = Path(src.location) / rel
        else:
            from huggingface_hub import hf_hub_download
            path = Path(hf_hub_download(src.location, rel, repo_type="dataset",
                                        revision=revision))
        rows.extend(_read_jsonl(path, drop))
    return pd.DataFrame(rows)


def _datasets_cache_dir(src: Source, files: list[str] | None) -> Path:
    """Return where `datasets` keeps its Arrow copy of a config: for a local folder a directory
    keyed by the folder's path and the content of the config's files (datasets itself keys local
    folders by their basename only, and would serve stale or foreign data)."""
    if not src.is_local:
        return bench_cache.cache_root() / "datasets"  # hub data: datasets keys it by commit
    root = Path(src.location)
    paths = ([root / "README.md", *(root / f for f in files)] if files else
             sorted(p for p in root.rglob("*") if p.is_file()))
    return bench_cache.datasets_cache_dir(src.location, paths)


def _dataset_table(src: Source, config: str, revision: str | None,
                   files: list[str] | None = None) -> Any:
    """Return a config's Arrow table through `datasets.load_dataset` (cached by content)."""
    import datasets
    datasets.disable_progress_bars()
    datasets.logging.set_verbosity_error()
    ds = datasets.load_dataset(src.location, config, split="train", revision=revision,
                               cache_dir=str(_datasets_cache_dir(src, files)))
    return ds.data.table


def _read_datasets(src: Source, config: str, revision: str | None,
                   drop: tuple[str, ...] = (), files: list[str] | None = None) -> pd.DataFrame:
    """Return a config through `datasets.load_dataset` (Arrow), as a frame of Python objects."""
    table = _dataset_table(src, config, revision, files)
    frame = pd.DataFrame({c: _pylist(table.column(c)) for c in table.column_names
                          if c not in drop})
    frame.attrs["arrow_structs"] = True  # null-valued dict keys may be union fills (calls.py)
    return frame


def _pylist(column: Any) -> list[Any]:
    """Return an Arrow column as Python values, decoding datasets' Json feature (the JSON text
    `datasets` stores for a column whose type changes between rows) back to the values."""
    values = column.to_pylist()
    if getattr(column.type, "extension_name", None) == "arrow.json":
        return [None if v is None else _loads(v) for v in values]
    return values


def read_config(src: Source, config: str, files: list[str] | None, revision: str | None,
                engine: str, messages: list[str], drop: tuple[str, ...] = ()) -> pd.DataFrame:
    """Return one config's rows; `engine` "datasets" falls back to "json" on inference errors."""
    if engine == "datasets":
        try:
            return _read_datasets(src, config, revision, drop, files)
        except Exception as exc:  # Arrow inference / cast failures, missing optional deps
            if not files:
                raise BenchDataError(f"config {config!r}: datasets failed ({exc}) and the "
                                     "README lists no file to read directly") from exc
            msg = (f"config {config!r}: datasets could not infer Arrow types "
                   f"({type(exc).__name__}); read the JSON-lines file directly instead")
            messages.append(msg)
            log.warning(msg)
    if not files:
        raise BenchDataError(f"config {config!r} has no data files in the README header")
    return _read_direct(src, files, revision, drop)


def require_columns(frame: pd.DataFrame, config: str, required: list[str]) -> None:
    """Raise BenchDataError naming the config and every missing required column."""
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise BenchDataError(f"config {config!r} lacks required column(s) {missing}; "
                             f"it has {sorted(map(str, frame.columns))}")


def _exclusions(config: str, frame: pd.DataFrame, reason: str | pd.Series,
                **fixed: Any) -> pd.DataFrame:
    """Return exclusion rows for the rows of `frame` with a reason."""
    out = pd.DataFrame({c: frame[c].astype(str).to_numpy() if c in frame else None
                        for c in ("id", "generator", "difficulty")})
    out["config"] = config
    for k in ("judge", "condition", "metric"):
        out[k] = fixed.get(k)
    out["reason"] = reason if isinstance(reason, str) else reason.to_numpy()
    return out[EXCLUSION_COLUMNS]


# --------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------

def build_records(raw: pd.DataFrame, excl: list[pd.DataFrame]) -> pd.DataFrame:
    """Return the records frame (one row per record) from the raw `main` config."""
    require_columns(raw, "main", schema.REQUIRED_MAIN)
    if "__bad__" in raw:
        bad = raw["__bad__"].notna()
        excl.append(_exclusions("main", raw[bad], "malformed JSON line"))
        raw = raw[~bad]
    arrow = bool(raw.attrs.get("arrow_structs"))
    parsed = [try_normalize_calls(v, arrow) for v in raw["expected_tool_calls"]]
    ok = np.array([p[0] is not None for p in parsed], dtype=bool)
    if (~ok).any():
        excl.append(_exclusions("main", raw[~ok], BAD_RECORD))
    raw = raw[ok].copy()
    raw["expected_calls"] = [p[0] for p, k in zip(parsed, ok) if k]
    raw["tools"] = [normalize_tools(v) for v in raw.get("available_tools",
                                                        pd.Series([[]] * len(raw)))]
    for col in ("query_easy", "query_medium", "query_hard", "system_prompt"):
        if col not in raw:
            raw[col] = ""
    dup = raw["id"].duplicated()
    if dup.any():
        excl.append(_exclusions("main", raw[dup], DUPLICATE))
        raw = raw[~dup]
    rec = raw[["id", "dag_type", "query_easy", "query_medium", "query_hard", "system_prompt",
               "tools", "expected_calls"]].reset_index(drop=True)
    rec["id"] = rec["id"].astype(str)
    rec["n_tools"] = rec["tools"].map(len)
    rec["n_expected_calls"] = rec["expected_calls"].map(len)
    rec["dag_type"] = pd.Categorical(rec["dag_type"], categories=_ordered(
        schema.TOPOLOGIES, rec["dag_type"]))
    no_topology = rec["dag_type"].isna()
    if no_topology.any():
        excl.append(_exclusions("main", rec[no_topology], NULL_TOPOLOGY))
    return rec


def _ordered(known: list[str], values: pd.Series) -> list[str]:
    """Return `known` followed by any other observed values, for categorical order."""
    extra = sorted(set(map(str, pd.Series(values).dropna().unique())) - set(known))
    return [k for k in known] + extra


# --------------------------------------------------------------------------------------------
# Generations
# --------------------------------------------------------------------------------------------

def _generation_reasons(raw: pd.DataFrame, calls: list[Any], parse_errors: list[str | None],
                        records: pd.DataFrame) -> pd.Series:
    """Return each generation row's exclusion reason (None = kept).

    Validity first, then de-duplication: a valid row is kept over invalid rows of the same
    (id, difficulty) (they are SUPERSEDED, not Appendix D exclusions); among valid rows, and
    among invalid rows of a key without a valid one, the first wins and the rest are DUPLICATE.
    """
    reason = pd.Series(parse_errors, index=raw.index, dtype=object)
    reason[reason.notna()] = UNPARSEABLE
    reason[[c is not None and len(c) == 0 for c in calls]] = EMPTY_PLAN
    reason[reason.isna() & ~raw["id"].isin(records["id"])] = UNKNOWN_RECORD
    reason[reason.isna() & ~raw["difficulty"].isin(schema.DIFFICULTIES)] = UNKNOWN_DIFFICULTY
    key = raw["id"].astype(str) + "\x00" + raw["difficulty"].astype(str)
    valid = reason.isna()
    has_valid = key.isin(key[valid])
    retried = ~valid & has_valid & reason.isin([UNPARSEABLE, EMPTY_PLAN])
    reason[retried] = SUPERSEDED
    reason[valid & key.where(valid).duplicated() & key.notna()] = DUPLICATE
    lone = ~valid & ~has_valid
    reason[lone & key.where(lone).duplicated()] = DUPLICATE
    return reason


def _authors_rule_note(raw: pd.DataFrame, calls: list[Any], generator: str) -> str | None:
    """Return a message counting text outputs that parsed only by the authors' rules (</think>, fences)."""
    col = raw["generated_tool_calls"]
    text = col.map(lambda x: isinstance(x, str)).to_numpy(bool)
    if not text.any():
        return None
    marked = col[text].str.contains(r"</think>|```", regex=True).to_numpy(bool)
    ok = np.array([c is not None for c in calls], dtype=bool)[text]
    n = int((marked & ok).sum())
    return (f"{generator}: {n} generator output(s) read by the authors' rules (text after the last "
            "</think>, Markdown fences stripped)") if n else None


def build_generations(raw: pd.DataFrame, generator: str, records: pd.DataFrame,
                      excl: list[pd.DataFrame], messages: list[str] | None = None) -> pd.DataFrame:
    """Return the valid generations of one generator config (exclusions recorded)."""
    require_columns(raw, generator, schema.REQUIRED_GENERATOR)
    arrow = bool(raw.attrs.get("arrow_structs"))
    raw = raw.copy()
    raw["generator"] = generator
    if "__bad__" in raw:
        bad = raw["__bad__"].notna()
        excl.append(_exclusions(generator, raw[bad], "malformed JSON line"))
        raw = raw[~bad]
    raw["id"] = raw["id"].astype(str)
    parsed = [try_normalize_calls(v, arrow) for v in raw["generated_tool_calls"]]
    calls = [p[0] for p in parsed]
    reason = _generation_reasons(raw, calls, [p[1] for p in parsed], records)
    note = _authors_rule_note(raw, calls, generator)
    if note and messages is not None:
        messages.append(note)
    bad = reason.notna()
    if bad.any():
        excl.append(_exclusions(generator, raw[bad], reason[bad]))
    raw["generated_calls"] = calls
    gen = raw[~bad].copy()
    if "dag_type" not in gen:
        gen["dag_type"] = gen["id"].map(records.set_index("id")["dag_type"].astype(str))
    if "user_query" not in gen:
        gen["user_query"] = ""
    for col in schema.SCORE_COLUMNS.values():
        gen[col] = pd.to_numeric(gen[col], errors="coerce") if col in gen else np.nan
    keep = ["id", "generator", "difficulty", "dag_type", "user_query", "generated_calls",
            *schema.SCORE_COLUMNS.values()]
    return gen[keep].reset_index(drop=True)


# --------------------------------------------------------------------------------------------
# Verdicts
# --------------------------------------------------------------------------------------------

def _as_block(value: Any) -> dict[str, Any] | None:
    """Return a condition block as a dict (JSON string or struct in; None if null/bad)."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return None
    return value if isinstance(value, dict) else None


def _metric_field(blocks: list[dict[str, Any] | None], metric: str, fld: str) -> list[Any]:
    """Return one field of one metric across blocks, accepting the metric's spellings."""
    keys = (metric, schema.PROMPT_KEYS[metric], schema.SCORE_COLUMNS[metric])
    out: list[Any] = []
    for b in blocks:
        entry = None
        if b is not None:
            for k in keys:
                if b.get(k) is not None:
                    entry = b[k]
                    break
        if isinstance(entry, dict):
            v = entry.get(fld)
            if v is None and fld == "llm_score":
                v = entry.get("accuracy", entry.get("score"))
            out.append(v)
        else:
            out.append(None)
    return out


def _to_float(values: list[Any]) -> np.ndarray:
    """Return values as float64, non-numbers as NaN."""
    return np.array(pd.to_numeric(pd.Series(values, dtype=object), errors="coerce"),
                    dtype=float)


def _positions(values: pd.Series, categories: list[str],
               canon: Any = None) -> np.ndarray:
    """Return each value's position in `categories` (-1 if absent), hashing unique values only."""
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    names = [str(u) if canon is None else canon(str(u)) for u in uniques]
    lookup = pd.Index(categories).get_indexer(names)
    return np.where(codes >= 0, lookup[np.maximum(codes, 0)], -1)


MAX_GENERATORS = 1024  # key arithmetic room for the five released generators plus runs


def generation_keys(ids: pd.Series, generators: pd.Series, difficulties: pd.Series,
                    record_ids: list[str],
                    generator_names: list[str] | None = None) -> np.ndarray:
    """Return an int64 key per (record, generator, difficulty) row; -1 where any part is unknown."""
    i = _positions(ids, record_ids)
    g = _positions(generators, generator_names or schema.GENERATORS, schema.canonical_generator)
    d = _positions(difficulties, schema.DIFFICULTIES)
    key = (i.astype(np.int64) * MAX_GENERATORS + g) * len(schema.DIFFICULTIES) + d
    return np.where((i < 0) | (g < 0) | (d < 0), -1, key)


def _split_key(key: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (record, generator, difficulty) positions of generation keys."""
    n_d = len(schema.DIFFICULTIES)
    return key // (MAX_GENERATORS * n_d), (key // n_d) % MAX_GENERATORS, key % n_d


def generation_index(generations: pd.DataFrame, record_ids: list[str],
                     generator_names: list[str] | None = None) -> pd.DataFrame:
    """Return the generations' p_* scores indexed by `generation_keys` (what verdicts join to)."""
    names = generator_names or list(schema.GENERATORS)
    out = generations[list(P_COLUMNS.values())].set_axis(pd.Index(generation_keys(
        generations["id"], generations["generator"], generations["difficulty"], record_ids,
        names)))
    out.attrs["record_ids"] = list(record_ids)
    out.attrs["generator_names"] = names
    return out


def snap_verdicts(llm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (llm with float noise snapped to 0 / 0.5 / 1 and other values NaN, out-of-range mask)."""
    labels = np.asarray(VERDICT_LABELS)
    dist = np.abs(llm[:, None] - labels[None, :])
    near = np.nanmin(np.where(np.isnan(dist), np.inf, dist), axis=1) <= SNAP_TOL
    out_of_range = ~np.isnan(llm) & ~near
    snapped = labels[np.argmin(np.where(np.isnan(dist), np.inf, dist), axis=1)]
    return np.where(near, snapped, np.nan), out_of_range


def _drop_bad_lines(raw: pd.DataFrame, judge: str, excl: list[pd.DataFrame]) -> pd.DataFrame:
    """Return a judge config without its malformed JSON lines (each one an exclusion)."""
    if "__bad__" in raw:
        bad = raw["__bad__"].notna()
        excl.append(_exclusions(judge, raw[bad], "malformed JSON line", judge=judge))
        raw = raw[~bad]
    return raw.reset_index(drop=True)


def _join_generations(raw: pd.DataFrame, judge: str, gen_index: pd.DataFrame,
                      record_ids: list[str], excl: list[pd.DataFrame]
                      ) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """Return (rows with a valid generation, their generation keys, their gen_index rows)."""
    generator_names = gen_index.attrs.get("generator_names", schema.GENERATORS)
    key = generation_keys(raw["id"], raw["generator"], raw["difficulty"], record_ids,
                          generator_names)
    row = gen_index.index.get_indexer(key)
    has_gen = (key >= 0) & (row >= 0)
    if (~has_gen).any():
        excl.append(_exclusions(judge, raw[~has_gen], NO_GENERATION, judge=judge))
        raw, key, row = raw[has_gen].reset_index(drop=True), key[has_gen], row[has_gen]
    dup = pd.Series(key).duplicated().to_numpy()
    if dup.any():  # a second row for the same (id, generator, difficulty): the first one counts
        excl.append(_exclusions(judge, raw[dup], DUPLICATE_JUDGE, judge=judge))
        raw, key, row = raw[~dup].reset_index(drop=True), key[~dup], row[~dup]
    return raw, key, row


def _name_columns(key: np.ndarray, record_ids: list[str],
                  generator_names: list[str]) -> dict[str, pd.Categorical]:
    """Return the id / generator / difficulty categoricals of generation keys."""
    rec, gen, diff = _split_key(key)
    return {
        "id": pd.Categorical.from_codes(rec, categories=record_ids),
        "generator": pd.Categorical.from_codes(gen, categories=generator_names),
        "difficulty": pd.Categorical.from_codes(diff, categories=schema.DIFFICULTIES),
    }


def _present_conditions(raw: pd.DataFrame) -> list[str]:
    """Return the condition columns a judge config carries (nested or flattened), in schema order."""
    return [c for c in schema.CONDITIONS
            if c in raw.columns or f"{c}.overall_alignment_pct" in raw.columns]


def _condition_reader(raw: pd.DataFrame, cond: str, flattened: bool
                      ) -> tuple[Any, list[dict[str, Any] | None] | None]:
    """Return (field(metric, name) -> float array, the parsed blocks or None) for one condition."""
    if flattened:
        def flat_field(metric: str, name: str) -> np.ndarray:
            """Return one flattened `cond.metric.name` column as floats."""
            return raw[f"{cond}.{metric}.{name}"].to_numpy(float)
        return flat_field, None
    blocks = [_as_block(v) for v in raw[cond]]

    def nested_field(metric: str, name: str) -> np.ndarray:
        """Return one field of one metric across the parsed blocks as floats."""
        return _to_float(_metric_field(blocks, metric, name))
    return nested_field, blocks


def _condition_verdicts(raw: pd.DataFrame, judge: str, cond: str, flattened: bool,
                        names: dict[str, pd.Categorical], p_all: dict[str, np.ndarray],
                        justifications: bool, excl: list[pd.DataFrame]) -> list[pd.DataFrame]:
    """Return one long frame per metric of one condition column (null verdicts recorded)."""
    field, blocks = _condition_reader(raw, cond, flattened)
    # A null block: the condition is missing, or none of its metrics has a verdict (a failed
    # judge call; its overall_alignment_pct is null too). The same rule for every encoding,
    # since Arrow cannot tell an absent key from a null one.
    llm_all = {m: np.array(field(m, "llm_score"), dtype=float) for m in schema.METRICS}
    null_block = np.isnan(np.column_stack(list(llm_all.values()))).all(axis=1)
    if null_block.any():
        excl.append(_exclusions(judge, raw[null_block], NULL_BLOCK, judge=judge, condition=cond))
    parts = []
    for metric in schema.METRICS:
        llm, out_of_range = snap_verdicts(llm_all[metric])
        if out_of_range.any():
            excl.append(_exclusions(judge, raw[out_of_range], OUT_OF_RANGE, judge=judge,
                                    condition=cond, metric=metric))
        null_metric = np.isnan(llm) & ~null_block & ~out_of_range
        if null_metric.any():
            excl.append(_exclusions(judge, raw[null_metric], NULL_METRIC, judge=judge,
                                    condition=cond, metric=metric))
        part = pd.DataFrame({
            **names,
            "condition": cond,
            "metric": metric,
            "llm_score": llm,
            "p": p_all[metric],
            "p_published": field(metric, "programmatic_score"),
            "match_published": field(metric, "match_score"),
        })
        if justifications and blocks is not None:
            part["justification"] = _metric_field(blocks, metric, "justification")
        parts.append(part)
    return parts


def build_verdicts(raw: pd.DataFrame, judge: str, gen_index: pd.DataFrame,
                   excl: list[pd.DataFrame], justifications: bool,
                   record_ids: list[str] | None = None) -> pd.DataFrame:
    """Return the long verdict frame of one judge config (every condition column present).

    `gen_index` holds the valid generations' p_* scores indexed by `generation_keys`.
    """
    require_columns(raw, judge, schema.REQUIRED_JUDGE)
    if raw.attrs.get("flattened") and justifications:
        raw = pd.DataFrame(_read_jsonl(Path(raw.attrs["justifications_path"])))
    flattened = bool(raw.attrs.get("flattened"))
    raw = _drop_bad_lines(raw, judge, excl)
    if isinstance(gen_index.index, pd.MultiIndex):  # (id, generator, difficulty) index
        flat = gen_index.reset_index()
        gen_index = generation_index(flat, record_ids or sorted(flat["id"].astype(str).unique()))
    record_ids = record_ids if record_ids is not None else gen_index.attrs["record_ids"]
    generator_names = gen_index.attrs.get("generator_names", schema.GENERATORS)
    raw, key, row = _join_generations(raw, judge, gen_index, record_ids, excl)
    names = _name_columns(key, record_ids, generator_names)
    p_all = {m: gen_index[P_COLUMNS[m]].to_numpy(float)[row] for m in schema.METRICS}
    parts: list[pd.DataFrame] = []
    for cond in _present_conditions(raw):
        parts += _condition_verdicts(raw, judge, cond, flattened, names, p_all,
                                     justifications, excl)
    if not parts:
        msg = f"judge config {judge!r} has no condition column ({schema.CONDITIONS})"
        raise BenchDataError(msg)
    out = pd.concat(parts, ignore_index=True)
    out["judge"] = judge
    out["match"] = 1.0 - np.abs(out["p"] - out["llm_score"])
    return out


# --------------------------------------------------------------------------------------------
# Runs (judge configs beyond the release: data/runs/, <source>/runs/)
# --------------------------------------------------------------------------------------------

def discover_runs(dirs: list[Path]) -> list[tuple[str, Path, dict[str, Any]]]:
    """Return (name, jsonl path, meta) for every run found in `dirs`, sorted by name."""
    found: dict[str, tuple[str, Path, dict[str, Any]]] = {}
    for d in dirs:
        if not d.is_dir():
            continue
        for path in sorted(d.glob("*.jsonl")):
            meta_path = path.with_suffix(".meta.json")
            meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
            name = meta.get("name", path.stem)
            found.setdefault(name, (name, path, meta))
    return [found[k] for k in sorted(found)]


def _judge_meta(name: str, origin: str, synthetic: bool, meta: dict[str, Any] | None = None,
                conditions: list[str] | None = None) -> dict[str, Any]:
    """Return one row of the judges table."""
    meta = meta or {}
    return {
        "judge": name,
        "display": meta.get("display", schema.display(name)),
        "origin": origin,
        "synthetic": bool(meta.get("synthetic", synthetic)),
        "study": meta.get("study", "main" if name in schema.JUDGES else "run"),
        "base_model": meta.get("judge", name),
        "conditions": ",".join(conditions or meta.get("conditions", [])),
        "decoding": json.dumps(meta.get("decoding", {}), sort_keys=True),
    }


# --------------------------------------------------------------------------------------------
# The loader
# --------------------------------------------------------------------------------------------

def _select(requested: list[str] | None, known: list[str], available: dict[str, Any],
            kind: str, messages: list[str]) -> list[str]:
    """Return requested configs that exist, in paper order; unknown ones skipped with a message."""
    wanted = known if requested is None else [schema.canonical_generator(r) for r in requested]
    out = []
    for name in wanted:
        if name not in known:
            msg = f"unknown {kind} config {name!r} skipped (known: {', '.join(known)})"
        elif name not in available:
            if requested is None:
                continue
            msg = f"{kind} config {name!r} not in this source; skipped"
        else:
            out.append(name)
            continue
        messages.append(msg)
        log.warning(msg)
    return [k for k in known if k in out]


def _source_revision(src: Source, revision: str | None, files: dict[str, list[str]]) -> str:
    """Return the revision to record: the hub commit (load_bench resolves it before any read),
    or a content hash for local sources."""
    if revision:
        return revision
    h = hashlib.sha256()
    root = Path(src.location)
    rels = sorted({p for ps in files.values() for p in ps})
    digests = bench_cache.file_digests([root / rel for rel in rels])  # content, not sizes
    for rel in rels:
        h.update(rel.encode())
        h.update(digests[str((root / rel).resolve())].encode())
    readme = root / "README.md"
    if readme.exists():
        h.update(readme.read_bytes())
    return "local:" + h.hexdigest()[:12]


def _categorize(frame: pd.DataFrame, orders: dict[str, list[str]]) -> pd.DataFrame:
    """Return `frame` with name columns as ordered categoricals (paper order first)."""
    for col, known in orders.items():
        if col not in frame:
            continue
        if isinstance(frame[col].dtype, pd.CategoricalDtype):
            cats = _ordered(known, pd.Series(frame[col].cat.categories))
            frame[col] = frame[col].cat.set_categories(cats)
        else:
            frame[col] = pd.Categorical(frame[col], categories=_ordered(known, frame[col]))
    return frame


def _config_files_or_explain(src: Source, revision: str | None) -> dict[str, list[str]]:
    """Return the source's config -> files map; hub failures become a BenchDataError that says what to do."""
    try:
        files = config_files(src, revision)
    except Exception as exc:  # network, authentication, unknown repo or revision
        if src.is_local:
            raise
        raise BenchDataError(
            f"cannot read {src.location!r} (revision {revision or 'main'}) from the hub: "
            f"{type(exc).__name__}: {exc}. The hub needs network access; offline, use "
            "source='sample' or a local mirror directory of the hub repo.") from exc
    if schema.MAIN_CONFIG not in files and src.is_local:
        raise BenchDataError(f"{src.location} has no 'main' config in its README.md header")
    return files


def read_judge_config(src: Source, cfg: str, files: dict[str, list[str]], revision: str | None,
                      engine: str, messages: list[str], justifications: bool) -> pd.DataFrame:
    """Return a judge config, through Arrow's fast reader where the file allows it."""
    paths_ = files.get(cfg) or []
    fast = None
    if engine == "json" and src.is_local and len(paths_) == 1 and not justifications:
        fast = read_judge_arrow(Path(src.location) / paths_[0])
    elif engine == "datasets" and not justifications:
        try:  # the Arrow table straight from datasets, struct columns flattened
            fast = flatten_judge_table(_dataset_table(src, cfg, revision, paths_))
        except Exception:  # inference failures etc.: the general path reports them
            fast = None
    return fast if fast is not None else read_config(src, cfg, files.get(cfg), revision, engine,
                                                     messages)


def _wanted(name: str, runs: str | list[str] | None, path: Path | None = None,
            meta: dict[str, Any] | None = None, src: Source | None = None,
            messages: list[str] | None = None) -> bool:
    """Return True if a discovered run is selected by `runs` ("auto" or a list of names).

    Under "auto", a run in data/runs/ made on another data source (its meta's `source` is not this
    source's label) is left out, saying so: runs judge one source's generations and must not leak
    into another's tables. A run named in a list is always read."""
    if isinstance(runs, list):
        return name in runs
    made_on = (meta or {}).get("source")
    if src is None or path is None or made_on is None or RUNS_DIR not in Path(path).parents:
        return True
    if str(made_on) in (src.label, str(src.location)):
        return True
    if messages is not None:
        messages.append(f"run {name!r} in {RUNS_DIR.name}/ skipped: made on source {made_on!r}, not "
                        f"{src.label!r} (name it in runs=[...] to read it anyway)")
    return False


def _load_generations(src: Source, files: dict[str, list[str]], revision: str | None,
                      engine: str, generators: list[str] | None, runs: str | list[str] | None,
                      records: pd.DataFrame, excl: list[pd.DataFrame], messages: list[str]
                      ) -> tuple[pd.DataFrame, list[str]]:
    """Return (scored valid generations of the released configs and generator runs, generator names)."""
    gen_frames = [build_generations(read_config(src, g, files.get(g), revision, engine, messages,
                                                GENERATOR_DROP), g, records, excl, messages)
                  for g in _select(generators, schema.GENERATORS, files, "generator", messages)]
    generator_names = list(schema.GENERATORS)
    if runs is not None:  # generator runs made with `python -m ajb_utils.judge generate`
        gen_dirs = ([Path(src.location) / "runs" / "generators"] if src.is_local else []) \
            + [RUNS_DIR / "generators"]
        for name, path, meta in discover_runs(gen_dirs):
            if not _wanted(name, runs, path, meta, src, messages):
                continue
            raw_gen = pd.DataFrame(_read_jsonl(path, GENERATOR_DROP))
            gen_frames.append(build_generations(raw_gen, name, records, excl, messages))
            generator_names.append(name)
            messages.append(f"loaded generator run {name!r}")
    generations = (pd.concat(gen_frames, ignore_index=True) if gen_frames else
                   pd.DataFrame(columns=["id", "generator", "difficulty", "dag_type",
                                         "user_query", "generated_calls",
                                         *schema.SCORE_COLUMNS.values()]))
    generations = score_frame(generations, records.set_index("id")["expected_calls"])
    generations["n_generated_calls"] = generations["generated_calls"].map(len)
    return generations, generator_names


def _load_judge_runs(src: Source, runs: str | list[str] | None, gen_index: pd.DataFrame,
                     justifications: bool, excl: list[pd.DataFrame], messages: list[str]
                     ) -> tuple[list[pd.DataFrame], list[dict[str, Any]]]:
    """Return (verdict frames, judges-table rows) of the judge runs under <source>/runs and data/runs."""
    frames: list[pd.DataFrame] = []
    rows: list[dict[str, Any]] = []
    if runs is None:
        return frames, rows
    run_dirs = ([Path(src.location) / "runs"] if src.is_local else []) + [RUNS_DIR]
    for name, path, meta in discover_runs(run_dirs):
        if not _wanted(name, runs, path, meta, src, messages):
            continue
        raw = (None if justifications else read_judge_arrow(path))
        raw = pd.DataFrame(_read_jsonl(path)) if raw is None else raw
        try:
            v = build_verdicts(raw, name, gen_index, excl, justifications)
        except BenchDataError as exc:
            messages.append(f"run {name!r} skipped: {exc}")
            log.warning(messages[-1])
            continue
        frames.append(v)
        origin = "sample run" if Path(path).parent.parent == Path(src.location) and \
            src.label == "sample" else "run"
        rows.append(_judge_meta(name, origin, meta.get("synthetic", False), meta,
                                sorted(v["condition"].unique().tolist())))
    return frames, rows


VERDICT_COLUMNS: list[str] = ["id", "generator", "difficulty", "condition", "metric", "llm_score",
                              "p", "p_published", "match_published", "judge", "match"]


def _tidy_verdicts(frames: list[pd.DataFrame], records: pd.DataFrame, record_ids: list[str],
                   orders: dict[str, list[str]]) -> pd.DataFrame:
    """Return the verdict frames as one frame: dag_type from records, ordered categoricals, float32 scores."""
    verdicts = (pd.concat(frames, ignore_index=True) if frames else
                pd.DataFrame(columns=VERDICT_COLUMNS))
    if len(verdicts):
        dag_codes = records["dag_type"].cat.codes.to_numpy()
        verdicts["dag_type"] = pd.Categorical.from_codes(
            dag_codes[verdicts["id"].cat.codes.to_numpy()],
            categories=records["dag_type"].cat.categories)
    verdicts = _categorize(verdicts, orders)
    for col in ("llm_score", "p", "p_published", "match_published", "match"):
        if col in verdicts:
            verdicts[col] = verdicts[col].astype("float32")
    if not isinstance(verdicts["id"].dtype, pd.CategoricalDtype):
        verdicts["id"] = pd.Categorical(verdicts["id"].astype(str), categories=record_ids)
    return verdicts


# --------------------------------------------------------------------------------------------
# The tidy-frame cache around the loader (ajb_utils.cache)
# --------------------------------------------------------------------------------------------

def _run_files(src: Source, runs: str | list[str] | None) -> list[Path]:
    """Return every run file (jsonl and meta) `load_bench` may read for these `runs`."""
    if runs is None:
        return []
    dirs = ([Path(src.location) / "runs", Path(src.location) / "runs" / "generators"]
            if src.is_local else []) + [RUNS_DIR, RUNS_DIR / "generators"]
    return sorted(p for d in dirs if d.is_dir() for p in d.iterdir()
                  if p.is_file() and p.name.endswith((".jsonl", ".meta.json")))


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (a load builds millions of acyclic objects, and each
    collection would walk them all); restore its state afterwards."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _bench_from_cache(source: str | Path, label: str) -> Any:
    """Return the function that rebuilds a Bench from a cache entry's frames and meta."""
    def make(frames: dict[str, pd.DataFrame], meta: dict[str, Any]) -> Bench:
        """Return the cached Bench, provenance from this call (source) and the entry."""
        note = f"read from the tidy-frame cache (data/cache/{bench_cache.BENCH_DIR}/, key " \
               f"{meta['key'][:12]}); load_bench(..., cache=False) reads the files again"
        return Bench(**frames, source=str(source), revision=meta["revision"], label=label,
                     synthetic=meta["synthetic"], messages=[*meta["messages"], note])
    return make


def _cached_load(source: str | Path, src: Source, args: dict[str, Any]) -> Bench:
    """Return `load_bench(source, **args)` through the tidy-frame cache (keyed by content)."""
    def load() -> Bench:
        """Return the bench read from its files."""
        return load_bench(source, **args, cache=False)

    revision = args["revision"]
    if src.is_local:
        files = config_files(src, revision)
        root = Path(src.location)
        inputs = [root / "README.md", *(root / f for ps in files.values() for f in ps)]
        commit = None
    else:
        commit = hub_commit(src.location, revision)  # HubUnavailable (one line) when offline
        args = {**args, "revision": commit}  # the load below reads exactly this commit
        inputs = []
    inputs += _run_files(src, args["runs"])
    parts = {"location": src.location, "commit": commit,
             "args": {k: v for k, v in args.items()},
             "loader": bench_cache.code_fingerprint(sys.modules[__name__])}
    return bench_cache.cached(
        load, parts, inputs, src.label, _bench_from_cache(source, src.label),
        lambda b: {"revision": b.revision, "synthetic": b.synthetic, "messages": b.messages})


def load_bench(source: str | Path = "sample", generators: list[str] | None = None,
               judges: list[str] | None = None, revision: str | None = None,
               runs: str | list[str] | None = "auto", engine: str | None = None,
               justifications: bool = False, cache: bool = True) -> Bench:
    """Return the benchmark from `source` ("sample", "hf", hub repo id, or local dir).

    generators / judges: subsets of config names (None = all); unknown names are skipped with a
    message. runs: "auto" loads judge runs from <source>/runs and data/runs, None loads none, a
    list selects runs by name. engine: "json" (default for local folders: the JSON-lines files
    read directly, judge configs by Arrow's C++ reader) or "datasets" (default for the hub:
    `datasets.load_dataset`, its Arrow copy cached by content). justifications: keep the
    judges' one-sentence rationales in `verdicts` (more memory). cache: read and write the
    tidy-frame cache (ajb_utils.cache; keyed by the inputs' content or hub commit, the
    arguments and the loader's code); False reads the files every time.
    """
    src = resolve_source(source)
    engine = engine or ("json" if src.is_local else "datasets")
    if engine not in ("datasets", "json"):
        raise BenchDataError(f"engine must be 'datasets' or 'json', not {engine!r}")
    if cache or gc.isenabled():  # the entry: through the cache, the cyclic GC paused
        args = {"generators": generators, "judges": judges, "revision": revision, "runs": runs,
                "engine": engine, "justifications": justifications}
        with _gc_paused():
            return (_cached_load(source, src, args) if cache
                    else load_bench(source, **args, cache=False))
    messages: list[str] = []
    if not src.is_local:  # fails in seconds offline; pins every read below to one commit
        requested, revision = revision, hub_commit(src.location, revision)
        messages.append(f"hub revision {requested or 'main'} = commit {revision}")
    excl: list[pd.DataFrame] = []
    files = _config_files_or_explain(src, revision)

    records = build_records(read_config(src, schema.MAIN_CONFIG, files.get(schema.MAIN_CONFIG),
                                        revision, engine, messages), excl)
    record_ids = records["id"].tolist()
    generations, generator_names = _load_generations(src, files, revision, engine, generators,
                                                     runs, records, excl, messages)
    gen_index = generation_index(generations, record_ids, generator_names)

    synthetic = src.label == "sample" or "synthetic" in _readme_text(src, revision)[:4000].lower()
    verdict_frames: list[pd.DataFrame] = []
    judge_rows: list[dict[str, Any]] = []
    for j in _select(judges, schema.JUDGES, files, "judge", messages):
        raw = read_judge_config(src, j, files, revision, engine, messages, justifications)
        verdict_frames.append(build_verdicts(raw, j, gen_index, excl, justifications))
        judge_rows.append(_judge_meta(j, "release", synthetic,
                                      conditions=schema.MAIN_CONDITIONS))
    run_frames, run_rows = _load_judge_runs(src, runs, gen_index, justifications, excl, messages)
    judges_tbl = pd.DataFrame(judge_rows + run_rows,
                              columns=list(_judge_meta("x", "", False).keys()))

    orders = {"generator": generator_names, "difficulty": schema.DIFFICULTIES,
              "dag_type": schema.TOPOLOGIES, "judge": judges_tbl["judge"].tolist(),
              "condition": schema.CONDITIONS, "metric": schema.METRICS}
    verdicts = _tidy_verdicts(verdict_frames + run_frames, records, record_ids, orders)
    generations = _categorize(generations, {k: v for k, v in orders.items()
                                            if k in ("generator", "difficulty", "dag_type")})
    exclusions = (pd.concat(excl, ignore_index=True) if excl else
                  pd.DataFrame(columns=EXCLUSION_COLUMNS))
    return Bench(records=records, generations=generations, verdicts=verdicts,
                 exclusions=exclusions, judges=judges_tbl, source=str(source),
                 revision=_source_revision(src, revision, files), label=src.label,
                 synthetic=synthetic, messages=messages)
