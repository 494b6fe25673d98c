"""Candidate terms the lexicon lacks, for a curator: what the probes in
``kg/nlp/patterns/gaps.toml`` find in the built graph's text that no mention covers."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from dataclasses import dataclass

from kg.nlp.lexicon import PATTERNS, load_lexicon

QUERY = """
SELECT ?u ?norm ?kind ?label ?s ?e WHERE {
  ?u lj:normalizedText ?norm ; a ?cls ; rdfs:label ?label .
  FILTER(?cls IN (lj:Passage, lj:Record, lj:Commentary))
  BIND(IF(?cls = lj:Commentary, "commentary", "classic") AS ?kind)
  OPTIONAL { ?m lj:inUnit ?u ; a lj:Mention ; lj:charStart ?s ; lj:charEnd ?e }
}
"""


@dataclass(frozen=True)
class Candidate:
    kind: str
    term: str
    count: int
    probe: str
    example: str


def find_gaps(store: object, min_count: int = 2) -> list[Candidate]:
    from kg.store import rows, run_query

    probes = tomllib.loads((PATTERNS / "gaps.toml").read_text(encoding="utf-8"))["probe"]
    compiled = [(p, re.compile(p["pattern"]), re.compile(p["exclude"])) for p in probes]
    known = set(load_lexicon().entries)
    units: dict[str, tuple[str, str, str, list[tuple[int, int]]]] = {}
    _, body = rows(run_query(store, QUERY))  # type: ignore[arg-type]
    for u, norm, kind, label, s, e in body:
        entry = units.setdefault(u.value, (norm.value, kind.value, label.value, []))
        if s and e:
            entry[3].append((int(s.value), int(e.value)))
    counts: Counter[tuple[str, str, str]] = Counter()
    examples: dict[tuple[str, str, str], str] = {}
    for text, kind, label, covered in units.values():
        for probe, rx, skip in compiled:
            if probe["units"] != kind:
                continue
            for m in rx.finditer(text):
                a, b = m.span(1)
                while b - a > 2 and text[a] in probe["trim_left"]:
                    a += 1
                term = text[a:b]
                if not term or term in known or skip.search(term):
                    continue
                if any(s <= a and b <= e for s, e in covered):
                    continue
                key = (probe["kind"], term, probe["name"])
                counts[key] += 1
                examples.setdefault(key, label)
    return [
        Candidate(kind, term, n, probe, examples[(kind, term, probe)])
        for (kind, term, probe), n in counts.most_common()
        if n >= min_count
    ]
