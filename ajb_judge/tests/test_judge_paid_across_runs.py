"""Issue 50: a second run name does not pay again for answers already paid. An identical request
(same run hash: model, decoding, extra body, response format, seed; same messages) answered ok in
another run's store under the same --out is reused read-only (recorded with reused_from, 0 tokens),
counted on the counting fake server's side: billed calls."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from ajb_judge import run_judge  # noqa: E402
from ajb_judge.store import Store  # noqa: E402
from fake_openai_server import FakeServer  # noqa: E402
from runner_support import cfg, wait_until_idle  # noqa: E402


def billed(server) -> int:
    return wait_until_idle(server.state.stats)["billed_calls"]


def run(server, bench, tmp_path, name: str, model: str = "good", **kw):
    return run_judge(cfg(server, bench, tmp_path, model, name=name, store_path=None, **kw))


def test_a_second_name_reuses_what_the_first_paid(server, bench, tmp_path) -> None:
    a = run(server, bench, tmp_path, "nu_a", conditions=["without_gt"])
    paid_a = billed(server)
    assert a.statuses == {"ok": a.n_units} and paid_a == a.calls > 0
    b = run(server, bench, tmp_path, "nu_b", conditions=["without_gt"], limit=2)  # a subset of nu_a's prompts
    assert billed(server) == paid_a  # nothing billed again
    assert b.statuses == {"ok": b.n_units} and b.calls == 0 and b.reused == b.n_units
    assert "answered from other runs' stores" in str(b) and "nu_a" in str(b)
    with Store(tmp_path / "runs" / ".store" / "nu_b.sqlite", lock=False) as st:
        rows = list(st.rows([b.run_hash]))
    assert rows and all(r["prompt_tokens"] == 0 and r["reused_from"].startswith("nu_a.sqlite:") for r in rows)
    exported = [json.loads(x) for x in Path(b.files[0]).read_text().splitlines()]
    with Store(tmp_path / "runs" / ".store" / "nu_a.sqlite", lock=False) as st:
        a_rows = {r["key"]: r for r in st.rows([a.run_hash])}
    assert all(a_rows[r["key"]]["parsed"] == r["parsed"] for r in rows)  # the same verdicts
    assert all(row["judge_status"]["without_gt"]["status"] == "ok" for row in exported)


def test_a_dry_run_does_not_count_what_another_store_answers(server, bench, tmp_path, capsys) -> None:
    from ajb_judge.cli import _print_summary

    a = run(server, bench, tmp_path, "nu_a", conditions=["without_gt"], limit=2)
    d = run(server, bench, tmp_path, "nu_b", conditions=["without_gt"], dry_run=True)
    assert d.reused_elsewhere == {"nu_a.sqlite": a.n_units}
    assert sum(v["units"] for v in d.estimate["calls"].values()) == d.n_units - a.n_units
    _print_summary(d)
    assert f"not counted: {a.n_units} units answered by identical requests" in capsys.readouterr().out
    paid = billed(server)
    b = run(server, bench, tmp_path, "nu_b", conditions=["without_gt"])
    assert billed(server) - paid == b.calls == sum(v["calls"] for v in d.estimate["calls"].values())


def test_only_what_was_not_paid_is_billed(server, bench, tmp_path) -> None:
    run(server, bench, tmp_path, "nu_a", conditions=["without_gt"], limit=2)
    paid_a = billed(server)
    b = run(server, bench, tmp_path, "nu_b", conditions=["without_gt", "with_gt"])  # more records, one more condition
    assert billed(server) - paid_a == b.calls and b.reused > 0
    assert b.calls + b.reused == b.n_units and b.statuses == {"ok": b.n_units}


def test_another_model_or_decoding_pays_again(server, bench, tmp_path) -> None:
    from ajb_judge.backends import Decoding

    a = run(server, bench, tmp_path, "nu_a", conditions=["without_gt"])
    paid_a = billed(server)
    b = run(server, bench, tmp_path, "nu_b", "good+think", conditions=["without_gt"])
    assert b.reused == 0 and billed(server) - paid_a == b.calls == a.calls
    c = run(server, bench, tmp_path, "nu_c", conditions=["without_gt"], decoding=Decoding(temperature=0.7))
    assert c.reused == 0 and c.calls == a.calls


def test_an_unreadable_store_beside_it_is_skipped_and_said(server, bench, tmp_path) -> None:
    other = tmp_path / "runs" / ".store" / "broken.sqlite"
    other.parent.mkdir(parents=True)
    other.write_bytes(b"not a database at all" * 100)
    s = run(server, bench, tmp_path, "nu_a", conditions=["without_gt"])
    assert s.statuses == {"ok": s.n_units} and billed(server) == s.calls
    assert "broken.sqlite" in str(s) and "not read" in str(s)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    runs=st.lists(
        st.tuples(
            st.sampled_from(["nu_a", "nu_b", "nu_c"]),
            st.sampled_from([None, 1, 2, 3]),
            st.sampled_from([("with_gt",), ("without_gt",), ("with_gt", "without_gt")]),
            st.sampled_from(["good", "good+think"]),
        ),
        min_size=2,
        max_size=4,
    )
)
def test_no_identical_request_is_sent_twice_across_names(bench, tmp_path_factory, runs) -> None:
    """Random sequences of runs (names, limits, conditions, models) under one --out: the counting server
    sees every (model, messages) request once, whatever run name asked it first."""
    tmp = tmp_path_factory.mktemp("seq")
    with FakeServer() as server:
        for i, (name, limit, conds, model) in enumerate(runs):
            s = run(server, bench, tmp, name, model, limit=limit, conditions=list(conds), replace_export=True)
            assert s.statuses == {"ok": s.n_units}, (i, s.statuses)
        wait_until_idle(server.state.stats)
        twice = {k: n for k, n in server.state.seen.items() if n > 1}
    assert not twice, (runs, twice)
