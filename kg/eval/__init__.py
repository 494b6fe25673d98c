"""Scores against the gold sets in tests/gold/: one module per task, ``tasks.TASKS`` names them.

Voices and glosses gold: see tests/gold/README.md and the task modules.
"""

from kg.eval.score import Report, Score, read_jsonl
from kg.eval.tasks import GOLD_DIR, TASKS, run

__all__ = ["GOLD_DIR", "TASKS", "Report", "Score", "read_jsonl", "run"]
