"""What the server reads in a query before running it, content negotiation, and the
workers' network isolation: fast checks without a server."""

from __future__ import annotations

import multiprocessing as mp
import socket

import pytest

from kg.server.formats import GRAPH_TYPES, PAGE_TYPES, RESULT_TYPES, negotiate
from kg.server.guard import inspect_query, unescape
from kg.server.worker import isolate_network

SERVICE = [
    "SELECT * WHERE { SERVICE <http://127.0.0.1:1/> { ?s ?p ?o } }",
    "select * { service silent <http://x/> { ?s ?p ?o } }",
    "SELECT * { ?a ?b ?c OPTIONAL { SELECT * { SERVICE ?svc { ?s ?p ?o } } } }",
    r"SELECT * { \u0053\u0045RVICE <http://x/> { ?s ?p ?o } }",
    r"SELECT * { \U00000053ERVICE <http://x/> { ?s ?p ?o } }",
    "ASK{SERVICE<http://x/>{?s ?p ?o}}",
    "SELECT * { { ?s ?p ?o } UNION { SERVICE <http://x/> { ?s ?p ?o } } }",
    "SELECT * { ?s ?p ?o . FILTER EXISTS { SERVICE <http://x/> { ?s ?p ?o } } }",
    "CONSTRUCT { ?s ?p ?o } WHERE { SERVICE <http://x/> { ?s ?p ?o } }",
    # not rdflib's SPARQL (Oxigraph's LATERAL): the keyword check still refuses it
    "SELECT * { ?s ?p ?o LATERAL { SERVICE <http://x/> { ?s ?p ?o } } }",
]
NOT_SERVICE = [
    'SELECT * { ?s ?p "SERVICE <http://x/> { }" }',
    "SELECT * { ?s ?p ?o } # SERVICE <http://x/> { ?s ?p ?o }",
    "PREFIX service: <http://x/> SELECT * { ?s service:p ?o }",
    "SELECT ?service { ?service a <http://x/Service> }",
    "SELECT * { <http://x/SERVICE> ?p ?o }",
    "SELECT * { ?s ?p '''multi\nline SERVICE <http://x/> {}''' }",
]


@pytest.mark.parametrize("query", SERVICE)
def test_service_found(query: str) -> None:
    assert inspect_query(query).service


@pytest.mark.parametrize("query", NOT_SERVICE)
def test_service_not_found(query: str) -> None:
    assert not inspect_query(query).service


@pytest.mark.parametrize(
    ("query", "dataset"),
    [
        ("SELECT * FROM <http://g> { ?s ?p ?o }", True),
        ("SELECT * FROM NAMED <http://g> { GRAPH ?g { ?s ?p ?o } }", True),
        ("SELECT (1 AS ?x)FROM<http://g>{}", True),
        ("SELECT ?from { ?from <http://x/from> ?o }", False),
        ("PREFIX ex: <http://ex/> SELECT * { ?s ex:from ?o ; ex:a-from ?x }", False),
        ('SELECT * { ?s ?p "FROM <x>" } # FROM <x>', False),
    ],
)
def test_own_dataset(query: str, dataset: bool) -> None:
    assert inspect_query(query).dataset is dataset


@pytest.mark.parametrize(
    ("query", "update"),
    [
        ("INSERT DATA { <a:b> <a:c> <a:d> }", True),
        ("PREFIX x: <http://x/> BASE <http://y/> DELETE WHERE { ?s ?p ?o }", True),
        ("  clear all", True),
        ("LOAD <http://x/>", True),
        ("WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }", True),
        ("# INSERT\nSELECT * { ?s ?p ?o }", False),
        ("PREFIX insert: <http://x/> SELECT * { ?s insert:p ?o }", False),
    ],
)
def test_update_forms(query: str, update: bool) -> None:
    assert inspect_query(query).update is update


def test_unescape() -> None:
    assert unescape(r"\u0041\U00000042") == "AB"


@pytest.mark.parametrize(
    ("accept", "offers", "expected"),
    [
        (None, RESULT_TYPES, "application/sparql-results+json"),
        ("*/*", GRAPH_TYPES, "text/turtle"),
        ("application/json", GRAPH_TYPES, "application/json"),
        ("text/*;q=0.3, application/rdf+xml;q=0.9", GRAPH_TYPES, "application/rdf+xml"),
        ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", PAGE_TYPES,
         "text/html"),
        ("application/ld+json", PAGE_TYPES, "application/ld+json"),
        ("text/csv;q=0", RESULT_TYPES, None),
        ("image/png", GRAPH_TYPES, None),
    ],
)  # fmt: skip
def test_negotiate(accept: str | None, offers: dict, expected: str | None) -> None:
    assert negotiate(accept, offers) == expected


def _try_connect(port: int, out: mp.Queue) -> None:
    isolated = isolate_network()
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
        out.put((isolated, True))
    except OSError:
        out.put((isolated, False))


def test_isolated_worker_reaches_no_host() -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    proc = ctx.Process(target=_try_connect, args=(listener.getsockname()[1], out))
    proc.start()
    isolated, connected = out.get(timeout=60)
    proc.join(10)
    listener.close()
    if not isolated:
        pytest.skip("this OS does not allow a process its own network namespace")
    assert not connected
