"""Issue 37 against the counting loopback server: the batch path under the budget, every request
field in the reservation, drops capped like timeouts, one store one identity, a pilot that grows,
credentials masked in every form. Money is counted on the server's side."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import budget_cases as B  # noqa: E402
from ajb_judge import RunConfig, run_judge  # noqa: E402
from ajb_judge import runner as R  # noqa: E402
from ajb_judge.conditions import stratified_ids  # noqa: E402
from ajb_judge.store import Store, StoreDamagedError  # noqa: E402
from ajb_judge.toybench import make_toy_bench  # noqa: E402
from fake_openai_server import FakeServer, run_batch  # noqa: E402
from runner_support import CLI_ENV, SECRET, cfg, cli_args  # noqa: E402


def run_cli(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, env=CLI_ENV, timeout=300)


def spent_tokens(path: Path) -> int:
    with Store(path, lock=False) as st:
        s = st.spent()
    return s["prompt_tokens"] + s["completion_tokens"]


# ------------------------------------------------------------------ 1. the batch path under the budget
def test_batch_export_reserves_against_the_budget(tmp_path) -> None:
    row = B.batch_case(tmp_path, budget=20_000)
    assert row.outcome == "batch-export: exit 5", row  # the budget stopped the export: not every request was written
    written = len((tmp_path / "in.jsonl").read_text().splitlines())
    assert 0 < written < 6 * 3, written
    assert row.billed <= row.budget and row.booked == row.billed, row


def test_every_imported_output_is_booked_duplicates_included(tmp_path) -> None:
    row = B.batch_case(tmp_path, budget=10**9, runs=2, model="good")  # the file run twice: both outputs paid
    assert row.billed > 0 and row.booked == row.billed, row


def test_an_import_whose_lines_match_no_request_says_so_and_fails(tmp_path) -> None:
    with FakeServer() as server:
        args = B._batch_args(server, tmp_path, tmp_path / "in.jsonl", model="good")
        assert B.batch_main(["batch-export", *args]) == 0
        run_batch(server.url, tmp_path / "in.jsonl", tmp_path / "out.jsonl")
        imp = B._batch_args(server, tmp_path, tmp_path / "out.jsonl", "--temperature", "0.7", model="good")
        r = run_cli([sys.executable, "-m", "ajb_judge", "batch-import", *imp])
        assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
        assert "18 paid lines" in r.stderr and "0 matched" in r.stderr, r.stderr
        assert not (tmp_path / "runs" / "bb.jsonl").exists()  # no all-null export
        assert (
            B.batch_main(["batch-import", *B._batch_args(server, tmp_path, tmp_path / "out.jsonl", model="good")]) == 0
        )
        rows = [json.loads(x) for x in (tmp_path / "runs" / "bb.jsonl").read_text().splitlines()]
        assert rows and all(x["with_gt"]["overall_alignment_pct"] is not None for x in rows)
        assert spent_tokens(tmp_path / "store.sqlite") == server.state.stats()["billed_tokens"]


# ------------------------------------------------------------- 2. every body field in the reservation
@pytest.mark.parametrize("case", B.CASES, ids=lambda c: getattr(c, "__name__", "case"))
def test_every_budget_case_stays_within_its_budget(case, tmp_path) -> None:
    row = case(tmp_path)
    if "run 2 times" in row.case:  # a file run twice outside the runner: the ledger books both outputs
        assert row.booked == row.billed, row
        return
    assert row.billed <= row.budget, row


@pytest.mark.parametrize(
    "extra,match",
    [
        ({"n": 8}, "only the first choice"),
        ({"best_of": 3}, "only the first choice"),
        ({"max_tokens": "8000"}, "a whole number"),
        ({"max_completion_tokens": True}, "a whole number"),
        ({"stream": True}, "stream"),
        ({"messages": []}, "messages"),
    ],
)
def test_an_extra_body_the_budget_cannot_cover_is_refused_before_any_call(server, bench, tmp_path, extra, match):
    with pytest.raises(ValueError, match=match):
        run_judge(cfg(server, bench, tmp_path, extra_body=extra, budget_tokens=10**6))
    assert server.state.requests == 0 and not (tmp_path / "store.sqlite").exists()


def test_the_reservation_reads_the_body_that_is_sent() -> None:
    assert R.completion_reservation({"max_tokens": 2048}) == 2048
    assert R.completion_reservation({"max_tokens": 2048, "max_completion_tokens": 9000}) == 9000
    assert R.completion_reservation({"max_tokens": None}) == R.UNCAPPED_RESERVATION  # null: the server's default
    assert R.completion_reservation({}) == R.UNCAPPED_RESERVATION
    body = {"model": "m", "messages": [{"role": "user", "content": "x" * 300}], "tools": [{"x": "y" * 600}]}
    assert R.prompt_reservation(body) >= len(json.dumps(body)) // 3  # the whole body, tools included


# ----------------------------------------------------------- 3. a drop is capped like a timeout
def test_a_dropped_connection_gets_the_timeout_cap_not_every_attempt(server, bench, tmp_path) -> None:
    s = run_judge(cfg(server, bench, tmp_path, "drop", abort_after=10**6, conditions=["with_gt"]))
    assert s.statuses == {"api_error": 12}, s.statuses
    assert server.state.stats()["billed_calls"] == 12 * 2  # --max-timeout-attempts 2, not --max-attempts 6


def test_the_failure_rate_stop_counts_paid_attempts(server, tmp_path) -> None:
    b = make_toy_bench(20, generators=("qwen3_32b",))
    s = run_judge(cfg(server, b, tmp_path, "drop", abort_after=10, concurrency=4, conditions=["with_gt"]))
    assert s.abort_kind == "failure_rate", s.aborted
    assert server.state.stats()["billed_calls"] <= 10 + 4, server.state.stats()


# --------------------------------------------------------------- 4. one store, one identity
def test_a_copied_store_is_another_store(server, bench, tmp_path) -> None:
    c = cfg(server, bench, tmp_path, conditions=["with_gt"])
    first = run_judge(c)
    shutil.copy(tmp_path / "store.sqlite", tmp_path / "copy.sqlite")  # cp keeps every row, info.store_id too
    n0 = server.state.requests
    with pytest.raises(ValueError, match="holds the export of another run"):
        run_judge(cfg(server, bench, tmp_path, conditions=["with_gt"], store_path=tmp_path / "copy.sqlite"))
    assert server.state.requests == n0
    with Store(tmp_path / "copy.sqlite") as st:
        assert st.store_id != first.store_id
    os.rename(tmp_path / "store.sqlite", tmp_path / "moved.sqlite")  # mv: the same file, the same store
    again = run_judge(cfg(server, bench, tmp_path, conditions=["with_gt"], store_path=tmp_path / "moved.sqlite"))
    assert again.store_id == first.store_id and again.cached == 12 and server.state.requests == n0


def test_the_hard_link_message_does_not_lead_into_a_copy_that_shares_the_id(tmp_path) -> None:
    with Store(tmp_path / "a.sqlite"):
        pass
    os.link(tmp_path / "a.sqlite", tmp_path / "b.sqlite")
    with pytest.raises(StoreDamagedError) as err:
        Store(tmp_path / "b.sqlite")
    assert "rm " in str(err.value) and "its own store id" in str(err.value), err.value


# ------------------------------------------------------------------------------ 5. small ones
def test_litellms_invalid_model_name_is_fatal(server, tmp_path) -> None:
    r = run_cli(cli_args(server.url, tmp_path, "badmodel400"))
    assert r.returncode == 4, (r.returncode, r.stderr)
    assert server.state.requests == 1 and "Invalid model name" in r.stderr


def test_a_larger_limit_extends_the_pilot(server, tmp_path) -> None:
    b = make_toy_bench(12, generators=("qwen3_32b",))
    recs = b.records
    for n in range(1, len(recs)):
        assert set(stratified_ids(recs, n, 7)) <= set(stratified_ids(recs, n + 1, 7))  # nested selections
    pilot = run_judge(cfg(server, b, tmp_path, limit=1, conditions=["with_gt"]))
    assert pilot.statuses == {"ok": 3}
    n0 = server.state.requests
    grown = run_judge(cfg(server, b, tmp_path, limit=5, conditions=["with_gt"]))  # no --replace-export
    assert grown.cached == 3 and server.state.requests - n0 == 5 * 3 - 3
    rows = [json.loads(x) for x in Path(grown.files[0]).read_text().splitlines()]
    assert len(rows) == 15 and json.loads(Path(grown.files[1]).read_text())["selection"]["limit"] == 5
    everything = run_judge(cfg(server, b, tmp_path, limit=None, conditions=["with_gt"]))
    assert everything.cached == 15
    with pytest.raises(ValueError, match="another selection"):  # a smaller one would drop items from the export
        run_judge(cfg(server, b, tmp_path, limit=2, conditions=["with_gt"]))
    with pytest.raises(ValueError, match="another selection"):  # other conditions are not an extension
        run_judge(cfg(server, b, tmp_path, limit=None, conditions=["with_gt", "without_gt"]))


def test_a_seed_that_selects_nothing_is_not_another_selection(tmp_path) -> None:
    """The seed picks items only through a limit (the stratified subset) and the corrupted_gt donors:
    over every record with other conditions, a run with another seed (notebook 15 in a parameter file
    that changes `seed` for its bootstraps) asks the same items and may rewrite the export."""
    b = make_toy_bench(12, generators=("qwen3_32b",))

    def static(seed: int, **kw):
        base = dict(name="s", backend="static", bench=b, out_dir=tmp_path / "runs", progress=False, seed=seed)
        return run_judge(RunConfig(**{**base, "conditions": ["with_gt", "without_gt"], **kw}))

    static(1)
    again = static(2)  # every record, no donors: the same items
    meta = json.loads(Path(again.files[1]).read_text())
    assert meta["selection"]["seed"] == 2
    with pytest.raises(ValueError, match="another selection.*seed 2 -> 3"):  # three other records
        static(3, limit=3)
    static(4, conditions=["corrupted_gt"], replace_export=True)
    with pytest.raises(ValueError, match="another selection.*seed 4 -> 5"):  # other donors
        static(5, conditions=["corrupted_gt"])


def _fragments(secret: str, n: int = 10) -> list[str]:
    return [secret[i : i + n] for i in range(len(secret) - n + 1)]


@pytest.mark.parametrize("model", ["echocut", "echocutreply"])
def test_cut_echoes_of_the_authorization_value_are_masked(server, tmp_path, model) -> None:
    pw = "Tr0ub4dor-horse-battery"
    url = server.url.replace("http://", f"http://alice:{pw}@")
    basic = base64.b64encode(f"alice:{pw}".encode()).decode()
    args = cli_args(url, tmp_path, model, "--conditions", "with_gt", "--abort-after", "1000")
    r = run_cli(args)
    assert server.state.auth_headers[-1] == f"Basic {basic}"  # what was sent, and cut by 7 characters in the echo
    blobs = [p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()] + [r.stdout.encode(), r.stderr.encode()]
    for frag in _fragments(basic[1:]) + _fragments(pw):
        assert not any(frag.encode() in b for b in blobs), frag
    bearer = run_cli(cli_args(server.url, tmp_path, model, "--conditions", "with_gt", "--name", "k", "--store",
                              str(tmp_path / "k.sqlite")))  # fmt: skip
    for frag in _fragments(SECRET):
        assert frag not in bearer.stdout + bearer.stderr
        assert not any(frag.encode() in p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()), frag


def test_redact_masks_fragments_but_not_common_words() -> None:
    from ajb_judge.backends import redact

    key = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx"
    assert redact(f"saw {key[5:-3]} here", (key,)) == "saw *** here"
    assert redact("a hunter went hunting", ("hunter2secret",)) == "a hunter went hunting"  # < 10 characters
    assert redact("the password hunter2secret", ("hunter2secret",)) == "the password ***"


def test_https_goes_through_the_proxy_the_environment_names_unless_no_proxy(bench, tmp_path, monkeypatch) -> None:
    # (that the client never retries on its own: test_retry_policy_... counts 3 requests per unit at --max-attempts 3)
    monkeypatch.setenv("https_proxy", "http://proxy.invalid:3128")
    monkeypatch.setenv("no_proxy", "near.invalid")
    far = R._make_backend(cfg(type("S", (), {"url": "https://far.invalid/v1"})(), bench, tmp_path))
    near = R._make_backend(cfg(type("S", (), {"url": "https://near.invalid/v1"})(), bench, tmp_path))
    assert far._pools[0].proxy == "http://proxy.invalid:3128" and near._pools[0].proxy is None
    assert far._pools[0].url == "https://far.invalid/v1"
