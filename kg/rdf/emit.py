"""The aligned book → quads, one named graph per layer. Pure: no store, no I/O.

Terms are plain tuples (IRIs as rdflib ``URIRef``, literals as ``Lit``) so that millions of
them cost little; ``kg.store`` turns them into Oxigraph terms, tests into rdflib ones.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rdflib import RDF, RDFS, URIRef
from rdflib.namespace import DCTERMS, SKOS

from kg.build.phases import Phases
from kg.nlp.acts import Act
from kg.nlp.extract import Mention
from kg.rdf.acts import ActEmitter
from kg.rdf.commentary import CommentaryEmitter
from kg.rdf.iris import Minter, source_id
from kg.rdf.namespaces import CATEGORY, LJ, RITE, RITE_SCHEME
from kg.rdf.terms import LZH, Lit, Quad, Term, boolean, en, integer, zh  # noqa: F401
from kg.text.align import AlignedChapter, AlignedJuan, AlignedSection, Corpus, Reading, Unit
from kg.text.catalog import Catalog
from kg.text.document import Document, FileIssue, Seg
from kg.text.normalize import normalize
from kg.text.slugs import slugify
from kg.text.work import ENGLISH_LABEL, load_work

_CLASS = {
    Seg.PASSAGE: LJ.Passage,
    Seg.RECORD: LJ.Record,
    Seg.COMMENTARY: LJ.Commentary,
    Seg.TEXTUAL_NOTE: LJ.TextualNote,
    Seg.SOURCE_NOTE: LJ.SourceNote,
    Seg.PREFACE_TITLE: LJ.Preface,
}


def short(text: str, n: int = 16) -> str:
    text = normalize(text)
    return text if len(text) <= n else text[:n] + "…"


class Emitter:
    """Walks the aligned book once and yields its quads."""

    def __init__(
        self,
        corpus: Corpus | None,
        catalog: Catalog,
        minter: Minter,
        mentions: dict[int, list[Mention]] | None = None,
        acts: dict[int, list[Act]] | None = None,
        extract: Callable[[object], tuple[dict, dict]] | None = None,
        phases: Phases | None = None,
        sources: dict[Path, str] | None = None,
    ) -> None:
        """``mentions`` and ``acts`` by id(unit) for the whole corpus, or ``extract``
        (kg.build.pool.Extractor) asked for them one juan or chapter at a time.

        ``sources``: the id of every file of the build (``source_ids``), when the corpus is
        one of several parts emitted in turn (``part``) rather than the whole book."""
        self.corpus = corpus
        self.extract = extract
        self.phases = phases or Phases()
        self.catalog = catalog
        self.book = load_work()  # its title and author, from ontology/
        self.minter = minter
        self.text_graph = minter.graph("text")
        self.mentions_graph = minter.graph("mentions")
        self.mentions = mentions or {}  # by id(Unit)
        self.acts = acts or {}  # by id(Unit)
        self.act_emitter = ActEmitter(minter)
        self.commentary = CommentaryEmitter(minter)
        self.rite: URIRef | None = None  # the rite of the chapter being emitted
        self.minted_rites: set[str] = set()  # minted rites declared so far (once for two halves)
        if sources is None:
            assert corpus is not None, "an emitter of parts needs every file's id"
            sources = source_ids([d.path for d in corpus.documents])
        self.sources = sources
        self.juan_count = 0  # juans emitted so far, over all parts
        self.stats: dict[str, int] = {}
        self.texts: dict[URIRef, str] = {}  # unit IRI → its text, for the commentary on it
        self.units: dict[int, URIRef] = {}  # id(Unit) → IRI, in the last part (kg.build.link)

    def count(self, what: str, n: int = 1) -> None:
        self.stats[what] = self.stats.get(what, 0) + n

    def take_issues(self) -> list[FileIssue]:
        """What emission reported since the last call (speakers the vocabulary lacks)."""
        return self.commentary.take_issues()

    def quads(self) -> Iterator[Quad]:
        """The whole book: ``work``, ``part`` of the corpus, its ``abstract``, ``finish``."""
        corpus = self.corpus
        assert corpus is not None, "no corpus: emit it in parts"
        yield from self.work()
        yield from self.part(corpus)
        if corpus.abstract is not None:
            yield from self.abstract(corpus.abstract)
        yield from self.finish()

    def work(self) -> Iterator[Quad]:
        graph = self.text_graph
        work = self.minter.work()
        yield work, RDF.type, LJ.Work, graph
        yield work, RDFS.label, zh(self.book.title), graph
        yield work, RDFS.label, en(ENGLISH_LABEL), graph
        yield work, DCTERMS.title, zh(self.book.title), graph
        yield work, DCTERMS.creator, self.minter.vocab(self.book.author.iri), graph

    def part(self, corpus: Corpus) -> Iterator[Quad]:
        """A corpus's files and juans (without its abstract): the whole book, or one group
        of files that share no chapter or juan with the others (kg.build)."""
        self.units.clear()
        for doc in corpus.documents:
            yield from self.source(doc)
        for juan in corpus.juans:
            self.juan_count += 1
            yield from self.juan(juan, self.minter.work(), self.juan_count)

    def abstract(self, unit: Unit) -> Iterator[Quad]:
        # the abstract is no scope of the extractor: drop the last scope's analyses, which are
        # keyed by id() and would match a new object that reuses a freed unit's id
        self.mentions, self.acts = {}, {}
        yield from self.unit(unit, self.minter.abstract(), self.minter.work(), 0, LJ.Abstract)

    def finish(self) -> Iterator[Quad]:
        """What is known only at the end: the relations derived from all the acts."""
        yield from self.act_emitter.derived_quads()
        for layer in (self.commentary.stats, self.act_emitter.stats):
            for key, n in layer.items():
                self.count(key, n)

    # -- sources and witnesses ------------------------------------------------------------------

    def source(self, doc: Document) -> Iterator[Quad]:
        graph = self.text_graph
        src = self.minter.source(self.sources[doc.path])
        yield from source_file(src, doc.path, doc.text, doc.layout, graph)
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
                yield src, meta[key], zh(value), graph
        yield from self.repository(src, doc)
        for quad in noise_spans(self.minter, src, doc, graph, _noise_kind):
            if quad[2] == LJ.NoiseSpan:
                self.count("noise spans")
            yield quad

    def repository(self, src: URIRef, doc: Document) -> Iterator[Quad]:
        """What a text repository's header says of a file (Kanripo: id, base edition, juan)."""
        graph = self.text_graph
        plain = {"text_id": LJ.textId, "edition": LJ.baseEdition, "file_date": DCTERMS.modified}
        for key, prop in plain.items():
            if doc.metadata.get(key):
                yield src, prop, Lit(doc.metadata[key]), graph
        if doc.metadata.get("juan"):
            yield src, LJ.juanLabel, zh(doc.metadata["juan"]), graph
        if doc.metadata.get("link"):
            yield src, RDFS.seeAlso, URIRef(doc.metadata["link"]), graph

    def witness(self, node: URIRef, r: Reading) -> Iterator[Quad]:
        graph = self.text_graph
        sid = self.sources[r.doc.path]
        w = self.minter.child(node, f"w/{sid}")
        yield node, LJ.witness, w, graph
        yield w, RDF.type, LJ.Witness, graph
        yield w, LJ.sourceFile, self.minter.source(sid), graph
        yield w, LJ.charStart, integer(r.start), graph
        yield w, LJ.charEnd, integer(r.end), graph
        yield w, LJ.line, integer(r.doc.line_of(r.start)), graph
        if r.text:
            yield w, LJ.text, zh(r.text), graph
            yield w, LJ.normalizedText, zh(normalize(r.text)), graph
        if r.partial:
            yield w, LJ.partial, boolean(True), graph
        for page in r.doc.pages_of(r.pieces):  # where the print has it, to cite and check
            yield w, LJ.page, Lit(page), graph
        if r.doc.metadata.get("edition"):
            yield w, LJ.baseEdition, Lit(r.doc.metadata["edition"]), graph
        self.count("witnesses")

    def spans(self, node: URIRef, doc: Document, span: tuple[int, int] | None) -> Iterator[Quad]:
        if span is not None:
            yield from self.witness(
                node, Reading(doc, Seg.FURNITURE, doc.text[span[0] : span[1]], [span])
            )
            for page in doc.pages_of([span]):
                yield node, LJ.page, Lit(page), self.text_graph

    # -- the book's structure -------------------------------------------------------------------

    def juan(self, juan: AlignedJuan, work: URIRef, n: int) -> Iterator[Quad]:
        graph = self.text_graph
        fallback = self.sources[juan.readings[0][0].path]
        node = self.minter.juan(juan.number, fallback)
        yield node, RDF.type, LJ.Juan, graph
        yield node, DCTERMS.isPartOf, work, graph
        yield node, LJ.order, integer(juan.number if juan.number is not None else 900 + n), graph
        if juan.number is not None:
            yield node, RDFS.label, zh(f"{self.book.title}卷{_cn(juan.number)}"), graph
            yield node, RDFS.label, en(f"Juan {juan.number}"), graph
        placements = {j.placement for _, j in juan.readings}
        yield node, LJ.placement, Lit(_best_placement(placements)), graph
        for doc, j in juan.readings:
            yield from self.spans(node, doc, j.open_span)
        self.count("juan")
        self._scope(juan)
        for i, pre in enumerate(juan.prefaces, 1):
            pnode = self.minter.child(node, "preface" + (f"-{i}" if i > 1 else ""))
            yield from self.unit(pre, pnode, node, i, LJ.Preface, comments_on=work)
        for i, ch in enumerate(juan.chapters, 1):
            yield from self.chapter(ch, node, i, fallback)

    def _scope(self, scope: object) -> None:
        """The analyses of the next juan or chapter replace the last one's (bounded memory)."""
        self.texts.clear()  # a block only looks up the text of the unit it comments on
        if self.extract is not None:
            self.mentions, self.acts = self.extract(scope)

    def chapter(
        self, ch: AlignedChapter, juan: URIRef, order: int, fallback: str
    ) -> Iterator[Quad]:
        graph = self.text_graph
        self._scope(ch)
        rite = self.catalog.rites.get(ch.rite) if ch.rite else None
        slug = rite.slug if rite else ch.rite if ch.minted else None
        if slug and ch.part:  # one half of a minted rite's chapter: chujunli-shang
            slug = f"{slug}-{slugify(ch.part)}"
        node = self.minter.chapter(slug or f"unknown-{fallback}-{order}")
        title = ch.title or (rite.label if rite else None)
        yield node, RDF.type, LJ.Chapter, graph
        yield node, DCTERMS.isPartOf, juan, graph
        yield node, LJ.order, integer(order), graph
        if title:
            yield node, LJ.title, zh(title), graph
            yield node, RDFS.label, zh(normalize(title)), graph
        self.rite = self.minter.vocab(str(rite.iri)) if rite else None
        if rite is None and ch.rite and ch.minted:
            self.rite = self.minter.vocab(str(RITE[ch.rite]))
            if ch.rite not in self.minted_rites:  # its other half declared it already
                self.minted_rites.add(ch.rite)
                yield from self.minted_rite(ch, self.rite)
        if self.rite is not None:
            yield node, LJ.describesRite, self.rite, graph
        self.act_emitter.new_chapter()
        placements = {c.placement for _, c in ch.readings}
        yield node, LJ.placement, Lit(_best_placement(placements)), graph
        for doc, c in ch.readings:
            yield from self.spans(node, doc, c.title_span)
        self.count("chapters")
        for i, pre in enumerate(ch.prefaces, 1):
            pnode = self.minter.child(node, "preface" + (f"-{i}" if i > 1 else ""))
            yield from self.unit(pre, pnode, node, i, LJ.Preface, comments_on=node)
        seen: dict[str, int] = {}
        keys = _unit_keys(ch)
        for i, sec in enumerate(ch.sections, 1):
            key = slugify(sec.title) if sec.title else ""  # 复 and 赴 are both fu: count slugs
            seen[key] = seen.get(key, 0) + 1
            yield from self.section(sec, node, i, seen[key], title or "", keys)

    def minted_rite(self, ch: AlignedChapter, rite: URIRef) -> Iterator[Quad]:
        """A rite the vocabulary lacks, named by a chapter title: said to be found, not known."""
        graph = self.text_graph
        name = normalize(ch.minted or "")
        yield rite, RDF.type, LJ.Rite, graph
        yield rite, RDF.type, SKOS.Concept, graph
        yield rite, SKOS.inScheme, self.minter.vocab(str(RITE_SCHEME)), graph
        yield rite, SKOS.prefLabel, zh(name), graph
        yield rite, RDFS.label, zh(name), graph
        yield rite, RDFS.label, en(f"{str(ch.rite).capitalize()} (a rite named in the text)"), graph
        yield rite, LJ.slug, Lit(str(ch.rite)), graph
        self.count("new rites")
        # after the vocabulary's rites, in the order the book prints them
        last = max((r.order for r in self.catalog.rites.values()), default=0)
        yield rite, LJ.order, integer(last + self.stats["new rites"]), graph
        category = self.catalog.category_for(ch.category or "")
        if category is None and ch.category:
            category = self.catalog.category_for(normalize(ch.category) + "礼")
        if category:
            yield rite, LJ.category, self.minter.vocab(str(CATEGORY[category])), graph
        yield rite, LJ.foundInText, boolean(True), graph  # the shapes then let a category lack
        note = "Found as a chapter title in the text; not in ontology/rites.ttl."
        yield rite, SKOS.editorialNote, en(note), graph

    def section(
        self,
        sec: AlignedSection,
        chapter: URIRef,
        order: int,
        nth: int,
        chapter_title: str,
        keys: dict[int, str],
    ) -> Iterator[Quad]:
        graph = self.text_graph
        first = keys[id(sec.passages[0])] if sec.passages else f"{order}"
        node = self.minter.section(chapter, sec.title, nth, key=first)
        yield node, RDF.type, LJ.Section, graph
        yield node, DCTERMS.isPartOf, chapter, graph
        yield node, LJ.order, integer(order), graph
        if sec.title:
            yield node, LJ.title, zh(sec.title), graph
            yield node, RDFS.label, zh(f"{normalize(chapter_title)}·{normalize(sec.title)}"), graph
        else:
            yield node, RDFS.label, zh(f"{normalize(chapter_title)}·（未题）"), graph
        if all(s.starts_mid for _, s in sec.readings):
            yield node, LJ.fragment, boolean(True), graph
        for doc, s in sec.readings:
            yield from self.spans(node, doc, s.heading)
        self.count("sections")
        for i, note in enumerate(sec.notes, 1):
            kind = _CLASS.get(note.kind, LJ.Commentary)
            yield from self.unit(
                note, self.minter.child(node, f"c{i}"), node, i, kind, comments_on=node
            )
        units = [(u, "p") for u in sec.passages] + [(u, "r") for u in sec.records]
        with_acts = []
        for i, (u, kind) in enumerate(units, 1):
            unode = self.minter.unit(chapter, kind, keys[id(u)])
            cls = LJ.Passage if kind == "p" else LJ.Record
            yield from self.unit(u, unode, node, i, cls)
            if self.acts.get(id(u)):
                with_acts.append((unode, u.canonical.text, self.acts[id(u)]))
        yield from self.act_emitter.section(node, self.rite, with_acts)
        for i, orphan in enumerate(sec.orphans, 1):
            onode = self.minter.child(node, f"fragment-{i}")
            yield from self.unit(orphan, onode, node, i, LJ.Commentary)
            yield onode, LJ.fragment, boolean(True), graph

    def unit(
        self,
        u: Unit,
        node: URIRef,
        parent: URIRef,
        order: int,
        cls: URIRef,
        comments_on: URIRef | None = None,
    ) -> Iterator[Quad]:
        graph = self.text_graph
        canon = u.canonical
        self.texts[node] = canon.text
        self.units[id(u)] = node
        yield node, RDF.type, cls, graph
        if cls in (LJ.Preface, LJ.TextualNote, LJ.SourceNote):
            yield node, RDF.type, LJ.Commentary, graph
        yield node, DCTERMS.isPartOf, parent, graph
        yield node, LJ.order, integer(order), graph
        if comments_on is not None:
            yield node, LJ.commentsOn, comments_on, graph
        if u.title:
            yield node, LJ.title, zh(u.title), graph
        if canon.text:
            yield node, LJ.text, zh(canon.text), graph
            yield node, LJ.normalizedText, zh(normalize(canon.text)), graph
            yield node, RDFS.label, zh(short(canon.text)), graph
        elif u.title:
            yield node, RDFS.label, zh(normalize(u.title)), graph
        for b in u.reading_breaks:
            yield node, LJ.readingBreak, integer(b), graph
        for r in u.readings:
            yield from self.witness(node, r)
        for page in sorted({p for r in u.readings for p in r.doc.pages_of(r.pieces)}):
            yield node, LJ.page, Lit(page), graph
        found = self.mentions.get(id(u), [])
        yield from self.mention_quads(node, found)
        self.count(_COUNTER.get(cls, "units"))
        for i, note in enumerate(u.notes, 1):
            kind = _CLASS.get(note.kind, LJ.TextualNote)
            yield from self.unit(
                note, self.minter.child(node, f"n{i}"), node, i, kind, comments_on=node
            )
        for i, block in enumerate(u.commentary, 1):
            yield from self.unit(
                block, self.minter.child(node, f"c{i}"), node, i, LJ.Commentary, comments_on=node
            )
        if cls in (LJ.Commentary, LJ.Preface, LJ.TextualNote, LJ.SourceNote) and canon.text:
            yield from self.opinions(node, u, cls, found, comments_on)

    # -- voices ---------------------------------------------------------------------------------

    def mention_quads(self, unit: URIRef, found: list[Mention]) -> Iterator[Quad]:
        """One lj:Mention per occurrence (what, which characters, where in the unit's
        lj:text) and lj:mentions from the unit to each concept it names."""
        graph = self.mentions_graph
        for i, mt in enumerate(found, 1):
            node = self.minter.child(unit, f"m{i}")
            concept = self.minter.vocab(mt.iri)
            yield unit, LJ.mentions, concept, graph
            yield node, RDF.type, LJ.Mention, graph
            yield node, LJ.mentionOf, concept, graph
            yield node, LJ.inUnit, unit, graph
            yield node, LJ.matchedText, zh(mt.text), graph
            yield node, LJ.charStart, integer(mt.start), graph
            yield node, LJ.charEnd, integer(mt.end), graph
            self.count("mentions")

    def opinions(
        self,
        block: URIRef,
        u: Unit,
        cls: URIRef,
        found: list[Mention] | None = None,
        target: URIRef | None = None,
    ) -> Iterator[Quad]:
        """The block's voices, glosses, citations, judgements (kg/rdf/commentary.py)."""
        text = self.texts.get(target, "") if target is not None else ""
        quads = self.commentary.block(block, u, cls, found, target, text or "")
        yield from self.phases.iterate("commentary", quads)  # voices, glosses … are read here


_COUNTER = {
    LJ.Passage: "passages",
    LJ.Record: "records",
    LJ.Commentary: "commentaries",
    LJ.Preface: "prefaces",
    LJ.TextualNote: "notes",
    LJ.SourceNote: "notes",
    LJ.Abstract: "abstracts",
}


def source_ids(paths: list[Path]) -> dict[Path, str]:
    """Each file's id in IRIs: its stem, and a hash of its path where two stems are equal."""
    ids: dict[Path, str] = {}
    seen: set[str] = set()
    for path in sorted(paths, key=lambda p: (p.name, str(p))):
        sid = source_id(path.name)
        if sid in seen:  # same stem in two folders: tell them apart by path
            sid += "-" + hashlib.sha1(str(path).encode()).hexdigest()[:6]
        seen.add(sid)
        ids[path] = sid
    return ids


def _unit_keys(ch: AlignedChapter) -> dict[int, str]:
    """IRI keys of a chapter's passages and records: the incipit-explicit hash, or the full
    hash where two units share it, or the full hash and a counter where even that repeats."""
    groups = [(s.passages, "p") for s in ch.sections] + [(s.records, "r") for s in ch.sections]
    seen: dict[tuple[str, str], int] = {}  # units per short key
    for units, kind in groups:
        for u in units:
            seen[(kind, u.key)] = seen.get((kind, u.key), 0) + 1
    keys: dict[int, str] = {}
    used: dict[tuple[str, str], int] = {}
    for units, kind in groups:
        for u in units:
            key = u.key if seen[(kind, u.key)] == 1 else u.full_key
            used[(kind, key)] = used.get((kind, key), 0) + 1
            n = used[(kind, key)]
            keys[id(u)] = key if n == 1 else f"{key}-{n}"
    return keys


def source_file(src: URIRef, path: Path, text: str, layout: str, graph: URIRef) -> Iterator[Quad]:
    """The quads every source file has, of the book or of a work of the tradition."""
    yield src, RDF.type, LJ.SourceDocument, graph
    yield src, RDFS.label, Lit(path.name), graph
    yield src, DCTERMS.identifier, Lit(str(path)), graph
    yield src, DCTERMS.format, Lit("text/plain"), graph
    yield src, LJ.layout, Lit(layout), graph
    yield src, LJ.sha256, Lit(hashlib.sha256(text.encode("utf-8")).hexdigest()), graph


def noise_spans(
    minter: Minter, src: URIRef, doc: Any, graph: URIRef, kind: Callable[[str], str]
) -> Iterator[Quad]:
    """Each stretch of a source file read as noise, with its span, line and words; ``doc``
    is any model with ``text``, ``segments`` and ``line_of`` (the book's or a tradition work's)."""
    n = 0
    for seg in doc.segments:
        if seg.kind is Seg.NOISE:
            n += 1
            node = minter.child(src, f"noise/{n}")
            words = doc.text[seg.start : seg.end]
            yield node, RDF.type, LJ.NoiseSpan, graph
            yield node, LJ.sourceFile, src, graph
            yield node, LJ.charStart, integer(seg.start), graph
            yield node, LJ.charEnd, integer(seg.end), graph
            yield node, LJ.line, integer(doc.line_of(seg.start)), graph
            yield node, LJ.text, Lit(words), graph
            yield node, LJ.noiseKind, Lit(kind(words)), graph


def _noise_kind(text: str) -> str:
    if "页" in text and "第" in text:
        return "page header"
    if text.startswith("<"):
        return "catalogue tag"
    return "web footer"


def _best_placement(placements: set[str]) -> str:
    for p in ("title", "marker", "close-marker", "header", "manifest", "recognized"):
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
