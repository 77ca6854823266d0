"""The hub path, exercised through the real clients against a loopback hub stand-in.

`huggingface_hub` and `datasets` are pointed at tests/hub_standin.py (HF_ENDPOINT and the
constants they read it into), which serves three commits of ServiceNow-AI/AgentJudgeBench:
`main` = data/sample as it is, tag `v1.0` = a 20-record copy, and an untagged commit whose
generator file has a nested value that changes type after the first 10 MB (where `datasets`
infers Arrow types per 10 MB chunk and fails). Every cache lives under the test's tmp_path.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from ajb_utils import paths, provenance, schema
from ajb_utils.data import BenchDataError, HubUnavailable, load_bench, probe_hub

sys.path.insert(0, str(Path(__file__).parent))
from hub_standin import HubStandIn, commit_sha, hub_env, reduced_copy  # noqa: E402

pytestmark = pytest.mark.slow  # a loopback hub, real clients and subprocesses: `-m "not slow"` skips them

REPO = schema.HF_REPO_ID
MAIN, V1, BROKEN = commit_sha("main"), commit_sha("v1.0"), commit_sha("late-type-change")
N_V1 = 20  # records in the v1.0 commit
CHUNK = 10 << 20  # bytes per chunk of datasets' JSON builder (it infers types per chunk)
FRAMES = ("records", "generations", "verdicts", "exclusions", "judges")


def _late_type_change(src: Path, dest: Path) -> Path:
    """Copy `src` to `dest`, padding gpt5_4.jsonl past one datasets chunk and encoding the last
    row's generated_tool_calls as a JSON string (a list everywhere else); return `dest`."""
    shutil.copytree(src, dest)
    path = dest / "data" / "gpt5_4.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    pad = "x" * (CHUNK // len(rows) + 1000)
    for row in rows:
        row["notes"] = pad  # a column the loader does not use
    rows[-1]["generated_tool_calls"] = json.dumps(rows[-1]["generated_tool_calls"])
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert path.stat().st_size > CHUNK + 1000
    return dest


@pytest.fixture(scope="module")
def repos(tmp_path_factory) -> dict[str, Path]:
    """Return commit sha -> folder served at that commit."""
    base = tmp_path_factory.mktemp("hub_repos")
    v1 = reduced_copy(paths.SAMPLE_DIR, base / "v1", N_V1)
    return {MAIN: paths.SAMPLE_DIR, V1: v1, BROKEN: _late_type_change(v1, base / "broken")}


@pytest.fixture(scope="module")
def hub(repos):
    """The stand-in, serving for the whole module."""
    with HubStandIn(REPO, repos, {"main": MAIN, "v1.0": V1}) as standin:
        yield standin


def _point_clients_at(endpoint: str, home: Path, monkeypatch) -> dict[str, str]:
    """Point huggingface_hub, datasets and ajb_utils (already imported) at `endpoint`, every
    cache under `home`; return the environment for subprocesses."""
    import datasets.config as ds_config
    import huggingface_hub.constants as hf_constants

    env = hub_env(endpoint, home)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    # Both libraries read HF_ENDPOINT and the cache folders into constants at import time.
    monkeypatch.setattr(hf_constants, "ENDPOINT", endpoint)
    monkeypatch.setattr(
        hf_constants, "HUGGINGFACE_CO_URL_TEMPLATE", endpoint + "/{repo_id}/resolve/{revision}/{filename}"
    )
    monkeypatch.setattr(hf_constants, "HF_HUB_CACHE", env["HF_HUB_CACHE"])
    monkeypatch.setattr(hf_constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(ds_config, "HF_ENDPOINT", endpoint)
    monkeypatch.setattr(ds_config, "HUB_DATASETS_URL", endpoint + "/datasets/{repo_id}/resolve/{revision}/{path}")
    cache = Path(env["HF_DATASETS_CACHE"])
    monkeypatch.setattr(ds_config, "HF_DATASETS_CACHE", cache)
    monkeypatch.setattr(ds_config, "HF_MODULES_CACHE", home / "hf_home" / "modules")
    monkeypatch.setattr(ds_config, "DOWNLOADED_DATASETS_PATH", cache / "downloads")
    monkeypatch.setattr(ds_config, "EXTRACTED_DATASETS_PATH", cache / "downloads" / "extracted")
    # ajb_utils.cache reads $AJB_CACHE_DIR (set above) at every call
    return env


@pytest.fixture
def client(hub, tmp_path, monkeypatch) -> HubStandIn:
    """The stand-in, with the clients pointed at it and fresh caches under tmp_path."""
    _point_clients_at(hub.endpoint, tmp_path, monkeypatch)
    return hub


@pytest.fixture
def stopped(tmp_path, monkeypatch) -> dict[str, str]:
    """Clients pointed at a stand-in that has been stopped (its port refuses connections);
    return the environment for subprocesses."""
    standin = HubStandIn(REPO, {MAIN: paths.SAMPLE_DIR}, {"main": MAIN}).start()
    endpoint = standin.endpoint
    standin.stop()
    return _point_clients_at(endpoint, tmp_path, monkeypatch)


# ---- the stand-in answers the clients' routes -------------------------------------------------
def test_standin_answers_the_routes_the_clients_call(client, tmp_path):
    from huggingface_hub import HfApi, get_hf_file_metadata, hf_hub_download, hf_hub_url
    from huggingface_hub.utils import RepositoryNotFoundError, RevisionNotFoundError

    api = HfApi()
    assert api.dataset_info(REPO).sha == MAIN
    assert api.dataset_info(REPO, revision="v1.0").sha == V1
    assert api.dataset_info(REPO, revision=V1[:7]).sha == V1
    tree = {e.path: e for e in api.list_repo_tree(REPO, repo_type="dataset", recursive=True)}
    assert "data/main.jsonl" in tree and "data" in tree
    main_path = paths.SAMPLE_DIR / "data" / "main.jsonl"
    assert tree["data/main.jsonl"].size == main_path.stat().st_size
    info = api.get_paths_info(REPO, ["README.md", "data", "no_such_file"], repo_type="dataset")
    assert [(type(e).__name__, e.path) for e in info] == [("RepoFile", "README.md"), ("RepoFolder", "data")]
    url = hf_hub_url(REPO, "data/main.jsonl", repo_type="dataset")
    meta = get_hf_file_metadata(url)
    git_oid = subprocess.run(
        ["git", "hash-object", str(main_path)], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert (meta.commit_hash, meta.etag, meta.size) == (MAIN, git_oid, main_path.stat().st_size)
    local = hf_hub_download(REPO, "data/main.jsonl", repo_type="dataset", revision="v1.0")
    assert Path(local).read_bytes() == (client.commits[V1] / "data" / "main.jsonl").read_bytes()
    assert Path(local).parent.parent.name == V1  # the snapshot folder is named by the commit
    with pytest.raises(RevisionNotFoundError):
        api.dataset_info(REPO, revision="no-such-tag")
    with pytest.raises(RepositoryNotFoundError):
        api.dataset_info("someone/else")
    assert str(tmp_path) in local  # caches under the test's folder, never the user's


# ---- load_bench("hf") through the stand-in ---------------------------------------------------
def test_hf_equals_sample_frame_for_frame_and_names_its_commit(client, tmp_path):
    """The hub's bytes are read into the sample's frames (the files downloaded, then read as for a
    local folder)."""
    hf = load_bench("hf", runs=None)
    sample = load_bench("sample", runs=None)
    for name in FRAMES:
        pd.testing.assert_frame_equal(getattr(hf, name), getattr(sample, name), obj=name)
    assert len(hf.verdicts) > 0 and hf.synthetic and sample.synthetic
    # an unpinned load records the commit it read, wherever provenance is written
    assert (hf.label, hf.revision) == ("hf", MAIN)
    assert MAIN in hf.provenance()
    assert f"revision `{MAIN}`" in provenance.banner_text(hf.label, hf.synthetic, hf.source, hf.revision)
    prov = json.loads(provenance.write_provenance(hf, tmp_path).read_text())
    assert (prov["source"], prov["revision"]) == ("hf", MAIN)
    assert client.unhandled == []


def test_every_read_of_an_unpinned_load_uses_the_resolved_commit(client):
    start = len(client.requests)
    load_bench("hf", generators=["gpt5_4"], judges=["judge_gpt_5_4"], runs=None)
    resolves = [p for _m, p, _ua in client.requests[start:] if "/resolve/" in p]
    assert resolves and all(f"/resolve/{MAIN}/" in p for p in resolves)


def test_pinned_revision_reads_that_commit(client):
    bench = load_bench("hf", revision="v1.0", runs=None)
    n_sample = len((paths.SAMPLE_DIR / "data" / "main.jsonl").read_text().splitlines())
    assert (bench.revision, len(bench.records)) == (V1, N_V1)
    assert N_V1 < n_sample
    assert {p for _m, p, _ua in client.requests if f"/resolve/{MAIN}/" in p}.isdisjoint(
        p for _m, p, _ua in client.requests if f"/resolve/{V1}/" in p
    )


@pytest.mark.parametrize("revision, commit", [("v1.0", V1), (V1, V1), (V1[:7], V1), ("main", MAIN), (None, MAIN)])
def test_revision_names_resolve_to_their_commit(client, revision, commit):
    assert probe_hub("hf", revision) == commit


def test_unknown_revision_is_one_line(client):
    with pytest.raises(HubUnavailable) as err:
        load_bench("hf", revision="v9.9")
    assert "revision 'v9.9' does not exist" in str(err.value)
    assert len(str(err.value).splitlines()) == 1


def test_a_value_arrow_cannot_type_is_read_from_the_downloaded_file(client, monkeypatch):
    """A revision whose generator file re-encodes one value (Arrow's inference would fail) is read
    from its file, downloaded at that commit, into the frames of the same rows."""
    import huggingface_hub

    calls: list[tuple[str, str | None]] = []
    real = huggingface_hub.hf_hub_download

    def spy(repo_id, filename, **kwargs):
        calls.append((filename, kwargs.get("revision")))
        return real(repo_id, filename, **kwargs)

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", spy)
    bench = load_bench("hf", revision=BROKEN, runs=None, cache=False)
    assert ("data/gpt5_4.jsonl", BROKEN) in calls
    reference = load_bench(client.commits[V1], runs=None)  # same rows, one value re-encoded
    for name in ("records", "generations", "verdicts"):
        pd.testing.assert_frame_equal(getattr(bench, name), getattr(reference, name), obj=name)


# ---- offline: one line, after one question with the probe's own timeout --------------------------
def test_stopped_hub_fails_in_one_line_after_one_question(stopped, monkeypatch):
    """No wall clock: the hub is asked once, with the probe's timeout (HUB_TIMEOUT), and no retries."""
    from huggingface_hub import HfApi

    from ajb_utils import data

    asked: list[float | None] = []
    original = HfApi.dataset_info

    def dataset_info(self, *args, **kwargs):
        asked.append(kwargs.get("timeout"))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(HfApi, "dataset_info", dataset_info)
    with pytest.raises(HubUnavailable) as err:
        load_bench("hf")
    assert asked == [data.HUB_TIMEOUT] and data.HUB_TIMEOUT <= 10
    message = str(err.value)
    assert len(message.splitlines()) == 1
    assert message.startswith(f"cannot reach '{REPO}' at {stopped['HF_ENDPOINT']}")
    assert "Offline, use data_source='sample'" in message
    assert err.value.__suppress_context__  # no chained traceback from inside the client


def test_offline_mode_reads_the_commit_cached_by_an_earlier_load(client, monkeypatch):
    import datasets.config as ds_config
    import huggingface_hub.constants as hf_constants

    subset = dict(generators=["gpt5_4"], judges=["judge_gpt_5_4"], runs=None)
    online = load_bench("hf", **subset)
    for pinned in ("v1.0", None):  # only main was read: v1.0 is not cached
        monkeypatch.setattr(hf_constants, "HF_HUB_OFFLINE", True)
        monkeypatch.setattr(ds_config, "HF_HUB_OFFLINE", True)
        n_requests = len(client.requests)
        if pinned:
            with pytest.raises(HubUnavailable, match="HF_HUB_OFFLINE is set and revision v1.0"):
                load_bench("hf", revision=pinned, **subset)
            continue
        offline = load_bench("hf", **subset)
        assert offline.revision == online.revision == MAIN
        assert len(client.requests) == n_requests  # the hub was not asked
        pd.testing.assert_frame_equal(offline.verdicts, online.verdicts)


def test_unreachable_hub_names_a_cached_commit(client, monkeypatch):
    load_bench("hf", generators=[], judges=[], runs=None)  # caches main's commit
    standin = HubStandIn(REPO, {MAIN: paths.SAMPLE_DIR}, {"main": MAIN}).start()
    endpoint = standin.endpoint
    standin.stop()
    import huggingface_hub.constants as hf_constants

    monkeypatch.setattr(hf_constants, "ENDPOINT", endpoint)
    with pytest.raises(HubUnavailable, match=f"commit {MAIN[:12]} is cached: set HF_HUB_OFFLINE=1"):
        load_bench("hf")


def test_probe_of_a_local_source_needs_no_hub(stopped):
    assert probe_hub("sample") is None
    with pytest.raises(BenchDataError, match="does not exist"):
        probe_hub("./no/such/folder")


@pytest.fixture
def hub_down(tmp_path, monkeypatch):
    """A loopback server answering every request with 503, counting the requests it got; yields
    (environment for subprocesses, list of request lines)."""
    import socket
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    lines: list[str] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            with conn:
                lines.append(conn.recv(65536).split(b"\r\n", 1)[0].decode())
                conn.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield _point_clients_at(f"http://127.0.0.1:{srv.getsockname()[1]}", tmp_path, monkeypatch), lines
    finally:
        srv.close()


@pytest.mark.parametrize(
    "script, offline_command",
    [
        ("reproduce.py", "python scripts/reproduce.py"),
        ("run_notebooks.py", "python scripts/run_notebooks.py --params papermill_params/sample.yaml"),
    ],
)
def test_scripts_fail_in_one_line_after_one_question_offline(hub_down, script, offline_command):
    """No wall clock: the script asks the hub's dataset route once (no retries, so it takes the
    probe's timeout at most) and says so in one line."""
    env, requests = hub_down
    proc = subprocess.run(
        [
            sys.executable,
            str(paths.REPO_ROOT / "scripts" / script),
            "--params",
            str(paths.REPO_ROOT / "papermill_params" / "hf.yaml"),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert [r for r in requests if "/api/datasets/" in r] == [f"GET /api/datasets/{REPO} HTTP/1.1"], requests
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"error: cannot reach '{REPO}'")
    assert f"Offline, this works: {offline_command}" in lines[0]


def test_a_data_source_error_in_one_notebook_stops_the_run(tmp_path):
    nb_dir = tmp_path / "nbs"
    nb_dir.mkdir()
    for stem in ("01_first", "02_second"):
        nb = new_notebook(
            cells=[
                new_code_cell(  # out_dir under tmp_path: the failed run marks it, not figures/sample/
                    f'data_source: str = "sample"  # source\nout_dir: str = {str(tmp_path / "figures")!r}  # outputs',
                    metadata={"tags": ["parameters"]},
                ),
                new_code_cell(
                    "from ajb_utils.data import BenchDataError\nraise BenchDataError('config main lacks column id')"
                ),
            ]
        )
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(nb, nb_dir / f"{stem}.ipynb")
    params = tmp_path / "source.yaml"
    params.write_text("default:\n  data_source: sample\n")
    proc = subprocess.run(
        [
            sys.executable,
            str(paths.REPO_ROOT / "scripts" / "run_notebooks.py"),
            "--params",  # not sample.yaml: its `out_dir: null` would send outputs to figures/sample/
            str(params),
            "--notebooks-dir",
            str(nb_dir),
            "--output-dir",
            str(tmp_path / "out"),
            "--failed-dir",
            str(tmp_path / "failed"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "02_second" not in proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: config main lacks column id"), proc.stderr
    assert "(in 01_first; the run stopped there" in lines[0]


# ---- a notebook with the hf parameter set ----------------------------------------------------
def test_notebook_01_runs_on_the_hub_through_the_standin(client, tmp_path):
    env = {**os.environ, **hub_env(client.endpoint, tmp_path)}
    params = tmp_path / "hf_standin.yaml"
    out = tmp_path / "figures"
    # the 20-record commit, by its tag: quick, and the outputs must name the commit, not the tag
    params.write_text(f"default:\n  data_source: hf\n  revision: v1.0\n  out_dir: {out}\n")
    proc = subprocess.run(
        [
            sys.executable,
            str(paths.REPO_ROOT / "scripts" / "run_notebooks.py"),
            "--params",
            str(params),
            "--only",
            "01",
            "--output-dir",
            str(tmp_path / "nb"),
            "--failed-dir",
            str(tmp_path / "failed"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    prov = json.loads((out / "PROVENANCE.json").read_text())
    assert (prov["source"], prov["revision"], prov["synthetic"]) == ("hf", V1, True)
    executed = nbformat.read(tmp_path / "nb" / "01_dataset_statistics.ipynb", as_version=4)
    shown = json.dumps([c.get("outputs", []) for c in executed.cells])
    assert f"revision `{V1}`" in shown
    assert any(p.endswith(".csv") for p in os.listdir(out))
    assert client.unhandled == []
