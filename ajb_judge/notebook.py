"""The runner as a notebook drives it: a RunConfig from notebook 15's parameters and timing-free run lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from ajb_judge.backends import Decoding
from ajb_judge.runner import SELECT_SEED, RunConfig, RunSummary
from ajb_utils import paths, schema

STATUS_KEYS: list[str] = ["generator", "difficulty", "condition"]
STATIC_NOTE: str = (
    "Static judge: with GT it applies the paper's scoring rubric literally to the reference, "
    "so its with-GT numbers are a ceiling for a rubric-following judge, not a fair competitor; "
    "without GT it reads only the query, the tool schemas and the plan."
)


def new_judge_config(
    run_name: str,
    backend: str = "static",
    base_url: str = "http://localhost:8000/v1",
    model: str | None = None,
    api_key_env: str | None = None,
    temperature: float = 0.0,
    concurrency: int = 8,
    conditions: Sequence[str] = ("with_gt", "without_gt"),
    generators: Sequence[str] | None = None,
    difficulties: Sequence[str] | None = None,
    limit: int | None = None,
    seed: int = SELECT_SEED,
    bench: Any = None,
    source: str = "sample",
    budget_tokens: int | None = None,
    budget_usd: float | None = None,
    price_in: float | None = None,
    price_out: float | None = None,
) -> RunConfig:
    """Return the RunConfig for notebook 15's parameters (the key stays in the variable named api_key_env).

    Everything not a parameter here is the CLI's default, and `seed` defaults to SELECT_SEED as the
    CLI's --select-seed does: the notebook with the CLI run's settings is the same run, answered
    from its store with no new call. The budget is the run's: a budget not given here is the one
    recorded with the run (by the CLI or an earlier execution); the prices book the calls only
    with a USD budget. A run with paid calls, calls still to make and no budget is refused.
    """
    return RunConfig(
        name=run_name,
        backend=backend,
        model=model,
        base_urls=[base_url],
        api_key_env=api_key_env,
        conditions=list(conditions),
        source=str(source),
        bench=bench,
        generators=list(generators) if generators else None,
        difficulties=list(difficulties) if difficulties else None,
        limit=limit,
        seed=seed,
        decoding=Decoding(temperature=temperature),
        concurrency=concurrency,
        progress=False,
        budget_tokens=budget_tokens,
        budget_usd=budget_usd,
        price_in_per_m=price_in if budget_usd is not None else None,
        price_out_per_m=price_out if budget_usd is not None else None,
        require_budget=True,
    )


def run_status(summary: RunSummary) -> pd.DataFrame:
    """Return the run's items / ok / null counts per generator x difficulty x condition, in paper order."""
    t = summary.table
    if t is None or not len(t):
        return pd.DataFrame(columns=[*STATUS_KEYS, "items", "ok", "null"])
    orders = {"generator": schema.GENERATORS, "difficulty": schema.DIFFICULTIES, "condition": schema.CONDITIONS}
    t = t.assign(**{k: t[k].astype(str) for k in STATUS_KEYS})[[*STATUS_KEYS, "items", "ok", "null"]]
    rank = {f"_{k}": t[k].map({v: i for i, v in enumerate(orders[k])}).fillna(len(orders[k])) for k in STATUS_KEYS}
    return t.assign(**rank).sort_values(list(rank), kind="stable").drop(columns=list(rank)).reset_index(drop=True)


def run_line(summary: RunSummary) -> str:
    """Return a deterministic one-line account of a run: items, ok, null, statuses, files (repo-relative); no timings."""
    st = run_status(summary)
    statuses = ", ".join(f"{k} {v}" for k, v in sorted(summary.statuses.items()))
    files = "; ".join(f"wrote {paths.relpath(f)}" for f in summary.files)
    abort = f" ABORTED: {summary.aborted}." if summary.aborted else ""
    abort += "".join(f" WARNING: {w}." for w in summary.warnings)
    return (
        f"run {summary.name}: {int(st['items'].sum())} item x condition verdicts, {int(st['ok'].sum())} ok, "
        f"{int(st['null'].sum())} null (verdict-level statuses: {statuses or 'none'}).{abort} {files}"
    ).strip()


def run_cache_line(summary: RunSummary) -> str:
    """Return what this execution did (cached / new calls, retries, tokens); no wall time, so the notebook is stable."""
    return (
        f"this execution: {summary.cached} cached, {summary.new} new, {summary.retries} retries, "
        f"tokens in/out {summary.prompt_tokens}/{summary.completion_tokens}"
    )
