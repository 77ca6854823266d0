"""Issue 31 against the counting loopback server: what a paid run still fell into, and a new-judge
flow that pays once. Money is counted on the server's side (billed calls and tokens)."""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from ajb_judge import run_judge  # noqa: E402
from ajb_judge import runner as R  # noqa: E402
from ajb_judge.store import Store, StoreDamagedError, StoreLockedError  # noqa: E402
from ajb_judge.toybench import make_toy_bench  # noqa: E402
from runner_support import CLI_ENV, REPO, SECRET, cfg, cli_args  # noqa: E402

ENV = CLI_ENV


def run_cli(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, env=ENV, timeout=300)


def rows_of(path: str | Path) -> list[dict]:
    return [json.loads(x) for x in Path(path).read_text().splitlines()]


# ---------------------------------------------------- 1. one off-scale value does not null a run
def test_a_rare_off_scale_value_leaves_the_other_verdicts_ok(server, bench, tmp_path) -> None:
    s = run_judge(cfg(server, bench, tmp_path, "offscale08", abort_after=10**6, conditions=["with_gt"]))
    assert "ambiguous" not in s.statuses, s.statuses
    assert 0 < s.statuses.get("parse_error", 0) < 12 and s.statuses["ok"] == 12 - s.statuses["parse_error"]


def test_scale_evidence_is_a_share_of_replies_above_one() -> None:
    assert not R.another_scale_shown(off_scale=[0.8] * 5, replies=10)  # 0.8: a {0, 0.5, 1} judge's near-miss
    assert not R.another_scale_shown(off_scale=[5.0], replies=100)  # one stray 5 in 100 replies
    assert R.another_scale_shown(off_scale=[5.0, 3.0, 4.0], replies=12)
    assert not R.another_scale_shown(off_scale=[], replies=0)


def test_retry_errors_does_not_resend_ambiguous_verdicts(server, bench, tmp_path) -> None:
    c = cfg(server, bench, tmp_path, "scale15ones", abort_after=10**6, conditions=["with_gt"])
    s = run_judge(c)
    amb, err = s.statuses.get("ambiguous", 0), s.statuses.get("parse_error", 0)
    assert amb and err and amb + err == 12, s.statuses
    n0 = server.state.requests
    again = run_judge(dataclasses.replace(c, retry_errors=True))
    assert server.state.requests - n0 == err  # the parse errors, never the ambiguous verdicts
    assert again.statuses == s.statuses
    n1 = server.state.requests
    run_judge(dataclasses.replace(c, retry_ambiguous=True))
    assert server.state.requests - n1 == amb  # asked explicitly


# ------------------------------------------------------------- 2. a store through a hard link
def test_a_store_through_a_hard_link_is_one_store(server, bench, tmp_path) -> None:
    first = run_judge(cfg(server, bench, tmp_path, conditions=["with_gt"]))
    assert first.statuses == {"ok": 12}
    os.link(tmp_path / "store.sqlite", tmp_path / "other.sqlite")
    n0 = server.state.requests
    with pytest.raises((StoreLockedError, StoreDamagedError), match="hard link"):
        run_judge(cfg(server, bench, tmp_path, store_path=tmp_path / "other.sqlite", conditions=["with_gt"]))
    assert server.state.requests == n0


def test_a_second_writer_through_a_hard_link_is_locked_out(tmp_path) -> None:
    with Store(tmp_path / "a.sqlite"):
        os.link(tmp_path / "a.sqlite", tmp_path / "b.sqlite")
        with pytest.raises((StoreLockedError, StoreDamagedError)):
            Store(tmp_path / "b.sqlite")


def test_a_damaged_store_is_refused_on_open(server, bench, tmp_path) -> None:
    run_judge(cfg(server, bench, tmp_path, conditions=["with_gt"]))
    path = tmp_path / "store.sqlite"
    con = sqlite3.connect(path)
    page = con.execute("PRAGMA page_size").fetchone()[0]
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name='results_run'").fetchone()[0]
    con.close()
    with open(path, "r+b") as fh:  # scribble over the index's root page
        fh.seek((root - 1) * page + 8)
        fh.write(b"\x07" * 64)
    n0 = server.state.requests
    with pytest.raises(StoreDamagedError, match="integrity"):
        run_judge(cfg(server, bench, tmp_path, conditions=["with_gt"]))
    assert server.state.requests == n0
    r = run_cli([*cli_args(server.url, tmp_path, "good"), "--store", str(path), "--conditions", "with_gt"])
    assert r.returncode == 2 and "integrity" in r.stderr and server.state.requests == n0


# ---------------------------------------------- 3. the export is claimed before the first call
def test_another_store_or_decoding_under_one_name_stops_before_paying(server, bench, tmp_path) -> None:
    run_judge(cfg(server, bench, tmp_path, conditions=["with_gt"]))
    n0 = server.state.requests
    with pytest.raises(ValueError, match="holds the export of another run"):
        run_judge(cfg(server, bench, tmp_path, store_path=tmp_path / "new.sqlite", conditions=["with_gt"]))
    with pytest.raises(ValueError, match="holds the export of another run"):
        run_judge(cfg(server, bench, tmp_path, conditions=["with_gt"], decoding=R.Decoding(temperature=0.7)))
    assert server.state.requests == n0
    assert not (tmp_path / "new.sqlite").exists()  # found before the new store was made


def test_the_default_store_lives_beside_the_runs_not_in_the_cache(server, tmp_path) -> None:
    args = cli_args(server.url, tmp_path, "good")
    i = args.index("--store")
    del args[i : i + 2]
    r = run_cli(args)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "runs" / ".store" / "cli.sqlite").exists()
    assert R.default_store("x", tmp_path / "runs") == tmp_path / "runs" / ".store" / "x.sqlite"


# --------------------------------------------------------------------------- 4. budget holes
def test_the_reservation_covers_a_max_tokens_sent_in_extra_body(server, tmp_path) -> None:
    server.state.long_tokens = 8000
    b = make_toy_bench(6)
    budget = 60_000
    s = run_judge(
        cfg(server, b, tmp_path, "long", extra_body={"max_tokens": 8000}, budget_tokens=budget, conditions=["with_gt"])
    )
    assert s.aborted and "budget" in s.aborted
    assert server.state.stats()["billed_tokens"] <= budget, server.state.stats()
    backend = R._make_backend(cfg(server, b, tmp_path, extra_body={"max_completion_tokens": 9000}))
    assert R.completion_reservation(backend.request_body([{"role": "user", "content": "x"}])) == 9000


def test_a_dropped_connection_after_sending_keeps_its_reservation(server, bench, tmp_path) -> None:
    budget = 20_000
    s = run_judge(cfg(server, bench, tmp_path, "drop", budget_tokens=budget, abort_after=10**6))
    billed = server.state.stats()
    assert billed["billed_calls"] > 0 and billed["billed_tokens"] <= budget, billed
    assert s.store_spent["prompt_tokens"] + s.store_spent["completion_tokens"] >= billed["billed_tokens"]


# ------------------------------------------------------------- 5. a judge that refuses everything
def test_a_judge_that_refuses_everything_is_stopped(server, tmp_path) -> None:
    b = make_toy_bench(20, generators=("qwen3_32b",))
    s = run_judge(cfg(server, b, tmp_path, "refuse", abort_after=10, conditions=["with_gt"]))
    assert s.aborted and "refused" in s.aborted
    assert server.state.requests <= 10 + 4 + 1


def test_the_summary_says_when_every_verdict_is_one_value(server, bench, tmp_path) -> None:
    s = run_judge(cfg(server, bench, tmp_path, "allones", conditions=["with_gt"]))
    assert s.statuses == {"ok": 12}
    assert any("every verdict" in w and "1" in w for w in s.warnings), s.warnings
    assert "every verdict" in str(s)
    good = run_judge(cfg(server, bench, tmp_path, name="g", store_path=tmp_path / "g.sqlite", conditions=["with_gt"]))
    assert not good.warnings


# --------------------------------------------------- 6. the new-judge flow pays once
def test_cli_and_notebook_share_one_selection_seed() -> None:
    import yaml

    from ajb_judge.cli import build_parser, config_from_args

    assert config_from_args(build_parser().parse_args(["run", "--name", "x"])).seed == R.SELECT_SEED
    for f in ("new_judge_static.yaml", "new_judge_vllm.yaml"):
        assert yaml.safe_load((REPO / "papermill_params" / f).read_text())["default"]["seed"] == R.SELECT_SEED
    nb = json.loads((REPO / "notebooks" / "15_new_judge.ipynb").read_text())
    params = next(c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", []))
    assert f"seed: int = {R.SELECT_SEED}" in "".join(params["source"])


def test_notebook_15_reuses_what_the_cli_paid_for(server, tmp_path) -> None:
    from ajb_judge.notebook import new_judge_config

    args = cli_args(server.url, tmp_path, "good", "--limit", "2")
    i = args.index("--store")
    del args[i : i + 2]
    r = run_cli(args)
    assert r.returncode == 0, r.stderr
    n0 = server.state.requests
    assert n0 > 0
    nb = new_judge_config(
        "cli",
        backend="openai",
        base_url=server.url,
        model="good",
        api_key_env="AJB_TEST_KEY",
        limit=2,
        seed=20260826,
        source="toy:2",
    )
    s = run_judge(dataclasses.replace(nb, out_dir=tmp_path / "runs"))
    assert server.state.requests == n0 and s.new == 0 and s.cached == s.n_units  # 0 new calls


def test_a_run_is_never_silently_rewritten_with_another_selection(tmp_path) -> None:
    from ajb_judge.notebook import new_judge_config

    b = make_toy_bench(8)
    one = dataclasses.replace(new_judge_config("st", limit=3, seed=1, bench=b), out_dir=tmp_path)
    run_judge(one)
    before = (tmp_path / "st.jsonl").read_bytes()
    with pytest.raises(ValueError, match="selection"):
        run_judge(dataclasses.replace(one, seed=2))
    with pytest.raises(ValueError, match="selection"):
        run_judge(dataclasses.replace(one, limit=2))  # a smaller selection would drop items (a larger one extends)
    assert (tmp_path / "st.jsonl").read_bytes() == before
    run_judge(dataclasses.replace(one, limit=2, replace_export=True))  # asked for: replaced


# --------------------------------------------------------------- 7. errors a script can act on
def test_a_fatal_backend_error_goes_to_stderr_with_its_own_exit_code(server, tmp_path) -> None:
    from ajb_judge.cli import EXIT_BACKEND, EXIT_BUDGET, EXIT_CONFIG

    assert len({EXIT_CONFIG, EXIT_BACKEND, EXIT_BUDGET, 3}) == 4
    r = run_cli(cli_args(server.url, tmp_path, "auth"))
    assert r.returncode == EXIT_BACKEND, (r.returncode, r.stdout, r.stderr)
    assert "401" in r.stderr and SECRET not in r.stderr + r.stdout
    r = run_cli(cli_args(server.url, tmp_path, "good", "--budget-tokens", "9000", "--name", "b"))
    assert r.returncode == EXIT_BUDGET, (r.returncode, r.stdout, r.stderr)
    assert "budget" in r.stderr and (tmp_path / "runs" / "b.jsonl").exists()
    r = run_cli(cli_args(server.url, tmp_path, "good", "--conditions", "nope", "--name", "c"))
    assert r.returncode == EXIT_CONFIG


def test_an_endpoint_that_is_down_creates_no_store(bench, tmp_path) -> None:
    import socket

    from ajb_judge.backends import FatalBackendError

    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        port = sk.getsockname()[1]
    down = type("S", (), {"url": f"http://127.0.0.1:{port}/v1"})
    with pytest.raises(FatalBackendError, match="connection refused"):
        run_judge(cfg(down, bench, tmp_path))
    assert not list(tmp_path.rglob("*.sqlite*")) and not list(tmp_path.rglob("*.lock"))


def test_new_counts_only_this_invocations_items(server, bench, tmp_path) -> None:
    c = cfg(server, bench, tmp_path, "garbage", abort_after=10**6, conditions=["with_gt"])
    s1 = run_judge(c)
    assert s1.new == 12 and int(s1.table["new"].sum()) == 12
    s2 = run_judge(c)  # failures stay stored; nothing is sent again
    assert s2.new == 0 and int(s2.table["new"].sum()) == 0, s2.table
    assert Counter(s2.statuses) == Counter(s1.statuses)


# ------------------------------------------------ for the maintainer: what the scale rule reads is stored as fields
def test_off_scale_values_and_explicit_reads_are_stored_as_fields() -> None:
    from ajb_judge.parse import parse_judge

    reply = {
        "tool_selection_accuracy": {"accuracy": 5, "justification": "x"},
        "parameter_structure_accuracy": {"accuracy": "4/5", "justification": "x"},
        "sequence_accuracy": {"accuracy": True, "justification": "x"},
        "query_coverage_accuracy": {"accuracy": 0.98, "justification": "x"},
    }
    p = parse_judge(json.dumps(reply)).to_json()
    assert p["off_scale"] == {"tool_selection": 5.0, "parameter_structure": 0.8}
    assert sorted(p["explicit"]) == ["query_coverage", "sequence_accuracy"]
    assert R.off_scale_of(p) == [5.0, 0.8]


def test_verdicts_the_scale_rule_marked_are_ok_again_without_a_call(server, bench, tmp_path) -> None:
    c = cfg(server, bench, tmp_path, "offscale08", abort_after=10**6, conditions=["with_gt"])
    s = run_judge(c)
    with Store(tmp_path / "store.sqlite") as st:  # marked as a stricter rule (0.8 is no other scale) would mark them
        for r in [r for r in st.rows([s.run_hash], "judge") if r["status"] == "ok"]:
            p = r["parsed"]
            p["notes"] = [*p["notes"], f"tool_selection: 1 {R._SCALE_NOTE} (saw 0.8)"]
            p["scale_ambiguous"] = ["tool_selection"]
            st.overwrite_parse(r["key"], "ambiguous", p)
    n0 = server.state.requests
    again = run_judge(c)
    assert again.statuses == s.statuses and server.state.requests == n0
    marked = run_judge(dataclasses.replace(c, model="scale15ones", name="s15", store_path=tmp_path / "s15.sqlite"))
    with Store(tmp_path / "s15.sqlite", lock=False) as st:
        amb = [r["parsed"] for r in st.rows([marked.run_hash], "judge") if r["status"] == "ambiguous"]
    assert amb and all(p["scale_ambiguous"] for p in amb)  # which metrics the rule marked: a field


def test_generator_and_rewrite_runs_also_claim_their_export_first(server, bench, tmp_path) -> None:
    from ajb_judge import run_generate, run_rewrite

    for fn in (run_generate, run_rewrite):
        name = fn.__name__
        fn(cfg(server, bench, tmp_path, name=name, store_path=tmp_path / f"{name}.sqlite"))
        n0 = server.state.requests
        with pytest.raises(ValueError, match="holds the export of another run"):
            fn(cfg(server, bench, tmp_path, name=name, store_path=tmp_path / f"{name}2.sqlite"))
        assert server.state.requests == n0


def test_a_dry_run_says_when_the_run_would_stop_on_the_export(server, bench, tmp_path) -> None:
    run_judge(cfg(server, bench, tmp_path, conditions=["with_gt"]))
    dry = run_judge(
        cfg(server, bench, tmp_path, conditions=["with_gt"], decoding=R.Decoding(temperature=0.7), dry_run=True)
    )
    assert dry.export_skipped and "would stop before any call" in dry.export_skipped
    same = run_judge(cfg(server, bench, tmp_path, conditions=["with_gt"], dry_run=True))
    assert not same.export_skipped


# ---------------- for the maintainer: a field the prompt renders can never be left out of the cache key
def _perturbed(value):
    if isinstance(value, str):
        return value + " (changed)"
    if isinstance(value, list):
        return [*value, {"name": "extra_tool", "arguments": {}, "description": "x"}]
    return value + 1


def _rendered(bench, kinds=("judge", "record")) -> dict[tuple, tuple[str, str, str]]:
    """Return {unit identity: (key, request hash, rendered messages)} of every unit of every condition."""
    from ajb_judge.conditions import Context, judge_units, record_units, request_hash

    ctx = Context(bench.records, bench.generations, 7)
    derivers, units = judge_units(ctx, list(R.CONDITIONS), "h", "d")
    for u in derivers:
        ctx.derived[(u.item_id, u.difficulty)] = "derived for " + json.dumps(ctx.messages(u))
    ids = bench.records["id"].astype(str).tolist()
    units += derivers + record_units(ctx, "generate", "h", ids) + record_units(ctx, "rewrite", "h", ids)
    out = {}
    for u in units:
        ident = (u.kind, u.condition, u.item_id, u.generator, u.difficulty, u.unit)
        out[ident] = (u.key, request_hash(u), json.dumps(ctx.messages(u)))
    return out


@pytest.mark.parametrize("table", ["records", "generations"])
def test_every_rendered_field_is_in_the_cache_key(table) -> None:
    base = make_toy_bench(3, generators=("qwen3_32b",))
    before = _rendered(base)
    by_request: dict[str, str] = {}
    for _key, req, msgs in before.values():  # one request hash, one rendering
        assert by_request.setdefault(req, msgs) == msgs
    frame = getattr(base, table)
    for col in frame.columns:
        if col in ("id", "generator", "difficulty"):  # what identifies a unit, not what it renders
            continue
        b = make_toy_bench(3, generators=("qwen3_32b",))
        df = getattr(b, table).copy()
        df[col] = [_perturbed(v) for v in df[col]]
        setattr(b, table, df)
        after = _rendered(b)
        for ident, (key, req, msgs) in after.items():
            k0, r0, m0 = before[ident]
            if msgs != m0:  # what was sent changed: the stored answer must not be reused
                assert key != k0 and req != r0, (table, col, ident)


def test_a_refused_connection_releases_its_reservation(bench, tmp_path) -> None:
    import socket

    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        port = sk.getsockname()[1]
    down = type("S", (), {"url": f"http://127.0.0.1:{port}/v1"})
    c = cfg(down, bench, tmp_path, check_endpoint=False, max_attempts=2, abort_after=10**6)
    s = run_judge(dataclasses.replace(c, budget_tokens=10**6, conditions=["with_gt"]))
    assert s.statuses == {"api_error": 12} and s.dropped == 0
    assert s.store_spent["attempts"] == 0  # nothing was sent: every reservation released
