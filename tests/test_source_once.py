"""The source resolved once: what it is, its revision, its card, its runs and its input files are
asked once per load (cold build or warm read), and a mirror that lacks a file its card names is a
one-line error naming the file and what to do, whichever file it is."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ajb_utils.data as data_mod
from ajb_utils.data import BenchDataError, load_bench
from mini_repo import write_mini_repo

RUNS = ("run_a", "run_b")


def _mirror(root: Path) -> Path:
    """Return the mini repo with two judge runs in runs/, listed in its card as the sample lists its runs."""
    write_mini_repo(root, "nested")
    (root / "runs").mkdir()
    judge = (root / "data" / "judge_gpt_5_4.jsonl").read_text()
    for name in RUNS:
        (root / "runs" / f"{name}.jsonl").write_text(judge)
        (root / "runs" / f"{name}.meta.json").write_text(json.dumps({"name": name, "judge": name}))
    readme = (root / "README.md").read_text()
    listed = "".join(f"- config_name: {n}\n  data_files:\n  - split: train\n    path: runs/{n}.jsonl\n" for n in RUNS)
    (root / "README.md").write_text(readme.replace("---\n\n# mini", f"{listed}---\n\n# mini", 1))
    return root


def _card_files(root: Path) -> list[str]:
    """Return every file the mirror's card names (its `path:` entries), read independently of the loader."""
    return [
        line.split("path:", 1)[1].strip() for line in (root / "README.md").read_text().splitlines() if "path:" in line
    ]


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """Return a complete mirror to copy (its card names 5 files: 3 configs and 2 runs)."""
    root = _mirror(tmp_path_factory.mktemp("mirror") / "m")
    assert len(_card_files(root)) == 5
    return root


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_file_the_card_names_missing_is_one_line_naming_it(template, tmp_path_factory, data):
    """Any file the card names (a config's data file or a listed run), removed from the mirror: one
    line that names the file and says what to do, on a cold build and with a build present."""
    root = tmp_path_factory.mktemp("broken") / "m"
    shutil.copytree(template, root)
    gone = data.draw(st.sampled_from(_card_files(root)))
    built = data.draw(st.booleans())
    if built:
        load_bench(root)
    (root / gone).unlink()
    with pytest.raises(BenchDataError) as err:
        load_bench(root)
    text = str(err.value)
    assert gone in text and "\n" not in text
    assert "download" in text or "copy" in text  # what to do
    assert not isinstance(err.value.__cause__, FileNotFoundError)
    if gone.startswith("runs/"):  # a load that reads no runs needs none of them
        assert load_bench(root, runs=None).judges["judge"].tolist() == ["judge_gpt_5_4"]


def test_the_generator_finds_the_listed_cases(template):
    """The two cases the issue names are in the class the test draws from: a config's data file
    (a raw FileNotFoundError before) and a run the card lists (loaded silently before)."""
    files = _card_files(template)
    assert "data/judge_gpt_5_4.jsonl" in files and "runs/run_a.jsonl" in files


def _counting(monkeypatch, names: list[str]) -> dict[str, int]:
    """Count the calls of the loader's source steps (as `ajb_utils.data` calls them)."""
    calls = dict.fromkeys(names, 0)
    for name in names:
        real = getattr(data_mod, name)

        def counted(*args, _real=real, _name=name, **kwargs):
            """Count one call, then make it."""
            calls[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(data_mod, name, counted)
    return calls


STEPS = ["resolve_source", "read_card", "select_runs"]


@pytest.mark.parametrize("runs", ["shipped", None, ["run_b"]])
def test_a_cold_build_and_a_warm_read_resolve_the_source_once(template, tmp_path, monkeypatch, runs):
    """Each step of resolving the source (what it is, its card, its runs of each kind) is taken once per load."""
    root = tmp_path / "m"
    shutil.copytree(template, root)
    for _ in ("cold", "warm"):
        calls = _counting(monkeypatch, STEPS)
        load_bench(root, runs=runs)
        monkeypatch.undo()
        assert calls == {"resolve_source": 1, "read_card": 1, "select_runs": 2}  # runs: judges, generators


def test_a_hub_load_asks_the_commit_once(monkeypatch):
    """The hub's commit is asked once per load, and the build is keyed and read at that commit."""
    answers = iter(["a" * 40, "b" * 40])
    calls = _counting(monkeypatch, ["resolve_source"])
    monkeypatch.setattr(data_mod, "hub_commit", lambda repo, revision=None, **kw: next(answers))
    read: list[str | None] = []

    def read_card(src, revision):
        """Record the revision the card is read at, then stop."""
        read.append(revision)
        raise RuntimeError("stop after the card is asked")

    monkeypatch.setattr(data_mod, "read_card", read_card)
    with pytest.raises(RuntimeError, match="stop after"):
        data_mod.build_bench("hf", runs=None)
    assert read == ["a" * 40] and calls["resolve_source"] == 1


def _converted(bench) -> dict[str, str]:
    """Return {config: message} of the configs the load says it converted to the released layout."""
    said = [m for m in bench.messages if "converted line by line" in m]
    return {m.split("'")[1]: m for m in said}


def test_a_file_not_in_the_released_layout_says_it_was_converted_and_why(tmp_path):
    """The conversion step says which config it converted and why (what Arrow's reader of the
    released layout met); a config in the released layout is read as it is, without a word."""
    strings = _converted(load_bench(write_mini_repo(tmp_path / "s", "string"), runs=None, cache=False))
    assert set(strings) == {"gpt5_4", "judge_gpt_5_4"}
    assert all("Arrow's JSON reader" in m and "\n" not in m for m in strings.values())
    sample = _converted(load_bench("sample", runs=None, cache=False))
    assert set(sample) == {"smollm3_3b"}  # its one text output (the authors' </think> rule)
    assert "changed from array to string" in sample["smollm3_3b"]
