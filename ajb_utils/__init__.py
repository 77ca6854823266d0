"""ajb_utils: the analysis behind the AgentJudgeBench reproduction notebooks.

The house, from the ground up (imports point down only):
- ground      schema (names, spellings, paper order), paths (repo folders), calls (tool calls and
              schemas from every encoding the release may use)
- data        load_bench(): one loading path for the hub, a local mirror, and the embedded sample
- cache       the built bench: its tidy frames as Parquet in a folder named by content (data/cache/bench/)
- outofcore   Table 2's cells by DuckDB straight from the build's Parquet (data larger than memory)
- scoring     the programmatic judge (paper Eqs. 1-3) and the match score (Eq. 4a)
- stats/      alignment and lift (Eqs. 4-5), bootstrap CIs, agreement and kappa, ranking, juries
- derivation  the derivation-path census of ground-truth argument values (DeRef, seed 004)
- simulator   a parametrised judge simulator for teaching (hedging, leniency, anchoring)
- annotation  the human-annotation sheet workflow of Appendix G
- paper       the paper's reported values (data/paper/) and each artifact's population
- provenance  output folders, PROVENANCE.json, the data banner, synthetic flags
- report      tables on disk (CSV + booktabs), claim-check tables, display helpers
- environment the environment report and the notebook kernels' environment
- tables/     one pure function per paper table, a module per paper section
- figures/    one function per paper figure returning (fig, axes), a module per paper section; style
Three sibling packages stand on it (it never imports them):
- ajb_judge   the judge / generator runner (python -m ajb_judge)
- ajb_sample  the deterministic synthetic sample generator (python -m ajb_sample)
- ajb_verify  the claims, comparisons, audit, census and scorecard against the paper
"""

__version__ = "0.1.0"
