"""Statistics for AgentJudgeBench: alignment (Eqs. 4-5), bootstrap CIs, agreement, ranking, juries.

Modules: `alignment` (mu, cells, lift, degradation), `bootstrap`, `agreement` (kappa, confusion,
binary collapse), `ranking` (Spearman, ranking stability), `juries`, `reference` (reference judges:
always-1.0 = p-bar, always-0.5, uniform random, the {0, 0.5, 1} oracle, the static judge's rows);
`frames` holds the shared keys.

Compute only: every function takes tidy frames or arrays and returns frames, series or numbers;
plotting lives in ``ajb_utils.figures``. The input is the ``verdicts`` long frame of
docs/DATA_FORMAT.md section 4 (one row per id, generator, difficulty, judge, condition, metric
with ``llm_score``, ``p`` and ``match``). Names may be categorical; every groupby uses
``observed=True``.

Missing verdicts. The paper's Eq. 4b averages the M = 4 per-metric matches of a record. A metric
whose verdict is missing (NaN ``llm_score``, or no row for that metric although the record has
rows for others) is handled by one of three rules, chosen with ``missing=``:

- ``"exclude"``: the record's mu is the mean over the metrics it has;
- ``"miss"`` (Appendix D): a missing verdict counts as a full miss (match 0), mu = sum of
  matches / M; a record whose judge returned no verdict at all is excluded, and with it its
  (record, generator, judge, difficulty) tuple in every condition (Appendix D excludes tuples,
  each "evaluated under both with GT and without GT conditions");
- ``"authors"`` (the authors' analysis script, the rule the README attributes to them): a record
  whose condition has no verdict at all (null ``overall_alignment_pct``) is dropped in that
  condition only, while a single null metric inside a verdict counts as a miss (the verdict's
  overall alignment already holds it as 0). ``PAPER_MISSING``: the one default of every ``stats``
  function and table (``rule_name`` gives its printed name).

Every rule drops a record without any verdict (its mu is undefined, not 0). A record with no row
at all is never seen. Every statistic follows one row rule: one row per (record, judge,
condition, metric); a duplicate is an error (``load_bench`` excludes them with a reason).

Bootstrap. All intervals are percentile intervals. Every random function takes an explicit
``seed`` (int, SeedSequence or ``numpy.random.Generator``); ``None`` is refused so that a CI
never changes between runs. The bootstrap of a mean uses the *multinomial* form: resampling n
items with replacement is the same as drawing the counts of the distinct values from
Multinomial(n, empirical frequencies), and the resampled mean is the count-weighted mean of the
distinct values. This is exact (the same distribution as index resampling, not an
approximation) and needs no (resamples x n) array (``bootstrap._resampled_means``). A stratified
bootstrap draws one multinomial per stratum with the stratum's own size, so stratum sizes are
kept in every resample.
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
from ajb_utils.stats.ranking import rank1_probability, ranking_stability, spearman, spearman_tie_range
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
    "spearman_tie_range",
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
