"""Issue 18's server fixes, against a real `kg serve` over the seeds (with `kg docs` written
beside the store): a named graph's format links give its triples, a browser gets pages
(not RDF files) from the Graph Store, VoID and a shared query link, RDF clients still get
RDF, and the generated ontology page's own styles pass the CSP."""

from __future__ import annotations

import base64
import hashlib
import html
import re
from pathlib import Path

import httpx
import pyoxigraph as ox
import pytest
from serving import kg_serve_with_docs

from kg.store import graph_counts

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"
FORMATS = {"ttl": ox.RdfFormat.TURTLE, "nt": ox.RdfFormat.N_TRIPLES, "jsonld": ox.RdfFormat.JSON_LD}


@pytest.fixture(scope="module")
def served(seeds_store: Path, tmp_path_factory: pytest.TempPathFactory):
    """The seeds store seen through a folder of its own, with `kg docs` beside it."""
    with kg_serve_with_docs(seeds_store, tmp_path_factory.mktemp("site"), "--timeout", "20") as url:
        yield url


def _triples(body: bytes, fmt: ox.RdfFormat) -> int:
    return len(list(ox.parse(body, fmt)))


def _smallest_graphs(seeds_db, n: int = 2) -> list[tuple[str, int]]:
    return sorted(graph_counts(seeds_db).items(), key=lambda kv: kv[1])[:n]


def test_a_named_graphs_format_links_give_its_triples(served: str, seeds_db) -> None:
    for graph, count in _smallest_graphs(seeds_db):
        page = httpx.get(served + "/id/" + graph.split("/id/", 1)[1], headers={"Accept": BROWSER})
        assert page.status_code == 200
        links = [
            html.unescape(h).removeprefix(served) for h in re.findall(r'href="([^"]+)"', page.text)
        ]
        links = [h for h in links if h.startswith("/")]  # this server's
        wanted = [h for h in links if re.search(r"\.(ttl|nt|jsonld)$|format=(ttl|nt|jsonld)$", h)]
        assert len(wanted) >= 6, wanted  # "also as" ×3 and the Graph Store ×3
        for href in wanted:
            r = httpx.get(served + href, timeout=60)
            assert r.status_code == 200, href
            ext = re.search(r"(ttl|nt|jsonld)$", href).group(1)
            assert _triples(r.content, FORMATS[ext]) == count, href


def test_a_browser_at_the_graph_store_goes_to_the_graphs_page(served: str, seeds_db) -> None:
    graph, count = _smallest_graphs(seeds_db, 1)[0]
    r = httpx.get(f"{served}/graph-store", params={"graph": graph}, headers={"Accept": BROWSER})
    assert r.status_code == 303
    assert r.headers["location"] == "/id/" + graph.split("/id/", 1)[1]
    for accept in ("*/*", "text/turtle"):  # an RDF client still gets RDF
        rdf = httpx.get(
            f"{served}/graph-store", params={"graph": graph}, headers={"Accept": accept}
        )
        assert rdf.headers["content-type"].startswith("text/turtle")
        assert _triples(rdf.content, ox.RdfFormat.TURTLE) == count
    foreign = httpx.get(
        f"{served}/graph-store",
        params={"graph": "http://example.org/g"},
        headers={"Accept": BROWSER},
    )
    assert foreign.status_code == 404 and "location" not in foreign.headers


def test_void_is_a_page_for_a_browser_and_rdf_for_a_client(served: str) -> None:
    page = httpx.get(f"{served}/.well-known/void", headers={"Accept": BROWSER})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    rdf = httpx.get(f"{served}/.well-known/void", headers={"Accept": "text/turtle"})
    assert rdf.headers["content-type"].startswith("text/turtle")
    shown = html.unescape(re.search(r"<pre[^>]*>(.*?)</pre>", page.text, re.S).group(1))
    assert _triples(shown.encode(), ox.RdfFormat.TURTLE) == _triples(rdf.content, FORMATS["ttl"])
    for ext in FORMATS:  # the page's links give each format
        assert f"?format={ext}" in page.text
        r = httpx.get(f"{served}/.well-known/void?format={ext}", headers={"Accept": BROWSER})
        assert _triples(r.content, FORMATS[ext]) == _triples(rdf.content, FORMATS["ttl"])


def test_a_shared_query_link_opens_the_editor_in_a_browser(served: str) -> None:
    query = "SELECT ?c WHERE { ?c a lj:Chapter }"
    r = httpx.get(f"{served}/sparql", params={"query": query}, headers={"Accept": BROWSER})
    assert r.status_code == 303
    editor = httpx.get(served + r.headers["location"])
    assert editor.status_code == 200 and 'id="editor-config"' in editor.text
    assert httpx.URL(served + r.headers["location"]).params["query"] == query
    for accept, headers in (("*/*", {}), (BROWSER, {"format": "json"})):  # clients: results
        res = httpx.get(f"{served}/sparql", params={"query": query, **headers},
                        headers={"Accept": accept})  # fmt: skip
        assert res.status_code == 200 and "results" in res.json()


def test_the_generated_ontology_page_styles_pass_the_csp(served: str) -> None:
    r = httpx.get(f"{served}/ontology", headers={"Accept": BROWSER})
    styles = re.findall(r"<style>(.*?)</style>", r.text, re.S)
    assert styles, "the kg docs page is not the one served"
    csp = r.headers["content-security-policy"]
    allowed = re.search(r"style-src ([^;]+)", csp).group(1).split()
    for css in styles:
        digest = base64.b64encode(hashlib.sha256(css.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in allowed
    assert "'unsafe-inline'" not in csp and "script-src 'self';" in csp
    home = httpx.get(f"{served}/", headers={"Accept": BROWSER})
    assert "sha256" not in home.headers["content-security-policy"]


def test_the_generated_ontology_page_has_the_search_box_too(served: str) -> None:
    r = httpx.get(f"{served}/ontology", headers={"Accept": BROWSER})
    assert "<style>" in r.text  # the kg docs page
    form = re.search(r'<form class="search" action="([^"]+)"[^>]*>\s*<input[^>]+name="q"', r.text)
    assert form
    target = httpx.URL(f"{served}/ontology").join(form.group(1))
    assert httpx.get(target, params={"q": "司射"}).status_code == 200
