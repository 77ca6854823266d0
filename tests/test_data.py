"""The loader: both encodings, `datasets` as an independent reader, exclusions, bad input, published-score check."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ajb_utils.data as data_mod
from ajb_utils.data import BenchDataError, check_published_scores, load_bench, resolve_source
from ajb_utils.schema import CONDITIONS, GENERATORS, METRICS, canonical_generator
from mini_repo import write_mini_repo

KEY = ["id", "generator", "difficulty", "judge", "condition", "metric"]


def _load(tmp_path: Path, encoding: str):
    """Return the mini repo loaded with one encoding."""
    root = write_mini_repo(tmp_path / encoding, encoding)
    return load_bench(root, runs=None)


def _sorted(frame: pd.DataFrame) -> pd.DataFrame:
    """Return a frame with plain string names, sorted, for comparison."""
    out = frame.copy()
    for col in out.columns:
        if isinstance(out[col].dtype, pd.CategoricalDtype):
            out[col] = out[col].astype(str)
    return out.sort_values(list(out.columns[:6])).reset_index(drop=True)


def test_string_and_struct_encodings_give_identical_scores_and_verdicts(tmp_path):
    a, b = _load(tmp_path, "nested"), _load(tmp_path, "string")
    cols = ["id", "generator", "difficulty", "p_tool", "p_param", "p_seq", "p_cov"]
    pd.testing.assert_frame_equal(_sorted(a.generations[cols]), _sorted(b.generations[cols]))
    pd.testing.assert_frame_equal(
        _sorted(a.verdicts[KEY + ["llm_score", "p", "match"]]), _sorted(b.verdicts[KEY + ["llm_score", "p", "match"]])
    )


@pytest.mark.parametrize("source", ["sample", "mini"])
def test_datasets_reads_the_verdicts_the_loader_reads(tmp_path, monkeypatch, source):
    """`datasets.load_dataset` (the documented way to open a config, an independent JSON reader)
    gives every judge config's llm_score, for every condition and metric, as the loader's verdicts
    hold it (nulls left out by both; the loader's exclusions are the rows datasets has and it lacks)."""
    import datasets

    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf"))
    root = write_mini_repo(tmp_path / "mini", "nested") if source == "mini" else Path(resolve_source("sample").location)
    bench = load_bench(root, runs=None)
    have = bench.verdicts.assign(**{c: bench.verdicts[c].astype(str) for c in KEY}).set_index(KEY)["llm_score"]
    have = have.dropna()
    for judge in bench.judges["judge"]:
        rows = datasets.load_dataset(str(root), judge, split="train", cache_dir=str(tmp_path / "hf")).to_list()
        seen = pd.DataFrame(
            [
                (r["id"], r["generator"], r["difficulty"], judge, cond, metric, r[cond][metric]["llm_score"])
                for r in rows
                for cond in CONDITIONS
                if r.get(cond)
                for metric in METRICS
                if r[cond].get(metric) and r[cond][metric].get("llm_score") is not None
            ],
            columns=[*KEY, "llm_score"],
        ).set_index(KEY)["llm_score"]
        seen.index = seen.index.set_levels(
            [seen.index.levels[1].map(canonical_generator)], level=[1], verify_integrity=False
        )
        kept = seen[seen.index.isin(have.index) & ~seen.index.duplicated()]  # a duplicate row counts once
        assert len(kept) > 0.9 * len(seen), judge
        pd.testing.assert_series_equal(
            kept.sort_index().astype("float32"), have.loc[kept.sort_index().index], check_names=False
        )
        assert len(have.xs(judge, level="judge")) == len(kept), judge


def test_exclusions_follow_appendix_d(tmp_path):
    bench = _load(tmp_path, "nested")
    reasons = bench.exclusions.groupby("reason").size().to_dict()
    assert reasons["unparseable generator output"] == 1
    assert reasons["empty plan"] == 1
    assert reasons["null judge verdict (metric)"] == 4  # tool_selection null without GT x 4 rows
    assert len(bench.generations) == 4
    # null verdicts stay in `verdicts` as NaN so both missing-value rules are computable
    nulls = bench.verdicts["llm_score"].isna()
    assert nulls.sum() == 4
    assert set(bench.verdicts.loc[nulls, "condition"].astype(str)) == {"without_gt"}


def test_published_scores_reproduced_and_mismatch_found(tmp_path):
    root = write_mini_repo(tmp_path / "r", "nested")
    assert check_published_scores(load_bench(root, runs=None)).empty
    path = root / "data" / "gpt5_4.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    rows[0]["score_sequence_accuracy"] = 0.5
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    bad = check_published_scores(load_bench(root, runs=None))
    assert bad[["id", "metric"]].values.tolist() == [["r1", "sequence_accuracy"]]
    assert bad["recomputed"].iloc[0] == 1.0 and bad["published"].iloc[0] == 0.5


def test_missing_required_column_names_config_and_column(tmp_path):
    root = write_mini_repo(tmp_path / "r", "nested")
    path = root / "data" / "gpt5_4.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for r in rows:
        del r["generated_tool_calls"]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(BenchDataError, match=r"'gpt5_4'.*generated_tool_calls"):
        load_bench(root, runs=None)


def test_malformed_json_lines_are_counted(tmp_path):
    root = write_mini_repo(tmp_path / "r", "nested")
    with open(root / "data" / "gpt5_4.jsonl", "a") as fh:
        fh.write('{"id": "r1", "difficulty": "medium", "generated_tool_calls": [\n')
        fh.write('{"id": "r1", "difficulty": "medium", "generated_tool_calls": "[{oops"}\n')
    bench = load_bench(root, runs=None)
    reasons = bench.exclusions.query("config == 'gpt5_4'")["reason"].tolist()
    assert "malformed JSON line" in reasons
    assert reasons.count("unparseable generator output") == 2
    path = root / "data" / "gpt5_4.jsonl"
    n = len(path.read_text().splitlines())
    said = [m for m in bench.messages if "malformed" in m]  # where to look, not only a count
    assert said and f"{path}: line {n - 1}" in said[0], bench.messages


def test_unknown_configs_skipped_with_message(tmp_path, caplog):
    root = write_mini_repo(tmp_path / "r", "nested")
    with caplog.at_level(logging.WARNING):
        bench = load_bench(root, runs=None, judges=["judge_nope", "judge_gpt_5_4"], generators=["gpt_5_4"])
    assert any("judge_nope" in m for m in bench.messages)
    assert "judge_nope" in caplog.text
    assert bench.verdicts["judge"].astype(str).unique().tolist() == ["judge_gpt_5_4"]


def test_a_value_whose_type_changes_between_rows_is_read_as_written(tmp_path, monkeypatch):
    """A nested value whose type changes between rows (what made `datasets`' Arrow inference fail)
    is read from the file as written: the edited row keeps its object, the others their text, and
    the scores are those of the unedited file."""
    monkeypatch.setenv("AJB_CACHE_DIR", str(tmp_path / "cache"))
    root = write_mini_repo(tmp_path / "r", "nested")
    before = load_bench(root, runs=None, cache=False)
    path = root / "data" / "gpt5_4.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    rows[0]["user_query"] = {"weird": [1, 2]}  # type changes between rows
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    after = load_bench(root, runs=None, cache=False)
    cols = ["id", "difficulty", "p_tool", "p_param", "p_seq", "p_cov"]
    pd.testing.assert_frame_equal(after.generations[cols], before.generations[cols])
    queries = after.generations.set_index(["id", "difficulty"])["user_query"]
    assert queries[("r1", "easy")] == {"weird": [1, 2]}
    assert queries[("r1", "hard")] == "q"
    assert any("gpt5_4" in m and "converted line by line" in m for m in after.messages), after.messages


def test_unknown_source_is_a_clear_error():
    with pytest.raises(BenchDataError, match="local path that does not exist"):
        resolve_source("./no/such/dir")
    with pytest.raises(BenchDataError, match="neither"):
        resolve_source("no-such-thing")


def test_generator_alias_in_judge_config_joins(tmp_path):
    bench = _load(tmp_path, "nested")
    assert set(bench.verdicts["generator"].astype(str)) == {"gpt5_4"}
    assert bench.verdicts["p"].notna().all()


def test_generator_and_judge_runs_load_beside_the_release(tmp_path):
    """A generator run (runs/generators/) is scored like a released generator, and a judge
    run over its outputs joins to it."""
    root = write_mini_repo(tmp_path / "r", "nested")
    gen_rows = [json.loads(line) for line in (root / "data" / "gpt5_4.jsonl").read_text().splitlines()]
    (root / "runs" / "generators").mkdir(parents=True)
    with open(root / "runs" / "generators" / "my_gen.jsonl", "w") as fh:
        for row in gen_rows:
            fh.write(json.dumps(row) + "\n")
    (root / "runs" / "generators" / "my_gen.meta.json").write_text(
        json.dumps({"name": "my_gen", "study": "new_generator"})
    )
    judge_rows = [json.loads(line) for line in (root / "data" / "judge_gpt_5_4.jsonl").read_text().splitlines()]
    with open(root / "runs" / "my_judge.jsonl", "w") as fh:
        for row in judge_rows:
            fh.write(json.dumps({**row, "generator": "my_gen"}) + "\n")
    bench = load_bench(root)
    mine = bench.generations[bench.generations["generator"] == "my_gen"]
    ref = bench.generations[bench.generations["generator"] == "gpt5_4"]
    assert len(mine) == len(ref) == 4
    assert mine["p_seq"].tolist() == ref["p_seq"].tolist()
    run = bench.verdicts[bench.verdicts["judge"] == "my_judge"]
    assert set(run["generator"].astype(str)) == {"my_gen"} and run["p"].notna().all()
    assert "my_judge" in bench.judges["judge"].tolist()


def test_run_with_prompt_key_spellings_loads_through_general_path(tmp_path):
    """A run whose blocks use the prompt's metric keys (tool_selection_accuracy, ...) and
    'accuracy' instead of 'llm_score' loads the same verdicts as the canonical spelling."""
    root = write_mini_repo(tmp_path / "r", "nested")
    rows = [json.loads(line) for line in (root / "data" / "judge_gpt_5_4.jsonl").read_text().splitlines()]
    prompt_keys = {
        "tool_selection": "tool_selection_accuracy",
        "parameter_structure": "parameter_structure_accuracy",
        "sequence_accuracy": "sequence_accuracy",
        "query_coverage": "query_coverage_accuracy",
    }
    (root / "runs").mkdir()
    with open(root / "runs" / "spelled.jsonl", "w") as fh:
        for row in rows:
            block = {
                prompt_keys[m]: {"accuracy": v["llm_score"], "justification": "j"}
                for m, v in row["with_gt"].items()
                if m in prompt_keys
            }
            fh.write(json.dumps({k: row[k] for k in ("id", "generator", "difficulty")} | {"with_gt": block}) + "\n")
    bench = load_bench(root)
    v = bench.verdicts
    a = v[(v["judge"] == "spelled")].sort_values(["id", "difficulty", "metric"])
    b = v[(v["judge"] == "judge_gpt_5_4") & (v["condition"] == "with_gt")].sort_values(["id", "difficulty", "metric"])
    assert len(a) == len(b) == 16
    assert a["llm_score"].tolist() == b["llm_score"].tolist()


def test_hub_unreachable_is_a_clear_error(monkeypatch, tmp_path):
    """Offline, the hub source fails with a message saying what to do instead (no traceback
    from the middle of huggingface_hub)."""
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)  # read per request
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path))  # nothing cached
    with pytest.raises(
        BenchDataError,
        match="HF_HUB_OFFLINE is set and revision main .* not in the local hub cache. Offline, use data_source=",
    ):
        load_bench("hf")


# ------------------------------------------------------------------ issue 20: one loading path
def _with_null_arguments(root: Path) -> Path:
    """Give every generated and expected call flat-dict arguments of one shape, {"site", "note"},
    with "note" null in some calls: Arrow structs after `datasets`, plain objects for the JSON
    reader; return `root`."""
    for name, col in (("gpt5_4", "generated_tool_calls"), ("main", "expected_tool_calls")):
        path = root / "data" / f"{name}.jsonl"
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        for i, row in enumerate(rows):
            if row.get(col):
                row[col] = [
                    {
                        "name": (c.get("function") or c)["name"],
                        "arguments": {"site": 1, "note": None if (i + j) % 2 else 0},
                    }
                    for j, c in enumerate(row[col])
                ]
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root


def test_a_null_valued_argument_key_is_not_an_argument(tmp_path):
    """Arguments given as objects with null values: the null-valued keys are not arguments."""
    bench = load_bench(_with_null_arguments(write_mini_repo(tmp_path / "r", "nested")), runs=None, cache=False)
    calls = bench.generations.set_index(["id", "difficulty"])["generated_calls"]
    assert calls.map(len).sum() > 0
    assert all(v is not None for c in calls for call in c for v in call["arguments"].values())


def test_a_file_cut_inside_a_line_is_an_error_naming_it(tmp_path):
    from ajb_utils.data import IncompleteDataError

    root = write_mini_repo(tmp_path / "r", "nested")
    path = root / "data" / "judge_gpt_5_4.jsonl"
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 2 // 3])  # cut mid-line at two thirds
    assert not path.read_bytes().endswith(b"\n")
    with pytest.raises(IncompleteDataError) as err:
        load_bench(root, runs=None, cache=False)
    msg = str(err.value)
    assert "judge_gpt_5_4.jsonl" in msg and "download" in msg and len(msg.splitlines()) == 1
    assert issubclass(IncompleteDataError, BenchDataError)


def test_a_config_with_fewer_rows_than_declared_is_an_error(tmp_path):
    from ajb_utils.data import IncompleteDataError

    root = write_mini_repo(tmp_path / "r", "nested")
    readme = root / "README.md"
    head, rest = readme.read_text().split("\n---\n", 1)
    readme.write_text(
        head + "\ndataset_info:\n- config_name: judge_gpt_5_4\n  splits:\n"
        "  - name: train\n    num_examples: 40\n---\n" + rest
    )
    with pytest.raises(IncompleteDataError, match=r"judge_gpt_5_4.*40"):
        load_bench(root, runs=None, cache=False)


def test_an_empty_folder_is_the_same_one_line_error_as_a_missing_path(tmp_path):
    from ajb_utils.data import probe_hub

    (tmp_path / "empty").mkdir()
    for call in (resolve_source, probe_hub, load_bench):
        with pytest.raises(BenchDataError) as err:
            call(tmp_path / "empty")
        assert len(str(err.value).splitlines()) == 1 and "empty" in str(err.value)


def test_an_unknown_condition_column_is_reported_not_dropped_silently(tmp_path):
    root = write_mini_repo(tmp_path / "unknown", "nested")
    path = root / "data" / "judge_gpt_5_4.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for r in rows:
        r["with_gt_v2"] = r["with_gt"]  # a condition this package does not know
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    bench = load_bench(root, runs=None, cache=False)
    assert any("with_gt_v2" in m and "not known" in m for m in bench.messages), bench.messages
    assert set(bench.verdicts["condition"].astype(str)) == {"with_gt", "without_gt"}


def test_ids_read_only_those_records_rows_of_the_build(tmp_path, monkeypatch):
    """`load_bench(ids=...)` gives exactly the rows of the whole read that belong to those records
    (records, generations, verdicts, rationales included); the exclusions and judges stay whole."""
    monkeypatch.setenv("AJB_CACHE_DIR", str(tmp_path / "cache"))
    whole = load_bench("sample", justifications=True)
    ids = sorted(whole.records["id"].astype(str))[3:5]
    some = load_bench("sample", justifications=True, ids=ids)
    for name in ("records", "generations", "verdicts"):
        frame = getattr(whole, name)
        expected = frame[frame["id"].astype(str).isin(ids)].reset_index(drop=True)
        assert len(expected) > 0
        pd.testing.assert_frame_equal(getattr(some, name), expected)
    pd.testing.assert_frame_equal(some.judges, whole.judges)
    pd.testing.assert_frame_equal(some.exclusions, whole.exclusions)


def test_ids_the_source_does_not_hold_are_named(tmp_path, monkeypatch):
    monkeypatch.setenv("AJB_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(BenchDataError, match="1 record id.*not in this source: no_such_record"):
        load_bench("sample", ids=["no_such_record"])
    with pytest.raises(BenchDataError, match="not with cache=False"):
        load_bench("sample", ids=["no_such_record"], cache=False)


@pytest.fixture(scope="module")
def whole_sample() -> tuple[object, list[str]]:
    """Return the sample's whole bench (rationales included) and its record ids."""
    whole = load_bench("sample", justifications=True)
    return whole, sorted(whole.records["id"].astype(str))


@settings(max_examples=25, deadline=None)
@given(
    picks=st.lists(st.integers(0, 10_000), max_size=4),
    unknown=st.lists(st.sampled_from(["nope", "", "x1"]), max_size=2),
)
def test_any_ids_give_those_records_rows_or_name_the_unknown_ones(whole_sample, picks, unknown):
    """Any list of ids (empty, repeated, unknown mixed in) gives exactly those records' rows of the
    whole read, empty frames with the same columns for none, or a BenchDataError naming the ids the
    source does not hold; never an error from the Parquet reader."""
    whole, known = whole_sample
    ids = [known[i % len(known)] for i in picks] + unknown
    if unknown:
        with pytest.raises(BenchDataError, match="not in this source"):
            load_bench("sample", justifications=True, ids=ids)
        return
    some = load_bench("sample", justifications=True, ids=ids)
    for name in ("records", "generations", "verdicts"):
        frame = getattr(whole, name)
        expected = frame[frame["id"].astype(str).isin(ids)].reset_index(drop=True)
        # a rationale's categories are the rationales read (none for no rows), not a vocabulary
        text = {"justification": object} if "justification" in frame else {}
        pd.testing.assert_frame_equal(getattr(some, name).astype(text), expected.astype(text))


NAMES_ASKED = st.sampled_from([*GENERATORS, "gpt_5_4", "GPT-5.4", "nope", "judge_gpt_5_4"])


@settings(max_examples=300, deadline=None)
@given(st.none() | st.lists(NAMES_ASKED, max_size=8), st.sets(st.sampled_from(GENERATORS)))
def test_config_selection_keeps_what_is_asked_and_present_and_says_the_rest(requested, present):
    """Any request (None, repeats, aliases, unknown names, names the source lacks) selects the
    requested configs the source has, each once and in paper order, and says one line per requested
    name it leaves out, naming it; None selects every config the source has, silently."""
    messages: list[str] = []
    chosen = data_mod._select(requested, GENERATORS, {p: ["f.jsonl"] for p in present}, "generator", messages)
    asked = GENERATORS if requested is None else [canonical_generator(r) for r in requested]
    assert chosen == [g for g in GENERATORS if g in asked and g in present]
    left_out = [] if requested is None else [a for a in asked if a not in present]
    assert len(messages) == len(left_out)
    assert all(repr(name) in line for name, line in zip(left_out, messages))
