"""The commentary layer of one 【…】 block → quads (graph ``commentary``).

For each block: its voices as ``lj:Opinion`` (commentator, voice, attribution, span, the
commentators reported), the glosses each states (``lj:Gloss``), the works cited
(``lj:Citation``, ``lj:cites``), the judgements (``lj:Judgement``, ``lj:disputes`` /
``lj:endorses``), statements on the wording (``lj:ReadingNote``; a glued ``lj:TextualNote``
gets them on itself), and ``lj:stepLabel`` on the unit commented on for a 此X也 summary.

IRIs, under the block's: ``o2`` its second opinion, ``g1`` its first gloss, ``q1`` citation,
``j1`` judgement, ``t1`` reading note. A speaker the vocabulary lacks is minted as
``person/<pinyin>`` with his name, once per build, and reported in ``issues`` (the build
collects them: the emitter writes quads, never into the documents it reads); besides the
names a block shows on its own, ``use_census`` gives it those a census of the whole book
found by repetition (kg.nlp.new_voices).
"""

from __future__ import annotations

from collections.abc import Iterator

from rdflib import RDF, RDFS, URIRef
from rdflib.namespace import SKOS

from kg.nlp.citations import find_citations
from kg.nlp.commentary_rules import load_rules
from kg.nlp.extract import Mention
from kg.nlp.glosses import find_glosses
from kg.nlp.judgements import find_judgements
from kg.nlp.lexicon import load_lexicon
from kg.nlp.new_voices import VoiceCensus
from kg.nlp.textual import ReadingNote, find_readings
from kg.nlp.voices import Voice, find_reports, split_voices, step_labels
from kg.rdf.iris import Minter
from kg.rdf.namespaces import DATA, FOAF, LJ, PERSON, PROV, WORK
from kg.rdf.terms import Lit, Quad, en, integer, zh
from kg.text.align import Unit
from kg.text.document import FileIssue, Issue
from kg.text.normalize import normalize
from kg.text.vocab import load_concepts

SCHEME = DATA["scheme/commentators"]


class CommentaryEmitter:
    """Emits the commentary of the blocks the text emitter (kg.rdf.emit) hands it, into its
    own graphs (``commentary``; ``mentions`` for the opinions' mentions), with its own counts,
    the speakers it minted so far in the build and the issues that reports."""

    def __init__(self, minter: Minter) -> None:
        self.minter = minter
        self.graph = minter.graph("commentary")
        self.mentions_graph = minter.graph("mentions")
        self.stats: dict[str, int] = {}
        self.minted: set[str] = set()
        self.issues: list[FileIssue] = []  # what the build reports: new speakers, in order
        self.lexicon_iris = _lexicon_iris()
        self.new_names: dict[str, str] = {}  # speakers a census of the book found → slug
        self.new_counts: dict[str, int] = {}  # slug → the voices the census saw him open

    def use_census(self, census: VoiceCensus) -> None:
        """Take as speakers the names a census of the whole book found (kg.nlp.new_voices)."""
        self.new_names = census.names()
        self.new_counts = {slug: census.count(name) for name, slug in self.new_names.items()}

    def count(self, what: str, n: int = 1) -> None:
        self.stats[what] = self.stats.get(what, 0) + n

    def take_issues(self) -> list[FileIssue]:
        """The issues reported since the last call, in the order met."""
        taken, self.issues = self.issues, []
        return taken

    # -- helpers --------------------------------------------------------------------------------

    def person(self, slug: str) -> URIRef:
        return self.minter.vocab(PERSON[slug])

    def span(self, node: URIRef, block: URIRef, text: str, a: int, b: int) -> Iterator[Quad]:
        graph = self.graph
        yield node, LJ.inUnit, block, graph
        yield node, LJ.charStart, integer(a), graph
        yield node, LJ.charEnd, integer(b), graph
        yield node, LJ.text, zh(text[a:b]), graph

    # -- one block ------------------------------------------------------------------------------

    def block(
        self,
        block: URIRef,
        unit: Unit,
        cls: URIRef,
        found: list[Mention] | None,
        target: URIRef | None,
        target_text: str,
    ) -> Iterator[Quad]:
        text = unit.canonical.text
        voices = split_voices(text, self.new_names)
        opinions = [self.minter.child(block, f"o{i}") for i in range(1, len(voices) + 1)]
        for i, v in enumerate(voices):
            yield from self.opinion(block, opinions[i], i + 1, v, text, found, unit)
        yield from self.glosses(block, opinions, text, voices, target_text)
        yield from self.citations(block, opinions, text, voices)
        yield from self.judgements(block, opinions, text, voices)
        notes = find_readings(text, passage=target_text)
        if cls == LJ.TextualNote and notes:
            yield from self.reading(block, notes[0])
            notes = notes[1:]
        yield from self.readings(block, opinions, text, voices, notes)
        if target is not None:
            for _, label, _, _ in step_labels(text, voices):
                yield target, LJ.stepLabel, zh(label), self.graph
                self.count("step labels")

    def opinion(
        self,
        block: URIRef,
        node: URIRef,
        order: int,
        v: Voice,
        text: str,
        found: list[Mention] | None,
        unit: Unit,
    ) -> Iterator[Quad]:
        graph = self.graph
        for mt in found or ():
            if v.start <= mt.start < v.end:
                yield node, LJ.mentions, self.minter.vocab(mt.iri), self.mentions_graph
        person = self.person(v.speaker)
        if v.name:
            yield from self.mint(v.speaker, v.name, unit)
        yield block, LJ.hasOpinion, node, graph
        yield node, RDF.type, LJ.Opinion, graph
        yield node, LJ.order, integer(order), graph
        yield node, LJ.commentator, person, graph
        yield node, PROV.wasAttributedTo, person, graph
        yield node, LJ.voice, Lit(v.kind), graph
        if v.marker:
            yield node, LJ.attribution, zh(text[v.marker[0] : v.marker[1]]), graph
        yield from self.span(node, block, text, v.start, v.end)
        label = normalize(text[v.start : v.end])
        yield node, RDFS.label, zh(label if len(label) <= 12 else label[:12] + "…"), graph
        self.count("opinions")
        reported = [v.reports] if v.reports else []
        if v.kind == "quote":  # the quoted commentator reporting a third (郑注 … in 万充宗曰)
            norm = normalize(text)
            reported += [s for s, _, _ in find_reports(norm, v.body_start, v.end)]
        names = {slug: name for name, slug in self.new_names.items()}
        for slug in dict.fromkeys(reported):
            if slug in names:  # a census voice first met reported (李某某谓 …)
                yield from self.mint(slug, names[slug], unit)
            if slug != v.speaker:
                yield node, LJ.reports, self.person(slug), graph
                self.count("reports")
        if v.view:
            yield node, LJ.reportedText, zh(text[v.view[0] : v.view[1]]), graph

    def mint(self, slug: str, written: str, unit: Unit) -> Iterator[Quad]:
        """A speaker the commentator vocabulary lacks: a Commentator with his name."""
        if slug in self.minted:
            return
        self.minted.add(slug)
        graph = self.graph
        person = self.person(slug)
        name = normalize(written)
        yield person, RDF.type, LJ.Commentator, graph
        yield person, RDF.type, SKOS.Concept, graph
        yield person, SKOS.inScheme, self.minter.vocab(SCHEME), graph
        yield person, SKOS.prefLabel, zh(name), graph
        yield person, RDFS.label, zh(name), graph
        yield person, FOAF.name, zh(name), graph
        if written != name:
            yield person, SKOS.altLabel, zh(written), graph
        seen = self.new_counts.get(slug)
        how = f"opening {seen} voices of the book" if seen else "(X曰)"
        yield (
            person,
            SKOS.editorialNote,
            en(f"Found as a speaker {how}; not in ontology/commentators.ttl."),
            graph,
        )
        self.count("new commentators")
        r = unit.canonical
        message = f"{written}曰: a speaker the commentator vocabulary lacks, minted as "
        message += f"person/{slug}"
        if seen:
            message += f" (he opens {seen} voices of the book)"
        issue = Issue("commentator", r.doc.line_of(r.start), r.start, r.end, message)
        self.issues.append(FileIssue(r.doc.path, issue))

    def glosses(
        self,
        block: URIRef,
        opinions: list[URIRef],
        text: str,
        voices: list[Voice],
        target_text: str,
    ) -> Iterator[Quad]:
        graph = self.graph
        for n, gl in enumerate(find_glosses(text, voices, passage=target_text), 1):
            node = self.minter.child(block, f"g{n}")
            yield opinions[gl.voice], LJ.hasGloss, node, graph
            yield node, RDF.type, LJ.Gloss, graph
            yield node, LJ.glossTerm, zh(gl.term), graph
            yield node, LJ.glossDefinition, zh(gl.definition), graph
            yield node, LJ.glossPattern, Lit(gl.pattern), graph
            yield node, RDFS.label, zh(f"{gl.term}：{gl.definition}"), graph
            yield from self.span(node, block, text, gl.start, gl.end)
            yield node, LJ.termStart, integer(gl.term_start), graph
            yield node, LJ.termEnd, integer(gl.term_end), graph
            for iri in self.lexicon_iris.get(gl.term, ()):
                yield node, LJ.glossOf, self.minter.vocab(iri), graph
            self.count("glosses")

    def citations(
        self, block: URIRef, opinions: list[URIRef], text: str, voices: list[Voice]
    ) -> Iterator[Quad]:
        graph = self.graph
        for n, c in enumerate(find_citations(text, voices), 1):
            node = self.minter.child(block, f"q{n}")
            work = self.minter.vocab(WORK[c.work])
            yield opinions[c.voice], LJ.cites, work, graph
            yield opinions[c.voice], LJ.hasCitation, node, graph
            yield node, RDF.type, LJ.Citation, graph
            yield node, LJ.cites, work, graph
            yield node, RDFS.label, zh(c.name + (f"：{c.quote}" if c.quote else "")), graph
            end = c.quote_span[1] if c.quote_span else c.end
            yield from self.span(node, block, text, c.start, end)
            if c.quote_span:
                yield node, LJ.quotedText, zh(text[c.quote_span[0] : c.quote_span[1]]), graph
                yield node, LJ.quoteStart, integer(c.quote_span[0]), graph
            self.count("citations")

    def judgements(
        self, block: URIRef, opinions: list[URIRef], text: str, voices: list[Voice]
    ) -> Iterator[Quad]:
        graph = self.graph
        for n, j in enumerate(find_judgements(text, voices), 1):
            node = self.minter.child(block, f"j{n}")
            prop = LJ.disputes if j.stance == "disputes" else LJ.endorses
            judging = opinions[j.voice]
            targets = [self.person(j.person)] if j.person else []
            if j.target is not None:
                targets.insert(0, opinions[j.target])
            for t in targets:
                yield judging, prop, t, graph
                yield node, LJ.judges, t, graph
            yield judging, LJ.hasJudgement, node, graph
            yield node, RDF.type, LJ.Judgement, graph
            yield node, LJ.stance, Lit(j.stance), graph
            yield node, LJ.evidenceText, zh(text[j.start : j.end]), graph
            yield node, RDFS.label, zh(text[j.start : j.end]), graph
            yield from self.span(node, block, text, j.start, j.end)
            self.count("judgements")

    def reading(self, node: URIRef, note: ReadingNote) -> Iterator[Quad]:
        graph = self.graph
        yield node, LJ.noteKind, Lit(note.kind), graph
        for prop, value in (
            (LJ.reading, note.reading),
            (LJ.proposedReading, note.proposed),
            (LJ.variantReading, note.variant),
            (LJ.edition, note.edition),
            (LJ.locus, note.locus),
        ):
            if value:
                yield node, prop, zh(value), graph
        self.count("reading notes")

    def readings(
        self,
        block: URIRef,
        opinions: list[URIRef],
        text: str,
        voices: list[Voice],
        notes: list[ReadingNote],
    ) -> Iterator[Quad]:
        graph = self.graph
        for n, note in enumerate(notes, 1):
            node = self.minter.child(block, f"t{n}")
            voice = next((i for i, v in enumerate(voices) if v.start <= note.start < v.end), 0)
            if not opinions:
                return
            yield opinions[voice], LJ.hasReadingNote, node, graph
            yield node, RDF.type, LJ.ReadingNote, graph
            yield from self.span(node, block, text, note.start, note.end)
            yield from self.reading(node, note)


def _lexicon_iris() -> dict[str, tuple[str, ...]]:
    """Normalized form → the concept IRIs a glossed term may stand for: only forms that name
    one concept (爵 the cup and 爵 the rank stay unlinked)."""
    forms: dict[str, set[str]] = {}
    for form, entries in load_lexicon().entries.items():
        if all(e.type != "commentator" for e in entries):
            forms.setdefault(form, set()).update(e.iri for e in entries)
    for c in load_concepts("actions.ttl").values():
        for form in c.forms:
            forms.setdefault(form, set()).add(str(c.iri))
    rules = load_rules()
    return {f: tuple(sorted(i)) for f, i in forms.items() if len(i) == 1 and f not in rules.names}
