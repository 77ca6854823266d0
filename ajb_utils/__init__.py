"""ajb_utils: the tested library behind the AgentJudgeBench reproduction notebooks.

Modules, one concern each:
- schema   names, spellings and paper order of configs, metrics, conditions, difficulties
- paths    repository, data and figure folders derived from the package location
- data     load_bench(): one loading path for the hub, a local mirror, and the embedded sample
- scoring  the programmatic judge (paper Eqs. 1-3) and alignment / lift (Eqs. 4-5)
- sample   the deterministic synthetic sample generator (python -m ajb_utils.sample)
- stats    bootstrap CIs, kappa, Spearman, confusion matrices, binary collapse, soft jury
- tables   one pure function per paper table
- figures  one function per paper figure, returning (fig, axes)
- paper    the paper's reported values and side-by-side comparison
- judge    the judge/generator runner (python -m ajb_utils.judge)
"""

__version__ = "0.1.0"
