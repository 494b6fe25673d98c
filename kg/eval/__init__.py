"""Scores against the gold sets in tests/gold/: one module per task, ``tasks.TASKS`` names them.

Voices and glosses gold: see tests/gold/README.md and the task modules.
"""

from kg.eval.score import Report, Score, SplitReports, read_jsonl
from kg.eval.tasks import GOLD_DIR, SPLIT_CHOICES, SPLITS, TASKS, TEST_DIR, run, run_splits

__all__ = [
    "GOLD_DIR",
    "SPLITS",
    "SPLIT_CHOICES",
    "TASKS",
    "TEST_DIR",
    "Report",
    "Score",
    "SplitReports",
    "read_jsonl",
    "run",
    "run_splits",
]
