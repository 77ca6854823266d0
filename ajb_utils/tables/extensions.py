"""Tables for notebook 15-17 new judge, derivation gap, simulator (X2, X3, X4, static judge)."""

from __future__ import annotations

# =============================================================================================
# BEGIN notebook 16 (derivation gap: X3, X4, X3b static-judge baseline) — owner: notebook 16
# =============================================================================================
import numpy as _np  # noqa: E402
import pandas as _pd  # noqa: E402

from ajb_utils import derivation as _derivation  # noqa: E402
from ajb_utils import stats as _stats  # noqa: E402
from ajb_utils.schema import DIFFICULTIES as _DIFFICULTIES  # noqa: E402
from ajb_utils.schema import MAIN_JUDGES as _MAIN_JUDGES  # noqa: E402
from ajb_utils.schema import METRICS as _METRICS  # noqa: E402
from ajb_utils.schema import TOPOLOGIES as _TOPOLOGIES  # noqa: E402

NONVISIBLE_BINS: list[float] = [-0.001, 0.0, 1 / 3, 2 / 3, 1.0]
NONVISIBLE_LABELS: list[str] = ["0", "(0, 1/3]", "(1/3, 2/3]", "(2/3, 1]"]
DEREF_COMMAND: str = ("python -m ajb_utils.judge run --backend openai --base-url http://localhost:8000/v1 "
                      "--model <judge model> --deriver-model <deriver model> --source <data source> "
                      "--conditions with_gt,without_gt,deref --difficulties hard --name <judge>_deref "
                      "--study deref")


def table_X3(census: _pd.DataFrame) -> _pd.DataFrame:
    """Return derivation-path shares (%) by difficulty, overall ("all") and per topology (paper order)."""
    overall = _derivation.path_shares(census, ["difficulty"]).assign(dag_type="all")
    per = _derivation.path_shares(census, ["dag_type", "difficulty"])
    out = _pd.concat([overall, per], ignore_index=True)
    out["dag_type"] = _pd.Categorical(out["dag_type"], categories=["all", *_TOPOLOGIES])
    out["difficulty"] = _pd.Categorical(out["difficulty"].astype(str), categories=list(_DIFFICULTIES))
    out = out.sort_values(["dag_type", "difficulty"]).reset_index(drop=True)
    return out[["dag_type", "difficulty", "n_args", *_derivation.PATHS]]


def checks_X3(x3: _pd.DataFrame) -> list[dict]:
    """Return claim rows: the rewrite tiers make arguments less visible (easy > medium > hard VISIBLE share)."""
    rows = []
    for topo, g in x3.groupby("dag_type", observed=True, sort=True):
        v = g.set_index("difficulty")["VISIBLE"].reindex(list(_DIFFICULTIES)).to_numpy(float)
        rows.append({"claim": f"VISIBLE share falls easy > medium > hard ({topo})",
                     "paper": "tiers validated by LLM meta-judges (App. N)",
                     "reproduced": " > ".join(f"{x:.1f}" for x in v),
                     "holds": bool(v[0] > v[1] > v[2])})
    return rows


def table_X3_param_alignment(bench, census: _pd.DataFrame, judges: list[str] | None = None,
                             conditions: tuple[str, ...] = ("with_gt", "without_gt")) -> _pd.DataFrame:
    """Return parameter-structure alignment (%) per judge x condition x share of non-VISIBLE arguments of the record."""
    share = _derivation.record_nonvisible_share(census)
    share["nonvisible"] = _pd.cut(share["nonvisible_share"], NONVISIBLE_BINS, labels=NONVISIBLE_LABELS)
    judges = judges or [j for j in _MAIN_JUDGES if j in set(bench.verdicts["judge"].astype(str))]
    v = bench.verdicts
    v = v[(v["metric"] == "parameter_structure") & v["judge"].isin(judges) & v["condition"].isin(conditions)]
    v = v.assign(id=v["id"].astype(str), difficulty=v["difficulty"].astype(str)).merge(
        share[["id", "difficulty", "nonvisible"]].assign(difficulty=lambda d: d["difficulty"].astype(str)),
        on=["id", "difficulty"], how="inner")
    cells = _stats.per_metric_align(v, by=["judge", "condition", "nonvisible"])
    wide = cells.pivot_table(index=["judge", "condition"], columns="nonvisible", values="align", observed=True)
    n = v.groupby("nonvisible", observed=False).size()
    wide.columns = [f"{c} (n={int(n.get(c, 0))})" for c in wide.columns]
    wide = wide.reset_index()
    wide["judge"] = _pd.Categorical(wide["judge"].astype(str), categories=judges)
    return wide.sort_values(["judge", "condition"]).reset_index(drop=True)


def table_X4(verdicts: _pd.DataFrame, hard: str = "hard") -> _pd.DataFrame:
    """Return per judge with `deref` verdicts: alignment (%) with GT, without GT, DeRef, overall and on hard, with the DeRef lifts."""
    has = verdicts.loc[verdicts["condition"] == "deref", "judge"].astype(str).unique()
    v = verdicts[verdicts["judge"].astype(str).isin(has)
                 & verdicts["condition"].isin(["with_gt", "without_gt", "deref"])]
    cols = ["judge", "subset", "with_gt", "without_gt", "deref", "deref_minus_without", "with_minus_deref", "n"]
    if v.empty:
        return _pd.DataFrame(columns=cols)
    parts = []
    for subset, sub in (("all", v), (hard, v[v["difficulty"].astype(str) == hard])):
        a = _stats.align(sub, by=["judge", "condition"])
        w = a.pivot_table(index="judge", columns="condition", values="align", observed=True)
        w["n"] = a[a["condition"] == "deref"].set_index("judge")["n"]
        parts.append(w.reset_index().assign(subset=subset))
    out = _pd.concat(parts, ignore_index=True)
    out["deref_minus_without"] = out["deref"] - out["without_gt"]
    out["with_minus_deref"] = out["with_gt"] - out["deref"]
    out["judge"] = out["judge"].astype(str)
    return out[cols].sort_values(["judge", "subset"]).reset_index(drop=True)


def table_X3b_static_baseline(bench, static: _pd.DataFrame, judges: list[str] | None = None,
                              conditions: tuple[str, ...] = ("with_gt", "without_gt")) -> _pd.DataFrame:
    """Return per condition x difficulty x metric: the static judge's alignment (%) beside the LLM judges' best, median and worst, and its rank."""
    judges = judges or [j for j in _MAIN_JUDGES if j in set(bench.verdicts["judge"].astype(str))]
    v = bench.verdicts[bench.verdicts["judge"].isin(judges) & bench.verdicts["condition"].isin(conditions)]
    llm = _stats.per_metric_align(v, by=["judge", "condition", "difficulty"])
    llm = llm.assign(judge=llm["judge"].astype(str), condition=llm["condition"].astype(str),
                     difficulty=llm["difficulty"].astype(str), metric=llm["metric"].astype(str))
    st = _stats.per_metric_align(static[static["condition"].isin(conditions)], by=["condition", "difficulty"])
    st = st.assign(condition=st["condition"].astype(str), difficulty=st["difficulty"].astype(str),
                   metric=st["metric"].astype(str))
    keys = ["condition", "difficulty", "metric"]
    g = llm.groupby(keys, sort=False)["align"]
    best_idx = llm.loc[g.idxmax(), keys + ["judge"]].rename(columns={"judge": "best_llm_judge"})
    summ = g.agg(best_llm="max", median_llm="median", worst_llm="min").reset_index().merge(best_idx, on=keys)
    out = st.rename(columns={"align": "static", "n": "n_static"}).merge(summ, on=keys, how="inner")
    ranks = llm.merge(out[keys + ["static"]], on=keys)
    out = out.merge(ranks.assign(beats=ranks["static"] > ranks["align"]).groupby(keys)["beats"].sum()
                    .rename("llm_judges_beaten").reset_index(), on=keys)
    out["static_minus_best"] = out["static"] - out["best_llm"]
    out["condition"] = _pd.Categorical(out["condition"], categories=list(conditions))
    out["difficulty"] = _pd.Categorical(out["difficulty"], categories=list(_DIFFICULTIES))
    out["metric"] = _pd.Categorical(out["metric"], categories=_METRICS)
    out = out.sort_values(keys).reset_index(drop=True)
    out["llm_judges_beaten"] = out["llm_judges_beaten"].astype(int)
    return out[keys + ["static", "best_llm", "best_llm_judge", "median_llm", "worst_llm",
                       "llm_judges_beaten", "static_minus_best", "n_static"]]


def static_verdicts_or_none(bench, conditions: tuple[str, ...] = ("with_gt", "without_gt", "deref")):
    """Return the runner's static judge verdicts, or None when the runner has no static_verdicts API."""
    try:
        from ajb_utils.judge import static_verdicts
    except ImportError:
        return None
    return static_verdicts(bench, list(conditions))


_NB16_ALL = ["NONVISIBLE_BINS", "NONVISIBLE_LABELS", "DEREF_COMMAND", "table_X3", "checks_X3",
             "table_X3_param_alignment", "table_X4", "table_X3b_static_baseline", "static_verdicts_or_none"]
# =============================================================================================
# END notebook 16
# =============================================================================================

__all__ = [*globals().get("__all__", []), *_NB16_ALL]

# =============================================================================================
# BEGIN notebook 15 (new judge: X2) — owner: notebook 15
# =============================================================================================
from ajb_utils import paper as _paper  # noqa: E402
from ajb_utils import paths as _paths  # noqa: E402
from ajb_utils import schema as _schema  # noqa: E402

X2_KEYS: list[str] = ["generator", "difficulty", "condition"]
X2_LIFT_EXCLUDED: tuple[str, ...] = ("gpt5_4",)  # Eq. 5b averages the 12 open-weight cells (as notebook 10)
STATIC_NOTE: str = ("Static judge: with GT it applies the paper's scoring rubric literally to the reference, "
                    "so its with-GT numbers are a ceiling for a rubric-following judge, not a fair competitor; "
                    "without GT it reads only the query, the tool schemas and the plan.")


def new_judge_config(run_name: str, backend: str = "static", base_url: str = "http://localhost:8000/v1",
                     model: str | None = None, api_key_env: str | None = None, temperature: float = 0.0,
                     concurrency: int = 8, conditions=("with_gt", "without_gt"), generators=None,
                     difficulties=None, limit: int | None = None, seed: int = 0, bench=None,
                     source: str = "sample"):
    """Return the judge.RunConfig for notebook 15's parameters (the key stays in the variable named api_key_env)."""
    from ajb_utils.judge import Decoding, RunConfig

    return RunConfig(name=run_name, backend=backend, model=model, base_urls=[base_url], api_key_env=api_key_env,
                     conditions=list(conditions), source=str(source), bench=bench,
                     generators=list(generators) if generators else None,
                     difficulties=list(difficulties) if difficulties else None, limit=limit, seed=seed,
                     decoding=Decoding(temperature=temperature), concurrency=concurrency, progress=False)


def run_new_judge(cfg):
    """Return run_judge(cfg)'s RunSummary; inside a running event loop (a Jupyter kernel) the run goes to a worker thread."""
    from ajb_utils.judge import run_judge

    return run_judge(cfg)  # the runner itself is safe inside a running event loop


def _paper_order(df: _pd.DataFrame, keys: list[str]) -> _pd.DataFrame:
    """Return df sorted by keys in paper order (generator 'all' last; unknown values after known ones)."""
    orders = {"generator": [*_schema.GENERATORS, "all"], "difficulty": list(_DIFFICULTIES),
              "condition": list(_schema.CONDITIONS), "metric": list(_METRICS)}
    rank = {k: df[k].astype(str).map({v: i for i, v in enumerate(orders[k])}).fillna(len(orders[k])) for k in keys}
    return df.assign(**{f"_{k}": r for k, r in rank.items()}).sort_values([f"_{k}" for k in keys], kind="stable") \
        .drop(columns=[f"_{k}" for k in keys]).reset_index(drop=True)


def run_status(summary) -> _pd.DataFrame:
    """Return the run's items / ok / null counts per generator x difficulty x condition (same whether cached or new)."""
    t = summary.table
    if t is None or not len(t):
        return _pd.DataFrame(columns=[*X2_KEYS, "items", "ok", "null"])
    t = t.assign(**{k: t[k].astype(str) for k in X2_KEYS})[[*X2_KEYS, "items", "ok", "null"]]
    return _paper_order(t, X2_KEYS)


def run_line(summary) -> str:
    """Return a deterministic one-line account of a run: items, ok, null, statuses, files (repo-relative); no timings."""
    st = run_status(summary)
    statuses = ", ".join(f"{k} {v}" for k, v in sorted(summary.statuses.items()))
    files = "; ".join(f"wrote {_paths.relpath(f)}" for f in summary.files)
    abort = f" ABORTED: {summary.aborted}." if summary.aborted else ""
    return (f"run {summary.name}: {int(st['items'].sum())} item x condition verdicts, {int(st['ok'].sum())} ok, "
            f"{int(st['null'].sum())} null (verdict-level statuses: {statuses or 'none'}).{abort} {files}").strip()


def run_cache_line(summary) -> str:
    """Return what this execution did (cached / new calls, retries, tokens): varies between runs.

    No wall time: the committed notebook would change on every execution.
    """
    return (f"this execution: {summary.cached} cached, {summary.new} new, {summary.retries} retries, "
            f"tokens in/out {summary.prompt_tokens}/{summary.completion_tokens}")


def _item_keys(v: _pd.DataFrame) -> _np.ndarray:
    """Return one int64 key per verdict row for its (id, generator, difficulty) item."""
    key = _np.zeros(len(v), dtype=_np.int64)
    for c in ("id", "generator", "difficulty"):
        cat = v[c] if isinstance(v[c].dtype, _pd.CategoricalDtype) else v[c].astype("category")
        key = key * (len(cat.cat.categories) + 1) + cat.cat.codes.to_numpy(_np.int64)
    return key


def x2_verdicts(verdicts: _pd.DataFrame, run_name: str, judges: list[str] | None = None) -> _pd.DataFrame:
    """Return with/without-GT verdicts of the new judge and the six, on the (id, generator, difficulty) items the new judge judged."""
    judges = [*(judges or _MAIN_JUDGES), run_name]
    v = verdicts[verdicts["judge"].astype(str).isin(judges) & verdicts["condition"].isin(_schema.MAIN_CONDITIONS)]
    key = _item_keys(v)
    v = v[_np.isin(key, key[(v["judge"].astype(str) == run_name).to_numpy()])]
    if isinstance(v["judge"].dtype, _pd.CategoricalDtype):
        v = v.assign(judge=v["judge"].cat.remove_unused_categories())
    return v


def x2_scope(bench, v: _pd.DataFrame, run_name: str) -> str:
    """Return a sentence on what X2 compares: items judged by the new judge out of the bench's generations."""
    new = v[v["judge"].astype(str) == run_name]
    n_items = int(_np.unique(_item_keys(new)).size) if len(new) else 0
    n_null = int(new["llm_score"].isna().sum())
    return (f"All judges are compared on the {n_items} (record, generator, difficulty) items the new judge judged "
            f"(of {len(bench.generations)} valid generations; unparseable/empty ones are excluded by load_bench, App. D); "
            f"{n_null} of the new judge's {len(new)} metric verdicts are null and excluded (missing=\"exclude\").")


def _paper_T02(judges: list[str]) -> _pd.DataFrame:
    """Return the paper's Table 2 alignment cells of the given judges: judge, generator, difficulty, condition, align."""
    rep = _paper.reported("T02")
    rep = rep[(rep["stat"] == "alignment") & rep["judge"].isin(judges)]
    return rep.rename(columns={"value": "align"})[["judge", *X2_KEYS, "align"]]


def table_X2(v: _pd.DataFrame, run_name: str, judges: list[str] | None = None) -> _pd.DataFrame:
    """Return X2: per generator (and 'all') x difficulty x condition, alignment (%) of the new judge, the six, their mean, the new judge's rank and the paper's six-judge mean."""
    judges = [j for j in (judges or _MAIN_JUDGES) if j in set(v["judge"].astype(str))]
    cells = _stats.align(v, by=["judge", *X2_KEYS])
    cells = cells.assign(**{k: cells[k].astype(str) for k in ["judge", *X2_KEYS]})
    wide = cells.pivot_table(index=X2_KEYS, columns="judge", values="align", observed=True).reindex(columns=[run_name, *judges])
    n = cells[cells["judge"] == run_name].set_index(X2_KEYS)["n"]
    rep = _paper_T02(judges).groupby(X2_KEYS)["align"].mean().rename("paper_six_mean")
    per = wide.join(n).join(rep).reset_index()
    allrows = per.groupby(["difficulty", "condition"], sort=False).agg(
        {**{c: "mean" for c in [run_name, *judges, "paper_six_mean"]}, "n": "sum"}).reset_index().assign(generator="all")
    out = _pd.concat([per, allrows], ignore_index=True)
    out["six_mean"] = out[judges].mean(axis=1)
    out["rank_of_7"] = out[[run_name, *judges]].rank(axis=1, ascending=False, method="min")[run_name].astype("Int64")
    out["new_minus_six_mean"] = out[run_name] - out["six_mean"]
    out["six_mean_minus_paper"] = out["six_mean"] - out["paper_six_mean"]
    out["n"] = out["n"].astype("Int64")
    out = out.rename(columns={j: _schema.display(j) for j in judges})
    cols = [*X2_KEYS, "n", run_name, *[_schema.display(j) for j in judges], "six_mean", "rank_of_7",
            "new_minus_six_mean", "paper_six_mean", "six_mean_minus_paper"]
    return _paper_order(out[cols], X2_KEYS)


def table_X2_metrics(v: _pd.DataFrame, run_name: str, judges: list[str] | None = None) -> _pd.DataFrame:
    """Return per-metric alignment (%, mean over generator x difficulty cells): rows (source, judge), columns (condition, metric); paper rows from Table 24."""
    judges = [j for j in (judges or _MAIN_JUDGES) if j in set(v["judge"].astype(str))]
    pm = _stats.per_metric_align(v, by=["judge", "condition", "generator", "difficulty"])
    pm = pm.assign(**{c: pm[c].astype(str) for c in ("judge", "condition", "metric")})
    data = pm.groupby(["judge", "condition", "metric"])["align"].mean().reset_index().assign(source="data")
    rep = _paper.reported("T24")
    rep = rep[(rep["stat"] == "alignment") & rep["judge"].isin(judges)].rename(columns={"value": "align"})
    long = _pd.concat([data, rep[["judge", "condition", "metric", "align"]].assign(source="paper (T24)")])
    wide = long.pivot_table(index=["source", "judge"], columns=["condition", "metric"], values="align")
    cols = [(c, m) for c in _schema.MAIN_CONDITIONS for m in _METRICS if (c, m) in wide.columns]
    rows = [("data", j) for j in [run_name, *judges]] + [("paper (T24)", j) for j in judges]
    wide = wide.reindex(index=_pd.MultiIndex.from_tuples(rows, names=["source", "judge"]),
                        columns=_pd.MultiIndex.from_tuples(cols, names=["condition", "metric"]))
    wide.index = wide.index.set_levels(wide.index.levels[1].map(_schema.display), level="judge")
    return wide


def table_X2_lift(v: _pd.DataFrame, run_name: str, judges: list[str] | None = None, n_bootstrap: int = 2000,
                  seed: int = 0, exclude_generators: tuple[str, ...] = X2_LIFT_EXCLUDED) -> _pd.DataFrame:
    """Return GT lift (Eq. 5b, pp) per judge with paired-bootstrap 95% CI and sign, beside the lift from the paper's Table 2."""
    judges = [j for j in (judges or _MAIN_JUDGES) if j in set(v["judge"].astype(str))]
    v = v[~v["generator"].astype(str).isin(exclude_generators)]
    lift = _stats.lift(_stats.align(v)).rename("lift")
    lift.index = lift.index.astype(str)
    ci = _stats.bootstrap_diff_ci(v, n_resamples=n_bootstrap, seed=seed)
    ci = ci.assign(judge=ci["judge"].astype(str)).set_index("judge")[["lo", "hi", "n_cells", "n_pairs"]]
    cells = set(zip(v["generator"].astype(str), v["difficulty"].astype(str)))
    rep = _paper_T02(judges)
    rep = rep[[gd in cells for gd in zip(rep["generator"], rep["difficulty"])]]  # <= 15 paper cells
    rep_lift = _stats.lift(rep).rename("paper_lift")
    out = _pd.DataFrame(index=_pd.Index([run_name, *judges], name="judge")).join(lift).join(ci).join(rep_lift)
    out["sign"] = _np.where(out["lo"] > 0, "+", _np.where(out["hi"] < 0, "-", _np.where(out["lo"].isna(), "n/a", "0 (CI spans 0)")))
    out["lift_minus_paper"] = out["lift"] - out["paper_lift"]
    out = out.reset_index()
    out["judge"] = out["judge"].map(_schema.display)
    out[["n_cells", "n_pairs"]] = out[["n_cells", "n_pairs"]].astype("Int64")
    return out[["judge", "lift", "lo", "hi", "sign", "n_cells", "n_pairs", "paper_lift", "lift_minus_paper"]]


def x2_judges_table(bench, run_name: str, judges: list[str] | None = None) -> _pd.DataFrame:
    """Return the bench.judges rows of the new judge and the six (judge, display, origin, study, base model, conditions)."""
    keep = [run_name, *(judges or _MAIN_JUDGES)]
    j = bench.judges[bench.judges["judge"].isin(keep)]
    j = j.assign(_o=j["judge"].map({n: i for i, n in enumerate(keep)})).sort_values("_o")
    return j[["judge", "display", "origin", "study", "base_model", "conditions"]].reset_index(drop=True)


_NB15_ALL = ["X2_KEYS", "X2_LIFT_EXCLUDED", "STATIC_NOTE", "new_judge_config", "run_new_judge", "run_status", "run_line",
             "run_cache_line", "x2_verdicts", "x2_scope", "table_X2", "table_X2_metrics", "table_X2_lift",
             "x2_judges_table"]
# =============================================================================================
# END notebook 15
# =============================================================================================

__all__ = [*globals().get("__all__", []), *_NB15_ALL]
