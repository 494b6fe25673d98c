"""The search job (runs in a worker): a phrase in the book's text and in concept names.

The phrase is normalized as ``kg query fulltext`` does (variants and traditional forms fold:
釋獲 finds 释获) and bound as a literal, never spliced into the query. Text hits come in
reading order, after the concepts one of whose labels contains the phrase. Each hit has a
snippet of plain text and the spans of the match in it (normalization keeps offsets, so a
match on the normalized text marks the original characters).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import cache
from typing import Any

from kg.rdf.prefixes import PREFIXES
from kg.server.describe import QUERIES, Labels
from kg.store import Cell, query_dataset, rows
from kg.text.normalize import normalize

LJ = PREFIXES["lj"]
KINDS = {  # class → the kind a hit reports
    "Passage": "passage",
    "Record": "record",
    "Commentary": "commentary",
    "Role": "role",
    "RitualObject": "object",
    "Place": "place",
    "Commentator": "commentator",
    "Rite": "rite",
    "CitedWork": "work",
}
CONTEXT = 24  # characters of text either side of the first match
MAX_NAMES = 50  # concept hits listed before the text hits


@dataclass
class Hit:
    iri: str
    kind: str
    snippet: str
    marks: list[tuple[int, int]] = field(default_factory=list)  # [start, end) in snippet
    label: str | None = None  # the concept's own name, or the section a unit is in
    section: str | None = None  # the section's IRI (text hits)


def snippet(text: str, phrase: str, context: int = CONTEXT) -> tuple[str, list[tuple[int, int]]]:
    """Text around the first match of ``phrase`` (normalized) with every match in it marked.

    >>> snippet("三耦卒饮賔主人大夫不胜", "宾主", 2)
    ('…卒饮賔主人大…', [(3, 5)])
    >>> snippet("abc", "x")
    ('abc', [])
    """
    norm = normalize(text)
    first = norm.find(phrase) if phrase else -1
    if first < 0:
        return text[: 2 * context], []
    lo, hi = max(0, first - context), min(len(text), first + len(phrase) + context)
    marks, at = [], first
    while at >= 0 and at + len(phrase) <= hi:
        marks.append((at - lo, at - lo + len(phrase)))
        at = norm.find(phrase, at + len(phrase))
    prefix, suffix = ("…" if lo else ""), ("…" if hi < len(text) else "")
    shift = len(prefix)
    return prefix + text[lo:hi] + suffix, [(a + shift, b + shift) for a, b in marks]


def _kind(cell: Cell | None) -> str:
    name = cell.value[len(LJ) :] if cell and cell.value.startswith(LJ) else ""
    return KINDS.get(name, "other")


@cache
def _query(name: str) -> str:
    return (QUERIES / f"{name}.rq").read_text(encoding="utf-8")


def _select(db: Any, name: str, phrase: str, tail: str = "") -> list[list[Cell | None]]:
    return list(rows(query_dataset(db, _query(name) + tail, literals={"q": phrase}))[1])  # type: ignore[arg-type]


def name_hits(db: Any, phrase: str, raw: str) -> list[Hit]:
    """Concepts with a label containing the phrase (normalized, or as typed)."""
    found: dict[str, Hit] = {}
    for form in dict.fromkeys((phrase, raw)):
        for c, cls, label, _ in _select(db, "search-names", form):
            if c and label and c.value not in found and len(found) < MAX_NAMES:
                text, marks = _mark_label(label.value, form)
                found[c.value] = Hit(c.value, _kind(cls), text, marks)
    labels = Labels(db)
    labels.wanted.update(found)
    labels.fetch()
    for h in found.values():
        best = labels.best.get(h.iri)
        h.label = best[1] if best else None
    return list(found.values())


def _mark_label(label: str, form: str) -> tuple[str, list[tuple[int, int]]]:
    at = label.lower().find(form.lower())
    if at < 0:
        at = normalize(label).find(form)
    return label, [(at, at + len(form))] if at >= 0 else []


def text_hits(db: Any, phrase: str, offset: int, size: int) -> list[Hit]:
    tail = f"\nLIMIT {int(size)} OFFSET {int(offset)}"
    out = []
    labels = Labels(db)
    for u, cls, text, section, _ in _select(db, "search-text", phrase, tail):
        if u and text:
            snip, marks = snippet(text.value, phrase)
            out.append(Hit(u.value, _kind(cls), snip, marks, section=section and section.value))
            labels.want(section)
    labels.fetch()
    for h in out:
        best = labels.best.get(h.section or "")
        h.label = best[1] if best else None
    return out


def search(db: Any, phrase: str, offset: int, size: int) -> dict[str, Any]:
    """One page of hits for ``phrase``: concepts first, then units of text; and totals."""
    norm = normalize(phrase)
    names = name_hits(db, norm, phrase)
    counted = _select(db, "search-count", norm)
    texts = int(counted[0][0].value) if counted and counted[0][0] else 0
    page = names[offset : offset + size]
    if len(page) < size:
        start = max(0, offset - len(names))
        page += text_hits(db, norm, start, size - len(page))
    return {
        "query": phrase,
        "normalized": norm,
        "total": len(names) + texts,
        "names": len(names),
        "hits": [asdict(h) for h in page],
    }
