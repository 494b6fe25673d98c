"""Glosses gold (``glosses.jsonl``, see tests/gold/README.md): term and definition spans."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from kg.eval.score import Report, Score, add_totals, differences, read_gold
from kg.nlp.glosses import find_glosses


def evaluate_glosses(path: Path) -> Report:
    """Glosses: per block, ``[term_start, term_end, def_start, def_end, term, definition]``
    given the passage the block comments on. *strict*: term and definition spans both
    right; *term*: the term's span right. Scored for seed and written blocks apart."""
    rows = read_gold(path, ("id", "text", "passage", "glosses"))
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
        errors += differences(
            u["id"], gold, got, lambda a, b, c, d, text=text: f"{text[a:b]} = {text[c:d]} @{a}"
        )
    add_totals(strict)
    add_totals(term)
    return Report("glosses", len(rows), {"strict": strict, "term": term}, errors)
