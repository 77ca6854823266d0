"""Issue 50 (the money path): the budget belongs to the run, spend keeps its price, reservations of a
dead process are settled and said, one run is paid for by one store. Money is counted on the
counting loopback server's side (what it billed), never from the runner's own books alone."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from ajb_judge import notebook, run_judge  # noqa: E402
from ajb_judge.cli import main as cli_main  # noqa: E402
from ajb_judge.store import Store  # noqa: E402
from ajb_judge.toybench import make_toy_bench  # noqa: E402
from fake_openai_server import FakeServer  # noqa: E402
from runner_support import CLI_ENV, cfg, wait_until_idle  # noqa: E402


def cli(*argv: str) -> tuple[int, str, str]:
    """Return (exit code, stdout, stderr) of the judge CLI run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(list(argv))
    return code, out.getvalue(), err.getvalue()


def run_args(server: FakeServer, tmp: Path, *extra: str, source: str = "toy:6") -> list[str]:
    """Return `run` arguments: the toy bench, one generator, with-GT, completions at the cap, store by name."""
    return [
        "run", "--backend", "openai", "--base-url", server.url, "--model", "long", "--api-key-env", "AJB_TEST_KEY",
        "--source", source, "--generators", "qwen3_32b", "--conditions", "with_gt", "--name", "fj_pilot",
        "--out", str(tmp / "runs"), "--no-progress", *extra,
    ]  # fmt: skip


def notebook_cfg(server: FakeServer, tmp: Path, **kw):
    """Return notebook 15's RunConfig with the CLI run's settings (its runs folder under tmp)."""
    c = notebook.new_judge_config(
        "fj_pilot",
        backend="openai",
        base_url=server.url,
        model="long",
        api_key_env="AJB_TEST_KEY",
        conditions=["with_gt"],
        generators=["qwen3_32b"],
        source="toy:6",
        **kw,
    )
    return dataclasses.replace(c, out_dir=tmp / "runs")


# ------------------------------------------------------------------ 1. the budget belongs to the run
def test_notebook_15_after_a_budget_stop_pays_nothing_past_the_budget(tmp_path) -> None:
    budget = 30_000
    with FakeServer() as server:
        server.state.long_tokens = 1900
        code, out, _ = cli(*run_args(server, tmp_path, "--budget-tokens", str(budget)))
        assert code == 5, out
        first = wait_until_idle(server.state.stats)
        assert 0 < first["billed_tokens"] <= budget, first
        s = run_judge(notebook_cfg(server, tmp_path))  # the notebook's entry point, no budget parameter given
        billed = wait_until_idle(server.state.stats)
    assert billed["billed_tokens"] <= budget, (first, billed)
    assert s.aborted and s.abort_kind == "budget", s.aborted
    assert "next:" in out and "at most" in out and f"{budget:,}" in out, out


def test_a_resume_without_a_budget_option_keeps_the_run_s_budget(tmp_path) -> None:
    budget = 30_000
    with FakeServer() as server:
        server.state.long_tokens = 1900
        assert cli(*run_args(server, tmp_path, "--budget-tokens", str(budget)))[0] == 5
        code, out, err = cli(*run_args(server, tmp_path))  # a resume, no --budget-*
        billed = wait_until_idle(server.state.stats)
    assert code == 5, (out, err)
    assert billed["billed_tokens"] <= budget, billed
    assert "recorded" in out, out


def test_notebook_15_refuses_to_extend_a_paid_run_without_a_budget(tmp_path) -> None:
    with FakeServer() as server:
        server.state.long_tokens = 100
        assert cli(*run_args(server, tmp_path, "--limit", "2"))[0] == 0  # paid, no budget
        before = wait_until_idle(server.state.stats)["requests"]
        with pytest.raises(ValueError, match="budget_tokens"):
            run_judge(notebook_cfg(server, tmp_path, limit=4))
        assert server.state.stats()["requests"] == before
        s = run_judge(notebook_cfg(server, tmp_path, limit=4, budget_tokens=10**6))  # with one it extends
        assert not s.aborted and s.new > 0
    meta = json.loads((tmp_path / "runs" / "fj_pilot.meta.json").read_text())
    assert meta["budget"]["budget_tokens"] == 10**6, meta.get("budget")  # the export names the run's budget


# ------------------------------------------------------------------------ 2. spend keeps its price
def _usd(p: int, c: int, pin: float, pout: float) -> float:
    return (p * pin + c * pout) / 1e6


def test_a_usd_budget_sums_each_call_at_the_prices_it_was_made_at(tmp_path) -> None:
    bench = make_toy_bench(20, generators=("qwen3_32b",))
    with FakeServer() as server:
        server.state.long_tokens = 1900
        c1 = cfg(server, bench, tmp_path, "long", conditions=["with_gt"], budget_usd=1.0, price_in_per_m=1.0)
        c1 = dataclasses.replace(c1, price_out_per_m=100.0, abort_after=10**6)
        assert run_judge(c1).abort_kind == "budget"
        a = wait_until_idle(server.state.stats)
        run_judge(dataclasses.replace(c1, price_out_per_m=10.0))  # resumed at a tenth of the price
        b = wait_until_idle(server.state.stats)
    spent = _usd(a["billed_prompt"], a["billed_completion"], 1.0, 100.0) + _usd(
        b["billed_prompt"] - a["billed_prompt"], b["billed_completion"] - a["billed_completion"], 1.0, 10.0
    )
    assert spent <= 1.0, (a, b, spent)


# ------------------------------------------------------------------ 4. one run identity, one payer
def _ok_count(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=1) as c:
            return c.execute("SELECT COUNT(*) FROM results WHERE status='ok'").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_a_store_copied_before_the_first_export_cannot_pay_for_the_run_again(tmp_path) -> None:
    log = tmp_path / "requests.jsonl"
    conc = 4
    with FakeServer(latency=0.05, log_path=str(log)) as server:
        args = [sys.executable, "-m", "ajb_judge", *run_args(server, tmp_path, "--concurrency", str(conc))]
        args[args.index("long")] = "good"
        args[args.index("toy:6")] = "toy:12"
        args[args.index("with_gt")] = "with_gt,without_gt"
        store = tmp_path / "runs" / ".store" / "fj_pilot.sqlite"
        p = subprocess.Popen([*args, "--store", str(store)], env=CLI_ENV, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)  # fmt: skip
        deadline = time.time() + 60
        while _ok_count(store) < 6 and time.time() < deadline:
            time.sleep(0.02)
        os.kill(p.pid, signal.SIGKILL)  # killed before its export
        p.wait()
        assert not (tmp_path / "runs" / "fj_pilot.jsonl").exists()
        copy = tmp_path / "copy.sqlite"
        for suffix in ("", "-wal"):
            if Path(f"{store}{suffix}").exists():
                shutil.copyfile(f"{store}{suffix}", f"{copy}{suffix}")
        procs = [
            subprocess.Popen(
                [*args, "--store", str(s)], env=CLI_ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )  # fmt: skip
            for s in (store, copy)
        ]
        outs = [pr.communicate(timeout=120) for pr in procs]
        wait_until_idle(server.state.stats)
    with sqlite3.connect(store) as c:
        needed = c.execute("SELECT COUNT(DISTINCT request_hash) FROM results").fetchone()[0]
    sent = log.read_text().splitlines()
    codes = [pr.returncode for pr in procs]
    assert len(sent) - needed <= conc, (len(sent), needed)  # only the calls in flight at the kill paid twice
    assert sorted(codes) == [0, 2], (codes, outs)
    assert "claimed" in outs[codes.index(2)][1], outs


# ------------------------------------------------------------------ 3. reservations reconciled
def test_a_killed_process_s_reservations_are_settled_and_said(server, bench, tmp_path) -> None:
    c = cfg(server, bench, tmp_path, "good", conditions=["with_gt"])
    run_judge(c)
    with Store(tmp_path / "store.sqlite") as st:  # a process that reserved two calls, then died (no settling)
        keys = [k for (k,) in st.conn.execute("SELECT key FROM results WHERE raw IS NOT NULL LIMIT 2")]
        run_hash = st.conn.execute("SELECT run_hash FROM results LIMIT 1").fetchone()[0]
        ids, _ = st.reserve([(run_hash, k, 5_000, 2_048) for k in keys])
        before = st.spend_total()
    s = run_judge(c)
    assert s.settled[0] == 2 and "settled 2 reservations of a killed process" in str(s), str(s)
    with Store(tmp_path / "store.sqlite", lock=False) as st:
        rows = st.conn.execute(
            "SELECT s.what, s.prompt_tokens, s.completion_tokens, r.prompt_tokens FROM spend s JOIN results r "
            f"ON r.key = s.key WHERE s.rowid IN ({', '.join(map(str, ids))})"
        ).fetchall()
        after = st.spend_total()
    assert [r[0] for r in rows] == ["killed", "killed"], rows  # no longer open, still spent
    assert all(p == reported and out == 2_048 for _, p, out, reported in rows), rows  # prompt at the reported usage
    released = sum(5_000 - r[3] for r in rows)
    assert before["prompt_tokens"] - after["prompt_tokens"] == released > 0


def test_a_deref_deriver_is_booked_at_its_own_prices_or_refused(server, bench, tmp_path) -> None:
    usd = dict(budget_usd=10.0, price_in_per_m=1.0, price_out_per_m=2.0, conditions=["deref"])
    with pytest.raises(ValueError, match="--deriver-price-in"):  # another model, no prices of its own: refused
        run_judge(cfg(server, bench, tmp_path, "good", deriver_model="good+think", **usd))
    assert server.state.requests == 0
    c = cfg(server, bench, tmp_path, "good", deriver_model="good+think", **usd)
    run_judge(dataclasses.replace(c, deriver_price_in_per_m=5.0, deriver_price_out_per_m=7.0))
    with Store(tmp_path / "store.sqlite", lock=False) as st:
        prices = dict(
            st.conn.execute(
                "SELECT r.kind, s.price_in || '/' || s.price_out FROM spend s JOIN results r ON r.key = s.key "
                "GROUP BY r.kind"
            ).fetchall()
        )
    assert prices == {"deriver": "5.0/7.0", "judge": "1.0/2.0"}, prices


def _open_batch_reservations(path: Path) -> int:
    with Store(path, lock=False) as st:
        return st.spent()["batch_reserved"]


def test_exporting_again_to_the_same_file_reserves_its_requests_once(tmp_path) -> None:
    import budget_cases as B

    with FakeServer() as server:
        args = B._batch_args(server, tmp_path, tmp_path / "in.jsonl", model="good")
        assert B.batch_main(["batch-export", *args]) == 0
        n = len((tmp_path / "in.jsonl").read_text().splitlines())
        assert B.batch_main(["batch-export", *args]) == 0  # the same file written again: one file to run
        assert _open_batch_reservations(tmp_path / "store.sqlite") == n
        other = B._batch_args(server, tmp_path, tmp_path / "in2.jsonl", model="good")
        assert B.batch_main(["batch-export", *other]) == 0  # another file: both may be run, both reserved
        assert _open_batch_reservations(tmp_path / "store.sqlite") == 2 * n


# ----------------------------------------------------- the ledger's total is the sum of its rows, priced
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as hs  # noqa: E402

PRICES = hs.sampled_from([(None, None), (1.0, 2.0), (0.4, 100.0), (3.0, 0.5)])
OPS = hs.lists(
    hs.one_of(
        hs.tuples(hs.just("reserve"), hs.integers(0, 9_000), hs.integers(0, 4_000), PRICES),
        hs.tuples(hs.just("reply"), hs.integers(0, 5_000), hs.integers(0, 2_000), PRICES),
        hs.tuples(hs.just("release"), hs.integers(0, 50), hs.integers(0, 0), PRICES),
        hs.tuples(hs.just("timeout"), hs.integers(0, 50), hs.integers(0, 0), PRICES),
        hs.tuples(hs.just("price"), hs.integers(0, 0), hs.integers(0, 0), PRICES),
        hs.tuples(hs.just("settle"), hs.integers(0, 0), hs.integers(0, 0), PRICES),
    ),
    max_size=25,
)


def _direct(st: Store, prices: tuple[float | None, float | None]) -> tuple[int, float]:
    """Return tokens and USD summed row by row in Python (unpriced rows at `prices`)."""
    tokens, usd = 0, 0.0
    for p, c, pin, pout in st.conn.execute("SELECT prompt_tokens, completion_tokens, price_in, price_out FROM spend"):
        tokens += p + c
        usd += (
            p * (pin if pin is not None else prices[0] or 0) + c * (pout if pout is not None else prices[1] or 0)
        ) / 1e6
    return tokens, usd


@settings(max_examples=60, deadline=None)
@given(ops=OPS, now=PRICES)
def test_the_spend_total_is_each_row_at_its_own_prices(tmp_path_factory, ops, now) -> None:
    path = tmp_path_factory.mktemp("ledger") / "s.sqlite"
    with Store(path) as st:
        ids: list[int] = []
        for op, a, b, prices in ops:
            if op == "reserve":
                ids += st.reserve([("h", f"k{len(ids)}", a, b)], prices=prices)[0]
            elif op == "reply":
                st.put_paid({"key": f"r{a}{b}", "run_hash": "h", "kind": "judge", "status": "ok", "raw": "x",
                             "prompt_tokens": a, "completion_tokens": b}, ids.pop() if ids else None, prices)  # fmt: skip
            elif op in ("release", "timeout") and ids:
                rid = ids.pop(a % len(ids))
                st.release(rid) if op == "release" else st.keep_as_spent(rid)
            elif op == "price" and None not in prices:
                st.price_unpriced(prices)
            elif op == "settle":
                st.session = "another open"  # the reservations so far belong to a process gone
                st.settle_dead()
                ids.clear()
        t = st.spend_total()
        tokens, usd = _direct(st, now)
    extra = ((t["unpriced_in"] * (now[0] or 0)) + t["unpriced_out"] * (now[1] or 0)) / 1e6
    assert t["prompt_tokens"] + t["completion_tokens"] == tokens
    assert abs(t["usd"] + extra - usd) < 1e-9


OLD_SCHEMA = """
CREATE TABLE spend (at REAL, run_hash TEXT, key TEXT, what TEXT, prompt_tokens INTEGER, completion_tokens INTEGER,
  estimated INTEGER NOT NULL DEFAULT 0);
CREATE TABLE spend_total (id INTEGER PRIMARY KEY CHECK (id = 0), prompt_tokens INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL);
CREATE TRIGGER spend_total_insert AFTER INSERT ON spend BEGIN
  UPDATE spend_total SET prompt_tokens = prompt_tokens + COALESCE(NEW.prompt_tokens, 0),
    completion_tokens = completion_tokens + COALESCE(NEW.completion_tokens, 0) WHERE id = 0;
END;
INSERT INTO spend_total VALUES (0, 0, 0);
INSERT INTO spend VALUES (1.0, 'h', 'k1', 'reply', 1000, 200, 0);
INSERT INTO spend VALUES (2.0, 'h', 'k2', 'reserved', 3000, 2048, 1);
"""


def test_a_store_made_before_spend_kept_its_prices_opens_with_its_spend(tmp_path) -> None:
    with sqlite3.connect(tmp_path / "old.sqlite") as c:  # a564743's spend table and total
        c.executescript(OLD_SCHEMA)
    with Store(tmp_path / "old.sqlite") as st:
        assert st.spend_total() == {"prompt_tokens": 4000, "completion_tokens": 2248, "usd": 0,
                                    "unpriced_in": 4000, "unpriced_out": 2248}  # fmt: skip
        assert st.settle_dead() == (1, 0)  # the old reservation: its process is gone
        st.price_unpriced((1.0, 10.0))
        ids, _ = st.reserve([("h", "k3", 10, 10)], prices=(2.0, 2.0))
        t = st.spend_total()
    assert ids and t["unpriced_in"] == t["unpriced_out"] == 0
    assert abs(t["usd"] - (4000 * 1.0 + 2248 * 10.0 + 10 * 2.0 + 10 * 2.0) / 1e6) < 1e-12
