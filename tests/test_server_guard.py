"""What the server reads in a query before running it, content negotiation, and the
workers' network isolation: fast checks without a server."""

from __future__ import annotations

import multiprocessing as mp
import socket

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
    "SELECT * { ?s ?p ?o LATERAL { SERVICE <http://x/> { ?s ?p ?o } } }",
    # a comment ends at a carriage return for Oxigraph (rdflib read on to the line feed)
    "SELECT * { # x\r SERVICE <http://x/> { ?s ?p ?o } }",
    "SELECT * { # x\r\nSERVICE <http://x/> { } }",
    # an escape is read once: the string ends at the second quote, SERVICE is code
    r'SELECT * { BIND("\u005Cu0022" AS ?x) SERVICE <http://x/> { } } # "',
    r"SELECT * { BIND('\\' AS ?x) SERVICE <http://x/> { } } # '",
    # Oxigraph needs no word boundary after a keyword
    "PREFIX service: <http://x/> SELECT * { service:a { } }",
    "PREFIX service: <http://x/> SELECT * { ?s service:p ?o }",  # refused with the prefix
    "PREFIX ex: <http://x/> SELECT * { SERVICEex:a { } }",
    "SELECT * { ?s ?p trueSERVICE <http://x/> { } }",
    "SELECT * { ?s ?p ?o .service<http://x/>{} }",
    "SELECT * { ?s ?p 1SERVICE <http://x/> { } }",
    # '<' read as less-than, then SERVICE, then a comment hiding the '>' that made an IRI
    "SELECT * { BIND(1 AS ?a) FILTER(?a<?b)SERVICE#>\n<http://x/> { } }",
    "SELECT * { FILTER(?a<'>')SERVICE<http://x/>{} FILTER('x') }",
    "SELECT * { FILTER(?a<x#>'''\n)SERVICE<http://x/>{} #''' }",
    # escaped as the grammar says (spargebra's standard-unicode-escaping reads SERVICE)
    r"SELECT * { \u0073ervice <http://x/> { } }",
    # the same reading ends this string at the escape: refused, as a spec reader would run it
    r"SELECT * { ?s ?p 'SERVICE \u0027 SERVICE' }",
]
NOT_SERVICE = [
    'SELECT * { ?s ?p "SERVICE <http://x/> { }" }',
    "SELECT * { ?s ?p ?o } # SERVICE <http://x/> { ?s ?p ?o }",
    "PREFIX schema: <http://schema.org/> SELECT * { ?s a schema:Service ; schema:serviceType ?t }",
    "SELECT * { ?s a <http://schema.org/Service> }",
    "SELECT ?service $Service { ?service ?p $Service }",
    r'SELECT * { ?s ?p "a \" SERVICE <http://x/> {} \"" }',
    r"SELECT * { ?s ?p 'SERVICE \u0041 SERVICE' }",
    "SELECT * { ?s ?p '''SERVICE ' '' SERVICE''' }",
    "SELECT * { ?s <http://x/#a> ?o } # SERVICE\r",
    r"PREFIX ex: <http://x/> SELECT * { ?s ex:a\#SERVICE ?o }",
    "SELECT ?service { ?service a <http://x/Service> }",
    "SELECT * { <http://x/SERVICE> ?p ?o }",
    "SELECT * { ?s ?p '''multi\nline SERVICE <http://x/> {}''' }",
]


@pytest.mark.parametrize("query", SERVICE)
def test_service_found(query: str) -> None:
    seen = inspect_query(query)
    assert seen.service or seen.unreadable


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


# -- the guard against Oxigraph itself: whatever Oxigraph would send, the guard refuses ------

TARGET = "<http://127.0.0.1:9/>"  # a port Oxigraph refuses to contact: the error proves intent
# pieces of a group pattern that hide what follows, or seem to: comments and their line ends,
# strings with escapes and quotes, IRIs with '#' and quotes, '<' as less-than
SEGMENTS = [
    "# x\r", "# x\n", "# x\r\n", "#\r", " ", "\t", "\n", "\r", "{}", "FILTER(true)",
    'BIND("\\u005Cu0022" AS ?c)', "BIND('\\\\' AS ?d)", 'BIND("#" AS ?e)',
    "BIND('''a\n'b''' AS ?f)", "BIND('\\u0027' AS ?g)", 'BIND("""x"y""" AS ?h)',
    "FILTER(?a<2)", "FILTER(?a<'>')",
    "?s ?p <urn:x#'> .", "?s <urn:p> ?o .", "?s ?p ex:a\\#b .", "OPTIONAL { ?s ?p ?o }",
]  # fmt: skip
KEYWORDS = ["SERVICE", "service", "SeRvIcE", "SERVICE SILENT", "SERVICE\r", "SERVICE#x\n"]
GLUE = ["", " ", "true", "1", ".", ")", "\\u0053ERVICE"]
JUNK = ['"', "'", "#", "<", ">", "\\", "'''", '"""', "\r", "\n", "\\u0022", "\\u0027", ")"]
PROLOGUE = "PREFIX ex: <urn:x#> PREFIX : <http://127.0.0.1:9/> SELECT * { BIND(1 AS ?a) "


@st.composite
def hidden_service(draw: st.DrawFn) -> str:
    """SERVICE to the target after, between and before pieces that may hide it, with stray
    quotes, comment marks and escapes dropped in anywhere."""
    before = draw(st.lists(st.sampled_from(SEGMENTS), max_size=4))
    after = draw(st.lists(st.sampled_from(SEGMENTS), max_size=2))
    unit = [draw(st.sampled_from(GLUE)) + draw(st.sampled_from(KEYWORDS)), " ", TARGET, "{}"]
    parts = [*before, *unit, *after]
    for _ in range(draw(st.integers(0, 2))):
        parts.insert(draw(st.integers(0, len(parts))), draw(st.sampled_from(JUNK)))
    return PROLOGUE + "".join(parts) + " }"


def _sends(store, query: str) -> bool:
    try:
        result = store.query(query)
        list(result) if not isinstance(result, bool) and hasattr(result, "__iter__") else None
    except (SyntaxError, OSError, ValueError, RuntimeError) as e:
        return "port 9" in str(e)
    return False


@pytest.fixture(scope="module")
def oxstore():
    import pyoxigraph as ox

    store = ox.Store()
    s, p = ox.NamedNode("urn:s"), ox.NamedNode("urn:p")
    for o in (ox.Literal(1), ox.Literal(True), ox.Literal("x"), ox.NamedNode("urn:o")):
        store.add(ox.Quad(s, p, o))
    return store


def test_oxigraph_reads_service_where_the_guard_does(oxstore) -> None:
    """Known shapes: Oxigraph does try to send each of them (so refusing them matters)."""
    for query in (
        "SELECT * { # x\r SERVICE <http://127.0.0.1:9/> { } }",
        r'SELECT * { BIND("\u005Cu0022" AS ?x) SERVICE <http://127.0.0.1:9/> { } } # "',
        "PREFIX : <http://127.0.0.1:9/> SELECT * { service:a { } }",
        "SELECT * { BIND(1 AS ?a) FILTER(?a<2)SERVICE#>\n<http://127.0.0.1:9/> { } }",
        "SELECT * { ?s ?p trueSERVICE <http://127.0.0.1:9/> { } }",
    ):
        assert _sends(oxstore, query), query
        assert inspect_query(query).service, query


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hidden_service())
def test_no_query_oxigraph_would_send_passes_the_guard(oxstore, query: str) -> None:
    seen = inspect_query(query)
    if not (seen.service or seen.unreadable):
        assert not _sends(oxstore, query), query
