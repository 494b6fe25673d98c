"""``kg validate``: the seeds and a hand-made chapter with acts and mentions conform; broken
data is caught with a readable report and exit code 1."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pyshacl import validate as pyshacl_validate
from rdflib import OWL, RDF, RDFS, Graph, Literal, Namespace, URIRef
from rdflib.namespace import SH

from kg.cli import cli
from kg.rdf.namespaces import LJ
from kg.resources import ontology_dir
from kg.store import RdfFile, build_store, open_store
from kg.validate import (
    check_ontology,
    check_shacl,
    load_ontology,
    load_shapes,
    split_shapes,
    store_graphs,
    validate_graph,
    validate_store,
)

from conftest import FIXTURES

ACTS = FIXTURES / "acts_mentions.trig"
GRAPH = "https://w3id.org/lijing/id/graph/"
T = Namespace("https://w3id.org/lijing/id/test/")
LJS = Namespace("https://w3id.org/lijing/shapes#")

# one of each kind of mistake, each on its own node
BROKEN = """
@prefix lj: <https://w3id.org/lijing/ontology#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@base <https://w3id.org/lijing/id/test/> .
<https://w3id.org/lijing/id/graph/acts> {
  <ceshili/qingshe/a9> a lj:RitualAct ; lj:actionType <action/qu> ; lj:order 9 ;
      lj:inSection <ceshili/qingshe> ; lj:evidence <ceshili/p/1> .
  <ceshili/qingshe/a8> a lj:RitualAct ; lj:agent <role/sishe> ; lj:actionType <action/qu> ;
      lj:order 8 ; lj:inSection <ceshili/qingshe> .
  <role/bin> lj:handles <object/gong> .
}
<https://w3id.org/lijing/id/graph/text> {
  <ceshili/p/3> a lj:Passage ; dcterms:isPartOf <ceshili/qingshe> ; lj:order 3 ;
      lj:text "无本之文"@en ; lj:normalizedText "无本之文"@lzh ; rdfs:label "无本之文"@lzh .
  <aaa> a lj:Passage , lj:Record .
  <ceshili/p/1> lj:foo "bar" .
}
<https://w3id.org/lijing/id/graph/mentions> {
  <ceshili/p/1/m9> a lj:Mention ; lj:mentionOf <place/xijie> ; lj:inUnit <ceshili/p/1> ;
      lj:charStart 0 ; lj:charEnd 2 ; lj:matchedText "西阶"@lzh .
  <ceshili/p/2> lj:mentions <object/gong> .
}
"""


def small_store(where: Path, *extra: Path) -> Path:
    """The ontology and the hand-made chapter (and ``extra`` files), without the text
    pipeline, so that what the extractors make of a text does not enter these tests."""
    store = where / "store"
    files = [RdfFile(ontology_dir() / "lijing.ttl", GRAPH + "ontology")]
    files += [RdfFile(p, f"{GRAPH}user/{p.stem}") for p in (ACTS, *extra)]
    build_store(store, [], files)
    return store


@pytest.fixture(scope="module")
def fx_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_store(tmp_path_factory.mktemp("valid"))


@pytest.fixture(scope="module")
def broken_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("broken")
    extra = where / "broken.trig"
    extra.write_text(BROKEN, encoding="utf-8")
    return small_store(where, extra)


@pytest.fixture(scope="module")
def broken_report(broken_store: Path):
    return validate_store(open_store(broken_store))


def test_the_seeds_conform(seeds_db) -> None:
    report = validate_store(seeds_db)
    violations = [f for c in report.checks for f in c.findings if f.severity == "Violation"]
    assert violations == [], violations[:10]
    assert report.ok
    assert [c.name for c in report.checks] == ["shacl", "terms", "ontology", "owlrl"]
    owl = report.checks[-1]
    assert not owl.skipped and "consistent" in owl.summary


def test_a_chapter_with_acts_and_mentions_conforms(fx_store: Path) -> None:
    report = validate_store(open_store(fx_store))
    assert report.ok, [f for c in report.checks for f in c.findings]
    assert "consistent" in report.checks[-1].summary


def found(report, check: str) -> set[tuple[str | None, str | None]]:
    c = next(c for c in report.checks if c.name == check)
    return {(f.focus, f.shape) for f in c.findings if f.severity == "Violation"}


@pytest.mark.parametrize(
    ("focus", "shape"),
    [
        (T["ceshili/qingshe/a9"], LJS.RitualAct),  # no agent and no note
        (T["ceshili/qingshe/a8"], LJS.RitualAct),  # no evidence
        (T["role/bin"], LJS.HandlesHasEvidence),  # a derived relation without its act
        (T["ceshili/p/3"], LJS.witnessed),  # a passage in no witness
        (T["ceshili/p/3"], LJS.textLzh),  # text tagged @en
        (T["ceshili/p/1/m9"], LJS.Mention),  # matched text not at its offsets
        (T["ceshili/p/2"], LJS.MentionsHaveEvidence),  # lj:mentions without a Mention
    ],
)
def test_broken_data_is_caught_by_the_shapes(broken_report, focus: URIRef, shape: URIRef) -> None:
    assert (str(focus), str(shape)) in found(broken_report, "shacl")


def test_an_undeclared_term_is_caught(broken_report) -> None:
    assert (str(LJ._NS) + "foo", None) in found(broken_report, "terms")


def test_a_contradiction_is_caught_by_owl_rl(broken_report) -> None:
    owl = next(c for c in broken_report.checks if c.name == "owlrl")
    assert not owl.ok
    assert any(str(T.aaa) in f.message and "Disjoint" in f.message for f in owl.findings)


def test_the_command_fails_with_a_grouped_report(broken_store: Path) -> None:
    r = CliRunner().invoke(cli, ["validate", "--store", str(broken_store), "--owl-sample", "0"])
    assert r.exit_code == 1, r.output
    assert "NOT valid" in r.output
    # grouped: shape · path: message (n nodes), then the focus nodes
    assert "ljsh:witnessed · lj:witness: needs at least one lj:witness" in r.output
    assert "<https://w3id.org/lijing/id/test/ceshili/p/3>" in r.output  # valid SPARQL
    assert "lj:foo" in r.output


def test_the_command_writes_a_shacl_report_in_turtle(broken_store: Path) -> None:
    r = CliRunner().invoke(
        cli, ["validate", "--store", str(broken_store), "--owl-sample", "0", "-f", "turtle"]
    )
    assert r.exit_code == 1
    g = Graph().parse(data=r.stdout, format="turtle")
    report = next(g.subjects(RDF.type, SH.ValidationReport))
    assert g.value(report, SH.conforms) == Literal(False)
    results = list(g.objects(report, SH.result))
    assert len(results) >= 9
    assert (None, SH.focusNode, T["ceshili/qingshe/a9"]) in g


def test_the_command_passes_a_good_store(fx_store: Path) -> None:
    r = CliRunner().invoke(cli, ["validate", "--store", str(fx_store), "--owl-sample", "0"])
    assert r.exit_code == 0, r.output
    assert "valid: 0 violations" in r.output


def test_sparql_constraints_give_what_pyshacl_gives_per_focus_node(broken_store: Path) -> None:
    """The whole-graph rewriting of the SPARQL constraints finds what pySHACL finds running
    them once per focus node."""
    data, _, _ = store_graphs(open_store(broken_store))
    shapes = load_shapes()
    _, sparql = split_shapes(shapes)
    only_sparql = Graph()
    for t in shapes:
        only_sparql.add(t)
    for s in list(only_sparql.subjects(RDF.type, SH.NodeShape)):
        if (s, SH.sparql, None) not in only_sparql:
            for p in (SH.targetClass, SH.targetSubjectsOf):
                only_sparql.remove((s, p, None))
    _, results, _ = pyshacl_validate(data, shacl_graph=only_sparql, inference="none")
    theirs = {
        (str(results.value(r, SH.focusNode)), str(results.value(r, SH.resultMessage)))
        for r in results.subjects(SH.sourceConstraintComponent, SH.SPARQLConstraintComponent)
    }
    messages = {c.message for c in sparql}
    ours = {(f.focus, f.message) for f in check_shacl(data, only_sparql).findings}
    assert theirs == {x for x in ours if x[1] in messages}
    assert len(theirs) >= 3


def test_an_rdflib_graph_validates_directly() -> None:
    g = Graph()
    g += load_ontology()
    op = T.op
    g.add((op, RDF.type, LJ.Opinion))  # no commentator, no unit, no offsets
    g.add((op, LJ.text, Literal("郑康成曰", lang="lzh")))
    gloss = T.gloss
    g.add((gloss, RDF.type, LJ.Gloss))  # no term, no definition, no opinion stating it
    report = validate_graph(g, owl_sample_size=0)
    shacl = {(f.focus, f.path) for f in report.checks[0].findings}
    for path in (LJ.commentator, LJ.inUnit, LJ.charStart, LJ.order):
        assert (str(op), str(path)) in shacl, path
    for path in (LJ.glossTerm, LJ.glossDefinition):
        assert (str(gloss), str(path)) in shacl, path
    assert (str(gloss), f"^{LJ.hasGloss}") in shacl
    assert not report.ok


def test_the_ontology_check_catches_undefined_and_unlabelled_terms() -> None:
    onto = load_ontology()
    assert check_ontology(onto).ok
    unlabelled, undeclared = (URIRef(str(LJ._NS) + n) for n in ("Unlabelled", "Undeclared"))
    onto.add((unlabelled, RDF.type, OWL.Class))
    onto.add((LJ.Passage, RDFS.subClassOf, undeclared))
    onto.add((LJ.Passage, RDFS.subClassOf, URIRef("http://example.org/Elsewhere")))
    problems = {(f.focus, f.message) for f in check_ontology(onto).findings}
    assert (str(unlabelled), "no rdfs:label @lzh") in problems
    assert (str(unlabelled), "no skos:definition") in problems
    assert (str(undeclared), "lj: term used in the ontology but not declared") in problems
    assert any(f == "http://example.org/Elsewhere" for f, _ in problems)
