"""The reproduction scorecard: every compared value and every checked claim of one output folder.

Notebooks write what they compare (`display.show_comparison` -> ``<ID>_compare.csv``) and what they
check (`display.show_checks` and the C-F/C-W/C-J writers -> ``*_checks.csv``) into the output folder
(figures/<label>/). `write_scorecard` gathers them into ``SCORECARD.csv`` and ``SCORECARD.md``
(grouped by paper section, linked to the notebooks; tables that render as GFM) and one figure,
``SCORECARD.png/.pdf``: every compared value's relative difference from its reported value, one row
per artifact by paper section. `summary` is the one-screen text the main command
(scripts/reproduce.py) prints at its end. On the synthetic sample every line says so; on the
released data it is the reproduction verdict of the paper.

Every file is a deterministic function of the folder's CSVs: rows keep file order, every sort is
stable (ties go to the earlier row), and the figure is drawn and saved under one fixed style
(`FIGURE_STYLE`), whatever the caller's rcParams (a Jupyter kernel's differ from a script's).

Verdicts on the paper's own tables (the X1 audit, tables with a ``checked on`` column) are kept
apart from verdicts on data: they say whether the paper agrees with itself.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, MultipleLocator

from ajb_utils import paths
from ajb_utils.figures.style import STYLE_RC, TEXT_WIDTH, paper_figure, save_fig
from ajb_utils.provenance import SYNTHETIC_FIGURE_NOTE, SYNTHETIC_NOTE, is_synthetic_dir
from ajb_verify import artifacts, engine, headline
from ajb_verify.audit import census_rule_counts

SECTIONS: dict[str, str] = {
    "01_dataset_statistics": "§3.1 Dataset (App. C, D)",
    "02_programmatic_judge": "§3.2 Programmatic judge (App. G, I)",
    "03_main_results": "§4.2 Main results, Findings 1-3",
    "04_rq1_metrics_topology": "RQ1 Metrics and topologies",
    "05_rq2_agreement": "RQ2 Inter-judge agreement",
    "06_rq3_default_score": "RQ3 Default score (C2)",
    "07_rq4_temperature": "RQ4 Temperature",
    "08_rq5_thinking": "RQ5 Thinking",
    "09_rq6_prompt_format": "RQ6 Prompt format",
    "10_anchoring": "Anchoring (C3, App. H)",
    "11_human_validation": "Human validation (App. G)",
    "12_rewrite_validation": "Rewrite validation (App. N)",
    "13_self_preference": "Self-preference (App. O)",
    "14_decision_guide": "Decision guide (App. A)",
    "16_derivation_gap": "Derivation gap (ours)",
    "18_scorecard": "The paper against itself (X1 audit)",
}
SCORECARD_COLUMNS: list[str] = [
    "section",
    "notebook",
    "row",
    "id",
    "description",
    "paper value",
    "reproduced value",
    "kind",
    "tolerance",
    "holds",
    "values compared",
    "max |difference|",
    "within tolerance",
    "note",
    "class",
    "audit row",
]


def read_comparisons(out_dir: Path | str) -> pd.DataFrame:
    """Return every ``<ID>_compare.csv`` of a folder stacked: artifact, reported, reproduced, difference, within."""
    cols = ["artifact", "group", "reported", "reproduced", "difference", "tolerance", "within"]
    frames = []
    for p in sorted(Path(out_dir).glob("*_compare.csv")):
        df = pd.read_csv(p)
        df.insert(0, "artifact", p.stem.split("_", 1)[0])  # the ID a file is named for: 'T02_compare.csv' -> 'T02'
        key = next((c for c in ("stat", "variant") if c in df.columns), None)
        df["group"] = df["artifact"] + "|" + (df[key].astype(str) if key else "")
        frames.append(df[cols])
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=cols)


def read_checks(out_dir: Path | str) -> pd.DataFrame:
    """Return every engine checks table of a folder stacked, with the file's artifact and notebook."""
    frames, amap = [], artifacts.artifact_table()
    for p in sorted(Path(out_dir).glob("*checks.csv")):
        df = pd.read_csv(p, dtype=str, keep_default_na=False)
        if not set(engine.CHECK_COLUMNS) <= set(df.columns):
            continue  # not an engine table
        df["file"] = p.name
        df["notebook"] = artifacts.notebook_of(p.stem.split("_", 1)[0], amap)  # 'C-W_weighting_checks' -> C-W's
        if "checked on" not in df.columns:
            df["checked on"] = ""
        frames.append(df)
    cols = engine.CHECK_COLUMNS + ["file", "notebook", "checked on"]
    return pd.concat(frames, ignore_index=True)[cols] if frames else pd.DataFrame(columns=cols)


def artifact_rows(comparisons: pd.DataFrame) -> pd.DataFrame:
    """Return one row per artifact: values compared, max |difference|, how many within tolerance."""
    both = comparisons[comparisons["within"].isin(["yes", "no"])]
    g = both.groupby("artifact", sort=False)
    out = pd.DataFrame(
        {
            "values compared": g.size(),
            "max |difference|": g["difference"].agg(lambda d: d.abs().max()),
            "within tolerance": g["within"].agg(lambda w: int((w == "yes").sum())),
        }
    )
    return out.reset_index()


def claim_rows(checks: pd.DataFrame) -> pd.DataFrame:
    """Return one row per claim checked on data; a claim shown with two verdicts is marked CONFLICT."""
    g = checks[checks["checked on"] == ""].groupby("claim_id", sort=False)
    out = g[["claim", "paper value", "reproduced value", "kind", "tolerance", "note"]].first()
    out["holds"] = g["holds"].agg(
        lambda h: h.iloc[0] if h.nunique() == 1 else f"CONFLICT ({' / '.join(sorted(set(h)))})"
    )
    nbs = g["notebook"].agg(lambda n: list(dict.fromkeys(x for x in n if x)))
    out["note"] += nbs.map(lambda n: f" [shown in {', '.join(n)}]" if len(n) > 1 else "")
    out["notebook"] = nbs.str[0].fillna("")
    return out.rename(columns={"claim": "description"}).rename_axis("id").reset_index()


UNCHECKED_NOTE: str = engine.MISSING_DATA + "no notebook of this output folder checked it"


def unchecked_rows(checks: pd.DataFrame) -> pd.DataFrame:
    """Return an n/a claim row for every claim of engine.csv that no checks table of the folder
    holds (on data or in the audit), so every claim of the paper appears once in the scorecard."""
    todo, amap = engine.claims(), artifacts.artifact_table()
    todo = todo[~todo["claim_id"].isin(set(checks["claim_id"]))]
    return pd.DataFrame(
        {
            "id": todo["claim_id"],
            "description": todo["description"],
            "paper value": [engine.not_reproduced(c, "").paper for _, c in todo.iterrows()],
            "reproduced value": "not checked",
            "kind": todo["kind"],
            "tolerance": "",
            "holds": "n/a",
            "note": UNCHECKED_NOTE,
            "notebook": todo["artifact"].map(lambda a: artifacts.notebook_of(a, amap)),
        }
    )


def build(out_dir: Path | str) -> pd.DataFrame:
    """Return the scorecard of an output folder (SCORECARD_COLUMNS), artifacts then claims then audit."""
    cmp = read_comparisons(out_dir)
    chk = read_checks(out_dir)
    arts = artifact_rows(cmp).rename(columns={"artifact": "id"}).assign(row="artifact")
    amap = artifacts.artifact_table()
    arts["notebook"] = arts["id"].map(lambda a: artifacts.notebook_of(a, amap))
    arts["description"] = arts["id"].map(amap.set_index("artifact_id")["paper_artifact"]).fillna("")
    claims = pd.concat([claim_rows(chk), unchecked_rows(chk)], ignore_index=True).assign(row="claim")
    audit = chk[chk["checked on"] != ""].rename(columns={"claim_id": "id", "claim": "description"})
    audit = audit.assign(
        row="audit",
        note=audit["note"].where(audit["note"] == "", audit["note"] + "; ") + "checked on " + audit["checked on"],
    )
    out = pd.concat([arts, claims, audit], ignore_index=True).reindex(columns=SCORECARD_COLUMNS)
    for col in ("values compared", "within tolerance"):  # counts print as counts ("14", not "14.0")
        out[col] = out[col].astype("Int64")
    out["section"] = out["notebook"].map(SECTIONS).fillna("other")
    order = {nb: i for i, nb in enumerate(SECTIONS)}
    out["_o"] = out["notebook"].map(order).fillna(99)
    out["_r"] = out["row"].map({"artifact": 0, "claim": 1, "audit": 2})
    out = out.sort_values(["_o", "_r"], kind="stable").drop(columns=["_o", "_r"]).reset_index(drop=True)
    cls = headline.claim_classes(out[out["row"] == "claim"])
    out["class"] = cls["class"].reindex(out.index).fillna("")
    out["audit row"] = cls["audit row"].reindex(out.index).fillna("")
    out.attrs["values"] = headline.value_classes(headline.read_compare_files(out_dir))
    out.attrs["missing_rule"] = missing_rule_line(out_dir)
    out.attrs["census"] = read_census(out_dir)
    out.attrs["census_rule"] = read_census_rule(out_dir)
    return out


RULE_FIT_FILE: str = "T02_missing_rule_fit.csv"  # written by notebook 03 (tables.missing_rule_fit)
# written by notebook 18: verify.census_counts(verify.text_census(verify.paper_claim_verdicts()))
CENSUS_COUNTS_FILE: str = "X1_census_counts.csv"


def read_census(out_dir: Path | str) -> pd.DataFrame:
    """Return the census counts per section of the v1 text (`audit.census_counts`; empty if not computed)."""
    path = Path(out_dir) / CENSUS_COUNTS_FILE
    return pd.read_csv(path, keep_default_na=False) if path.exists() else pd.DataFrame(columns=["section"])


CENSUS_FILE: str = "X1_census.csv"  # written by notebook 18: every number, its class, check and status


def read_census_rule(out_dir: Path | str) -> pd.DataFrame:
    """Return the census by rule (`audit.census_rule_counts` of the folder's X1_census.csv; empty if absent)."""
    path = Path(out_dir) / CENSUS_FILE
    if not path.exists():
        return pd.DataFrame(columns=["rule"])
    census = pd.read_csv(path, dtype=str, keep_default_na=False)
    return census_rule_counts(census) if "class" in census.columns else pd.DataFrame(columns=["rule"])


def census_line(census: pd.DataFrame) -> str:
    """Return one line of the census totals ('' when the census was not computed)."""
    tot = census[census["section"] == "total"]
    if tot.empty:
        return ""
    t = tot.iloc[0]
    return (
        f"paper text census (v1): {int(t['numbers'])} numbers, {int(t['mapped'])} mapped to a table or claim, "
        f"{int(t['consistent'])} consistent (an independent source), {int(t['self-referential'])} self-referential, "
        f"{int(t['inconsistent'])} inconsistent, "
        f"{int(t['unchecked'])} unchecked, {int(t['unmapped'])} unmapped"
        + (f" ({int(t['unmapped data'])} unmapped data numbers)" if "unmapped data" in census.columns else "")
    )


def missing_rule_line(out_dir: Path | str) -> str:
    """Return one line naming the missing-verdict rule under which Table 2 reproduces best ('' if not computed)."""
    path = Path(out_dir) / RULE_FIT_FILE
    if not path.exists():
        return ""
    fit = pd.read_csv(path)
    best = fit.loc[fit["mean_abs_diff"].idxmin()]
    others = ", ".join(f"{r.missing} {r.mean_abs_diff:.2f}" for r in fit.itertuples() if r.missing != best["missing"])
    return (
        f"missing-verdict rule closest to Table 2: {best['missing']} (mean |diff| {best['mean_abs_diff']:.2f} pp "
        f"over {int(best['n_cells'])} cells; {others})"
    )


def _counts(card: pd.DataFrame, row: str) -> dict[str, int]:
    """Return holds counts (yes / no / indistinguishable / n/a / conflict) of one row type."""
    h = card.loc[card["row"] == row, "holds"].astype(str)
    counts = {k: int((h == k).sum()) for k in ("yes", "no", engine.INDISTINGUISHABLE, "n/a")}
    return counts | {"conflict": int(h.str.startswith("CONFLICT").sum())}


def headline_lines(card: pd.DataFrame) -> list[str]:
    """Return the headline: values and claims in the four classes, then each row in which the paper
    disagrees with itself beside its X1 audit row."""
    head = headline.headline(card)
    lines = [
        f"  {k}: " + ", ".join(f"{int(head.loc[k, c])} {c}" for c in headline.CLASSES) for k in ("values", "claims")
    ]
    vals = card.attrs.get("values")
    other = vals[vals["class"] == headline.OTHER_READING] if vals is not None and len(vals) else []
    if len(other):
        arts = ", ".join(dict.fromkeys(other["artifact"]))
        lines.append(f"  not counted: {len(other)} values of {arts} (another reading of a table counted once)")
    dis = headline.disagreements(card)
    if len(dis):
        pairs = "; ".join(
            f"{row.split(' (', 1)[0]} -> {aud}" + (f" ({v})" if v else "")
            for row, aud, v in zip(dis["row"], dis["audit row"], dis["audit verdict"])
        )
        text = f"the paper disagrees with itself (row -> its X1 audit row; table: SCORECARD.md): {pairs}"
        lines += textwrap.wrap(text, 118, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False)
    return lines


def summary(card: pd.DataFrame, label: str, synthetic: bool) -> str:
    """Return the one-screen summary of a scorecard (what the main command prints at its end)."""
    arts = card[card["row"] == "artifact"]
    n_cmp = int(arts["values compared"].fillna(0).sum())
    n_in = int(arts["within tolerance"].fillna(0).sum())
    c, a = _counts(card, "claim"), _counts(card, "audit")
    head = f"SCORECARD figures/{label}/ - " + (
        "SYNTHETIC SAMPLE: verdicts test the package, not the paper"
        if synthetic
        else "reproduction verdict of the paper"
    )
    lines = [head, *headline_lines(card)]
    lines += [
        f"  {len(arts)} artifacts: {n_in}/{n_cmp} reported values reproduced within tolerance",
        f"  {sum(c.values())} claims on data: {c['yes']} hold, "
        f"{c['no']} do not, {c['indistinguishable']} indistinguishable (CI spans 0), "
        f"{c['n/a']} not comparable here (data missing), {c['conflict']} conflicting",
        f"  paper consistency audit (X1): {a['yes']} consistent, {a['no']} inconsistent",
    ]
    census = card.attrs.get("census")
    if census is not None and census_line(census):
        lines.append("  " + census_line(census) + " (per section: SCORECARD.md)")
    if card.attrs.get("missing_rule"):
        lines.append("  " + card.attrs["missing_rule"] + (" - meaningless on synthetic data" if synthetic else ""))
    lines.append("  by section (values within / compared; claims holding / checked):")
    for sec, g in card.groupby("section", sort=False):
        ga, gc = g[g["row"] == "artifact"], g[g["row"] == "claim"]
        lines.append(
            f"    {sec:<48} {int(ga['within tolerance'].fillna(0).sum()):>5}/"
            f"{int(ga['values compared'].fillna(0).sum()):<5} "
            f"{int((gc['holds'] == 'yes').sum()):>3}/{len(gc):<3}"
        )
    lines.append(f"  full table: figures/{label}/SCORECARD.md (.csv); figure: SCORECARD.png")
    return "\n".join(lines)


FIGURE_CLIP: float = 100.0  # |relative difference| (%) beyond which a value is drawn at the axis edge
WITHIN_STYLE: dict = {"marker": "o", "color": "#0072B2", "s": 9, "linewidths": 0, "alpha": 0.75}  # Okabe-Ito blue
OUTSIDE_STYLE: dict = {"marker": "x", "color": "#D55E00", "s": 12, "linewidths": 0.8}  # Okabe-Ito vermillion
CLIPPED_STYLE: dict = {"marker": "D", "color": "#D55E00", "s": 12, "linewidths": 0}
ROW_LABEL_CHARS: int = 40  # a longer name wraps onto a second line
# matplotlib's defaults plus the package style, whatever the caller's rcParams (a Jupyter kernel's
# inline backend changes fonts and face colours): the figure's bytes depend on the data only
FIGURE_STYLE: list = ["default", STYLE_RC]


def plain_number(x: float) -> str:
    """Return a number as a reader reads it, never in scientific notation ('55,320', '12.5', '0.204')."""
    if x != x:
        return ""
    if float(x).is_integer():
        return f"{x:,.0f}"
    a = abs(x)
    return f"{x:,.1f}" if a >= 10 else (f"{x:.2f}" if a >= 1 else f"{x:.3f}")


def signed(x: float) -> str:
    """Return a rounded percentage with its sign, a true minus and no '-0' ('+12', '\u221297', '0')."""
    r = int(round(x))
    return "0" if r == 0 else (f"+{r}" if r > 0 else f"\u2212{-r}")


def relative_differences(comparisons: pd.DataFrame) -> pd.DataFrame:
    """Return the compared rows (within yes/no) with `scale` (the largest |reported| of the row's statistic)
    and `relative` = 100 * difference / scale, in file order."""
    both = comparisons[comparisons["within"].isin(["yes", "no"])].copy()
    rep = both.groupby("group", sort=False)["reported"].transform(lambda v: v.abs().max())
    rpr = both.groupby("group", sort=False)["reproduced"].transform(lambda v: v.abs().max())
    both["scale"] = rep.where(rep > 0, rpr.where(rpr > 0, 1.0))
    both["relative"] = 100.0 * both["difference"] / both["scale"]
    return both


def _row_order(ids: list[str], amap: pd.DataFrame) -> list[str]:
    """Return artifact IDs in paper order: by section, then by the artifact map's row, then by ID."""
    pos = {a: i for i, a in enumerate(amap["artifact_id"])}
    sec = {nb: i for i, nb in enumerate(SECTIONS)}

    def key(a: str) -> tuple[int, int, str]:
        base = a if a in pos else a.split("-")[0]
        return (sec.get(artifacts.notebook_of(a, amap), len(sec)), pos.get(base, len(pos)), a)

    return sorted(ids, key=key)


def _row_label(artifact_id: str, amap: pd.DataFrame) -> str:
    """Return a row label: the ID and the artifact's short name from the map ('T07  record counts by DAG
    topology'), wrapped at ROW_LABEL_CHARS (never cut)."""
    amap = amap.set_index("artifact_id")["paper_artifact"]
    base, _, variant = artifact_id.partition("-")
    known = artifact_id in amap.index or base not in amap.index
    name = str(amap.get(artifact_id if known else base, "")).split(": ", 1)[-1].split(" (")[0]
    name = name if known else f"{name} ({variant})"  # e.g. T11-topology: Table 11 under its topology reading
    lines = textwrap.wrap(name, ROW_LABEL_CHARS) or [""]
    return "\n".join([f"{artifact_id}  {lines[0]}".rstrip(), *lines[1:]])


def figure_scorecard(comparisons: pd.DataFrame, synthetic: bool) -> tuple[plt.Figure, np.ndarray]:
    """Return the scorecard figure: one row per compared artifact, grouped by paper section; each value's
    relative difference from the reported value (%); within tolerance as dots, outside as crosses;
    at the right, values within / compared and the largest difference (reported -> reproduced)."""
    rel = relative_differences(comparisons)
    amap = artifacts.artifact_table()
    ids = _row_order(list(dict.fromkeys(rel["artifact"])), amap)
    rows: list[tuple[str, str]] = []  # (kind, text): a section header or an artifact
    current = None
    for a in ids:
        sec = SECTIONS.get(artifacts.notebook_of(a, amap), "other")
        if sec != current:
            rows.append(("section", sec))
            current = sec
        rows.append(("artifact", a))
    labels = [_row_label(t, amap) if k == "artifact" else t for k, t in rows]
    height = 0.9 + 0.155 * max(len(rows), 3) + 0.14 * sum("\n" in t for t in labels)  # a wrapped label is taller
    fig, ax = paper_figure(TEXT_WIDTH, height)
    ax = np.atleast_1d(ax)[0]
    y_of = {text: -i for i, (kind, text) in enumerate(rows) if kind == "artifact"}
    golden = 0.6180339887
    side = dict(ha="left", fontsize=6, color="0.2")  # the column of counts right of the axes
    for a in ids:
        in_file = rel[rel["artifact"] == a]
        g = in_file.sort_values("relative", kind="stable")
        y = y_of[a] + (((np.arange(len(g)) * golden) % 1.0) - 0.5) * 0.56
        x = g["relative"].to_numpy(dtype=float)
        inside = (g["within"] == "yes").to_numpy()
        clipped = np.abs(x) > FIGURE_CLIP
        xc = np.clip(x, -FIGURE_CLIP * 1.04, FIGURE_CLIP * 1.04)
        ax.scatter(xc[inside & ~clipped], y[inside & ~clipped], zorder=4, **WITHIN_STYLE)
        ax.scatter(xc[~inside & ~clipped], y[~inside & ~clipped], zorder=3, **OUTSIDE_STYLE)
        ax.scatter(xc[clipped], y[clipped], zorder=3, **CLIPPED_STYLE)
        n_in, n = int(inside.sum()), len(g)
        note = f"{n_in}/{n}"
        if n_in < n:  # the largest relative difference outside tolerance (first in file order on a tie)
            out = in_file[in_file["within"] == "no"]
            worst = out.loc[out["relative"].abs().sort_values(ascending=False, kind="stable").index[0]]
            rep_, mine_ = (plain_number(worst[c]).replace("-", "\u2212") for c in ("reported", "reproduced"))
            note += f"   {signed(worst['relative'])} %: {rep_} \u2192 {mine_}"
        ax.text(1.01, y_of[a], note, transform=ax.get_yaxis_transform(), va="center", clip_on=False, **side)
    if not ids:
        ax.text(0.5, 0.5, "nothing compared in this folder", ha="center", va="center", transform=ax.transAxes)
    ax.axvline(0, color="0.3", linewidth=0.8, zorder=2)
    for i, (kind, _) in enumerate(rows):
        if kind == "section" and i > 0:
            ax.axhline(-i + 0.5, color="0.75", linewidth=0.5, zorder=1)
    ax.set_yticks([-i for i in range(len(rows))], labels, fontsize=6.5)
    for tick, (kind, _) in zip(ax.get_yticklabels(), rows):
        tick.set_fontweight("bold" if kind == "section" else "normal")
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="y", visible=False)
    ax.set_ylim(-len(rows) + 0.4, 0.6)
    ax.set_xlim(-FIGURE_CLIP * 1.09, FIGURE_CLIP * 1.09)
    ax.xaxis.set_major_locator(MultipleLocator(50))
    ax.xaxis.set_minor_locator(MultipleLocator(10))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: signed(v)))
    ax.set_xlabel("(reproduced \u2212 reported) / largest |reported| of the statistic (%)")
    ax.text(
        1.01,
        1.0,
        "within / compared; largest outside (%)",
        transform=ax.transAxes,
        va="bottom",
        fontweight="bold",
        **side,
    )
    legend = (
        (WITHIN_STYLE, "within tolerance"),
        (OUTSIDE_STYLE, "outside tolerance"),
        (CLIPPED_STYLE, f"outside, beyond \u00b1{FIGURE_CLIP:.0f} % (drawn at the edge)"),
    )
    handles = [Line2D([], [], linestyle="none", marker=st["marker"], color=st["color"], label=t) for st, t in legend]
    fig.legend(handles=handles, loc="outside lower center", ncol=3, fontsize=6.5, frameon=False)
    if synthetic:  # the one synthetic warning (save_fig sees the text and adds no second)
        fig.text(0.0, 1.0, SYNTHETIC_FIGURE_NOTE, ha="left", va="bottom", fontsize=6, color="0.45")
    return fig, np.array([ax])


def _md_cell(x: object) -> str:
    """Return one Markdown table cell: pipes escaped, NaN empty, numbers plain (counts as integers)."""
    if x is None or x is pd.NA or (isinstance(x, float) and np.isnan(x)):
        return ""
    if isinstance(x, (int, np.integer)):
        return f"{int(x)}"
    if isinstance(x, (float, np.floating)):
        return plain_number(float(x)).replace(",", "")
    return str(x).replace("|", "\\|").replace("\n", " ")


def _md_table(df: pd.DataFrame) -> str:
    """Return a Markdown (GFM) table of a frame: pipes escaped in the header and cells, NaN shown empty."""
    head = "| " + " | ".join(_md_cell(str(c)) for c in df.columns) + " |\n|" + "---|" * len(df.columns) + "\n"
    return head + "".join("| " + " | ".join(_md_cell(x) for x in r) + " |\n" for r in df.itertuples(index=False))


def markdown(card: pd.DataFrame, label: str, synthetic: bool) -> str:
    """Return SCORECARD.md: the summary, then per paper section its artifacts, claims and audit rows."""
    parts = [
        f"# Reproduction scorecard: figures/{label}/\n",
        (
            f"**{SYNTHETIC_NOTE}** The verdicts below test the package on synthetic data; they say "
            "nothing about the paper.\n"
            if synthetic
            else "Verdicts on the released data: the reproduction verdict of the paper.\n"
        ),
        "Kinds: value (within the printed precision plus the stated tolerance), sign, order "
        "(ranking or best-of), share (a count as a share of its population), range (inside a "
        "band), count (exact, only on the paper's population). `n/a`: not comparable on this "
        "data. Audit rows check the paper against itself.\n",
        "```\n" + summary(card, label, synthetic) + "\n```\n",
        "![scorecard figure](SCORECARD.png)\n",
        "Every compared value: its difference from the reported value as a percentage of the "
        "statistic's largest reported magnitude, one row per artifact by paper section; dots within "
        "tolerance, crosses outside, diamonds more than 100 % off (drawn at the edge). Notebook "
        "[18_scorecard](../../notebooks/18_scorecard.ipynb) shows this page and links every file of "
        "the folder.\n",
    ]
    dis = headline.disagreements(card)
    if len(dis):
        parts.append(
            "## The paper disagrees with itself\n\nEach row a faithful reproduction cannot match because the "
            "paper's own tables contradict it, beside the X1 audit row that checks it on the paper's tables "
            "(`audit verdict`: that row's verdict in this folder; `no` = the paper's tables disagree).\n\n"
            + _md_table(dis)
        )
    census = card.attrs.get("census")
    if census is not None and len(census):
        parts.append(
            "## Census of the paper's text (v1)\n\nEvery number of the arXiv v1 text mapped to the claim or "
            "printed table cell it rests on (data/paper/census/v1_text_numbers.csv), checked on the paper's own tables.\n\n"
            + _md_table(census)
        )
    rule = card.attrs.get("census_rule")
    if rule is not None and len(rule):
        parts.append(
            "**By rule** (`ajb_verify.census_rule`): every number by its class, every data number by the kind "
            "of check its phrase asks for (X1_census.csv holds each number).\n\n" + _md_table(rule)
        )
    parts = [x + "\n" for x in parts]
    for sec, g in card.groupby("section", sort=False):
        nbs = [n for n in dict.fromkeys(g["notebook"]) if isinstance(n, str) and n]
        links = ", ".join(f"[{n}](../../notebooks/{n}.ipynb)" for n in nbs)
        parts.append(f"\n## {sec}\n\nNotebook: {links or '-'}\n")
        arts = g[g["row"] == "artifact"][
            ["id", "description", "values compared", "max |difference|", "within tolerance"]
        ]
        if len(arts):
            parts.append("\n" + _md_table(arts))
        for row, title in (("claim", "Claims"), ("audit", "Consistency audit (the paper's own tables)")):
            c = g[g["row"] == row][
                ["id", "description", "paper value", "reproduced value", "kind", "tolerance", "holds", "note"]
                + (["audit row"] if row == "claim" else [])
            ]
            if len(c):
                parts.append(f"\n**{title}**\n\n" + _md_table(c))
    return "".join(parts)


# what a scorecard is made from: every table it reads, and the provenance of the folder
SOURCE_PATTERNS: tuple[str, ...] = ("*_compare.csv", "*checks.csv", RULE_FIT_FILE, CENSUS_COUNTS_FILE, CENSUS_FILE)
STALE_BANNER: str = (
    "> **STALE**: a run started rewriting the tables of this folder after this scorecard was written; it "
    "describes the tables before that run. Run 18_scorecard (or scripts/reproduce.py) to rewrite it.\n\n"
)


def made_from(out_dir: Path | str) -> pd.DataFrame:
    """Return the files a scorecard of the folder reads (its tables and PROVENANCE.json) with their sha256."""
    import hashlib

    out = Path(out_dir)
    files = sorted({p for pat in SOURCE_PATTERNS for p in out.glob(pat)} | set(out.glob("PROVENANCE.json")))
    return pd.DataFrame(
        {"file": [p.name for p in files], "sha256": [hashlib.sha256(p.read_bytes()).hexdigest() for p in files]}
    )


def data_revision(out_dir: Path | str) -> str:
    """Return the data source and revision PROVENANCE.json records ('' when the folder has none)."""
    import json

    path = Path(out_dir) / "PROVENANCE.json"
    if not path.exists():
        return ""
    prov = json.loads(path.read_text(encoding="utf-8"))
    return f"source `{prov.get('source', '?')}`, revision `{prov.get('revision') or 'not recorded'}`"


def _made_from_markdown(out_dir: Path | str) -> str:
    """Return the closing section of SCORECARD.md: the data revision and every table read, with its digest."""
    made = made_from(out_dir)
    return (
        "\n## Made from\n\n"
        + (f"Data: {data_revision(out_dir)} (PROVENANCE.json). " if data_revision(out_dir) else "")
        + "The tables this scorecard read, with their sha256 (`scorecard.is_stale` compares them with the "
        "folder's files now):\n\n" + _md_table(made)
    )


def is_stale(out_dir: Path | str) -> bool:
    """Return True when a folder's SCORECARD.md is marked stale or no longer describes its tables (a table
    added, removed or changed since it was written); False without a scorecard."""
    path = Path(out_dir) / "SCORECARD.md"
    if not path.exists():
        return False
    md = path.read_text(encoding="utf-8")
    if md.startswith(STALE_BANNER) or "\n## Made from\n" not in md:
        return True
    listed = dict(re.findall(r"^\| (\S+) \| ([0-9a-f]{64}) \|$", md.split("\n## Made from\n", 1)[1], re.M))
    return listed != dict(zip(*made_from(out_dir).to_dict("list").values()))


def mark_stale(out_dir: Path | str) -> None:
    """Put `STALE_BANNER` at the top of a folder's SCORECARD.md (if it has one and is not marked yet)."""
    path = Path(out_dir) / "SCORECARD.md"
    if path.exists():
        md = path.read_text(encoding="utf-8")
        if not md.startswith(STALE_BANNER):
            path.write_text(STALE_BANNER + md, encoding="utf-8")


def write_scorecard(out_dir: Path | str, label: str | None = None) -> pd.DataFrame:
    """Write SCORECARD.csv, SCORECARD.md and SCORECARD.png/.pdf into an output folder; return the card."""
    out = Path(out_dir)
    label = label or out.name
    synthetic = is_synthetic_dir(out)
    card = build(out)
    card.to_csv(out / "SCORECARD.csv", index=False, float_format="%.6g", lineterminator="\n")
    (out / "SCORECARD.md").write_text(markdown(card, label, synthetic) + _made_from_markdown(out), encoding="utf-8")
    with plt.style.context(FIGURE_STYLE):  # the same bytes from a kernel, a script or a test
        fig, _ = figure_scorecard(read_comparisons(out), synthetic)
        save_fig(fig, "SCORECARD", "", out)
    plt.close(fig)
    return card


def print_summary(out_dir: Path | str, write: bool = True) -> str:
    """Return (and print) the one-screen summary, writing the scorecard first (the main command's last step);
    `write=False` when the scorecard notebook has just written these files for the same folder and label."""
    out = Path(out_dir)
    card = write_scorecard(out) if write else build(out)
    text = summary(card, out.name, is_synthetic_dir(out))
    print(text)
    print(
        f"  {'wrote' if write else 'written by 18_scorecard:'} {paths.relpath(out / 'SCORECARD.md')}, "
        "SCORECARD.csv, SCORECARD.png, SCORECARD.pdf"
    )
    return text
