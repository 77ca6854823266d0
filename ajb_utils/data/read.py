"""Reading one config's JSON-lines files into columns, by `ajb_utils.decode` (the released layout
by its schema, any other converted line by line, saying so), as a `Raw`; what the rows mean is
decided later, once (`ajb_utils.calls`, `build`). (`datasets.load_dataset` is the way to look at
one config interactively; the loader does not go through it.)

A file that ends inside a line, or a config with fewer rows than its card declares, is an
IncompleteDataError naming the file: a malformed line in the middle is a counted exclusion, but a
cut file silently loses every row after the cut."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

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
# One config
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
    messages: list[str],
    kind: str = "main",
    justifications: bool = False,
) -> Raw:
    """Return the rows of one config of `kind` ("main", "generator" or "judge"), its files read
    (`read_files`; downloaded at `revision` for the hub)."""
    files = card.files.get(config)
    if not files:
        raise BenchDataError(f"config {config!r} has no data files in the README header")
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
    """Return a frame of rows of Python values (a static judge's rows) as
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
