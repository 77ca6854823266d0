"""Statistics for AgentJudgeBench: alignment (Eqs. 4-5), bootstrap CIs, agreement, ranking, juries, reference judges.

Compute only, over the tidy `verdicts` frame (docs/DATA_FORMAT.md section 4); every groupby uses observed=True.
The missing-verdict rules (`missing=`, default `PAPER_MISSING`) and the exact multinomial bootstrap with an
explicit seed are docs/DECISIONS.md's "Missing judge scores" and "Bootstrap".
"""

from ajb_utils.stats.agreement import (
    BINARY_READINGS,
    agreement_matrix,
    binary_collapse,
    binary_verdicts,
    cohen_kappa,
    confusion,
    exact_agreement,
    half_rate,
    kappa_from_confusion,
    offdiag_half_share,
    pairwise_agreement,
)
from ajb_utils.stats.alignment import (
    align,
    degradation_slopes,
    lift,
    monotone_pairs,
    per_metric_align,
    record_alignment,
)
from ajb_utils.stats.bootstrap import bootstrap_cells, bootstrap_diff_ci
from ajb_utils.stats.frames import (
    CELL_KEYS,
    JURY_KEYS,
    LABELS,
    MISSING_RULE_NAMES,
    MISSING_RULES,
    PAIR_KEYS,
    PAPER_MISSING,
    PAPER_WEIGHTINGS,
    RECORD_EXTRAS,
    RECORD_KEYS,
    Missing,
    SeedLike,
    rule_name,
)
from ajb_utils.stats.juries import majority_jury, soft_jury
from ajb_utils.stats.ranking import rank1_probability, ranking_stability, spearman
from ajb_utils.stats.reference import (
    REFERENCE_JUDGES,
    metric_rows,
    oracle_match,
    reference_verdicts,
    ternary_oracle,
    uniform_expectation,
)

__all__ = [
    "SeedLike",
    "Missing",
    "MISSING_RULE_NAMES",
    "MISSING_RULES",
    "rule_name",
    "PAPER_MISSING",
    "LABELS",
    "RECORD_KEYS",
    "RECORD_EXTRAS",
    "CELL_KEYS",
    "JURY_KEYS",
    "PAIR_KEYS",
    "PAPER_WEIGHTINGS",
    "record_alignment",
    "align",
    "per_metric_align",
    "lift",
    "monotone_pairs",
    "degradation_slopes",
    "bootstrap_cells",
    "bootstrap_diff_ci",
    "kappa_from_confusion",
    "cohen_kappa",
    "exact_agreement",
    "pairwise_agreement",
    "agreement_matrix",
    "confusion",
    "offdiag_half_share",
    "BINARY_READINGS",
    "binary_collapse",
    "binary_verdicts",
    "half_rate",
    "spearman",
    "ranking_stability",
    "rank1_probability",
    "soft_jury",
    "majority_jury",
    "REFERENCE_JUDGES",
    "metric_rows",
    "oracle_match",
    "reference_verdicts",
    "ternary_oracle",
    "uniform_expectation",
]
