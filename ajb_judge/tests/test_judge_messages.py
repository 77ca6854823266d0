"""Issue 50's messages: a --limit beyond the source says so and records what was selected; a run
that ends with null verdicts says how many and names --retry-errors in its "next:" line; without
the [judge] extra, --backend openai names the extra in its one-line error (and calls nothing)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from ajb_judge import RunConfig, run_judge  # noqa: E402
from runner_support import CLI_ENV, cli_args  # noqa: E402


def run_cli(args: list[str], env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, env=env or CLI_ENV, timeout=300)


def static_args(tmp_path: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "ajb_judge", "run", "--source", "toy:3", "--name", "lim", "--out",
            str(tmp_path / "runs"), "--no-progress", *extra]  # fmt: skip


# ------------------------------------------------------------------------- a limit beyond the source
@pytest.mark.parametrize("limit", [3, 4, 500])
def test_a_limit_beyond_the_source_says_so_and_records_every_record(tmp_path, limit) -> None:
    r = run_cli(static_args(tmp_path, "--limit", str(limit)))
    assert r.returncode == 0, r.stderr
    meta = json.loads((tmp_path / "runs" / "lim.meta.json").read_text())
    n = len({row["id"] for row in map(json.loads, (tmp_path / "runs" / "lim.jsonl").read_text().splitlines())})
    assert n == 3  # toy:3 has three records
    assert meta["selection"]["limit"] is None  # what was selected: every record (not the number asked)
    said = f"--limit {limit} asks for at least the source's 3 records: all 3 selected"
    assert said in r.stdout
    again = run_cli(static_args(tmp_path))  # the same selection, said without a limit: the same export
    assert again.returncode == 0, again.stderr
    assert "--limit" not in again.stdout.split("next:")[0]


def test_a_limit_within_the_source_is_recorded_as_asked(tmp_path) -> None:
    r = run_cli(static_args(tmp_path, "--limit", "2"))
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "runs" / "lim.meta.json").read_text())["selection"]["limit"] == 2
    assert "selected" not in r.stdout.split("next:")[0]


def test_the_python_api_normalises_the_limit_too(bench, tmp_path) -> None:
    s = run_judge(RunConfig(name="api", bench=bench, limit=10**6, out_dir=tmp_path, progress=False))
    assert any("all 4 selected" in w for w in s.warnings)
    assert json.loads((tmp_path / "api.meta.json").read_text())["selection"]["limit"] is None


# ------------------------------------------------------------------- null verdicts name --retry-errors
@pytest.mark.parametrize("model", ["garbage", "truncated", "good"])
def test_null_verdicts_are_counted_in_the_next_line_with_retry_errors(server, tmp_path, model) -> None:
    r = run_cli(cli_args(server.url, tmp_path, model, "--conditions", "with_gt", "--abort-after", "1000"))
    assert r.returncode in (0, 6), r.stderr
    statuses = eval(re.search(r"^statuses: (\{.*\})$", r.stdout, re.M).group(1))  # noqa: S307 - our own dict repr
    null = sum(v for k, v in statuses.items() if k != "ok")
    nxt = [line for line in r.stdout.splitlines() if line.startswith("next:")]
    assert len(nxt) == 1
    if null:
        assert f"{null} of {sum(statuses.values())} verdicts are null" in nxt[0] and "--retry-errors" in nxt[0]
    else:
        assert "--retry-errors" not in nxt[0] and "null" not in nxt[0]


def test_retry_note_names_the_flag_each_status_needs() -> None:
    from ajb_judge.cli import retry_note

    assert retry_note({"ok": 10}) is None
    note = retry_note({"ok": 8, "parse_error": 3, "truncated": 1, "refused": 2, "ambiguous": 1})
    assert note.startswith("7 of 15 verdicts are null (ambiguous 1, parse_error 3, refused 2, truncated 1)")
    assert "--retry-errors re-sends the 4" in note
    assert "--retry-permanent" in note and "--retry-ambiguous" in note


# --------------------------------------------------------------- the [judge] extra missing
@pytest.mark.parametrize("module", ["aiohttp", "orjson"])
def test_a_missing_judge_extra_is_named_in_one_line(server, tmp_path, module) -> None:
    stub = tmp_path / "stub" / module
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text(f"raise ModuleNotFoundError(\"No module named '{module}'\", name='{module}')\n")
    env = {**CLI_ENV, "PYTHONPATH": f"{stub.parent}:{CLI_ENV['PYTHONPATH']}"}  # as after a plain `pip install .`
    r = run_cli(cli_args(server.url, tmp_path, "good"), env)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert "[judge]" in lines[0] and module in lines[0] and "Traceback" not in r.stderr
    assert server.state.requests == 0 and not (tmp_path / "cli.sqlite").exists()


def test_the_static_judge_needs_no_extra(tmp_path) -> None:
    stub = tmp_path / "stub" / "aiohttp"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'aiohttp'\", name='aiohttp')\n")
    env = {**CLI_ENV, "PYTHONPATH": f"{stub.parent}:{CLI_ENV['PYTHONPATH']}"}
    assert run_cli(static_args(tmp_path), env).returncode == 0


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 12), limit=st.one_of(st.none(), st.integers(0, 40)), seed=st.integers(0, 10**6))
def test_recording_no_limit_selects_the_same_items(n, limit, seed) -> None:
    """Whenever the runner records a limit as none, the limit selected every record (same items, either way)."""
    from ajb_judge.conditions import stratified_ids
    from ajb_judge.runner import limit_beyond
    from ajb_judge.toybench import make_toy_bench

    records = make_toy_bench(n, generators=("qwen3_32b",)).records
    said = limit_beyond(limit, len(records))
    chosen = set(stratified_ids(records, limit, seed))
    if said:
        assert chosen == set(stratified_ids(records, None, seed)) and f"all {len(records)} selected" in said
    else:
        assert limit is None or len(chosen) == limit < len(records)
