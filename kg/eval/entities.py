"""Entities gold (``entities.jsonl``): one unit per line, ``{"id", "kind", "text", "entities":
[[start, end, type, slug], …]}``; a slug starting with "?" is a term the lexicon lacks.
Scored two ways: *strict* (span, type and concept all right) and *span* (span and type).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from kg.eval.score import Report, Score, add_totals, differences, read_gold
from kg.nlp.extract import annotate

CLASSIC = {"passage": "classic", "record": "classic", "commentary": "commentary"}


def evaluate_entities(path: Path) -> Report:
    gold_units = read_gold(path, ("id", "kind", "text", "entities"))
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
        errors += differences(
            u["id"], gold, got, lambda s, e, t, c, text=text: f"{text[s:e]} {t}:{c} @{s}"
        )
    add_totals(strict)
    add_totals(span)
    return Report("entities", len(gold_units), {"strict": strict, "span": span}, errors)
