"""The budget table of the judge README: each way a run can spend, against the counting loopback server.

Each case runs on its own fake server and store and returns the budget, what the server billed
(``FakeServer.state.stats()``: every answer it generated, including those the client stopped
waiting for), what the store booked (its spend ledger) and how the runner ended. The tests
(``test_judge_closing_holes.py``) check billed <= budget for every case the runner controls;
``python benchmarks/budget_table.py`` prints the table the README shows.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from ajb_judge import RunConfig, run_judge  # noqa: E402
from ajb_judge.store import Store  # noqa: E402
from ajb_judge.toybench import make_toy_bench  # noqa: E402
from fake_openai_server import FakeServer, run_batch  # noqa: E402


@dataclass
class Row:
    """One line of the budget table."""

    case: str
    budget: int
    billed: int  # tokens the server billed
    booked: int  # tokens the store's ledger holds
    outcome: str  # how the runner ended (exit code or refusal)

    @property
    def ratio(self) -> float:
        """Return billed / budget."""
        return self.billed / self.budget


def _cfg(server: FakeServer, tmp: Path, model: str, **kw: Any) -> RunConfig:
    """Return a run on a 6-record toy bench, one generator, with_gt, 4 workers."""
    base: dict[str, Any] = dict(
        name="b",
        backend="openai",
        model=model,
        base_urls=[server.url],
        bench=make_toy_bench(6, generators=("qwen3_32b",)),
        out_dir=tmp / "runs",
        store_path=tmp / "store.sqlite",
        progress=False,
        backoff_base_s=0.01,
        concurrency=4,
        timeout_s=30,
        conditions=["with_gt"],
    )
    return RunConfig(**{**base, **kw})


def _booked(path: Path) -> int:
    """Return the tokens a store's ledger holds."""
    with Store(path, lock=False) as st:
        s = st.spent()
    return s["prompt_tokens"] + s["completion_tokens"]


def _outcome(run: Callable[[], Any]) -> str:
    """Return how a run ended: 'exit 5 (budget)', 'exit 0', or refused."""
    try:
        s = run()
    except ValueError:
        return "refused before any call (exit 2)"
    return (
        f"exit 5 ({s.abort_kind})"
        if s.abort_kind == "budget"
        else f"stopped: {s.abort_kind}"
        if s.aborted
        else "exit 0"
    )


def run_case(tmp: Path, budget: int = 30_000) -> Row:
    """A run whose completions reach the cap (--max-tokens 2048)."""
    with FakeServer() as server:
        server.state.long_tokens = 1900
        out = _outcome(lambda: run_judge(_cfg(server, tmp, "long", budget_tokens=budget)))
        return Row(
            "run (completions at the 2,048 cap)",
            budget,
            server.state.stats()["billed_tokens"],
            _booked(tmp / "store.sqlite"),
            out,
        )


def resume_case(tmp: Path, budget: int = 30_000) -> Row:
    """A run stopped at half the budget, resumed with the full budget, then resumed again."""
    with FakeServer() as server:
        server.state.long_tokens = 1900
        run_judge(_cfg(server, tmp, "long", budget_tokens=budget // 2))
        run_judge(_cfg(server, tmp, "long", budget_tokens=budget))
        out = _outcome(lambda: run_judge(_cfg(server, tmp, "long", budget_tokens=budget, retry_errors=True)))
        return Row(
            "run, then two resumes", budget, server.state.stats()["billed_tokens"], _booked(tmp / "store.sqlite"), out
        )


def _batch_args(server: FakeServer, tmp: Path, file: Path, *extra: str, model: str = "long") -> list[str]:
    """Return batch-export / batch-import arguments on the 6-record toy bench."""
    return [
        "--backend", "openai", "--model", model, "--base-url", server.url, "--source", "toy:6",
        "--generators", "qwen3_32b", "--conditions", "with_gt", "--name", "bb", "--out", str(tmp / "runs"),
        "--store", str(tmp / "store.sqlite"), "--no-progress", "--file", str(file), *extra,
    ]  # fmt: skip


def batch_main(argv: list[str]) -> int:
    """Return the CLI's exit code, its output kept off the console."""
    from ajb_judge.cli import main

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(argv)


def batch_case(tmp: Path, budget: int = 20_000, runs: int = 1, model: str = "long") -> Row:
    """batch-export under a budget, the file run `runs` times by a batch runner, every output imported.

    model "long": completions at the cap (cut, so never ok); "good": short ok verdicts, so a
    second output finds every unit already ok.
    """
    with FakeServer() as server:
        server.state.long_tokens = 1900
        budget_args = ("--budget-tokens", str(budget))
        code = batch_main(["batch-export", *_batch_args(server, tmp, tmp / "in.jsonl", *budget_args, model=model)])
        for i in range(runs):
            run_batch(server.url, tmp / "in.jsonl", tmp / f"out{i}.jsonl")
            batch_main(["batch-import", *_batch_args(server, tmp, tmp / f"out{i}.jsonl", model=model)])
        label = (
            "batch export / import" if runs == 1 else f"batch export, the file run {runs} times, each output imported"
        )
        return Row(
            label,
            budget,
            server.state.stats()["billed_tokens"],
            _booked(tmp / "store.sqlite"),
            f"batch-export: exit {code}",
        )


def extra_body_case(extra: dict[str, Any], budget: int = 60_000) -> Callable[[Path], Row]:
    """Return a case: a run whose --extra-body is `extra`, completions as long as the server is let go (8,000)."""

    def case(tmp: Path) -> Row:
        """Run it."""
        with FakeServer() as server:
            server.state.long_tokens = 8000
            out = _outcome(lambda: run_judge(_cfg(server, tmp, "long", extra_body=extra, budget_tokens=budget)))
            path = tmp / "store.sqlite"
            booked = _booked(path) if path.exists() else 0
            return Row(f"--extra-body '{_json(extra)}'", budget, server.state.stats()["billed_tokens"], booked, out)

    return case


def _json(x: Any) -> str:
    """Return compact JSON."""
    import json

    return json.dumps(x)


def _run_args(server: FakeServer, tmp: Path, *extra: str, model: str = "long", source: str = "toy:6") -> list[str]:
    """Return `run` arguments on the toy bench (one generator, with-GT), the store by name under tmp/runs."""
    return [
        "run", "--backend", "openai", "--model", model, "--base-url", server.url, "--source", source,
        "--generators", "qwen3_32b", "--conditions", "with_gt", "--name", "nb", "--out", str(tmp / "runs"),
        "--no-progress", "--concurrency", "4", *extra,
    ]  # fmt: skip


def _notebook_run(server: FakeServer, tmp: Path, model: str = "long", **kw: Any) -> Any:
    """Run notebook 15's entry point (ajb_judge.notebook) with the CLI run's settings, its runs folder under tmp."""
    import dataclasses

    from ajb_judge import notebook

    settings = {"conditions": ["with_gt"], "generators": ["qwen3_32b"], "source": "toy:6", **kw}
    c = notebook.new_judge_config("nb", backend="openai", base_url=server.url, model=model, concurrency=4, **settings)
    return run_judge(dataclasses.replace(c, out_dir=tmp / "runs"))


def notebook_case(tmp: Path, budget: int = 30_000) -> Row:
    """The CLI run stopped by --budget-tokens, then notebook 15's entry point with the same settings, no budget given."""
    with FakeServer() as server:
        server.state.long_tokens = 1900
        batch_main(_run_args(server, tmp, "--budget-tokens", str(budget)))
        out = _outcome(lambda: _notebook_run(server, tmp))
        return Row(
            "run stopped by its budget, then notebook 15 with its settings (no budget parameter)",
            budget,
            server.state.stats()["billed_tokens"],
            _booked(tmp / "runs" / ".store" / "nb.sqlite"),
            f"notebook: {out}",
        )


def copied_store_case(tmp: Path, budget: int = 30_000) -> Row:
    """A run stopped before any export (half the budget), its store cp'd, the original and the copy resumed."""
    import shutil

    with FakeServer() as server:
        server.state.long_tokens = 1900  # cut at the cap: no ok verdict, so no export is written
        batch_main(_run_args(server, tmp, "--budget-tokens", str(budget // 2)))
        store = tmp / "runs" / ".store" / "nb.sqlite"
        shutil.copyfile(store, tmp / "copy.sqlite")
        batch_main(_run_args(server, tmp, "--budget-tokens", str(budget)))
        code = batch_main(_run_args(server, tmp, "--budget-tokens", str(budget), "--store", str(tmp / "copy.sqlite")))
        return Row(
            "store cp'd before the first export, original and copy resumed",
            budget,
            server.state.stats()["billed_tokens"],
            _booked(store),  # the copy's ledger repeats the rows it was copied with
            f"the copy: exit {code}" + (" (claimed by the original)" if code == 2 else ""),
        )


def flow_case(tmp: Path, budget: int = 60_000) -> Row:
    """The README's new-judge flow on the sample: plan, run --limit 10 with a budget, then notebook 15."""
    from ajb_judge.plan import PlanConfig, make_plan

    with FakeServer() as server:
        make_plan(PlanConfig(source="sample", targets=(3.0,)))  # no call: the plan says what --limit costs
        args = _run_args(server, tmp, "--budget-tokens", str(budget), "--limit", "10", model="good", source="sample")
        args[args.index("--generators") : args.index("--generators") + 4] = []  # every generator, both conditions
        batch_main(args)
        out = _outcome(lambda: _notebook_run(server, tmp, "good", source="sample", limit=10, generators=None,
                                             conditions=["with_gt", "without_gt"]))  # fmt: skip
        return Row(
            "plan, run --limit 10 with a budget, notebook 15 (the sample, every generator, both conditions)",
            budget,
            server.state.stats()["billed_tokens"],
            _booked(tmp / "runs" / ".store" / "nb.sqlite"),
            f"notebook: {out}",
        )


EXTRA_BODIES: list[dict[str, Any]] = [
    {"max_tokens": 8000},
    {"max_completion_tokens": 9000},
    {"max_tokens": None},
    {"max_tokens": "8000"},
    {"n": 8},
    {"n": 1},
]

CASES: list[Callable[[Path], Row]] = [
    run_case,
    resume_case,
    batch_case,
    lambda tmp: batch_case(tmp, budget=40_000, runs=2, model="good"),
    *(extra_body_case(e) for e in EXTRA_BODIES),
    notebook_case,
    copied_store_case,
    flow_case,
]


def table(tmp: Path) -> list[Row]:
    """Return every case's row (each in its own folder under `tmp`)."""
    rows = []
    for i, case in enumerate(CASES):
        d = tmp / f"case{i}"
        d.mkdir(parents=True, exist_ok=True)
        rows.append(case(d))
    return rows


def markdown(rows: list[Row]) -> str:
    """Return the rows as the README's markdown table."""
    lines = ["| case | budget | billed | booked | billed / budget | runner |", "|---|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r.case} | {r.budget:,} | {r.billed:,} | {r.booked:,} | {r.ratio:.2f} | {r.outcome} |")
    return "\n".join(lines)
