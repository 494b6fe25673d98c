"""The page of a thing or a person: a role, object, place or action, or a commentator.

What a scholar asks first comes first: its labels and definition; then where the book names
it, by chapter and section, with the words around it; then the acts it takes part in, in
reading order; then the relations derived from those acts, with how many acts support each.
A commentator's page adds his opinions by chapter and whom they endorse, dispute or report.
The reified statements and mention nodes behind all this are folded into those lists.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from kg.server.reading import Tips, int_of, select_rows, value_of

LJ = "https://w3id.org/lijing/ontology#"
SKOS = "http://www.w3.org/2004/02/skos/core#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
KINDS = {
    LJ + "Role": "role",
    LJ + "RitualObject": "object",
    LJ + "Place": "place",
    LJ + "ActionType": "action",
    LJ + "Commentator": "commentator",
}
CONTEXT = 14  # characters shown on each side of a mention
FACTS = (LJ + "courtesyName", LJ + "dynasty", LJ + "born", LJ + "died", LJ + "works")


@dataclass
class Hit:
    unit: str
    before: str
    match: str
    after: str


@dataclass
class Item:
    """One thing listed under a section: a mention in context, an act, an opinion."""

    iri: str
    order: int
    text: str
    hit: Hit | None = None
    roles: list[str] = field(default_factory=list)  # what the concept is in the act


@dataclass
class SectionGroup:
    iri: str
    title: str
    items: list[Item] = field(default_factory=list)


@dataclass
class ChapterGroup:
    iri: str
    title: str
    sections: list[SectionGroup] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(len(s.items) for s in self.sections)


@dataclass
class Relation:
    prop: str
    prop_label: str
    target: str
    target_label: str
    acts: int


@dataclass
class Entity:
    iri: str
    kind: str
    label: str
    english: str | None
    alt: list[str]
    definition: list[str]
    notes: list[str]
    facts: list[tuple[str, str]]
    broader: list[tuple[str, str]]
    occurrences: list[ChapterGroup]
    acts: list[ChapterGroup]
    relations: list[Relation]
    opinions: list[ChapterGroup]
    stances: list[Relation]


class Sections:
    """Every section's title and chapter, and its place in reading order (one query)."""

    def __init__(self, db: Any) -> None:
        self.info: dict[str, tuple[tuple[int, int], str, str, str]] = {}
        for r in select_rows(db, "sections-all"):
            sec, ch = value_of(r["sec"]), value_of(r["ch"])
            if sec and ch:
                key = (int_of(r["jorder"]) or 0, int_of(r["sorder"]) or 0)
                self.info[sec] = (
                    key,
                    value_of(r["stitle"]) or "—",
                    ch,
                    value_of(r["ctitle"]) or ch,
                )

    def group(self, placed: list[tuple[str | None, Item]]) -> list[ChapterGroup]:
        """Items by chapter and section, in reading order; items of no section at the end."""
        chapters: dict[str, ChapterGroup] = {}
        sections: dict[str, SectionGroup] = {}
        known = sorted(
            ((self.info[s][0], i.order, s, i) for s, i in placed if s in self.info),
            key=lambda x: (x[0], x[1]),
        )
        for _, _, sec, item in known:
            _, stitle, ch, ctitle = self.info[sec]
            chapter = chapters.setdefault(ch, ChapterGroup(ch, ctitle))
            if sec not in sections:
                sections[sec] = SectionGroup(sec, stitle)
                chapter.sections.append(sections[sec])
            sections[sec].items.append(item)
        loose = [i for s, i in placed if s not in self.info]
        out = list(chapters.values())
        if loose:
            out.append(ChapterGroup("", "—", [SectionGroup("", "—", loose)]))
        return out


def _head(db: Any, iri: str) -> dict[str, list[tuple[str, str | None]]]:
    mine: dict[str, list[tuple[str, str | None]]] = defaultdict(list)
    for r in select_rows(db, "entity-head", s=[iri]):
        if r["p"] and r["o"]:
            mine[r["p"].value].append((r["o"].value, r["o"].tag))
    return mine


def _section_of(db: Any, units: set[str]) -> dict[str, str]:
    found = select_rows(db, "unit-sections", u=sorted(units)) if units else []
    return {r["u"].value: r["sec"].value for r in found if r["u"] and r["sec"]}


def _occurrences(db: Any, iri: str, sections: Sections) -> list[ChapterGroup]:
    rows = select_rows(db, "entity-occurrences", s=[iri])
    where = _section_of(db, {r["u"].value for r in rows if r["u"]})
    placed = []
    for r in rows:
        u, text = value_of(r["u"]), value_of(r["text"]) or ""
        a, e = int_of(r["start"]), int_of(r["end"])
        if u is None or a is None or e is None:
            continue
        hit = Hit(u, text[max(0, a - CONTEXT) : a], text[a:e], text[e : e + CONTEXT])
        placed.append((where.get(u), Item(u, a, text, hit)))
    return sections.group(placed)


def _acts(db: Any, iri: str, sections: Sections, tips: Tips) -> list[ChapterGroup]:
    roles: dict[str, list[str]] = defaultdict(list)
    for r in select_rows(db, "entity-acts", s=[iri]):
        if r["act"] and r["role"]:
            roles[r["act"].value].append(r["role"].value)
    if not roles:
        return []
    tips.fetch({p for ps in roles.values() for p in ps})
    placed = []
    for r in select_rows(db, "entity-act-places", act=sorted(roles)):
        act = value_of(r["act"])
        if act is None:
            continue
        said = [tips.name(p) or p.rsplit("#", 1)[-1] for p in sorted(set(roles[act]))]
        text = value_of(r["label"]) or ""
        words = value_of(r["text"])
        item = Item(
            act, int_of(r["order"]) or 0, text, Hit(act, "", words, "") if words else None, said
        )
        placed.append((value_of(r["sec"]), item))
    return sections.group(placed)


def _relations(db: Any, iri: str, tips: Tips) -> list[Relation]:
    rows = [r for r in select_rows(db, "entity-relations", s=[iri]) if r["p"] and r["o"]]
    tips.fetch({r["p"].value for r in rows} | {r["o"].value for r in rows})
    return [
        Relation(
            r["p"].value,
            tips.name(r["p"].value) or r["p"].value.rsplit("#", 1)[-1],
            r["o"].value,
            tips.name(r["o"].value) or r["o"].value,
            int_of(r["n"]) or 0,
        )
        for r in rows
    ]


def _opinions(db: Any, iri: str, sections: Sections) -> list[ChapterGroup]:
    rows = select_rows(db, "entity-opinions", s=[iri])
    where = _section_of(db, {r["b"].value for r in rows if r["b"]})
    seen: dict[str, Item] = {}
    placed = []
    for r in rows:
        o, b = value_of(r["o"]), value_of(r["b"])
        if o is not None and o not in seen:
            seen[o] = Item(o, len(seen), value_of(r["text"]) or "")
            placed.append((where.get(b or ""), seen[o]))
    return sections.group(placed)


def _stances(db: Any, iri: str, tips: Tips) -> list[Relation]:
    """His opinions' stances on others (``→``) and others' on him (``←``), most first."""
    rows = [r for r in select_rows(db, "entity-stances", s=[iri]) if r["rel"] and r["other"]]
    tips.fetch({r["rel"].value for r in rows} | {r["other"].value for r in rows})
    out = []
    for r in rows:
        rel, other = r["rel"].value, r["other"].value
        arrow = "→" if value_of(r["dir"]) == "out" else "←"
        label = f"{arrow} {tips.name(rel) or rel.rsplit('#', 1)[-1]}"
        out.append(Relation(rel, label, other, tips.name(other) or other, int_of(r["n"]) or 0))
    return out


def concept(db: Any, iri: str) -> Entity | None:
    """The page of a role, object, place, action or commentator; None for anything else."""
    head = _head(db, iri)
    kinds = [
        KINDS[t]
        for t, _ in head.get("http://www.w3.org/1999/02/22-rdf-syntax-ns#type", [])
        if t in KINDS
    ]
    if not kinds:
        return None
    tips = Tips(db)
    labels = head.get(RDFS + "label", []) + head.get(SKOS + "prefLabel", [])
    pref = next((v for v, lang in head.get(SKOS + "prefLabel", []) if lang == "lzh"), None)
    english = next((v for v, lang in labels if lang == "en"), None)
    sections = Sections(db)
    broader = [o for o, _ in head.get(SKOS + "broader", [])]
    tips.fetch(set(broader) | set(FACTS))
    is_person = kinds[0] == "commentator"
    return Entity(
        iri=iri,
        kind=kinds[0],
        label=pref or next((v for v, _ in labels), iri),
        english=english,
        alt=sorted({v for v, _ in head.get(SKOS + "altLabel", [])}),
        definition=[v for v, _ in head.get(SKOS + "definition", [])],
        notes=[v for v, _ in head.get(SKOS + "scopeNote", [])],
        facts=[
            (tips.name(p) or p.rsplit("#", 1)[-1], v) for p in FACTS for v, _ in head.get(p, [])
        ],
        broader=[(b, tips.name(b) or b) for b in broader],
        occurrences=_occurrences(db, iri, sections),
        acts=[] if is_person else _acts(db, iri, sections, tips),
        relations=[] if is_person else _relations(db, iri, tips),
        opinions=_opinions(db, iri, sections) if is_person else [],
        stances=_stances(db, iri, tips) if is_person else [],
    )
