"""Builds keyed by content (`build_bench`: the tidy frames as Parquet).

Every test points the caches at its own tmp_path (never the repository's data/cache/).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

import ajb_utils.cache as bench_cache
import ajb_utils.data as data_mod
from ajb_utils import paths
from ajb_utils.data import load_bench
from mini_repo import write_mini_repo

FRAMES = ("records", "generations", "verdicts", "exclusions", "judges")
BUILD_NOTE = "read from the built bench"


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch) -> Path:
    """Return this test's cache folder ($AJB_CACHE_DIR under tmp_path)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(bench_cache.CACHE_ENV, str(folder))
    return folder


def _judge_rows(root: Path) -> list[dict]:
    """Return the rows of the mini repo's judge config."""
    path = root / "data" / "judge_gpt_5_4.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write_rows(path: Path, rows: list[dict]) -> None:
    """Write rows as JSON lines."""
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def _score(bench, rid: str, difficulty: str, metric: str) -> float:
    """Return the judge's with-GT verdict of one row and metric."""
    v = bench.verdicts
    row = v[
        (v["id"] == rid) & (v["difficulty"] == difficulty) & (v["condition"] == "with_gt") & (v["metric"] == metric)
    ]
    assert len(row) == 1
    return float(row["llm_score"].iloc[0])


def _from_cache(bench) -> bool:
    """Return True when the bench was read from a build."""
    return any(BUILD_NOTE in m for m in bench.messages)


def _build(root: Path, **kw) -> str:
    """Return the name of the build folder `load_bench(root, **kw)` reads."""
    return data_mod.build_bench(root, **kw).name


@pytest.mark.parametrize("cache", [True, False], ids=["tidy-cache", "no-tidy-cache"])
def test_an_edit_of_a_local_mirror_is_read_again(tmp_path, cache):
    """Issue 14.1: a verdict changed from 1.0 to 0.5 (same file size) and a dropped generation
    row are seen by the next load, with and without the build."""
    root = write_mini_repo(tmp_path / "mirror", "nested")
    first = load_bench(root, runs=None, cache=cache)
    rows = _judge_rows(root)
    assert rows[0]["with_gt"]["tool_selection"]["llm_score"] == 1.0
    size = (root / "data" / "judge_gpt_5_4.jsonl").stat().st_size
    rows[0]["with_gt"]["tool_selection"]["llm_score"] = 0.5
    _write_rows(root / "data" / "judge_gpt_5_4.jsonl", rows)
    assert (root / "data" / "judge_gpt_5_4.jsonl").stat().st_size == size
    gen_path = root / "data" / "gpt5_4.jsonl"
    gen_rows = gen_path.read_text().splitlines()
    _write_rows(gen_path, [json.loads(line) for line in gen_rows[1:]])

    second = load_bench(root, runs=None, cache=cache)
    rid, diff = rows[0]["id"], rows[0]["difficulty"]
    assert _score(first, rid, diff, "tool_selection") == 1.0
    dropped = json.loads(gen_rows[0])
    keys = set(zip(second.generations["id"], second.generations["difficulty"]))
    assert (dropped["id"], dropped["difficulty"]) not in keys
    assert len(second.generations) == len(first.generations) - 1
    if (rid, diff) in keys:
        assert _score(second, rid, diff, "tool_selection") == 0.5
    assert _from_cache(second) == cache


def test_folders_with_the_same_basename_do_not_share_data(tmp_path):
    """Issue 14.1: two mirrors called `r` in different places give their own verdicts."""
    a = write_mini_repo(tmp_path / "a" / "r", "nested")
    b = write_mini_repo(tmp_path / "b" / "r", "nested")
    rows = _judge_rows(b)
    for row in rows:
        row["with_gt"]["tool_selection"]["llm_score"] = 0.0
    _write_rows(b / "data" / "judge_gpt_5_4.jsonl", rows)
    bench_a = load_bench(a, runs=None)
    bench_b = load_bench(b, runs=None)
    sel = (bench_b.verdicts["condition"] == "with_gt") & (bench_b.verdicts["metric"] == "tool_selection")
    assert (bench_b.verdicts.loc[sel, "llm_score"] == 0.0).all()
    sel_a = (bench_a.verdicts["condition"] == "with_gt") & (bench_a.verdicts["metric"] == "tool_selection")
    assert (bench_a.verdicts.loc[sel_a, "llm_score"] > 0).any()
    assert _build(a, runs=None) != _build(b, runs=None)


def test_a_copied_source_hits_the_same_build_and_a_changed_byte_misses(tmp_path, own_cache):
    """Keyed by content, not by folder: an identical copy elsewhere (another name too) reads the
    same build, its messages naming its own files; one byte changed in the copy is a new build."""
    a = write_mini_repo(tmp_path / "a" / "r", "nested")
    lines = (a / "data" / "judge_gpt_5_4.jsonl").read_text().splitlines()
    (a / "data" / "judge_gpt_5_4.jsonl").write_text("\n".join([lines[0], "{not json", *lines[1:]]) + "\n")
    b = tmp_path / "b" / "copy"
    shutil.copytree(a, b)
    first = load_bench(a, runs=None)
    copy = load_bench(b, runs=None)
    assert _build(a, runs=None) == _build(b, runs=None) and _from_cache(copy)
    assert len(list((own_cache / "bench").glob("*"))) == 1
    pd.testing.assert_frame_equal(copy.verdicts, first.verdicts, check_exact=True)
    said = [m for m in copy.messages if "malformed" in m]
    assert said and str(b) in said[0] and str(a) not in said[0] and copy.label != first.label
    judge = b / "data" / "judge_gpt_5_4.jsonl"
    judge.write_bytes(judge.read_bytes().replace(b'"llm_score": 1.0', b'"llm_score": 0.0', 1))
    assert _build(b, runs=None) != _build(a, runs=None)
    assert len(list((own_cache / "bench").glob("*"))) == 2


def test_a_build_hashes_the_bytes_it_reads_and_reads_no_file_twice(tmp_path, own_cache, monkeypatch):
    """The inputs' digests come from the build's own read (no second read to hash them; each data
    file read once); a later load finds the build from the remembered digests, reading only the
    card (which names the files)."""
    root = write_mini_repo(tmp_path / "r", "nested")
    reads: list[str] = []
    read_input = bench_cache.read_input
    monkeypatch.setattr(bench_cache, "read_input", lambda path: reads.append(Path(path).name) or read_input(path))
    monkeypatch.setattr(bench_cache, "hash_file", lambda path: pytest.fail(f"{path} read again to be hashed"))
    data_mod.build_bench(root, runs=None)
    data = [name for name in reads if name != "README.md"]
    assert sorted(data) == sorted(p.name for p in (root / "data").glob("*.jsonl"))  # each once
    reads.clear()
    assert _from_cache(load_bench(root, runs=None)) and set(reads) == {"README.md"}
    path = root / "data" / "main.jsonl"
    assert bench_cache.file_digests([path], read=False)[str(path.resolve())] == bench_cache.digest(path.read_bytes())


def test_cached_frames_equal_the_loaded_frames(tmp_path):
    """The cache holds exactly what the loader produces: dtypes, categories and their order,
    call lists, None vs NaN, provenance."""
    root = write_mini_repo(tmp_path / "r", "nested")
    fresh = load_bench(root, cache=False)
    cached = load_bench(root)
    assert _from_cache(cached) and not _from_cache(fresh)
    for name in FRAMES:
        pd.testing.assert_frame_equal(
            getattr(cached, name), getattr(fresh, name), check_exact=True, check_categorical=True
        )
    for name in ("records", "generations", "verdicts"):
        for col, dtype in getattr(fresh, name).dtypes.items():
            if isinstance(dtype, pd.CategoricalDtype):
                assert getattr(cached, name)[col].cat.categories.tolist() == dtype.categories.tolist()
    assert (cached.revision, cached.synthetic, cached.label, cached.source) == (
        fresh.revision,
        fresh.synthetic,
        fresh.label,
        fresh.source,
    )
    assert cached.messages[:-1] == fresh.messages


def test_the_embedded_sample_round_trips_through_the_cache():
    """The sample (3 M-row layout in miniature) reads back identical from the cache."""
    for justifications in (False, True):
        fresh = load_bench("sample", justifications=justifications, cache=False)
        cached = load_bench("sample", justifications=justifications)
        assert _from_cache(cached)
        for name in FRAMES:
            pd.testing.assert_frame_equal(getattr(cached, name), getattr(fresh, name), check_exact=True)
    assert "justification" in cached.verdicts and "justification" not in fresh.verdicts.iloc[:0].drop(
        columns="justification"
    )


def test_cache_false_bypasses_the_cache(tmp_path, own_cache):
    root = write_mini_repo(tmp_path / "r", "nested")
    load_bench(root, runs=None, cache=False)
    assert not (own_cache / "bench").exists()
    load_bench(root, runs=None)
    assert len(list((own_cache / "bench").glob("*"))) == 1
    assert not _from_cache(load_bench(root, runs=None, cache=False))
    assert _from_cache(load_bench(root, runs=None))
    assert len(list((own_cache / "bench").glob("*"))) == 1  # one build, with or without rationales
    load_bench(root, runs=None, justifications=True)
    assert len(list((own_cache / "bench").glob("*"))) == 1


def test_arguments_are_part_of_the_key(tmp_path):
    root = write_mini_repo(tmp_path / "r", "nested")
    first = _build(root, runs=None)
    assert _build(root, runs=None, judges=["judge_gpt_5_4"]) != first
    assert _build(root, runs="shipped") != first
    assert _build(root, runs=None) == first


def test_a_new_run_file_invalidates(tmp_path):
    """A judge run written to <source>/runs after a load is part of the next load."""
    root = write_mini_repo(tmp_path / "r", "nested")
    assert "my_judge" not in load_bench(root).judges["judge"].tolist()
    before = _build(root)
    (root / "runs").mkdir()
    _write_rows(root / "runs" / "my_judge.jsonl", _judge_rows(root))
    bench = load_bench(root)
    assert _build(root) != before
    assert "my_judge" in bench.judges["judge"].tolist()


def test_loader_code_and_package_version_are_part_of_the_key(tmp_path, monkeypatch):
    root = write_mini_repo(tmp_path / "r", "nested")
    first = _build(root, runs=None)
    assert _build(root, runs=None) == first
    monkeypatch.setattr(bench_cache, "code_fingerprint", lambda: "another loader")
    second = _build(root, runs=None)
    assert second != first
    monkeypatch.setattr(bench_cache, "__version__", "99.0")
    assert _build(root, runs=None) not in (first, second)


def test_code_fingerprint_covers_every_source_file_of_the_package(tmp_path):
    """A copy of the package has the same fingerprint; an edit of any module (the loader's, or
    one it only reaches through another, like calls.py) or a new module changes it."""
    copy = tmp_path / "ajb_utils"
    shutil.copytree(bench_cache.PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = bench_cache.code_fingerprint(copy)
    assert before == bench_cache.code_fingerprint()
    for edit in ("calls.py", "data/build.py", "scoring.py"):
        path = copy / edit
        text = path.read_text()
        path.write_text(text + "\n# an edit\n")
        assert bench_cache.code_fingerprint(copy) != before, edit
        path.write_text(text)
    assert bench_cache.code_fingerprint(copy) == before
    (copy / "data" / "new.py").write_text("")
    assert bench_cache.code_fingerprint(copy) != before


def test_stale_entries_of_a_source_are_removed(tmp_path, own_cache):
    root = write_mini_repo(tmp_path / "r", "nested")
    load_bench(root, runs=None)
    rows = _judge_rows(root)
    rows[0]["with_gt"]["tool_selection"]["llm_score"] = 0.5
    _write_rows(root / "data" / "judge_gpt_5_4.jsonl", rows)
    load_bench(root, runs=None)
    assert len(list((own_cache / "bench").glob("*"))) == 1


def test_file_digest_sees_same_size_edits_even_with_mtime_restored(tmp_path, own_cache):
    path = tmp_path / "f.jsonl"
    path.write_text('{"llm_score": 1.0}\n')
    first = bench_cache.file_digests([path])[str(path.resolve())]
    st = path.stat()
    path.write_text('{"llm_score": 0.5}\n')
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # mtime set back; ctime still moves
    second = bench_cache.file_digests([path])[str(path.resolve())]
    assert first != second
    assert second == bench_cache.hash_file(path)
    assert bench_cache.file_digests([tmp_path / "absent"]) == {str((tmp_path / "absent").resolve()): "missing"}


def test_digests_remembered_by_an_older_hash_are_not_trusted(tmp_path, own_cache):
    """A memo left by a version that hashed another way (xxh128's 32 hex digits under the old file
    name) is not read as SHA-256: the file is hashed again (a stale memo changed a source's revision)."""
    path = tmp_path / "f.jsonl"
    path.write_text('{"llm_score": 1.0}\n')
    st = path.stat()
    signature = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
    old = {str(path.resolve()): [*signature, "ad299a17ac85d725415a4a7dab907595"]}
    own_cache.mkdir(parents=True, exist_ok=True)
    (own_cache / "file_digests.json").write_text(json.dumps(old))
    assert bench_cache.file_digests([path])[str(path.resolve())] == bench_cache.hash_file(path)


def test_an_input_edited_during_the_build_is_not_kept(tmp_path, own_cache, monkeypatch):
    """A file that changes while the build reads it: an error saying so, and no build kept."""
    root = write_mini_repo(tmp_path / "r", "nested")
    read = data_mod.read_bench

    def read_and_edit(*args, **kwargs):
        """Read the source, then change one of its files (as a download still being written)."""
        bench = read(*args, **kwargs)
        path = root / "data" / "judge_gpt_5_4.jsonl"
        path.write_text(path.read_text() + "\n")
        return bench

    monkeypatch.setattr(data_mod, "read_bench", read_and_edit)
    with pytest.raises(data_mod.BenchDataError, match="changed while it was read"):
        load_bench(root, runs=None)
    assert not list((own_cache / "bench").glob("*"))
    monkeypatch.setattr(data_mod, "read_bench", read)
    assert _from_cache(load_bench(root, runs=None))


def test_revision_of_a_local_folder_follows_its_content(tmp_path):
    """Issue 14.1: the recorded revision changes with a same-size edit, and only then."""
    root = write_mini_repo(tmp_path / "r", "nested")
    first = load_bench(root, runs=None, cache=False).revision
    assert load_bench(root, runs=None, cache=False).revision == first
    rows = _judge_rows(root)
    rows[0]["with_gt"]["tool_selection"]["llm_score"] = 0.5  # 1.0 -> 0.5: same size
    _write_rows(root / "data" / "judge_gpt_5_4.jsonl", rows)
    assert load_bench(root, runs=None, cache=False).revision != first


def test_a_relative_folder_resolves_from_the_repository_root(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert data_mod.resolve_source("data/sample").location == str(paths.SAMPLE_DIR)


def test_frames_of_every_column_kind_round_trip(tmp_path):
    """Categoricals (unused and ordered categories), str-or-None objects, nested objects,
    NaN in objects, floats, ints, bools, empty frames and frames of objects only."""
    frames = {
        "mixed": pd.DataFrame(
            {
                "cat": pd.Categorical(["b", "a", "b"], categories=["z", "b", "a"], ordered=True),
                "text": pd.Series(["x", None, "y"], dtype=object),
                "calls": pd.Series([[{"name": "f", "arguments": {"k": None}}], [], None], dtype=object),
                "odd": pd.Series(["q", {"weird": [1, 2]}, float("nan")], dtype=object),
                "f32": pd.Series([1.0, float("nan"), 0.5], dtype="float32"),
                "i": [1, 2, 3],
                "flag": [True, False, True],
                "s": ["u", "v", "w"],
            }
        ),
        "empty": pd.DataFrame({"a": pd.Series([], dtype=float), "b": pd.Series([], dtype=object)}),
        "objects_only": pd.DataFrame({"calls": pd.Series([[1], {"a": 2}], dtype=object)}),
    }
    for name, frame in frames.items():
        layout = bench_cache.write_frame(frame, tmp_path, name)
        back = bench_cache.read_frame(tmp_path, name, layout)
        pd.testing.assert_frame_equal(back, frame, check_exact=True)
    back = bench_cache.read_frame(tmp_path, "mixed", bench_cache.write_frame(frames["mixed"], tmp_path, "mixed"))
    assert back["text"].tolist() == ["x", None, "y"]
    assert back["odd"].iloc[2] != back["odd"].iloc[2]  # NaN stays NaN, not None


NAMES = st.text(alphabet="abz_", min_size=1, max_size=3)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)
KINDS = ("category", "justification", "text", "json", "float32", "float64", "int", "bool", "str")


@st.composite
def random_frames(draw) -> pd.DataFrame:
    """Return a frame of random columns of the kinds a Bench holds: categoricals (unused categories, any
    order, ordered or not, missing cells), the rationales' categorical (of one row or more), objects of str
    or None, objects of JSON values (call lists, tool schemas; None and NaN cells), floats with NaN, ints,
    bools, str."""
    n = draw(st.integers(0, 5))
    cells = lambda values: draw(st.lists(values, min_size=n, max_size=n))  # noqa: E731
    frame = {}
    for i, kind in enumerate(draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=6))):
        if kind == "justification" and n == 0:  # no rows: Parquet keeps no dictionary, so no categories
            kind = "category"
        name = "justification" if kind == "justification" else f"{kind}_{i}"
        if kind in ("category", "justification"):
            categories = draw(st.lists(NAMES, min_size=1, max_size=4, unique=True))
            ordered = kind == "category" and draw(st.booleans())
            frame[name] = pd.Categorical(cells(st.sampled_from(categories) | st.none()), categories, ordered)
        elif kind == "text":
            frame[name] = pd.Series(cells(st.text(max_size=4) | st.none()), dtype=object)
        elif kind == "json":
            frame[name] = pd.Series(cells(JSON_VALUES | st.just(float("nan"))), dtype=object)
        elif kind.startswith("float"):
            frame[name] = np.array(cells(st.floats(width=32) | st.just(float("nan"))), dtype=kind)
        elif kind == "str":
            frame[name] = pd.Series(cells(st.text(max_size=4) | st.none()), dtype="str")
        else:
            frame[name] = np.array(cells(st.integers(-(2**62), 2**62) if kind == "int" else st.booleans()))
    return pd.DataFrame(frame, index=pd.RangeIndex(n))


@given(random_frames())
@settings(max_examples=150, deadline=None)
def test_random_frames_round_trip_exactly(frame):
    """A frame written by `write_frame` reads back equal: dtypes, categories in their order (unused ones
    too) and the ordered flag, None and NaN cells of object columns, JSON values."""
    with tempfile.TemporaryDirectory() as tmp:
        back = bench_cache.read_frame(Path(tmp), "f", bench_cache.write_frame(frame, Path(tmp), "f"))
    pd.testing.assert_frame_equal(back, frame, check_exact=True, check_categorical=True)
    for col, dtype in frame.dtypes.items():
        if isinstance(dtype, pd.CategoricalDtype):
            assert back[col].cat.categories.tolist() == dtype.categories.tolist()
            assert back[col].cat.ordered == dtype.ordered
    for col in frame.select_dtypes(object).columns:
        assert [type(v) for v in back[col]] == [type(v) for v in frame[col]]  # None stays None, NaN stays NaN


def test_the_random_frames_hold_the_cases_the_round_trip_names():
    """The generator makes an unused category of an ordered categorical, and an object column with a
    None cell beside a NaN cell beside a call list."""

    def unused_ordered(f: pd.DataFrame) -> bool:
        """Return True when an ordered categorical has a category no cell uses."""
        cats = [f[c] for c in f.columns if isinstance(f[c].dtype, pd.CategoricalDtype) and f[c].cat.ordered]
        return any(len(set(s.dropna())) < len(s.cat.categories) for s in cats)

    def none_nan_list(f: pd.DataFrame) -> bool:
        """Return True when one object column holds None, NaN and a list."""
        kinds = [{type(v).__name__ for v in f[c]} for c in f.select_dtypes(object).columns]
        return any({"NoneType", "float", "list"} <= k for k in kinds)

    assert unused_ordered(find(random_frames(), unused_ordered))
    assert none_nan_list(find(random_frames(), none_nan_list))


def test_a_rerun_with_identical_verdicts_keeps_the_hit(tmp_path):
    """A run's .meta.json carries when it was made: that alone must not defeat the cache."""
    root = write_mini_repo(tmp_path / "r", "nested")
    (root / "runs").mkdir()
    _write_rows(root / "runs" / "my_judge.jsonl", _judge_rows(root))
    meta = {"name": "my_judge", "judge": "my_judge", "created_unix": 1_700_000_000}
    (root / "runs" / "my_judge.meta.json").write_text(json.dumps(meta))
    first = _build(root)
    (root / "runs" / "my_judge.meta.json").write_text(json.dumps({**meta, "created_unix": 1_800_000_000}))
    assert _build(root) == first
    (root / "runs" / "my_judge.meta.json").write_text(json.dumps({**meta, "display": "Mine"}))
    assert _build(root) != first  # a field the frames show is content


def test_a_run_rewritten_with_the_same_bytes_reads_the_build_not_the_source(tmp_path, monkeypatch):
    """A judge run rewritten as it was (the static judge re-exports its run at every execution of
    notebook 15) is hashed, not a reason to read every config of the source again."""
    root = write_mini_repo(tmp_path / "r", "nested")
    (root / "runs").mkdir()
    run = root / "runs" / "my_judge.jsonl"
    _write_rows(run, _judge_rows(root))
    first = _build(root)
    run.write_bytes(run.read_bytes())  # same bytes, a new mtime
    monkeypatch.setattr(data_mod, "read_bench", lambda *a, **k: pytest.fail("the source read again"))
    assert _build(root) == first
    assert _from_cache(load_bench(root))


def test_a_hub_build_reads_the_commit_its_key_names(monkeypatch):
    """The build of an unpinned hub load reads the commit its folder is keyed by, not a second
    answer to "what is main now" (a branch that moved meanwhile would file other data under the key)."""
    answers = iter(["a" * 40, "b" * 40])
    monkeypatch.setattr(data_mod, "hub_commit", lambda repo, revision=None, **kw: next(answers))
    asked: list[str | None] = []

    def read_bench(res, *args, **kwargs):
        """Record the revision the build reads, then stop."""
        asked.append(res.revision)
        raise RuntimeError("stop after the read is asked")

    monkeypatch.setattr(data_mod, "read_card", lambda src, revision: data_mod.Card({}))
    monkeypatch.setattr(data_mod, "read_bench", read_bench)
    with pytest.raises(RuntimeError, match="stop after"):
        data_mod.build_bench("hf", runs=None)
    assert asked == ["a" * 40]


CALL_COLUMNS = {"records": ("tools", "expected_calls"), "generations": ("generated_calls",)}
SUBSETS = [
    [],
    ["tools"],
    ["expected_calls"],
    ["generated_calls"],
    ["tools", "expected_calls"],
    ["tools", "generated_calls"],
    ["expected_calls", "generated_calls"],
    ["generated_calls", "expected_calls", "tools"],
]


@pytest.mark.parametrize("calls", [False, True, *SUBSETS])
def test_a_load_with_some_call_columns_reads_every_other_column_as_the_full_load(calls):
    """calls (True, False, or the names of call columns) leaves out the other call columns, and
    only them: a projection of the full load."""
    full, part = load_bench("sample"), load_bench("sample", calls=calls)
    every = {c for cols in CALL_COLUMNS.values() for c in cols}
    kept_calls = every if calls is True else set() if calls is False else set(calls)
    for name in FRAMES:
        frame = getattr(full, name)
        left_out = set(CALL_COLUMNS.get(name, ())) - kept_calls
        assert set(frame.columns) - set(getattr(part, name).columns) == left_out
        kept = [c for c in frame.columns if c not in left_out]
        pd.testing.assert_frame_equal(getattr(part, name), frame[kept], check_exact=True)


@pytest.mark.parametrize(
    "calls", [["tool"], ["tools", "justification"], ["id"], "tools", None, 1, [None], {"tools": 1}]
)
def test_a_call_column_the_bench_does_not_have_is_named(calls):
    """An unknown call column (or one name given as a bare string) is a one-line error naming it."""
    with pytest.raises(data_mod.BenchDataError, match="call column"):
        load_bench("sample", calls=calls)
