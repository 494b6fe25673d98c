"""The emitter's layers: it only writes (what it meets is reported, not put in the documents
it reads), the commentary layer keeps its own counts, and the book's title and author come
from ontology/."""

from __future__ import annotations

from pathlib import Path

from rdflib import RDFS
from rdflib.namespace import DCTERMS

from kg.build.run import RdfArgument, rdf_argument
from kg.rdf.emit import Emitter
from kg.rdf.iris import Minter
from kg.rdf.namespaces import PERSON
from kg.rdf.terms import LZH, Lit
from kg.readers import read
from kg.text.align import align
from kg.text.catalog import load_catalog
from kg.text.work import load_work

from conftest import FIXTURES

CAT = load_catalog()
FIXTURE = FIXTURES / "commentary_pinli.txt"


def test_new_speakers_are_reported_by_the_emitter_not_written_into_the_documents() -> None:
    doc = read(FIXTURE, catalog=CAT)
    before = list(doc.issues)
    emitter = Emitter(align([doc], CAT), CAT, Minter())
    list(emitter.quads())
    assert doc.issues == before
    reported = emitter.take_issues()
    assert [r.issue.kind for r in reported] == ["commentator"] * len(reported)
    assert any("顾震沧" in r.issue.message and r.path == FIXTURE for r in reported)
    assert emitter.take_issues() == []  # taken once
    assert emitter.stats["new commentators"] == len(reported)
    assert emitter.stats["opinions"] == emitter.commentary.stats["opinions"] > 0


def test_the_work_is_titled_and_credited_from_the_ontology() -> None:
    work = load_work()
    minter = Minter()
    emitter = Emitter(None, CAT, minter, sources={})
    quads = {(p, o) for s, p, o, _ in emitter.work() if s == minter.work()}
    assert (DCTERMS.title, Lit(work.title, LZH)) in quads
    assert (RDFS.label, Lit(work.title, LZH)) in quads
    assert (DCTERMS.creator, minter.vocab(PERSON[work.author.slug])) in quads
    assert work.author.is_author


def test_rdf_argument_names_the_graph_or_leaves_it_to_the_build() -> None:
    assert rdf_argument("urn:x:g=a.ttl") == RdfArgument(Path("a.ttl"), "urn:x:g")
    default = rdf_argument("links.ttl").rdf_file(Minter("https://example.org/id/"))
    assert (default.path, default.graph) == (
        Path("links.ttl"),
        "https://example.org/id/graph/user/links",
    )


def test_the_abstract_never_takes_the_last_scopes_mentions() -> None:
    """The extractor's analyses are keyed by id(unit); the abstract, which is no scope, must not
    find another unit's mentions under an id that a freed unit left behind (this made two
    builds of the same files differ now and then, when the allocator reused an address)."""
    doc = read(FIXTURE, catalog=CAT)
    corpus = align([doc], CAT)
    emitter = Emitter(corpus, CAT, Minter())
    list(emitter.quads())
    unit = corpus.juans[0].chapters[0].sections[0].passages[0]
    found = emitter.mentions.get(id(unit)) or [object()]
    emitter.mentions = {id(unit): found}  # as if the abstract reused this unit's address
    quads = list(emitter.abstract(unit))
    assert not [q for q in quads if "/m" in str(q[0]).rsplit("/", 1)[-1][:2]]
    assert not any(str(q[2]).endswith("#Mention") for q in quads)
