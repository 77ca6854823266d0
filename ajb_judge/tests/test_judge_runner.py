"""Runner over real HTTP against the loopback fake server: retries, statuses, resume, secrets."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from ajb_judge import Decoding, run_generate, run_judge, run_rewrite  # noqa: E402
from ajb_judge.store import Store  # noqa: E402
from fake_openai_server import FakeServer  # noqa: E402
from runner_support import REPO, SECRET, cfg  # noqa: E402


@pytest.fixture(scope="module")
def server():
    with FakeServer() as s:
        yield s


@pytest.mark.parametrize("model", ["good", "think", "reasoning", "malformed", "noschema", "r429", "r500"])
def test_modes_end_ok(server, bench, tmp_path, model) -> None:
    s = run_judge(cfg(server, bench, tmp_path, model))
    assert s.statuses == {"ok": 24} and s.aborted is None
    if model in ("r429", "r500"):
        assert s.retries >= 24
    rows = [json.loads(x) for x in Path(s.files[0]).read_text().splitlines()]
    assert len(rows) == 12 and all(r["with_gt"]["overall_alignment_pct"] is not None for r in rows)
    st = rows[0]["judge_status"]["with_gt"]
    assert (
        st["status"] == "ok"
        and st["model"].endswith("-served")
        and st["fingerprint"] == "fp_fake"
        and st["prompt_hash"]
    )


def test_failure_statuses_retry_and_reparse(server, bench, tmp_path) -> None:
    s = run_judge(cfg(server, bench, tmp_path, "truncated", abort_after=10**6))
    assert s.statuses == {"truncated": 24}
    rows = [json.loads(x) for x in Path(s.files[0]).read_text().splitlines()]
    assert rows[0]["with_gt"]["tool_selection"]["llm_score"] is None  # a status, never a zero
    assert rows[0]["with_gt"]["overall_alignment_pct"] is None
    n0 = server.state.requests
    again = run_judge(cfg(server, bench, tmp_path, "truncated", abort_after=10**6))
    assert server.state.requests == n0 and again.new == 0  # failed items are not re-run by default
    again = run_judge(cfg(server, bench, tmp_path, "truncated", abort_after=10**6, retry_errors=True))
    assert server.state.requests == n0 + 24 and again.new == 24
    with Store(tmp_path / "store.sqlite") as st:
        assert max(r["attempts"] for r in st.rows([again.run_hash])) == 2
    rp = run_judge(cfg(server, bench, tmp_path, "truncated", reparse=True))
    assert server.state.requests == n0 + 24 and rp.statuses == {"truncated": 24}


def test_garbage_aborts_early(server, bench, tmp_path) -> None:
    s = run_judge(cfg(server, bench, tmp_path, "garbage", abort_after=5, concurrency=1))
    assert s.aborted and "misconfigured" in s.aborted and s.new < 24


@pytest.mark.parametrize("model,expect", [("auth", "fatal"), ("quota", "fatal"), ("ctx", "context_length")])
def test_fail_fast(server, bench, tmp_path, model, expect) -> None:
    n0 = server.state.requests
    s = run_judge(cfg(server, bench, tmp_path, model, concurrency=1, abort_after=10**6, check_endpoint=False))
    if expect == "fatal":
        assert s.aborted and "fatal" in s.aborted and server.state.requests - n0 <= 2
    else:
        assert s.statuses == {"context_length": 24} and server.state.requests - n0 == 24  # no retries


def test_resume_never_repays_and_round_robin(server, bench, tmp_path) -> None:
    with FakeServer() as s2:
        c = cfg(
            server, bench, tmp_path, base_urls=[server.url, s2.url], conditions=["with_gt", "without_gt", "prometheus"]
        )
        n1, n2 = server.state.requests, s2.state.requests
        a = run_judge(c)
        assert a.statuses == {"ok": 24 + 48} and a.new == 72
        assert server.state.requests - n1 > 10 and s2.state.requests - n2 > 10
        b = run_judge(c)
        assert b.new == 0 and b.cached == 72 and server.state.requests - n1 + s2.state.requests - n2 == 72
        assert (b.table["cached"] == b.table["items"]).all()
    rows = [json.loads(x) for x in Path(a.files[0]).read_text().splitlines()]
    assert rows[0]["prometheus"]["tool_selection"]["llm_score"] == 0.5  # [RESULT] 4 -> 0.5


def test_decoding_is_identity_and_sent(server, bench, tmp_path) -> None:
    server.state.keep_bodies = True
    server.state.bodies.clear()
    try:
        a = run_judge(
            cfg(
                server,
                bench,
                tmp_path,
                decoding=Decoding(temperature=0.3, max_tokens=99, thinking=False, seed=7),
                conditions=["with_gt"],
                limit=1,
            )
        )
        body = server.state.bodies[-1]
    finally:
        server.state.keep_bodies = False
    assert body["temperature"] == 0.3 and body["max_tokens"] == 99 and body["seed"] == 7
    assert body["chat_template_kwargs"] == {"enable_thinking": False}
    b = run_judge(
        cfg(
            server,
            bench,
            tmp_path,
            decoding=Decoding(temperature=0.7),
            conditions=["with_gt"],
            limit=1,
            replace_export=True,
        )
    )  # another run at the same export path is refused unless asked
    assert a.run_hash != b.run_hash and b.new == 3


def test_deref_corrupted_freeform(server, bench, tmp_path) -> None:
    s = run_judge(cfg(server, bench, tmp_path, conditions=["deref", "corrupted_gt", "freeform", "without_gt_05"]))
    assert s.statuses == {"ok": 48} and s.new == 48 + 12  # 12 deriver calls (record x difficulty)
    with Store(tmp_path / "store.sqlite") as st:
        der = [r for r in st.rows([h for (h,) in st.conn.execute("SELECT DISTINCT run_hash FROM results")], "deriver")]
    assert len(der) == 12 and all(r["status"] == "ok" for r in der)


def test_dry_run_spends_nothing(server, bench, tmp_path, capsys) -> None:
    n0 = server.state.requests
    s = run_judge(cfg(server, bench, tmp_path, dry_run=True, price_in_per_m=1.0, price_out_per_m=2.0))
    assert server.state.requests == n0 and s.estimate["prompt_tokens"] > 0 and s.estimate["usd"] > 0


def test_budget_cap(server, bench, tmp_path) -> None:
    s = run_judge(cfg(server, bench, tmp_path, budget_tokens=6000, concurrency=1, decoding=Decoding(max_tokens=512)))
    assert s.aborted and "budget" in s.aborted and 0 < s.new < 24


def test_generate_and_rewrite(server, bench, tmp_path) -> None:
    g = run_generate(cfg(server, bench, tmp_path, name="gen_t"))
    rows = [json.loads(x) for x in Path(g.files[0]).read_text().splitlines()]
    assert len(rows) == 12 and rows[0]["generated_tool_calls"] and rows[0]["score_tool_selection"] is not None
    r = run_rewrite(cfg(server, bench, tmp_path, name="rw_t", model="think"))
    rows = [json.loads(x) for x in Path(r.files[0]).read_text().splitlines()]
    assert len(rows) == 16 and {x["criterion"] for x in rows} == {
        "medium_preserves",
        "hard_preserves",
        "medium_harder",
        "hard_harder",
    }


def test_batch_roundtrip(server, bench, tmp_path) -> None:
    from ajb_judge.cli import main

    args = [
        "--backend",
        "openai",
        "--model",
        "gpt-x",
        "--base-url",
        server.url,
        "--api-key-env",
        "AJB_TEST_KEY",
        "--source",
        "toy:3",
        "--name",
        "bt",
        "--out",
        str(tmp_path / "runs"),
        "--store",
        str(tmp_path / "b.sqlite"),
        "--no-progress",
        "--file",
        str(tmp_path / "batch_in.jsonl"),
    ]
    assert main(["batch-export", *args]) == 0
    reqs = [json.loads(x) for x in (tmp_path / "batch_in.jsonl").read_text().splitlines()]
    distinct = {json.dumps(r["body"]["messages"], sort_keys=True) for r in reqs}
    assert len(reqs) == len(distinct) and 3 * 3 * 2 <= len(reqs) < 3 * 2 * 3 * 2  # identical requests once
    out = []
    from fake_openai_server import answer_for

    for q in reqs[:-2]:  # two results missing: the import is partial, and resumable
        body = {
            "model": "gpt-x-2026",
            "choices": [{"message": {"content": answer_for(q["body"]["messages"])}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5},
        }
        out.append(json.dumps({"custom_id": q["custom_id"], "response": {"status_code": 200, "body": body}}))
    (tmp_path / "batch_out.jsonl").write_text("\n".join(out))
    args[-1] = str(tmp_path / "batch_out.jsonl")
    assert main(["batch-import", *args]) == 0
    assert main(["batch-import", *args]) == 0  # idempotent
    args[-1] = str(tmp_path / "batch_in2.jsonl")
    assert main(["batch-export", *args]) == 0
    assert len((tmp_path / "batch_in2.jsonl").read_text().splitlines()) == 2


def test_secret_never_leaks(server, bench, tmp_path, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    s = run_judge(cfg(server, bench, tmp_path, "think+r429", conditions=["with_gt", "prometheus"]))
    run_judge(cfg(server, bench, tmp_path, "auth", name="t_auth"))
    assert server.state.auth_headers[-1] == f"Bearer {SECRET}"  # it is sent ...
    blobs = [p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()]
    assert blobs and not any(SECRET.encode() in b for b in blobs)  # ... but never stored
    assert SECRET not in caplog.text and SECRET not in str(s)


def test_cli_help_and_static_run(tmp_path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    h = subprocess.run(
        [sys.executable, "-m", "ajb_judge", "run", "--help"], capture_output=True, text=True, env=env, timeout=120
    )
    assert h.returncode == 0
    for flag in (
        "--backend",
        "--base-url",
        "--model",
        "--api-key-env",
        "--conditions",
        "--source",
        "--generators",
        "--difficulties",
        "--limit",
        "--concurrency",
        "--out",
        "--name",
        "--retry-errors",
        "--reparse",
        "--dry-run",
    ):
        assert flag in h.stdout
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "ajb_judge",
            "run",
            "--source",
            "toy:6",
            "--name",
            "st",
            "--out",
            str(tmp_path),
            "--conditions",
            "with_gt,without_gt,deref",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert len((tmp_path / "st.jsonl").read_text().splitlines()) == 6 * 2 * 3


def test_an_error_outside_an_event_loop_is_raised_without_the_loop_probe_as_its_context() -> None:
    """A script's run raises its own error, not one chained to "RuntimeError: no running event loop"."""
    from ajb_judge.runner import outside_event_loop

    @outside_event_loop
    def fails() -> None:
        raise ValueError("the run's own error")

    with pytest.raises(ValueError, match="the run's own error") as err:
        fails()
    assert err.value.__context__ is None
