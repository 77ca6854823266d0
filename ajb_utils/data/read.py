"""Reading one config's bytes into rows: the JSON-lines files directly, by `ajb_utils.decode`, or
through `datasets.load_dataset`, whose rows are decoded the same way (and which falls back to the files when
Arrow type inference fails, saying so). Whatever the engine, the result is a `Raw` of the same
shape; what the rows mean is decided later, once (`ajb_utils.calls`, `build`).

A file that ends inside a line, or a config with fewer rows than its card declares, is an
IncompleteDataError naming the file: a malformed line in the middle is a counted exclusion, but a
cut file silently loses every row after the cut."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from ajb_utils import cache as bench_cache
from ajb_utils import decode, schema
from ajb_utils.data.bench import BenchDataError, IncompleteDataError
from ajb_utils.data.source import Card, Source, fetch

log = logging.getLogger("ajb_utils.data")

_FIELDS = {"main": decode.MAIN_FIELDS, "generator": decode.GENERATOR_FIELDS}


@dataclass
class Raw:
    """One config as read: `rows` holds nested values (dicts, lists or JSON strings) or, for a
    judge config, its flat columns (`decode.judge_columns`: `cond.metric.field` numbers); `notes`
    its rationales when read (`cond.metric.justification` -> an Arrow string array); `bad` the
    malformed lines' reasons; `unknown` the condition-like columns that are not known
    conditions; `converted` why a file was not read as the released layout but converted to it
    line by line (None when it was, or for rows given as Python values); `n` rows in the files."""

    rows: pd.DataFrame
    bad: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)
    converted: str | None = None

    @property
    def n(self) -> int:
        """Return the number of lines read (valid and malformed)."""
        return len(self.rows) + len(self.bad)


def _cut(path: Path, what: str) -> IncompleteDataError:
    """Return the error for a file that ends inside a line (`what`: the decoder's reason, which may
    already name the file)."""
    what = what.removeprefix(f"{path}: ")
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
    return bench_cache.datasets_cache_dir(root, [root / "README.md", *(root / f for f in files)])


def dataset_table(src: Source, config: str, revision: str | None, files: list[str]) -> Any:
    """Return a config's Arrow table through `datasets.load_dataset` (cached by content)."""
    import datasets

    datasets.disable_progress_bars()
    datasets.logging.set_verbosity_error()
    ds = datasets.load_dataset(
        src.location, config, split="train", revision=revision, cache_dir=str(_datasets_cache_dir(src, files))
    )
    return ds.data.table


def arrow_typing_error(exc: BaseException) -> str | None:
    """Return, in one line, the Arrow typing error behind `exc` (Arrow's invalid / type errors,
    datasets' cast errors and its "Couldn't cast" TypeError), following its causes; None if none."""
    import pyarrow as pa

    seen: BaseException | None = exc
    while seen is not None:
        typing = isinstance(seen, (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError))
        typing |= type(seen).__name__ in ("CastError", "DatasetGenerationCastError")
        typing |= isinstance(seen, TypeError) and str(seen).startswith("Couldn't cast")
        if typing:
            return f"{type(seen).__name__}: {' '.join(str(seen).split())[:200]}"
        seen = seen.__cause__ or seen.__context__
    return None


def dataset_rows(table: Any) -> list[dict[str, Any]]:
    """Return the rows of a config's Arrow table as Python values, datasets' Json feature (the
    JSON text `datasets` stores for a column whose type changes between rows) decoded back."""
    rows = table.to_pylist()
    for name in [f.name for f in table.schema if getattr(f.type, "extension_name", None) == "arrow.json"]:
        for row in rows:
            row[name] = None if row[name] is None else json.loads(row[name])
    return rows


# --------------------------------------------------------------------------------------------
# One config, whatever the engine
# --------------------------------------------------------------------------------------------


def noted(config: str, raw: Raw, messages: list[str]) -> Raw:
    """Return `raw`, saying in `messages` where its malformed lines are (file and line, the first
    three; every one is also an exclusion) and which condition-like columns of a judge config
    are not known conditions (not read)."""
    if raw.bad:
        more = f" and {len(raw.bad) - 3} more" if len(raw.bad) > 3 else ""
        messages.append(
            f"config {config!r}: {len(raw.bad)} malformed JSON line(s) left out: {'; '.join(raw.bad[:3])}{more}"
        )
        log.warning(messages[-1])
    if raw.converted:
        messages.append(f"config {config!r}: not the released layout ({raw.converted}); converted line by line")
        log.info(messages[-1])
    if raw.unknown:
        messages.append(
            f"judge config {config!r}: column(s) {raw.unknown} are not known "
            f"conditions ({', '.join(schema.CONDITIONS)}); not read"
        )
        log.warning(messages[-1])
    return raw


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
    justifications: bool = False,
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
        except Exception as exc:  # datasets wraps the Arrow error it met; anything else is the user's to fix
            typing = arrow_typing_error(exc)
            if typing is None:
                raise BenchDataError(
                    f"config {config!r}: datasets could not read it ({type(exc).__name__}: {exc}); "
                    "engine='json' reads the JSON-lines files without datasets"
                ) from exc
            msg = (
                f"config {config!r}: datasets could not type it in Arrow ({typing}); "
                "read the JSON-lines file directly instead"
            )
            messages.append(msg)
            log.warning(msg)
        else:
            raw = read_files([dataset_rows(table)], kind, justifications)
            return noted(config, _checked(raw, config, card, files), messages)
    paths = [fetch(src, rel, revision) for rel in files]
    return noted(config, _checked(read_files(paths, kind, justifications), config, card, files), messages)


def read_files(
    sources: list[decode.Source],
    kind: str = "main",
    justifications: bool = False,
) -> Raw:
    """Return the rows of JSON-lines files (or lines) by `ajb_utils.decode`: a judge config's flat
    columns (with its rationales when `justifications`), the fields the loader reads of others."""
    if kind != "judge":
        return _raw(decode.row_columns(sources, _FIELDS[kind]))
    return _raw(decode.judge_columns(sources, justifications))


def frame_rows(rows: pd.DataFrame) -> list[dict[str, Any]]:
    """Return a frame of rows of Python values (`datasets`' Arrow rows, a static judge's rows) as
    the rows of JSON objects, to be decoded as the files are (a missing value as null)."""
    return rows.astype(object).where(rows.notna(), None).to_dict("records")


def _raw(columns: decode.Columns) -> Raw:
    """Return decoded columns as a Raw (a judge config's id, generator and difficulty, given as
    (codes, uniques), as categoricals); IncompleteDataError when a file ends inside a line."""
    if columns["cut"] is not None:
        raise _cut(Path(columns["cut"][0]), columns["cut"][1])
    rows = {k: v for k, v in columns.items() if k not in ("bad", "cut", "unknown", "converted")}
    notes = {k: rows.pop(k) for k in list(rows) if k.endswith(".justification")}
    rows.update({k: pd.Categorical.from_codes(*v, validate=False) for k, v in rows.items() if isinstance(v, tuple)})
    return Raw(pd.DataFrame(rows), columns["bad"], columns.get("unknown", []), notes, columns.get("converted"))
