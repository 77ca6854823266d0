"""Runs beyond the release: judge configs (and generator outputs) in the release's schema, shipped
with a source (<source>/runs/, e.g. the sample's simulated ablations) or made by the user
(data/runs/, by `ajb_judge`). Which ones a load reads (`runs`):

- "shipped" (the default): the source's own runs only, so default parameters read only the
  shipped data, whatever the user has run;
- "auto": also the user's runs made on this source (a run made on another source is left out,
  saying so); the Bench's label then says so, and its outputs go to a folder of their own;
- a list of names: those runs, wherever they are and whatever source they were made on;
- None: no runs.

A run found twice (same name in both folders) is read once, from the source's folder, saying so."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ajb_utils import paths
from ajb_utils.data.bench import BenchDataError
from ajb_utils.data.source import Source, resolve_source

RunsArg = str | list[str] | None
# The fields of a run's .meta.json that shape the frames (the judges table, run selection); the
# rest (created_unix, backend, costs) does not change results and is not part of the cache key.
META_FIELDS: tuple[str, ...] = ("name", "display", "synthetic", "study", "judge", "conditions", "decoding", "source")


@dataclass(frozen=True)
class Run:
    """One run found on disk: its name, JSON-lines file, meta and whether it ships with the source."""

    name: str
    path: Path
    meta: dict[str, Any]
    shipped: bool


def discover_runs(folders: list[tuple[Path, bool]], messages: list[str]) -> list[Run]:
    """Return every run in `folders` (first found wins, a shadowed one said in `messages`), by name."""
    found: dict[str, Run] = {}
    for folder, shipped in folders:
        for path in sorted(folder.glob("*.jsonl")):  # (none in a folder that does not exist)
            meta_path = path.with_suffix(".meta.json")
            try:
                meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
            except ValueError as exc:
                raise BenchDataError(f"{meta_path}: not valid JSON ({exc})") from None
            name = str(meta.get("name", path.stem))
            if name in found:
                messages.append(
                    f"run {name!r} in {paths.relpath(path)} is shadowed by "
                    f"{paths.relpath(found[name].path)} (read instead)"
                )
                continue
            found[name] = Run(name, path, meta, shipped)
    return [found[k] for k in sorted(found)]


def select_runs(src: Source, runs: RunsArg, sub: str, messages: list[str]) -> list[Run]:
    """Return the runs of kind `sub` ('' judges, 'generators') that `runs` selects (module doc)."""
    if runs is None:
        return []
    if isinstance(runs, str) and runs not in ("shipped", "auto"):
        raise BenchDataError(f"runs must be 'shipped', 'auto', None or a list of names, not {runs!r}")
    folders = [(Path(src.location) / "runs" / sub, True)] if src.is_local else []  # (folder, shipped)
    found = discover_runs(folders + ([] if runs == "shipped" else [(paths.RUNS_DIR / sub, False)]), messages)
    if isinstance(runs, list):
        return [r for r in found if r.name in runs]
    here = (src.label, str(src.location))
    kept = [r for r in found if r.shipped or r.meta.get("source") is None or str(r.meta["source"]) in here]
    messages += [
        f"run {r.name!r} in {paths.RUNS_DIR.name}/ skipped: made on source {r.meta['source']!r}, not {src.label!r} "
        "(name it in runs=[...] to read it anyway)"
        for r in found
        if r not in kept
    ]
    return kept


def label_with_runs(label: str, runs: RunsArg, read: list[Run]) -> str:
    """Return the Bench label: `label`, or `label-runs` when "auto" read runs of the user's."""
    return f"{label}-runs" if runs == "auto" and any(not r.shipped for r in read) else label


def key_meta(run: Run) -> dict[str, Any]:
    """Return the part of a run's meta that shapes the frames (what the cache keys on)."""
    return {k: run.meta.get(k) for k in META_FIELDS}


def run_metas(source: str | Path, names: list[str], strict: bool = True) -> list[dict[str, Any]]:
    """Return each named run's meta (name, display, model, backend, source, synthetic), in the order named; a run not
    found is an error (``strict``) or left out (the caller says so)."""
    found = {r.name: r for r in select_runs(resolve_source(source), list(names), "", [])}  # (shadowed runs unsaid)
    missing = [n for n in names if n not in found]
    if missing and strict:
        raise BenchDataError(
            f"run(s) not found: {', '.join(missing)} (looked in the source's runs/ and {paths.RUNS_DIR})"
        )
    keys = ("display", "model", "backend", "source", "synthetic", "study")
    return [{"run": n, **{k: found[n].meta.get(k) for k in keys}} for n in names if n in found]
