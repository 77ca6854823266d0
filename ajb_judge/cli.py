"""Command line: ``python -m ajb_judge {run,plan,generate,rewrite,batch-export,batch-import}``."""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import sys
from functools import partial
from pathlib import Path
from typing import Any

from ajb_judge.backends import Decoding
from ajb_judge.runner import SELECT_SEED, RunConfig, RunSummary, run_generate, run_judge, run_rewrite
from ajb_utils.paths import RUNS_DIR
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


def _common(p: argparse.ArgumentParser, judge: bool = True) -> None:
    """Add the options shared by every subcommand."""
    _endpoint_options(p)
    _decoding_options(p)
    _selection_options(p, judge)
    _execution_options(p)
    _output_options(p, judge)


def _endpoint_options(p: argparse.ArgumentParser) -> None:
    """Add the model and endpoint options."""
    g = p.add_argument_group("model / endpoint")
    g.add_argument(
        "--backend",
        choices=["static", "openai"],
        default="static",
        help="static: built-in schema-only judge, no model (default); openai: any OpenAI-compatible endpoint "
        "(vLLM, OpenAI, Ollama, providers)",
    )
    g.add_argument(
        "--base-url",
        action="append",
        dest="base_urls",
        default=None,
        help="endpoint base URL, e.g. http://localhost:8000/v1; repeat for replicas (round-robin)",
    )
    g.add_argument("--model", help="model name as the server knows it")
    g.add_argument(
        "--api-key-env",
        help="NAME of the environment variable holding the API key (the key is never "
        "stored or logged); omit for local servers",
    )
    g.add_argument(
        "--response-format",
        choices=["auto", "json_schema", "json_object", "none"],
        default="auto",
        help="structured output: auto tries json_schema, then json_object, then plain prompting",
    )
    g.add_argument("--extra-body", type=json.loads, default=None, help="JSON merged into the request body")
    g.add_argument("--timeout", type=float, default=300.0, help="per-request timeout in seconds")


def _decoding_options(p: argparse.ArgumentParser) -> None:
    """Add the decoding options (part of the run's identity)."""
    d = p.add_argument_group("decoding (part of the run's identity)")
    d.add_argument("--temperature", type=float, default=0.0)
    d.add_argument("--max-tokens", type=int, default=2048)
    d.add_argument("--top-p", type=float, default=None)
    d.add_argument("--seed", type=int, default=0, help="decoding seed where the server supports it")
    d.add_argument(
        "--thinking",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="enable (--no-thinking: disable) thinking for reasoning models (chat_template_kwargs.enable_thinking)",
    )
    d.add_argument("--reasoning-effort", default=None, help="OpenAI reasoning models: low | medium | high")


def _selection_options(p: argparse.ArgumentParser, judge: bool = True) -> None:
    """Add the selection options."""
    s = p.add_argument_group("selection")
    s.add_argument("--source", default="sample", help="data source for load_bench: sample, hf, or a local directory")
    if judge:
        s.add_argument(
            "--conditions",
            default="with_gt,without_gt",
            help=f"comma-separated, from {CONDITIONS} (prometheus = 4 calls/item, deref = deriver + judge)",
        )
        s.add_argument("--generators", default=None, help="comma-separated generator configs (default: all)")
    s.add_argument("--difficulties", default=None, help=f"comma-separated, from {DIFFICULTIES} (default: all)")
    s.add_argument("--limit", type=int, default=None, help="number of records, stratified over topologies")
    s.add_argument(
        "--select-seed",
        type=int,
        default=SELECT_SEED,
        help=f"seed of the stratified subset and the C3 derangement (default {SELECT_SEED}, notebook 15's seed; "
        "part of the run's identity)",
    )


def _execution_options(p: argparse.ArgumentParser) -> None:
    """Add the execution options: concurrency, retries, budget, dry run."""
    r = p.add_argument_group("execution")
    r.add_argument("--concurrency", type=int, default=8, help="concurrent requests")
    r.add_argument("--rpm", type=float, default=None, help="requests-per-minute limit")
    r.add_argument("--max-attempts", type=int, default=6, help="attempts per call on 429/5xx/timeouts")
    r.add_argument(
        "--max-timeout-attempts",
        type=int,
        default=2,
        help="timed-out attempts per call before status timeout (each is counted as spent)",
    )
    r.add_argument(
        "--retry-errors",
        action="store_true",
        help="re-run failed items (parse_error, api_error, timeout, ...), not permanent failures",
    )
    r.add_argument(
        "--retry-permanent",
        action="store_true",
        help="also re-run permanent failures (context_length, refused, content_filter)",
    )
    r.add_argument(
        "--retry-ambiguous",
        action="store_true",
        help="also re-run ambiguous verdicts (two disagreeing JSON objects, or a judge on another scale); "
        "--retry-errors leaves them, since the same judge tends to answer them the same way",
    )
    r.add_argument("--no-endpoint-check", action="store_true", help="skip the GET /models check before the first item")
    r.add_argument("--reparse", action="store_true", help="re-parse stored raw replies; makes no call")
    r.add_argument("--dry-run", action="store_true", help="print calls and estimated tokens/cost, spend nothing")
    r.add_argument(
        "--budget-tokens",
        type=int,
        default=None,
        help="stop before the store's spend (all runs and resumes, in-flight calls reserved) exceeds this",
    )
    r.add_argument(
        "--budget-usd",
        type=float,
        default=None,
        help="the same in USD; refused without --price-in and --price-out; counted across resumes from the store",
    )
    r.add_argument("--price-in", type=float, default=None, help="USD per 1M prompt tokens (for estimates/budget)")
    r.add_argument("--price-out", type=float, default=None, help="USD per 1M completion tokens")
    r.add_argument("--abort-after", type=int, default=40, help="check the failure rate after this many new calls")
    r.add_argument("--abort-error-rate", type=float, default=0.6, help="abort when this share of calls fails")
    r.add_argument("--no-progress", action="store_true", help="no progress bar")
    r.add_argument("--debug", action="store_true", help="on an error, show the traceback (default: one line)")


def _output_options(p: argparse.ArgumentParser, judge: bool = True) -> None:
    """Add the output options: name, folders, export."""
    o = p.add_argument_group("output")
    o.add_argument(
        "--name", required=True, help="run name: data/runs/<name>.jsonl, store data/runs/.store/<name>.sqlite"
    )
    o.add_argument("--out", type=Path, default=RUNS_DIR, help="output folder (default data/runs)")
    o.add_argument("--store", type=Path, default=None, help="store file (default <--out>/.store/<name>.sqlite)")
    o.add_argument("--display", default=None, help="display name in tables")
    o.add_argument("--judge-label", default=None, help="base model label in the meta (default: --model)")
    o.add_argument(
        "--study", default="new_judge", help="study label in the meta (new_judge, temperature, thinking, ...)"
    )
    o.add_argument(
        "--replace-export",
        action="store_true",
        help="replace an export at the same path written by another run (other settings or store); "
        "without it such a run stops before writing",
    )
    if judge:
        o.add_argument("--deriver-model", default=None, help="DeRef deriver model (default: --model)")
        o.add_argument("--deriver-base-url", action="append", default=None, help="DeRef deriver endpoint(s)")


RUN_NAMES = {  # option dest -> RunConfig field, where they differ (the decoding options go to Decoding)
    "timeout": "timeout_s",
    "price_in": "price_in_per_m",
    "price_out": "price_out_per_m",
    "out": "out_dir",
    "store": "store_path",
    "judge_label": "judge",
    "deriver_base_url": "deriver_base_urls",
    "select_seed": "seed",
    "seed": "decoding_seed",
}


def _split(s: str | None) -> list[str] | None:
    """Return a comma-separated option as a list (None when not given)."""
    return [x.strip() for x in s.split(",") if x.strip()] if s else None


def _fields(cls: Any, a: argparse.Namespace, names: dict[str, str]) -> dict[str, Any]:
    """Return the keyword arguments of dataclass `cls` among parsed options (`names`: dest -> field where they differ)."""
    fields = {f.name for f in dataclasses.fields(cls)}
    given = {names.get(k, k): v for k, v in vars(a).items()}
    return {k: v for k, v in given.items() if k in fields}


def config_from_args(a: argparse.Namespace) -> RunConfig:
    """Return the RunConfig described by parsed arguments."""
    kw = _fields(RunConfig, a, RUN_NAMES)
    kw.update({k: _split(kw.get(k)) for k in ("conditions", "generators", "difficulties")})
    return RunConfig(
        **{
            **kw,
            "conditions": kw["conditions"] or ["with_gt", "without_gt"],
            "base_urls": a.base_urls or ["http://localhost:8000/v1"],
            "decoding": Decoding(**_fields(Decoding, a, {})),
            "check_endpoint": not a.no_endpoint_check,
            "progress": not a.no_progress,
        }
    )


class _OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (what is wrong, where the options are), exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        """Print `error: ...` and exit 2 (no usage block)."""
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")


def _plan_parser(sub: Any) -> None:
    """Add the `plan` subcommand: records needed for a CI half-width, and the cost, before a run."""
    help_ = "plan a run before paying: records (--limit) for a target CI half-width, and its cost"
    sp = sub.add_parser("plan", help=help_, description=help_ + " (ajb_judge/plan.py says how)")
    sp.add_argument("--source", default="sample", help="data source: sample, hf, or a local directory")
    sp.add_argument(
        "--pilot", default=None, help="name of a stored run to plan from (paired differences, billed tokens)"
    )
    sp.add_argument("--out", type=Path, default=RUNS_DIR, help="folder of the pilot's export (default data/runs)")
    sp.add_argument(
        "--store", type=Path, default=None, help="the pilot's store (default <--out>/.store/<pilot>.sqlite)"
    )
    sp.add_argument("--reference", default="judge_gpt_5_4", help="judge the difference is planned against")
    sp.add_argument(
        "--target", type=float, action="append", default=None, help="CI half-width in pp; repeat (default 1, 2, 3)"
    )
    sp.add_argument(
        "--conditions", default=None, help="comma-separated (default: the pilot's, else with_gt,without_gt)"
    )
    sp.add_argument(
        "--generators", default=None, help="comma-separated generator configs (default: the pilot's, else all)"
    )
    sp.add_argument("--difficulties", default=None, help="comma-separated (default: the pilot's, else all)")
    sp.add_argument("--select-seed", type=int, default=SELECT_SEED, help="selection seed (a pilot's own seed wins)")
    sp.add_argument("--price-in", type=float, default=None, help="USD per 1M prompt tokens")
    sp.add_argument("--price-out", type=float, default=None, help="USD per 1M completion tokens")
    sp.add_argument(
        "--completion-tokens", type=int, default=None, help="completion tokens per call without a pilot's bill"
    )
    sp.add_argument("--chars-per-token", type=float, default=4.0, help="prompt-token rule without a pilot's bill")
    sp.add_argument("--tokenizer", default=None, help="count with an installed tokenizer: tiktoken:<enc> or hf:<model>")
    sp.add_argument("--debug", action="store_true", help="on an error, show the traceback")


def _plan(a: argparse.Namespace) -> int:
    """Run `plan`: print the plan table and its assumptions."""
    from ajb_judge.plan import DEFAULT_COMPLETION, PlanConfig, make_plan, plan_text

    kw = _fields(PlanConfig, a, {"out": "out_dir", "store": "store_path", "target": "targets", "select_seed": "seed"})
    kw.update({k: _split(kw.get(k)) for k in ("conditions", "generators", "difficulties")})
    kw.update(targets=a.target or (1.0, 2.0, 3.0), completion_tokens=a.completion_tokens or DEFAULT_COMPLETION)
    cfg = PlanConfig(**kw)
    print(plan_text(make_plan(cfg)))
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
        _common(sp, judge)
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
        return
    print(s)
    if s.files and any(str(f).endswith(".jsonl") for f in s.files):
        print(
            f"next: notebook 15 shows {s.name} beside the paper's six judges. Copy "
            "papermill_params/new_judge_vllm.yaml (or new_judge_static.yaml), set run_name: "
            f"{s.name} and this run's settings (backend, base_url, model, temperature, conditions, generators, "
            "difficulties, limit; seed is --select-seed, both default to "
            f"{SELECT_SEED}), then: python scripts/run_notebooks.py --params <that file> --only 15 "
            "(with the same settings every item comes from the store: 0 new calls; with other settings it "
            "stops before any call, saying which differ)"
        )


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


def _batch_export(
    a: argparse.Namespace, cfg: RunConfig, store: Any, ctx: Any, backend: Any, derivers: list, units: list
) -> int:
    """Reserve and write the pending requests (derivers first, then judge calls); exit 5 when the budget stops it."""
    from ajb_judge import batch
    from ajb_judge.runner import _load_derived, over_budget

    _load_derived(store, ctx, derivers)
    existing = store.statuses({u.run_hash for u in [*derivers, *units]})
    pending_d = [u for u in derivers if existing.get(u.key) != "ok"]
    flags = (cfg.retry_errors, cfg.retry_permanent, cfg.retry_ambiguous)
    reqs = batch.pending_requests(pending_d or units, ctx, backend, existing, *flags)  # derive first, then judge
    ids, why = batch.reserve_requests(reqs, store, partial(over_budget, cfg))
    try:
        parts = batch.write_requests(reqs[: len(ids)], a.file, a.batch_max_requests, int(a.batch_max_mb * 2**20))
    except BaseException:
        store.release_many(ids)  # nothing was written: nothing can be billed
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
    c = batch.import_batch(a.file, [*derivers, *units], store, problems, ctx)
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
    secrets = ((key,) if key else ()) + url_credentials(getattr(a, "base_urls", None) or [])
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
