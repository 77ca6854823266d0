"""Run a new judge (or generator) on the benchmark from parameters (see README.md here).

Python API:
- ``run_judge(RunConfig(...)) -> RunSummary``: judge the selected items (static or any
  OpenAI-compatible endpoint), resumably, and export ``data/runs/<name>.jsonl`` + ``.meta.json``.
- ``static_verdicts(bench, conditions) -> DataFrame``: the static judge's long verdict frame.
- ``run_generate`` / ``run_rewrite``: a new generator (W.1) / the Appendix N rewrite meta-judge.
- ``new_judge_config`` / ``run_line`` / ``run_status``: notebook 15's config and run summary lines.
- ``make_plan(PlanConfig(...)) -> Plan`` / ``plan_text``: records for a target CI half-width and the run's cost
  (``python -m ajb_judge plan``).
"""

from ajb_judge.backends import Decoding
from ajb_judge.notebook import STATIC_NOTE, new_judge_config, run_cache_line, run_line, run_status
from ajb_judge.plan import Plan, PlanConfig, make_plan, plan_display, plan_text
from ajb_judge.runner import RunConfig, RunSummary, run_generate, run_judge, run_rewrite
from ajb_judge.static_judge import static_verdicts

__all__ = [
    "Decoding",
    "Plan",
    "PlanConfig",
    "make_plan",
    "plan_display",
    "plan_text",
    "RunConfig",
    "RunSummary",
    "STATIC_NOTE",
    "new_judge_config",
    "run_cache_line",
    "run_generate",
    "run_judge",
    "run_line",
    "run_rewrite",
    "run_status",
    "static_verdicts",
]
