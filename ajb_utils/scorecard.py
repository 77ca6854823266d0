"""The reproduction scorecard: every compared value and every checked claim of one output folder.

Notebooks write what they compare (`report.show_comparison` -> ``<ID>_compare.csv``) and what they
check (`report.show_checks` and the C-F/C-W/C-J writers -> ``*_checks.csv``) into the output folder
(figures/<label>/). `write_scorecard` gathers them into ``SCORECARD.csv`` and ``SCORECARD.md``
(grouped by paper section, linked to the notebooks) and one figure, ``SCORECARD.png/.pdf``: every
compared value, reproduced against reported, on a y = x line. `summary` is the one-screen text
the main command (scripts/reproduce.py) prints at its end. On the synthetic sample every line says
so; on the released data it is the reproduction verdict of the paper.

Verdicts on the paper's own tables (the X1 audit, tables with a ``checked on`` column) are kept
apart from verdicts on data: they say whether the paper agrees with itself.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ajb_utils import artifacts, paper, paths
from ajb_utils.figures.style import save_fig
from ajb_utils.provenance import SYNTHETIC_NOTE, is_synthetic_dir

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
    "14_decision_guide": "Decision guide and consistency audit (App. A)",
    "16_derivation_gap": "Derivation gap (ours)",
}
SCORECARD_COLUMNS: list[str] = [
    "section", "notebook", "row", "id", "description", "paper value", "reproduced value", "kind",
    "tolerance", "holds", "values compared", "max |difference|", "within tolerance", "note",
]
MAX_LABELS: int = 12


def _notebook_of(artifact_id: str) -> str:
    """Return the notebook that shows an artifact ('C-F1' -> the C-F notebook), '' if unmapped."""
    m = artifacts.artifact_table().set_index("artifact_id")["notebook"]
    for key in (artifact_id, artifact_id.rstrip("0123456789"), artifact_id.split("-")[0]):
        if key in m.index:
            return str(m[key])
    return ""


def _artifact_of_file(path: Path, suffix: str) -> str:
    """Return the artifact ID a compare/checks file is named for ('C-W_weighting_checks.csv' -> 'C-W')."""
    return path.name[: -len(suffix)].split("_", 1)[0]


def read_comparisons(out_dir: Path | str) -> pd.DataFrame:
    """Return every ``<ID>_compare.csv`` of a folder stacked: artifact, reported, reproduced, difference, within."""
    frames = []
    for p in sorted(Path(out_dir).glob("*_compare.csv")):
        df = pd.read_csv(p)
        df.insert(0, "artifact", _artifact_of_file(p, "_compare.csv"))
        key = next((c for c in ("stat", "variant") if c in df.columns), None)
        df["group"] = df["artifact"] + "|" + (df[key].astype(str) if key else "")
        frames.append(df[["artifact", "group", "reported", "reproduced", "difference", "tolerance", "within"]])
    cols = ["artifact", "group", "reported", "reproduced", "difference", "tolerance", "within"]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=cols)


def read_checks(out_dir: Path | str) -> pd.DataFrame:
    """Return every engine checks table of a folder stacked, with the file's artifact and notebook."""
    frames = []
    for p in sorted(Path(out_dir).glob("*checks.csv")):
        df = pd.read_csv(p, dtype=str, keep_default_na=False)
        if not set(paper.CHECK_COLUMNS) <= set(df.columns):
            continue  # not an engine table
        art = _artifact_of_file(p, p.name[p.name.index("_"):]) if "_" in p.name else p.stem
        df["file"] = p.name
        df["notebook"] = _notebook_of(art)
        if "checked on" not in df.columns:
            df["checked on"] = ""
        frames.append(df)
    cols = paper.CHECK_COLUMNS + ["file", "notebook", "checked on"]
    return pd.concat(frames, ignore_index=True)[cols] if frames else pd.DataFrame(columns=cols)


def artifact_rows(comparisons: pd.DataFrame) -> pd.DataFrame:
    """Return one row per artifact: values compared, max |difference|, how many within tolerance."""
    both = comparisons[comparisons["within"].isin(["yes", "no"])]
    g = both.groupby("artifact", sort=False)
    out = pd.DataFrame({"values compared": g.size(),
                        "max |difference|": g["difference"].agg(lambda d: d.abs().max()),
                        "within tolerance": g["within"].agg(lambda w: int((w == "yes").sum()))})
    return out.reset_index()


def claim_rows(checks: pd.DataFrame) -> pd.DataFrame:
    """Return one row per claim checked on data; a claim shown with two verdicts is marked CONFLICT."""
    data = checks[checks["checked on"] == ""]
    rows = []
    for cid, g in data.groupby("claim_id", sort=False):
        verdicts = sorted(set(g["holds"]))
        first = g.iloc[0]
        holds = verdicts[0] if len(verdicts) == 1 else "CONFLICT (" + " / ".join(verdicts) + ")"
        nbs = list(dict.fromkeys(n for n in g["notebook"] if n))
        rows.append({"id": cid, "description": first["claim"], "paper value": first["paper value"],
                     "reproduced value": first["reproduced value"], "kind": first["kind"],
                     "tolerance": first["tolerance"], "holds": holds,
                     "note": first["note"] + (f" [shown in {', '.join(nbs)}]" if len(nbs) > 1 else ""),
                     "notebook": nbs[0] if nbs else ""})
    return pd.DataFrame(rows)


UNCHECKED_NOTE: str = paper.MISSING_DATA + "no notebook of this output folder checked it"


def unchecked_rows(checks: pd.DataFrame) -> pd.DataFrame:
    """Return an n/a claim row for every claim of claims.csv that no checks table of the folder
    holds (on data or in the audit), so every claim of the paper appears once in the scorecard."""
    seen = set(checks["claim_id"])
    todo = paper.claims()
    todo = todo[~todo["claim_id"].isin(seen)]
    rows = [{"id": c.claim_id, "description": c.description, "paper value": paper.not_reproduced(c.claim_id, "").paper,
             "reproduced value": "not checked", "kind": c.kind, "tolerance": "", "holds": "n/a",
             "note": UNCHECKED_NOTE, "notebook": _notebook_of(c.artifact)} for c in todo.itertuples()]
    return pd.DataFrame(rows, columns=["id", "description", "paper value", "reproduced value", "kind",
                                       "tolerance", "holds", "note", "notebook"])


def build(out_dir: Path | str) -> pd.DataFrame:
    """Return the scorecard of an output folder (SCORECARD_COLUMNS), artifacts then claims then audit."""
    cmp = read_comparisons(out_dir)
    chk = read_checks(out_dir)
    arts = artifact_rows(cmp).rename(columns={"artifact": "id"}).assign(row="artifact")
    arts["notebook"] = arts["id"].map(_notebook_of)
    arts["description"] = arts["id"].map(
        artifacts.artifact_table().set_index("artifact_id")["paper_artifact"]).fillna("")
    claims = pd.concat([claim_rows(chk), unchecked_rows(chk)], ignore_index=True).assign(row="claim")
    audit = chk[chk["checked on"] != ""].rename(columns={"claim_id": "id", "claim": "description"})
    audit = audit.assign(row="audit", note=audit["note"].where(audit["note"] == "", audit["note"] + "; ")
                         + "checked on " + audit["checked on"])
    out = pd.concat([arts, claims, audit], ignore_index=True).reindex(columns=SCORECARD_COLUMNS)
    out["section"] = out["notebook"].map(SECTIONS).fillna("other")
    order = {nb: i for i, nb in enumerate(SECTIONS)}
    out["_o"] = out["notebook"].map(order).fillna(99)
    out["_r"] = out["row"].map({"artifact": 0, "claim": 1, "audit": 2})
    out = out.sort_values(["_o", "_r"], kind="stable").drop(columns=["_o", "_r"]).reset_index(drop=True)
    out.attrs["missing_rule"] = missing_rule_line(out_dir)
    return out


RULE_FIT_FILE: str = "T02_missing_rule_fit.csv"  # written by notebook 03 (tables.missing_rule_fit)


def missing_rule_line(out_dir: Path | str) -> str:
    """Return one line naming the missing-verdict rule under which Table 2 reproduces best ('' if not computed)."""
    path = Path(out_dir) / RULE_FIT_FILE
    if not path.exists():
        return ""
    fit = pd.read_csv(path)
    best = fit.loc[fit["mean_abs_diff"].idxmin()]
    others = ", ".join(f"{r.missing} {r.mean_abs_diff:.2f}" for r in fit.itertuples() if r.missing != best["missing"])
    return (f"missing-verdict rule closest to Table 2: {best['missing']} (mean |diff| {best['mean_abs_diff']:.2f} pp "
            f"over {int(best['n_cells'])} cells; {others})")


def _counts(card: pd.DataFrame, row: str) -> dict[str, int]:
    """Return holds counts (yes / no / indistinguishable / n/a / conflict) of one row type."""
    h = card.loc[card["row"] == row, "holds"].astype(str)
    return {"yes": int((h == "yes").sum()), "no": int((h == "no").sum()),
            "indistinguishable": int((h == paper.INDISTINGUISHABLE).sum()),
            "n/a": int((h == "n/a").sum()), "conflict": int(h.str.startswith("CONFLICT").sum())}


def summary(card: pd.DataFrame, label: str, synthetic: bool) -> str:
    """Return the one-screen summary of a scorecard (what the main command prints at its end)."""
    arts = card[card["row"] == "artifact"]
    n_cmp = int(arts["values compared"].fillna(0).sum())
    n_in = int(arts["within tolerance"].fillna(0).sum())
    c, a = _counts(card, "claim"), _counts(card, "audit")
    head = (f"SCORECARD figures/{label}/ - "
            + ("SYNTHETIC SAMPLE: verdicts test the package, not the paper" if synthetic
               else "reproduction verdict of the paper"))
    lines = [head,
             f"  {len(arts)} artifacts: {n_in}/{n_cmp} reported values reproduced within tolerance",
             f"  {sum(c.values())} claims on data: {c['yes']} hold, "
             f"{c['no']} do not, {c['indistinguishable']} indistinguishable (CI spans 0), "
             f"{c['n/a']} not comparable here (data missing), {c['conflict']} conflicting",
             f"  paper consistency audit (X1): {a['yes']} consistent, {a['no']} inconsistent"]
    if card.attrs.get("missing_rule"):
        lines.append("  " + card.attrs["missing_rule"] + (" - meaningless on synthetic data" if synthetic else ""))
    lines.append("  by section (values within / compared; claims holding / checked):")
    for sec, g in card.groupby("section", sort=False):
        ga, gc = g[g["row"] == "artifact"], g[g["row"] == "claim"]
        lines.append(f"    {sec:<48} {int(ga['within tolerance'].fillna(0).sum()):>5}/"
                     f"{int(ga['values compared'].fillna(0).sum()):<5} "
                     f"{int((gc['holds'] == 'yes').sum()):>3}/{len(gc):<3}")
    lines.append(f"  full table: figures/{label}/SCORECARD.md (.csv); figure: SCORECARD.png")
    return "\n".join(lines)


def _panel(v: float) -> int:
    """Return the figure panel of a statistic by its largest |value|: 0 (<= 1.5), 1 (<= 100), 2 (counts)."""
    a = abs(v)
    return 0 if a <= 1.5 else (1 if a <= 100 else 2)


def figure_scorecard(comparisons: pd.DataFrame, synthetic: bool) -> tuple[plt.Figure, np.ndarray]:
    """Return the scorecard figure: reproduced vs reported per value on y = x, coloured by artifact,
    the largest out-of-tolerance differences labelled; panels by magnitude (κ/ρ, %/pp, counts)."""
    both = comparisons[comparisons["within"].isin(["yes", "no"])].copy()
    # one panel per statistic (by its largest reported value), so a table's kappas, percentages
    # and counts land on comparable axes
    both["panel"] = both.groupby("group")["reported"].transform(lambda v: v.abs().max()).map(_panel)
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.4), squeeze=False)
    titles = ["statistics <= 1.5 (kappa, rho, scores)", "statistics up to 100 (%, pp)", "counts"]
    arts = list(dict.fromkeys(both["artifact"]))
    palette = list(plt.get_cmap("tab20").colors) + list(plt.get_cmap("tab20b").colors)
    colour = {a: palette[i % len(palette)] for i, a in enumerate(arts)}
    for k, ax in enumerate(axes[0]):
        sub = both[both["panel"] == k]
        ax.set_title(titles[k], fontsize=9)
        if sub.empty:
            ax.text(0.5, 0.5, "nothing compared", ha="center", va="center", transform=ax.transAxes)
            continue
        lo = float(np.nanmin(sub[["reported", "reproduced"]].to_numpy()))
        hi = float(np.nanmax(sub[["reported", "reproduced"]].to_numpy()))
        ax.plot([lo, hi], [lo, hi], color="0.3", linewidth=0.8, zorder=1)
        for a, g in sub.groupby("artifact", sort=False):
            ax.scatter(g["reported"], g["reproduced"], s=10, color=colour[a], label=a, zorder=2,
                       marker="o" if (g["within"] == "yes").all() else "o", alpha=0.8)
        out = sub[sub["within"] == "no"]
        out = out.reindex(out["difference"].abs().sort_values(ascending=False).index).head(MAX_LABELS)
        for r in out.itertuples():
            ax.annotate(f"{r.artifact} {r.difference:+.3g}", (r.reported, r.reproduced), fontsize=6,
                        xytext=(3, 3), textcoords="offset points")
        if k == 2:
            ax.set_xscale("symlog")
            ax.set_yscale("symlog")
        n_out = int((sub["within"] == "no").sum())
        ax.set_xlabel(f"reported ({len(sub)} values; {n_out} outside tolerance, "
                      f"{min(n_out, MAX_LABELS)} largest labelled)", fontsize=8)
        ax.set_ylabel("reproduced")
    handles = [plt.Line2D([], [], marker="o", linestyle="none", color=colour[a], label=a) for a in arts]
    fig.suptitle(("SYNTHETIC SAMPLE - " if synthetic else "") + "every compared value, reproduced vs reported (y = x)",
                 fontsize=10)
    fig.tight_layout(rect=(0, 0.1, 1, 0.97))
    fig.legend(handles=handles, loc="lower center", ncol=min(len(arts), 13), fontsize=7,
               bbox_to_anchor=(0.5, 0.0), frameon=False)
    return fig, axes


def _md_table(df: pd.DataFrame) -> str:
    """Return a Markdown table of a frame (pipes in cells escaped, NaN shown empty)."""
    def cell(x: object) -> str:
        if isinstance(x, float):
            return "" if np.isnan(x) else f"{x:.4g}"
        return str(x).replace("|", "\\|").replace("\n", " ")

    head = "| " + " | ".join(df.columns) + " |\n|" + "---|" * len(df.columns) + "\n"
    return head + "".join("| " + " | ".join(cell(x) for x in r) + " |\n" for r in df.itertuples(index=False))


def markdown(card: pd.DataFrame, label: str, synthetic: bool) -> str:
    """Return SCORECARD.md: the summary, then per paper section its artifacts, claims and audit rows."""
    parts = [f"# Reproduction scorecard: figures/{label}/\n",
             (f"**{SYNTHETIC_NOTE}** The verdicts below test the package on synthetic data; they say "
              "nothing about the paper.\n" if synthetic else
              "Verdicts on the released data: the reproduction verdict of the paper.\n"),
             "Kinds: value (within the printed precision plus the stated tolerance), sign, order "
             "(ranking or best-of), share (a count as a share of its population), range (inside a "
             "band), count (exact, only on the paper's population). `n/a`: not comparable on this "
             "data. Audit rows check the paper against itself.\n",
             "```\n" + summary(card, label, synthetic) + "\n```\n",
             "![scorecard figure](SCORECARD.png)\n"]
    parts = [x + "\n" for x in parts]
    for sec, g in card.groupby("section", sort=False):
        nbs = [n for n in dict.fromkeys(g["notebook"]) if isinstance(n, str) and n]
        links = ", ".join(f"[{n}](../../notebooks/{n}.ipynb)" for n in nbs)
        parts.append(f"\n## {sec}\n\nNotebook: {links or '-'}\n")
        arts = g[g["row"] == "artifact"][["id", "description", "values compared", "max |difference|",
                                          "within tolerance"]]
        if len(arts):
            parts.append("\n" + _md_table(arts))
        for row, title in (("claim", "Claims"), ("audit", "Consistency audit (the paper's own tables)")):
            c = g[g["row"] == row][["id", "description", "paper value", "reproduced value", "kind",
                                     "tolerance", "holds", "note"]]
            if len(c):
                parts.append(f"\n**{title}**\n\n" + _md_table(c))
    return "".join(parts)


def write_scorecard(out_dir: Path | str, label: str | None = None) -> pd.DataFrame:
    """Write SCORECARD.csv, SCORECARD.md and SCORECARD.png/.pdf into an output folder; return the card."""
    out = Path(out_dir)
    label = label or out.name
    synthetic = is_synthetic_dir(out)
    card = build(out)
    card.to_csv(out / "SCORECARD.csv", index=False, float_format="%.6g", lineterminator="\n")
    (out / "SCORECARD.md").write_text(markdown(card, label, synthetic), encoding="utf-8")
    fig, _ = figure_scorecard(read_comparisons(out), synthetic)
    save_fig(fig, "SCORECARD", "", out)
    plt.close(fig)
    return card


def print_summary(out_dir: Path | str) -> str:
    """Return (and print) the one-screen summary, writing the scorecard first (the main command's last step)."""
    out = Path(out_dir)
    card = write_scorecard(out)
    text = summary(card, out.name, is_synthetic_dir(out))
    print(text)
    print(f"  wrote {paths.relpath(out / 'SCORECARD.md')}, SCORECARD.csv, SCORECARD.png, SCORECARD.pdf")
    return text
