"""Issue 50: a user's sequences of actions on one paid run, generated (Hypothesis' rule-based state
machine) against the counting loopback server, the invariants checked after every step.

The actions a user has: run (with the budget options or without them), kill -9 at a random
moment, resume, cp the store and resume the copy, change the prices, batch export / run / import,
raise --limit, notebook 15's entry point, plan with the run as its pilot. The invariants, read on
the server's side: billed tokens <= the token budget, billed USD (each call at the prices of the
invocation that made it) <= the USD budget, no request paid twice beyond the calls in flight at
the kills (--concurrency per kill), no key (raw, or as ``Bearer <key>``) in any file or stream,
every item once in the export. The server echoes the key in every reply's reasoning
(``echoreply``), so the masking is exercised on every stored answer.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

sys.path.insert(0, str(Path(__file__).parent))
from ajb_judge import notebook, run_judge  # noqa: E402
from ajb_judge.cli import main as cli_main  # noqa: E402
from fake_openai_server import FakeServer, run_batch  # noqa: E402
from runner_support import CLI_ENV, SECRET, wait_until_idle  # noqa: E402

pytestmark = pytest.mark.slow

NAME, MODEL, SOURCE, CONC = "walk", "good+echoreply", "toy:8", 4
BUDGET_TOKENS = 60_000  # about two thirds of what the 8 records' 48 calls reserve: the budget is reached
BUDGET_USD = 0.05
SECRETS = (SECRET, f"Bearer {SECRET}")
STEPS, EXAMPLES = 8, 5  # bounded: EXAMPLES sequences of at most STEPS actions (the closing note's numbers)
WALKED = Counter()  # sequences and steps walked, printed at the end


class UserSequences(RuleBasedStateMachine):
    """One run (one --out/--name) walked through a user's actions; the server bills what it answers."""

    @initialize()
    def start(self) -> None:
        """Start a fresh server and folder; the first action is a run with both budgets."""
        import tempfile

        self.tmp = Path(tempfile.mkdtemp(prefix="ajb_walk_"))
        self.server = FakeServer(latency=0.02, log_path=str(self.tmp / "requests.jsonl")).__enter__()
        self.prices = (1.0, 2.0)
        self.limit = 4
        self.usd = 0.0  # what the server billed, each call at its invocation's prices
        self.seen = self.server.state.stats()
        self.kills = 0
        self.streams: list[str] = []
        self.store = self.tmp / "runs" / ".store" / f"{NAME}.sqlite"
        self.copy: Path | None = None
        WALKED["sequences"] += 1
        self._cli("run", *self._budget())

    def teardown(self) -> None:
        """Stop the server, remove the folder."""
        self.server.__exit__(None, None, None)
        shutil.rmtree(self.tmp, ignore_errors=True)

    # ------------------------------------------------------------------------------ helpers
    def _args(self, cmd: str, store: Path | None = None) -> list[str]:
        """Return the CLI arguments of this run with the current limit and prices."""
        return [
            cmd, "--backend", "openai", "--base-url", self.server.url, "--model", MODEL, "--api-key-env",
            "AJB_TEST_KEY", "--source", SOURCE, "--generators", "qwen3_32b", "--name", NAME, "--out",
            str(self.tmp / "runs"), "--store", str(store or self.store), "--no-progress", "--concurrency", str(CONC),
            "--limit", str(self.limit), "--price-in", str(self.prices[0]), "--price-out", str(self.prices[1]),
        ]  # fmt: skip

    def _budget(self) -> list[str]:
        """Return the budget options (the run's own budget, given again)."""
        return ["--budget-tokens", str(BUDGET_TOKENS), "--budget-usd", str(BUDGET_USD)]

    def _cli(self, cmd: str, *extra: str, store: Path | None = None) -> int:
        """Run the judge CLI in this process (its streams kept for the secret check); return its exit code."""
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli_main([*self._args(cmd, store), *extra])
        self.streams += [out.getvalue(), err.getvalue()]
        self._billed()
        return code

    def _billed(self) -> None:
        """Book what the server billed since the last step at the prices of the step that made it."""
        now = wait_until_idle(self.server.state.stats)
        dp, dc = (
            now["billed_prompt"] - self.seen["billed_prompt"],
            now["billed_completion"] - self.seen["billed_completion"],
        )
        self.usd += (dp * self.prices[0] + dc * self.prices[1]) / 1e6
        self.seen = now
        WALKED["steps"] += 1

    # ------------------------------------------------------------------------------ actions
    @rule(budget=st.booleans())
    def resume(self, budget: bool) -> None:
        """Run again, with the budget options or without them (the recorded budget holds)."""
        assert self._cli("run", *(self._budget() if budget else ())) in (0, 5)

    @rule(delay=st.floats(0.2, 3.0))
    def kill9(self, delay: float) -> None:
        """Start the run in another process and kill -9 it after `delay` seconds (start-up included)."""
        cmd = [sys.executable, "-m", "ajb_judge", *self._args("run")]
        p = subprocess.Popen(cmd, env=CLI_ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        out, err = p.communicate()
        self.streams += [out, err]
        self.kills += 1
        self._billed()

    @rule()
    def copy_store(self) -> None:
        """cp the store (and its write-ahead log) as a user would."""
        self.copy = self.tmp / f"copy{self.kills}.sqlite"
        for suffix in ("", "-wal"):
            if Path(f"{self.store}{suffix}").exists():
                shutil.copyfile(f"{self.store}{suffix}", f"{self.copy}{suffix}")

    @rule()
    def resume_the_copy(self) -> None:
        """Resume the run from the copied store: it never pays for the run its original claimed."""
        if self.copy is None or not self.copy.exists():
            return
        before = self.server.state.stats()["requests"]
        code = self._cli("run", store=self.copy)
        said = self.streams[-1]  # the claim, or the original's export when one was written
        assert code == 2 and ("is claimed" in said or "holds the export of another run" in said), self.streams[-2:]
        assert self.server.state.stats()["requests"] == before

    @rule(price_out=st.sampled_from([0.5, 2.0, 20.0]))
    def change_prices(self, price_out: float) -> None:
        """Change the completion price the next actions are made at."""
        self.prices = (self.prices[0], price_out)

    @rule()
    def batch(self) -> None:
        """batch-export the pending calls, run the file once, import its output."""
        f_in, f_out = self.tmp / "batch_in.jsonl", self.tmp / "batch_out.jsonl"
        assert self._cli("batch-export", "--file", str(f_in)) in (0, 5)
        if f_in.exists() and f_in.read_text().strip():
            run_batch(self.server.url, f_in, f_out)
            self._billed()
            assert self._cli("batch-import", "--file", str(f_out)) == 0

    @rule()
    def raise_limit(self) -> None:
        """Ask for more records: the stratified selections are nested, the run extends."""
        self.limit = min(8, self.limit + 2)

    @rule()
    def notebook_15(self) -> None:
        """Notebook 15's entry point with the run's settings and no budget parameter."""
        c = notebook.new_judge_config(
            NAME, backend="openai", base_url=self.server.url, model=MODEL, api_key_env="AJB_TEST_KEY",
            conditions=["with_gt", "without_gt"], generators=["qwen3_32b"], limit=self.limit, source=SOURCE,
            concurrency=CONC,
        )  # fmt: skip
        s = run_judge(dataclasses.replace(c, out_dir=self.tmp / "runs", store_path=self.store))
        self.streams += [str(s), notebook.run_line(s)]
        self._billed()

    @rule()
    def plan_with_the_run_as_pilot(self) -> None:
        """Plan from the run as a pilot: no call."""
        from ajb_judge.plan import PlanConfig, make_plan, plan_text

        before = self.server.state.stats()["requests"]
        cfg = PlanConfig(source=SOURCE, pilot=NAME, out_dir=self.tmp / "runs", store_path=self.store)
        try:
            self.streams.append(plan_text(make_plan(cfg)))
        except (ValueError, KeyError) as exc:  # the toy bench has no six judges to plan beside: said, not paid
            self.streams.append(str(exc))
        assert self.server.state.stats()["requests"] == before

    # --------------------------------------------------------------------------- invariants
    @invariant()
    def within_the_budget(self) -> None:
        """Billed tokens and USD (each call at its own prices) within the run's budget."""
        if not hasattr(self, "seen"):
            return
        assert self.seen["billed_tokens"] <= BUDGET_TOKENS, self.seen
        assert self.usd <= BUDGET_USD + 1e-12, self.usd

    @invariant()
    def no_request_paid_twice(self) -> None:
        """Sends minus distinct requests <= the calls in flight at the kills."""
        log = self.tmp / "requests.jsonl" if hasattr(self, "tmp") else None
        if log is None or not log.exists():
            return
        sent = [json.loads(x)["hash"] for x in log.read_text().splitlines()]
        assert len(sent) - len(set(sent)) <= CONC * self.kills, (len(sent), len(set(sent)), self.kills)

    @invariant()
    def no_secret_anywhere(self) -> None:
        """The key, raw or as a Bearer header, in no file under the folder and no stream."""
        if not hasattr(self, "tmp"):
            return
        blobs = [*self.streams, *(p.read_bytes().decode("latin-1") for p in self.tmp.rglob("*") if p.is_file())]
        leaks = [s for s in SECRETS for b in blobs if s in b]
        assert not leaks, leaks

    @invariant()
    def every_item_once_in_the_export(self) -> None:
        """Each (record, generator, difficulty) at most once in the export, within its selection."""
        path = self.tmp / "runs" / f"{NAME}.jsonl" if hasattr(self, "tmp") else None
        if path is None or not path.exists():
            return
        rows = [json.loads(x) for x in path.read_text().splitlines()]
        keys = [(r["id"], r["generator"], r["difficulty"]) for r in rows]
        meta = json.loads(path.with_name(f"{NAME}.meta.json").read_text())
        assert len(keys) == len(set(keys)) <= meta["selection"]["limit"] * 3, (len(keys), meta["selection"])


TestUserSequences = UserSequences.TestCase
TestUserSequences.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=STEPS,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,  # the same sequences in CI every time
)


def teardown_module() -> None:
    """Print how many sequences and steps were walked (the closing note's numbers)."""
    print(f"\nuser sequences walked: {WALKED['sequences']} sequences, {WALKED['steps']} steps")
