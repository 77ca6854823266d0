"""One loading path for the hub, a local mirror of it, and the embedded sample.

`load_bench(source)` is the one public entry. It resolves the source (`source`: "sample" ->
data/sample, "hf" -> ServiceNow-AI/AgentJudgeBench pinned to one commit, or a folder laid out
like the hub repo) and reads its card once; reads each config's bytes into rows (`read`: the
JSON-lines files, or `datasets.load_dataset`); builds the tidy frames of a `Bench` (`build`,
docs/DATA_FORMAT.md §4) with calls normalised once (`ajb_utils.calls`) and bad rows left out by
named rules (`rules`, Appendix D), each one counted in `Bench.exclusions`; and adds the runs it is
asked for (`runs`). The tidy-frame cache (`ajb_utils.cache`) is a decorator around it.

To open one config interactively, `datasets` is the documented way:
`datasets.load_dataset("data/sample", "judge_qwq_32b")` (or the hub repo id) gives the raw rows.
"""

from __future__ import annotations

import functools
import logging
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import xxhash

from ajb_utils import cache as bench_cache
from ajb_utils import schema
from ajb_utils.data.bench import Bench, BenchDataError, HubUnavailable, IncompleteDataError
from ajb_utils.data.build import (
    GenerationIndex,
    build_generations,
    build_records,
    build_verdicts,
    categorize,
    compact,
    generation_keys,
    judge_verdicts,
    raw_notes,
    release_memory,
    score_generations,
    tidy_verdicts,
    with_justifications,
)
from ajb_utils.data.read import JudgeReader, Raw, read_config, read_files
from ajb_utils.data.rules import DUPLICATE, SUPERSEDED, Excluded, exclusion_frame
from ajb_utils.data.runs import JUDGE_COLUMNS, Run, RunsArg, judge_meta, key_meta, label_with_runs, select_runs
from ajb_utils.data.source import (
    HUB_TIMEOUT,
    hub_commit,
    probe_hub,
    read_card,
    resolve_source,
    source_revision,
)
from ajb_utils.scoring import check_published_scores

__all__ = [
    "HUB_TIMEOUT",
    "Bench",
    "BenchDataError",
    "HubUnavailable",
    "IncompleteDataError",
    "load_bench",
    "probe_hub",
    "resolve_source",
    "check_published_scores",
    "build_verdicts",
    "generation_keys",
    "DUPLICATE",
    "SUPERSEDED",
]

log = logging.getLogger("ajb_utils.data")
CACHE_NOTE = "read from the tidy-frame cache"


def _engine(engine: str | None) -> str:
    """Return the engine to read with: "json" (the default, whatever the source) or "datasets"."""
    engine = engine or "json"
    if engine not in ("datasets", "json"):
        raise BenchDataError(f"engine must be 'datasets' or 'json', not {engine!r}")
    return engine


def _select(
    requested: list[str] | None, known: list[str], available: dict[str, Any], kind: str, messages: list[str]
) -> list[str]:
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


def _plan(
    source: str | Path,
    generators: list[str] | None,
    judges: list[str] | None,
    revision: str | None,
    runs: RunsArg,
    engine: str | None,
    justifications: bool,
) -> bench_cache.Plan:
    """Return how `load_bench(source, ...)` is keyed in the tidy-frame cache: the source's files
    by content (or the hub commit), the arguments, and the runs it would read."""
    src = resolve_source(source)
    engine = _engine(engine)
    if src.is_local:
        commit, root = None, Path(src.location)
        card = read_card(src, revision)
        inputs = [root / "README.md", *(root / f for ps in card.files.values() for f in ps)]
    else:
        commit = hub_commit(src.location, revision)  # HubUnavailable (one line) when offline
        inputs = []
    found = [*select_runs(src, runs, "", []), *select_runs(src, runs, "generators", [])]
    args = {
        "generators": generators,
        "judges": judges,
        "revision": commit or revision,
        "runs": runs,
        "engine": engine,
        "justifications": justifications,
    }
    label = label_with_runs(src.label, runs, found)

    def make(frames: dict[str, pd.DataFrame], meta: dict[str, Any]) -> Bench:
        """Return the cached Bench, provenance from this call (source) and the entry."""
        note = (
            f"{CACHE_NOTE} (data/cache/{bench_cache.BENCH_DIR}/, key {meta['key'][:12]}); "
            "load_bench(..., cache=False) reads the files again"
        )
        return Bench(
            **frames,
            source=str(source),
            revision=meta["revision"],
            label=label,
            synthetic=meta["synthetic"],
            messages=[*meta["messages"], note],
        )

    return bench_cache.Plan(
        parts={
            "location": src.location,
            "commit": commit,
            "args": args,
            "runs": {str(r.path): key_meta(r) for r in found},
        },
        inputs=inputs + [r.path for r in found],
        label=label,
        args={"source": source, **args},
        make=make,
        provenance=lambda b: {"revision": b.revision, "synthetic": b.synthetic, "messages": b.messages},
    )


@bench_cache.keyed_by_content(_plan)
def load_bench(
    source: str | Path = "sample",
    generators: list[str] | None = None,
    judges: list[str] | None = None,
    revision: str | None = None,
    runs: RunsArg = "shipped",
    engine: str | None = None,
    justifications: bool = False,
    cache: bool = True,
) -> Bench:
    """Return the benchmark from `source` ("sample", "hf", hub repo id, or local dir).

    generators / judges: subsets of config names (None = all); unknown names are skipped with a
    message. runs: "shipped" (default) the source's own runs (<source>/runs), "auto" also the
    user's runs in data/runs made on this source (the label becomes `<label>-runs`, so outputs go
    to a folder of their own), a list selects runs by name, None loads none (`data.runs`).
    engine: "json" (the default: the JSON-lines files read directly, downloaded at the pinned
    commit for the hub; every config decoded by `ajb_utils.decode`)
    or "datasets" (`datasets.load_dataset`, its Arrow copy cached by content, ~10x slower on a
    first load); both give the same frames. justifications: keep the judges'
    one-sentence rationales in `verdicts` (more memory). cache: read and write the tidy-frame
    cache (keyed by the inputs' content or hub commit, the arguments and the loader's code);
    False reads the files every time. Raises BenchDataError (one line) for a source it cannot
    read, IncompleteDataError for a file cut short.
    """
    src = resolve_source(source)
    engine = _engine(engine)
    messages: list[str] = []
    if not src.is_local:  # fails in seconds offline; pins every read below to one commit
        requested, revision = revision, hub_commit(src.location, revision)
        messages.append(f"hub revision {requested or 'main'} = commit {revision}")
    card = read_card(src, revision)
    judge_runs = select_runs(src, runs, "", messages)
    generator_runs = select_runs(src, runs, "generators", messages)
    excl: list[Excluded] = []
    wanted = _select(judges, schema.JUDGES, card.files, "judge", judge_messages := [])
    chosen = _select(generators, schema.GENERATORS, card.files, "generator", generator_messages := [])
    parts = bench_cache.Parts(cache, bench_cache.code_fingerprint(sys.modules[__name__]))
    content = _contents(src, card, revision, [*wanted, *chosen, schema.MAIN_CONFIG], judge_runs + generator_runs)
    base = {"engine": engine, "card": content["README.md"], "generators": [(g, content[g]) for g in chosen]}
    base_key = parts.key(
        {**base, "main": content[schema.MAIN_CONFIG], "runs": [(r.name, content[str(r.path)]) for r in generator_runs]}
    )
    # each judge config's and run's part: (kind, name) -> key, what is kept, the file to decode
    keys = {("release", j): parts.key({"base": base_key, "judge": j, "content": content[j]}) for j in wanted}
    keys.update(
        {
            ("run", r.name): parts.key({"base": base_key, "judge": r.name, "content": content[str(r.path)]})
            for r in judge_runs
        }
    )
    kept = {c: parts.get(key, f"{src.location}:{c[1]}") for c, key in keys.items()}
    local = src.is_local and engine == "json"
    paths = {("release", j): Path(src.location) / card.files[j][0] for j in wanted if local and len(card.files[j]) == 1}
    paths.update({("run", r.name): r.path for r in judge_runs})
    modes = {n: "all" if justifications else "scores" for n, k in kept.items() if k is None}
    modes.update({n: "notes" for n, k in kept.items() if justifications and k is not None and k[1][2] is not None})
    jobs = [(p, modes[n]) for n, p in paths.items() if n in modes]
    with bench_cache.gc_paused(), JudgeReader(jobs) as reader:
        slot = f"{src.location}:generations"
        hit = parts.get(base_key, slot)
        if hit is None:
            seg: list[str] = []
            gex: list[Excluded] = []
            records = build_records(read_config(src, card, schema.MAIN_CONFIG, revision, engine, seg), gex)
            seg += generator_messages
            frames = [
                build_generations(read_config(src, card, g, revision, engine, seg, "generator"), g, records, gex, seg)
                for g in chosen
            ]
            for run in generator_runs:  # made with `python -m ajb_utils.judge generate`
                frames.append(build_generations(read_files([run.path], "generator"), run.name, records, gex, seg))
                seg.append(f"loaded generator run {run.name!r}")
            generations = score_generations(frames, records)
            del frames
            release_memory()  # the scorer's call tables
            generations = categorize(generations, _orders(generator_runs))
            parts.put(base_key, slot, {"records": records, "generations": generations}, (seg, gex))
        else:
            (records, generations), (seg, gex) = hit[0].values(), hit[1]
        messages += seg
        excl += gex
        generator_names = _orders(generator_runs)["generator"]
        index = functools.cache(lambda: GenerationIndex.of(generations, records["id"].tolist(), generator_names))

        messages += judge_messages
        verdicts: list[pd.DataFrame] = []
        judge_rows: list[dict[str, Any]] = []
        reads = {
            ("release", j): lambda m, n, r, j=j: read_config(src, card, j, revision, engine, m, "judge", n, r)
            for j in wanted
        }
        reads.update({("run", r.name): lambda m, n, rd, p=r.path: read_files([p], "judge", n, rd) for r in judge_runs})
        for config, read in reads.items():
            kind, name = config
            if kept[config] is None:  # read, built and kept
                raw = read(seg := [], justifications, reader)
                kept[config] = _verdict_part(raw, name, index(), kind == "run", seg)
                parts.put(keys[config], f"{src.location}:{name}", *kept[config])
                notes = raw_notes(raw) if justifications else {}
                del raw
                release_memory()
            elif justifications and kept[config][1][2] is not None:  # the verdicts kept, their rationales read
                notes = raw_notes(read([], "notes", reader))  # the rationales alone
            frames, (seg, gex, at) = kept[config]
            messages += seg
            excl += gex
            if at is None:  # a run that is not a judge config
                continue
            v = frames["verdicts"]
            verdicts.append(compact(with_justifications(v, notes, at)) if justifications else v)
            if kind == "release":
                judge_rows.append(judge_meta(name, "release", card.synthetic, conditions=schema.MAIN_CONDITIONS))
            else:
                run = next(r for r in judge_runs if r.name == name)
                origin = "sample run" if run.shipped and src.label == "sample" else "run"
                conditions = sorted(v["condition"].unique().tolist())
                judge_rows.append(judge_meta(name, origin, run.meta.get("synthetic", False), run.meta, conditions))
        judges_tbl = pd.DataFrame(judge_rows, columns=JUDGE_COLUMNS)
        orders = {**_orders(generator_runs), "judge": judges_tbl["judge"].tolist()}
        tidy = tidy_verdicts(verdicts, records, orders)
    return Bench(
        records=records,
        generations=generations,
        verdicts=tidy,
        exclusions=exclusion_frame(excl),
        judges=judges_tbl,
        source=str(source),
        revision=source_revision(src, revision, card),
        label=label_with_runs(src.label, runs, judge_runs + generator_runs),
        synthetic=card.synthetic,
        messages=messages,
    )


def _orders(generator_runs: list[Run]) -> dict[str, list[str]]:
    """Return the categorical orders of the name columns (the released generators, then runs)."""
    return {
        "generator": [*schema.GENERATORS, *(r.name for r in generator_runs)],
        "difficulty": schema.DIFFICULTIES,
        "dag_type": schema.TOPOLOGIES,
        "condition": schema.CONDITIONS,
        "metric": schema.METRICS,
    }


def _contents(src: Any, card: Any, revision: str | None, configs: list[str], runs: list[Run]) -> dict[str, Any]:
    """Return what identifies the bytes of the README, each config and each run: their content
    digests (a local source; runs always) or, for the hub, the commit and the files' names."""
    root = Path(src.location)
    local = {c: [root / f for f in card.files.get(c, [])] for c in configs} if src.is_local else {}
    digests = bench_cache.file_digests([*(f for fs in local.values() for f in fs), *(r.path for r in runs)])
    out: dict[str, Any] = {"README.md": xxhash.xxh3_128_hexdigest(card.readme)}
    for c in configs:
        files = local.get(c)
        out[c] = [digests[str(f.resolve())] for f in files] if files else [src.location, revision, card.files.get(c)]
    out.update({str(r.path): digests[str(r.path.resolve())] for r in runs})
    return out


def _verdict_part(
    raw: Raw, name: str, index: GenerationIndex, skip: bool, seg: list[str]
) -> tuple[dict[str, pd.DataFrame], tuple[list[str], list[Excluded], Any]]:
    """Return the part of one judge config (or run): its verdicts without justifications and
    (messages, exclusions, the rows kept); a run (`skip`) that is not a judge config keeps no
    verdicts and None for its rows, saying so."""
    _report_unknown(name, raw, seg)
    gex: list[Excluded] = []
    try:
        frame, at = judge_verdicts(raw, name, index, gex)
    except IncompleteDataError:
        raise
    except BenchDataError as exc:
        if not skip:
            raise
        seg.append(f"run {name!r} skipped: {exc}")
        log.warning(seg[-1])
        return {}, (seg, gex, None)
    return {"verdicts": compact(frame)}, (seg, gex, at)


def _report_unknown(config: str, raw: Raw, messages: list[str]) -> None:
    """Say which condition-like columns of a judge config are not known conditions (not read)."""
    if raw.unknown:
        messages.append(
            f"judge config {config!r}: column(s) {raw.unknown} are not known "
            f"conditions ({', '.join(schema.CONDITIONS)}); not read"
        )
        log.warning(messages[-1])
