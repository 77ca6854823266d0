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
