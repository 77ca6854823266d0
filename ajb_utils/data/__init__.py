"""One loading path for the hub, a local mirror of it, and the embedded sample.

`load_bench(source)` is the one public entry, `build_bench(source)` the build it reads. A load
resolves its source once (`resolve`: `source`, the card, `runs`), reads each config's JSON lines
into columns (`read`), builds the tidy frames of a `Bench` (`build`, docs/DATA_FORMAT.md §4) with
bad rows left out by named rules, each counted in `Bench.exclusions` (`rules`, Appendix D), and
keeps them as Parquet in a folder named by what was read (`ajb_utils.cache`).
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ajb_utils import cache as bench_cache
from ajb_utils import schema
from ajb_utils.data.bench import Bench, BenchDataError, HubUnavailable, IncompleteDataError
from ajb_utils.data.build import (
    build_generations,
    build_records,
    build_verdicts,
    categorize,
    compact,
    generation_table,
    judge_verdicts,
    kept_notes,
    notes_column,
    score_generations,
    tidy_verdicts,
)
from ajb_utils.data.read import Raw, noted, read_config, read_files
from ajb_utils.data.rules import DUPLICATE, SUPERSEDED, Excluded, exclusion_frame
from ajb_utils.data.runs import Run, RunsArg, key_meta, label_with_runs, select_runs
from ajb_utils.data.source import (
    HUB_TIMEOUT,
    Card,
    Source,
    hub_commit,
    missing_file,
    planted_effects,
    probe_hub,
    read_card,
    resolve_source,
)
from ajb_utils.scoring import check_published_scores

__all__ = [
    "HUB_TIMEOUT",
    "Bench",
    "BenchDataError",
    "HubUnavailable",
    "IncompleteDataError",
    "build_bench",
    "load_bench",
    "planted_effects",
    "probe_hub",
    "resolve_source",
    "check_published_scores",
    "build_verdicts",
    "DUPLICATE",
    "SUPERSEDED",
]

log = logging.getLogger("ajb_utils.data")
CALL_COLUMNS = {"records": ("tools", "expected_calls"), "generations": ("generated_calls",)}
JUDGE_COLUMNS = ["judge", "display", "origin", "synthetic", "study", "base_model", "conditions", "decoding"]
BUILD_NOTE = "read from the built bench"


def _select(
    requested: list[str] | None, known: list[str], available: dict[str, Any], kind: str, messages: list[str]
) -> list[str]:
    """Return the requested configs (None: all) the source has, in paper order; one it lacks skipped, saying so."""
    if requested is None:
        return [k for k in known if k in available]
    wanted = [schema.canonical_generator(r) for r in requested]
    for name in (w for w in wanted if w not in known or w not in available):
        if name not in known:
            messages.append(f"unknown {kind} config {name!r} skipped (known: {', '.join(known)})")
        else:
            messages.append(f"{kind} config {name!r} not in this source; skipped")
        log.warning(messages[-1])
    return [k for k in known if k in wanted and k in available]


@dataclass(frozen=True)
class Resolved:
    """A source resolved once, handed to the build and the read: what it is (`src`), the commit
    every hub read is pinned to (None for a local folder), its card, the runs the load reads, its
    input files by their name in the build's key, the label and what resolving it said."""

    given: str
    src: Source
    revision: str | None
    card: Card
    judge_runs: list[Run]
    generator_runs: list[Run]
    files: dict[str, Path]
    label: str
    messages: list[str]

    def named(self) -> dict[str, Any]:
        """Return what names the source in the build's key: its runs, and the hub repo and commit."""
        runs = {"runs": {r.name: key_meta(r) for r in [*self.judge_runs, *self.generator_runs]}}
        return runs if self.src.is_local else runs | {"location": self.src.location, "commit": self.revision}

    def recorded_revision(self) -> str:
        """Return the revision a Bench records: the hub commit, or a hash of a local source's card
        and its files' contents."""
        if self.revision:
            return self.revision
        root = Path(self.src.location)
        rels = sorted({p for ps in self.card.files.values() for p in ps})
        digests = bench_cache.file_digests([root / rel for rel in rels])  # known once the files were read
        content = b"".join(rel.encode() + digests[str((root / rel).resolve())].encode() for rel in rels)
        return "local:" + hashlib.sha256(content + self.card.readme).hexdigest()[:12]

    def read(
        self, name: str, kind: str, messages: list[str], run: Run | None = None, justifications: bool = False
    ) -> Raw:
        """Return a released config of `kind` ("main", "generator", "judge") or a run's file, as read."""
        if run is None:
            return read_config(self.src, self.card, name, self.revision, messages, kind, justifications)
        return noted(name, read_files([run.path], kind, justifications), messages)


def resolve(source: str | Path, revision: str | None, runs: RunsArg) -> Resolved:
    """Return the source resolved once: the hub commit asked (HubUnavailable, one line, offline),
    the card read, the runs selected, every input file found (a missing one is a one-line
    BenchDataError naming it)."""
    src = resolve_source(source)
    messages: list[str] = []
    if not src.is_local:  # fails in seconds offline; pins every read below to one commit
        requested, revision = revision, hub_commit(src.location, revision)
        messages.append(f"hub revision {requested or 'main'} = commit {revision}")
    card = read_card(src, revision)
    if src.is_local and (missing := missing_file(Path(src.location), card, runs)) is not None:
        raise BenchDataError(missing)
    judge_runs = select_runs(src, runs, "", messages)
    generator_runs = select_runs(src, runs, "generators", messages)
    label = label_with_runs(src.label, runs, judge_runs + generator_runs)
    files = {f"runs/{r.name}": r.path for r in [*judge_runs, *generator_runs]}
    if src.is_local:
        rels = ["README.md", *(f for ps in card.files.values() for f in ps)]
        files |= {rel: Path(src.location) / rel for rel in rels}
    return Resolved(str(source), src, revision, card, judge_runs, generator_runs, files, label, messages)


def _built(res: Resolved, generators: list[str] | None, judges: list[str] | None, runs: RunsArg) -> Path:
    """Return the folder of the built bench of these inputs: an existing build when the inputs'
    digests are known, else the configs read once (their digests taken from the bytes read) and
    the build written unless one of that content exists."""
    args = {"generators": generators, "judges": judges, "revision": res.revision}
    parts = {**res.named(), "args": {**args, "runs": runs}}
    key = bench_cache.build_key(parts, res.files, read=False)
    if key is not None and bench_cache.build_meta(bench_cache.build_dir(key)) is not None:
        return bench_cache.build_dir(key)
    before = bench_cache.signatures(res.files.values())
    bench = read_bench(res, generators, judges, justifications=True)
    if bench_cache.signatures(res.files.values()) != before:
        raise BenchDataError(f"{res.given}: a data file changed while it was read; run again when it is complete")
    folder = bench_cache.build_dir(str(bench_cache.build_key(parts, res.files, read=True)))
    if bench_cache.build_meta(folder) is None:
        meta = {"location": res.src.location, "args": parts["args"], "revision": bench.revision}
        meta |= {"synthetic": bench.synthetic, "messages": bench.messages}
        bench_cache.write_build(folder, {name: getattr(bench, name) for name in bench_cache.FRAMES}, meta)
    return folder


def build_bench(
    source: str | Path = "sample",
    generators: list[str] | None = None,
    judges: list[str] | None = None,
    revision: str | None = None,
    runs: RunsArg = "shipped",
) -> Path:
    """Return the folder of the built bench of `source` (tidy frames as Parquet, the judges'
    rationales included), reading the configs once to build it when no build of these inputs
    exists. Arguments as `load_bench`'s. Raises BenchDataError when an input changes while read."""
    return _built(resolve(source, revision, runs), generators, judges, runs)


def load_bench(
    source: str | Path = "sample",
    generators: list[str] | None = None,
    judges: list[str] | None = None,
    revision: str | None = None,
    runs: RunsArg = "shipped",
    justifications: bool = False,
    cache: bool = True,
    calls: bool | list[str] = True,
    ids: list[str] | None = None,
) -> Bench:
    """Return the benchmark from `source` ("sample", "hf", hub repo id, or local dir).

    generators / judges: subsets of config names (None = all); unknown names are skipped with a
    message. runs: "shipped" (default) the source's own runs (<source>/runs), "auto" also the
    user's runs in data/runs made on this source (the label becomes `<label>-runs`, so outputs go
    to a folder of their own), a list selects runs by name, None loads none (`data.runs`).
    The JSON-lines files are read directly (downloaded at the pinned commit for the hub), each
    config by one reader (`read`). calls: which call lists and tool schemas a built bench's read
    decodes (`records.tools`, `records.expected_calls`, `generations.generated_calls`): True all,
    False none (an analysis of the scores alone), or a list of those column names; a column
    projection, so the columns decoded are the ones used. justifications: keep the judges'
    one-sentence rationales in `verdicts` (more memory). cache: read the build of these inputs
    (`build_bench`, made when missing; a copy of a source elsewhere reads the same build); False
    reads the files every time. ids: only these records' rows of records, generations and verdicts,
    read from the build (a few cases with their rationales, say, without every other rationale); a
    BenchDataError names the ids the source does not hold (an empty list reads no rows). Raises
    BenchDataError (one line) for a source it cannot read, IncompleteDataError for a file cut short.
    """
    if not cache and ids is not None:
        raise BenchDataError("ids selects rows of the build: not with cache=False")
    keep = _call_columns(calls)
    res = resolve(source, revision, runs)
    if not cache:
        return read_bench(res, generators, judges, justifications)
    folder = _built(res, generators, judges, runs)
    drop = {frame: tuple(c for c in columns if c not in keep) for frame, columns in CALL_COLUMNS.items()}
    drop |= {} if justifications else {"verdicts": ("justification",)}
    frames, meta = bench_cache.read_build(folder, drop, None if ids is None else [str(i) for i in ids])
    unknown = [] if ids is None else sorted(set(map(str, ids)) - set(frames["records"]["id"].astype(str)))
    if unknown:
        raise BenchDataError(f"{len(unknown)} record id(s) not in this source: {', '.join(unknown[:5])}")
    here = res.src.location  # the build's messages name the files where they were read
    note = f"{BUILD_NOTE} ({bench_cache.BENCH_DIR}/{folder.name}); load_bench(..., cache=False) reads the files again"
    return Bench(
        **frames,
        source=res.given,
        revision=meta["revision"],
        label=res.label,
        synthetic=meta["synthetic"],
        messages=[*(m.replace(meta["location"], here) for m in meta["messages"]), note],
    )


def _call_columns(calls: bool | list[str]) -> set[str]:
    """Return the call columns `load_bench(calls=...)` asks for; anything but True, False or a list of
    their names is a BenchDataError."""
    every = {c for columns in CALL_COLUMNS.values() for c in columns}
    if isinstance(calls, bool):
        return every if calls else set()
    if not isinstance(calls, list | tuple | set | frozenset) or not every.issuperset(calls):
        raise BenchDataError(f"calls={calls!r}: give True, False or a list of the call columns {sorted(every)}")
    return set(calls)


def read_bench(res: Resolved, generators: list[str] | None, judges: list[str] | None, justifications: bool) -> Bench:
    """Return the benchmark read from the resolved source's files (no build): records, scored
    generations, long verdicts, exclusions and judges, as `load_bench` describes."""
    messages, excl = list(res.messages), []
    wanted = _select(judges, schema.JUDGES, res.card.files, "judge", judge_messages := [])
    chosen = _select(generators, schema.GENERATORS, res.card.files, "generator", generator_messages := [])
    orders = _orders(res.generator_runs)
    records = build_records(res.read(schema.MAIN_CONFIG, "main", messages), excl)
    messages += generator_messages
    frames = []
    for name, run in [*((g, None) for g in chosen), *((r.name, r) for r in res.generator_runs)]:
        frames.append(build_generations(res.read(name, "generator", messages, run), name, records, excl, messages))
        messages += [f"loaded generator run {name!r}"] if run else []  # made with `python -m ajb_judge generate`
    generations = categorize(score_generations(frames, records), orders)
    del frames
    messages += judge_messages
    index = generation_table(generations, records["id"].tolist(), orders["generator"])
    unread = [g for g in schema.GENERATORS if g not in chosen]  # not asked for, or not in this source
    judges_tbl, tidy = _verdicts(res, wanted, unread, index, records, orders, excl, messages, justifications)
    return Bench(
        records=records,
        generations=generations,
        verdicts=tidy,
        exclusions=exclusion_frame(excl),
        judges=judges_tbl,
        source=res.given,
        revision=res.recorded_revision(),
        label=res.label,
        synthetic=res.card.synthetic,
        messages=messages,
    )


def _verdicts(
    res: Resolved,
    wanted: list[str],
    unread: list[str],
    index: pd.DataFrame,
    records: pd.DataFrame,
    orders: dict[str, list[str]],
    excl: list[Excluded],
    messages: list[str],
    justifications: bool,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Return (the judges table, the tidy verdicts) of the released judge configs `wanted` and the
    judge runs, read one at a time, each freed once its verdicts are kept (a run that is not a judge
    config skipped, saying so; rows about the generators `unread` left out, saying how many)."""
    verdicts: list[pd.DataFrame] = []
    n_unread = 0
    notes: list[Any] = []  # the kept rows' rationales, judge by judge
    judge_rows: list[dict[str, Any]] = []
    for name, run in [*((j, None) for j in wanted), *((r.name, r) for r in res.judge_runs)]:
        raw = res.read(name, "judge", messages, run, justifications)
        try:
            frame, at, n = judge_verdicts(raw, name, index, excl, unread)
        except IncompleteDataError:
            raise
        except BenchDataError as exc:  # a run that is not a judge config is skipped, saying so
            if run is None:
                raise
            messages.append(f"run {name!r} skipped: {exc}")
            log.warning(messages[-1])
            continue
        verdicts.append(compact(frame))
        n_unread += n
        notes += [kept_notes(raw, at)] if justifications else []
        judge_rows.append(_judge_row(name, run, verdicts[-1], res.src.label, res.card.synthetic))
        del raw
    if n_unread:
        messages.append(
            f"{n_unread} judge row(s) about generators not read ({', '.join(unread)}) left out, not as exclusions"
        )
    judges_tbl = pd.DataFrame(judge_rows, columns=JUDGE_COLUMNS)
    tidy = tidy_verdicts(verdicts, records, {**orders, "judge": judges_tbl["judge"].tolist()})
    if justifications:  # before `judge`, as `build_verdicts` places it
        tidy.insert(tidy.columns.get_loc("judge"), "justification", notes_column(notes))
    return judges_tbl, tidy


def _judge_row(name: str, run: Run | None, frame: pd.DataFrame, label: str, synthetic: bool) -> dict[str, Any]:
    """Return the `judges` row (JUDGE_COLUMNS) of a released judge config (`run` None) or a run."""
    meta = {} if run is None else run.meta
    origin = "release" if run is None else "sample run" if run.shipped and label == "sample" else "run"
    conditions = schema.MAIN_CONDITIONS if run is None else sorted(frame["condition"].unique().tolist())
    conditions = conditions or meta.get("conditions", [])  # a run none of whose verdicts is kept
    return {
        "judge": name,
        "display": meta.get("display", schema.display(name)),
        "origin": origin,
        "synthetic": bool(meta.get("synthetic", synthetic if run is None else False)),
        "study": meta.get("study", "main" if name in schema.JUDGES else "run"),
        "base_model": meta.get("judge", name),
        "conditions": ",".join(conditions),
        "decoding": json.dumps(meta.get("decoding", {}), sort_keys=True),
    }


def _orders(generator_runs: list[Run]) -> dict[str, list[str]]:
    """Return the categorical orders of the name columns (the released generators, then runs)."""
    return {
        "generator": [*schema.GENERATORS, *(r.name for r in generator_runs)],
        "difficulty": schema.DIFFICULTIES,
        "dag_type": schema.TOPOLOGIES,
        "condition": schema.CONDITIONS,
        "metric": schema.METRICS,
    }
