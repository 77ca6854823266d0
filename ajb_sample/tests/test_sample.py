"""Tests of the synthetic sample generator (ajb_sample): determinism, contract, content."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ajb_sample import SCALES, build_sample
from ajb_sample.generators import ERROR_MODES
from ajb_sample.judges import behaviour, planted, planted_summary, profile
from ajb_sample.messy import THINK_GENERATOR
from ajb_utils import schema, stats
from ajb_utils.calls import try_normalize_calls
from ajb_utils.paths import SAMPLE_DIR
from ajb_utils.schema import MAIN_JUDGES
from ajb_utils.scoring import programmatic_scores


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """Return (dir, summary) of a tiny sample written to a temp dir."""
    out = tmp_path_factory.mktemp("s") / "sample"
    return out, build_sample("tiny", 7, out)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Return the rows of a JSON-lines file."""
    return [json.loads(line) for line in path.read_text().splitlines()]


def all_files(root: Path) -> dict[str, bytes]:
    """Return relative path -> bytes for every file under root."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_deterministic(tiny: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """Same seed gives byte-identical files; another seed differs."""
    out, _ = tiny
    again = tmp_path / "again"
    build_sample("tiny", 7, again)
    assert all_files(out) == all_files(again)
    other = tmp_path / "other"
    build_sample("tiny", 8, other)
    assert all_files(out)["data/main.jsonl"] != all_files(other)["data/main.jsonl"]


def test_records_shape(tiny: tuple[Path, dict[str, Any]]) -> None:
    """Topology counts, 8-19 tools, 2-5 calls, 32-hex ids, OpenAI-style calls and tools."""
    out, _ = tiny
    rows = read_jsonl(out / "data/main.jsonl")
    # one record has no topology on purpose (sample/messy.py)
    assert sum(r["dag_type"] is None for r in rows) == 1
    counts = {t: [r["dag_type"] for r in rows].count(t) for t in schema.TOPOLOGIES}
    assert sum(counts.values()) == sum(SCALES["tiny"].values()) - 1
    assert all(SCALES["tiny"][t] - 1 <= counts[t] <= SCALES["tiny"][t] for t in schema.TOPOLOGIES)
    for r in rows:
        assert list(r) == schema.MAIN_COLUMNS
        assert len(r["id"]) == 32 and int(r["id"], 16) >= 0
        assert 8 <= len(r["available_tools"]) <= 19
        assert 2 <= len(r["expected_tool_calls"]) <= 5
        names = {t["function"]["name"] for t in r["available_tools"]}
        for k, c in enumerate(r["expected_tool_calls"]):
            assert c["id"] == f"step{k + 1}" and c["function"]["name"] in names
            assert isinstance(json.loads(c["function"]["arguments"]), dict)


def test_param_types_consistent() -> None:
    """Every parameter name maps to one JSON type across the committed sample."""
    types: dict[str, str] = {}
    for r in read_jsonl(SAMPLE_DIR / "data/main.jsonl"):
        for t in r["available_tools"]:
            for name, prop in t["function"]["parameters"]["properties"].items():
                assert types.setdefault(name, prop["type"]) == prop["type"], name


def test_published_scores_match_scorer(tiny: tuple[Path, dict[str, Any]]) -> None:
    """Every score_* column equals programmatic_scores on the row; null when unparseable."""
    out, _ = tiny
    for g in schema.GENERATORS:
        for r in read_jsonl(out / f"data/{g}.jsonl"):
            assert list(r) == schema.GENERATOR_COLUMNS
            if try_normalize_calls(r["generated_tool_calls"])[0] is None:  # unparseable, incl. the messy one
                assert all(r[c] is None for c in schema.SCORE_COLUMNS.values())
                continue
            scores = programmatic_scores(r["generated_tool_calls"], r["expected_tool_calls"])
            for m, col in schema.SCORE_COLUMNS.items():
                assert r[col] == scores[m]


def test_every_error_mode_appears() -> None:
    """The committed sample exercises every error mode at least once."""
    res = build_sample_memory()
    seen = {m for rows in res["generations"].values() for r in rows for m in r["_modes"]}
    assert {*ERROR_MODES, "empty_plan", "unparseable"} <= seen


def build_sample_memory() -> dict[str, Any]:
    """Return the summary of the small sample rebuilt into a throwaway dir (cached)."""
    global _SMALL
    if _SMALL is None:
        import tempfile

        with tempfile.TemporaryDirectory() as d:
            _SMALL = build_sample("small", 0, Path(d) / "s")
    return _SMALL


_SMALL: dict[str, Any] | None = None


def test_committed_sample_is_current() -> None:
    """data/sample equals a fresh `--scale small --seed 0` build (the README's command)."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        build_sample("small", 0, Path(d) / "s")
        assert all_files(Path(d) / "s") == all_files(SAMPLE_DIR)


def test_judge_rows(tiny: tuple[Path, dict[str, Any]]) -> None:
    """Verdicts in {0, 0.5, 1} or null; match = 1 - |p - l|; only valid generations judged
    (except the one out-of-range verdict sample/messy.py plants)."""
    out, summary = tiny
    planted = summary["messy"]["out_of_range_score"]  # (judge, id, difficulty, generator)
    valid = {
        (r["id"], g, r["difficulty"])
        for g in schema.GENERATORS
        for r in read_jsonl(out / f"data/{g}.jsonl")
        if r["generated_tool_calls"]
    }
    for j in schema.JUDGES:
        for r in read_jsonl(out / f"data/{j}.jsonl"):
            assert (r["id"], schema.canonical_generator(r["generator"]), r["difficulty"]) in valid
            for cond in schema.MAIN_CONDITIONS:
                for m in schema.METRICS:
                    b = r[cond][m]
                    if (
                        (j, r["id"], r["difficulty"], r["generator"]) == planted
                        and cond == "with_gt"
                        and m == "tool_selection"
                    ):
                        assert b["llm_score"] == 4.0
                        continue
                    assert b["llm_score"] in (None, 0.0, 0.5, 1.0)
                    if b["llm_score"] is not None:
                        assert b["match_score"] == round(1 - abs(b["programmatic_score"] - b["llm_score"]), 4)
    assert "gpt_5_4" in {r["generator"] for r in read_jsonl(out / "data/judge_qwq_32b.jsonl")}


def test_runs_meta(tiny: tuple[Path, dict[str, Any]]) -> None:
    """Every run has a meta file naming its study and conditions present in the rows."""
    out, _ = tiny
    runs = sorted((out / "runs").glob("*.jsonl"))
    assert {json.loads(p.with_suffix(".meta.json").read_text())["study"] for p in runs} == {
        "temperature",
        "thinking",
        "format",
        "c2",
        "c3",
    }
    for p in runs:
        meta = json.loads(p.with_suffix(".meta.json").read_text())
        assert meta["name"] == p.stem and meta["name"].startswith("synthetic_")
        assert meta["synthetic"] is True and meta["backend"] == "simulated"
        row = read_jsonl(p)[0]
        assert set(meta["conditions"]) <= set(row) and set(meta["conditions"]) <= set(schema.CONDITIONS)


def test_annotation_counts() -> None:
    """Human study: 120 records x 4 metrics (20 per topology); rewrite study: 198 records."""
    human = read_jsonl(SAMPLE_DIR / "annotations/synthetic_human_annotations.jsonl")
    assert len(human) == 480 and len({r["id"] for r in human}) == 120
    for t in schema.TOPOLOGIES:
        ids = {r["id"] for r in human if r["dag_type"] == t}
        assert len(ids) == 20
        perfect = {i for i in ids if all(r["programmatic_score"] == 1.0 for r in human if r["id"] == i)}
        assert 4 <= len(perfect) <= 6  # 6 by design; fewer only if too few perfect plans
    rewrite = read_jsonl(SAMPLE_DIR / "annotations/synthetic_rewrite_validation.jsonl")
    assert len({r["id"] for r in rewrite}) == 198 and len(rewrite) == 198 * 3 * 4


def test_readme_and_loading(tmp_path: Path) -> None:
    """README lists every file as a config; datasets and pyarrow read the committed sample."""
    import pyarrow.json as pj

    text = (SAMPLE_DIR / "README.md").read_text()
    assert "SYNTHETIC" in text
    for p in SAMPLE_DIR.rglob("*.jsonl"):
        assert f"path: {p.relative_to(SAMPLE_DIR).as_posix()}" in text
        if p.stem == THINK_GENERATOR:  # one plan is text on purpose: Arrow's reader refuses the mix
            continue
        assert pj.read_json(p).num_rows > 0
        assert p.stat().st_size < 5_000_000
    datasets = pytest.importorskip("datasets")
    for config in ("main", "llama_3_3_70b_instruct", "judge_qwq_32b", THINK_GENERATOR):
        ds = datasets.load_dataset(str(SAMPLE_DIR), config, cache_dir=str(tmp_path))
        assert ds["train"].num_rows > 0


def test_messy_cases_are_each_counted_by_the_loader(tiny: tuple[Path, dict[str, Any]]) -> None:
    """Every planted messy row (sample/messy.py) is one counted exclusion with its reason, or a message."""
    from ajb_utils.data import load_bench

    out, summary = tiny
    bench = load_bench(out, runs=None)
    ex = bench.exclusions
    want = {
        "duplicate_judge_row": "duplicate judge row",
        "out_of_range_score": "judge verdict outside {0, 0.5, 1}",
        "unparseable_then_valid": "invalid row superseded by a valid one",
        "one_sided_null": "null judge verdict (whole condition)",
    }
    for case, reason in want.items():
        config, rid, diff, gen = summary["messy"][case]
        hit = ex[
            (ex["config"] == config)
            & (ex["id"] == rid)
            & (ex["difficulty"] == diff)
            & (ex["generator"].map(schema.canonical_generator) == schema.canonical_generator(gen))
            & (ex["reason"] == reason)
        ]
        assert len(hit) == 1, case
    assert (ex["reason"] == "duplicate judge row").sum() == 1
    assert (ex["reason"] == "judge verdict outside {0, 0.5, 1}").sum() == 1
    assert (ex["reason"] == "invalid row superseded by a valid one").sum() == 1
    _, rid, _, _ = summary["messy"]["null_topology"]
    assert ex.loc[ex["reason"].str.startswith("null dag_type"), "id"].tolist() == [rid]
    assert rid in set(stats.record_alignment(bench.verdicts)["id"].astype(str))
    config, rid, diff, _ = summary["messy"]["think_fence_output"]
    g = bench.generations
    assert ((g["generator"] == config) & (g["id"] == rid) & (g["difficulty"] == diff)).sum() == 1
    assert any(m.startswith(f"{config}: 1 generator output") for m in bench.messages)
    # the one-sided null: with GT has no verdict, without GT has four
    config, rid, diff, gen = summary["messy"]["one_sided_null"]
    v = bench.verdicts
    one = v[(v["judge"] == config) & (v["id"] == rid) & (v["difficulty"] == diff) & (v["generator"] == gen)]
    assert one.groupby("condition", observed=True)["llm_score"].count().to_dict() == {"with_gt": 0, "without_gt": 4}


def test_synthetic_is_a_field_of_the_readme_header(tmp_path: Path) -> None:
    """The builder writes `synthetic: true` in the YAML header, the loader reads it from there;
    a card without the field (the real release) is not synthetic, whatever its prose says."""
    import shutil

    import yaml

    from ajb_utils.data import load_bench

    text = (SAMPLE_DIR / "README.md").read_text()
    assert yaml.safe_load(text.split("---")[1])["synthetic"] is True
    copy = tmp_path / "mirror"
    shutil.copytree(SAMPLE_DIR, copy, ignore=shutil.ignore_patterns("runs", "annotations"))
    head, prose = (copy / "README.md").read_text().split("\n---\n", 1)
    (copy / "README.md").write_text(
        head.replace("synthetic: true\n", "")
        + "\n---\n"
        + "Built with a synthetic-data-generation framework.\n"
        + prose
    )
    assert load_bench(copy, runs=None, cache=False).synthetic is False
    (copy / "README.md").write_text(head + "\n---\n# a card\n")
    assert load_bench(copy, runs=None, cache=False).synthetic is True


def test_variants_default_to_the_committed_behaviour() -> None:
    """The 'contrast' knobs change only inside `planted`; an unknown variant is an error."""
    base = profile("judge_gemini_2_5_pro", "with_gt")["anchoring"]["sequence_accuracy"]
    assert base > 0  # the default sample plants anchoring (negative GT lift)
    with planted("contrast"):
        assert profile("judge_gemini_2_5_pro", "with_gt")["anchoring"]["sequence_accuracy"] == 0.0
        assert profile("judge_qwq_32b", "without_gt")["leniency"] < behaviour()["defaults"]["without_gt"]["leniency"]
    assert profile("judge_gemini_2_5_pro", "with_gt")["anchoring"]["sequence_accuracy"] == base
    with pytest.raises(ValueError, match="unknown sample variant"), planted("nope"):
        pass


def test_contrast_variant_changes_judges_not_records(tmp_path: Path, tiny: tuple[Path, dict[str, Any]]) -> None:
    """A second sample with other planted patterns: same records and generations, other verdicts."""
    out, _ = tiny
    other = tmp_path / "contrast"
    build_sample("tiny", 7, other, variant="contrast")
    a, b = all_files(out), all_files(other)
    assert a.keys() == b.keys()
    assert a["data/main.jsonl"] == b["data/main.jsonl"] and a["data/qwen3_32b.jsonl"] == b["data/qwen3_32b.jsonl"]
    assert a["data/judge_gemini_2_5_pro.jsonl"] != b["data/judge_gemini_2_5_pro.jsonl"]
    assert "--variant contrast" in b["README.md"].decode()


def test_times_multiplies_the_records_and_every_config(tiny: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    """--times 2: twice the records (ids distinct), twice the rows of a generator and a judge config."""
    one, _ = tiny
    two = tmp_path / "two"
    build_sample("tiny", 0, two, times=2)

    def lines(root: Path, rel: str) -> list[dict]:
        return [json.loads(x) for x in (root / rel).read_text().splitlines() if x.strip()]

    main = lines(two, "data/main.jsonl")
    assert len(main) == 2 * len(lines(one, "data/main.jsonl")) and len({r["id"] for r in main}) == len(main)
    for rel in ("data/qwen3_32b.jsonl", "data/judge_qwq_32b.jsonl"):
        n1, n2 = len(lines(one, rel)), len(lines(two, rel))
        assert abs(n2 - 2 * n1) <= 10, rel  # the handful of planted messy rows is not multiplied


def test_reversed_variant_swaps_the_profiles_flattens_difficulty_and_sharpens_prometheus() -> None:
    """'reversed' turns the default's planted effects round (issue 39's regression sample)."""
    default = {j: (profile(j, "with_gt"), profile(j, "without_gt")) for j in MAIN_JUDGES}
    with planted("reversed"):
        for j in MAIN_JUDGES:
            if j == "judge_prometheus2_7b":
                continue
            assert profile(j, "with_gt")["sensitivity"] == default[j][1]["sensitivity"]
            assert profile(j, "without_gt")["leniency"] == default[j][0]["leniency"]
        assert set(behaviour()["multipliers"]["sensitivity"].values()) == {1.0}
        p2 = profile("judge_prometheus2_7b", "with_gt")
        assert max(p2["noise"].values()) == 0.0 and min(p2["sensitivity"].values()) > 0.9
    assert profile("judge_prometheus2_7b", "with_gt")["noise"]["parameter_structure"] > 0.5  # outside: default


def test_the_card_says_what_was_planted(tmp_path: Path) -> None:
    """The sample's README header carries the variant's planted knobs; the loader reads them back."""
    from ajb_utils.data import planted_effects

    out = tmp_path / "reversed"
    build_sample("tiny", 7, out, variant="reversed")
    got = planted_effects(out)
    assert got == planted_summary("reversed") and got["variant"] == "reversed"
    assert set(got["sensitivity_by_difficulty"].values()) == {1.0}
    assert max(got["anchoring"].values()) == 0.0  # the with-GT profile is the default's without-GT one
    committed = planted_effects(SAMPLE_DIR)
    assert committed == planted_summary("default") and committed["anchoring"]["judge_gemini_2_5_pro"] > 0
    assert planted_effects("hf") == {}
