"""The W3C SPARQL 1.1 Protocol tests, replayed against a real `kg serve` process.

The manifest (tests/conformance/sparql11-protocol/, a copy of ../shared/conformance/)
describes each test's HTTP requests and the expected status, result format and ASK value.
The three data graphs are loaded with `kg build --rdf GRAPH_IRI=FILE` under the graph names
the manifest gives. Every test that does not write must pass; the endpoint is read-only, so
each update test must be refused with 403 (its later requests read what the update would
have written, and are skipped).
"""

from __future__ import annotations

import csv
import io
import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import httpx
import pytest
from rdflib import Graph, Namespace
from rdflib.collection import Collection
from serving import ROOT, kg, kg_serve

# a copy of ../shared/conformance/sparql11-protocol/ (W3C test suite licence), so a clean
# checkout runs it; KG_PROTOCOL_TESTS points at another copy
SUITE = Path(
    os.environ.get("KG_PROTOCOL_TESTS", ROOT / "tests" / "conformance" / "sparql11-protocol")
)
MF = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
HT = Namespace("http://www.w3.org/2011/http#")
CNT = Namespace("http://www.w3.org/2011/content#")
UT = Namespace("http://www.w3.org/2009/sparql/tests/test-update#")
RDFS = Namespace("http://www.w3.org/2000/01/rdf-schema#")
UPDATE_TYPES = ("application/sparql-update",)
TABULAR = (
    "application/sparql-results+xml",
    "application/sparql-results+json",
    "text/csv",
    "text/tab-separated-values",
)
RDF_TYPES = {
    "application/rdf+xml": "xml",
    "text/turtle": "turtle",
    "application/n-triples": "nt",
    "text/plain": "nt",
}


def _manifest() -> tuple[Graph, list]:
    g = Graph().parse(SUITE / "manifest.ttl", format="turtle", publicID=SUITE.as_uri() + "/")
    manifest = next(g.subjects(MF.entries, None))
    return g, list(Collection(g, g.value(manifest, MF.entries)))


GRAPH, ENTRIES = _manifest()


def _requests(test) -> list[dict]:
    action = GRAPH.value(test, MF.action)
    out = []
    for req in Collection(GRAPH, GRAPH.value(action, HT.requests)):
        headers = {}
        for h in Collection(GRAPH, GRAPH.value(req, HT.headers) or _nil()):
            headers[str(GRAPH.value(h, HT.fieldName))] = str(GRAPH.value(h, HT.fieldValue))
        body = GRAPH.value(req, HT.body)
        resp = GRAPH.value(req, HT.resp)
        out.append(
            {
                "method": str(GRAPH.value(req, HT.methodName)),
                "path": str(GRAPH.value(req, HT.absolutePath)),
                "headers": headers,
                "body": str(GRAPH.value(body, CNT.chars)) if body else None,
                "encoding": str(GRAPH.value(body, CNT.characterEncoding) or "UTF-8")
                if body
                else None,
                "status": sorted(str(s)[-3:] for s in GRAPH.objects(resp, MF.expectedStatus)),
                "format": str(GRAPH.value(resp, MF.expectedFormat) or ""),
                "boolean": GRAPH.value(resp, MF.expectedBoolean),
            }
        )
    return out


def _nil():
    from rdflib.namespace import RDF

    return RDF.nil


def _writes(reqs: list[dict]) -> bool:
    first = reqs[0]
    ctype = first["headers"].get("content-type", "")
    return first["status"] != ["4xx"] and (
        ctype.startswith(UPDATE_TYPES) or (first["body"] or "").startswith("update=")
    )


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory: pytest.TempPathFactory):
    """`kg serve` over a small text plus the three protocol-test graphs."""
    work = tmp_path_factory.mktemp("conformance")
    graphs = []
    for graph in GRAPH.objects(None, UT.graphData):
        name = str(GRAPH.value(graph, RDFS.label))
        path = Path(str(GRAPH.value(graph, UT.graph)).removeprefix("file://"))
        graphs.append(f"{name}={path}")
    rdf = [a for g in sorted(set(graphs)) for a in ("--rdf", g)]
    assert len(rdf) == 6, "the manifest names three data graphs"
    source = ROOT / "tests" / "fixtures" / "plain_shaolao.txt"
    kg("build", "-q", "--source", str(source), "--store", str(work / "store"), *rdf)
    with kg_serve(work / "store", "--timeout", "20") as url:
        yield url


def _send(url: str, req: dict) -> httpx.Response:
    path = req["path"].replace("/sparql/", "/sparql/", 1)
    body = req["body"].encode(req["encoding"]) if req["body"] is not None else None
    return httpx.request(req["method"], url + path, headers=req["headers"], content=body)


def _check(r: httpx.Response, req: dict) -> None:
    what = f"{req['method']} {req['path']} → {r.status_code} {r.text[:300]}"
    assert f"{r.status_code // 100}xx" in req["status"], what
    ctype = r.headers.get("content-type", "").split(";")[0].strip()
    fmt = req["format"]
    if fmt == "boolean":
        assert ctype in TABULAR[:2], what
        if "json" in ctype:
            value = json.loads(r.text)["boolean"]
        else:
            ns = "{http://www.w3.org/2005/sparql-results#}"
            value = ET.fromstring(r.content).find(f"{ns}boolean").text == "true"  # type: ignore[union-attr]
        if req["boolean"] is not None:
            assert value == req["boolean"].toPython(), what
    elif fmt == "tabular":
        assert ctype in TABULAR, what
        if "json" in ctype:
            assert "vars" in json.loads(r.text)["head"], what
        elif "xml" in ctype:
            ET.fromstring(r.content)
        else:
            dialect = "excel-tab" if "tab" in ctype else "excel"
            assert next(csv.reader(io.StringIO(r.text), dialect=dialect)), what
    elif fmt == "RDF":
        assert ctype in RDF_TYPES, what
        Graph().parse(data=r.text, format=RDF_TYPES[ctype])


@pytest.mark.parametrize("test", ENTRIES, ids=[str(t).rsplit("#", 1)[-1] for t in ENTRIES])
def test_protocol(endpoint: str, test) -> None:
    reqs = _requests(test)
    if _writes(reqs):  # an update the read-only endpoint must refuse, clearly
        r = _send(endpoint, reqs[0])
        assert r.status_code == 403, r.text
        assert "read-only" in r.text
        return
    for req in reqs:
        _check(_send(endpoint, req), req)


def test_manifest_has_what_we_replay() -> None:
    writing = [t for t in ENTRIES if _writes(_requests(t))]
    assert len(ENTRIES) == 34
    assert len(writing) == 7  # the update_* tests; all 27 others are replayed in full
