"""ajb_utils.report, .figures and .artifacts: files on disk, fonts, banner, artifact map."""

from __future__ import annotations

import platform
import re
from pathlib import Path
from types import SimpleNamespace

import matplotlib

import ajb_verify as verify

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from ajb_run.kernel import kernel_environment
from ajb_utils import environment, figures, paths, provenance, report, schema  # noqa: E402
from ajb_verify import artifacts

SHARED_ARTIFACTS_MD = paths.REPO_ROOT.parent / "shared" / "ARTIFACTS.md"


@pytest.fixture()
def table() -> pd.DataFrame:
    return pd.DataFrame(
        {"judge": ["judge_gpt_5_4", "judge_qwq_32b"], "with_gt": [89.123, 85.6], "without_gt": [80.0, None]}
    ).set_index("judge")


def test_write_table_writes_csv_and_booktabs_tex(table: pd.DataFrame, tmp_path: Path) -> None:
    written = report.write_table(table, "T02", "main_alignment", tmp_path, caption="Alignment (\\%)")
    assert [p.name for p in written] == ["T02_main_alignment.csv", "T02_main_alignment.tex"]
    tex = written[1].read_text()
    for rule in ("\\toprule", "\\midrule", "\\bottomrule"):
        assert tex.count(rule) == 1, rule
    assert "\\label{tab:T02}" in tex and "\\caption{Alignment (\\%)}" in tex
    assert "with\\_gt" in tex and "GPT-5.4" in tex  # underscores escaped; display names for a reader
    assert "89.1" in tex and "--" in tex  # float_format and NaN
    back = pd.read_csv(written[0], index_col="judge")
    assert back.loc["judge_gpt_5_4", "with_gt"] == pytest.approx(89.123)


def test_write_table_hides_range_index_and_formats_floats_only(tmp_path: Path) -> None:
    df = pd.DataFrame({"a": [1.23456], "b": ["x"], "n": [3808]})
    csv, tex = report.write_table(df, "X1", "audit", tmp_path, float_format="%.2f")
    assert csv.read_text().splitlines()[0] == "a,b,n"
    body = tex.read_text()
    assert "1.23" in body and "1.235" not in body
    assert "3808 " in body and "3808.00" not in body  # integers are not float-formatted


def test_written_files_repr_has_no_absolute_paths(tmp_path: Path) -> None:
    inside = report.WrittenFiles([paths.FIGURES_DIR / "sample" / "T02_x.csv"])
    assert repr(inside) == "wrote figures/sample/T02_x.csv"
    outside = report.WrittenFiles([tmp_path / "a.csv"])
    assert str(tmp_path) not in repr(outside)


def _line_plot() -> plt.Figure:
    figures.set_style()
    fig, ax = plt.subplots()
    for j in schema.MAIN_JUDGES:
        ax.plot(
            [0, 1, 2],
            [90, 85, 80],
            color=figures.judge_color(j),
            label=schema.display(j),
            **figures.condition_style("with_gt"),
        )
    ax.set_xlabel("difficulty")
    ax.legend()
    return fig


def test_save_fig_writes_png_and_pdf_with_truetype_fonts(tmp_path: Path) -> None:
    fig = _line_plot()
    written = figures.save_fig(fig, "F08", "degradation_curves", tmp_path)
    plt.close(fig)
    assert [p.name for p in written] == ["F08_degradation_curves.png", "F08_degradation_curves.pdf"]
    png, pdf = (p.read_bytes() for p in written)
    assert png.startswith(b"\x89PNG") and b"Software" not in png
    assert pdf.startswith(b"%PDF")
    assert b"/FontFile2" in pdf or b"TrueType" in pdf  # Type 42 embedding
    assert b"/Type3" not in pdf
    assert b"CreationDate" not in pdf


def test_save_fig_is_byte_reproducible(tmp_path: Path) -> None:
    fig = _line_plot()
    first = [p.read_bytes() for p in figures.save_fig(fig, "F08", "a", tmp_path / "1")]
    second = [p.read_bytes() for p in figures.save_fig(fig, "F08", "a", tmp_path / "2")]
    plt.close(fig)
    assert first == second


def test_judge_colors_distinct_and_grey_for_new_judges() -> None:
    colors = [figures.judge_color(j) for j in schema.JUDGES]
    assert len(set(colors)) == len(schema.JUDGES)
    assert figures.NEUTRAL_GREY not in colors
    assert figures.judge_color("my_new_judge") == figures.NEUTRAL_GREY
    assert figures.judge_color("judge_reranker_gemini") == figures.judge_color("judge_gemini_2_5_pro")
    assert figures.judge_color("QwQ-32B") == figures.judge_color("judge_qwq_32b")
    assert len({figures.generator_color(g) for g in schema.GENERATORS}) == len(schema.GENERATORS)
    assert figures.generator_color("gpt_5_4") == figures.generator_color("gpt5_4")


def test_condition_styles() -> None:
    assert figures.condition_style("with_gt")["linestyle"] == "-"
    assert figures.condition_style("without_gt")["linestyle"] == "--"
    styles = {str(figures.condition_style(c)) for c in schema.CONDITIONS}
    assert len(styles) == len(schema.CONDITIONS)


def test_banner_text() -> None:
    synthetic = provenance.banner_text("sample", synthetic=True)
    assert "SYNTHETIC SAMPLE — numbers are not the paper's" in synthetic
    assert "\n" not in synthetic
    real = provenance.banner_text("hf", synthetic=False, source="ServiceNow-AI/AgentJudgeBench", revision="13ac79a")
    assert "SYNTHETIC" not in real and "13ac79a" in real
    shown = provenance.banner_text("sample", True, source=str(paths.SAMPLE_DIR))
    assert str(paths.REPO_ROOT) not in shown and "data/sample" in shown
    assert provenance.bench_banner(SimpleNamespace(label="sample", synthetic=True)).data == synthetic


def test_data_label() -> None:
    assert provenance.data_label("sample") == "sample"
    assert provenance.data_label("hf") == "hf"
    assert provenance.data_label(schema.HF_REPO_ID) == "hf"
    assert provenance.data_label("/data/mirrors/AgentJudgeBench") == "AgentJudgeBench"


def test_output_dir_absolute(tmp_path: Path) -> None:
    out = provenance.output_dir("sample", tmp_path / "x")
    assert out == tmp_path / "x" and out.is_dir()


def test_checks_table_is_the_engine() -> None:
    df = verify.checks_table(
        [
            verify.verdict("CF1.monotone_pairs", (29, 30)),
            verify.verdict("CF1.slope_ratio", 1.48),
            verify.verdict("P.records", 120, full_data=False),
        ]
    )
    assert list(df.columns) == verify.CHECK_COLUMNS
    assert df["holds"].tolist() == ["no", "yes", "n/a"]
    assert df["kind"].tolist() == ["share", "value", "count"]
    with pytest.raises(TypeError):
        verify.checks_table([("monotone decline", "30/30", "29/30", False)])


def test_show_never_truncates_silently(capsys) -> None:
    """Up to 40 rows every row and column is shown; a longer table is cut with a line that says so."""
    report.show(pd.DataFrame({"x": range(40), "y": ["a" * 80] * 40}))
    out = capsys.readouterr().out
    assert "39" in out and "..." not in out and "rows x" not in out and "showing" not in out
    report.show(pd.DataFrame({"x": range(300), "y": ["a" * 80] * 300}))
    out = capsys.readouterr().out
    assert "showing the first 40 of 300 rows" in out and "\n39 " in out and "\n40 " not in out
    assert "..." not in out and "rows x" not in out


def test_environment_report_is_machine_independent() -> None:
    env = environment.environment_report()
    assert list(env.columns) == ["component", "version"]
    assert {"python", "platform", "numpy", "pandas", "scipy", "matplotlib", "seaborn", "datasets", "papermill"} <= set(
        env["component"]
    )
    text = env.to_string()
    assert "/" not in text and "\\" not in text
    assert platform.node() not in text or platform.node() == ""
    assert not re.search(r"\d{4}-\d{2}-\d{2}", text)


def test_kernel_environment_puts_repo_first() -> None:
    env = kernel_environment({"PYTHONPATH": "/elsewhere"})
    assert env["PYTHONPATH"].split(":")[0] == str(paths.REPO_ROOT)
    assert "/elsewhere" in env["PYTHONPATH"]


# ---- artifact map ----------------------------------------------------------------------------
# rows of artifacts.csv that the paper's artifact map (shared ARTIFACTS.md) does not list: X6, the reproduction
# scorecard (notebook 18), is the package's summary of every comparison, not a paper artifact
PACKAGE_ONLY = {"X6"}


def test_artifact_table_ids_unique_and_origins_valid() -> None:
    df = artifacts.artifact_table()
    assert df["artifact_id"].is_unique
    assert set(df["origin"]) <= set(artifacts.ORIGIN_LEGEND)
    assert df["notebook"].str.match(r"^\d{2}_[a-z0-9_]+$").all()
    for row in df.itertuples():
        for f in artifacts.split_files(row.output_files):
            if row.artifact_id in PACKAGE_ONLY:  # the scorecard's fixed names (SCORECARD.md, ...)
                assert Path(f).suffix in {".csv", ".md", ".png", ".pdf"}, f
                continue
            assert f.startswith(f"{row.artifact_id}_"), f
            assert Path(f).suffix in {".csv", ".tex", ".png", ".pdf"}, f


def test_tables_have_csv_and_tex_figures_png_and_pdf() -> None:
    package_only = {
        f
        for r in artifacts.artifact_table().itertuples()
        if r.artifact_id in PACKAGE_ONLY
        for f in artifacts.split_files(r.output_files)
    }
    every = [f for cell in artifacts.artifact_table()["output_files"] for f in artifacts.split_files(cell)]
    files = [f for f in every if f not in package_only]
    stems = {Path(f).stem for f in files}
    for stem in stems:
        sfx = {Path(f).suffix for f in files if Path(f).stem == stem}
        assert sfx in ({".csv", ".tex"}, {".png", ".pdf"}, {".csv"}, {".csv", ".tex", ".png", ".pdf"}) or sfx == {
            ".csv",
            ".tex",
        } | {".png", ".pdf"}, (stem, sfx)


def test_expected_outputs_by_number_or_stem() -> None:
    by_num = artifacts.expected_outputs("03", "hf")
    assert by_num == artifacts.expected_outputs("03_main_results.ipynb", "hf")
    assert "figures/hf/T02_main_alignment.csv" in by_num
    assert "figures/hf/T02_main_alignment.tex" in by_num
    assert artifacts.expected_outputs("00_index", "sample") == []


@pytest.mark.skipif(not SHARED_ARTIFACTS_MD.exists(), reason="shared/ARTIFACTS.md not beside the repo")
def test_artifact_table_covers_shared_artifacts_md() -> None:
    ids: set[str] = set()
    for line in SHARED_ARTIFACTS_MD.read_text().splitlines():
        m = re.match(r"^\| ([A-Z][^|]*?) \|", line)
        if m and m.group(1) != "ID":
            ids |= {t.strip() for t in m.group(1).split(",")}
    ids = {"C-F" if t.startswith("C-F") else t for t in ids}
    table = set(artifacts.artifact_table()["artifact_id"])
    # the package's own rows are named, with a reason, and are not in the paper's map; the rest match exactly
    assert set(PACKAGE_ONLY) <= table and not set(PACKAGE_ONLY) & ids
    assert ids == table - set(PACKAGE_ONLY)


def test_the_map_includes_the_scorecard_notebook() -> None:
    """Notebook 18 is in the index's map, with the files it writes (the X1 audit and census, the scorecard)."""
    nbs = artifacts.notebook_map().set_index("notebook")
    assert "18_scorecard" in nbs.index and nbs.loc["18_scorecard", "artifacts"] == "X1, X6"
    files = [f"SCORECARD.{s}" for s in ("csv", "md", "pdf", "png")] + [
        "X1_census.csv",
        "X1_census_counts.csv",
        "X1_census_counts.tex",
        "X1_consistency_audit.csv",
        "X1_consistency_audit.tex",
    ]
    assert artifacts.expected_outputs("18", "sample") == [f"figures/sample/{f}" for f in files]


def test_every_output_file_has_a_notebook() -> None:
    """Every file the sample run wrote is attributed to the notebook that wrote it (or to the folder)."""
    files = artifacts.folder_files(paths.FIGURES_DIR / "sample")
    assert len(files) > 100
    own = set(files.loc[files["notebook"] == "", "file"])
    assert own == {"README.md", "PROVENANCE.json"}, own
    assert artifacts.notebook_of_file("T02_compare.csv") == "03_main_results"
    assert artifacts.notebook_of_file("T01-T24lift_compare.csv") == "10_anchoring"
    assert artifacts.notebook_of_file("SCORECARD.png") == "18_scorecard"


def test_sample_outputs_are_labelled_synthetic(tmp_path):
    """Figures and LaTeX tables written to a `sample` folder say the data is synthetic."""
    import matplotlib.pyplot as plt
    import pandas as pd

    from ajb_utils import figures, report

    out = tmp_path / "sample"
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    figures.save_fig(fig, "F99", "demo", out)
    figures.save_fig(fig, "F99", "demo", out)  # a second save adds no second note
    notes = [t for t in fig.texts if t.get_text() == provenance.SYNTHETIC_FIGURE_NOTE]
    assert len(notes) == 1
    plt.close(fig)
    files = report.write_table(pd.DataFrame({"a": [1.0]}), "T99", "demo", out, caption="Demo")
    tex = files[1].read_text()
    assert provenance.SYNTHETIC_NOTE in tex and "Demo [" in tex
    other = report.write_table(pd.DataFrame({"a": [1.0]}), "T99", "demo", tmp_path / "hf", caption="Demo")
    assert provenance.SYNTHETIC_NOTE not in other[1].read_text()


def test_output_dir_records_provenance(tmp_path):
    """write_provenance writes PROVENANCE.json naming the source and revision, deterministically."""
    import json
    from types import SimpleNamespace

    bench = SimpleNamespace(source="hf", revision="13ac79a", label="hf", synthetic=False)
    out = provenance.output_dir("hf", tmp_path / "hf")
    provenance.write_provenance(bench, out)
    record = json.loads((out / "PROVENANCE.json").read_text())
    assert record["source"] == "hf" and record["revision"] == "13ac79a"
    assert record["synthetic"] is False
    again = (out / "PROVENANCE.json").read_text()
    provenance.write_provenance(bench, out)
    assert (out / "PROVENANCE.json").read_text() == again  # deterministic


def test_synthetic_flag_follows_provenance(tmp_path):
    """A folder whose PROVENANCE.json says synthetic gets the labels whatever its name."""
    from types import SimpleNamespace

    mirror = provenance.output_dir("m", tmp_path / "my_mirror")
    provenance.write_provenance(SimpleNamespace(source="/x", revision="r", label="m", synthetic=True), mirror)
    assert provenance.is_synthetic_dir(mirror)
    real = provenance.output_dir("hf", tmp_path / "sample")
    provenance.write_provenance(SimpleNamespace(source="hf", revision="r", label="hf", synthetic=False), real)
    assert not provenance.is_synthetic_dir(real)  # provenance wins over the folder name


def test_for_reader_shows_display_names_order_and_no_negative_zero():
    """What a reader sees: paper names, easy/medium/hard, 0.0 for a rounded -0.04, 'n/a' for a NaN label."""
    import numpy as np
    import pandas as pd

    from ajb_utils import report

    idx = pd.MultiIndex.from_tuples(
        [("judge_gpt_5_4", "hard"), ("judge_gpt_5_4", "easy"), ("judge_qwq_32b", "medium"), ("judge_qwq_32b", "easy")],
        names=["judge", "difficulty"],
    )
    df = pd.DataFrame({"lift": [-0.04, 1.26, 2.0, -3.0], "generator": ["qwen3_32b"] * 4}, index=idx)
    out = report.for_reader(df, digits=1)
    assert list(out.index) == [("GPT-5.4", "easy"), ("GPT-5.4", "hard"), ("QwQ-32B", "easy"), ("QwQ-32B", "medium")]
    assert str(out.loc[("GPT-5.4", "hard"), "lift"]) == "0.0" and out["generator"].iloc[0] == "Qwen3-32B"
    nan_label = report.for_reader(pd.DataFrame({"x": [1.0, 2.0]}, index=["a", np.nan]))
    assert list(nan_label.index) == ["a", "n/a"]
    wide = report.for_reader(pd.DataFrame([[1.0, 2.0, 3.0]], columns=["hard", "easy", "medium"]))
    assert list(wide.columns) == ["easy", "medium", "hard"]
    listing = pd.DataFrame({"judge": ["judge_gpt_5_4"], "name": ["GPT-5.4"]})
    assert report.for_reader(listing)["judge"].iloc[0] == "judge_gpt_5_4"  # a config-name listing keeps them


def test_latex_tables_use_display_names_and_no_negative_zero(tmp_path):
    """The booktabs file a paper would \\input: GPT-5.4 (not judge\\_gpt\\_5\\_4), 0.0 (not -0.0); the CSV keeps config names."""
    import pandas as pd

    from ajb_utils import report

    df = pd.DataFrame({"judge": ["judge_gpt_5_4", "judge_qwq_32b"], "lift": [-0.04, -1.26]})
    csv, tex_path = report.write_table(df, "X", "lift", tmp_path, float_format="%.1f")
    tex = tex_path.read_text()
    assert pd.read_csv(csv)["judge"].tolist() == ["judge_gpt_5_4", "judge_qwq_32b"]
    assert "GPT-5.4" in tex and "QwQ-32B" in tex and "judge\\_gpt" not in tex
    assert " 0.0 " in tex and "-0.0" not in tex and "-1.3" in tex


# ---- comparisons for reading (heatmap + largest differences, the full table on disk) -------------
def _long_comparison() -> pd.DataFrame:
    """Return a 5 generators x 3 difficulties x 2 conditions comparison (30 rows) with known differences."""
    keys = pd.MultiIndex.from_product(
        [schema.GENERATORS, list(schema.DIFFICULTIES), ["with_gt", "without_gt"]],
        names=["generator", "difficulty", "condition"],
    ).to_frame(index=False)
    rep = keys.assign(value=80.0, source="s")
    mine = keys.assign(value=80.0 + 0.1 * pd.RangeIndex(len(keys)))  # row i differs by +0.1 i
    return verify.compare(mine, rep, on=["generator", "difficulty", "condition"])


def test_show_comparison_shows_heatmap_and_ten_largest_writes_everything(tmp_path: Path, capsys) -> None:
    from unittest import mock

    shown: list = []
    with mock.patch("IPython.display.display", side_effect=shown.append):
        verify.show_comparison(_long_comparison(), "T02", tmp_path)
    printed = capsys.readouterr().out
    figs = [x for x in shown if isinstance(x, plt.Figure)]
    frames = [x for x in shown if isinstance(x, pd.DataFrame)]
    assert len(figs) == 1 and len(frames) == 1
    top = frames[0]
    assert len(top) == 10
    # the ten largest are rows 29..20 (differences 2.9..2.0), largest first
    assert top["difference"].tolist() == pytest.approx([0.1 * i for i in range(29, 19, -1)])
    full = pd.read_csv(tmp_path / "T02_compare.csv")
    assert len(full) == 30  # nothing cut: the file holds every row
    assert "30 rows" in printed and "T02_compare.csv" in printed and "10 largest" in printed


def test_show_comparison_small_table_is_shown_whole(tmp_path: Path, capsys) -> None:
    from unittest import mock

    shown: list = []
    cmp = _long_comparison().head(4)
    with mock.patch("IPython.display.display", side_effect=shown.append):
        verify.show_comparison(cmp, "T11", tmp_path)
    assert [type(x) for x in shown] == [pd.DataFrame] and len(shown[0]) == 4
    assert "all 4 rows" in capsys.readouterr().out


def test_comparison_grid_puts_small_keys_on_columns() -> None:
    sbs = verify.side_by_side(_long_comparison())
    grid = verify.comparison_grid(sbs)
    assert grid.shape == (5, 6)  # generators on rows, difficulty x condition (6) on columns
    assert grid.columns[0] == "easy · with_gt" and grid.index[0] == schema.display(schema.GENERATORS[0])
    assert grid.iloc[0, 1] == pytest.approx(0.1) and grid.iloc[4, 5] == pytest.approx(2.9)
    one_sided = sbs.copy()
    one_sided.loc[3, "difference"] = float("nan")
    assert verify.comparison_grid(one_sided).isna().sum().sum() == 1
    fig, ax = verify.comparison_heatmap(sbs, "x")
    assert fig.get_size_inches()[0] == pytest.approx(6.9)
    plt.close(fig)


def test_prompt_diff_shows_the_c2_change() -> None:
    diff = report.prompt_diff("without_gt", "without_gt_05")
    removed = [x for x in diff.splitlines()[2:] if x.startswith("-")]
    added = [x for x in diff.splitlines()[2:] if x.startswith("+")]
    assert any("default to **1.0" in x for x in removed) and any("default to **0.5" in x for x in added)
    assert diff.splitlines()[0] == "--- without_gt (judge_no_gt.txt)"
    assert not report.prompt_template("freeform").startswith("#")  # the authors' notes are not sent
    assert report.prompt_diff("with_gt", "with_gt") == ""
    assert "Apache-2.0" in report.PROMPT_ATTRIBUTION


def test_focused_diff_keeps_the_changed_lines_that_name_the_focus() -> None:
    """A prompt diff trimmed to what its sentence needs: the header, hunks with a matching change, those lines."""
    from ajb_utils import report

    diff = "\n".join(
        [
            "--- a",
            "+++ b",
            "@@ -1,3 +1,3 @@",
            " context line",
            "-Scores should default to 1.0",
            "+Scores MUST default to 1.0",
            "@@ -9,2 +9,2 @@",
            "-other wording",
            "+new wording",
        ]
    )
    assert report.focused_diff(diff, "DEFAULT").splitlines() == [
        "--- a",
        "+++ b",
        "@@ -1,3 +1,3 @@",
        "-Scores should default to 1.0",
        "+Scores MUST default to 1.0",
    ]
    assert report.focused_diff(diff, "absent") == "--- a\n+++ b"
    whole = report.prompt_diff("with_gt", "without_gt", 1)
    focused = report.focused_diff(whole, "default")
    assert 0 < len(focused.splitlines()) < len(whole.splitlines()) and "default" in focused.lower()


def test_an_empty_table_is_one_line_never_empty_dataframe(capsys) -> None:
    """On the release's layout 07, 09 and 11 showed pandas' 'Empty DataFrame / Columns: [...] / Index: []'."""
    report.show(pd.DataFrame(columns=["difficulty", "delta"]))
    out = capsys.readouterr().out
    assert out == "(no rows on this data: the table is empty)\n"
