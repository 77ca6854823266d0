"""Runs under data/runs/ judge one data source's generations: under runs="auto" a run made on another
source is left out (with a message), so e.g. a full-scale run never leaks into the sample's tables."""

from __future__ import annotations

import json
import shutil

import pytest

from ajb_utils import data, paths
from ajb_utils.paths import SAMPLE_DIR

RUN = "synthetic_qwq_32b_c2"


@pytest.fixture
def runs_dir(tmp_path, monkeypatch):
    """A data/runs/ stand-in holding one copy of a sample run per source label."""
    d = tmp_path / "runs"
    d.mkdir()
    meta = json.loads((SAMPLE_DIR / "runs" / f"{RUN}.meta.json").read_text())
    for name, source in (("made_on_sample", "sample"), ("made_on_full", "sample_full")):
        shutil.copy(SAMPLE_DIR / "runs" / f"{RUN}.jsonl", d / f"{name}.jsonl")
        (d / f"{name}.meta.json").write_text(json.dumps({**meta, "name": name, "source": source}))
    monkeypatch.setattr(paths, "RUNS_DIR", d)
    return d


def test_auto_reads_only_runs_made_on_this_source(runs_dir) -> None:
    bench = data.load_bench("sample", judges=[], runs="auto", cache=False)
    judges = set(bench.judges["judge"])
    assert "made_on_sample" in judges and "made_on_full" not in judges
    assert any("made_on_full" in m and "sample_full" in m for m in bench.messages)


def test_a_run_named_explicitly_is_read_whatever_its_source(runs_dir) -> None:
    bench = data.load_bench("sample", judges=[], runs=["made_on_full"], cache=False)
    assert set(bench.judges["judge"]) == {"made_on_full"}


def test_default_parameters_read_only_the_shipped_data(runs_dir, tmp_path) -> None:
    """A user's runs under data/runs/ change nothing a default-parameter load reads or records."""
    from ajb_utils import provenance

    shipped = data.load_bench("sample", judges=[], cache=False)
    judges = set(shipped.judges["judge"])
    assert "made_on_sample" not in judges and RUN in judges  # the sample's own runs stay
    assert shipped.label == "sample"
    record = provenance.provenance_record(shipped)
    for name in ("made_on_sample", "made_on_full"):
        (runs_dir / f"{name}.jsonl").unlink()
        (runs_dir / f"{name}.meta.json").unlink()
    assert provenance.provenance_record(data.load_bench("sample", judges=[], cache=False)) == record


def test_auto_runs_write_to_a_folder_of_their_own(runs_dir) -> None:
    from ajb_utils import provenance

    bench = data.load_bench("sample", judges=[], runs="auto", cache=False)
    assert "made_on_sample" in set(bench.judges["judge"])
    folder = provenance.output_folder_name(bench.label)
    assert folder != "sample" and folder.startswith("sample")
    named = data.load_bench("sample", judges=[], runs=["made_on_sample"], cache=False)
    assert named.label == "sample"  # a run named explicitly is the user's stated choice


def test_a_run_that_is_not_a_judge_config_is_skipped_and_said(runs_dir, tmp_path) -> None:
    """A file in the runs folder that holds no verdicts (a generator's outputs saved there by
    mistake) is left out of the load, saying why, and the other runs are read; the same rows as a
    released judge config stop the load with that reason."""
    plans = SAMPLE_DIR / "data" / "gpt5_4.jsonl"
    shutil.copy(plans, runs_dir / "plans_not_verdicts.jsonl")
    bench = data.load_bench("sample", judges=[], runs="auto", cache=False)
    assert "plans_not_verdicts" not in set(bench.judges["judge"]) and "made_on_sample" in set(bench.judges["judge"])
    said = [m for m in bench.messages if m.startswith("run 'plans_not_verdicts' skipped: ")]
    assert len(said) == 1 and "lacks required column(s) ['generator']" in said[0], bench.messages
    mirror = tmp_path / "mirror"
    shutil.copytree(SAMPLE_DIR, mirror)
    declared = len((SAMPLE_DIR / "data" / "judge_gpt_5_4.jsonl").read_text().splitlines())
    lines = plans.read_text().splitlines(keepends=True)
    (mirror / "data" / "judge_gpt_5_4.jsonl").write_text("".join(lines * (declared // len(lines) + 1)))
    with pytest.raises(data.BenchDataError, match=r"'judge_gpt_5_4' lacks required column\(s\) \['generator'\]"):
        data.load_bench(mirror, runs=None, cache=False)
