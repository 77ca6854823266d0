"""A load assembled from content-keyed parts (issue 20): the scored generations and each judge
config's (or run's) verdicts are kept under the cache's parts/, keyed by their files' bytes and
the loader's code, so a load with other `judges=` / `runs=` / `justifications=` reads parts.

Each test has its own cache folder and, when it edits files, its own copy of the sample.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ajb_utils.cache as bench_cache
import ajb_utils.data as data_mod
from ajb_utils import paths
from ajb_utils.data import IncompleteDataError, load_bench

FRAMES = ("records", "generations", "verdicts", "exclusions", "judges")
RUN = "synthetic_claude_large_c2"  # a run shipped with the sample
CASES = {
    "default": {},
    "items only": {"judges": [], "runs": None},
    "justifications": {"runs": None, "justifications": True},
    "a run, justifications": {"runs": [RUN], "justifications": True},
    "one judge and a run": {"judges": ["judge_qwq_32b"], "runs": [RUN]},
}


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch) -> Path:
    """Return this test's cache folder ($AJB_CACHE_DIR under tmp_path)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(bench_cache.CACHE_ENV, str(folder))
    return folder


def _copy(tmp_path: Path) -> Path:
    """Return a copy of the sample (its data files and runs) under tmp_path."""
    root = tmp_path / "s"
    shutil.copytree(paths.SAMPLE_DIR, root, ignore=shutil.ignore_patterns("annotations"))
    return root


def _assert_same(a, b) -> None:
    """Assert two Benches have identical frames, messages (but the cache note) and provenance."""
    for name in FRAMES:
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name), check_exact=True, obj=name)
    note = data_mod.CACHE_NOTE
    assert [m for m in a.messages if note not in m] == [m for m in b.messages if note not in m]
    assert (a.label, a.revision, a.synthetic) == (b.label, b.revision, b.synthetic)


def _forbid(monkeypatch, *names: str) -> None:
    """Make the named functions of the loader fail when called (what an assembled load must not do)."""

    def fail(*args, **kwargs):
        raise AssertionError("the load read or built a part it should have taken from the cache")

    for name in names:
        monkeypatch.setattr(data_mod, name, fail)


def _no_whole_entries(cache: Path) -> None:
    """Remove the tidy-frame cache's whole-load entries (the parts stay)."""
    shutil.rmtree(cache / bench_cache.BENCH_DIR, ignore_errors=True)


@pytest.mark.parametrize("kw", CASES.values(), ids=CASES.keys())
def test_a_load_assembled_from_parts_equals_a_cold_load(kw, own_cache, monkeypatch):
    """After one default load, any other load is assembled from its parts without building the
    generations again (nor reading any file, unless the rationales are asked for), and its frames
    equal a cold cache=False load."""
    load_bench("sample")
    _no_whole_entries(own_cache)
    cold = load_bench("sample", **kw, cache=False)
    _forbid(monkeypatch, "build_records", "build_generations", "judge_verdicts")
    if not kw.get("justifications"):
        _forbid(monkeypatch, "read_config", "read_files")
    _assert_same(load_bench("sample", **kw), cold)


def _edit_one_verdict(path: Path) -> None:
    """Change one with-GT tool-selection verdict of a judge file (1.0 <-> 0.0, same size)."""
    lines = path.read_text().splitlines()
    row = json.loads(lines[0])
    old = row["with_gt"]["tool_selection"]["llm_score"]
    row["with_gt"]["tool_selection"]["llm_score"] = 0.0 if old else 1.0
    lines[0] = json.dumps(row)
    path.write_text("\n".join(lines) + "\n")


def test_a_part_changes_when_its_files_bytes_change(tmp_path, own_cache, monkeypatch):
    """An edited judge file gives new verdicts for that judge (its part is rebuilt, the
    generations' part is reused); an edited generator file rebuilds every part."""
    root = _copy(tmp_path)
    before = load_bench(root)
    _edit_one_verdict(root / "data" / "judge_gpt_5_4.jsonl")
    _no_whole_entries(own_cache)
    cold = load_bench(root, cache=False)
    with monkeypatch.context() as m:
        _forbid(m, "build_generations")
        after = load_bench(root)
    _assert_same(after, cold)
    a, b = before.verdicts["llm_score"].to_numpy(), after.verdicts["llm_score"].to_numpy()
    changed = ~((a == b) | (np.isnan(a) & np.isnan(b)))
    assert changed.sum() == 1 and set(after.verdicts["judge"][changed]) == {"judge_gpt_5_4"}

    gen = root / "data" / "qwen3_32b.jsonl"
    lines = gen.read_text().splitlines(keepends=True)
    gen.write_text("".join([*lines, lines[0]]))  # a generation repeated: a counted duplicate
    _no_whole_entries(own_cache)
    assembled = load_bench(root)
    _assert_same(assembled, load_bench(root, cache=False))
    assert len(assembled.exclusions) == len(after.exclusions) + 1


def test_an_identical_rewrite_keeps_the_parts(tmp_path, own_cache, monkeypatch):
    """A judge file written again with the same bytes (new mtime and inode) is not read again."""
    root = _copy(tmp_path)
    first = load_bench(root)
    path = root / "data" / "judge_qwq_32b.jsonl"
    data = path.read_bytes()
    path.unlink()
    path.write_bytes(data)
    _no_whole_entries(own_cache)
    _forbid(monkeypatch, "read_config", "read_files")
    _assert_same(load_bench(root), first)


def test_a_truncated_judge_file_fails_loudly_when_other_parts_are_cached(tmp_path, own_cache):
    """Issue 20.3 with parts: every other part is kept, the cut file is still an error naming it."""
    root = _copy(tmp_path)
    load_bench(root)
    cut = {
        root / "data" / "judge_qwq_32b.jsonl": {"judges": ["judge_qwq_32b"], "runs": None},
        root / "runs" / f"{RUN}.jsonl": {"judges": [], "runs": [RUN]},
    }
    for path, alone in cut.items():
        data = path.read_bytes()
        path.write_bytes(data[: len(data) * 2 // 3])  # cut mid-line
        for kw in ({}, alone, {"justifications": True}):
            with pytest.raises(IncompleteDataError) as err:
                load_bench(root, **kw)
            assert path.name in str(err.value) and len(str(err.value).splitlines()) == 1
        path.write_bytes(data)
    _assert_same(load_bench(root), load_bench(root, cache=False))


def test_a_skipped_run_stays_skipped_from_its_part(tmp_path, own_cache):
    """A run that is not a judge config (no condition column) is skipped with the same message
    and exclusions whether it is read or its part is."""
    root = _copy(tmp_path)
    rows = [{"id": "x", "generator": "gpt5_4", "difficulty": "easy"}]
    (root / "runs" / "no_conditions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    cold = load_bench(root, cache=False)
    assert any("'no_conditions' skipped" in m for m in cold.messages)
    load_bench(root)
    _no_whole_entries(own_cache)
    _assert_same(load_bench(root), cold)


@pytest.mark.parametrize("process", ["1", "0"])
def test_a_justification_load_over_parts_decodes_the_rationales_alone(process, own_cache, monkeypatch):
    """Over cached verdict parts, a justifications=True load asks the decoder for mode "notes" only (no
    score arrays built again), in the reader process or here, and equals a cold load."""
    import ajb_utils.decode as decode

    load_bench("sample")
    _no_whole_entries(own_cache)
    cold = load_bench("sample", runs=None, justifications=True, cache=False)
    monkeypatch.setenv("AJB_DECODE_PROCESS", process)
    asked: list[str] = []
    real = decode.decoded
    monkeypatch.setattr(decode, "decoded", lambda path, mode: asked.append(mode) or real(path, mode))
    jobs: list[str] = []
    reader = data_mod.JudgeReader
    monkeypatch.setattr(data_mod, "JudgeReader", lambda j: jobs.extend(m for _, m in j) or reader(j))
    _assert_same(load_bench("sample", runs=None, justifications=True), cold)
    assert jobs and set(jobs) == {"notes"} and set(asked) <= {"notes"}
    notes = decode.decoded(paths.SAMPLE_DIR / "data" / "judge_qwq_32b.jsonl", "notes")
    every = decode.decoded(paths.SAMPLE_DIR / "data" / "judge_qwq_32b.jsonl", "all")
    assert not any(k.endswith(("llm_score", "programmatic_score", "match_score")) for k in notes)
    assert {k: v for k, v in every.items() if k.endswith("justification")} == {
        k: v for k, v in notes.items() if k.endswith("justification")
    }
