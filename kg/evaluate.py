"""Scores against the gold sets in tests/gold/: precision, recall and F1 per type.

Entities gold (``entities.jsonl``): one unit per line, ``{"id", "kind", "text", "entities":
[[start, end, type, slug], …]}``; a slug starting with "?" is a term the lexicon lacks.
Scored two ways: *strict* (span, type and concept all right) and *span* (span and type).

Voices gold (``voices.jsonl``) and glosses gold (``glosses.jsonl``): see tests/gold/README.md
and the functions below.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from kg.errors import InputError
from kg.resources import project_root

GOLD_DIR = project_root() / "tests" / "gold"
CLASSIC = {"passage": "classic", "record": "classic", "commentary": "commentary"}


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


def evaluate_entities(path: Path) -> Report:
    from kg.nlp.extract import annotate

    gold_units = read_jsonl(path)
    for n, u in enumerate(gold_units, 1):
        for key in ("id", "kind", "text", "entities"):
            if key not in u:
                raise InputError(path, n, f"gold unit lacks {key!r}")
    found_all = annotate((u["text"], CLASSIC.get(u["kind"], "classic")) for u in gold_units)
    strict: dict[str, Score] = defaultdict(Score)
    span: dict[str, Score] = defaultdict(Score)
    errors: list[tuple[str, str, str]] = []
    for u, found in zip(gold_units, found_all, strict=True):
        gold = {(s, e, t, c) for s, e, t, c in u["entities"]}
        got = {(m.start, m.end, m.type, m.slug) for m in found}
        for t in {x[2] for x in gold | got}:
            g = {x for x in gold if x[2] == t}
            f = {x for x in got if x[2] == t}
            strict[t].add(g, f)
            span[t].add({x[:3] for x in g}, {x[:3] for x in f})
        text = u["text"]
        for s, e, t, c in sorted(gold - got):
            errors.append((u["id"], "missed", f"{text[s:e]} {t}:{c} @{s}"))
        for s, e, t, c in sorted(got - gold):
            errors.append((u["id"], "spurious", f"{text[s:e]} {t}:{c} @{s}"))
    for scores in (strict, span):
        total = Score()
        for sc in list(scores.values()):
            total.tp, total.fp, total.fn = total.tp + sc.tp, total.fp + sc.fp, total.fn + sc.fn
        scores["all"] = total
    return Report("entities", len(gold_units), {"strict": strict, "span": span}, errors)


def _gold(path: Path, keys: tuple[str, ...]) -> list[dict]:
    rows = read_jsonl(path)
    for n, u in enumerate(rows, 1):
        for key in keys:
            if key not in u:
                raise InputError(path, n, f"gold unit lacks {key!r}")
    return rows


def _totals(scores: dict[str, Score]) -> None:
    total = Score()
    for sc in list(scores.values()):
        total.tp, total.fp, total.fn = total.tp + sc.tp, total.fp + sc.fp, total.fn + sc.fn
    scores["all"] = total


def evaluate_voices(path: Path) -> Report:
    """Attribution: per block, its voices ``[start, end, speaker, kind, reports]``.

    *strict*: a voice is right when its span (separators at either end left out), speaker,
    kind and reported commentator all match; scored per kind. *labels*: the same without
    the span (the n-th voice of a given speaker/kind/reports in the block). *blocks*: recall
    is the share of blocks whose whole voice sequence is right."""
    from kg.nlp.commentary_rules import load_rules
    from kg.nlp.voices import split_voices

    seps = load_rules().separators
    rows = _gold(path, ("id", "text", "voices"))
    strict: dict[str, Score] = defaultdict(Score)
    labels: dict[str, Score] = defaultdict(Score)
    blocks: dict[str, Score] = defaultdict(Score)
    errors: list[tuple[str, str, str]] = []
    for u in rows:
        text = u["text"]
        gold = {(*_trim(text, a, b, seps), s, k, r) for a, b, s, k, r in u["voices"]}
        got = {
            (*_trim(text, v.start, v.end, seps), v.speaker, v.kind, v.reports)
            for v in split_voices(text)
        }
        for t in {x[3] for x in gold | got}:
            strict[t].add({x for x in gold if x[3] == t}, {x for x in got if x[3] == t})
        labels["all"].add(_numbered(gold), _numbered(got))
        blocks["all"].add({u["id"]}, {u["id"]} if gold == got else set())
        for a, b, s, k, r in sorted(gold - got):
            errors.append((u["id"], "missed", f"{s}/{k}{'/' + r if r else ''} {text[a:b]} @{a}"))
        for a, b, s, k, r in sorted(got - gold):
            errors.append((u["id"], "spurious", f"{s}/{k}{'/' + r if r else ''} {text[a:b]} @{a}"))
    _totals(strict)
    return Report(
        "voices", len(rows), {"strict": strict, "labels": labels, "blocks": blocks}, errors
    )


def _trim(text: str, a: int, b: int, seps: str) -> tuple[int, int]:
    while a < b and (text[a] in seps or text[a].isspace()):
        a += 1
    while b > a and (text[b - 1] in seps or text[b - 1].isspace()):
        b -= 1
    return a, b


def _numbered(voices: set[tuple]) -> set[tuple]:
    seen: dict[tuple, int] = {}
    out = set()
    for v in sorted(voices):
        key = v[2:]
        seen[key] = seen.get(key, 0) + 1
        out.add((*key, seen[key]))
    return out


def evaluate_glosses(path: Path) -> Report:
    """Glosses: per block, ``[term_start, term_end, def_start, def_end, term, definition]``
    given the passage the block comments on. *strict*: term and definition spans both
    right; *term*: the term's span right. Scored for seed and written blocks apart."""
    from kg.nlp.glosses import find_glosses

    rows = _gold(path, ("id", "text", "passage", "glosses"))
    strict: dict[str, Score] = defaultdict(Score)
    term: dict[str, Score] = defaultdict(Score)
    errors: list[tuple[str, str, str]] = []
    for u in rows:
        text = u["text"]
        kind = "written" if u.get("source") == "written" else "seed"
        gold = {(a, b, c, d) for a, b, c, d, *_ in u["glosses"]}
        got = {
            (g.term_start, g.term_end, g.def_start, g.def_end)
            for g in find_glosses(text, passage=u["passage"])
        }
        strict[kind].add(gold, got)
        term[kind].add({g[:2] for g in gold}, {g[:2] for g in got})
        for a, b, c, d in sorted(gold - got):
            errors.append((u["id"], "missed", f"{text[a:b]} = {text[c:d]} @{a}"))
        for a, b, c, d in sorted(got - gold):
            errors.append((u["id"], "spurious", f"{text[a:b]} = {text[c:d]} @{a}"))
    _totals(strict)
    _totals(term)
    return Report("glosses", len(rows), {"strict": strict, "term": term}, errors)


TASKS = {
    "entities": ("entities.jsonl", evaluate_entities),
    "voices": ("voices.jsonl", evaluate_voices),
    "glosses": ("glosses.jsonl", evaluate_glosses),
    "acts": ("acts.jsonl", lambda path: _acts(path)),
}


def _acts(path: Path) -> Report:
    from kg.evaluate_acts import evaluate_acts

    return evaluate_acts(path)


def run(tasks: Iterable[str], gold: Path | None = None) -> list[Report]:
    reports = []
    for task in tasks:
        filename, fn = TASKS[task]
        path = gold or GOLD_DIR / filename
        if not path.is_file():
            raise InputError(path, None, "no gold file here")
        reports.append(fn(path))
    return reports
