"""ajb_utils: the tested library behind the AgentJudgeBench reproduction notebooks.

The house, from the ground up (imports point down only):
- ground      schema (names, spellings, paper order), paths (repo folders), calls (tool calls and
              schemas from every encoding the release may use); decode (the configs' typed decoding:
              only the fields the loader reads)
- data        load_bench(): one loading path for the hub, a local mirror, and the embedded sample
- cache       the built bench: its tidy frames as Parquet in a folder named by content (data/cache/bench/)
- scoring     the programmatic judge (paper Eqs. 1-3) and the match score (Eq. 4a)
- stats/      alignment and lift (Eqs. 4-5), bootstrap CIs, agreement and kappa, ranking, juries
- derivation  the derivation-path census of ground-truth argument values (DeRef, seed 004)
- simulator   a parametrised judge simulator for teaching (hedging, leniency, anchoring)
- annotation  the human-annotation sheet workflow of Appendix G
- paper       the paper's reported values (data/paper/) and side-by-side comparison
- artifacts   the artifact map: paper table/figure -> notebook -> output files
- provenance  output folders, PROVENANCE.json, the data banner, synthetic flags
- report      tables on disk (CSV + booktabs), claim-check tables, display helpers
- environment the environment report and the notebook kernels' environment
- scorecard   the reproduction scorecard: every compared value and checked claim of an output folder
- tables/     one pure function per paper table, a module per paper section
- figures/    one function per paper figure returning (fig, axes), a module per paper section; style
Two wings stand on data and scoring:
- judge/      the judge / generator runner (python -m ajb_judge)
- sample/     the deterministic synthetic sample generator (python -m ajb_sample)
"""

__version__ = "0.1.0"
