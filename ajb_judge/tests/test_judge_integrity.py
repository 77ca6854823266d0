"""Issue 21 against the misbehaving loopback server: a budget that holds, answers that belong to
their prompt, no key in any file; plus the runner's parts of issues 20.8 and 22.2 / 22.5.

Money is counted on the server's side (``FakeServer.state.stats()`` / ``GET /stats``: billed calls
and tokens), never only in the runner's own books.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from dataclasses import asdict
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from ajb_judge import RunConfig, run_judge, run_rewrite  # noqa: E402
from ajb_judge.conditions import Context, config_hash, judge_units  # noqa: E402
from ajb_judge.store import Store, StoreLockedError  # noqa: E402
from ajb_judge.toybench import make_toy_bench  # noqa: E402
from fake_openai_server import judge_answer  # noqa: E402
from runner_support import CLI_ENV, REPO, SECRET, cfg, cli_args, wait_until_idle  # noqa: E402

ENV = CLI_ENV
METRIC_KEYS = {
    "tool_selection": "tool_selection_accuracy",
    "parameter_structure": "parameter_structure_accuracy",
    "sequence_accuracy": "sequence_accuracy",
    "query_coverage": "query_coverage_accuracy",
}


def run_cli(args: list[str], env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, env=env or ENV, timeout=300)


def export_rows(path: str | Path) -> list[dict]:
    return [json.loads(x) for x in Path(path).read_text().splitlines()]


def one_line_error(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    return lines[0]


def server_stats(url: str) -> dict:
    with urllib.request.urlopen(url + "/stats", timeout=10) as resp:
        return json.loads(resp.read())


# ------------------------------------------------------------------------- 1. USD budget, no prices
def test_usd_budget_without_prices_is_refused(server, bench, tmp_path) -> None:
    with pytest.raises(ValueError, match="--price-in"):
        run_judge(cfg(server, bench, tmp_path, budget_usd=0.01))
    assert server.state.requests == 0 and not (tmp_path / "store.sqlite").exists()
    line = one_line_error(run_cli(cli_args(server.url, tmp_path, "good", "--budget-usd", "0.01")))
    assert "--price-in" in line and "--price-out" in line
    assert server.state.requests == 0 and not (tmp_path / "cli.sqlite").exists()


# ------------------------------------------------- 2. a stored answer belongs to what was judged
def expected_scores(b, conditions: list[str]) -> dict[tuple[str, str, str], list[float]]:
    """The fake server's verdict for each item's *current* prompt (what a correct export holds)."""
    ctx = Context(b.records, b.generations, 0)
    _, units = judge_units(ctx, conditions, "h", None)
    out = {}
    for u in units:
        text = "\n".join(str(m.get("content", "")) for m in ctx.messages(u))
        obj = json.loads(judge_answer(text))
        out[(u.item_id, u.generator, u.difficulty)] = [obj[METRIC_KEYS[m]]["accuracy"] for m in METRIC_KEYS]
    return out


def exported_scores(path: str) -> dict[tuple[str, str, str], list[float]]:
    return {
        (r["id"], r["generator"], r["difficulty"]): [r["with_gt"][m]["llm_score"] for m in METRIC_KEYS]
        for r in export_rows(path)
    }


def test_changed_plans_are_asked_again_not_exported_as_the_old_answer(server, tmp_path) -> None:
    b1 = make_toy_bench(4, generators=("qwen3_32b",))
    s1 = run_judge(cfg(server, b1, tmp_path, conditions=["with_gt"]))
    assert s1.statuses == {"ok": 12} and exported_scores(s1.files[0]) == expected_scores(b1, ["with_gt"])
    b2 = make_toy_bench(4, generators=("qwen3_32b",))  # the same generator re-generated: plans cut short
    b2.generations = b2.generations.assign(generated_calls=[list(c)[:1] for c in b2.generations["generated_calls"]])
    changed = sum(len(list(c)) > 1 for c in b1.generations["generated_calls"])
    assert changed >= 6
    n0 = server.state.requests
    s2 = run_judge(cfg(server, b2, tmp_path, conditions=["with_gt"]))
    assert s2.statuses == {"ok": 12} and s2.cached == 12 - changed
    assert server.state.requests - n0 == s2.calls and s2.calls + s2.reused == changed
    assert exported_scores(s2.files[0]) == expected_scores(b2, ["with_gt"])  # every verdict answers its own prompt


# ------------------------------------------------------------ 3. a judge on another scale
def test_a_judge_on_another_scale_makes_its_ones_ambiguous(server, bench, tmp_path) -> None:
    s = run_judge(cfg(server, bench, tmp_path, "scale15ones", abort_after=10**6, conditions=["with_gt"]))
    rows = export_rows(s.files[0])
    assert not s.statuses.get("ok") and sum(s.statuses.values()) == 12, s.statuses
    assert all(r["with_gt"][m]["llm_score"] is None for r in rows for m in METRIC_KEYS)
    ones = [r for r in rows if r["judge_status"]["with_gt"]["status"] == "ambiguous"]
    assert ones and all(any("another scale" in n for n in r["judge_status"]["with_gt"]["notes"]) for r in ones)
    with Store(tmp_path / "store.sqlite", lock=False) as st:  # the store agrees with the export
        assert Counter(r["status"] for r in st.rows([s.run_hash])) == Counter(s.statuses)
    good = run_judge(
        cfg(server, bench, tmp_path, "good", name="g", store_path=tmp_path / "g.sqlite", conditions=["with_gt"])
    )
    assert good.statuses == {"ok": 12}  # a judge on the rubric's scale keeps its 1s


# ------------------------------------------------------------------------- 4. the budget holds
def test_reservations_use_the_requests_own_max_tokens(server, tmp_path) -> None:
    server.state.long_tokens = 1900  # completions near the cap, far above any "typical" guess
    b = make_toy_bench(6, generators=("qwen3_32b",))
    budget = 30_000
    s = run_judge(cfg(server, b, tmp_path, "long", budget_tokens=budget, concurrency=8, conditions=["with_gt"]))
    assert s.aborted and "budget" in s.aborted
    billed = server.state.stats()
    assert billed["billed_calls"] > 0 and billed["billed_tokens"] <= budget, billed
    with Store(tmp_path / "store.sqlite", lock=False) as st:
        spent = st.spent()
    assert spent["prompt_tokens"] + spent["completion_tokens"] <= budget


def test_timed_out_calls_count_at_their_reservation(server, bench, tmp_path) -> None:
    server.state.hang_s = 1.0
    budget = 12_000
    s = run_judge(
        cfg(
            server,
            bench,
            tmp_path,
            "hang",
            budget_tokens=budget,
            concurrency=4,
            timeout_s=0.25,
            max_timeout_attempts=2,
            max_attempts=6,
            conditions=["with_gt"],
            abort_after=10**6,
        )
    )
    with Store(tmp_path / "store.sqlite", lock=False) as st:
        spent = st.spent()
    assert spent["prompt_tokens"] + spent["completion_tokens"] <= budget, spent  # the runner's own books
    assert s.aborted and "budget" in s.aborted
    assert wait_until_idle(server.state.stats)["billed_tokens"] <= budget  # the hung requests ended on the server


def test_budget_holds_across_kill_9_and_resumes(tmp_path) -> None:
    srv = subprocess.Popen(
        [sys.executable, str(REPO / "ajb_judge" / "tests" / "fake_openai_server.py"), "--latency", "1.0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        url = srv.stdout.readline().strip()
        budget = 45_000  # 9 reservations (the first call, then 8 in flight) of ~4,600 tokens fit
        args = cli_args(
            url,
            tmp_path,
            "long",
            "--budget-tokens",
            str(budget),
            "--concurrency",
            "8",
            "--source",
            "toy:8",
            "--conditions",
            "with_gt",
            "--timeout",
            "60",
        )
        first = subprocess.Popen(args, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 120
        while server_stats(url)["requests"] < 9 and time.time() < deadline and first.poll() is None:
            time.sleep(0.01)
        assert first.poll() is None
        os.kill(first.pid, signal.SIGKILL)  # the first answer committed, 8 calls in flight
        first.wait()
        wait_until_idle(lambda: server_stats(url))  # the calls in flight are answered (and billed) on the server
        for _ in range(2):
            r = run_cli(args)
            assert r.returncode in (0, 5), r.stderr  # 5: EXIT_BUDGET
        billed = wait_until_idle(lambda: server_stats(url))  # every request ended (and billed) on the server
        assert billed["billed_calls"] >= 9 and billed["billed_tokens"] <= budget, billed
        assert "budget" in r.stdout
        with Store(tmp_path / "cli.sqlite", lock=False) as st:
            spent = st.spent()
        assert billed["billed_tokens"] <= spent["prompt_tokens"] + spent["completion_tokens"] <= budget
    finally:
        srv.terminate()
        srv.wait()


# ---------------------------------------------------------------------------------- 5. symlinks
def test_a_store_opened_through_a_symlink_is_locked(tmp_path) -> None:
    real = tmp_path / "real.sqlite"
    (tmp_path / "link.sqlite").symlink_to(real)
    with Store(real):
        with pytest.raises(StoreLockedError):
            Store(tmp_path / "link.sqlite")
    with Store(tmp_path / "link.sqlite"):
        with pytest.raises(StoreLockedError):
            Store(real)


# ---------------------------------------------------------------------------- 6. the key never leaks
def test_key_echoed_in_non_json_bodies_and_fingerprints_is_redacted(server, bench, tmp_path) -> None:
    creds = server.url.replace("http://", "http://alice:pw-hunter2-XYZ@")
    s1 = run_judge(
        cfg(
            server,
            bench,
            tmp_path,
            "nonjson",
            base_urls=[creds],
            abort_after=10**6,
            max_attempts=1,
            conditions=["with_gt"],
        )
    )
    assert s1.statuses == {"api_error": 12}
    s2 = run_judge(
        cfg(server, bench, tmp_path, "fpecho", name="fp", store_path=tmp_path / "fp.sqlite", conditions=["with_gt"])
    )
    assert s2.statuses == {"ok": 12}
    r = run_cli(cli_args(server.url, tmp_path, "nonjson", "--max-attempts", "1", "--abort-after", "2"))
    blobs = [p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()]
    blobs += [r.stdout.encode(), r.stderr.encode(), str(s1).encode(), str(s2).encode()]
    for secret in (SECRET, "pw-hunter2-XYZ"):
        assert not any(secret.encode() in b for b in blobs), secret
    with Store(tmp_path / "store.sqlite", lock=False) as st:
        err = next(st.rows([s1.run_hash]))["error"]
        assert "upstream proxy error for Bearer" in err and "***" in err  # what was wrong is still said
    assert export_rows(s2.files[0])[0]["judge_status"]["with_gt"]["fingerprint"] == "fp_***"


# --------------------------------------------------------------- 7. two runs, one export path
def test_two_runs_with_the_same_export_path_refuse(server, bench, tmp_path) -> None:
    a = run_judge(cfg(server, bench, tmp_path, "good", conditions=["with_gt"]))
    before = Path(a.files[0]).read_bytes()
    again = run_judge(cfg(server, bench, tmp_path, "good", conditions=["with_gt"]))  # a resume: same run, same store
    assert again.files == a.files and Path(a.files[0]).read_bytes() == before
    with pytest.raises(ValueError, match="another run"):
        run_judge(cfg(server, bench, tmp_path, "think", conditions=["with_gt"], store_path=tmp_path / "b.sqlite"))
    with pytest.raises(ValueError, match="another run"):  # the same settings on another store
        run_judge(cfg(server, bench, tmp_path, "good", conditions=["with_gt"], store_path=tmp_path / "c.sqlite"))
    assert Path(a.files[0]).read_bytes() == before
    ok = run_judge(
        cfg(
            server,
            bench,
            tmp_path,
            "think",
            conditions=["with_gt"],
            store_path=tmp_path / "b.sqlite",
            replace_export=True,
        )
    )
    assert ok.files == a.files and json.loads(Path(a.files[1]).read_text())["run_hash"] == ok.run_hash


# ----------------------------------------------------------------------- 8. batch re-import
def test_reimporting_a_batch_output_adds_no_spend(tmp_path) -> None:
    from ajb_judge import batch

    c = RunConfig(
        name="b", backend="openai", model="gpt-x", source="toy:2", generators=["qwen3_32b"], conditions=["with_gt"]
    )
    from ajb_judge.runner import load_items

    b, _, gens = load_items(c)
    ctx = Context(b.records, gens, 0)
    _, units = judge_units(ctx, c.conditions, config_hash(c.identity()), None)
    lines = []
    for i, u in enumerate(units):
        content = "not json at all" if i % 2 else judge_answer("\n".join(m["content"] for m in ctx.messages(u)))
        body = {
            "model": "gpt-x",
            "choices": [{"message": {"content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 10},
        }
        lines.append(json.dumps({"custom_id": u.key, "response": {"status_code": 200, "body": body}}))
    (tmp_path / "out.jsonl").write_text("\n".join(lines) + "\n")
    with Store(tmp_path / "b.sqlite") as st:
        first = batch.import_batch(tmp_path / "out.jsonl", units, st, [], ctx)
        assert first["ok"] == 3 and first["parse_error"] == 3
        spent = st.spent()
        assert spent["prompt_tokens"] == 600
        again = batch.import_batch(tmp_path / "out.jsonl", units, st, [], ctx)
        assert st.spent() == spent, again  # neither the ok nor the failed lines are paid twice
        assert again["noop_already_imported"] == 6  # the very same lines: nothing booked again


# ------------------------------------------------------------------------------- 9. smaller ones
def test_response_format_is_part_of_the_run_identity(server, bench, tmp_path) -> None:
    a = run_judge(
        cfg(
            server,
            bench,
            tmp_path,
            conditions=["with_gt"],
            response_format="none",
            name="rf",
            store_path=tmp_path / "rf.sqlite",
            out_dir=tmp_path / "r1",
        )
    )
    n0 = server.state.requests
    b = run_judge(
        cfg(
            server,
            bench,
            tmp_path,
            conditions=["with_gt"],
            response_format="json_schema",
            name="rf",
            store_path=tmp_path / "rf.sqlite",
            out_dir=tmp_path / "r2",
        )
    )
    assert a.run_hash != b.run_hash and b.cached == 0 and server.state.requests - n0 == b.calls == 12


def test_a_wrong_key_stops_at_the_first_401(server, bench, tmp_path) -> None:
    s = run_judge(cfg(server, bench, tmp_path, "auth", concurrency=8, check_endpoint=False))
    assert server.state.requests == 1
    assert s.calls == 1 and "401" in s.aborted and "1 call" in s.aborted
    r = run_cli(cli_args(server.url, tmp_path, "auth", "--concurrency", "8"))
    assert r.returncode == 4 and server.state.requests == 2  # EXIT_BACKEND
    assert "0 calls" not in r.stdout and "401" in r.stdout


def test_a_missing_key_variable_creates_nothing(server, tmp_path) -> None:
    env = {k: v for k, v in ENV.items() if k != "AJB_TEST_KEY"}
    line = one_line_error(run_cli(cli_args(server.url, tmp_path), env=env))
    assert "AJB_TEST_KEY" in line
    assert not (tmp_path / "cli.sqlite").exists() and not (tmp_path / "runs").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_batch_limits_on_the_command_line(server, tmp_path) -> None:
    from ajb_judge.cli import main

    args = [
        "--backend",
        "openai",
        "--model",
        "gpt-x",
        "--base-url",
        server.url,
        "--source",
        "toy:3",
        "--name",
        "bl",
        "--out",
        str(tmp_path / "runs"),
        "--store",
        str(tmp_path / "bl.sqlite"),
        "--no-progress",
        "--conditions",
        "with_gt",
        "--generators",
        "qwen3_32b",
        "--file",
        str(tmp_path / "in.jsonl"),
        "--batch-max-requests",
        "4",
    ]
    assert main(["batch-export", *args]) == 0
    parts = sorted(tmp_path.glob("in*.jsonl"))
    assert [len(p.read_text().splitlines()) for p in parts] == [4, 4, 1]


# ------------------------------------------------------ issue 20.8: a dry run writes nothing
def test_static_rewrite_dry_run_writes_nothing_and_keeps_the_config(tmp_path) -> None:
    c = RunConfig(
        name="rw",
        backend="static",
        source="toy:3",
        out_dir=tmp_path / "runs",
        dry_run=True,
        store_path=tmp_path / "rw.sqlite",
    )
    before = asdict(c)
    s = run_rewrite(c)
    assert s.dry_run and not s.files
    assert asdict(c) == before  # the caller's config is not mutated
    assert not (tmp_path / "runs").exists() and list(tmp_path.iterdir()) == []
    real = run_rewrite(RunConfig(name="rw", backend="static", source="toy:3", out_dir=tmp_path / "runs"))
    assert real.files and Path(real.files[0]).exists()


# ---------------------------------------------- issue 22.2 / 22.5: the CLI's one-line errors
@pytest.mark.parametrize(
    "flag,value,valid",
    [
        ("--generators", "foo_gen", "qwen3_32b"),
        ("--conditions", "with_gtt", "without_gt"),
        ("--difficulties", "hardest", "medium"),
    ],
)
def test_unknown_names_fail_at_once_listing_the_valid_ones(server, tmp_path, flag, value, valid) -> None:
    line = one_line_error(run_cli(cli_args(server.url, tmp_path, "good", flag, value)))
    assert value in line and valid in line
    assert server.state.requests == 0 and not (tmp_path / "cli.sqlite").exists()


def test_usage_errors_are_one_line(tmp_path) -> None:
    base = [sys.executable, "-m", "ajb_judge", "run", "--backend", "static"]
    assert "--name" in one_line_error(run_cli(base))
    assert "--backend" in one_line_error(run_cli([*base[:4], "--backend", "foo", "--name", "x"]))


def test_static_cli_unknown_generator_and_bad_source_are_one_line(tmp_path) -> None:
    base = [
        sys.executable,
        "-m",
        "ajb_judge",
        "run",
        "--backend",
        "static",
        "--name",
        "st",
        "--out",
        str(tmp_path / "runs"),
        "--no-progress",
    ]
    line = one_line_error(run_cli([*base, "--source", "toy:2", "--generators", "foo_gen"]))
    assert "foo_gen" in line and "qwen3_32b" in line
    (tmp_path / "empty").mkdir()
    for src in (str(tmp_path / "missing"), str(tmp_path / "empty")):
        one_line_error(run_cli([*base, "--source", src]))
    dbg = run_cli([*base, "--source", str(tmp_path / "empty"), "--debug"])
    assert dbg.returncode == 2 and "Traceback" in dbg.stderr
    assert not (tmp_path / "runs").exists()


def test_rendered_prompts_unchanged_on_the_toy_bench() -> None:
    import random

    from ajb_judge import prompts

    b = make_toy_bench(6)
    for calls in b.generations["generated_calls"]:
        spec = [
            {"type": "function", "function": {"name": c.get("name"), "arguments": c.get("arguments", {})}}
            for c in list(calls)
        ]
        assert prompts.calls_json(list(calls)) == json.dumps(spec, ensure_ascii=False, indent=2, default=str)
    rng = random.Random(0)
    for _ in range(2000):
        f = 10 ** rng.uniform(-9, 18) * rng.choice([1, -1])
        assert prompts.dumps_indent2({"x": f}) == json.dumps({"x": f}, ensure_ascii=False, indent=2)


def test_a_slot_name_inside_a_value_is_left_as_text() -> None:
    """Each `{slot}` of the template is filled once: a value that spells a later slot (a plan whose
    argument reads "{expected_responses}") is shown as written, and the reference goes only where
    the template puts it."""
    from ajb_judge import prompts

    plan = prompts.calls_json([{"name": "send", "arguments": {"body": "{expected_responses} {available_tools}"}}])
    query = "fill {generated_tool_calls} here"
    for cond in ("with_gt", "without_gt"):
        (msg,) = prompts.judge_messages(cond, query, "<tools text>", plan, "<reference text>")
        text = msg["content"]
        assert plan in text and query in text
        assert text.count("<reference text>") == (cond == "with_gt") and text.count("<tools text>") == 1
    assert prompts.render("{a}|{b}", a="{b}", b="x") == "{b}|x"


# ------------------------------------------------------------- the first 401, and an endpoint down
def test_first_401_and_endpoint_down(server, bench, tmp_path) -> None:
    from ajb_judge.backends import FatalBackendError

    s = run_judge(cfg(server, bench, tmp_path, "auth", concurrency=8, check_endpoint=False))
    assert server.state.requests == 1 and "401" in s.aborted
    import socket

    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        port = sk.getsockname()[1]
    with pytest.raises(FatalBackendError, match=f"connection refused at http://127.0.0.1:{port}/v1"):
        run_judge(cfg(type("S", (), {"url": f"http://127.0.0.1:{port}/v1"}), bench, tmp_path))


# ------------------------------------------------------------- the HTTP client's framing (aiohttp)
def test_plain_client_reads_chunked_close_delimited_and_survives_a_closed_keepalive() -> None:
    import asyncio

    from ajb_judge.backends import AiohttpPool

    body = json.dumps({"x": "y" * 5000}).encode()
    chunked = b"".join(
        b"%x\r\n%s\r\n" % (len(body[i : i + 1000]), body[i : i + 1000]) for i in range(0, len(body), 1000)
    )
    replies = [
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked + b"0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body),  # then the server drops it
        b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + body,
    ]
    seen: list[bytes] = []

    async def handle(reader, writer) -> None:
        while replies:
            head = await reader.readuntil(b"\r\n\r\n")
            n = int(next(x for x in head.split(b"\r\n") if x.lower().startswith(b"content-length")).split(b":")[1])
            seen.append(await reader.readexactly(n))
            reply = replies.pop(0)
            writer.write(reply)
            await writer.drain()
            if len(replies) == 1 or b"Connection: close" in reply:
                break  # close: the client's kept-alive connection goes stale
        writer.close()

    async def main() -> list:
        srv = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = srv.sockets[0].getsockname()[1]
        pool = AiohttpPool(f"http://127.0.0.1:{port}/v1", "k", 10, 4)
        out = []
        for i in range(3):
            out.append(await pool.request("POST", "/chat/completions", b'{"n": %d}' % i))
            await asyncio.sleep(0.05)  # idle between calls: the server's close of a kept-alive connection is seen
        await pool.aclose()
        srv.close()
        return out

    out = asyncio.run(main())
    assert [o[0] for o in out] == [200, 200, 200] and all(o[2] == body for o in out)
    assert seen == [b'{"n": 0}', b'{"n": 1}', b'{"n": 2}']  # each request sent once


# ----------------------------------------------------------- the retry policy (tenacity.AsyncRetrying)
def test_retry_policy_retry_after_else_jittered_backoff_and_the_attempt_cap(
    server, bench, tmp_path, monkeypatch
) -> None:
    import ajb_judge.runner as R

    waits: list[tuple[int, float | None]] = []
    monkeypatch.setattr(R, "backoff_delay", lambda n, ra, base, cap: waits.append((n, ra)) or 0.0)
    one = {"conditions": ["with_gt"], "abort_after": 10**6, "check_endpoint": False}
    s = run_judge(cfg(server, bench, tmp_path, "r429", name="a", store_path=tmp_path / "a.sqlite", **one))
    assert s.statuses == {"ok": 12} and s.retries == len(waits) == 24  # 2 429s per prompt, each waited on
    assert {ra for _, ra in waits} == {0.0} and {n for n, _ in waits} == {1, 2}  # the server's Retry-After: 0
    waits.clear()
    s = run_judge(cfg(server, bench, tmp_path, "r500", name="b", store_path=tmp_path / "b.sqlite", **one))
    assert s.statuses == {"ok": 12} and {ra for _, ra in waits} == {None}  # no Retry-After: jittered exponential
    waits.clear()
    n0 = server.state.requests
    s = run_judge(
        cfg(server, bench, tmp_path, "always429", name="c", store_path=tmp_path / "c.sqlite", max_attempts=3, **one)
    )
    assert s.statuses == {"api_error": 12} and server.state.requests - n0 == 36  # stop after 3 attempts each
    assert s.retries == 24  # slept twice per unit (tenacity also asks for a wait after the last one, unused)
    waits.clear()
    n0 = server.state.requests
    s = run_judge(cfg(server, bench, tmp_path, "ctx", name="d", store_path=tmp_path / "d.sqlite", **one))
    assert s.statuses == {"context_length": 12} and server.state.requests - n0 == 12 and waits == []  # not retried


def test_every_template_is_read_once_as_its_file_says_and_an_unknown_one_is_named() -> None:
    """The templates held at import are the files' texts (header notes stripped, as a fresh read gives
    them); a name with no file is a FileNotFoundError naming it."""
    from ajb_judge import prompts

    files = sorted(p.name for p in prompts.PROMPTS_DIR.glob("*.txt"))
    assert sorted(prompts.TEMPLATES) == files and "judge_with_gt.txt" in files
    for name in files:
        text = (prompts.PROMPTS_DIR / name).read_text(encoding="utf-8")
        assert prompts.load_template(name) == prompts._strip_header_comments(text)
    with pytest.raises(FileNotFoundError, match="judge_with_gt.tx"):
        prompts.load_template("judge_with_gt.tx")
