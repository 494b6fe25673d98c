"""The tradition linked to the book → quads: parallels of the classic, traced quotations.

``TraditionLinker`` holds the passages and blocks of the source works (``LinkChapter``, with
the IRIs kg.rdf.tradition gave them) and, for each chapter of the book as a build emits it,
yields

- ``lj:parallel`` (both directions) and an ``lj:Parallel`` node per overlap of 经文
  (kg.text.parallels): the shared stretch's offsets in both passages, its similarity, and the
  ``lj:ClassicVariant``s inside it — graph ``parallels``; the works are also paired with each
  other (``between_works``);
- for each opinion of the book that quotes or reports a commentator the sources hold
  (kg/nlp/patterns/quotations.toml), its ``lj:Quotation``s (kg.nlp.quotations): the source
  block (``lj:quotedFrom``), the source's words used and their offsets there, the quoted span
  in the opinion, fidelity and similarity — graph ``quotations``. An opinion with no source
  found gets none and is counted (``untraced quotations``).

IRIs: ``<from passage>/par/<work slug>/<n>`` a parallel, ``…/v<k>`` its variants;
``<opinion>/quote<n>`` a quotation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rdflib import RDF, RDFS, URIRef
from rdflib.namespace import XSD

from kg.nlp.commentary_rules import load_rules
from kg.nlp.quotations import Quotation, Source, SourceIndex, speakers, tier_of, tiers
from kg.nlp.voices import Voice, split_voices
from kg.rdf.iris import SLUG, Minter
from kg.rdf.namespaces import LJ, PERSON, PROV
from kg.rdf.terms import Lit, Quad, integer, zh
from kg.text.align import Corpus, Unit
from kg.text.normalize import normalize
from kg.text.parallels import Overlap, find_parallels
from kg.text.tradition import Block, WorkDocument


@dataclass(frozen=True)
class LinkBlock:
    """A commentary block as emitted: its IRI, text (original characters), voice, kind."""

    iri: URIRef
    text: str
    voice: str = ""
    kind: str = ""


@dataclass
class LinkPassage:
    iri: URIRef
    text: str
    blocks: list[LinkBlock] = field(default_factory=list)


@dataclass
class LinkChapter:
    """One chapter of a work (the book or a source work), its passages in reading order."""

    work: str  # slug of the work
    rite: str | None
    passages: list[LinkPassage] = field(default_factory=list)


@dataclass(frozen=True)
class Traced:
    """An opinion of the book that gives a source commentator's words, and what was found."""

    block: LinkBlock
    order: int  # the opinion's place in the block (its IRI: <block>/o<order>)
    voice: Voice
    speaker: str  # whose words: the quoted, or the reported, commentator
    start: int  # the quoted words' span in the block's text
    end: int
    found: list[Quotation]
    runs_on: bool = False  # the author's words right after a report, still the reported's

    @property
    def text(self) -> str:
        return self.block.text[self.start : self.end]


def decimal(x: float) -> Lit:
    return Lit(f"{x:.3f}", None, str(XSD.decimal))


class TraditionLinker:
    """Links each chapter of the book, as it is emitted, to the source works' chapters."""

    def __init__(self, minter: Minter, works: Sequence[LinkChapter]) -> None:
        self.minter = minter
        self.works = list(works)
        self.parallels_graph = minter.graph("parallels")
        self.quotations_graph = minter.graph("quotations")
        self.stats: dict[str, int] = {}
        self.names: Mapping[str, str] = {}  # speakers a census found (kg.nlp.new_voices)
        self._indexes: dict[tuple[str, str], SourceIndex] = {}  # (speaker, book) → sources
        self._notes: dict[object, frozenset[object]] | None = None

    def count(self, what: str, n: int = 1) -> None:
        self.stats[what] = self.stats.get(what, 0) + n

    def part(self, corpus: Corpus, iris: Mapping[int, URIRef]) -> Iterator[Quad]:
        """Every chapter of one part of the book, just emitted (``iris``: its units' IRIs)."""
        for chapter in book_chapters(corpus, iris, SLUG):
            yield from self.chapter(chapter)

    def _same_rite(self, rite: str | None, work: str | None = None) -> list[LinkChapter]:
        return [c for c in self.works if c.rite == rite and rite and c.work != work]

    # -- the classic ----------------------------------------------------------------------------

    def chapter(self, book: LinkChapter) -> Iterator[Quad]:
        """Parallels and quotations of one chapter of the book."""
        overlaps = list(self.overlaps(book))
        for work, passages, found in overlaps:
            hit = {o.here for o in found}
            missed = [i for i, p in enumerate(book.passages) if p.text and i not in hit]
            self.count(f"passages without a parallel in {work}", len(missed))
            yield from self.parallels(book.passages, passages, found, work)
        for t in self.traced(book, near_blocks(book, overlaps)):
            yield from self.opinion(t)

    def overlaps(self, book: LinkChapter) -> Iterator[tuple[str, list[LinkPassage], list[Overlap]]]:
        """Per other work with this chapter's rite: its passages and their overlaps with ours."""
        theirs = self._same_rite(book.rite, book.work)
        for work in sorted({c.work for c in theirs}):
            passages = self._passages(work, book.rite or "")
            yield (
                work,
                passages,
                find_parallels([p.text for p in book.passages], [p.text for p in passages]),
            )

    def traced(self, book: LinkChapter, near: Mapping[object, set[object]]) -> Iterator[Traced]:
        """Each quoting opinion of the chapter with the quotations found for it: in the
        blocks on a passage's parallels (``near``) first, then in the rest of the chapter,
        then, strictly, in the rest of the works."""
        local = {
            b.iri
            for c in self._same_rite(book.rite, book.work)
            for p in c.passages
            for b in p.blocks
        }
        for p in book.passages:
            for block in p.blocks:
                voices = split_voices(block.text, self.names)
                for i, v in enumerate(voices, 1):
                    quoted = quoted_span(v)
                    if quoted is None:
                        continue
                    speaker, (a, b) = quoted
                    index = self._index(speaker, book.work)
                    found = index.trace(block.text[a:b], near.get(p.iri, ()), local)
                    yield Traced(block, i, v, speaker, a, b, found)
                    if v.kind == "report" and found and i < len(voices):
                        tail = self._runs_on(block, v, voices[i], index, found)
                        if tail:
                            yield Traced(block, i + 1, voices[i], speaker, *tail, runs_on=True)

    def _runs_on(
        self, block: LinkBlock, v: Voice, after: Voice, index: SourceIndex, found: list
    ) -> tuple[int, int, list[Quotation]] | None:
        """A report's view ends at its first clause, but the author may go on in the reported
        note's words with no separator (郑氏谓 … 是也 钧犹等也): the author's voice right after
        it, to its first separator, is searched in the notes on the source passages the view
        came from, and only there."""
        if after.kind != "author" or after.start != v.end:
            return None
        seps = load_rules().separators
        end = next(
            (
                k
                for k in range(after.start, after.end)
                if block.text[k] in seps or block.text[k].isspace()
            ),
            after.end,
        )
        notes = {x for q in found for x in self._siblings().get(q.source.key, ())}
        # searched as the chapter is (no few-words-exact allowance): the author's own words
        # here often repeat a term of those notes
        got = index.trace(block.text[after.start : end], (), notes, far=False)
        return (after.start, end, got) if got else None

    def _siblings(self) -> dict[object, frozenset[object]]:
        """Each source block's IRI → the IRIs of the blocks on the same passage."""
        if self._notes is None:
            self._notes = {}
            for c in self.works:
                for p in c.passages:
                    keys = frozenset(b.iri for b in p.blocks)
                    for b in p.blocks:
                        self._notes[b.iri] = keys
        return self._notes

    def _index(self, speaker: str, work: str) -> SourceIndex:
        """The blocks of every chapter of the other works that may hold ``speaker``'s words:
        one index of every traced speaker's blocks per build, ordered for each speaker."""
        if (speaker, work) not in self._indexes:
            if ("", work) not in self._indexes:
                others = [c for c in self.works if c.work != work]
                self._indexes["", work] = SourceIndex(_sources(others, speakers()))
            self._indexes[speaker, work] = self._indexes["", work].for_speaker(speaker)
        return self._indexes[speaker, work]

    def between_works(self) -> Iterator[Quad]:
        """Parallels between the source works themselves, chapter by chapter."""
        slugs = sorted({c.work for c in self.works})
        for i, a in enumerate(slugs):
            for b in slugs[i + 1 :]:
                for rite in sorted({c.rite for c in self.works if c.work == a and c.rite}):
                    ours = self._passages(a, rite)
                    theirs = self._passages(b, rite)
                    if ours and theirs:
                        found = find_parallels([p.text for p in ours], [p.text for p in theirs])
                        yield from self.parallels(ours, theirs, found, b)

    def _passages(self, work: str, rite: str) -> list[LinkPassage]:
        return [p for c in self.works if c.work == work and c.rite == rite for p in c.passages]

    def parallels(
        self,
        ours: Sequence[LinkPassage],
        theirs: Sequence[LinkPassage],
        found: Sequence[Overlap],
        work: str,
    ) -> Iterator[Quad]:
        g = self.parallels_graph
        seen: dict[URIRef, int] = {}
        for o in found:
            a, b = ours[o.here].iri, theirs[o.there].iri
            seen[a] = seen.get(a, 0) + 1
            node = self.minter.child(a, f"par/{work}/{seen[a]}")
            yield a, LJ.parallel, b, g
            yield b, LJ.parallel, a, g
            yield a, LJ.hasParallel, node, g
            yield b, LJ.hasParallel, node, g
            yield node, RDF.type, LJ.Parallel, g
            yield node, LJ.fromPassage, a, g
            yield node, LJ.toPassage, b, g
            yield from self.spans(node, o.here_span, o.there_span)
            yield node, LJ.similarity, decimal(o.similarity), g
            text = ours[o.here].text[o.here_span[0] : o.here_span[1]]
            yield node, RDFS.label, zh(_short(text)), g
            self.count("parallels")
            for k, v in enumerate(o.variants, 1):
                vnode = self.minter.child(node, f"v{k}")
                yield node, LJ.hasVariant, vnode, g
                yield vnode, RDF.type, LJ.ClassicVariant, g
                yield vnode, LJ.fromText, zh(v.here_text), g
                yield vnode, LJ.toText, zh(v.there_text), g
                yield from self.spans(vnode, v.here_span, v.there_span)
                yield vnode, RDFS.label, zh(f"{v.here_text or '—'}／{v.there_text or '—'}"), g
                self.count("classic variants")

    def spans(self, node: URIRef, here: tuple[int, int], there: tuple[int, int]) -> Iterator[Quad]:
        g = self.parallels_graph
        yield node, LJ.fromCharStart, integer(here[0]), g
        yield node, LJ.fromCharEnd, integer(here[1]), g
        yield node, LJ.toCharStart, integer(there[0]), g
        yield node, LJ.toCharEnd, integer(there[1]), g

    # -- quotations -----------------------------------------------------------------------------

    def opinion(self, t: Traced) -> Iterator[Quad]:
        """The quotations of one opinion (offsets in the opinion's own lj:text start at the
        voice's start)."""
        g = self.quotations_graph
        opinion = self.minter.child(t.block.iri, f"o{t.order}")
        speaker, v, at, found, text = t.speaker, t.voice, t.start, t.found, t.text
        if not t.runs_on:
            self.count("quoting opinions")
        if not found:
            self.count("untraced quotations")
            self.count(f"untraced quotations of {speaker}")
            return
        person = self.minter.vocab(PERSON[speaker])
        for n, q in enumerate(found, 1):
            node = self.minter.child(opinion, f"quote{n}")
            start = at - v.start + q.quoted[0]
            end = at - v.start + q.quoted[1]
            yield opinion, LJ.hasQuotation, node, g
            yield node, RDF.type, LJ.Quotation, g
            yield node, LJ.quotedFrom, q.source.key, g  # type: ignore[misc]
            yield node, PROV.wasAttributedTo, person, g
            yield node, LJ.sourceText, zh(q.source_text), g
            yield node, LJ.sourceCharStart, integer(q.source_span[0]), g
            yield node, LJ.sourceCharEnd, integer(q.source_span[1]), g
            yield node, LJ.quotedCharStart, integer(start), g
            yield node, LJ.quotedCharEnd, integer(end), g
            yield node, LJ.quotedWords, zh(text[q.quoted[0] : q.quoted[1]]), g
            yield node, LJ.fidelity, Lit(q.fidelity), g
            for a, b in q.cuts:
                yield node, LJ.omittedText, zh(q.source.text[a:b]), g
            yield node, LJ.similarity, decimal(q.similarity), g
            yield node, RDFS.label, zh(_short(text[q.quoted[0] : q.quoted[1]])), g
            self.count("quotations")
            self.count(f"quotations {q.fidelity}")


# -- what the linker is given --------------------------------------------------------------


def work_chapters(
    docs: Iterable[WorkDocument], iri_of: Callable[[Any], URIRef | None]
) -> list[LinkChapter]:
    """The source works' chapters, with the IRIs their emitter gave passages and blocks
    (kg.rdf.tradition.TraditionEmitter.iri_of); a chapter preface's blocks are a passage with
    no 经文 (searched for quotations, never parallel)."""
    out = []
    for doc in docs:
        for ch in doc.chapters():
            chapter = LinkChapter(doc.work.slug, ch.rite)
            preface = _link_blocks(ch.preface, iri_of)
            if preface:
                chapter.passages.append(LinkPassage(preface[0].iri, "", preface))
            for p in ch.passages():
                iri = iri_of(p)
                if iri is not None:
                    chapter.passages.append(
                        LinkPassage(iri, p.text, _link_blocks(p.blocks, iri_of))
                    )
            out.append(chapter)
    return out


def _link_blocks(
    blocks: Iterable[Block], iri_of: Callable[[Any], URIRef | None]
) -> list[LinkBlock]:
    out = []
    for b in blocks:
        iri = iri_of(b)
        if iri is not None:
            out.append(LinkBlock(iri, b.text, b.voice, b.kind))
    return out


def book_chapters(corpus: Corpus, iris: Mapping[int, URIRef], work: str) -> list[LinkChapter]:
    """The book's chapters as emitted (``iris``: id(unit) → IRI, kg.rdf.emit.Emitter's):
    passages and records with their commentary blocks, and the chapter prefaces as a passage
    with no 经文."""
    out = []
    for ch in corpus.chapters():
        chapter = LinkChapter(work, ch.rite)
        prefaces = [LinkBlock(iris[id(u)], u.canonical.text) for u in ch.prefaces if id(u) in iris]
        if prefaces:
            chapter.passages.append(LinkPassage(prefaces[0].iri, "", prefaces))
        for s in ch.sections:
            for u in (*s.passages, *s.records):
                if id(u) not in iris:
                    continue
                blocks = _book_blocks(u.commentary, iris)
                chapter.passages.append(LinkPassage(iris[id(u)], u.canonical.text, blocks))
            # commentary on the 右X heading, or cut off from its unit: the last passage's
            heading = _book_blocks((*s.notes, *s.orphans), iris)
            if heading and chapter.passages and chapter.passages[-1].text:
                chapter.passages[-1].blocks.extend(heading)
            elif heading:
                chapter.passages.append(LinkPassage(heading[0].iri, "", heading))
        out.append(chapter)
    return out


def near_blocks(
    book: LinkChapter, overlaps: Iterable[tuple[str, list[LinkPassage], list[Overlap]]]
) -> dict[object, set[object]]:
    """Per passage of ours, the IRIs of the blocks on its parallels in the other works."""
    near: dict[object, set[object]] = {p.iri: set() for p in book.passages}
    for _, passages, found in overlaps:
        for o in found:
            near[book.passages[o.here].iri].update(b.iri for b in passages[o.there].blocks)
    return near


def _book_blocks(units: Iterable[Unit], iris: Mapping[int, URIRef]) -> list[LinkBlock]:
    return [LinkBlock(iris[id(b)], b.canonical.text) for b in units if id(b) in iris]


def quoted_span(v: Voice) -> tuple[str, tuple[int, int]] | None:
    """Whose words an opinion gives and where they stand in the block: a quote's body
    (郑康成曰 …), a report's view (敖氏谓 …); None for a speaker the sources do not hold."""
    if v.kind == "quote" and tiers(v.speaker) and v.end > v.body_start:
        return v.speaker, (v.body_start, v.end)
    if v.kind == "report" and v.reports and tiers(v.reports) and v.view:
        return v.reports, v.view
    return None


def _sources(chapters: Sequence[LinkChapter], who: Iterable[str]) -> list[Source]:
    """The blocks that may hold the words of any of ``who``."""
    who = tuple(who)
    return [
        Source(b.iri, b.text, b.voice, b.kind)
        for c in chapters
        for p in c.passages
        for b in p.blocks
        if any(tier_of(s, b.voice, b.kind) is not None for s in who)
    ]


def _short(text: str, n: int = 16) -> str:
    text = normalize(text)
    return text if len(text) <= n else text[:n] + "…"
