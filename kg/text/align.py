"""Witness alignment: the documents of one build merged into one book.

The same passage read in two files (with different characters, a dropped glyph, a misread
one) becomes one unit with two readings. Matching is on the normalized skeleton: exact
first, in order, then a fuzzy match inside the gaps the exact matches leave. Documents are
taken in a fixed order (by file name), so the result does not depend on the order the
files were given in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import cached_property
from typing import TypeVar

from kg.text.catalog import Catalog
from kg.text.document import (
    Chapter,
    Document,
    Juan,
    Note,
    Preface,
    Section,
    Seg,
    Spanned,
    TextUnit,
)
from kg.text.normalize import GARBLED, normalize, skeleton

T = TypeVar("T")
FUZZY = 0.8  # skeleton similarity for two readings of one unit


@dataclass
class Reading(Spanned):
    """One witness's reading of a unit: where it stands in which file."""

    doc: Document
    kind: Seg
    text: str  # original characters, reading marks and inline notes left out
    pieces: list[tuple[int, int]]
    unit: TextUnit | Note | None = None
    partial: bool = False  # a commentary tail whose start lies before the file

    @cached_property
    def skeleton(self) -> str:
        return skeleton(self.text)

    @property
    def garbles(self) -> int:
        return len(GARBLED.findall(self.text))


@dataclass
class Unit:
    """A passage, record, commentary block or note, with every witness reading it."""

    kind: Seg
    readings: list[Reading]
    commentary: list[Unit] = field(default_factory=list)
    notes: list[Unit] = field(default_factory=list)
    title: str | None = None  # titled prefaces

    @cached_property
    def canonical(self) -> Reading:
        """The reading shown: most witnesses agree, then fewest garbles, longest, file order."""
        full = [r for r in self.readings if not r.partial] or self.readings
        votes: dict[str, int] = {}
        for r in full:
            votes[r.skeleton] = votes.get(r.skeleton, 0) + 1
        return min(
            full,
            key=lambda r: (-votes[r.skeleton], r.garbles, -len(r.skeleton), r.doc.path.name),
        )

    @cached_property
    def key(self) -> str:
        """Hash of the incipit and explicit (first and last six characters of the skeleton):
        two witnesses that differ only inside a passage still give it one IRI."""
        sk = self.canonical.skeleton
        return _hash(sk if len(sk) <= 12 else f"{sk[:6]}…{sk[-6:]}")

    @cached_property
    def full_key(self) -> str:
        """Hash of the whole skeleton: tells apart units whose incipit and explicit agree."""
        return _hash(self.canonical.skeleton)

    @property
    def reading_breaks(self) -> list[int]:
        u = self.canonical.unit
        return list(u.reading_breaks) if isinstance(u, TextUnit) else []


def _hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


@dataclass
class AlignedSection:
    title: str | None
    readings: list[tuple[Document, Section]]
    passages: list[Unit] = field(default_factory=list)
    records: list[Unit] = field(default_factory=list)
    notes: list[Unit] = field(default_factory=list)
    orphans: list[Unit] = field(default_factory=list)

    @property
    def norm_title(self) -> str | None:
        return normalize(self.title) if self.title else None


@dataclass
class AlignedChapter:
    rite: str | None
    readings: list[tuple[Document, Chapter]]
    prefaces: list[Unit] = field(default_factory=list)
    sections: list[AlignedSection] = field(default_factory=list)
    rank: float = 0.0  # order in its juan: the rite's, or after the chapter printed before it

    @property
    def minted(self) -> str | None:
        """The name of a rite the vocabulary lacks, minted from the chapter's title."""
        return next((c.minted for _, c in self.readings if c.minted), None)

    @property
    def part(self) -> str | None:
        """上 / 下: which half of its minted rite this chapter is."""
        return next((c.part for _, c in self.readings if c.part), None)

    @property
    def title(self) -> str | None:
        return next((c.title for _, c in self.readings if c.title), None)

    @property
    def category(self) -> str | None:
        return next((c.category for _, c in self.readings if c.category), None)


@dataclass
class AlignedJuan:
    number: int | None
    readings: list[tuple[Document, Juan]]
    prefaces: list[Unit] = field(default_factory=list)
    chapters: list[AlignedChapter] = field(default_factory=list)


@dataclass
class Corpus:
    documents: list[Document]
    juans: list[AlignedJuan]
    abstract: Unit | None = None

    def chapters(self) -> list[AlignedChapter]:
        return [c for j in self.juans for c in j.chapters]

    def units(self) -> Iterator[tuple[Unit, str]]:
        """Every unit with text, and whether it is "classic" (经文, 记) or "commentary"."""

        def walk(u: Unit, kind: str) -> Iterator[tuple[Unit, str]]:
            yield u, kind
            for n in (*u.notes, *u.commentary):
                yield from walk(n, "commentary")

        for j in self.juans:
            for p in j.prefaces:
                yield from walk(p, "commentary")
            for c in j.chapters:
                for p in c.prefaces:
                    yield from walk(p, "commentary")
                for s in c.sections:
                    for u in (*s.notes, *s.orphans):
                        yield from walk(u, "commentary")
                    for u in (*s.passages, *s.records):
                        yield from walk(u, "classic")


# -- sequence merging ------------------------------------------------------------------------


def pair_up(
    a: Sequence[T], b: Sequence[T], key: Callable[[T], str], similar: Callable[[T, T], bool]
) -> list[tuple[int, int]]:
    """Monotonic pairs (i, j): equal keys first, then similar items inside the gaps."""
    ka, kb = [key(x) for x in a], [key(x) for x in b]
    blocks = SequenceMatcher(None, ka, kb, autojunk=False).get_matching_blocks()
    exact = [(blk.a + k, blk.b + k) for blk in blocks for k in range(blk.size)]
    pairs: list[tuple[int, int]] = []
    prev_i, prev_j = -1, -1
    for i, j in [*exact, (len(a), len(b))]:
        start = prev_i + 1
        for jj in range(prev_j + 1, j):
            for ii in range(start, i):
                if similar(a[ii], b[jj]):
                    pairs.append((ii, jj))
                    start = ii + 1
                    break
        if i < len(a) and j < len(b):
            pairs.append((i, j))
        prev_i, prev_j = i, j
    return pairs


def merge(
    groups: Sequence[Sequence[T]],
    key: Callable[[T], str],
    similar: Callable[[T, T], bool],
    parts: bool = False,
) -> list[list[T]]:
    """Clusters of items that are one unit across witnesses, in a combined reading order.

    ``parts``: groups given in reading order may be consecutive parts rather than witnesses
    (a chapter running on from one juan file into the next): a group sharing nothing with
    the fuller one goes before it when it comes first.
    """
    groups = [g for g in groups if g]
    if not groups:
        return []
    order = sorted(range(len(groups)), key=lambda i: (-len(groups[i]), i))
    merged: list[list[T]] = [[x] for x in groups[order[0]]]
    for gi in order[1:]:
        seq = groups[gi]
        pairs = pair_up([c[0] for c in merged], seq, key, similar)
        if parts and not pairs and gi < order[0]:
            merged = [[x] for x in seq] + merged
            continue
        out: list[list[T]] = []
        mi = sj = 0
        for i, j in pairs:
            out.extend(merged[mi:i])
            out.extend([x] for x in seq[sj:j])
            merged[i].append(seq[j])
            out.append(merged[i])
            mi, sj = i + 1, j + 1
        out.extend(merged[mi:])
        out.extend([x] for x in seq[sj:])
        merged = out
    return merged


def _similar_text(a: str, b: str) -> bool:
    if not a or not b:
        return False
    if min(len(a), len(b)) < 0.8 * max(len(a), len(b)):
        return False
    return SequenceMatcher(None, a, b, autojunk=False).ratio() >= FUZZY


# -- readings ---------------------------------------------------------------------------------


def _reading(doc: Document, u: TextUnit | Note) -> Reading:
    if isinstance(u, TextUnit):
        return Reading(doc, u.kind, u.text, list(u.pieces), u)
    return Reading(doc, u.kind, u.text, list(u.pieces), u, partial=not u.opened)


def _units(items: list[list[tuple[Document, TextUnit | Note]]]) -> list[Unit]:
    """Merge per-witness lists of units (each list from one document)."""
    clusters = merge(
        items,
        key=lambda x: skeleton(x[1].text),
        similar=lambda x, y: _similar_text(skeleton(x[1].text), skeleton(y[1].text)),
    )
    out = []
    for cl in clusters:
        unit = Unit(cl[0][1].kind, [_reading(d, u) for d, u in cl])
        textual = [(d, u) for d, u in cl if isinstance(u, TextUnit)]
        if textual:
            unit.commentary = _units([[(d, n) for n in u.commentary] for d, u in textual])
            unit.notes = _units([[(d, n) for n in u.notes] for d, u in textual])
        out.append(unit)
    return out


# -- the book ---------------------------------------------------------------------------------


def align(docs: Sequence[Document], catalog: Catalog, abstract: bool = True) -> Corpus:
    """The book as the documents give it; ``abstract=False`` leaves the abstract to
    ``align_abstract`` (a build of several parts aligns it once, from every part)."""
    docs = sorted(docs, key=_doc_order)
    juans = _juans(docs, catalog)
    return Corpus(
        documents=list(docs), juans=juans, abstract=align_abstract(docs) if abstract else None
    )


def align_abstract(docs: Sequence[Document]) -> Unit | None:
    """The catalogue abstract (提要) as one unit with a reading from each file that has it."""
    abstracts = [[(d, d.abstract)] for d in sorted(docs, key=_doc_order) if d.abstract is not None]
    return _units(abstracts)[0] if abstracts else None


def _doc_order(d: Document) -> tuple[str, str]:
    return d.path.name, str(d.path)


def _chapter_key(c: Chapter) -> object:
    """A rite's chapter, or one half of it (出军礼上 and 出军礼下 are one rite, two chapters)."""
    return (c.rite, c.part) if c.part else c.rite


def _juans(docs: Sequence[Document], catalog: Catalog) -> list[AlignedJuan]:
    """Chapters merge by rite; a chapter's juan is the number any witness gives it."""
    chapters: dict[object, list[tuple[Document, Chapter]]] = {}
    home: dict[object, object] = {}  # chapter key -> juan key
    juan_of: dict[int, Juan] = {}
    rank: dict[object, float] = {}  # a chapter's place in its juan
    for d in docs:
        for ji, j in enumerate(d.juans):
            before = 0.0  # a minted rite stands after the known chapter printed before it
            for ci, c in enumerate(j.chapters):
                ckey: object = _chapter_key(c) if c.rite else (d.path.name, ji, ci)
                known = catalog.rites.get(c.rite) if c.rite else None
                before = float(known.order) if known else before
                rank.setdefault(ckey, before if known else before + 0.5)
                chapters.setdefault(ckey, []).append((d, c))
                juan_of[id(c)] = j
                if j.number is not None:
                    home.setdefault(ckey, j.number)
    juans: dict[object, AlignedJuan] = {}

    def juan_for(key: object, number: int | None) -> AlignedJuan:
        if key not in juans:
            juans[key] = AlignedJuan(number=number, readings=[])
        return juans[key]

    key_of: dict[int, object] = {}  # id(Juan) -> the key its readings went to
    for d in docs:  # every juan a document has, numbered or not, with its readings
        for ji, j in enumerate(d.juans):
            number = j.number
            if number is None:
                number = next(
                    (home[k] for c in j.chapters if (k := _chapter_key(c)) in home),
                    None,  # type: ignore[index]
                )
            key: object = number if number is not None else (d.path.name, ji)
            key_of[id(j)] = key
            juan_for(key, number).readings.append((d, j))
    for ckey, readings in chapters.items():
        number = home.get(ckey)
        if number is None:  # where its first reading's juan went (which may have a number)
            key = key_of[id(juan_of[id(readings[0][1])])]
            number = juans[key].number
        else:
            key = number
        juan_for(key, number).chapters.append(_chapter(readings))
        juan_for(key, number).chapters[-1].rank = rank[ckey]
    for mj in juans.values():
        mj.prefaces = _prefaces([[(d, p) for p in j.prefaces] for d, j in mj.readings])
        mj.chapters.sort(key=lambda c: c.rank)
    kept = [j for j in juans.values() if j.chapters or j.prefaces or j.number is not None]
    return sorted(kept, key=lambda j: (j.number is None, j.number or 0, j.readings[0][0].path.name))


def _prefaces(groups: list[list[tuple[Document, Preface]]]) -> list[Unit]:
    """Prefaces merged by title, each preface's blocks merged into one unit per block."""
    clusters = merge(
        groups,
        key=lambda x: normalize(x[1].title or ""),
        similar=lambda x, y: False,
    )
    out = []
    for cl in clusters:
        blocks = _units([[(d, n) for n in p.blocks] for d, p in cl])
        for i, b in enumerate(blocks):
            b.kind = Seg.PREFACE_TITLE  # marks the unit as a preface block
            b.title = cl[0][1].title if i == 0 else None
        if not blocks and cl[0][1].title:
            # a titled preface with no block: keep the title as a unit of its own
            d, p = cl[0]
            assert p.title_span is not None
            blocks = [Unit(Seg.PREFACE_TITLE, [Reading(d, Seg.PREFACE_TITLE, "", [p.title_span])])]
            blocks[0].title = p.title
        out.extend(blocks)
    return out


def _chapter(readings: list[tuple[Document, Chapter]]) -> AlignedChapter:
    mc = AlignedChapter(rite=readings[0][1].rite, readings=readings)
    mc.prefaces = _prefaces([[(d, c.preface)] for d, c in readings if c.preface])
    clusters = merge(
        [[(d, s) for s in c.sections if not s.empty] for d, c in readings],
        key=_section_key,
        similar=_same_section,
        parts=True,
    )
    for cl in clusters:
        title = next((s.title for _, s in cl if s.title), None)
        ms = AlignedSection(title=title, readings=[(d, s) for d, s in cl])
        ms.passages = _units([[(d, p) for p in s.passages] for d, s in cl])
        ms.records = _units([[(d, r) for r in s.records] for d, s in cl])
        ms.notes = _units([[(d, n) for n in s.notes] for d, s in cl])
        mc.sections.append(ms)
    _records_read_as_passages(mc)
    _place_orphans(mc, readings)
    return mc


def _records_read_as_passages(mc: AlignedChapter) -> None:
    """A Record (记 after 右X) that another witness reads as a Passage is one unit, a Record.

    A layout that hides where a heading's Records end runs them on as 经文 of the next
    section (seed 001 does so with the 再加 and 三加 祝辞 of 士冠礼), while a Record is only
    ever read after its heading: the Record keeps its place and takes the passage's
    readings and commentary.
    """
    records = [u for ms in mc.sections for u in ms.records]
    if not records:
        return
    for ms in mc.sections:
        kept = []
        for p in ms.passages:
            docs = {id(r.doc) for r in p.readings}
            rec = next(
                (
                    r
                    for r in records
                    if not docs & {id(x.doc) for x in r.readings}
                    and (
                        r.canonical.skeleton == p.canonical.skeleton
                        or _similar_text(r.canonical.skeleton, p.canonical.skeleton)
                    )
                ),
                None,
            )
            if rec is None:
                kept.append(p)
            else:
                _combine([rec, p])
        ms.passages = kept


def _combine(units: list[Unit]) -> Unit:
    """Fold the readings of ``units`` (one unit read by different witnesses) into the first."""
    first = units[0]
    for u in units[1:]:
        first.readings.extend(u.readings)
    for attr in ("commentary", "notes"):
        clusters = merge(
            [getattr(u, attr) for u in units],
            key=lambda b: b.canonical.skeleton,
            similar=lambda a, b: _similar_text(a.canonical.skeleton, b.canonical.skeleton),
        )
        setattr(first, attr, [_combine(cl) for cl in clusters])
    for cached in ("canonical", "key", "full_key"):
        first.__dict__.pop(cached, None)
    return first


def _section_key(x: tuple[Document, Section]) -> str:
    d, s = x
    return normalize(s.title) if s.title else f"\0{d.path.name}:{id(s)}"


def _same_section(x: tuple[Document, Section], y: tuple[Document, Section]) -> bool:
    """An untitled (cut-off) section is the titled one whose passages it shares."""
    (_, a), (_, b) = x, y
    if a.title and b.title:
        return False
    sa = {skeleton(p.text) for p in a.passages}
    sb = {skeleton(p.text) for p in b.passages}
    return bool(sa & sb)


def _place_orphans(mc: AlignedChapter, readings: list[tuple[Document, Chapter]]) -> None:
    """A commentary tail cut off by the file's start joins the block it ends, if one witness
    has that block whole; otherwise it stays an orphan of its section."""
    for d, c in readings:
        for s in c.sections:
            for note in s.orphans:
                tail = skeleton(note.text)
                unit = _block_ending_with(mc, tail) if len(tail) >= 6 else None
                reading = _reading(d, note)
                if unit is not None:
                    unit.readings.append(reading)
                    for cached in ("canonical", "key", "full_key"):
                        unit.__dict__.pop(cached, None)
                    continue
                ms = next((m for m in mc.sections if any(sec is s for _, sec in m.readings)), None)
                if ms is not None:
                    ms.orphans.append(Unit(Seg.COMMENTARY, [reading]))


def _block_ending_with(mc: AlignedChapter, tail: str) -> Unit | None:
    for ms in mc.sections:
        for u in (*ms.passages, *ms.records):
            for block in u.commentary:
                full = block.canonical.skeleton
                if len(full) >= len(tail) and (
                    full.endswith(tail) or _similar_text(full[-len(tail) :], tail)
                ):
                    return block
    return None
