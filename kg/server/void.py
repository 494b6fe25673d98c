"""The dataset described in VoID (``/.well-known/void``) and the SPARQL service description
(``GET /sparql`` without a query), built with rdflib from the store's counts."""

from __future__ import annotations

from typing import Any

from rdflib import BNode, Graph, Literal, Namespace, URIRef
from rdflib.namespace import DCTERMS, FOAF, RDF, XSD
from starlette.requests import Request

from kg.rdf.formats import RDF_FORMATS
from kg.rdf.namespaces import ONTOLOGY
from kg.rdf.prefixes import PREFIXES
from kg.server.formats import DUMPS
from kg.text.work import load_work

VOID = Namespace("http://rdfs.org/ns/void#")
SD = Namespace("http://www.w3.org/ns/sparql-service-description#")


def _description() -> tuple[str, str]:
    """The dataset's title and description, naming the book and its author from ontology/."""
    work = load_work()
    title = work.title
    description = (
        f"The text of {title} ({work.author.english}, Qing), his commentary on the Yili (仪礼), "
        "as linked data: juan, chapters, sections, passages and records of the classic, the "
        "commentary blocks on them and the voices in each (Zheng Xuan, Jia Gongyan, Ao Jigong, "
        "Hao Jing, the author …), the witnesses that carry each unit, and SKOS vocabularies of "
        "rites, roles, ritual objects, places, actions, commentators and cited works."
    )
    return f"{title} knowledge graph", description


def _root(request: Request) -> str:
    return str(request.url_for("home"))


def _graph(stats: dict[str, Any]) -> Graph:
    g = Graph()
    g.bind("void", VOID)
    g.bind("sd", SD)
    g.bind("dcterms", DCTERMS)
    g.bind("lj", PREFIXES["lj"])
    g.bind("ljd", stats["base"])
    return g


def void_graph(request: Request, stats: dict[str, Any]) -> Graph:
    root = _root(request)
    g = _graph(stats)
    ds = URIRef(root + ".well-known/void#dataset")
    g.add((ds, RDF.type, VOID.Dataset))
    title, description = _description()
    g.add((ds, DCTERMS.title, Literal(title, lang="en")))
    g.add((ds, DCTERMS.description, Literal(description, lang="en")))
    g.add((ds, DCTERMS.license, URIRef("https://creativecommons.org/licenses/by/4.0/")))
    g.add((ds, FOAF.homepage, URIRef(root)))
    g.add((ds, VOID.sparqlEndpoint, URIRef(str(request.url_for("sparql")))))
    g.add((ds, VOID.uriSpace, Literal(stats["base"])))
    g.add((ds, VOID.triples, Literal(stats["triples"], datatype=XSD.integer)))
    g.add((ds, VOID.distinctSubjects, Literal(stats["subjects"], datatype=XSD.integer)))
    g.add((ds, VOID.distinctObjects, Literal(stats["objects"], datatype=XSD.integer)))
    g.add((ds, VOID.classes, Literal(len(stats["classes"]), datatype=XSD.integer)))
    g.add((ds, VOID.properties, Literal(len(stats["properties"]), datatype=XSD.integer)))
    if "work" in stats["examples"]:
        g.add((ds, VOID.rootResource, URIRef(stats["examples"]["work"])))
    for iri in stats["examples"].values():
        g.add((ds, VOID.exampleResource, URIRef(iri)))
    for name in DUMPS:
        g.add((ds, VOID.dataDump, URIRef(f"{root}download/{name}")))
    used = list(stats["classes"]) + list(stats["properties"])
    for ns in sorted({ns for ns in PREFIXES.values() if any(u.startswith(ns) for u in used)}):
        g.add((ds, VOID.vocabulary, URIRef(ONTOLOGY if ns == PREFIXES["lj"] else ns)))
    for cls, n in stats["classes"].items():
        part = BNode()
        g.add((ds, VOID.classPartition, part))
        g.add((part, VOID["class"], URIRef(cls)))
        g.add((part, VOID.entities, Literal(n, datatype=XSD.integer)))
    for prop, n in stats["properties"].items():
        part = BNode()
        g.add((ds, VOID.propertyPartition, part))
        g.add((part, VOID.property, URIRef(prop)))
        g.add((part, VOID.triples, Literal(n, datatype=XSD.integer)))
    for graph_iri, n in stats["graphs"].items():
        sub = URIRef(graph_iri)
        g.add((ds, VOID.subset, sub))
        g.add((sub, RDF.type, VOID.Dataset))
        g.add((sub, RDF.type, SD.NamedGraph))
        g.add((sub, SD.name, sub))
        g.add((sub, VOID.triples, Literal(n, datatype=XSD.integer)))
        g.add((sub, VOID.dataDump, URIRef(f"{root}graph-store?graph={_quote(graph_iri)}")))
    return g


def service_graph(request: Request, stats: dict[str, Any]) -> Graph:
    g = _graph(stats)
    endpoint = URIRef(str(request.url_for("sparql")))
    svc = URIRef(str(endpoint) + "#service")
    g.add((svc, RDF.type, SD.Service))
    g.add((svc, SD.endpoint, endpoint))
    g.add((svc, SD.supportedLanguage, SD.SPARQL11Query))
    g.add((svc, SD.feature, SD.UnionDefaultGraph))
    for fmt in (
        "SPARQL_Results_JSON",
        "SPARQL_Results_XML",
        "SPARQL_Results_CSV",
        "SPARQL_Results_TSV",
        "Turtle",
        "N-Triples",
        "RDF_XML",
        "JSON-LD",
    ):
        g.add((svc, SD.resultFormat, URIRef(f"http://www.w3.org/ns/formats/{fmt}")))
    dataset = BNode()
    g.add((svc, SD.defaultDataset, dataset))
    g.add((dataset, RDF.type, SD.Dataset))
    g.add((dataset, VOID.triples, Literal(stats["triples"], datatype=XSD.integer)))
    for graph_iri, n in stats["graphs"].items():
        named = BNode()
        g.add((dataset, SD.namedGraph, named))
        g.add((named, SD.name, URIRef(graph_iri)))
        g.add((named, VOID.triples, Literal(n, datatype=XSD.integer)))
    g.add(
        (
            svc,
            DCTERMS.description,
            Literal(
                "Read-only: SPARQL Update and SERVICE are refused; queries have a time limit and "
                "a result cap; the default graph is the union of the named graphs.",
                lang="en",
            ),
        )
    )
    return g


def _quote(iri: str) -> str:
    from urllib.parse import quote

    return quote(iri, safe="")


def serialize(g: Graph, fmt: str) -> bytes:
    out = g.serialize(format=RDF_FORMATS[fmt].rdflib)
    return out.encode("utf-8") if isinstance(out, str) else out


def void_description(request: Request, stats: dict[str, Any], fmt: str) -> bytes:
    return serialize(void_graph(request, stats), fmt)


def service_description(request: Request, stats: dict[str, Any], fmt: str) -> bytes:
    return serialize(service_graph(request, stats), fmt)
