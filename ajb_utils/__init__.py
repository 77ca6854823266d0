"""ajb_utils: the tested library behind the AgentJudgeBench reproduction notebooks.

Modules, one concern each:
- schema      names, spellings and paper order of configs, metrics, conditions, difficulties
- paths       repository, data and figure folders derived from the package location
- calls       tool calls and tool schemas normalised from every encoding the release may use
- data        load_bench(): one loading path for the hub, a local mirror, and the embedded sample
- scoring     the programmatic judge (paper Eqs. 1-3) and the match score (Eq. 4a)
- stats       alignment and lift (Eqs. 4-5), bootstrap CIs, kappa, agreement, binary collapse, juries
- tables      one pure function per paper table (a module per notebook group)
- figures     one function per paper figure, returning (fig, axes); style and save_fig
- paper       the paper's reported values (data/paper/) and side-by-side comparison
- report      banners, table writing (CSV + booktabs), claim checks, provenance, environment
- artifacts   the artifact map: paper table/figure -> notebook -> output files
- annotation  the human-annotation sheet workflow of Appendix G
- derivation  the derivation-path census of ground-truth argument values (DeRef, seed 004)
- simulator   a parametrised judge simulator for teaching (hedging, leniency, anchoring)
- sample      the deterministic synthetic sample generator (python -m ajb_utils.sample)
- judge       the judge / generator runner (python -m ajb_utils.judge)
"""

__version__ = "0.1.0"
