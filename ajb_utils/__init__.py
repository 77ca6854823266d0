"""ajb_utils: the analysis behind the AgentJudgeBench reproduction notebooks.

Its modules, from the ground floor (schema, paths, calls, data) up to tables/ and figures/, with imports
pointing down only and never into ajb_judge, ajb_sample or ajb_verify, are docs/ARCHITECTURE.md's.
"""

__version__ = "0.1.0"
