"""On a source marked as the real release, every claim gets a verdict or an n/a naming missing data.

The hub stand-in (tests/hub_standin.py, as in tests/test_hub.py) serves a copy of the sample whose
card does not say synthetic and which has what the release has: the main, generator and judge
configs, no ablation runs and no annotation studies. Whatever marks the sample synthetic (the word
in its README, or a ``synthetic:`` field of the YAML header) is removed or set to false, so the
test works with either form of the card.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import yaml

import ajb_verify as verify
from ajb_utils import paths, schema
from ajb_utils.data import load_bench

sys.path.insert(0, str(Path(__file__).parent))
import every_claim  # noqa: E402
from hub_standin import HubStandIn, commit_sha, reduced_copy  # noqa: E402
from test_hub import _point_clients_at  # noqa: E402

N_RECORDS = 48  # 8 per topology on average: enough cells for every table, quick to score
RELEASE = commit_sha("release-standin")


def release_copy(src: Path, dest: Path, n_records: int = N_RECORDS) -> Path:
    """Write a copy of the sample as the release would be: no runs/ or annotations/, configs of the
    released data only, and a card that does not mark it synthetic; return `dest`."""
    tmp = reduced_copy(src, dest.with_name(dest.name + "_full"), n_records)
    shutil.copytree(tmp, dest, ignore=shutil.ignore_patterns("runs", "annotations"))
    readme = (dest / "README.md").read_text(encoding="utf-8")
    _, head, body = readme.split("---\n", 2)
    card = yaml.safe_load(head)
    card["configs"] = [c for c in card["configs"] if all(f["path"].startswith("data/") for f in c["data_files"])]
    kept = {c["config_name"] for c in card["configs"]}
    if isinstance(card.get("dataset_info"), list):  # the declared row counts of the configs kept
        card["dataset_info"] = [d for d in card["dataset_info"] if d.get("config_name") in kept]
    for key in [k for k in card if "synthetic" in str(k).lower()]:
        del card[key]  # the explicit `synthetic:` field: a real card has none
    body = "\n".join(line for line in body.splitlines() if "synthetic" not in line.lower())
    (dest / "README.md").write_text(
        "---\n" + yaml.safe_dump(card, sort_keys=False) + "---\n" + body + "\n", encoding="utf-8"
    )
    return dest


@pytest.fixture(scope="module")
def release_dir(tmp_path_factory) -> Path:
    return release_copy(paths.SAMPLE_DIR, tmp_path_factory.mktemp("release") / "repo")


@pytest.fixture(scope="module")
def verdicts(release_dir, tmp_path_factory) -> tuple:
    home = tmp_path_factory.mktemp("home")
    with (
        pytest.MonkeyPatch.context() as mp,
        HubStandIn(schema.HF_REPO_ID, {RELEASE: release_dir}, {"main": RELEASE}) as hub,
    ):
        _point_clients_at(hub.endpoint, home, mp)
        bench = load_bench("hf", runs=None)
        checks = every_claim.claim_verdicts(bench, data_source="hf", n_bootstrap=100, seed=1)
    return bench, checks


def test_the_copy_reads_as_the_real_release(release_dir, verdicts) -> None:
    bench, _ = verdicts
    assert "synthetic" not in (release_dir / "README.md").read_text().lower()
    assert not (release_dir / "runs").exists() and not (release_dir / "annotations").exists()
    assert bench.synthetic is False and bench.label == "hf"
    assert len(bench.records) == N_RECORDS


def test_every_claim_gets_a_verdict_or_an_na_naming_missing_data(verdicts) -> None:
    _, checks = verdicts
    assert every_claim.unchecked_claims(checks) == []
    assert set(checks["holds"]) <= {"yes", "no", verify.INDISTINGUISHABLE, "n/a"}
    na = checks[checks["holds"] == "n/a"]
    bad = na[~na["note"].str.contains(verify.MISSING_DATA, regex=False)]
    assert bad.empty, bad[["claim_id", "note"]].to_string()
    # on the released data no count is left uncompared for being synthetic
    assert not checks["note"].str.contains("synthetic sample").any()


def test_claims_that_need_runs_or_studies_name_them(verdicts) -> None:
    _, checks = verdicts
    data = checks[checks["checked on"] == ""].set_index("claim_id")
    for cid in (
        "P.c2_strong",
        "P.cot_max",
        "P.format_gain",
        "T01.gemini_cgt_vs_gt",
        "T13.spearman",
        "T22.all_positive",
        "P.repeat_spread",
        "P.format_largest_lever",
        "T12.param_error_modes",
    ):
        row = data.loc[[cid]].iloc[0]
        assert row["holds"] == "n/a" and row["note"].startswith(verify.MISSING_DATA), (cid, row["note"])
    for cid in ("CF1.monotone_pairs", "P.records", "CJ.mean_kappa_with_gt", "P.null_uniform_topology"):
        assert data.loc[[cid], "holds"].iloc[0] in ("yes", "no", verify.INDISTINGUISHABLE), cid


def test_each_data_claim_has_one_verdict(verdicts) -> None:
    _, checks = verdicts
    data = checks[checks["checked on"] == ""]
    n = data.groupby("claim_id")["holds"].nunique()
    assert (n == 1).all(), data[data["claim_id"].isin(n[n > 1].index)][["claim_id", "holds", "note"]].to_string()
