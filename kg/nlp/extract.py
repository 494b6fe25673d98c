"""Mentions of lexicon concepts in a unit's text, and the items the act reader reads.

>>> [(m.type, m.slug) for m in mentions("司射适堂西取弓于阶西")]
[('role', 'sishe'), ('place', 'tangxi'), ('object', 'gong'), ('place', 'jiexi')]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from spacy.tokens import Doc

from kg.nlp.act_grammar import Item, Swallowed, markers
from kg.nlp.lexicon import load_lexicon, rule_allows
from kg.nlp.pipeline import build_nlp
from kg.text.normalize import normalize

ACT_TYPES = ("role", "object", "place")


@dataclass(frozen=True)
class Mention:
    start: int  # offsets in the unit's original text
    end: int
    type: str
    slug: str
    iri: str
    text: str  # the original characters


@dataclass
class Analysis:
    mentions: list[Mention] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)  # for the act reader (classic units)


def _iris() -> dict[tuple[str, str], str]:
    return {(e.type, e.slug): e.iri for es in load_lexicon().entries.values() for e in es}


def analyse(items: Iterable[tuple[str, str]], batch_size: int = 256) -> Iterator[Analysis]:
    """For each (text, unit kind) — kind "classic" or "commentary" — its mentions and, for
    the classic, the items the act reader reads."""
    nlp = build_nlp()
    iris = _iris()
    originals: list[str] = []

    def docs() -> Iterator[Doc]:
        for text, kind in items:
            originals.append(text)
            doc = nlp.make_doc(normalize(text))
            doc._.lj_unit = kind
            yield doc

    for i, doc in enumerate(nlp.pipe(docs(), batch_size=batch_size)):
        original = originals[i]
        found = [
            Mention(
                s.start_char,
                s.end_char,
                s.label_,
                s.kb_id_,
                iris[(s.label_, s.kb_id_)],
                original[s.start_char : s.end_char],
            )
            for s in doc.spans["lj_mentions"]
        ]
        result = Analysis(found)
        if doc._.lj_unit == "classic":
            result.items = _act_items(doc, found, iris)
        yield result


def _act_items(doc: Doc, found: list[Mention], iris: dict[tuple[str, str], str]) -> list[Item]:
    """Roles, objects, places and actions, without overlaps; then the small words.

    An action word longer than every entity it overlaps wins (袒决遂: 决遂, not the objects
    决 and 遂); the objects it swallowed stay with it as what it handles."""
    text = doc.text
    lexicon = load_lexicon()
    ents = [m for m in found if m.type in ACT_TYPES]
    owner: list[Mention | None] = [None] * len(text)
    for m in found:
        for k in range(m.start, m.end):
            owner[k] = m
    actions = []
    taken = [False] * len(text)
    for s in sorted(
        doc.spans.get("lj_action_candidates", []),
        key=lambda s: (-(s.end_char - s.start_char), s.start_char),
    ):
        a, b = s.start_char, s.end_char
        if any(taken[a:b]) or not rule_allows(lexicon, s.text, "action", "classic", text, a, b):
            continue
        covered = {id(o): o for o in owner[a:b] if o is not None}.values()
        if any(o.start < a or o.end > b or (o.end - o.start) >= (b - a) for o in covered):
            continue  # an entity at least as long, or reaching outside: the entity wins
        swallowed = [o for o in covered if o.type == "object"]
        for k in range(a, b):
            taken[k] = True
        inside = tuple(Swallowed(text[o.start : o.end], o.iri) for o in swallowed)
        actions.append(
            Item(a, b, "action", s.text, s.kb_id_, iris[("action", s.kb_id_)], swallowed=inside)
        )
    items = [
        Item(m.start, m.end, m.type, text[m.start : m.end], m.slug, m.iri)
        for m in ents
        if not any(taken[m.start : m.end])
    ]
    for m in found:
        for k in range(m.start, m.end):
            taken[k] = True
    items.extend(actions)
    items.extend(markers(text, taken))
    return sorted(items, key=lambda i: i.start)


def annotate(items: Iterable[tuple[str, str]], batch_size: int = 256) -> Iterator[list[Mention]]:
    """Mentions for each (text, unit kind)."""
    for a in analyse(items, batch_size):
        yield a.mentions


def mentions(text: str, kind: str = "classic") -> list[Mention]:
    return next(annotate([(text, kind)]))


def act_items(text: str) -> list[Item]:
    return next(analyse([(text, "classic")])).items
