"""The released-data rehearsal: the main command on what the release holds, through the hub path.

The fixture is the synthetic sample at the tiny scale (`python -m ajb_sample --scale tiny`) reduced
to what the release holds (`hub_standin.release_layout`: no runs/, no annotations/, the card's
data/ configs only); its card keeps `synthetic: true`, so every banner stays. The hub stand-in
serves it as the release, and `scripts/reproduce.py --params papermill_params/hf.yaml` runs in a
copy of the repository with HF_ENDPOINT at the stand-in. It must end OK with every notebook ok,
write figures/hf/ (as README and hf.yaml say), and leave every claim that needs the missing runs or
studies n/a with the reason; every page of its report links only files that exist. This is the
package's one end-to-end run of the main command (the README's quick start points here).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import ajb_verify as verify
from ajb_sample import build_sample
from ajb_utils import paths, schema
from report_pages import broken_links
from script_modules import load_script

sys.path.insert(0, str(Path(__file__).parent))
from hub_standin import HubStandIn, commit_sha, hub_env, release_layout  # noqa: E402
from printed_sentences import bad_lines  # noqa: E402
from test_readme import repo_copy  # noqa: E402

pytestmark = pytest.mark.slow  # the whole main command: `-m "not slow"` skips it

rn = load_script("run_notebooks")
RELEASE = commit_sha("release-rehearsal")
# claims whose data the release lacks: ablation runs (06-09), the human study (11), C3 runs (10)
NEED_MISSING = ("P.c2_strong", "P.temperature_spread", "P.cot_max", "P.format_gain", "T13.spearman")


@pytest.fixture(scope="module")
def rehearsal(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    """Run the main command once on the release-shaped tiny sample; return (process, repo copy)."""
    base = tmp_path_factory.mktemp("rehearsal")
    build_sample("tiny", 0, base / "tiny")
    served = release_layout(base / "tiny", base / "release")
    root = repo_copy(base / "repo")
    with HubStandIn(schema.HF_REPO_ID, {RELEASE: served}, {"main": RELEASE}) as hub:
        env = {**os.environ, **hub_env(hub.endpoint, base), "PYTHONPATH": str(root)}
        proc = subprocess.run(
            [sys.executable, "scripts/reproduce.py", "--params", "papermill_params/hf.yaml"],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=1800,
        )
        assert hub.unhandled == []
    return proc, root


def test_the_main_command_ends_ok_on_what_the_release_holds(rehearsal) -> None:
    proc, root = rehearsal
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    lines = [line for line in proc.stdout.splitlines() if line.startswith(("ok ", "FAIL"))]
    notebooks = sorted(p.stem for p in (root / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert sorted(line.split()[1] for line in lines) == notebooks and all(line.startswith("ok") for line in lines)
    assert "status OK" in proc.stdout


def test_outputs_go_to_figures_hf_and_say_synthetic(rehearsal) -> None:
    _, root = rehearsal
    out = root / "figures" / "hf"
    assert sorted(p.name for p in (root / "figures").iterdir() if p.name.startswith("hf")) == ["hf"]
    prov = json.loads((out / "PROVENANCE.json").read_text())
    assert (prov["source"], prov["revision"], prov["synthetic"]) == ("hf", RELEASE, True)
    assert not (out / paths.INCOMPLETE_FILE).exists()
    assert (out / "SCORECARD.md").exists() and (out / "html" / "00_index.html").exists()


def test_every_page_of_the_report_links_what_exists(rehearsal) -> None:
    _, root = rehearsal
    pages = sorted((root / "figures" / "hf" / "html").glob("*.html"))
    notebooks = sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert [p.stem for p in pages] == [p.stem for p in notebooks]
    assert {p.name: broken_links(p) for p in pages if broken_links(p)} == {}


def test_what_the_release_lacks_is_n_a_with_its_reason(rehearsal) -> None:
    _, root = rehearsal
    card = pd.read_csv(root / "figures" / "hf" / "SCORECARD.csv", keep_default_na=False)
    claims = card[card["row"] == "claim"].set_index("id")
    na = claims[claims["holds"] == "n/a"]
    reason = na["note"].str.startswith(verify.MISSING_DATA) | na["note"].str.contains("synthetic sample: ", regex=False)
    assert reason.all(), na.loc[~reason, ["note"]].to_string()  # missing data, or a count of the sample's corpus
    for cid in NEED_MISSING:
        assert set(claims.loc[[cid], "holds"]) == {"n/a"}, (cid, claims.loc[[cid], "note"].tolist())


def test_what_the_notebooks_print_on_the_release_reads_true(rehearsal) -> None:
    """Issue 49: on what the release holds (no runs/, no annotations/), no notebook prints "nan", "None", an
    empty frame or a heading with nothing under it, or displays a table without rows (what it cannot compute
    it says in one line)."""
    _, root = rehearsal
    folder = root / "figures" / "_scratch" / "notebooks" / "hf"
    printed = {
        p.stem: bad_lines(json.loads(p.read_text(encoding="utf-8"))) for p in sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    }
    assert len(printed) == len(list((root / "notebooks").glob("[0-9][0-9]_*.ipynb")))
    assert {name: lines for name, lines in printed.items() if lines} == {}
