"""The aligned book → quads, one named graph per layer. Pure: no store, no I/O.

Terms are plain tuples (IRIs as rdflib ``URIRef``, literals as ``Lit``) so that millions of
them cost little; ``kg.store`` turns them into Oxigraph terms, tests into rdflib ones.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import NamedTuple

from rdflib import RDF, RDFS, URIRef
from rdflib.namespace import DCTERMS, XSD

from kg.align import Corpus, MChapter, MJuan, MSection, Reading, Unit
from kg.catalog import Catalog
from kg.model import Document, Seg
from kg.nlp.voices import split_voices
from kg.normalize import normalize
from kg.rdf.iris import Minter, source_id
from kg.rdf.namespaces import LJ, PROV

LZH = "lzh"
PERSON = "https://w3id.org/lijing/id/person/"


class Lit(NamedTuple):
    value: str
    lang: str | None = None
    datatype: str | None = None


Term = URIRef | Lit
Quad = tuple[URIRef, URIRef, Term, URIRef]

_CLASS = {
    Seg.PASSAGE: LJ.Passage,
    Seg.RECORD: LJ.Record,
    Seg.COMMENTARY: LJ.Commentary,
    Seg.TEXTUAL_NOTE: LJ.TextualNote,
    Seg.SOURCE_NOTE: LJ.SourceNote,
    Seg.PREFACE_TITLE: LJ.Preface,
}


def zh(text: str) -> Lit:
    return Lit(text, LZH)


def en(text: str) -> Lit:
    return Lit(text, "en")


def integer(n: int) -> Lit:
    return Lit(str(n), None, str(XSD.integer))


def boolean(b: bool) -> Lit:
    return Lit("true" if b else "false", None, str(XSD.boolean))


def short(text: str, n: int = 16) -> str:
    text = normalize(text)
    return text if len(text) <= n else text[:n] + "…"


class Emitter:
    """Walks the aligned book once and yields its quads."""

    def __init__(self, corpus: Corpus, catalog: Catalog, minter: Minter) -> None:
        self.corpus = corpus
        self.catalog = catalog
        self.m = minter
        self.g_text = minter.graph("text")
        self.g_comm = minter.graph("commentary")
        self.sources = self._source_ids(corpus.documents)
        self.stats: dict[str, int] = {}

    @staticmethod
    def _source_ids(docs: list[Document]) -> dict[int, str]:
        ids: dict[int, str] = {}
        seen: set[str] = set()
        for d in docs:
            sid = source_id(d.path.name)
            if sid in seen:  # same stem in two folders: tell them apart by path
                sid += "-" + hashlib.sha1(str(d.path).encode()).hexdigest()[:6]
            seen.add(sid)
            ids[id(d)] = sid
        return ids

    def count(self, what: str, n: int = 1) -> None:
        self.stats[what] = self.stats.get(what, 0) + n

    def quads(self) -> Iterator[Quad]:
        g = self.g_text
        work = self.m.work()
        yield work, RDF.type, LJ.Work, g
        yield work, RDFS.label, zh("礼经本义"), g
        yield work, RDFS.label, en("Lijing benyi (The Original Meaning of the Classic of Rites)"), g
        yield work, DCTERMS.title, zh("礼经本义"), g
        yield work, DCTERMS.creator, self.m.vocab(PERSON + "caidejin"), g
        for doc in self.corpus.documents:
            yield from self.source(doc)
        if self.corpus.abstract is not None:
            yield from self.unit(self.corpus.abstract, self.m.abstract(), work, 0, LJ.Abstract)
        for n, juan in enumerate(self.corpus.juans, 1):
            yield from self.juan(juan, work, n)

    # -- sources and witnesses ------------------------------------------------------------------

    def source(self, doc: Document) -> Iterator[Quad]:
        g = self.g_text
        src = self.m.source(self.sources[id(doc)])
        yield src, RDF.type, LJ.SourceDocument, g
        yield src, RDFS.label, Lit(doc.path.name), g
        yield src, DCTERMS.identifier, Lit(str(doc.path)), g
        yield src, DCTERMS.format, Lit("text/plain"), g
        yield src, LJ.layout, Lit(doc.layout), g
        digest = hashlib.sha256(doc.text.encode("utf-8")).hexdigest()
        yield src, LJ.sha256, Lit(digest), g
        meta = {
            "name": DCTERMS.title,
            "author": DCTERMS.creator,
            "date": DCTERMS.date,
            "dec": DCTERMS.description,
            "copyright": DCTERMS.rights,
            "type": DCTERMS.subject,
        }
        for key, value in doc.metadata.items():
            if key in meta and value:
                yield src, meta[key], zh(value), g
        n = 0
        for seg in doc.segments:
            if seg.kind is Seg.NOISE:
                n += 1
                node = self.m.child(src, f"noise/{n}")
                yield node, RDF.type, LJ.NoiseSpan, g
                yield node, LJ.sourceFile, src, g
                yield node, LJ.charStart, integer(seg.start), g
                yield node, LJ.charEnd, integer(seg.end), g
                yield node, LJ.line, integer(doc.line_of(seg.start)), g
                yield node, LJ.text, Lit(doc.text[seg.start : seg.end]), g
                yield node, LJ.noiseKind, Lit(_noise_kind(doc.text[seg.start : seg.end])), g
                self.count("noise spans")

    def witness(self, node: URIRef, r: Reading) -> Iterator[Quad]:
        g = self.g_text
        sid = self.sources[id(r.doc)]
        w = self.m.child(node, f"w/{sid}")
        yield node, LJ.witness, w, g
        yield w, RDF.type, LJ.Witness, g
        yield w, LJ.sourceFile, self.m.source(sid), g
        yield w, LJ.charStart, integer(r.start), g
        yield w, LJ.charEnd, integer(r.end), g
        yield w, LJ.line, integer(r.doc.line_of(r.start)), g
        if r.text:
            yield w, LJ.text, zh(r.text), g
            yield w, LJ.normalizedText, zh(normalize(r.text)), g
        if r.partial:
            yield w, LJ.partial, boolean(True), g
        self.count("witnesses")

    def spans(self, node: URIRef, doc: Document, span: tuple[int, int] | None) -> Iterator[Quad]:
        if span is not None:
            yield from self.witness(
                node, Reading(doc, Seg.FURNITURE, doc.text[span[0] : span[1]], [span])
            )

    # -- the book's structure -------------------------------------------------------------------

    def juan(self, juan: MJuan, work: URIRef, n: int) -> Iterator[Quad]:
        g = self.g_text
        fallback = self.sources[id(juan.readings[0][0])]
        node = self.m.juan(juan.number, fallback)
        yield node, RDF.type, LJ.Juan, g
        yield node, DCTERMS.isPartOf, work, g
        yield node, LJ.order, integer(juan.number if juan.number is not None else 900 + n), g
        if juan.number is not None:
            yield node, RDFS.label, zh(f"礼经本义卷{_cn(juan.number)}"), g
            yield node, RDFS.label, en(f"Juan {juan.number}"), g
        placements = {j.placement for _, j in juan.readings}
        yield node, LJ.placement, Lit(_best_placement(placements)), g
        for doc, j in juan.readings:
            yield from self.spans(node, doc, j.open_span)
        self.count("juan")
        for i, pre in enumerate(juan.prefaces, 1):
            pnode = self.m.child(node, "preface" + (f"-{i}" if i > 1 else ""))
            yield from self.unit(pre, pnode, node, i, LJ.Preface, comments_on=work)
        for i, ch in enumerate(juan.chapters, 1):
            yield from self.chapter(ch, node, i, fallback)

    def chapter(self, ch: MChapter, juan: URIRef, order: int, fallback: str) -> Iterator[Quad]:
        g = self.g_text
        rite = self.catalog.rites.get(ch.rite) if ch.rite else None
        node = self.m.chapter(rite.slug if rite else f"unknown-{fallback}-{order}")
        title = ch.title or (rite.label if rite else None)
        yield node, RDF.type, LJ.Chapter, g
        yield node, DCTERMS.isPartOf, juan, g
        yield node, LJ.order, integer(order), g
        if title:
            yield node, LJ.title, zh(title), g
            yield node, RDFS.label, zh(normalize(title)), g
        if rite:
            yield node, LJ.describesRite, self.m.vocab(str(rite.iri)), g
        placements = {c.placement for _, c in ch.readings}
        yield node, LJ.placement, Lit(_best_placement(placements)), g
        for doc, c in ch.readings:
            yield from self.spans(node, doc, c.title_span)
        self.count("chapters")
        for i, pre in enumerate(ch.prefaces, 1):
            pnode = self.m.child(node, "preface" + (f"-{i}" if i > 1 else ""))
            yield from self.unit(pre, pnode, node, i, LJ.Preface, comments_on=node)
        seen: dict[str, int] = {}
        keys = _unit_keys(ch)
        for i, sec in enumerate(ch.sections, 1):
            key = sec.norm_title or ""
            seen[key] = seen.get(key, 0) + 1
            yield from self.section(sec, node, i, seen[key], title or "", keys)

    def section(
        self,
        sec: MSection,
        chapter: URIRef,
        order: int,
        nth: int,
        chapter_title: str,
        keys: dict[int, str],
    ) -> Iterator[Quad]:
        g = self.g_text
        first = keys[id(sec.passages[0])] if sec.passages else f"{order}"
        node = self.m.section(chapter, sec.title, nth, key=first)
        yield node, RDF.type, LJ.Section, g
        yield node, DCTERMS.isPartOf, chapter, g
        yield node, LJ.order, integer(order), g
        if sec.title:
            yield node, LJ.title, zh(sec.title), g
            yield node, RDFS.label, zh(f"{normalize(chapter_title)}·{normalize(sec.title)}"), g
        else:
            yield node, RDFS.label, zh(f"{normalize(chapter_title)}·（未题）"), g
        if all(s.starts_mid for _, s in sec.readings):
            yield node, LJ.fragment, boolean(True), g
        for doc, s in sec.readings:
            yield from self.spans(node, doc, s.heading)
        self.count("sections")
        for i, note in enumerate(sec.notes, 1):
            kind = _CLASS.get(note.kind, LJ.Commentary)
            yield from self.unit(note, self.m.child(node, f"c{i}"), node, i, kind, comments_on=node)
        units = [(u, "p") for u in sec.passages] + [(u, "r") for u in sec.records]
        for i, (u, kind) in enumerate(units, 1):
            unode = self.m.unit(chapter, kind, keys[id(u)])
            cls = LJ.Passage if kind == "p" else LJ.Record
            yield from self.unit(u, unode, node, i, cls)
        for i, orphan in enumerate(sec.orphans, 1):
            onode = self.m.child(node, f"fragment-{i}")
            yield from self.unit(orphan, onode, node, i, LJ.Commentary)
            yield onode, LJ.fragment, boolean(True), g

    def unit(
        self,
        u: Unit,
        node: URIRef,
        parent: URIRef,
        order: int,
        cls: URIRef,
        comments_on: URIRef | None = None,
    ) -> Iterator[Quad]:
        g = self.g_text
        canon = u.canonical
        yield node, RDF.type, cls, g
        if cls in (LJ.Preface, LJ.TextualNote, LJ.SourceNote):
            yield node, RDF.type, LJ.Commentary, g
        yield node, DCTERMS.isPartOf, parent, g
        yield node, LJ.order, integer(order), g
        if comments_on is not None:
            yield node, LJ.commentsOn, comments_on, g
        if u.title:
            yield node, LJ.title, zh(u.title), g
        if canon.text:
            yield node, LJ.text, zh(canon.text), g
            yield node, LJ.normalizedText, zh(normalize(canon.text)), g
            yield node, RDFS.label, zh(short(canon.text)), g
        elif u.title:
            yield node, RDFS.label, zh(normalize(u.title)), g
        for b in u.reading_breaks:
            yield node, LJ.readingBreak, integer(b), g
        for r in u.readings:
            yield from self.witness(node, r)
        self.count(_COUNTER.get(cls, "units"))
        for i, note in enumerate(u.notes, 1):
            kind = _CLASS.get(note.kind, LJ.TextualNote)
            yield from self.unit(note, self.m.child(node, f"n{i}"), node, i, kind, comments_on=node)
        for i, block in enumerate(u.commentary, 1):
            yield from self.unit(
                block, self.m.child(node, f"c{i}"), node, i, LJ.Commentary, comments_on=node
            )
        if cls in (LJ.Commentary, LJ.Preface) and canon.text:
            yield from self.opinions(node, canon.text)

    # -- voices ---------------------------------------------------------------------------------

    def opinions(self, block: URIRef, text: str) -> Iterator[Quad]:
        g = self.g_comm
        for i, v in enumerate(split_voices(text), 1):
            node = self.m.child(block, f"o{i}")
            person = self.m.vocab(PERSON + v.speaker)
            yield block, LJ.hasOpinion, node, g
            yield node, RDF.type, LJ.Opinion, g
            yield node, LJ.order, integer(i), g
            yield node, LJ.inUnit, block, g
            yield node, LJ.commentator, person, g
            yield node, PROV.wasAttributedTo, person, g
            yield node, LJ.voice, Lit(v.kind), g
            if v.marker:
                yield node, LJ.attribution, zh(text[v.marker[0] : v.marker[1]]), g
            yield node, LJ.text, zh(text[v.start : v.end]), g
            yield node, LJ.charStart, integer(v.start), g
            yield node, LJ.charEnd, integer(v.end), g
            yield node, RDFS.label, zh(short(text[v.start : v.end], 12)), g
            self.count("opinions")


_COUNTER = {
    LJ.Passage: "passages",
    LJ.Record: "records",
    LJ.Commentary: "commentaries",
    LJ.Preface: "prefaces",
    LJ.TextualNote: "notes",
    LJ.SourceNote: "notes",
    LJ.Abstract: "abstracts",
}


def _unit_keys(ch: MChapter) -> dict[int, str]:
    """IRI keys of a chapter's passages and records: the incipit-explicit hash, or the full
    hash where two units share it, or the full hash and a counter where even that repeats."""
    groups = [(s.passages, "p") for s in ch.sections] + [(s.records, "r") for s in ch.sections]
    short: dict[tuple[str, str], int] = {}
    for units, kind in groups:
        for u in units:
            short[(kind, u.key)] = short.get((kind, u.key), 0) + 1
    keys: dict[int, str] = {}
    used: dict[tuple[str, str], int] = {}
    for units, kind in groups:
        for u in units:
            key = u.key if short[(kind, u.key)] == 1 else u.full_key
            used[(kind, key)] = used.get((kind, key), 0) + 1
            n = used[(kind, key)]
            keys[id(u)] = key if n == 1 else f"{key}-{n}"
    return keys


def _noise_kind(text: str) -> str:
    if "页" in text and "第" in text:
        return "page header"
    if text.startswith("<"):
        return "catalogue tag"
    return "web footer"


def _best_placement(placements: set[str]) -> str:
    for p in ("title", "marker", "close-marker", "manifest", "recognized"):
        if p in placements:
            return p
    return "unknown"


def _cn(n: int) -> str:
    digits = "〇一二三四五六七八九"
    if n < 10:
        return digits[n]
    if n < 20:
        return "十" + (digits[n % 10] if n % 10 else "")
    if n < 100:
        return digits[n // 10] + "十" + (digits[n % 10] if n % 10 else "")
    return str(n)
