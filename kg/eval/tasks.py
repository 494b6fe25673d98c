"""The registry of scoring tasks: name → gold file and scorer, and running them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from kg.errors import InputError
from kg.eval.acts import evaluate_acts
from kg.eval.entities import evaluate_entities
from kg.eval.glosses import evaluate_glosses
from kg.eval.score import Report
from kg.eval.voices import evaluate_voices
from kg.resources import project_root

GOLD_DIR = project_root() / "tests" / "gold"


@dataclass(frozen=True)
class Task:
    """gold (str): the file in tests/gold/. score (Callable): gold file → Report."""

    gold: str
    score: Callable[[Path], Report]


TASKS: dict[str, Task] = {
    "entities": Task("entities.jsonl", evaluate_entities),
    "voices": Task("voices.jsonl", evaluate_voices),
    "glosses": Task("glosses.jsonl", evaluate_glosses),
    "acts": Task("acts.jsonl", evaluate_acts),
}


def run(tasks: Iterable[str], gold: Path | None = None) -> list[Report]:
    """Score each task against its gold file (or ``gold`` for all of them)."""
    reports = []
    for name in tasks:
        task = TASKS[name]
        path = gold or GOLD_DIR / task.gold
        if not path.is_file():
            raise InputError(path, None, "no gold file here")
        reports.append(task.score(path))
    return reports
