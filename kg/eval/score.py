"""The scores every task reports: precision, recall and F1 per type, and the gold reader."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kg.errors import InputError


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, gold: set, found: set) -> None:
        self.tp += len(gold & found)
        self.fp += len(found - gold)
        self.fn += len(gold - found)


@dataclass
class Report:
    task: str
    units: int
    scores: dict[str, dict[str, Score]]  # mode -> type -> Score
    errors: list[tuple[str, str, str]] = field(default_factory=list)  # (unit id, kind, detail)


def read_jsonl(path: Path) -> list[dict]:
    rows = []
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise InputError(path, n, f"not valid JSON: {e.msg}") from None
    return rows


def read_gold(path: Path, keys: tuple[str, ...]) -> list[dict]:
    """The gold units of a JSONL file; a unit lacking one of ``keys`` is an input error."""
    rows = read_jsonl(path)
    for n, u in enumerate(rows, 1):
        for key in keys:
            if key not in u:
                raise InputError(path, n, f"gold unit lacks {key!r}")
    return rows


def add_totals(scores: dict[str, Score]) -> None:
    """Add an ``all`` row that sums the per-type scores."""
    total = Score()
    for sc in list(scores.values()):
        total.tp, total.fp, total.fn = total.tp + sc.tp, total.fp + sc.fp, total.fn + sc.fn
    scores["all"] = total


def differences(
    unit: str, gold: set[tuple], found: set[tuple], describe: Callable[..., str]
) -> list[tuple[str, str, str]]:
    """The misses and spurious finds of one unit, for ``kg eval --errors``; ``describe``
    gets a tuple's fields and says it in a few words."""
    return [(unit, "missed", describe(*x)) for x in sorted(gold - found)] + [
        (unit, "spurious", describe(*x)) for x in sorted(found - gold)
    ]


@dataclass
class SplitReports:
    """One task's reports, by split (``dev``, ``test``, or ``gold`` for a file given)."""

    task: str
    reports: dict[str, Report]

    def modes(self) -> list[str]:
        """The scoring modes, in the order the first report gives them."""
        seen: dict[str, None] = {}
        for report in self.reports.values():
            seen.update(dict.fromkeys(report.scores))
        return list(seen)

    def rows(self, mode: str) -> list[tuple[str, dict[str, Score | None]]]:
        """Per type, each split's score side by side (None where a split lacks the type);
        types sorted by name, ``all`` last."""
        types: set[str] = set()
        for report in self.reports.values():
            types |= set(report.scores.get(mode, {}))
        ordered = sorted(types, key=lambda t: (t == "all", t))
        return [
            (t, {s: r.scores.get(mode, {}).get(t) for s, r in self.reports.items()})
            for t in ordered
        ]
