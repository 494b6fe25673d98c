"""Linked data from `kg serve` over the seeds: every kind of IRI dereferences (HTML for
browsers, RDF by Accept or suffix), pages show text, voices and mentions, the ontology,
VoID, dumps and per-graph downloads are complete. Expected values come from the store."""

from __future__ import annotations

import gzip
import html
import json
import re
from pathlib import Path
from urllib.parse import unquote

import httpx
import pyoxigraph as ox
import pytest
from rdflib import Graph, Literal, Namespace, URIRef
from serving import kg_serve

from kg.queries import list_queries
from kg.rdf.namespaces import LJ
from kg.resources import ontology_dir
from kg.server.dumps import DUMPS
from kg.store import class_counts, graph_counts, store_base

from conftest import select

VOID = Namespace("http://rdfs.org/ns/void#")
HREF = re.compile(r'href="(/id/[^"#]+)"')


@pytest.fixture(scope="module")
def url(seeds_store: Path):
    with kg_serve(seeds_store, "--timeout", "20") as base:
        yield base


@pytest.fixture(scope="module")
def base(seeds_db) -> str:
    return store_base(seeds_db)


def local(iri: str, base: str) -> str:
    return "/id/" + iri[len(base) :]


def test_home_page(url: str, seeds_db) -> None:
    r = httpx.get(url + "/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    total = sum(graph_counts(seeds_db).values())
    assert f"{total:,}" in r.text
    for cls, n in class_counts(seeds_db).items():
        assert f"{n:,}" in r.text, cls
    for q in list_queries():
        assert f'/editor?name={q.name}"' in r.text  # each named query opens in the editor
    for name in DUMPS:
        assert f'href="{url}/download/{name}"' in r.text
    assert 'name="viewport"' in r.text  # usable on a phone


def _quads(data: bytes, fmt: ox.RdfFormat) -> list:
    return list(ox.parse(data, format=fmt))


@pytest.mark.parametrize("name", list(DUMPS))
def test_dumps(url: str, seeds_db, name: str) -> None:
    r = httpx.get(f"{url}/download/{name}", timeout=120)
    assert r.status_code == 200, r.text
    assert f'filename="{name}"' in r.headers["content-disposition"]
    data = gzip.decompress(r.content) if name.endswith(".gz") else r.content
    if name.endswith(".gz"):
        assert r.headers["content-type"] == "application/gzip"
        assert len(r.content) < len(data) / 3
    ext = name.removesuffix(".gz").rsplit(".", 1)[1]
    fmt = ox.RdfFormat.from_extension(ext)
    assert fmt is not None
    quads = _quads(data, fmt)
    if fmt.supports_datasets:
        assert len(quads) == sum(graph_counts(seeds_db).values())
        assert {str(q.graph_name.value) for q in quads} == set(graph_counts(seeds_db))
    else:  # Turtle: the union of the graphs as triples
        n = select(seeds_db, "SELECT (COUNT(*) AS ?n) { SELECT DISTINCT ?s ?p ?o { ?s ?p ?o } }")
        assert len(set(quads)) == int(n[0]["n"])
    again = httpx.get(f"{url}/download/{name}", timeout=30)
    assert again.content == r.content  # cached beside the store


def test_unknown_dump_is_404(url: str) -> None:
    assert httpx.get(f"{url}/download/lijing.csv").status_code == 404


def _samples(db) -> list[str]:
    """Up to three instances of every class whose IRIs we mint, plus the named graphs."""
    base = store_base(db)
    out = []
    for cls in class_counts(db):
        rows = select(
            db,
            f"""SELECT DISTINCT ?s WHERE {{ ?s a <{cls}> FILTER(STRSTARTS(STR(?s), STR(ljd:))) }}
                ORDER BY ?s LIMIT 3""",
        )
        out += [r["s"] for r in rows]
    return sorted(set(out)) + [g for g in graph_counts(db) if g.startswith(base)]


def test_every_kind_of_iri_dereferences(url: str, seeds_db, base: str) -> None:
    samples = _samples(seeds_db)
    assert len(samples) > 40
    with httpx.Client(base_url=url, timeout=30) as client:
        for iri in samples:
            path = local(iri, base)
            page = client.get(path)
            assert page.status_code == 200, iri
            assert page.headers["content-type"].startswith("text/html")
            assert html.escape(iri) in page.text
            if iri in graph_counts(seeds_db):
                assert f"{graph_counts(seeds_db)[iri]:,} triples" in page.text
                continue
            ttl = client.get(path, headers={"Accept": "text/turtle"})
            assert ttl.headers["content-type"].startswith("text/turtle")
            g = Graph().parse(data=ttl.text, format="turtle")
            assert (URIRef(iri), None, None) in g or (None, None, URIRef(iri)) in g
            jsonld = client.get(path + ".jsonld")
            assert jsonld.headers["content-type"].startswith("application/ld+json")
            assert iri in {node.get("@id") for node in json.loads(jsonld.text)}
            assert "Accept" in ttl.headers["vary"]


def test_unknown_iri_is_404(url: str) -> None:
    r = httpx.get(f"{url}/id/no/such/thing")
    assert r.status_code == 404 and "no/such/thing" in r.text
    r = httpx.get(f"{url}/id/no/such/thing.ttl")
    assert r.status_code == 404


def _passage_with_voices_and_mentions(db) -> str:
    rows = select(
        db,
        """SELECT ?p (COUNT(DISTINCT ?o) AS ?n) WHERE {
             ?c lj:commentsOn ?p ; lj:hasOpinion ?o . ?p a lj:Passage .
             ?m lj:inUnit ?p } GROUP BY ?p ORDER BY DESC(?n) ?p LIMIT 1""",
    )
    assert rows and int(rows[0]["n"]) >= 2, "the seeds have a passage with several voices"
    return rows[0]["p"]


def test_passage_page_text_voices_mentions(url: str, seeds_db, base: str) -> None:
    p = _passage_with_voices_and_mentions(seeds_db)
    page = httpx.get(url + local(p, base)).text
    text = select(seeds_db, f"SELECT ?t WHERE {{ <{p}> lj:text ?t }}")[0]["t"]
    mentions = select(
        seeds_db,
        f"""SELECT ?s ?e ?c WHERE {{ ?m lj:inUnit <{p}> ; lj:charStart ?s ; lj:charEnd ?e ;
              lj:mentionOf ?c }} ORDER BY ?s""",
    )
    assert mentions
    text_section = page.split("<h2>Text</h2>", 1)[1].split("</section>", 1)[0]
    for m in mentions:
        span = text[int(m["s"]) : int(m["e"])]
        assert f'href="{local(m["c"], base)}"' in text_section
        assert f">{html.escape(span)}</a>" in text_section
    plain = re.sub(r"<[^>]+>", "", text_section)
    assert html.escape(text) in plain  # the whole text, in order, around the highlights
    voices = select(
        seeds_db,
        f"""SELECT ?o ?t ?who WHERE {{ ?c lj:commentsOn <{p}> ; lj:hasOpinion ?o .
              ?o lj:text ?t ; lj:order ?n ; lj:commentator ?w . ?w rdfs:label ?who
              FILTER(LANG(?who) = "lzh") }} ORDER BY ?c ?n""",
    )
    commentary = re.sub(r"<[^>]+>", "", page.split("<h2>Commentary</h2>", 1)[1])
    at = 0
    for v in voices:
        at = commentary.index(html.escape(v["t"]), at)  # each voice's words, in order
        assert v["who"] in commentary


def test_passage_page_lists_its_acts_in_order(url: str, seeds_db, base: str) -> None:
    p = _passage_with_voices_and_mentions(seeds_db)
    acts = select(
        seeds_db,
        f"""SELECT ?a ?words (SAMPLE(?w) AS ?who) WHERE {{ ?a lj:evidence <{p}> ;
              lj:order ?n ; lj:evidenceText ?words
              OPTIONAL {{ ?a lj:agent/skos:prefLabel ?w FILTER(LANG(?w) = "lzh") }} }}
              GROUP BY ?a ?words ?n ORDER BY ?n""",
    )
    assert acts
    page = httpx.get(url + local(p, base)).text
    table = page.split("<h2>Ritual acts</h2>", 1)[1].split("</section>", 1)[0]
    rows = table.split("<tr>")[2:]  # after the header row
    assert len(rows) == len(acts)
    for row, act in zip(rows, acts, strict=True):
        assert f'href="{local(act["a"], base)}"' in row
        assert html.escape(act["words"]) in row  # the words of the text, in reading order
        if act.get("who"):
            assert act["who"] in row


def test_opinion_page_highlights_the_mentions_of_its_block(url: str, seeds_db, base: str) -> None:
    rows = select(
        seeds_db,
        """SELECT ?o ?t ?ms ?me ?os ?concept WHERE {
             ?c lj:hasOpinion ?o . ?o lj:text ?t ; lj:charStart ?os ; lj:charEnd ?oe .
             ?m lj:inUnit ?c ; lj:charStart ?ms ; lj:charEnd ?me ; lj:mentionOf ?concept .
             FILTER(?ms >= ?os && ?me <= ?oe) } ORDER BY ?o ?ms LIMIT 1""",
    )
    assert rows, "the seeds have a mention inside an opinion"
    r = rows[0]
    page = httpx.get(url + local(r["o"], base)).text
    text_section = page.split("<h2>Text</h2>", 1)[1].split("</section>", 1)[0]
    start = int(r["ms"]) - int(r["os"])
    span = r["t"][start : start + int(r["me"]) - int(r["ms"])]
    assert f'href="{local(r["concept"], base)}"' in text_section
    assert f">{html.escape(span)}</a>" in text_section


def test_links_on_a_page_all_resolve(url: str, seeds_db, base: str) -> None:
    chapter = select(seeds_db, "SELECT ?c WHERE { ?c a lj:Chapter } ORDER BY ?c LIMIT 1")[0]["c"]
    page = httpx.get(url + local(chapter, base)).text
    links = sorted({unquote(h) for h in HREF.findall(page)})
    assert len(links) > 10
    with httpx.Client(base_url=url, timeout=30) as client:
        for href in links:
            assert client.get(href).status_code == 200, href


def test_ontology(url: str) -> None:
    ttl = httpx.get(f"{url}/ontology", headers={"Accept": "text/turtle"})
    assert ttl.content == (ontology_dir() / "lijing.ttl").read_bytes()
    page = httpx.get(f"{url}/ontology", headers={"Accept": "text/html"})
    assert page.status_code == 200
    g = Graph().parse(data=ttl.text, format="turtle")
    terms = {str(s)[len(str(LJ)) :] for s in g.subjects() if str(s).startswith(str(LJ))}
    for name in terms:
        assert f'id="{name}"' in page.text, name
    jsonld = httpx.get(f"{url}/ontology.jsonld")
    assert len(Graph().parse(data=jsonld.text, format="json-ld")) == len(g)


def test_ontology_terms_link_to_their_definitions(url: str, seeds_db, base: str) -> None:
    p = select(seeds_db, "SELECT ?p WHERE { ?p a lj:Passage } ORDER BY ?p LIMIT 1")[0]["p"]
    page = httpx.get(url + local(p, base)).text
    assert 'href="/ontology#Passage"' in page


def test_void(url: str, seeds_db) -> None:
    r = httpx.get(f"{url}/.well-known/void")
    assert r.headers["content-type"].startswith("text/turtle")
    g = Graph().parse(data=r.text, format="turtle")
    ds = next(g.subjects(None, VOID.Dataset))
    counts = graph_counts(seeds_db)
    assert g.value(ds, VOID.triples) == Literal(sum(counts.values()))
    assert len(list(g.objects(ds, VOID.classPartition))) == len(class_counts(seeds_db))
    for graph, n in counts.items():
        assert (ds, VOID.subset, URIRef(graph)) in g
        assert g.value(URIRef(graph), VOID.triples) == Literal(n)
    vocabularies = {str(v) for v in g.objects(ds, VOID.vocabulary)}
    assert "https://w3id.org/lijing/ontology" in vocabularies
    assert "http://www.w3.org/2004/02/skos/core#" in vocabularies
    dumps = [str(d) for d in g.objects(ds, VOID.dataDump)]
    assert len(dumps) == len(DUMPS) and all(d.startswith(url) for d in dumps)
    assert g.value(ds, VOID.sparqlEndpoint) == URIRef(f"{url}/sparql")


def test_graph_store_get(url: str, seeds_db) -> None:
    for graph, n in graph_counts(seeds_db).items():
        r = httpx.get(f"{url}/graph-store", params={"graph": graph},
                      headers={"Accept": "application/n-triples"}, timeout=60)  # fmt: skip
        assert r.status_code == 200
        assert len(_quads(r.content, ox.RdfFormat.N_TRIPLES)) == n
    missing = httpx.get(f"{url}/graph-store", params={"graph": "http://example.org/none"})
    assert missing.status_code == 404
