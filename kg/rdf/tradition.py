"""A work of the commentary tradition (kg.text.tradition.WorkDocument) → quads. Pure.

Each work is its own ``lj:Work`` under its own slug (``ljd:yilizhushu``), with juans,
chapters, sections, passages (``lj:Passage``, ``lj:Record`` for 记) and commentary blocks
(``lj:Commentary`` with ``lj:blockKind``) in the ``text`` graph, as the book's are, and each
block's voice as one ``lj:Opinion`` in the ``commentary`` graph — so the book's queries
(``?o lj:commentator person:zhengxuan ; lj:inUnit ?b . ?b lj:commentsOn ?p``) find the
sources' opinions too, and ``dcterms:isPartOf+`` tells which work a unit is in. Evidence as
the book's units have it: ``lj:text`` / ``lj:normalizedText`` and an ``lj:Witness`` in the
file (``lj:charStart`` … ``lj:charEnd`` around the pieces the text was read from, line,
pages). Nothing here merges with the book or with another work; a juan two files of one work
both hold is emitted from the first and reported for the second.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from pathlib import Path

from rdflib import RDF, RDFS, URIRef
from rdflib.namespace import DCTERMS, SKOS

from kg.rdf.emit import noise_spans, short, source_file
from kg.rdf.iris import Minter
from kg.rdf.namespaces import DATA, LJ, PERSON, PROV
from kg.rdf.terms import Lit, Quad, en, integer, zh
from kg.text.catalog import Catalog
from kg.text.document import FileIssue, Issue
from kg.text.normalize import normalize
from kg.text.slugs import slugify
from kg.text.tradition import (
    Block,
    Pieced,
    TChapter,
    TJuan,
    TPassage,
    TSection,
    WorkDocument,
    WorkInfo,
)
from kg.text.vocab import load_concepts

QUOTING = {"quote"}  # block kinds whose voice is quoted by the work's author (注曰, 疏曰)
_TITLE_CHARS = 10  # characters of a long section title (注疏's 自此至…) used in its IRI


def unit_key(text: str) -> str:
    """A passage's IRI key: the hash of its incipit and explicit, normalized (as the book's)."""
    sk = "".join(c for c in normalize(text) if c.isalnum())
    return _hash(sk if len(sk) <= 12 else f"{sk[:6]}…{sk[-6:]}")


def _hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def passage_keys(chapter: TChapter) -> dict[int, str]:
    """Keys of a chapter's passages by id(): the short key, the whole text's where two share
    it, and a counter where even that repeats (a 经文 printed twice)."""
    passages = chapter.passages()
    short_keys = [unit_key(p.text) for p in passages]
    keys: dict[int, str] = {}
    used: dict[str, int] = {}
    for p, k in zip(passages, short_keys, strict=True):
        key = k if short_keys.count(k) == 1 else _hash(normalize(p.text))
        used[key] = used.get(key, 0) + 1
        keys[id(p)] = key if used[key] == 1 else f"{key}-{used[key]}"
    return keys


def section_title(sec: TSection) -> str | None:
    """The name of a section, as the book's: X of a printed 右X (the heading keeps 右)."""
    title = sec.title
    if title and title.startswith("右") and len(title) > 1:
        return title[1:]
    return title


def pages_of(doc: WorkDocument, pieces: list[tuple[int, int]]) -> list[str]:
    """The printed pages the spans stand on (the ``<pb:…>`` marker before or inside each).

    >>> d = WorkDocument(Path("x"), "abcdef", None, pages=[(0, "1a"), (3, "1b")])  # type: ignore
    >>> pages_of(d, [(1, 2)]), pages_of(d, [(1, 5)]), pages_of(d, [(4, 5)])
    (['1a'], ['1a', '1b'], ['1b'])
    """
    offsets = [o for o, _ in doc.pages]
    out: list[str] = []
    for a, b in pieces:
        after = bisect_right(offsets, a)  # the first marker after the span's start
        for i in range(max(after - 1, 0), bisect_left(offsets, b)):
            if doc.pages[i][1] not in out:
                out.append(doc.pages[i][1])
    return out


class TraditionEmitter:
    """Emits the WorkDocuments of a build, file by file, and remembers the IRI of every
    passage and block (by id(), for the phase that links them to the book: kg.build.link)."""

    def __init__(self, minter: Minter, catalog: Catalog, sources: dict[Path, str]) -> None:
        self.minter, self.catalog, self.sources = minter, catalog, sources
        self.text_graph = minter.graph("text")
        self.graph = minter.graph("commentary")
        self.people = set(load_concepts("commentators.ttl"))  # slugs the vocabulary has
        self.cited = load_concepts("works.ttl")
        self.works: dict[str, URIRef] = {}  # slug → work IRI, emitted once each
        self.juans: dict[URIRef, Path] = {}  # juan IRI → the file it was emitted from
        self.chapters: dict[URIRef, int] = {}  # chapter IRIs used, for a rite met twice
        self.iris: dict[int, URIRef] = {}  # id(TPassage | Block) → IRI
        self.stats: dict[str, dict[str, int]] = {}  # per work title: what was emitted
        self.issues: list[FileIssue] = []
        self.doc: WorkDocument | None = None

    def count(self, what: str, n: int = 1) -> None:
        assert self.doc is not None
        counts = self.stats.setdefault(self.doc.work.title, {})
        counts[what] = counts.get(what, 0) + n

    def take_issues(self) -> list[FileIssue]:
        taken, self.issues = self.issues, []
        return taken

    def iri_of(self, unit: TPassage | Block) -> URIRef | None:
        """The IRI a passage or block was emitted under (None if it was not)."""
        return self.iris.get(id(unit))

    def report(self, line: int, start: int, end: int, message: str) -> None:
        assert self.doc is not None
        issue = Issue("structure", line, start, end, message)
        self.issues.append(FileIssue(self.doc.path, issue))

    # -- a file ---------------------------------------------------------------------------------

    def document(self, doc: WorkDocument) -> Iterator[Quad]:
        self.doc = doc
        work = self.minter.work_of(doc.work.slug)
        if doc.work.slug not in self.works:
            self.works[doc.work.slug] = work
            yield from self.work(doc.work, work)
            for i, block in enumerate(doc.abstract, 1):
                node = self.minter.iri(f"{doc.work.slug}/tiyao" + (f"-{i}" if i > 1 else ""))
                yield from self.abstract(block, node, work, i)
        yield from self.source(doc)
        for n, juan in enumerate(doc.juans, 1):
            yield from self.juan(juan, work, n)

    def work(self, info: WorkInfo, work: URIRef) -> Iterator[Quad]:
        graph = self.text_graph
        yield work, RDF.type, LJ.Work, graph
        yield work, RDFS.label, zh(normalize(info.title)), graph
        yield work, DCTERMS.title, zh(info.title), graph
        yield work, LJ.slug, Lit(info.slug), graph
        yield work, LJ.textId, Lit(info.text_id), graph
        if info.edition:
            yield work, LJ.baseEdition, Lit(info.edition), graph
        for slug in info.authors:
            yield from self.person(slug)
            yield work, DCTERMS.creator, self.minter.vocab(PERSON[slug]), graph
        title = normalize(info.title)
        for c in self.cited.values():
            if title in c.forms or c.slug == info.slug:
                yield work, LJ.citedAs, self.minter.vocab(str(c.iri)), graph
        if not info.known:
            note = f"A Kanripo work ({info.text_id}) the registry of works lacks; read as generic."
            yield work, SKOS.editorialNote, en(note), graph
        self.count("works")

    def person(self, slug: str) -> Iterator[Quad]:
        """A voice the commentator vocabulary lacks (a generic work's author): minted once."""
        if slug in self.people:
            return
        self.people.add(slug)
        graph = self.graph
        person = self.minter.vocab(PERSON[slug])
        yield person, RDF.type, LJ.Commentator, graph
        yield person, RDF.type, SKOS.Concept, graph
        yield person, SKOS.inScheme, self.minter.vocab(DATA["scheme/commentators"]), graph
        yield person, SKOS.prefLabel, zh(slug), graph
        yield person, RDFS.label, zh(slug), graph
        note = "A voice of a work of the tradition; not in ontology/commentators.ttl."
        yield person, SKOS.editorialNote, en(note), graph

    def source(self, doc: WorkDocument) -> Iterator[Quad]:
        graph = self.text_graph
        src = self.minter.source(self.sources[doc.path])
        yield from source_file(src, doc.path, doc.text, f"tradition-{doc.work.layout}", graph)
        yield src, LJ.textId, Lit(doc.work.text_id), graph
        if doc.work.edition:
            yield src, LJ.baseEdition, Lit(doc.work.edition), graph
        yield src, DCTERMS.isPartOf, self.works[doc.work.slug], graph
        yield from noise_spans(self.minter, src, doc, graph, lambda _: "noise")

    # -- evidence -------------------------------------------------------------------------------

    def witness(
        self, node: URIRef, unit: Pieced | None, span: tuple[int, int] | None = None
    ) -> Iterator[Quad]:
        """The unit's reading in its file: the stretch its pieces span (``span`` for a title)."""
        doc = self.doc
        assert doc is not None
        pieces = unit.pieces if unit is not None else [span] if span else []
        if not pieces:
            return
        graph = self.text_graph
        start, end = pieces[0][0], pieces[-1][1]
        sid = self.sources[doc.path]
        w = self.minter.child(node, f"w/{sid}")
        text = unit.text if unit is not None else doc.text[start:end]
        yield node, LJ.witness, w, graph
        yield w, RDF.type, LJ.Witness, graph
        yield w, LJ.sourceFile, self.minter.source(sid), graph
        yield w, LJ.charStart, integer(start), graph
        yield w, LJ.charEnd, integer(end), graph
        yield w, LJ.line, integer(doc.line_of(start)), graph
        if text:
            yield w, LJ.text, zh(text), graph
            yield w, LJ.normalizedText, zh(normalize(text)), graph
        if doc.work.edition:
            yield w, LJ.baseEdition, Lit(doc.work.edition), graph
        for page in pages_of(doc, pieces):
            yield w, LJ.page, Lit(page), graph
            yield node, LJ.page, Lit(page), graph
        self.count("witnesses")

    def texts(self, node: URIRef, text: str) -> Iterator[Quad]:
        graph = self.text_graph
        yield node, LJ.text, zh(text), graph
        yield node, LJ.normalizedText, zh(normalize(text)), graph
        yield node, RDFS.label, zh(short(text)), graph

    # -- structure ------------------------------------------------------------------------------

    def juan(self, juan: TJuan, work: URIRef, n: int) -> Iterator[Quad]:
        doc = self.doc
        assert doc is not None
        node = self.juan_node(juan, work, n)
        if node is None:
            return
        graph = self.text_graph
        yield node, RDF.type, LJ.Juan, graph
        yield node, DCTERMS.isPartOf, work, graph
        yield node, LJ.order, integer(juan.number if juan.number else 900 + n), graph
        yield node, LJ.placement, Lit("marker" if juan.open_span else "header"), graph
        label = f"卷{juan.number}" if juan.number is not None else ""
        label = normalize(doc.work.title) + normalize(juan.label or label)  # as printed: 卷五上
        yield node, RDFS.label, zh(label), graph
        if juan.number is not None:
            yield node, RDFS.label, en(f"Juan {juan.number}"), graph
        yield from self.witness(node, None, juan.open_span)
        self.count("juan")
        for i, ch in enumerate(juan.chapters, 1):
            yield from self.chapter(ch, work, node, i)
        for i, block in enumerate(juan.kaozheng, 1):
            yield from self.block(block, self.minter.child(node, f"c{i}"), node, node, i)

    def juan_node(self, juan: TJuan, work: URIRef, n: int) -> URIRef | None:
        """The juan's IRI: ``juan/5``, ``juan/5-2`` for the second juan 5 of a file (卷五下),
        None (reported) for a juan another file of the work held already."""
        doc = self.doc
        assert doc is not None
        node = self.minter.work_juan(work, juan.number, f"{self.sources[doc.path]}-{n}")
        first = self.juans.get(node)
        if first is not None and first != doc.path:  # two files hold it: the first is kept
            start = juan.open_span[0] if juan.open_span else 0
            message = f"juan {juan.number} of {doc.work.title} was read from "
            message += f"{first.name} already; this file's copy is left out"
            self.report(doc.line_of(start), start, start, message)
            return None
        base, k = node, 1
        while node in self.juans:
            k += 1
            node = URIRef(f"{base}-{k}")
        self.juans[node] = doc.path
        return node

    def chapter(self, ch: TChapter, work: URIRef, juan: URIRef, order: int) -> Iterator[Quad]:
        doc = self.doc
        assert doc is not None
        graph = self.text_graph
        rite = self.catalog.rites.get(ch.rite) if ch.rite else None
        slug = ch.rite or f"unknown-{self.sources[doc.path]}-{order}"
        node = self.minter.work_chapter(work, slug)
        self.chapters[node] = self.chapters.get(node, 0) + 1
        if self.chapters[node] > 1:  # one chapter cut across two juans
            node = URIRef(f"{node}-{self.chapters[node]}")
        yield node, RDF.type, LJ.Chapter, graph
        yield node, DCTERMS.isPartOf, juan, graph
        yield node, LJ.order, integer(order), graph
        title = ch.title or (rite.label if rite else None)
        if ch.title:
            yield node, LJ.title, zh(ch.title), graph
        name = normalize(title) if title else "（未题）"
        yield node, RDFS.label, zh(f"{normalize(doc.work.title)}·{name}"), graph
        if rite is not None:
            yield node, LJ.describesRite, self.minter.vocab(str(rite.iri)), graph
        yield node, LJ.placement, Lit("title" if ch.title_span else "recognized"), graph
        yield from self.witness(node, None, ch.title_span)
        self.count("chapters")
        for i, block in enumerate(ch.preface, 1):
            yield from self.block(block, self.minter.child(node, f"c{i}"), node, node, i, True)
        keys = passage_keys(ch)
        seen: dict[str, int] = {}
        for i, sec in enumerate(ch.sections, 1):
            title_key = normalize(section_title(sec) or "")[:_TITLE_CHARS]
            slug = slugify(title_key) if title_key else ""  # 复 and 赴 are both fu: count slugs
            seen[slug] = seen.get(slug, 0) + 1
            first = keys[id(sec.passages[0])] if sec.passages else str(i)
            snode = self.minter.section(node, title_key or None, seen[slug], key=first)
            yield from self.section(sec, snode, node, i, name, keys)

    def section(
        self,
        sec: TSection,
        node: URIRef,
        chapter: URIRef,
        order: int,
        chapter_name: str,
        keys: dict[int, str],
    ) -> Iterator[Quad]:
        """A section; its title (集说's 右X, or the stretch a 疏 names) is an ``lj:title``
        where the file shows it (``heading``: the evidence), else only in the label."""
        graph = self.text_graph
        yield node, RDF.type, LJ.Section, graph
        yield node, DCTERMS.isPartOf, chapter, graph
        yield node, LJ.order, integer(order), graph
        title = section_title(sec)
        label = normalize(title) if title else "（未题）"
        assert self.doc is not None
        work = normalize(self.doc.work.title)
        yield node, RDFS.label, zh(f"{work}·{chapter_name}·{label}"), graph
        if title and sec.heading is not None:
            yield node, LJ.title, zh(title), graph
        if sec.covers:
            yield node, RDFS.comment, zh(sec.covers), graph
        yield from self.witness(node, None, sec.heading)
        self.count("sections")
        for i, p in enumerate(sec.passages, 1):
            kind = "r" if p.record else "p"
            yield from self.passage(p, self.minter.unit(chapter, kind, keys[id(p)]), node, i)

    def passage(self, p: TPassage, node: URIRef, section: URIRef, order: int) -> Iterator[Quad]:
        graph = self.text_graph
        self.iris[id(p)] = node
        yield node, RDF.type, LJ.Record if p.record else LJ.Passage, graph
        yield node, DCTERMS.isPartOf, section, graph
        yield node, LJ.order, integer(order), graph
        if p.text:
            yield from self.texts(node, p.text)
        yield from self.witness(node, p)
        self.count("records" if p.record else "passages")
        for i, block in enumerate(p.blocks, 1):
            target = node
            on = block.comments_on
            if on is not None and 0 <= on < i - 1 and p.blocks[on].text:
                target = self.minter.child(node, f"c{on + 1}")  # 注释曰 on the 注 it explains
            yield from self.block(block, self.minter.child(node, f"c{i}"), node, target, i)

    # -- commentary -----------------------------------------------------------------------------

    def abstract(self, block: Block, node: URIRef, work: URIRef, order: int) -> Iterator[Quad]:
        if not block.text:
            return
        graph = self.text_graph
        yield node, RDF.type, LJ.Abstract, graph
        yield node, DCTERMS.isPartOf, work, graph
        yield node, LJ.order, integer(order), graph
        yield from self.texts(node, block.text)
        yield from self.witness(node, block)
        self.count("abstracts")

    def block(
        self,
        block: Block,
        node: URIRef,
        parent: URIRef,
        target: URIRef,
        order: int,
        preface: bool = False,
    ) -> Iterator[Quad]:
        """One voice's block (``lj:Commentary``, a ``lj:Preface`` before the first 经文) and
        its opinion; a block with no text (a bare label) has nothing to say and is left out."""
        if not block.text:
            return
        graph = self.text_graph
        self.iris[id(block)] = node
        yield node, RDF.type, LJ.Commentary, graph
        if preface:
            yield node, RDF.type, LJ.Preface, graph
        yield node, DCTERMS.isPartOf, parent, graph
        yield node, LJ.order, integer(order), graph
        yield node, LJ.commentsOn, target, graph
        yield node, LJ.blockKind, Lit(block.kind), graph
        yield from self.texts(node, block.text)
        yield from self.witness(node, block)
        self.count("blocks")
        yield from self.opinion(block, node)

    def opinion(self, block: Block, unit: URIRef) -> Iterator[Quad]:
        graph = self.graph
        node = self.minter.child(unit, "o1")
        person = self.minter.vocab(PERSON[block.voice])
        yield from self.person(block.voice)
        yield unit, LJ.hasOpinion, node, graph
        yield node, RDF.type, LJ.Opinion, graph
        yield node, LJ.order, integer(1), graph
        yield node, LJ.commentator, person, graph
        yield node, PROV.wasAttributedTo, person, graph
        quoted = block.kind in QUOTING
        yield node, LJ.voice, Lit("quote" if quoted else "author"), graph
        if quoted:
            yield node, LJ.quotes, person, graph
        if block.label:
            yield node, LJ.attribution, zh(block.label), graph
        yield node, LJ.inUnit, unit, graph
        yield node, LJ.charStart, integer(0), graph
        yield node, LJ.charEnd, integer(len(block.text)), graph
        yield node, LJ.text, zh(block.text), graph
        label = normalize(block.text)
        yield node, RDFS.label, zh(label if len(label) <= 12 else label[:12] + "…"), graph
        self.count("opinions")
