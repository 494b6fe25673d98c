"""The registry of scoring tasks: name → gold file and scorer, and running them on the splits.

Each task has a dev file (``tests/gold/NAME.jsonl``, read and argued with) and a frozen test
file (``tests/gold/test/NAME.jsonl``, annotated blind and never tuned on): see
tests/gold/README.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from kg.errors import InputError
from kg.eval.acts import evaluate_acts
from kg.eval.entities import evaluate_entities
from kg.eval.glosses import evaluate_glosses
from kg.eval.positions import evaluate_positions
from kg.eval.quotations import evaluate_quotations
from kg.eval.score import Report, SplitReports
from kg.eval.tracks import evaluate_tracks
from kg.eval.voices import evaluate_voices
from kg.resources import project_root

GOLD_DIR = project_root() / "tests" / "gold"
TEST_DIR = GOLD_DIR / "test"
SPLITS = ("dev", "test")
SPLIT_CHOICES = (*SPLITS, "all")


@dataclass(frozen=True)
class Task:
    """gold (str): the file name, in tests/gold/ (dev) and tests/gold/test/ (test).
    score (Callable): gold file → Report.
    split_field (bool): one file in tests/gold/ holds both splits, each line's ``split``
    saying which (the quotations gold); ``score`` then takes the split too."""

    gold: str
    score: Callable[..., Report]
    split_field: bool = False

    def path(self, split: str) -> Path:
        if self.split_field:
            return GOLD_DIR / self.gold
        return (GOLD_DIR if split == "dev" else TEST_DIR) / self.gold

    def run(self, path: Path, split: str) -> Report:
        return self.score(path, split) if self.split_field else self.score(path)


TASKS: dict[str, Task] = {
    "entities": Task("entities.jsonl", evaluate_entities),
    "voices": Task("voices.jsonl", evaluate_voices),
    "glosses": Task("glosses.jsonl", evaluate_glosses),
    "acts": Task("acts.jsonl", evaluate_acts),
    "quotations": Task("quotations.jsonl", evaluate_quotations, split_field=True),
    "positions": Task("positions.jsonl", evaluate_positions),
    "tracks": Task("tracks.jsonl", evaluate_tracks),
}


def gold_files(task: Task, split: str = "all", gold: Path | None = None) -> dict[str, Path]:
    """The gold file of each split to score: ``gold`` alone when given (labelled ``gold``);
    for ``all``, dev and the test file if it exists; for ``dev`` or ``test``, that file,
    which must exist."""
    if gold is not None:
        files = {"gold": gold}
    elif split == "all":
        files = {s: task.path(s) for s in SPLITS if s == "dev" or task.path(s).is_file()}
    elif split in SPLITS:
        files = {split: task.path(split)}
    else:
        raise ValueError(f"unknown split {split!r}: one of {', '.join(SPLIT_CHOICES)}")
    for path in files.values():
        if not path.is_file():
            raise InputError(path, None, "no gold file here")
    return files


def run_splits(
    tasks: Iterable[str], split: str = "all", gold: Path | None = None
) -> list[SplitReports]:
    """Score each task on each split's gold file (or on ``gold`` alone)."""
    out = []
    for name in tasks:
        task = TASKS[name]
        files = gold_files(task, split, gold)
        out.append(SplitReports(name, {s: task.run(p, s) for s, p in files.items()}))
    return out


def run(tasks: Iterable[str], gold: Path | None = None) -> list[Report]:
    """Score each task against its dev gold file (or ``gold`` for all of them)."""
    return [next(iter(r.reports.values())) for r in run_splits(tasks, "dev", gold)]
