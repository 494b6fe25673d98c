"""The ontology: parses, is documented in 中文 and English, matches the code, stays consistent."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
from rdflib import OWL, RDF, RDFS, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, SKOS

from kg.rdf.emit import Emitter
from kg.rdf.iris import Minter
from kg.rdf.namespaces import LJ, ONTOLOGY
from kg.readers import read
from kg.resources import ontology_dir
from kg.text.align import align
from kg.text.catalog import load_catalog
from kg.text.vocab import vocabulary_files

from conftest import FIXTURES

ONTO = ontology_dir() / "lijing.ttl"
NS = str(LJ._NS)


@pytest.fixture(scope="module")
def onto() -> Graph:
    g = Graph()
    g.parse(ONTO, format="turtle")
    return g


def own_terms(g: Graph) -> set[URIRef]:
    return {s for s in g.subjects(RDF.type, None) if isinstance(s, URIRef) and s.startswith(NS)}


def test_parses_in_pyoxigraph_too() -> None:
    assert len(list(ox.parse(path=str(ONTO), format=ox.RdfFormat.TURTLE))) > 400


def test_metadata(onto: Graph) -> None:
    for p in (OWL.versionIRI, DCTERMS.license, DCTERMS.creator, DCTERMS.description):
        assert onto.value(ONTOLOGY, p) is not None, p


def test_every_term_has_both_labels_and_a_definition(onto: Graph) -> None:
    for t in own_terms(onto):
        langs = {lab.language for lab in onto.objects(t, RDFS.label) if isinstance(lab, Literal)}
        assert {"lzh", "en"} <= langs, t
        assert onto.value(t, SKOS.definition) is not None, t


CORE_CLASSES = """
    Work Juan Chapter Section Passage Record Commentary Opinion Witness Rite RitualAct
    ActionType Role RitualObject Place Commentator CitedWork Gloss TextualNote
"""
CORE_PROPERTIES = """
    order text normalizedText title commentsOn hasOpinion describesRite witness sourceFile
    charStart charEnd mentions agent actionType patient location source destination facing
    inSection evidence evidenceText commentator hasGloss glossTerm glossDefinition cites
    disputes endorses page nextAct repeats condition handles standsAt movesTo involves
    reports stepLabel
"""


def test_design_core_is_declared(onto: Graph) -> None:
    for c in CORE_CLASSES.split():
        assert (LJ[c], RDF.type, OWL.Class) in onto, c
    for p in CORE_PROPERTIES.split():
        assert (LJ[p], RDF.type, None) in onto, p


def test_alignment_axioms(onto: Graph) -> None:
    crm = "http://www.cidoc-crm.org/cidoc-crm/"
    assert (LJ.RitualAct, RDFS.subClassOf, URIRef(crm + "E7_Activity")) in onto
    assert (LJ.agent, RDFS.subPropertyOf, URIRef(crm + "P14_carried_out_by")) in onto
    assert (LJ.location, RDFS.subPropertyOf, URIRef(crm + "P7_took_place_at")) in onto
    assert (LJ.Commentator, RDFS.subClassOf, URIRef("http://xmlns.com/foaf/0.1/Person")) in onto
    assert (LJ.Opinion, RDFS.subClassOf, URIRef("http://www.w3.org/ns/prov#Entity")) in onto
    for c in ("Role", "RitualObject", "Place", "ActionType"):
        assert (LJ[c], RDFS.subClassOf, SKOS.Concept) in onto


def test_namespace_module_matches_the_ontology(onto: Graph) -> None:
    declared = {str(t)[len(NS) :] for t in own_terms(onto)}
    in_code = {name for name in LJ.__annotations__}
    assert declared == in_code


def test_every_lj_term_the_data_uses_is_declared(onto: Graph, seeds_db) -> None:
    from conftest import select

    used = select(
        seeds_db,
        "SELECT DISTINCT ?t WHERE { { ?s ?t ?o } UNION { ?s a ?t } "
        "FILTER(STRSTARTS(STR(?t), STR(lj:))) }",
    )
    declared = own_terms(onto)
    assert {URIRef(r["t"]) for r in used} <= declared


ERRNS = "http://www.daml.org/2002/03/agents/agent-ont#"


def owl_errors(g: Graph) -> list[str]:
    """Expand with OWL RL; owlrl records inconsistencies as ErrorMessage nodes."""
    import owlrl

    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics).expand(g)
    return [str(m) for m in g.objects(None, URIRef(ERRNS + "error"))]


def test_owl_rl_check_catches_a_contradiction(onto: Graph) -> None:
    g = Graph()
    g += onto
    bad = URIRef("https://example.org/both")
    g.add((bad, RDF.type, LJ.Passage))
    g.add((bad, RDF.type, LJ.Record))  # declared disjoint
    assert owl_errors(g) != []


def test_owl_rl_closure_is_consistent(onto: Graph) -> None:
    g = Graph()
    g += onto
    for f in vocabulary_files():
        g.parse(f, format="turtle")
    cat = load_catalog()
    docs = [read(p) for p in sorted(FIXTURES.glob("*.txt"))]
    for s, p, o, _ in Emitter(align(docs, cat), cat, Minter()).quads():
        if hasattr(o, "value"):
            o = Literal(o.value, lang=o.lang, datatype=URIRef(o.datatype) if o.datatype else None)
        g.add((s, p, o))
    assert owl_errors(g) == []
    # the closure did reason: a passage is an E33 linguistic object through lj:TextUnit
    crm = URIRef("http://www.cidoc-crm.org/cidoc-crm/E33_Linguistic_Object")
    assert any(True for _ in g.subjects(RDF.type, crm))
