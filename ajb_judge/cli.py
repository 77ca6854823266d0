"""Command line: ``python -m ajb_judge {run,plan,generate,rewrite,batch-export,batch-import}``."""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import sys
import types
import typing
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from ajb_judge.backends import Decoding
from ajb_judge.runner import SELECT_SEED, RunConfig, RunSummary, run_generate, run_judge, run_rewrite
from ajb_utils.schema import CONDITIONS, DIFFICULTIES

EXIT_OK = 0
EXIT_CONFIG = 2  # a usage / config error, a damaged or hard-linked store, an export another run holds: nothing was paid
EXIT_STORE_IN_USE = 3  # another runner holds the store: nothing was paid
EXIT_BACKEND = 4  # a fatal backend error: endpoint down, 401/403, quota, unknown model (at most one call paid)
EXIT_BUDGET = 5  # the budget was reached: the calls within it are stored and the partial export is written
EXIT_MISCONFIGURED = 6  # --abort-error-rate of the first --abort-after calls failed: the judge looks misconfigured
ABORT_EXIT = {"budget": EXIT_BUDGET, "fatal": EXIT_BACKEND, "failure_rate": EXIT_MISCONFIGURED}

EXAMPLES = """examples:
  # offline, no model: the static judge on the sample
  python -m ajb_judge run --backend static --name static_judge
  # a vLLM server (two replicas, round-robin), thinking off
  python -m ajb_judge run --backend openai --base-url http://gpu1:8000/v1 --base-url http://gpu2:8000/v1 \\
      --model Qwen/Qwen3-32B --no-thinking --temperature 0.15 --name qwen3_32b_t015 --limit 200
  # OpenAI (key read from $OPENAI_API_KEY; never stored)
  python -m ajb_judge run --backend openai --base-url https://api.openai.com/v1 --model gpt-4.1-mini \\
      --api-key-env OPENAI_API_KEY --name gpt41mini --dry-run --price-in 0.4 --price-out 1.6
  # Ollama
  python -m ajb_judge run --backend openai --base-url http://localhost:11434/v1 --model qwen3:8b --name ollama_qwen3_8b
  # re-run failed items only (the paper re-ran nulls twice); re-parse stored replies without calls
  python -m ajb_judge run ... --retry-errors
  python -m ajb_judge run ... --reparse
"""


# The options of each command: (flag, the field it sets, help, argparse extras). A field is one of
# RunConfig (or `decoding.<name>` of Decoding, or PlanConfig for `plan`); its type and default come
# from the dataclass, so an option not given leaves the field at the default the Python API has.
# "judge": an option of the judge commands only (run, batch-export, batch-import).
RUN_OPTIONS: dict[str, list[tuple[str, str, str, dict[str, Any]]]] = {
    "model / endpoint": [
        (
            "--backend",
            "backend",
            "static: built-in schema-only judge, no model (default); openai: any OpenAI-compatible endpoint "
            "(vLLM, OpenAI, Ollama, providers)",
            {"choices": ["static", "openai"]},
        ),
        (
            "--base-url",
            "base_urls",
            "endpoint base URL, e.g. http://localhost:8000/v1; repeat for replicas (round-robin)",
            {"action": "append"},
        ),
        ("--model", "model", "model name as the server knows it", {}),
        (
            "--api-key-env",
            "api_key_env",
            "NAME of the environment variable holding the API key (the key is never stored or logged); "
            "omit for local servers",
            {},
        ),
        (
            "--response-format",
            "response_format",
            "structured output: auto tries json_schema, then json_object, then plain prompting",
            {"choices": ["auto", "json_schema", "json_object", "none"]},
        ),
        ("--extra-body", "extra_body", "JSON merged into the request body", {}),
        ("--timeout", "timeout_s", "per-request timeout in seconds", {}),
    ],
    "decoding (part of the run's identity)": [
        ("--temperature", "decoding.temperature", "", {}),
        ("--max-tokens", "decoding.max_tokens", "", {}),
        ("--top-p", "decoding.top_p", "", {}),
        ("--seed", "decoding.seed", "decoding seed where the server supports it", {}),
        (
            "--thinking",
            "decoding.thinking",
            "enable (--no-thinking: disable) thinking for reasoning models (chat_template_kwargs.enable_thinking)",
            {"action": argparse.BooleanOptionalAction},
        ),
        ("--reasoning-effort", "decoding.reasoning_effort", "OpenAI reasoning models: low | medium | high", {}),
    ],
    "selection": [
        ("--source", "source", "data source for load_bench: sample, hf, or a local directory", {}),
        (
            "--conditions",
            "conditions",
            f"comma-separated, from {CONDITIONS} (prometheus = 4 calls/item, deref = deriver + judge; "
            "default with_gt,without_gt)",
            {"judge": True},
        ),
        ("--generators", "generators", "comma-separated generator configs (default: all)", {"judge": True}),
        ("--difficulties", "difficulties", f"comma-separated, from {DIFFICULTIES} (default: all)", {}),
        ("--limit", "limit", "number of records, stratified over topologies", {}),
        (
            "--select-seed",
            "seed",
            f"seed of the stratified subset and the C3 derangement (default {SELECT_SEED}, notebook 15's seed; "
            "part of the run's identity)",
            {},
        ),
    ],
    "execution": [
        ("--concurrency", "concurrency", "concurrent requests", {}),
        ("--rpm", "rpm", "requests-per-minute limit", {}),
        ("--max-attempts", "max_attempts", "attempts per call on 429/5xx/timeouts", {}),
        (
            "--max-timeout-attempts",
            "max_timeout_attempts",
            "timed-out attempts per call before status timeout (each is counted as spent)",
            {},
        ),
        (
            "--retry-errors",
            "retry_errors",
            "re-run failed items (parse_error, api_error, timeout, ...), not permanent failures",
            {},
        ),
        (
            "--retry-permanent",
            "retry_permanent",
            "also re-run permanent failures (context_length, refused, content_filter)",
            {},
        ),
        (
            "--retry-ambiguous",
            "retry_ambiguous",
            "also re-run ambiguous verdicts (two disagreeing JSON objects, or a judge on another scale); "
            "--retry-errors leaves them, since the same judge tends to answer them the same way",
            {},
        ),
        ("--no-endpoint-check", "check_endpoint", "skip the GET /models check before the first item", {}),
        ("--reparse", "reparse", "re-parse stored raw replies; makes no call", {}),
        ("--dry-run", "dry_run", "print calls and estimated tokens/cost, spend nothing", {}),
        (
            "--budget-tokens",
            "budget_tokens",
            "stop before the store's spend (all runs and resumes, in-flight calls reserved) exceeds this",
            {},
        ),
        (
            "--budget-usd",
            "budget_usd",
            "the same in USD; refused without --price-in and --price-out; counted across resumes from the store",
            {},
        ),
        ("--price-in", "price_in_per_m", "USD per 1M prompt tokens (for estimates/budget)", {}),
        ("--price-out", "price_out_per_m", "USD per 1M completion tokens", {}),
        ("--abort-after", "abort_after", "check the failure rate after this many new calls", {}),
        ("--abort-error-rate", "abort_error_rate", "abort when this share of calls fails", {}),
        ("--no-progress", "progress", "no progress bar", {}),
    ],
    "output": [
        (
            "--name",
            "name",
            "run name: data/runs/<name>.jsonl, store data/runs/.store/<name>.sqlite",
            {"required": True},
        ),
        ("--out", "out_dir", "output folder (default data/runs)", {}),
        ("--store", "store_path", "store file (default <--out>/.store/<name>.sqlite)", {}),
        ("--display", "display", "display name in tables", {}),
        ("--judge-label", "judge", "base model label in the meta (default: --model)", {}),
        ("--study", "study", "study label in the meta (new_judge, temperature, thinking, ...)", {}),
        (
            "--replace-export",
            "replace_export",
            "replace an export at the same path written by another run (other settings or store); "
            "without it such a run stops before writing",
            {},
        ),
        ("--deriver-model", "deriver_model", "DeRef deriver model (default: --model)", {"judge": True}),
        ("--deriver-base-url", "deriver_base_urls", "DeRef deriver endpoint(s)", {"judge": True, "action": "append"}),
        (
            "--deriver-price-in",
            "deriver_price_in_per_m",
            "USD per 1M prompt tokens of the deriver (default: --price-in when it is the run's model)",
            {"judge": True},
        ),
        (
            "--deriver-price-out",
            "deriver_price_out_per_m",
            "USD per 1M completion tokens of the deriver",
            {"judge": True},
        ),
    ],
}
PLAN_OPTIONS: list[tuple[str, str, str, dict[str, Any]]] = [
    ("--source", "source", "data source: sample, hf, or a local directory", {}),
    ("--pilot", "pilot", "name of a stored run to plan from (paired differences, billed tokens)", {}),
    ("--out", "out_dir", "folder of the pilot's export (default data/runs)", {}),
    ("--store", "store_path", "the pilot's store (default <--out>/.store/<pilot>.sqlite)", {}),
    ("--reference", "reference", "judge the difference is planned against", {}),
    ("--target", "targets", "CI half-width in pp; repeat (default 1, 2, 3)", {"action": "append", "type": float}),
    ("--conditions", "conditions", "comma-separated (default: the pilot's, else with_gt,without_gt)", {}),
    ("--generators", "generators", "comma-separated generator configs (default: the pilot's, else all)", {}),
    ("--difficulties", "difficulties", "comma-separated (default: the pilot's, else all)", {}),
    ("--select-seed", "seed", "selection seed (a pilot's own seed wins)", {}),
    ("--price-in", "price_in", "USD per 1M prompt tokens", {}),
    ("--price-out", "price_out", "USD per 1M completion tokens", {}),
    ("--completion-tokens", "completion_tokens", "completion tokens per call without a pilot's bill", {}),
    ("--chars-per-token", "chars_per_token", "prompt-token rule without a pilot's bill", {}),
    ("--tokenizer", "tokenizer", "count with an installed tokenizer: tiktoken:<enc> or hf:<model>", {}),
]
DEBUG_HELP = "on an error, show the traceback (default: one line)"


def _split(s: str) -> list[str]:
    """Return a comma-separated option as a list."""
    return [x.strip() for x in s.split(",") if x.strip()]


def _field(where: str, plan: bool = False) -> tuple[dataclasses.Field, Any]:
    """Return (the dataclass field an option sets, its type hint without None)."""
    from ajb_judge.plan import PlanConfig

    cls, name = (
        (Decoding, where.split(".")[1]) if where.startswith("decoding.") else (PlanConfig if plan else RunConfig, where)
    )
    hint = typing.get_type_hints(cls)[name]
    args = [a for a in typing.get_args(hint) if a is not type(None)] if isinstance(hint, types.UnionType) else [hint]
    return next(f for f in dataclasses.fields(cls) if f.name == name), args[0]


def _add_option(g: Any, flag: str, where: str, help_: str, extra: dict[str, Any], plan: bool = False) -> None:
    """Add one option: a bool field is a switch (its flag sets the field's opposite of its default), a list
    a comma-separated value (or a repeated option), a dict JSON, any other its field's type; default None."""
    f, kind = _field(where, plan)
    shown = f.default not in (None, dataclasses.MISSING) and kind is not bool and "required" not in extra
    if shown and "default" not in help_:
        help_ = f"{help_} (default {f.default})".strip()  # the default the config has, not a copy of it
    kw: dict[str, Any] = {"help": help_ or None, "default": None, **{k: v for k, v in extra.items() if k != "judge"}}
    if kind is bool and "action" not in kw:  # the value is the field's: --no-progress stores progress=False
        kw.update(action="store_false" if f.default else "store_true", default=f.default)
    elif "action" not in kw and "type" not in kw:
        origin = typing.get_origin(kind)
        kw["type"] = _split if origin in (list, Sequence) else json.loads if origin is dict else kind
    g.add_argument(flag, **kw)


def _add_options(p: argparse.ArgumentParser, judge: bool) -> None:
    """Add the run options to a subcommand's parser, by group (the judge-only ones to the judge commands)."""
    for group, rows in RUN_OPTIONS.items():
        g = p.add_argument_group(group)
        for flag, where, help_, extra in rows:
            if judge or not extra.get("judge"):
                _add_option(g, flag, where, help_, extra)
    p.add_argument("--debug", action="store_true", help=DEBUG_HELP)


def _given(a: argparse.Namespace, rows: list[tuple[str, str, str, dict[str, Any]]]) -> dict[str, Any]:
    """Return {field: value} of the options given (an option not given leaves its field's default)."""
    values = {where: getattr(a, flag.removeprefix("--").replace("-", "_"), None) for flag, where, _, _ in rows}
    return {where: v for where, v in values.items() if v is not None}


def config_from_args(a: argparse.Namespace) -> RunConfig:
    """Return the RunConfig described by parsed arguments."""
    given = _given(a, [row for rows in RUN_OPTIONS.values() for row in rows])
    decoding = {k.split(".")[1]: given.pop(k) for k in list(given) if k.startswith("decoding.")}
    return RunConfig(**given, decoding=Decoding(**decoding))


class _OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (what is wrong, where the options are), exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        """Print `error: ...` and exit 2 (no usage block)."""
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")


def _plan_parser(sub: Any) -> None:
    """Add the `plan` subcommand: records needed for a CI half-width, and the cost, before a run."""
    help_ = "plan a run before paying: records (--limit) for a target CI half-width, and its cost"
    sp = sub.add_parser("plan", help=help_, description=help_ + " (ajb_judge/plan.py says how)")
    for row in PLAN_OPTIONS:
        _add_option(sp, *row, plan=True)
    sp.add_argument("--debug", action="store_true", help=DEBUG_HELP)


def _plan(a: argparse.Namespace) -> int:
    """Run `plan`: print the plan table and its assumptions."""
    from ajb_judge.plan import PlanConfig, make_plan, plan_text

    print(plan_text(make_plan(PlanConfig(**_given(a, PLAN_OPTIONS)))))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser."""
    p = _OneLineParser(
        prog="python -m ajb_judge",
        description="Run a judge or generator on AgentJudgeBench.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="cmd", required=True)
    _plan_parser(sub)
    for cmd, help_, judge in (
        ("run", "judge generator outputs (writes data/runs/<name>.jsonl)", True),
        ("generate", "run a new generator with the W.1 prompt (data/runs/generators/)", False),
        ("rewrite", "Appendix N rewrite meta-judge (data/runs/annotations/)", False),
        ("batch-export", "write pending judge calls as an OpenAI Batch API JSONL", True),
        ("batch-import", "import an OpenAI Batch API output JSONL into the store, then export", True),
    ):
        sp = sub.add_parser(
            cmd, help=help_, description=help_, epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter
        )
        _add_options(sp, judge)
        if cmd.startswith("batch"):
            sp.add_argument("--file", type=Path, required=True, help="the batch JSONL to write / read")
        if cmd == "batch-export":
            from ajb_judge.batch import MAX_BYTES_PER_FILE, MAX_REQUESTS_PER_FILE

            sp.add_argument(
                "--batch-max-requests",
                type=int,
                default=MAX_REQUESTS_PER_FILE,
                help=f"split the export into files of at most this many requests (default {MAX_REQUESTS_PER_FILE:,})",
            )
            sp.add_argument(
                "--batch-max-mb",
                type=float,
                default=MAX_BYTES_PER_FILE / 2**20,
                help=f"... and at most this many MB (default {MAX_BYTES_PER_FILE // 2**20})",
            )
    return p


def _print_summary(s: RunSummary) -> None:
    """Print a run summary (and the dry-run estimate)."""
    if s.dry_run:
        print(f"DRY RUN {s.name}: {s.n_units} units, {s.cached} already stored; pending calls:")
        for k, v in s.estimate.get("calls", {}).items():
            print(
                f"  {k:32s} {v['calls']:>8d} calls ({v.get('units', v['calls'])} units; identical requests sent once)  "
                f"~{v['prompt_tokens']:>12,d} prompt tok  ~{v['completion_tokens']:>10,d} completion tok"
            )
        usd = s.estimate.get("usd")
        print(
            f"  total ~{s.estimate.get('prompt_tokens', 0):,d} + ~{s.estimate.get('completion_tokens', 0):,d} tokens"
            + (f", ~${usd:,.2f}" if usd is not None else " (give --price-in/--price-out for a cost)")
        )
        sp = s.store_spent or {}
        if sp.get("attempts"):
            print(
                f"  already spent on this store: {sp['prompt_tokens']:,d} + {sp['completion_tokens']:,d} tokens "
                f"({sp['attempts']} paid attempts); budgets count it"
            )
        if s.export_skipped:
            print(f"  {s.export_skipped}")
        for w in s.warnings:
            print(f"  WARNING: {w}")
        if s.reused_elsewhere:
            print(
                f"  not counted: {sum(s.reused_elsewhere.values())} units answered by identical requests in other "
                f"runs' stores ({', '.join(f'{k} {v}' for k, v in sorted(s.reused_elsewhere.items()))}): reused, not paid"
            )
        return
    print(s)
    if s.files and any(str(f).endswith(".jsonl") for f in s.files):
        null = retry_note(s.statuses)
        print(
            "next: "
            + (f"{null}. Then " if null else "")
            + f"notebook 15 shows {s.name} beside the paper's six judges. Copy "
            "papermill_params/new_judge_vllm.yaml (or new_judge_static.yaml), set run_name: "
            f"{s.name} and this run's settings (backend, base_url, model, temperature, conditions, generators, "
            "difficulties, limit; seed is --select-seed, both default to "
            f"{SELECT_SEED}), then: python scripts/run_notebooks.py --params <that file> --only 15 "
            f"({resume_cost(s)}; with other settings it stops before any call, saying which differ)"
        )
    elif s.aborted:
        print(f"next: a resume with the same settings: {resume_cost(s)}")


def resume_cost(s: RunSummary) -> str:
    """Return what a resume of a run (the CLI or notebook 15 with its settings) may cost at most."""
    unfinished = bool(s.aborted) or any(k != "ok" for k in s.statuses)
    if s.run_hash == "static-v1" or not unfinished:
        return "with the same settings every item comes from the store: 0 new calls"
    b = s.budget or {}
    spent = s.store_spent.get("prompt_tokens", 0) + s.store_spent.get("completion_tokens", 0)
    parts = []
    if b.get("budget_tokens") is not None:
        parts.append(
            f"{max(0, b['budget_tokens'] - spent):,} more tokens (budget {b['budget_tokens']:,}, spent {spent:,})"
        )
    if b.get("budget_usd") is not None and s.store_usd is not None:
        parts.append(
            f"${max(0.0, b['budget_usd'] - s.store_usd):,.2f} more (budget ${b['budget_usd']:g}, spent ${s.store_usd:,.2f})"
        )
    if not parts:
        return (
            "the run is unfinished and has no budget: a resume pays for every pending call, and notebook 15 refuses "
            "to extend it without budget_tokens or budget_usd"
        )
    return (
        "the run is unfinished: a resume (the CLI without --budget-*, or notebook 15 without budget_tokens / "
        "budget_usd) keeps the budget recorded with the run and spends at most " + " and ".join(parts)
    )


def retry_note(statuses: dict[str, int]) -> str | None:
    """Return how many verdicts are null, by status, and the flag that re-sends each kind (None: all ok)."""
    from ajb_judge import parse as P

    null = {k: v for k, v in sorted(statuses.items()) if k != P.OK and v}
    if not null:
        return None
    permanent = sum(v for k, v in null.items() if k in P.PERMANENT)
    ambiguous = null.get(P.AMBIGUOUS, 0)
    errors = sum(null.values()) - permanent - ambiguous
    said = ", ".join(f"{k} {v}" for k, v in null.items())
    out = f"{sum(null.values())} of {sum(statuses.values())} verdicts are null ({said})"
    if errors:
        out += f"; the same command with --retry-errors re-sends the {errors} that can change (each paid again)"
    if permanent:
        out += f"; --retry-permanent also re-sends the {permanent} context_length / refused / content_filter ones"
    if ambiguous:
        out += f"; --retry-ambiguous the {ambiguous} ambiguous ones"
    return out


def _batch(a: argparse.Namespace, cfg: RunConfig) -> int:
    """Run batch-export / batch-import; return the exit code."""
    from ajb_judge.conditions import Context, config_hash, judge_units
    from ajb_judge.runner import _check_config, _make_backend, load_items, store_path
    from ajb_judge.store import Store

    _check_config(dataclasses.replace(cfg, dry_run=True))  # the budget and the extra body, before any file
    bench, _, gens = load_items(cfg)
    run_hash, dhash = config_hash(cfg.identity()), config_hash(cfg.deriver_identity())
    ctx = Context(bench.records, gens, cfg.seed)
    derivers, units = judge_units(ctx, cfg.conditions, run_hash, dhash)
    backend = _make_backend(cfg) if a.cmd == "batch-export" else None  # a missing key variable: before any file
    with Store(store_path(cfg)) as store:
        cfg = _batch_budget(cfg, store, run_hash, load_items_label(bench), gens, a.cmd == "batch-export")
        store.register_run(run_hash, cfg.name, cfg.public())
        if a.cmd == "batch-export":
            return _batch_export(a, cfg, store, ctx, backend, derivers, units)
        code = _batch_import(a, cfg, store, ctx, derivers, units)
    if code:
        return code
    cfg.dry_run, cfg.retry_errors, cfg.reparse, cfg.offline = False, False, False, True
    s = run_judge(cfg)  # export what the store now holds; no call is made
    _print_summary(s)
    return EXIT_OK


def load_items_label(bench: Any) -> str:
    """Return a bench's source label (as a run's meta names it)."""
    return str(getattr(bench, "label", ""))


def _batch_budget(cfg: RunConfig, store: Any, run_hash: str, label: str, gens: Any, export: bool) -> RunConfig:
    """Claim the run for this store (an export) and return the config with the run's budget in force, said."""
    from ajb_judge.export import claim_run
    from ajb_judge.runner import _meta, run_budget

    stem = Path(cfg.out_dir) / cfg.name
    generators = sorted(gens["generator"].astype(str).unique().tolist())
    meta = _meta(cfg, "judge", generators, label or str(cfg.source), run_hash, store_id=store.store_id)
    if export:  # an export pays (its file is run); an import books what was paid
        claim_run(stem.with_name(stem.name + ".meta.json"), meta, cfg.replace_export)
    cfg, notes = run_budget(cfg, store)
    for n in notes:
        print(f"budget: {n}")
    return cfg


def _batch_export(
    a: argparse.Namespace, cfg: RunConfig, store: Any, ctx: Any, backend: Any, derivers: list, units: list
) -> int:
    """Reserve and write the pending requests (derivers first, then judge calls); exit 5 when the budget stops it."""
    from ajb_judge import batch
    from ajb_judge.runner import _load_derived, over_budget, prices_of

    _load_derived(store, ctx, derivers)
    existing = store.statuses({u.run_hash for u in [*derivers, *units]})
    pending_d = [u for u in derivers if existing.get(u.key) != "ok"]
    flags = (cfg.retry_errors, cfg.retry_permanent, cfg.retry_ambiguous)
    reqs = batch.pending_requests(pending_d or units, ctx, backend, existing, *flags)  # derive first, then judge
    earlier = Path(a.file).exists()  # a file written before: its requests' reservations are replaced by these
    ids, why = batch.reserve_requests(reqs, store, partial(over_budget, cfg), prices_of(cfg), a.file)
    try:
        parts = batch.write_requests(reqs[: len(ids)], a.file, a.batch_max_requests, int(a.batch_max_mb * 2**20))
    except BaseException:
        if not earlier:  # nothing was written: nothing can be billed (an earlier file stays, and so do these)
            store.release_many(ids)
        raise
    for path, n in parts:
        print(f"wrote {n} requests to {path}")
    if len(parts) > 1:
        print(
            f"split into {len(parts)} files at the per-file limits "
            f"({a.batch_max_requests:,} requests, {a.batch_max_mb:g} MB); upload each"
        )
    if pending_d:
        print("(DeRef deriver calls; import, then export again)")
    print(
        f"reserved {len(ids)} requests' tokens on the store (each at its cap; an import replaces a reservation by "
        "the usage its line reports; a file run twice is paid twice, so export again rather than re-run a file)"
    )
    if why:
        print(f"error: ABORTED: {why}: wrote {len(ids)} of {len(reqs)} pending requests", file=sys.stderr)
        return EXIT_BUDGET
    return EXIT_OK


def _batch_import(a: argparse.Namespace, cfg: RunConfig, store: Any, ctx: Any, derivers: list, units: list) -> int:
    """Import an output file into the store; exit 2 when paid lines match no request of this run."""
    from ajb_judge import batch
    from ajb_judge.runner import _load_derived

    problems: list[str] = []
    _load_derived(store, ctx, derivers)
    c = batch.import_batch(a.file, [*derivers, *units], store, problems, ctx, (cfg.price_in_per_m, cfg.price_out_per_m))
    for msg in problems:
        print(msg)
    unknown = {k: c.pop(k) for k in ("unknown_key", "unknown_key_paid", "unknown_key_tokens") if k in c}
    print(f"imported {dict(c)}" + (f"; {unknown.get('unknown_key', 0)} lines match no request" if unknown else ""))
    _load_derived(store, ctx, derivers)
    shared = batch.share_identical([*derivers, *units], ctx, store, cfg.decoding)
    if shared:
        print(f"{shared} more units answered by an identical request (recorded with reused_from; not paid)")
    if unknown.get("unknown_key_paid"):
        matched = sum(v for k, v in c.items() if k != "corrupt_line")
        print(
            f"error: {unknown['unknown_key_paid']} paid lines of {a.file} ({unknown['unknown_key_tokens']:,} tokens) "
            f"match no request of this run ({matched} matched): their custom_ids are store keys of other settings. "
            "Import with the export's --model, decoding options, --extra-body, --response-format, --conditions, "
            "--generators, --difficulties, --limit and --select-seed; nothing of those lines was stored or booked, "
            "so importing again with the right options books them",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    return EXIT_OK


def _one_line(exc: BaseException, secrets: tuple[str, ...]) -> str:
    """Return an exception as one redacted line ("error: ..."), with a hint for unexpected ones."""
    from ajb_judge.backends import FatalBackendError, redact

    msg = " ".join(str(exc).split()) or type(exc).__name__
    if not isinstance(exc, FatalBackendError | ValueError | FileNotFoundError | NotADirectoryError):
        msg = f"{type(exc).__name__}: {msg} (run again with --debug for the traceback)"
    return f"error: {redact(msg, secrets)}"


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the exit code (EXIT_*: 2 config error, 3 store in use, 4 fatal backend error,
    5 budget reached with a partial export, 6 the judge looks misconfigured); every error is one line on stderr."""
    import os

    from ajb_judge.backends import FatalBackendError, MissingKeyError, redact, url_credentials
    from ajb_judge.store import StoreLockedError

    a = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    key_env = getattr(a, "api_key_env", None)
    key = os.environ.get(key_env, "") if key_env else ""
    urls = [*(getattr(a, "base_url", None) or []), *(getattr(a, "deriver_base_url", None) or [])]
    secrets = ((key,) if key else ()) + url_credentials(urls)
    try:
        if a.cmd == "plan":
            return _plan(a)
        cfg = config_from_args(a)
        if a.cmd.startswith("batch"):
            return _batch(a, cfg)
        fn = {"run": run_judge, "generate": run_generate, "rewrite": run_rewrite}[a.cmd]
        s = fn(cfg)
    except StoreLockedError as exc:  # a second runner on the same store: stop before any call
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_STORE_IN_USE
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as exc:  # noqa: BLE001 - every user-facing error: one clear line, not a traceback
        if a.debug:
            import traceback

            traceback.print_exc()
        print(_one_line(exc, secrets), file=sys.stderr)
        backend_down = isinstance(exc, FatalBackendError) and not isinstance(exc, MissingKeyError)
        return EXIT_BACKEND if backend_down else EXIT_CONFIG
    _print_summary(s)
    if s.aborted:  # also on stderr, for a script: what stopped the run, and its own exit code
        print(f"error: ABORTED: {redact(s.aborted, secrets)}", file=sys.stderr)
        return ABORT_EXIT.get(s.abort_kind or "", EXIT_CONFIG)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
