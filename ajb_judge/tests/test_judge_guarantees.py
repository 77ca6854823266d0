"""Issue 10 against the misbehaving loopback server: never pay twice, never misread, clear failures."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from ajb_judge import Decoding, RunConfig, run_judge  # noqa: E402
from ajb_judge.backends import FatalBackendError, redact  # noqa: E402
from ajb_judge.store import Store, StoreLockedError  # noqa: E402
from ajb_judge.toybench import make_toy_bench  # noqa: E402
from fake_openai_server import FakeServer  # noqa: E402
from runner_support import CLI_ENV, SECRET, cfg, cli_args  # noqa: E402

ENV = CLI_ENV


@pytest.fixture(scope="module")
def server():
    with FakeServer() as s:
        yield s


def export_rows(s) -> list[dict]:
    return [json.loads(x) for x in Path(s.files[0]).read_text().splitlines()]


def closed_port() -> int:
    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        return sk.getsockname()[1]  # nothing listens here once the socket closes


# ------------------------------------------------------------------------------ never pay twice
def test_second_process_on_a_locked_store_exits_at_once(server, bench, tmp_path) -> None:
    with Store(tmp_path / "cli.sqlite"):  # a first runner holds the store
        with pytest.raises(StoreLockedError, match="in use by another runner"):
            Store(tmp_path / "cli.sqlite")
        with pytest.raises(StoreLockedError):
            run_judge(cfg(server, bench, tmp_path, store_path=tmp_path / "cli.sqlite"))
        dry = run_judge(cfg(server, bench, tmp_path, store_path=tmp_path / "cli.sqlite", dry_run=True))
        assert dry.estimate["calls"]  # a dry run only reads: it may look at a store in use
        n0 = server.state.requests
        t = time.time()
        r = subprocess.run(cli_args(server.url, tmp_path), capture_output=True, text=True, env=ENV, timeout=60)
        assert r.returncode == 3 and "in use by another runner" in r.stderr and "Traceback" not in r.stderr
        assert server.state.requests == n0  # not a single call paid by the second process
        assert time.time() - t < 30
    with Store(tmp_path / "cli.sqlite"):  # released on close
        pass


def test_two_runner_processes_on_one_store(tmp_path) -> None:
    import threading

    with FakeServer() as srv:
        srv.state.gate = threading.Event()  # the first runner's calls wait until the second has tried
        args = cli_args(srv.url, tmp_path, "good", "--concurrency", "2")
        args[args.index("--timeout") + 1] = "120"  # the gate may be closed for a while on a busy machine
        first = subprocess.Popen(args, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        while srv.state.requests < 1 and time.time() < deadline:
            time.sleep(0.02)
        second = subprocess.run(args, capture_output=True, text=True, env=ENV, timeout=60)
        assert first.poll() is None and srv.state.requests == 1  # the first is mid-call; the second sent nothing
        srv.state.gate.set()
        assert second.returncode == 3 and "in use by another runner" in second.stderr
        out, err = first.communicate(timeout=60)
        assert first.returncode == 0, err
        with Store(tmp_path / "cli.sqlite", lock=False) as st:
            n_requests = st.conn.execute("SELECT COUNT(DISTINCT request_hash) FROM results").fetchone()[0]
        assert srv.state.requests == n_requests  # every distinct request paid exactly once


def test_identical_requests_sent_once_and_recorded(server, tmp_path) -> None:
    two = make_toy_bench(4, generators=("qwen3_32b", "llama_3_1_8b_instruct"))  # many identical plans
    g = two.generations
    same = (
        g.groupby(["id", "difficulty"])["generated_calls"].agg(
            lambda s: json.dumps(list(s.iloc[0])) == json.dumps(list(s.iloc[-1]))
        )
    ).sum()
    assert same >= 3  # the fixture does hold shared prompts
    n0 = server.state.requests
    s = run_judge(cfg(server, two, tmp_path))
    assert s.statuses == {"ok": 48} and s.new == s.calls + s.reused == 48
    assert s.reused == 2 * same and server.state.requests - n0 == s.calls == 48 - 2 * same
    with Store(tmp_path / "store.sqlite", lock=False) as st:
        rows = {r["key"]: r for r in st.rows([s.run_hash])}
    reused = [r for r in rows.values() if r["reused_from"]]
    assert len(reused) == s.reused and all(r["attempts"] == 0 and r["prompt_tokens"] == 0 for r in reused)
    assert all(
        r["raw"] == rows[r["reused_from"]]["raw"] and r["request_hash"] == rows[r["reused_from"]]["request_hash"]
        for r in reused
    )
    st_rows = [x["judge_status"][c] for x in export_rows(s) for c in ("with_gt", "without_gt")]
    assert sum("reused_from" in x for x in st_rows) == s.reused  # the export says so too


def test_store_reuse_across_runs(server, bench, tmp_path) -> None:
    n0 = server.state.requests
    a = run_judge(cfg(server, bench, tmp_path, conditions=["with_gt"]))
    assert a.new == 12 and server.state.requests - n0 == 12
    clone = make_toy_bench(4, generators=("qwen3_32b",))
    clone.generations = clone.generations.assign(generator="qwen3_32b_copy")  # same plans, new generator label
    b = run_judge(cfg(server, clone, tmp_path, conditions=["with_gt"]))
    assert (
        b.calls == 0
        and b.new == b.reused == 12
        and server.state.requests - n0 == 12
        and (b.table["ok"] == b.table["items"]).all()
    )


def test_timeouts_counted_as_spent_and_capped(server, bench, tmp_path) -> None:
    server.state.hang_s = 1.0
    n0 = server.state.requests
    t = time.time()
    s = run_judge(
        cfg(
            server,
            bench,
            tmp_path,
            "hang",
            limit=1,
            conditions=["with_gt"],
            timeout_s=0.25,
            max_timeout_attempts=2,
            max_attempts=6,
        )
    )
    assert time.time() - t < 10
    assert s.statuses == {"timeout": 3}
    assert server.state.requests - n0 == 6  # 2 timed-out attempts per call, not max_attempts = 6
    assert s.timeouts == 6 and s.timeout_tokens > 0 and "counted as spent" in str(s)
    with Store(tmp_path / "store.sqlite", lock=False) as st:
        spent = st.spent()
        err = next(st.rows([s.run_hash]))["error"]
    assert spent["attempts"] == 6 and spent["estimated"] == 6 and spent["completion_tokens"] == 6 * 2048
    assert "timed-out" in err
    st_ = export_rows(s)[0]["judge_status"]["with_gt"]
    assert st_["status"] == "timeout" and export_rows(s)[0]["with_gt"]["overall_alignment_pct"] is None


def test_budget_is_the_stores_across_resumes(server, bench, tmp_path) -> None:
    c = dict(
        budget_usd=0.004,
        price_in_per_m=1.0,
        price_out_per_m=1.0,
        concurrency=2,
        decoding=Decoding(max_tokens=300),
        conditions=["with_gt", "without_gt", "prometheus"],
    )
    n0 = server.state.requests
    runs = [run_judge(cfg(server, bench, tmp_path, **c)) for _ in range(3)]
    assert all(r.aborted and "budget" in r.aborted for r in runs)
    assert runs[0].calls > 0 and runs[1].calls == 0 and runs[2].calls == 0  # resumes do not start a fresh budget
    with Store(tmp_path / "store.sqlite", lock=False) as st:
        spent = st.spent()
    assert spent["prompt_tokens"] + spent["completion_tokens"] <= 4000  # $0.004 at $1/M tokens, never exceeded
    assert server.state.requests - n0 == runs[0].calls
    assert "spent on this store" in runs[2].aborted


def test_permanent_failures_not_retried_unless_asked(server, bench, tmp_path) -> None:
    for model, status in (("ctx", "context_length"), ("refuse", "refused"), ("filter", "content_filter")):
        kw = dict(name=model, store_path=tmp_path / f"{model}.sqlite", abort_after=5, concurrency=2)
        s = run_judge(cfg(server, bench, tmp_path, model, **kw))
        if model == "ctx":  # a prompt longer than the window: an item property (an HTTP 400, not billed)
            assert s.statuses == {status: 24} and s.aborted is None
        else:  # a judge that refuses (or is filtered) every time is stopped like any misconfigured judge
            assert s.aborted and "misconfigured" in s.aborted and s.statuses[status] < 24
        kw["abort_after"] = 10**6
        s = run_judge(cfg(server, bench, tmp_path, model, **kw))
        assert s.statuses == {status: 24}
        n0 = server.state.requests
        again = run_judge(cfg(server, bench, tmp_path, model, retry_errors=True, **kw))
        assert again.new == 0 and server.state.requests == n0
        forced = run_judge(cfg(server, bench, tmp_path, model, retry_errors=True, retry_permanent=True, **kw))
        assert forced.new == 24 and server.state.requests == n0 + 24


# -------------------------------------------------------------------------- never misread a verdict
def test_scale_answers_over_http(server, bench, tmp_path) -> None:
    for model in ("scale15", "pct"):
        s = run_judge(
            cfg(
                server,
                bench,
                tmp_path,
                model,
                name=model,
                store_path=tmp_path / f"{model}.sqlite",
                abort_after=10**6,
                conditions=["with_gt"],
            )
        )
        assert s.statuses == {"parse_error": 12}  # never a silent 0
        rows = export_rows(s)
        assert all(
            r["with_gt"][m]["llm_score"] is None
            for r in rows
            for m in ("tool_selection", "parameter_structure", "sequence_accuracy", "query_coverage")
        )
        assert all(any("off-scale" in n for n in r["judge_status"]["with_gt"]["notes"]) for r in rows)
    s = run_judge(
        cfg(
            server,
            bench,
            tmp_path,
            "fractions",
            name="fr",
            store_path=tmp_path / "fr.sqlite",
            conditions=["with_gt", "prometheus"],
        )
    )
    assert s.statuses == {"ok": 12 + 48}
    rows = export_rows(s)
    assert all(any("fraction" in n for n in r["judge_status"]["with_gt"]["notes"]) for r in rows)
    prom = rows[0]["judge_status"]["prometheus"]["notes"]
    assert len(prom) == 4 and all("prometheus 1-5 mapped 4->0.5" in n for n in prom)  # the documented mapping, flagged


@pytest.mark.parametrize(
    "model,status,note", [("twoobj", "ambiguous", "2 complete JSON verdicts"), ("cut", "incomplete", "cut short")]
)
def test_two_objects_and_silent_truncation_are_flagged(server, bench, tmp_path, model, status, note) -> None:
    s = run_judge(cfg(server, bench, tmp_path, model, abort_after=10**6, conditions=["with_gt"]))
    assert s.statuses == {status: 12}
    for r in export_rows(s):
        js = r["judge_status"]["with_gt"]
        assert js["status"] == status and any(note in n for n in js["notes"])
        assert r["with_gt"]["overall_alignment_pct"] is None


# ------------------------------------------------------------------------------------ failures
def test_endpoint_down_is_reported_in_seconds(bench, tmp_path) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    fake = type("S", (), {"url": url})
    t = time.time()
    with pytest.raises(FatalBackendError, match=f"connection refused at {url}"):
        run_judge(cfg(fake, bench, tmp_path))
    assert time.time() - t < 5
    r = subprocess.run(cli_args(url, tmp_path), capture_output=True, text=True, env=ENV, timeout=60)
    assert r.returncode == 4 and r.stderr.strip() == f"error: connection refused at {url}"  # EXIT_BACKEND
    assert not (tmp_path / "runs").exists()


def test_missing_key_variable_is_one_line(server, tmp_path) -> None:
    env = {k: v for k, v in ENV.items() if k != "AJB_TEST_KEY"}
    r = subprocess.run(cli_args(server.url, tmp_path), capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [
        "error: the API key variable AJB_TEST_KEY is not set (export AJB_TEST_KEY=...)"
    ]


def test_secrets_redacted_from_echoes_and_urls(server, bench, tmp_path) -> None:
    creds = server.url.replace("http://", "http://alice:pw-hunter2-XYZ@")
    s = run_judge(cfg(server, bench, tmp_path, "echo400", base_urls=[creds], abort_after=10**6, conditions=["with_gt"]))
    assert s.statuses == {"api_error": 12}
    e = run_judge(
        cfg(server, bench, tmp_path, "echoreply", name="er", store_path=tmp_path / "er.sqlite", conditions=["with_gt"])
    )
    assert e.statuses == {"ok": 12}
    with Store(tmp_path / "er.sqlite", lock=False) as st:
        assert all("header Bearer ***;" in r["reasoning"] for r in st.rows([e.run_hash]))  # the echo, masked
    r = subprocess.run(cli_args(server.url, tmp_path, "echo401"), capture_output=True, text=True, env=ENV, timeout=60)
    assert r.returncode == 4 and "Incorrect API key provided: ***" in r.stdout  # EXIT_BACKEND
    blobs = [p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()] + [
        r.stdout.encode(),
        r.stderr.encode(),
        str(s).encode(),
    ]
    for secret in (SECRET, "pw-hunter2-XYZ", "hunter2secret"):
        assert not any(secret.encode() in b for b in blobs), secret
    with Store(tmp_path / "store.sqlite", lock=False) as st:
        err = next(st.rows([s.run_hash]))["error"]
        cfg_json = st.conn.execute("SELECT config FROM runs").fetchone()[0]
    assert "auth=Basic ***" in err and "https://***@proxy.local" in err and "alice" not in cfg_json
    assert redact("GET https://u:p@h/v1?api_key=abc&x=1") == "GET https://***@h/v1?api_key=***&x=1"


def test_aborted_run_keeps_the_previous_export(server, bench, tmp_path) -> None:
    good = run_judge(cfg(server, bench, tmp_path))
    before = Path(good.files[0]).read_bytes()
    assert before.count(b"\n") == 12
    # same name, another run asked to replace it (without --replace-export it stops before any call), aborts at once
    bad = run_judge(cfg(server, bench, tmp_path, "auth", check_endpoint=False, replace_export=True))
    assert bad.aborted and bad.export_skipped and not bad.files
    assert Path(good.files[0]).read_bytes() == before
    with pytest.raises(FatalBackendError):
        down = type("S", (), {"url": f"http://127.0.0.1:{closed_port()}/v1"})
        run_judge(cfg(down, bench, tmp_path, "other", replace_export=True))
    assert Path(good.files[0]).read_bytes() == before


def test_exports_use_the_umask_and_leave_no_tmp_after_kill(tmp_path) -> None:
    from ajb_judge.export import write_jsonl

    old = os.umask(0o002)
    try:
        write_jsonl(tmp_path / "a.jsonl", [{"x": 1}])
    finally:
        os.umask(old)
    assert (tmp_path / "a.jsonl").stat().st_mode & 0o777 == 0o664  # not mkstemp's 0600
    (tmp_path / "b.jsonl").write_text("previous\n")
    code = (
        "import sys, time; from pathlib import Path; from ajb_judge.export import write_jsonl\n"
        "def rows():\n  yield {'x': 1}\n  Path(sys.argv[1]).write_text('mid')\n  time.sleep(60)\n  yield {'x': 2}\n"
        "write_jsonl(Path(sys.argv[2]), rows())\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "marker"), str(tmp_path / "b.jsonl")], env=ENV)
    deadline = time.time() + 30
    while not (tmp_path / "marker").exists() and time.time() < deadline:
        time.sleep(0.05)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    assert (tmp_path / "marker").exists()
    assert (tmp_path / "b.jsonl").read_text() == "previous\n"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["a.jsonl", "b.jsonl", "marker"]  # no orphan .tmp


def test_export_fallback_without_o_tmpfile(tmp_path, monkeypatch) -> None:
    from ajb_judge.export import write_jsonl

    dead = next(p for p in range(4_000_000, 4_100_000) if not Path(f"/proc/{p}").exists())
    orphan = tmp_path / f".c.jsonl.{dead}.x1y2.tmp"  # left by a writer killed mid-export
    orphan.write_text("half")
    monkeypatch.delattr(os, "O_TMPFILE", raising=False)
    old = os.umask(0o022)
    try:
        assert write_jsonl(tmp_path / "c.jsonl", [{"x": 1}, {"x": 2}]) == 2
    finally:
        os.umask(old)
    assert sorted(x.name for x in tmp_path.iterdir()) == ["c.jsonl"]
    assert (tmp_path / "c.jsonl").stat().st_mode & 0o777 == 0o644


# ------------------------------------------------------------------------------------- batch files
def test_batch_split_fields_corrupt_lines_and_noops(server, tmp_path) -> None:
    from ajb_judge import batch
    from ajb_judge.conditions import Context, config_hash, judge_units
    from ajb_judge.runner import _make_backend, load_items

    c = RunConfig(
        name="b",
        backend="openai",
        model="o4-mini",
        base_urls=[server.url],
        source="toy:3",
        generators=["qwen3_32b"],  # one generator: no identical requests in this test
        decoding=Decoding(temperature=None, max_tokens=4000, reasoning_effort="low", thinking=False, seed=3),
        extra_body={"service_tier": "flex", "metadata": {"run": "x"}},
        conditions=["with_gt", "without_gt"],
    )
    b, _, gens = load_items(c)
    ctx = Context(b.records, gens, 0)
    _, units = judge_units(ctx, c.conditions, config_hash(c.identity()), None)
    (tmp_path / "in.part9.jsonl").write_text("stale\n")
    pending = batch.pending_requests(units, ctx, _make_backend(c), {})
    parts = batch.write_requests(pending, tmp_path / "in.jsonl", max_requests=7)
    assert [n for _, n in parts] == [7, 7, 4] and parts[1][0].name == "in.part2.jsonl"
    assert not (tmp_path / "in.part9.jsonl").exists()
    reqs = [json.loads(x) for p, _ in parts for x in p.read_text().splitlines()]
    assert len({r["custom_id"] for r in reqs}) == len(units) == 18
    body = reqs[0]["body"]
    assert body["max_completion_tokens"] == 4000 and "max_tokens" not in body and body["reasoning_effort"] == "low"
    assert body["service_tier"] == "flex" and body["metadata"] == {"run": "x"} and body["seed"] == 3
    assert body["chat_template_kwargs"] == {"enable_thinking": False} and "extra_body" not in body
    by_bytes = batch.write_requests(
        pending, tmp_path / "sz.jsonl", max_bytes=3 * len(json.dumps(reqs[0]).encode()) + 10
    )
    assert (
        all(p.stat().st_size <= 3 * len(json.dumps(reqs[0]).encode()) + 10 for p, _ in by_bytes) and len(by_bytes) > 3
    )
    assert sum(n for _, n in by_bytes) == 18
    from fake_openai_server import answer_for

    lines = []
    for q in reqs[:10]:
        out = {
            "model": "o4-mini-2026",
            "choices": [{"message": {"content": answer_for(q["body"]["messages"])}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5},
        }
        lines.append(json.dumps({"custom_id": q["custom_id"], "response": {"status_code": 200, "body": out}}))
    lines.insert(3, '{"custom_id": "cut short')  # a corrupt line in the middle
    lines.append(lines[0])  # the very same line twice in one file: one answer, paid once
    lines.append(lines[1].replace('"prompt_tokens": 10', '"prompt_tokens": 7'))  # a second answer: paid too
    (tmp_path / "out.jsonl").write_text("\n".join(lines) + "\n")
    problems: list[str] = []
    with Store(tmp_path / "b.sqlite") as st:
        got = batch.import_batch(tmp_path / "out.jsonl", units, st, problems)
        assert got == Counter({"ok": 10, "corrupt_line": 1, "noop_already_imported": 1, "noop_duplicate": 1})
        assert len(problems) == 1 and "out.jsonl:4: corrupt line skipped" in problems[0]
        assert (
            len(st.statuses([units[0].run_hash])) == 10 and st.spent()["prompt_tokens"] == 107
        )  # the second answer is booked, kept out
        again = batch.import_batch(tmp_path / "out.jsonl", units, st)
        assert again == Counter({"noop_already_imported": 12, "corrupt_line": 1})
        assert (
            len(st.statuses([units[0].run_hash])) == 10 and st.spent()["prompt_tokens"] == 107
        )  # a line imported before is not booked again


def test_batch_sends_identical_requests_once(server, tmp_path) -> None:
    from ajb_judge.cli import main
    from fake_openai_server import answer_for

    args = [
        "--backend",
        "openai",
        "--model",
        "gpt-x",
        "--base-url",
        server.url,
        "--source",
        "toy:4",
        "--name",
        "bd",
        "--out",
        str(tmp_path / "runs"),
        "--store",
        str(tmp_path / "bd.sqlite"),
        "--no-progress",
        "--conditions",
        "with_gt",
        "--file",
        str(tmp_path / "in.jsonl"),
    ]
    assert main(["batch-export", *args]) == 0
    reqs = [json.loads(x) for x in (tmp_path / "in.jsonl").read_text().splitlines()]
    distinct = {json.dumps(r["body"]["messages"], sort_keys=True) for r in reqs}
    assert len(distinct) == len(reqs) < 4 * 2 * 3  # two generators' identical plans are exported once
    out = []
    for q in reqs:
        body = {
            "model": "gpt-x",
            "choices": [{"message": {"content": answer_for(q["body"]["messages"])}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1},
        }
        out.append(json.dumps({"custom_id": q["custom_id"], "response": {"status_code": 200, "body": body}}))
    (tmp_path / "out.jsonl").write_text("\n".join(out) + "\n")
    args[-1] = str(tmp_path / "out.jsonl")
    assert main(["batch-import", *args]) == 0
    with Store(tmp_path / "bd.sqlite", lock=False) as st:
        rows = list(st.rows([h for (h,) in st.conn.execute("SELECT DISTINCT run_hash FROM results")]))
    assert len(rows) == 24 and all(r["status"] == "ok" for r in rows)
    assert sum(bool(r["reused_from"]) for r in rows) == 24 - len(reqs)


# --------------------------------------------------------------------------------- kill -9 / resume
def test_kill9_then_resume_pays_no_ok_answer_twice(tmp_path) -> None:
    log = tmp_path / "requests.jsonl"
    conc = 4
    with FakeServer(latency=0.03, log_path=str(log)) as srv:
        args = cli_args(srv.url, tmp_path, "good", "--concurrency", str(conc), "--conditions", "with_gt,without_gt")
        args[args.index("toy:2")] = "toy:12"
        p = subprocess.Popen(args, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        db = tmp_path / "cli.sqlite"
        deadline = time.time() + 60
        while time.time() < deadline:
            time.sleep(0.05)
            try:
                with sqlite3.connect(db, timeout=1) as c:
                    if c.execute("SELECT COUNT(*) FROM results WHERE status='ok'").fetchone()[0] >= 40:
                        break
            except sqlite3.Error:
                pass
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        with sqlite3.connect(db) as c:
            ok_before = {h for (h,) in c.execute("SELECT request_hash FROM results WHERE status='ok'")}
        n_before = len(log.read_text().splitlines())
        r = subprocess.run(args, env=ENV, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
    with sqlite3.connect(db) as c:
        total, distinct, ok = c.execute(
            "SELECT COUNT(*), COUNT(DISTINCT key), SUM(status='ok') FROM results"
        ).fetchone()
        distinct_requests = c.execute("SELECT COUNT(DISTINCT request_hash) FROM results").fetchone()[0]
    assert total == distinct == ok == 12 * 2 * 3 * 2
    sent = [json.loads(x)["hash"] for x in log.read_text().splitlines()]
    after = sent[n_before:]
    assert 0 < len(ok_before) and not set(after) & ok_before  # nothing answered ok before the kill is re-sent
    assert len(sent) - distinct_requests <= conc  # the only double payments: calls in flight at the kill
