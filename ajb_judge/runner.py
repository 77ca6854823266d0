"""The judge / generator runner: select items, skip stored verdicts, call, parse, store, export.

Python API: ``run_judge(RunConfig(...)) -> RunSummary`` (also ``run_generate``, ``run_rewrite``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pandas as pd
import tenacity

from ajb_judge import parse as P
from ajb_judge.backends import (
    FATAL_KINDS,
    CallError,
    Decoding,
    FatalBackendError,
    MissingKeyError,
    OpenAIBackend,
    RateLimiter,
    backoff_delay,
    require_judge_extra,
    sent_unanswered,
)
from ajb_judge.conditions import (
    Context,
    Unit,
    config_hash,
    judge_units,
    record_units,
    stratified_ids,
)
from ajb_judge.conditions import (
    request_hash as unit_request_hash,
)
from ajb_utils.paths import RUNS_DIR
from ajb_utils.schema import CONDITIONS, DIFFICULTIES, METRICS

log = logging.getLogger("ajb_judge")
PARSERS = {
    "judge": None,
    "prometheus": P.parse_prometheus,
    "deriver": P.parse_deriver,
    "generate": P.parse_generator,
    "rewrite": P.parse_rewrite,
}
COMPLETION_GUESS = {"judge": 350, "prometheus": 250, "deriver": 500, "generate": 400, "rewrite": 200}
SELECT_SEED = 20260826  # the selection / C3 seed of every run unless asked otherwise: CLI, Python API and notebook 15 (its `seed`)
UNCAPPED_RESERVATION = 32_768  # completion tokens reserved per call when no max_tokens is sent
MAX_TOKEN_KEYS = ("max_tokens", "max_completion_tokens", "max_output_tokens")  # caps an --extra-body may carry


class _OverBudget(Exception):
    """The next attempt's reservation would take the store past a budget (nothing is sent)."""


@dataclass
class RunConfig:
    """Every parameter of a run; the identity-relevant ones define the run hash."""

    name: str = "static_judge"
    backend: str = "static"  # static | openai
    model: str | None = None
    base_urls: list[str] = field(default_factory=lambda: ["http://localhost:8000/v1"])
    api_key_env: str | None = None  # the NAME of an environment variable, never the key
    conditions: list[str] = field(default_factory=lambda: ["with_gt", "without_gt"])
    source: str = "sample"
    bench: Any = None  # a loaded Bench (or anything with .records / .generations); skips loading
    generators: list[str] | None = None
    difficulties: list[str] | None = None
    limit: int | None = None  # records, stratified by topology
    seed: int = SELECT_SEED  # selection and C3 derangement seed (part of the run's identity)
    decoding: Decoding = field(default_factory=Decoding)
    response_format: str = "auto"
    extra_body: dict[str, Any] | None = None
    timeout_s: float = 300.0
    concurrency: int = 8
    rpm: float | None = None
    max_attempts: int = 6
    max_timeout_attempts: int = 2  # timed-out attempts per call (each may be a paid completion)
    backoff_base_s: float = 1.0
    backoff_cap_s: float = 60.0
    retry_errors: bool = False  # re-send failed units (not the permanent failures)
    retry_permanent: bool = False  # also re-send context_length / refused / content_filter units
    retry_ambiguous: bool = False  # also re-send ambiguous verdicts (two disagreeing objects, another scale)
    check_endpoint: bool = True  # GET /models on every base URL before the first item
    reparse: bool = False
    dry_run: bool = False
    budget_tokens: int | None = None
    budget_usd: float | None = None
    price_in_per_m: float | None = None
    price_out_per_m: float | None = None
    abort_after: int = 40
    abort_error_rate: float = 0.6
    deriver_model: str | None = None
    deriver_base_urls: list[str] | None = None
    deriver_price_in_per_m: float | None = None  # the deriver's prices (default: the run's, when it is the run's model)
    deriver_price_out_per_m: float | None = None
    judge: str | None = None  # base model label for the meta (defaults to model)
    display: str | None = None
    study: str = "new_judge"
    out_dir: Path = RUNS_DIR
    store_path: Path | None = None
    export: bool = True
    progress: bool = True
    durable: bool = False
    offline: bool = False  # export what the store holds; make no call (used after batch imports)
    replace_export: bool = False  # replace an export that another run (other settings or store) wrote
    require_budget: bool = False  # refuse to call for a run with paid calls and no budget (notebook 15)

    def identity(self) -> dict[str, Any]:
        """Return what defines a verdict's run hash (no URLs, no key names, no secrets)."""
        return {
            "backend": self.backend,
            "model": self.model,
            "decoding": self.decoding.to_dict(),
            "extra_body": self.extra_body,
            "corrupt_seed": self.seed,
            "response_format": self.response_format,
        }

    def deriver_identity(self) -> dict[str, Any]:
        """Return the identity of the DeRef deriver calls: the run's, with the deriver's model and no C3 seed."""
        out = {**self.identity(), "model": self.deriver_model or self.model, "role": "deriver"}
        del out["corrupt_seed"]
        return out

    def public(self) -> dict[str, Any]:
        """Return the config as stored/exported: secret-free (the key variable's name only)."""
        from ajb_judge.backends import redact_url

        d = {k: v for k, v in asdict(self).items() if k not in ("bench",)}
        d["base_urls"] = [redact_url(u) for u in self.base_urls]
        d["deriver_base_urls"] = [redact_url(u) for u in self.deriver_base_urls] if self.deriver_base_urls else None
        d["out_dir"] = str(self.out_dir)
        d["store_path"] = str(self.store_path) if self.store_path else None
        return d


@dataclass
class RunSummary:
    """What a run did: counts, tokens, the summary table and the files written."""

    name: str
    run_hash: str
    n_units: int = 0
    cached: int = 0
    new: int = 0  # units answered in this execution (calls + reused)
    calls: int = 0  # calls made: one per distinct request
    reused: int = 0  # units answered by an identical request's reply (no call), recorded with reused_from
    reused_elsewhere: dict[str, int] = field(default_factory=dict)  # of those, from other runs' stores (by file)
    unread_stores: dict[str, str] = field(default_factory=dict)  # other stores under --out not read, and why
    statuses: dict[str, int] = field(default_factory=dict)
    retries: int = 0
    timeouts: int = 0  # timed-out attempts (counted as spent, tokens estimated)
    timeout_tokens: int = 0
    dropped: int = 0  # attempts whose connection failed after sending (counted as spent at their reservation)
    dropped_tokens: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    store_spent: dict[str, int] = field(default_factory=dict)  # all runs / resumes on this store
    export_skipped: str | None = None
    elapsed_s: float = 0.0
    calls_s: float = 0.0  # wall time of the call phase only
    calls_cpu_s: float = 0.0  # CPU time of this process during the call phase (load-independent cost of the calls)
    aborted: str | None = None
    abort_kind: str | None = None  # budget | fatal | failure_rate (the CLI's exit code follows it)
    dry_run: bool = False
    estimate: dict[str, Any] = field(default_factory=dict)
    store_id: str | None = None
    warnings: list[str] = field(default_factory=list)  # what a reader of the verdicts must know (one value only, ...)
    budget: dict[str, Any] = field(default_factory=dict)  # the run's budget and prices in force (recorded with the run)
    budget_notes: list[str] = field(default_factory=list)  # where the budget came from (given, recorded, changed)
    settled: tuple[int, int] = (0, 0)  # reservations of killed processes settled now, tokens of them released
    store_usd: float | None = None  # the store's spend in USD, each row at its own prices (None: no prices)
    table: pd.DataFrame | None = None
    files: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        """Return a human-readable report."""
        lines = [
            f"run {self.name} [{self.run_hash}]: {self.n_units} units, {self.cached} cached, {self.new} new "
            f"({self.calls} calls, {self.reused} answered by an identical request), {self.retries} retries, "
            f"tokens in/out {self.prompt_tokens}/{self.completion_tokens}, {self.elapsed_s:.1f}s",
            f"statuses: {dict(self.statuses)}",
        ]
        if self.timeouts:
            lines.append(
                f"timeouts: {self.timeouts} timed-out attempts, counted as spent (~{self.timeout_tokens} tokens, "
                "estimated: a provider may bill a completion the client stopped waiting for)"
            )
        if self.dropped:
            lines.append(
                f"dropped: {self.dropped} attempts lost their connection after sending, counted as spent "
                f"(~{self.dropped_tokens} tokens, estimated: the provider may have billed them)"
            )
        if self.store_spent:
            lines.append(
                f"spent on this store so far (all runs and resumes): {self.store_spent.get('prompt_tokens', 0)} + "
                f"{self.store_spent.get('completion_tokens', 0)} tokens over {self.store_spent.get('attempts', 0)} "
                f"paid attempts ({self.store_spent.get('estimated', 0)} estimated"
                + (
                    f", {self.store_spent['reserved']} of them reservations of calls a killed run never saw answered"
                    if self.store_spent.get("reserved")
                    else ""
                )
                + (
                    f", {self.store_spent['batch_reserved']} reservations of batch requests exported, not imported yet"
                    if self.store_spent.get("batch_reserved")
                    else ""
                )
                + ")"
            )
        lines += [f"budget: {n}" for n in self.budget_notes]
        if self.settled[0]:
            lines.append(
                f"settled {self.settled[0]} reservations of a killed process: kept as spent (their calls may have been "
                f"billed), {self.settled[1]} prompt tokens released where the same request's reply reported its usage"
            )
        if self.reused_elsewhere:
            lines.append(
                f"reused: {sum(self.reused_elsewhere.values())} units answered from other runs' stores "
                f"({', '.join(f'{k} {v}' for k, v in sorted(self.reused_elsewhere.items()))}): the identical request "
                "(same model, decoding and prompt) was paid there; not paid again"
            )
        if self.unread_stores:
            lines.append(
                "note: other stores beside this one not read for reuse: "
                + "; ".join(f"{k} ({v})" for k, v in sorted(self.unread_stores.items()))
            )
        lines += [f"WARNING: {w}" for w in self.warnings]
        if self.aborted:
            lines.append(f"ABORTED: {self.aborted}")
        if self.export_skipped:
            lines.append(f"export skipped: {self.export_skipped}")
        if self.table is not None and len(self.table):
            lines.append(self.table.to_string(index=False))
        lines += [f"wrote {f}" for f in self.files]
        return "\n".join(lines)


# --------------------------------------------------------------------------------- selection


def outside_event_loop(func: Any) -> Any:
    """Return `func` wrapped to run in a worker thread when called inside a running event loop.

    A Jupyter kernel already runs an event loop, where asyncio.run() refuses to start; the whole
    run (store included, since SQLite connections belong to their thread) then moves to a thread.
    """
    import functools

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass  # no loop: run here, after the `except`, so the run's errors are not chained to the probe's
        else:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=1) as pool:
                return pool.submit(func, *args, **kwargs).result()
        return func(*args, **kwargs)

    return wrapper


def load_items(cfg: RunConfig) -> tuple[Any, pd.DataFrame, pd.DataFrame]:
    """Return (bench, selected records, selected generations) for a config."""
    bench = cfg.bench
    if bench is None and str(cfg.source).startswith("toy"):  # tiny built-in fixture for smoke tests
        from ajb_judge.toybench import make_toy_bench

        n = int(str(cfg.source).split(":")[1]) if ":" in str(cfg.source) else 12
        bench = make_toy_bench(n)
    if bench is None:
        from ajb_utils.data import load_bench
        from ajb_utils.schema import GENERATORS

        known = cfg.generators is not None and set(cfg.generators) <= set(GENERATORS)
        bench = load_bench(cfg.source, generators=cfg.generators if known else None, runs=None)
    _check_names(
        "generator", cfg.generators, sorted(bench.generations["generator"].astype(str).unique()), "--generators"
    )
    _check_names("difficulty", cfg.difficulties, list(DIFFICULTIES), "--difficulties")
    records = bench.records
    ids = set(stratified_ids(records, cfg.limit, cfg.seed))
    recs = records[records["id"].astype(str).isin(ids)].reset_index(drop=True)
    g = bench.generations
    mask = g["id"].astype(str).isin(ids)
    if cfg.generators:
        mask &= g["generator"].astype(str).isin(cfg.generators)
    if cfg.difficulties:
        mask &= g["difficulty"].astype(str).isin(cfg.difficulties)
    return bench, recs, g[mask].reset_index(drop=True)


def limit_beyond(limit: int | None, n_records: int) -> str | None:
    """Return what a run says when --limit asks for every record of the source or more (None: it asks for fewer)."""
    if limit is None or limit < n_records:
        return None
    return f"--limit {limit} asks for at least the source's {n_records} records: all {n_records} selected (recorded as no limit)"


def _check_names(what: str, given: list[str] | None, valid: list[str], flag: str) -> None:
    """Raise ValueError (one line, the valid names listed) when `given` holds a name not in `valid`."""
    bad = [x for x in (given or []) if x not in valid]
    if bad:
        raise ValueError(f"unknown {what} name(s) {', '.join(bad)} ({flag}); choose from: {', '.join(valid)}")


def _check_config(cfg: RunConfig) -> None:
    """Raise ValueError / FatalBackendError on a config that cannot run as asked (before anything is created)."""
    if cfg.budget_usd is not None and (cfg.price_in_per_m is None or cfg.price_out_per_m is None):
        raise ValueError(
            "--budget-usd needs --price-in and --price-out (USD per 1M prompt / completion tokens): "
            "without prices a USD budget cannot be checked; give both, or use --budget-tokens"
        )
    check_extra_body(cfg.extra_body)
    check_deriver_prices(cfg)
    if cfg.backend != "static" and not cfg.dry_run:  # before any file: a plain `pip install .` has no HTTP client
        require_judge_extra()
    calls = cfg.backend != "static" and not (cfg.dry_run or cfg.offline or cfg.reparse)
    if calls and cfg.api_key_env and not os.environ.get(cfg.api_key_env):
        raise MissingKeyError(f"the API key variable {cfg.api_key_env} is not set (export {cfg.api_key_env}=...)")


REQUEST_KEYS = ("model", "messages")  # what the runner itself puts in a request (the store key names them)
CHOICE_KEYS = ("n", "best_of")  # completions generated (and billed) per request; only choices[0] is read


def check_extra_body(extra: dict[str, Any] | None) -> None:
    """Raise ValueError on an --extra-body the budget could not cover or the store would misname.

    A token cap must be a whole number (or null: no cap, reserved as UNCAPPED_RESERVATION), n and
    best_of at most 1 (only the first choice is read, the others would be paid for nothing), no
    streaming (the runner reads one JSON reply) and no model or messages of its own.
    """
    extra = extra or {}
    if not isinstance(extra, dict):
        raise ValueError(f"--extra-body must be a JSON object, got {type(extra).__name__}")
    for k in REQUEST_KEYS:
        if k in extra:
            raise ValueError(f"--extra-body may not set {k}: the runner writes the {k} a stored answer is keyed by")
    if extra.get("stream"):
        raise ValueError("--extra-body stream: the runner reads one JSON reply per call; leave stream out")
    for k in CHOICE_KEYS:
        v = extra.get(k)
        if v is not None and (isinstance(v, bool) or v != 1):
            raise ValueError(
                f"--extra-body {k}={v!r}: the runner reads only the first choice, so more would be paid and "
                f"thrown away; leave {k} out (or 1)"
            )
    for k in MAX_TOKEN_KEYS:
        v = extra.get(k)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v <= 0):
            raise ValueError(
                f"--extra-body {k}={v!r} must be a whole number of tokens above 0 (the budget reserves it; a "
                f"string or fraction could not be reserved): write it as a number, e.g. {k}: 8000"
            )


STORE_DIRNAME = ".store"  # under the runs folder: paid replies and the budget ledger, never in the cache


def default_store(name: str, out_dir: Path | str = RUNS_DIR) -> Path:
    """Return the default store file of a run name: <runs folder>/.store/<name>.sqlite."""
    return Path(out_dir) / STORE_DIRNAME / f"{name}.sqlite"


def store_path(cfg: RunConfig) -> Path:
    """Return a run's store: --store, else <out>/.store/<name>.sqlite."""
    return Path(cfg.store_path) if cfg.store_path else default_store(cfg.name, cfg.out_dir)


def _no_store() -> Any:
    """Return the empty store a dry run reads when the store file does not exist (a dry run creates nothing)."""
    from types import SimpleNamespace

    from ajb_judge.store import SPENT_KEYS

    empty = SimpleNamespace(store_id=None, statuses=lambda hashes: {}, spent=lambda: dict.fromkeys(SPENT_KEYS, 0))
    return nullcontext(empty)


NEW_STORE = "(a new store)"  # the store id an export is compared with before the run's store exists


def _would_stop(meta_path: Path, meta: dict[str, Any], replace: bool) -> str | None:
    """Return what a dry run says when the real run would stop on the export at `meta_path` (None: it would not)."""
    from ajb_judge.export import check_claim

    try:
        check_claim(meta_path, meta, replace)
    except ValueError as exc:
        return f"this run would stop before any call: {exc}"
    return None


def _check_before_creating(cfg: RunConfig, deriver: bool = False) -> bool:
    """Check the endpoint(s) when this run would create its store; return whether it checked.

    A run that creates its store has every unit to send: an endpoint that is down, or a missing
    model option, stops it before any file (store, lock) is made. An existing store may answer
    everything from what it holds, so its run checks only when it has calls to make.
    """
    calls = cfg.backend != "static" and not (cfg.dry_run or cfg.offline or cfg.reparse)
    if not calls or not cfg.check_endpoint or store_path(cfg).exists():
        return False
    backends = [_make_backend(cfg)]
    if deriver and (cfg.deriver_model or cfg.deriver_base_urls):
        backends.append(_make_backend(cfg, deriver=True))

    async def go() -> None:
        """Check, then close every backend."""
        try:
            await _check(*backends)
        finally:
            for b in backends:
                await b.aclose()

    asyncio.run(go())
    return True


def _open_store(cfg: RunConfig) -> Any:
    """Return the run's store: locked for a run; read-only (or an empty stand-in, creating nothing) for a dry run."""
    from ajb_judge.store import Store

    path = store_path(cfg)
    if cfg.dry_run:
        return Store(path, lock=False) if path.exists() else _no_store()
    return Store(path, durable=cfg.durable)


_SCALE_NOTE = "is ambiguous: this judge answered on another scale in this run"
SCALE_SHARE = 0.05  # share of a run's replies with a value above 1 that shows another scale


def another_scale_shown(off_scale: Sequence[float], replies: int) -> bool:
    """Return whether a run shows another scale: values above 1 in >= SCALE_SHARE of its replies (and in two or more).

    `off_scale` holds the largest off-scale value of each reply that had one. A value between 0
    and 1 (0.8) is a {0, 0.5, 1} judge's near-miss, not another scale; above 1 it cannot be.
    """
    above = sum(v > 1 for v in off_scale)
    return above >= 2 and above >= SCALE_SHARE * replies


def off_scale_of(parsed: dict[str, Any]) -> list[float]:
    """Return the numbers a stored verdict stated off the {0, 0.5, 1} scale (its `off_scale` field)."""
    return [float(v) for v in (parsed.get("off_scale") or {}).values()]


def _mark_scale_ambiguity(store: Any, units: list[Unit]) -> int:
    """Mark ok verdicts ambiguous when the run shows another scale (see another_scale_shown); return how many changed.

    A judge that answers above 1 (5, 3, 90) in a share of its replies may be on a 1-5 or 0-100
    scale, where its plain 1s (and 0s) mean something else: those verdicts are stored as
    ``ambiguous`` (with a note), never as ok. When a run no longer shows another scale (a rule
    change, or re-sent replies), verdicts this rule marked earlier are ok again (no call made).
    """
    if not units:
        return 0
    hashes = sorted({u.run_hash for u in units})
    q = (
        f"SELECT 1 FROM results WHERE run_hash IN ({','.join('?' for _ in hashes)}) AND kind='judge' "
        "AND (parsed LIKE '%off-scale%' OR status='ambiguous') LIMIT 1"
    )
    if store.conn.execute(q, hashes).fetchone() is None:  # the common case: nothing off-scale, nothing to read
        return 0
    keys = {u.key for u in units}
    rows = [r for r in store.rows({u.run_hash for u in units}, "judge") if r["key"] in keys]
    per_reply = [max(v) for r in rows for v in [off_scale_of(r["parsed"] or {})] if v]
    replies = sum(r["raw"] is not None or r["reasoning"] is not None for r in rows)
    shown = another_scale_shown(per_reply, replies)
    changed = 0
    for r in rows:
        p = r["parsed"] or {}
        notes = list(p.get("notes") or [])
        if r["status"] == P.AMBIGUOUS and p.get("scale_ambiguous") and not shown:
            p["notes"] = [n for n in notes if _SCALE_NOTE not in n]
            p.pop("scale_ambiguous", None)
            store.overwrite_parse(r["key"], P.OK, p)
            changed += 1
        if r["status"] != P.OK or not shown:
            continue
        how = set(p.get("explicit") or [])  # read from a bool, fraction, decimal comma or near-miss: never ambiguous
        amb = [m for m, v in (p.get("scores") or {}).items() if v in (0.0, 1.0) and m not in how]
        if not amb:
            continue
        seen = ", ".join(f"{v:g}" for v in sorted({v for v in per_reply if v > 1})[:6])
        p["notes"] = [*notes, *(f"{m}: {p['scores'][m]:g} {_SCALE_NOTE} (saw {seen})" for m in amb)]
        p["scale_ambiguous"] = amb  # the metrics this rule made ambiguous (the status it may undo)
        store.overwrite_parse(r["key"], P.AMBIGUOUS, p)
        changed += 1
    return changed


# ---------------------------------------------------------------------------------- engine
@dataclass
class _Stats:
    """Live counters of one execution, for its summary (the budget is read from the store, never from here)."""

    statuses: Counter = field(default_factory=Counter)
    new: int = 0  # units answered by a call of their own
    reused: int = 0  # units answered by an identical request's reply (no call)
    retries: int = 0
    timeouts: int = 0  # timed-out attempts, each counted as spent
    timeout_tokens: int = 0  # their estimated tokens
    dropped: int = 0  # attempts whose connection failed after sending (kept as spent at their reservation)
    dropped_tokens: int = 0
    prompt_tokens: int = 0  # usage reported by replies in this process
    completion_tokens: int = 0
    fatal_calls: int = 0  # calls that ended the run (auth, quota, unknown model)
    paid_attempts: int = 0  # attempts that may be billed: replies, timeouts, connections lost after sending
    paid_failed: int = 0  # those that gave no ok verdict
    abort: str | None = None
    abort_kind: str | None = None  # budget | fatal | failure_rate
    answered: set[str] = field(default_factory=set)  # unit keys stored by this execution (calls and reuses)
    reused_elsewhere: Counter = field(default_factory=Counter)  # reuses from other runs' stores, by store file
    unread_stores: dict[str, str] = field(default_factory=dict)  # other stores that could not be read, and why

    def failure_rate(self) -> float:
        """Return the share of new calls that failed (refusals and content filters included).

        Only context_length is left out: a prompt longer than the model's window is a property of
        the item (and the server refuses it with an HTTP error, not billed). A judge that refuses
        or filters everything is misconfigured for this task and is stopped like any other.
        """
        n = self.new - self.statuses[P.CONTEXT_LENGTH]
        return 0.0 if n <= 0 else 1.0 - self.statuses[P.OK] / n

    def paid_attempt(self, failed: bool) -> None:
        """Count one attempt that may be billed (and whether it failed)."""
        self.paid_attempts += 1
        self.paid_failed += failed

    def misconfigured(self, after: int, rate: float) -> str | None:
        """Return why the judge looks misconfigured: `rate` of the first `after` paid attempts (or calls) failed.

        Paid attempts are counted, not calls, so retried timeouts and drops stop the run after
        `after` of them; calls are counted too, for failures that are not billed (HTTP errors).
        """
        if self.paid_attempts >= after and self.paid_failed >= rate * self.paid_attempts:
            return f"{self.paid_failed / self.paid_attempts:.0%} of the first {self.paid_attempts} paid attempts failed"
        if self.new >= after and self.failure_rate() >= rate:
            return f"{self.failure_rate():.0%} of the first {self.new} calls failed"
        return None

    def stop(self, kind: str, why: str) -> None:
        """Abort the execution (the first reason wins): no new attempt is sent."""
        if self.abort is None:
            self.abort, self.abort_kind = why, kind


def _parse_unit(
    kind: str, content: str | None, reasoning: str | None, finish: str | None, refusal: str | None = None
) -> tuple[str, dict[str, Any]]:
    """Return (status, parsed JSON) for a unit's reply."""
    if kind == "judge":
        v = P.parse_judge(content, reasoning, finish, refusal)
        return v.status, v.to_json()
    res = PARSERS[kind](content, reasoning, finish)
    if finish == "content_filter" and res["status"] != P.CONTENT_FILTER:
        res["status"] = P.CONTENT_FILTER
    return res["status"], res


def usd_of(
    prompt: float | None, completion: float | None, price_in: float | None, price_out: float | None
) -> float | None:
    """Return the USD of prompt and completion tokens at prices per 1M tokens (None when any is missing)."""
    if prompt is None or completion is None or price_in is None or price_out is None:
        return None
    return prompt * price_in / 1e6 + completion * price_out / 1e6


def _unit_row(u: Unit, request_hash: str, decoding: Decoding) -> dict[str, Any]:
    """Return the identity part of a unit's store row."""
    return {
        **u.identity(),
        "request_hash": request_hash,
        "decoding": decoding.to_dict(),
        "seed": decoding.seed,
    }


def _reuse(row: dict[str, Any], u: Unit, decoding: Decoding) -> dict[str, Any]:
    """Return the store row of a unit answered by an identical request's row (no call, nothing paid)."""
    out = {**row, **_unit_row(u, row["request_hash"], decoding)}
    out.update(
        attempts=0,
        prompt_tokens=0,
        completion_tokens=0,
        latency_s=0.0,
        reused_from=row.get("reused_from") or row["key"],
    )
    return out


def prompt_reservation(body: dict[str, Any]) -> int:
    """Return the prompt tokens reserved for a request body: its JSON length / 3 (a tokenizer's ~4 chars/token, with room).

    The whole body counts (messages, response-format schema, any tools an --extra-body adds).
    """
    return len(json.dumps(body)) // 3 + 16


def completion_reservation(body: dict[str, Any]) -> int:
    """Return the completion tokens reserved for a request body: the largest cap it carries, else UNCAPPED_RESERVATION.

    Read from the body that is sent (the --extra-body merged in last), so a cap set or removed
    (null) there is the one reserved; check_extra_body refuses caps that are not whole numbers
    and more than one choice.
    """
    caps = [body.get(k) for k in MAX_TOKEN_KEYS]
    found = [c for c in caps if isinstance(c, int) and not isinstance(c, bool) and c > 0]
    return max(found) if found else UNCAPPED_RESERVATION


async def _call_unit(
    u: Unit,
    ctx: Context,
    backend: OpenAIBackend,
    limiter: RateLimiter,
    cfg: RunConfig,
    stats: _Stats,
    store: Any = None,
    request_hash: str | None = None,
    reserve: Any = None,
) -> dict[str, Any]:
    """Return the store row of one unit after up to max_attempts attempts (max_timeout_attempts maybe-billed ones).

    `reserve(est_in, est_out)` is called before every attempt: it returns a committed reservation
    id (or raises _OverBudget and nothing is sent). The reply's row carries ``_reservation`` so
    the answer and its usage replace the reservation in one transaction. An attempt that may have
    been billed without an answer (timed out, or its connection failed after sending) keeps its
    reservation as spent and counts against --max-timeout-attempts.
    """
    messages = ctx.messages(u)
    row = _unit_row(u, request_hash or unit_request_hash(u), backend.decoding)
    json_reply = u.kind in ("judge",)
    body = backend.request_body(messages, json_reply)  # what is sent: the reservation reads it
    est_in, est_out = prompt_reservation(body), completion_reservation(body)  # a lost call may have run to the cap
    tally = {"attempts": 0, "unanswered": 0}  # attempts, and those that may be billed without an answer

    def retry_this(exc: BaseException) -> bool:
        """Return whether a failed attempt is retried (maybe-billed ones have their own, smaller cap)."""
        if not isinstance(exc, CallError) or exc.kind in FATAL_KINDS:
            return False
        if sent_unanswered(exc):
            return tally["unanswered"] < cfg.max_timeout_attempts
        return exc.retryable

    async def attempt() -> Any:
        """Send one attempt under its own reservation; settle the reservation when it fails."""
        await limiter.wait()
        rid = reserve(u, est_in, est_out) if reserve is not None else None
        tally["attempts"] += 1
        try:
            res = await backend.chat(messages, json_reply=json_reply)
        except BaseException as err:
            if isinstance(err, asyncio.CancelledError):  # the reservation stays: counted at the next resume
                raise
            what = _settle_failed(err, u, rid, est_in + est_out, store, stats)
            if what:
                tally["unanswered"] += 1
                stats.paid_attempt(failed=True)
                _stop_if_misconfigured(stats, cfg)
            raise
        row["_reservation"] = rid
        return res

    try:
        res = await _retrying(cfg, stats, retry_this)(attempt)
    except CallError as err:
        return _failed_row(row, err, tally, cfg, est_in, est_out)
    row = _reply_row(row, u.kind, res, tally["attempts"])
    stats.paid_attempt(failed=row["status"] != P.OK)
    return row


def _reply_row(row: dict[str, Any], kind: str, res: Any, attempts: int) -> dict[str, Any]:
    """Return a unit's store row filled from its reply: parsed status and verdict, raw text, provenance, usage."""
    status, parsed = _parse_unit(kind, res.content, res.reasoning, res.finish_reason, res.refusal)
    parsed["response_format"] = res.response_format or None  # None: not known (a batch output line)
    row.update(
        status=status,
        attempts=attempts,
        raw=res.content,
        reasoning=res.reasoning,
        finish_reason=res.finish_reason,
        parsed=parsed,
        model=res.model,
        fingerprint=res.fingerprint,
        prompt_tokens=res.prompt_tokens,
        completion_tokens=res.completion_tokens,
        latency_s=round(res.latency_s, 4),
    )
    return row


def _retrying(cfg: RunConfig, stats: _Stats, retry_this: Any) -> tenacity.AsyncRetrying:
    """Return the retry policy of one call: up to --max-attempts, only what `retry_this` allows, counted in stats."""
    return tenacity.AsyncRetrying(
        stop=tenacity.stop_after_attempt(cfg.max_attempts),
        retry=tenacity.retry_if_exception(retry_this),
        wait=lambda rs: _wait(rs, cfg),
        reraise=True,
        before_sleep=lambda rs: setattr(stats, "retries", stats.retries + 1),
    )


def _wait(rs: tenacity.RetryCallState, cfg: RunConfig) -> float:
    """Return the wait before the next attempt: the server's Retry-After, else full-jitter exponential."""
    exc = rs.outcome.exception() if rs.outcome is not None else None
    return backoff_delay(rs.attempt_number, getattr(exc, "retry_after", None), cfg.backoff_base_s, cfg.backoff_cap_s)


def _settle_failed(err: BaseException, u: Unit, rid: int | None, tokens: int, store: Any, stats: _Stats) -> str | None:
    """Settle a failed attempt's reservation; return 'timeout' / 'dropped' when it may have been billed (kept as spent).

    A timed-out attempt may have been generated and billed in full, and so may one whose
    connection failed after sending; an HTTP error answer or a refused connection was not.
    """
    if isinstance(err, CallError) and err.kind == "timeout":
        stats.timeouts += 1
        stats.timeout_tokens += tokens
        what: str | None = "timeout"
    elif sent_unanswered(err):
        stats.dropped += 1
        stats.dropped_tokens += tokens
        what = "dropped"
    else:
        what = None
    if store is not None and rid is not None:
        if what:
            store.keep_as_spent(rid, what)
        else:
            store.release(rid)
    return what


def _failed_row(
    row: dict[str, Any], err: CallError, tally: dict[str, int], cfg: RunConfig, est_in: int, est_out: int
) -> dict[str, Any]:
    """Return the store row of a unit whose last attempt failed (raise FatalBackendError for a fatal one)."""
    if err.kind in FATAL_KINDS:
        code = f", HTTP {err.status_code}" if err.status_code else ""
        raise FatalBackendError(f"{err.kind}{code}: {err.message}") from None
    if err.kind == "timeout":
        status = P.TIMEOUT
    else:
        status = P.CONTEXT_LENGTH if err.kind == "context_length" else P.API_ERROR
    error = str(err)
    if tally["unanswered"]:
        error = (
            f"{tally['unanswered']} timed-out or dropped attempt(s) (no answer within {cfg.timeout_s:g} s, or the "
            f"connection lost after sending), counted as spent (~{est_in} + ~{est_out} tokens each, estimated); last: {err}"
        )
    row.update(status=status, attempts=tally["attempts"], error=error[:500])
    return row


def shared_stores(cfg: RunConfig) -> list[Path]:
    """Return the other runs' stores in this run's runs folder (<out>/.store/*.sqlite), whose ok replies a run reuses."""
    folder = default_store(cfg.name, cfg.out_dir).parent
    own = store_path(cfg).resolve()
    return [p for p in sorted(folder.glob("*.sqlite")) if p.resolve() != own] if folder.is_dir() else []


def replies_elsewhere(
    wanted: Sequence[tuple[str, str]], others: Sequence[Path]
) -> tuple[dict[tuple[str, str], tuple[str, dict[str, Any]]], dict[str, str]]:
    """Return {(run hash, request hash): (store file, ok row)} from other stores, read-only (the first store that
    has it), and the stores that could not be read, with why."""
    import sqlite3

    from ajb_judge.store import ok_replies_in

    found: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {}
    unread: dict[str, str] = {}
    for path in others:
        by_run: dict[str, list[str]] = {}
        for rh, h in wanted:
            if (rh, h) not in found:
                by_run.setdefault(rh, []).append(h)
        if not by_run:
            break
        try:
            for rh, hs in by_run.items():
                found.update({(rh, h): (path.name, row) for h, row in ok_replies_in(path, rh, hs).items()})
        except sqlite3.Error as exc:
            unread[path.name] = str(exc)
    return found, unread


def answered_elsewhere(units: list[Unit], others: Sequence[Path]) -> tuple[list[Unit], dict[str, int], dict[str, str]]:
    """Return (the units no other store answers, units answered per store file, stores not read): a dry run's view."""
    keys = [(u.run_hash, unit_request_hash(u)) for u in units]
    found, unread = replies_elsewhere(keys, others)
    per_store = Counter(found[k][0] for k in keys if k in found)
    return [u for u, k in zip(units, keys, strict=True) if k not in found], dict(per_store), unread


def _reuse_elsewhere(
    todo: list[tuple[list[Unit], str, int]], others: Sequence[Path], store: Any, decoding: Decoding, stats: _Stats
) -> list[tuple[list[Unit], str, int]]:
    """Answer request groups from an ok reply to the identical request in another store (read-only); return the rest.

    The reply is copied into this store with ``reused_from`` = ``<store file>:<key>`` and no
    tokens: it was paid in the other run. A store that cannot be read is skipped and said.
    """
    found, unread = replies_elsewhere([(us[0].run_hash, h) for us, h, _ in todo], others)
    stats.unread_stores.update(unread)
    left = []
    for group in todo:
        hit = found.get((group[0][0].run_hash, group[1]))
        if hit is None:
            left.append(group)
            continue
        name, row = hit
        origin = row.get("reused_from") or row["key"]
        row = {**row, "reused_from": origin if ".sqlite:" in origin else f"{name}:{origin}"}
        for f in group[0]:
            store.put(_reuse(row, f, decoding))
            stats.reused += 1
            stats.reused_elsewhere[name] += 1
            stats.answered.add(f.key)
    return left


def _group_identical(
    units: list[Unit], ctx: Context, store: Any, decoding: Decoding, stats: _Stats, others: Sequence[Path] = ()
) -> list[tuple[list[Unit], str, int]]:
    """Return pending units grouped by identical request: (units, request hash, ~prompt tokens); first = called.

    Units whose request already has an ok reply in the store (same run, same messages), or in one
    of the `others` stores (another run name under the same --out), are answered from it at once,
    recorded with ``reused_from``; nothing is sent for them.
    """
    groups: dict[tuple[str, str, str], list[Unit]] = {}
    for u in units:  # grouped by the request's hash: known without rendering the prompt
        groups.setdefault((u.run_hash, u.kind, unit_request_hash(u)), []).append(u)
    answered: dict[str, dict[str, str]] = {}
    todo: list[tuple[list[Unit], str, int]] = []
    for (rh, _, h), us in groups.items():
        if rh not in answered:
            answered[rh] = store.ok_by_request(rh)
        src = answered[rh].get(h)
        row = store.get(src) if src is not None else None
        if row is None:
            todo.append((us, h, 0))
            continue
        for f in us:
            store.put(_reuse(row, f, decoding))
            stats.reused += 1
            stats.answered.add(f.key)
    return _reuse_elsewhere(todo, others, store, decoding, stats)


async def _execute(
    units: list[Unit],
    ctx: Context,
    backend: OpenAIBackend,
    store: Any,
    cfg: RunConfig,
    stats: _Stats,
    label: str,
    prices: tuple[float | None, float | None] = (None, None),
) -> None:
    """Run units with bounded concurrency, one call per distinct request booked at `prices`, each result committed at once."""
    if not units:
        return
    groups = _group_identical(units, ctx, store, backend.decoding, stats, shared_stores(cfg))
    if not groups:
        return
    limiter = RateLimiter(cfg.rpm)
    it = iter(groups)
    pbar = None
    if cfg.progress:
        from tqdm.auto import tqdm

        pbar = tqdm(total=len(groups), desc=label, unit="call", file=sys.stderr, dynamic_ncols=True)
    fatal: list[BaseException] = []
    reserve = _reserver(cfg, store, stats, fatal, prices)

    async def worker(n_max: int | None = None) -> None:
        """Pull request groups until none are left, the run aborts, or `n_max` groups are done."""
        done = 0
        for us, request_hash, _ in it:
            u = us[0]
            if stats.abort or fatal:
                return
            try:
                row = await _call_unit(u, ctx, backend, limiter, cfg, stats, store, request_hash, reserve)
            except _OverBudget:
                return
            except FatalBackendError as exc:
                fatal.append(exc)
                _stop_fatal(stats, exc)
                return
            _commit(row, us, store, backend.decoding, stats)
            _stop_if_misconfigured(stats, cfg)
            if pbar is not None:
                _show_progress(pbar, stats)
            done += 1
            if n_max is not None and done >= n_max:
                return

    try:
        await worker(1)  # the first call alone: a wrong key, quota or model stops the run at one call
        await asyncio.gather(*(worker() for _ in range(max(1, cfg.concurrency))))
    finally:
        if pbar is not None:
            pbar.close()


def _reserver(
    cfg: RunConfig, store: Any, stats: _Stats, fatal: list[BaseException], prices: tuple[float | None, float | None]
) -> Any:
    """Return reserve(unit, est_in, est_out): a committed reservation for the next attempt, or _OverBudget raised.

    The budget check and the reservation are one store transaction (Store.reserve): the store's
    spend, over every run, resume, batch import and call in flight, is the only count. Nothing
    is reserved (or sent) once the execution is aborted.
    """

    def reserve(u: Unit, est_in: int, est_out: int) -> int:
        """Return the reservation id, or raise _OverBudget (nothing is sent)."""
        if stats.abort or fatal:
            raise _OverBudget()
        ids, why = store.reserve([(u.run_hash, u.key, est_in, est_out)], partial(over_budget, cfg), prices=prices)
        if not ids:
            stats.stop("budget", why or "budget reached")
            raise _OverBudget()
        return ids[0]

    return reserve


def _stop_fatal(stats: _Stats, exc: BaseException) -> None:
    """Abort the execution on a fatal backend error (auth, quota, unknown model), saying at which call."""
    stats.fatal_calls += 1
    n = stats.new + stats.fatal_calls
    stats.stop(
        "fatal",
        f"fatal backend error at call {n} ({n} call{'s' if n != 1 else ''} made"
        f"{', no other call was sent' if n == 1 else ''}): {exc}",
    )


def _commit(row: dict[str, Any], us: list[Unit], store: Any, decoding: Decoding, stats: _Stats) -> None:
    """Commit a call's row with its spend (replacing its reservation), and its identical requests' reuses; count it."""
    rid = row.pop("_reservation", None)
    store.put_paid(row, rid)
    for f in us[1:]:
        store.put(_reuse(row, f, decoding))
        stats.reused += 1
    stats.answered.update(f.key for f in us)
    stats.new += 1
    stats.statuses[row["status"]] += 1
    stats.prompt_tokens += row.get("prompt_tokens") or 0
    stats.completion_tokens += row.get("completion_tokens") or 0


def _show_progress(pbar: Any, stats: _Stats) -> None:
    """Advance the progress bar by one call and show the counters."""
    pbar.update(1)
    pbar.set_postfix(
        ok=stats.statuses[P.OK],
        fail=stats.new - stats.statuses[P.OK],
        retries=stats.retries,
        timeouts=stats.timeouts,
        tok=stats.prompt_tokens + stats.completion_tokens,
        fail_rate=f"{stats.failure_rate():.1%}",
        refresh=False,
    )


def _stop_if_misconfigured(stats: _Stats, cfg: RunConfig) -> None:
    """Abort the execution when the failures so far show a misconfigured judge (see _Stats.misconfigured)."""
    why = stats.misconfigured(cfg.abort_after, cfg.abort_error_rate)
    if why and not stats.abort:
        stats.stop("failure_rate", f"{why} ({dict(stats.statuses)}): the judge looks misconfigured")


def over_budget(cfg: RunConfig, total: dict[str, float], this_call: int) -> str | None:
    """Return why a store's spend total (Store.spend_total, the next reservation of `this_call` tokens included) breaks a budget.

    USD sums each row at the prices it was booked at; rows booked without prices (before any
    were given) at this run's prices.
    """
    tokens = int(total["prompt_tokens"] + total["completion_tokens"])
    if cfg.budget_tokens is not None and tokens > cfg.budget_tokens:
        return (
            f"token budget {cfg.budget_tokens} reached: {tokens - this_call} spent on this store "
            "(every run, resume and batch import, the calls in flight at their reservation); "
            f"the next call reserves {this_call}"
        )
    unpriced = usd_of(total["unpriced_in"], total["unpriced_out"], cfg.price_in_per_m, cfg.price_out_per_m)
    cost = None if unpriced is None else total["usd"] + unpriced
    if cfg.budget_usd is not None and cost is not None and cost > cfg.budget_usd:
        return (
            f"budget ${cfg.budget_usd} reached: ${cost:.4f} spent on this store with the next call's "
            "reservation, each call at the prices it was made at (every run, resume and batch import, the calls in "
            "flight at their reservation)"
        )
    return None


BUDGET_FIELDS: tuple[str, ...] = ("budget_tokens", "budget_usd", "price_in_per_m", "price_out_per_m")


def prices_of(cfg: RunConfig) -> tuple[float | None, float | None]:
    """Return the prices a run's calls are booked at (USD per 1M prompt / completion tokens; None: not given)."""
    return cfg.price_in_per_m, cfg.price_out_per_m


def budget_fields(cfg: RunConfig, recorded: dict[str, Any] | None) -> dict[str, Any]:
    """Return the run's budget and prices: each one given now, else the one recorded with the run (None: neither)."""
    rec = recorded or {}
    keys = {
        "budget_tokens": "tokens",
        "budget_usd": "usd",
        "price_in_per_m": "price_in",
        "price_out_per_m": "price_out",
    }
    return {f: getattr(cfg, f) if getattr(cfg, f) is not None else rec.get(k) for f, k in keys.items()}


def run_budget(cfg: RunConfig, store: Any) -> tuple[RunConfig, list[str]]:
    """Return the config with the run's budget in force, recorded with the run, and what was said about it.

    A budget or price given now replaces the recorded one (of its kind) and is recorded; one not
    given is the recorded one: a resume without --budget-* (notebook 15 included) keeps the run's
    budget. Spend rows booked without prices get the USD budget's prices when one first applies.
    """
    recorded = store.budget(cfg.name)
    fields = budget_fields(cfg, recorded)
    out = dataclasses.replace(cfg, **fields)
    notes = []
    kept = [f for f in BUDGET_FIELDS if getattr(cfg, f) is None and fields[f] is not None]
    if kept:
        notes.append(f"recorded with run {cfg.name}, kept: " + ", ".join(f"{f} {fields[f]:g}" for f in kept))
    if recorded is None or any(getattr(cfg, f) is not None for f in BUDGET_FIELDS):
        store.record_budget(cfg.name, out.budget_tokens, out.budget_usd, prices_of(out))
    if out.budget_usd is not None and None not in prices_of(out):
        n = store.price_unpriced(prices_of(out))
        if n:
            notes.append(f"{n} spend rows booked without prices priced at the USD budget's prices")
    return out, notes


def deriver_prices(cfg: RunConfig) -> tuple[float | None, float | None]:
    """Return the prices the DeRef deriver's calls are booked at: its own, else the run's when it is the run's model."""
    own = (cfg.deriver_price_in_per_m, cfg.deriver_price_out_per_m)
    if own != (None, None) or (cfg.deriver_model or cfg.model) != cfg.model:
        return own
    return prices_of(cfg)


def check_deriver_prices(cfg: RunConfig) -> None:
    """Raise ValueError when a USD budget would book a DeRef deriver of another model without prices of its own."""
    if cfg.budget_usd is not None and "deref" in cfg.conditions and None in deriver_prices(cfg):
        raise ValueError(
            f"--budget-usd with --deriver-model {cfg.deriver_model} (another model than {cfg.model}) needs its prices: "
            "--deriver-price-in and --deriver-price-out (USD per 1M tokens); its calls are booked at them"
        )


def _has_budget(cfg: RunConfig) -> bool:
    """Return whether a run has a budget in force (tokens, or USD with prices)."""
    return cfg.budget_tokens is not None or (cfg.budget_usd is not None and None not in prices_of(cfg))


def _paid(spent: dict[str, int]) -> int:
    """Return the tokens of a store's spend (Store.spent)."""
    return int(spent.get("prompt_tokens", 0) + spent.get("completion_tokens", 0))


async def _check(*backends: OpenAIBackend) -> None:
    """Raise FatalBackendError if any endpoint is down (before the first item is sent); each backend checked once."""
    for b in {id(b): b for b in backends}.values():
        await b.check()


# ------------------------------------------------------------------------------ entry points
def _make_backend(cfg: RunConfig, deriver: bool = False) -> OpenAIBackend:
    """Return the OpenAI-compatible backend of a config (or of its deriver)."""
    if not cfg.model:
        raise ValueError("--model is required for the openai backend")
    return OpenAIBackend(
        model=(cfg.deriver_model or cfg.model) if deriver else cfg.model,
        base_urls=(cfg.deriver_base_urls or cfg.base_urls) if deriver else cfg.base_urls,
        api_key_env=cfg.api_key_env,
        decoding=cfg.decoding,
        response_format=cfg.response_format,
        timeout_s=cfg.timeout_s,
        extra_body=cfg.extra_body,
        pool_size=max(8, 2 * cfg.concurrency),
    )


def _pending(
    units: list[Unit],
    existing: dict[str, str],
    retry_errors: bool,
    retry_permanent: bool = False,
    retry_ambiguous: bool = False,
) -> list[Unit]:
    """Return the units that still need a call: missing, or failed with retry_errors.

    Permanent failures (context_length, refused, content_filter) would fail again the same way;
    they are re-sent only with retry_permanent. Ambiguous verdicts (a reply was read, but two
    disagreeing objects or another scale) are re-sent only with retry_ambiguous.
    """

    def again(st: str) -> bool:
        """Return whether a stored failure is re-sent."""
        if st == P.AMBIGUOUS:
            return retry_ambiguous
        return st != P.OK and (retry_permanent if st in P.PERMANENT else retry_errors)

    return [u for u in units if u.key not in existing or again(existing[u.key])]


def _estimate(units: list[Unit], ctx: Context, cfg: RunConfig) -> dict[str, Any]:
    """Return the dry-run estimate: calls and tokens per kind (prompt tokens ~ chars/4)."""
    out: dict[str, Any] = {"calls": {}, "prompt_tokens": 0, "completion_tokens": 0}
    by_kind: dict[str, list[Unit]] = {}
    for u in units:
        by_kind.setdefault(f"{u.kind}:{u.condition}", []).append(u)
    for k, us in by_kind.items():
        n_calls = len({unit_request_hash(u) for u in us})  # identical requests are sent once
        sample = us[:: max(1, len(us) // 200)][:200]
        # a deref judge call before its reference exists: the with-GT size
        chars = [sum(len(m["content"]) for m in ctx.messages(u)) if ctx.ready(u) else 6000 for u in sample]
        ptok = int(sum(chars) / max(len(chars), 1) / 4 * n_calls)
        ctok = min(cfg.decoding.max_tokens or 10**9, COMPLETION_GUESS.get(us[0].kind, 300)) * n_calls
        out["calls"][k] = {"calls": n_calls, "units": len(us), "prompt_tokens": ptok, "completion_tokens": ctok}
        out["prompt_tokens"] += ptok
        out["completion_tokens"] += ctok
    out["usd"] = usd_of(out["prompt_tokens"], out["completion_tokens"], cfg.price_in_per_m, cfg.price_out_per_m)
    return out


def _reparse(store: Any, hashes: list[str]) -> Counter:
    """Re-parse every stored raw reply of the given run hashes (no calls); return new statuses."""
    c: Counter = Counter()
    for r in list(store.rows(hashes)):
        if r["raw"] is None and r["reasoning"] is None:
            c[r["status"]] += 1
            continue
        status, parsed = _parse_unit(r["kind"], r["raw"], r["reasoning"], r["finish_reason"])
        store.overwrite_parse(r["key"], status, parsed)
        c[status] += 1
    return c


def _provenance(r: dict[str, Any]) -> dict[str, Any]:
    """Return the provenance fields of a stored row kept in exports."""
    parsed = r.get("parsed") or {}
    out = {
        "attempts": r["attempts"],
        "model": r["model"],
        "fingerprint": r["fingerprint"],
        "prompt_hash": r["prompt_hash"],
        "seed": r["seed"],
        "repaired": bool(parsed.get("repaired")),
        "finish_reason": r["finish_reason"],
        "notes": list(parsed.get("notes") or []),
        "source": parsed.get("source") or None,
    }
    if r.get("reused_from"):
        out["reused_from"] = r["reused_from"]  # answered by an identical request (no call of its own)
    if r.get("error"):
        out["error"] = r["error"]
    return out


def _merge_judge(units: list[Unit], rows: dict[str, dict[str, Any]]) -> dict[tuple[str, str, str, str], dict[str, Any]]:
    """Return per-(item, condition) outcomes, merging Prometheus' four per-metric calls."""
    acc: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for u in units:
        r = rows.get(u.key)
        if r is None:
            continue
        k, p = (u.item_id, u.generator, u.difficulty, u.condition), r["parsed"] or {}
        if u.kind == "judge":
            acc[k] = {"status": r["status"], "scores": p.get("scores"), "justifications": p.get("justifications")}
            acc[k]["provenance"] = _provenance(r)
            continue
        o = acc.setdefault(k, {"status": P.OK, "scores": {}, "justifications": {}})
        prov = o.setdefault("provenance", {**_provenance(r), "notes": [], "prometheus_1_5": {}})
        prov["attempts"] = max(prov["attempts"], r["attempts"])
        prov["notes"] += [f"{u.unit}: {n}" for n in (p.get("notes") or [])]  # per-metric notes of the four calls
        prov["prometheus_1_5"][u.unit] = p.get("score_1_5")
        o["status"] = o["status"] if r["status"] == P.OK else r["status"]
        o["scores"][u.unit], o["justifications"][u.unit] = p.get("score"), p.get("feedback", "")
    for o in acc.values():
        if "prometheus_1_5" in o["provenance"] and len(o["scores"]) < len(METRICS) and o["status"] == P.OK:
            o["status"] = P.API_ERROR  # some metric calls never ran
    return acc


def _summary_table(
    units: list[Unit], existing_before: dict[str, str], rows: dict[str, dict[str, Any]], answered: set[str]
) -> pd.DataFrame:
    """Return ok / null / cached / new counts by generator x difficulty x condition (item level).

    new = answered by this execution (`answered`: a call or an identical request's reply), never a
    failure stored by an earlier one.
    """
    items: dict[tuple[str, str, str, str], dict[str, bool]] = {}
    for u in units:
        if u.kind not in ("judge", "prometheus"):
            continue
        k = (u.generator, u.difficulty, u.condition, u.item_id)
        st = rows.get(u.key, {}).get("status")
        d = items.setdefault(k, {"ok": True, "cached": True, "new": False})
        d["ok"] &= st == P.OK
        d["cached"] &= existing_before.get(u.key) == P.OK
        d["new"] |= u.key in answered
    if not items:
        return pd.DataFrame(columns=["generator", "difficulty", "condition", "items", "ok", "null", "cached", "new"])
    df = pd.DataFrame(
        [(*k[:3], v["ok"], v["cached"], v["new"]) for k, v in items.items()],
        columns=["generator", "difficulty", "condition", "ok", "cached", "new"],
    )
    t = (
        df.groupby(["generator", "difficulty", "condition"], sort=False)
        .agg(items=("ok", "size"), ok=("ok", "sum"), cached=("cached", "sum"), new=("new", "sum"))
        .reset_index()
    )
    t["null"] = t["items"] - t["ok"]
    t["difficulty"] = pd.Categorical(t["difficulty"], DIFFICULTIES, ordered=True)
    t["condition"] = pd.Categorical(t["condition"], CONDITIONS, ordered=True)
    return t.sort_values(["generator", "difficulty", "condition"])[
        ["generator", "difficulty", "condition", "items", "ok", "null", "cached", "new"]
    ].reset_index(drop=True)


def _meta(
    cfg: RunConfig,
    kind: str,
    generators: list[str],
    source_label: str,
    run_hash: str,
    synthetic: bool = False,
    store_id: str | None = None,
) -> dict[str, Any]:
    """Return a run's .meta.json content (DATA_FORMAT.md section 2); `synthetic` marks a run over synthetic data."""
    model = cfg.model if cfg.backend != "static" else "static-v1"
    return {
        "name": cfg.name,
        "judge": cfg.judge or model,
        "display": cfg.display or cfg.name,
        "study": cfg.study if cfg.backend != "static" or cfg.study != "new_judge" else "static",
        "conditions": list(cfg.conditions) if kind == "judge" else [],
        "generators": generators,
        "decoding": cfg.decoding.to_dict() if cfg.backend != "static" else {},
        "prompt_variant": "structured",
        "backend": cfg.backend,
        "model": model,
        "synthetic": bool(synthetic),
        "source": source_label,
        "kind": kind,
        "run_hash": run_hash,
        "response_format": cfg.response_format if cfg.backend != "static" else None,
        "store_id": store_id,  # the store the answers came from (two stores never share an export)
        "selection": selection(cfg, kind),  # the items asked (another selection never rewrites this export)
        "created_unix": int(time.time()),
    }


def selection(cfg: RunConfig, kind: str = "judge") -> dict[str, Any]:
    """Return which items a run asks about: source, limit, seed, generators, difficulties, conditions."""
    return {
        "source": str(cfg.source),
        "limit": cfg.limit,
        "seed": cfg.seed,
        "generators": sorted(cfg.generators) if cfg.generators else None,
        "difficulties": sorted(cfg.difficulties) if cfg.difficulties else None,
        "conditions": sorted(cfg.conditions) if kind == "judge" else None,
    }


def _synthetic(bench: Any) -> bool:
    """Return True when the items came from synthetic data (the embedded sample or a copy of it)."""
    return bool(getattr(bench, "synthetic", False))


ONE_VALUE_MIN = 10  # ok verdicts from which "every verdict is one value" is said


def one_value_warning(verdicts: Sequence[dict[str, float | None] | None]) -> str | None:
    """Return a warning when at least ONE_VALUE_MIN ok verdicts all give every metric one and the same value."""
    values = {v for sc in verdicts for v in (sc or {}).values()}
    if len(verdicts) < ONE_VALUE_MIN or len(values) != 1:
        return None
    v = next(iter(values))
    return (
        f"every verdict gives every metric {v:g} ({len(verdicts)} ok verdicts): a judge that does not read the "
        "plans, or one on another scale (a 1-5 judge answering only 1 reads as perfect); read a few raw replies "
        "in the store before using this run"
    )


def _load_derived(store: Any, ctx: Context, derivers: list[Unit]) -> None:
    """Put every ok derived reference into the context (JSON text for the reference slot)."""
    for u in derivers:
        r = store.get(u.key)
        if r and r["status"] == P.OK and r["parsed"] and r["parsed"].get("reference") is not None:
            ctx.derived[(u.item_id, u.difficulty)] = json.dumps(r["parsed"]["reference"], ensure_ascii=False, indent=2)


def _write_export(cfg: RunConfig, summary: RunSummary, stem: Path, rows: Iterable[dict[str, Any]], meta: dict) -> None:
    """Write <stem>.jsonl and <stem>.meta.json under the export lock (export.claim_export); list them in the summary."""
    from ajb_judge.export import claim_export, write_jsonl, write_meta

    jsonl, meta_path = stem.with_name(stem.name + ".jsonl"), stem.with_name(stem.name + ".meta.json")
    with claim_export(meta_path, meta, cfg.replace_export):
        write_jsonl(jsonl, rows)
        write_meta(meta_path, meta)
    summary.files = [str(jsonl), str(meta_path)]


def _call_phase(
    cfg: RunConfig,
    ctx: Context,
    store: Any,
    stats: _Stats,
    derivers: list[Unit],
    pend_d: list[Unit],
    pend: list[Unit],
    checked: bool,
    label: str,
) -> tuple[float, float]:
    """Check the endpoints, derive references (DeRef), then run the pending units; return the wall and CPU seconds."""
    backend = _make_backend(cfg)
    dbackend = _make_backend(cfg, deriver=True) if pend_d and (cfg.deriver_model or cfg.deriver_base_urls) else backend

    async def go() -> None:
        """Check, derive, call; close the clients."""
        try:
            if cfg.check_endpoint and not checked:
                await _check(*([dbackend] if pend_d else []), *([backend] if pend else []))
            await _execute(pend_d, ctx, dbackend, store, cfg, stats, "deriver", deriver_prices(cfg))
            _load_derived(store, ctx, derivers)
            if not stats.abort:
                ready = [u for u in pend if ctx.ready(u)]
                await _execute(ready, ctx, backend, store, cfg, stats, label, prices_of(cfg))
        finally:
            await backend.aclose()
            if dbackend is not backend:
                await dbackend.aclose()

    tc, cpu0 = time.time(), time.process_time()
    asyncio.run(go())
    return time.time() - tc, time.process_time() - cpu0


@contextmanager
def _model_run(
    cfg: RunConfig,
    ctx: Context,
    summary: RunSummary,
    derivers: list[Unit],
    units: list[Unit],
    hashes: list[str],
    stem: Path,
    meta_of: Callable[[str | None], dict[str, Any]],
    label: str,
) -> Iterator[tuple[dict[str, dict[str, Any]], dict[str, str], set[str]] | None]:
    """Open the store, call what is pending and yield (rows of `units` by key, statuses before, keys answered now).

    A dry run yields None (its estimate in the summary). The export at `stem` (``meta_of(store
    id)`` its meta) is checked before the first paid call, and before the store is created when
    it does not exist yet (a new store is another store than the one an export names). The
    store stays open (locked) while the caller exports.
    """
    from ajb_judge.export import check_claim, claim_run

    meta_path = stem.with_name(stem.name + ".meta.json")
    if not cfg.dry_run and not store_path(cfg).exists():
        check_claim(meta_path, meta_of(NEW_STORE), cfg.replace_export)
    checked = _check_before_creating(cfg, deriver=bool(derivers))
    # a dry run only reads: it may look at a store another run is writing, and creates none
    with _open_store(cfg) as store:
        if not cfg.dry_run:  # the run claimed by this store before the first paid call: a conflict costs nothing
            claim_run(meta_path, meta_of(store.store_id), cfg.replace_export)
            cfg, summary.budget_notes = run_budget(cfg, store)
            check_deriver_prices(cfg)
            store.register_run(summary.run_hash, cfg.name, cfg.public())
            summary.settled = store.settle_dead()
        else:
            recorded = store.budget(cfg.name) if hasattr(store, "budget") else None
            cfg = dataclasses.replace(cfg, **budget_fields(cfg, recorded))
        summary.budget = {k: getattr(cfg, k) for k in BUDGET_FIELDS}
        if cfg.reparse:
            summary.statuses = dict(_reparse(store, hashes))
        existing = store.statuses(hashes)
        summary.cached = sum(existing.get(u.key) == P.OK for u in [*derivers, *units])
        flags = (cfg.retry_errors, cfg.retry_permanent, cfg.retry_ambiguous)
        calls = not (cfg.reparse or cfg.offline)
        pend_d = _pending(derivers, existing, *flags) if calls else []
        pend = _pending(units, existing, *flags) if calls else []
        summary.store_id, summary.store_spent = store.store_id, store.spent()
        if cfg.require_budget and (pend_d or pend) and not _has_budget(cfg) and _paid(summary.store_spent):
            raise ValueError(
                f"run {cfg.name} has paid calls on its store ({_paid(summary.store_spent):,} tokens) and no budget, and "
                f"{len(pend_d) + len(pend)} calls to make: set budget_tokens (or budget_usd with price_in / price_out), "
                "the most the run may spend in all, its earlier calls included"
            )
        if cfg.dry_run:  # what other runs' stores answer is not paid (see _reuse_elsewhere)
            left, summary.reused_elsewhere, summary.unread_stores = answered_elsewhere(
                [*pend_d, *pend], shared_stores(cfg)
            )
            summary.estimate = _estimate(left, ctx, cfg)
            if cfg.export:
                summary.export_skipped = _would_stop(
                    meta_path, meta_of(store.store_id or NEW_STORE), cfg.replace_export
                )
            yield None
            return
        stats = _Stats()
        if pend_d or pend:
            summary.calls_s, summary.calls_cpu_s = _call_phase(
                cfg, ctx, store, stats, derivers, pend_d, pend, checked, label
            )
        _mark_scale_ambiguity(store, [u for u in units if u.kind == "judge"])
        summary.new, summary.calls, summary.reused = (
            stats.new + stats.reused,
            stats.new + stats.fatal_calls,
            stats.reused,
        )
        summary.retries, summary.aborted, summary.abort_kind = stats.retries, stats.abort, stats.abort_kind
        summary.reused_elsewhere, summary.unread_stores = dict(stats.reused_elsewhere), dict(stats.unread_stores)
        summary.timeouts, summary.timeout_tokens = stats.timeouts, stats.timeout_tokens
        summary.dropped, summary.dropped_tokens = stats.dropped, stats.dropped_tokens
        summary.prompt_tokens, summary.completion_tokens = stats.prompt_tokens, stats.completion_tokens
        summary.store_spent = store.spent()
        total = store.spend_total()
        unpriced = usd_of(total["unpriced_in"], total["unpriced_out"], cfg.price_in_per_m, cfg.price_out_per_m)
        summary.store_usd = None if unpriced is None else total["usd"] + unpriced
        keys = {u.key for u in units}
        rows = {r["key"]: r for r in store.rows([summary.run_hash]) if r["key"] in keys}
        summary.statuses = dict(Counter(r["status"] for r in rows.values()))
        if summary.aborted and not summary.statuses.get(P.OK):  # a previous export must not be replaced by nothing
            summary.export_skipped = (
                "the run aborted before any verdict was ok; a previous export (if any) is left as it was"
            )
        yield rows, existing, stats.answered


@outside_event_loop
def run_judge(cfg: RunConfig) -> RunSummary:
    """Run (or resume) a judge over the selected items and export data/runs/<name>.jsonl; return the summary."""
    from ajb_judge.export import judge_rows

    _check_names("condition", cfg.conditions, list(CONDITIONS), "--conditions")
    _check_config(cfg)
    t0 = time.time()
    bench, recs, gens = load_items(cfg)
    beyond = limit_beyond(cfg.limit, len(bench.records))
    if beyond:  # every record: the selection records that, not the number asked (issue 50)
        cfg = dataclasses.replace(cfg, limit=None)
    src_label = getattr(bench, "label", str(cfg.source))
    gen_names = sorted(gens["generator"].astype(str).unique().tolist())
    stem = Path(cfg.out_dir) / cfg.name
    if cfg.backend == "static":
        s = _run_static(cfg, bench, gens, gen_names, src_label, stem, t0)
        s.warnings = [w for w in [beyond, *s.warnings] if w]
        return s
    run_hash, deriver_hash = config_hash(cfg.identity()), config_hash(cfg.deriver_identity())
    ctx = Context(bench.records, gens, cfg.seed)
    derivers, units = judge_units(ctx, list(cfg.conditions), run_hash, deriver_hash)
    summary = RunSummary(cfg.name, run_hash, n_units=len(units) + len(derivers), dry_run=cfg.dry_run)
    summary.warnings = [beyond] if beyond else []

    def meta_of(store_id: str | None) -> dict[str, Any]:
        """Return the run's meta for a store id."""
        return _meta(cfg, "judge", gen_names, src_label, run_hash, _synthetic(bench), store_id)

    with _model_run(
        cfg, ctx, summary, derivers, units, [run_hash, deriver_hash], stem, meta_of, f"judge {cfg.name}"
    ) as got:
        if got is not None:
            rows, existing, answered = got
            summary.table = _summary_table(units, existing, rows, answered)
            outcomes = _merge_judge(units, rows)
            ok_scores = [o["scores"] for o in outcomes.values() if o["status"] == P.OK]
            summary.warnings = [w for w in [beyond, one_value_warning(ok_scores)] if w]
            if cfg.export and not summary.export_skipped:
                meta = {**meta_of(summary.store_id), "statuses": summary.statuses, "warnings": summary.warnings}
                meta["budget"] = summary.budget  # the run's budget and prices in force (recorded in its store)
                _write_export(cfg, summary, stem, judge_rows(gens, outcomes, list(cfg.conditions)), meta)
    summary.elapsed_s = time.time() - t0
    return summary


def _static_summary(cfg: RunConfig, n: int) -> RunSummary:
    """Return the summary of a static run of n units: all ok, made now; a dry run: none made, nothing to pay."""
    if cfg.dry_run:
        return RunSummary(
            cfg.name,
            "static-v1",
            n_units=n,
            dry_run=True,
            estimate={"calls": {}, "prompt_tokens": 0, "completion_tokens": 0, "usd": 0.0},
        )
    return RunSummary(cfg.name, "static-v1", n_units=n, new=n, statuses={P.OK: n})


def _run_static(
    cfg: RunConfig, bench: Any, gens: pd.DataFrame, gen_names: list[str], src_label: str, stem: Path, t0: float
) -> RunSummary:
    """Run the static judge (no model, no store) and export it like any other judge."""
    from ajb_judge.export import judge_rows
    from ajb_judge.static_judge import static_verdicts

    summary = _static_summary(cfg, len(gens) * len(cfg.conditions))
    if cfg.dry_run:
        return summary
    v = static_verdicts(bench, cfg.conditions, generations=gens, seed=cfg.seed)
    key_cols = ["id", "generator", "difficulty", "condition"]
    wide = v.pivot_table(index=key_cols, columns="metric", values="llm_score", observed=True, aggfunc="first")
    just = v.pivot_table(index=key_cols, columns="metric", values="justification", observed=True, aggfunc="first")
    prov = {
        "attempts": 1,
        "model": "static-v1",
        "fingerprint": None,
        "prompt_hash": None,
        "seed": cfg.seed,
        "repaired": False,
    }
    outcomes = {
        tuple(map(str, k)): {
            "status": P.OK,
            "scores": {m: float(srow[m]) for m in METRICS},
            "justifications": {m: just.at[k, m] for m in METRICS},
            "provenance": prov,
        }
        for k, srow in wide.iterrows()
    }
    summary.table = (
        v[v["metric"] == METRICS[0]]
        .groupby(["generator", "difficulty", "condition"], observed=True, sort=False)
        .size()
        .rename("items")
        .reset_index()
        .assign(ok=lambda d: d["items"], null=0, cached=0, new=lambda d: d["items"])
    )
    if cfg.export:
        meta = _meta(cfg, "judge", gen_names, src_label, "static-v1", _synthetic(bench))
        _write_export(cfg, summary, stem, judge_rows(gens, outcomes, list(cfg.conditions)), meta)
    summary.elapsed_s = time.time() - t0
    return summary


@contextmanager
def _record_run(
    cfg: RunConfig, kind: str, stem: Path, meta_kind: str
) -> Iterator[tuple[RunSummary, Any, dict[str, dict[str, Any]] | None, list[Unit]]]:
    """Run generator or rewrite units over the selected records; yield (summary, bench, rows or None, units).

    Rows are None for a dry run. The export at `stem` is checked before the first paid call; the
    store stays open while the caller exports.
    """
    _check_config(cfg)
    t0 = time.time()
    bench, recs, _ = load_items(cfg)
    run_hash = config_hash({**cfg.identity(), "role": kind})
    ctx = Context(bench.records, bench.generations.iloc[:0], cfg.seed)
    units = record_units(ctx, kind, run_hash, recs["id"].astype(str).tolist(), cfg.difficulties)
    summary = RunSummary(cfg.name, run_hash, n_units=len(units), dry_run=cfg.dry_run)
    label = getattr(bench, "label", cfg.source)

    def meta_of(store_id: str | None) -> dict[str, Any]:
        """Return the meta the export is checked against for a store id."""
        return _meta(cfg, meta_kind, [cfg.name], label, run_hash, _synthetic(bench), store_id)

    with _model_run(cfg, ctx, summary, [], units, [run_hash], stem, meta_of, f"{kind} {cfg.name}") as got:
        summary.elapsed_s = time.time() - t0
        yield summary, bench, got[0] if got else None, units


@outside_event_loop
def run_generate(cfg: RunConfig) -> RunSummary:
    """Run a new generator (W.1 prompt) and export <out>/generators/<name>.jsonl; return the summary."""
    from ajb_judge.export import generator_rows

    stem = Path(cfg.out_dir) / "generators" / cfg.name
    with _record_run(cfg, "generate", stem, "generator") as (summary, bench, rows, units):
        if rows is None or not cfg.export or summary.export_skipped:
            return summary
        outcomes = {}
        for u in units:
            r = rows.get(u.key)
            if r is not None:
                calls = (r["parsed"] or {}).get("calls") if r["status"] == P.OK else None
                outcomes[(u.item_id, u.difficulty)] = {
                    "status": r["status"],
                    "calls": calls,
                    "provenance": _provenance(r),
                }
        label = getattr(bench, "label", cfg.source)
        meta = _meta(cfg, "generator", [cfg.name], label, summary.run_hash, _synthetic(bench), summary.store_id)
        meta["study"] = "new_generator"
        _write_export(cfg, summary, stem, generator_rows(bench.records, outcomes), meta)
    return summary


@outside_event_loop
def run_rewrite(cfg: RunConfig) -> RunSummary:
    """Run the Appendix N rewrite meta-judge; export <out>/annotations/<name>.rewrite_validation.jsonl."""
    from ajb_judge.static_judge import static_rewrite_verdicts

    cfg = dataclasses.replace(cfg, study="rewrite_meta_judge")  # a copy: the caller's config is left as it was
    stem = Path(cfg.out_dir) / "annotations" / f"{cfg.name}.rewrite_validation"
    if cfg.backend == "static":
        t0 = time.time()
        bench, recs, _ = load_items(cfg)
        summary = _static_summary(cfg, len(recs))
        if cfg.dry_run:  # a dry run writes nothing (data/runs/annotations is what notebook 12 reads)
            return summary
        if cfg.export:
            meta = _meta(
                cfg, "rewrite_meta_judge", [], getattr(bench, "label", cfg.source), "static-v1", _synthetic(bench)
            )
            _write_export(cfg, summary, stem, static_rewrite_verdicts(recs).to_dict("records"), meta)
        summary.elapsed_s = time.time() - t0
        return summary
    with _record_run(cfg, "rewrite", stem, "rewrite_meta_judge") as (summary, bench, rows, units):
        if rows is None or not cfg.export or summary.export_skipped:
            return summary
        dag = bench.records.assign(id=bench.records["id"].astype(str)).set_index("id")["dag_type"]
        out = [
            {
                "id": u.item_id,
                "dag_type": str(dag[u.item_id]),
                "meta_judge": cfg.judge or cfg.model,
                "pair": pair,
                "criterion": crit,
                "verdict": bool(rows[u.key]["parsed"]["verdicts"][k]),
            }
            for u in units
            if rows.get(u.key, {}).get("status") == P.OK
            for k, (pair, crit) in P.REWRITE_CRITERIA.items()
        ]
        label = getattr(bench, "label", cfg.source)
        meta = _meta(cfg, "rewrite_meta_judge", [], label, summary.run_hash, _synthetic(bench), summary.store_id)
        _write_export(cfg, summary, stem, out, meta)
    return summary
