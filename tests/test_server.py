"""`kg serve` as the SPARQL protocol's clients meet it: SPARQLWrapper, rdflib's SPARQLStore,
plain HTTP for statuses and headers, and the malicious inputs a public endpoint gets.

One real server process (2 workers, 5 s timeout, 50-row cap) over a small text plus two
`--rdf` files; expected answers come from the same store, opened in-process.
"""

from __future__ import annotations

import contextlib
import json
import select
import socket
import threading
import time
from pathlib import Path

import httpx
import pytest
from rdflib import Graph, URIRef
from rdflib.plugins.stores.sparqlstore import SPARQLStore
from serving import ROOT, kg, kg_serve
from SPARQLWrapper import CSV, JSON, TURTLE, XML, SPARQLWrapper

from kg.store import graph_counts, open_store

from conftest import select as select_rows

FIXTURES = ROOT / "tests" / "fixtures"
EXTRA = "http://example.org/graph/extra"
BASE = "https://w3id.org/lijing/id/"
TIMEOUT = 5.0
LIMIT = 50
FOREVER = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
CHAPTERS = "SELECT ?c ?t WHERE { ?c a lj:Chapter ; lj:title ?t } ORDER BY ?c"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("served") / "store"
    kg(
        "build", "-q", "--store", str(path),
        "--source", str(FIXTURES / "plain_shaolao.txt"),
        "--rdf", str(FIXTURES / "server" / "evil.ttl"),
        "--rdf", f"{EXTRA}={FIXTURES / 'server' / 'extra.ttl'}",
    )  # fmt: skip
    return path


@pytest.fixture(scope="module")
def db(store: Path):
    return open_store(store)


@pytest.fixture(scope="module")
def url(store: Path):
    options = ["--timeout", str(TIMEOUT), "--limit", str(LIMIT), "--workers", "2"]
    with kg_serve(store, *options) as base:
        yield base


def sparql(url: str, query: str, accept: str = "application/sparql-results+json", **kw):
    return httpx.post(
        f"{url}/sparql", data={"query": query}, headers={"Accept": accept}, timeout=30, **kw
    )


def count_all(url: str) -> int:
    r = sparql(url, "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }")
    return int(r.json()["results"]["bindings"][0]["n"]["value"])


# -- real clients -----------------------------------------------------------------------------


def test_sparqlwrapper_json_xml_csv(url: str, db) -> None:
    expected = [(r["c"], r["t"]) for r in select_rows(db, CHAPTERS)]
    assert expected, "the test text has chapters"
    client = SPARQLWrapper(f"{url}/sparql")
    client.setQuery(CHAPTERS)
    client.setReturnFormat(JSON)
    got = client.query().convert()["results"]["bindings"]  # type: ignore[index]
    assert [(b["c"]["value"], b["t"]["value"]) for b in got] == expected
    client.setReturnFormat(XML)
    doc = client.query().convert()
    assert len(doc.getElementsByTagName("result")) == len(expected)  # type: ignore[union-attr]
    client.setReturnFormat(CSV)
    lines = client.query().convert().decode().strip().splitlines()  # type: ignore[union-attr]
    assert lines[0] == "c,t" and len(lines) == len(expected) + 1


def test_sparqlwrapper_post_construct_and_ask(url: str, db) -> None:
    client = SPARQLWrapper(f"{url}/sparql")
    client.setMethod("POST")
    client.setQuery("CONSTRUCT { ?w ?p ?o } WHERE { ?w a lj:Work ; ?p ?o }")
    client.setReturnFormat(TURTLE)
    g = Graph().parse(data=client.query().convert(), format="turtle")  # type: ignore[arg-type]
    work = URIRef(select_rows(db, "SELECT ?w WHERE { ?w a lj:Work }")[0]["w"])
    n = len(select_rows(db, f"SELECT ?p ?o WHERE {{ <{work}> ?p ?o }}"))
    assert len(g) == n and set(g.subjects()) == {work}
    client.setQuery("ASK { ?w a lj:Work }")
    client.setReturnFormat(JSON)
    assert client.query().convert()["boolean"] is True  # type: ignore[index]


def test_rdflib_sparqlstore(url: str, db) -> None:
    remote = Graph(store=SPARQLStore(f"{url}/sparql", returnFormat="json"))
    q = "SELECT ?s ?m WHERE { ?s skos:exactMatch ?m } ORDER BY ?s"
    rows = [(str(r.s), str(r.m)) for r in remote.query(q)]  # type: ignore[union-attr]
    assert rows == [(r["s"], r["m"]) for r in select_rows(db, q)]
    assert len(rows) == 2  # the two links of extra.ttl
    assert (URIRef(BASE + "person/zhengxuan"), None, None) in remote


# -- the protocol: statuses and headers -------------------------------------------------------


def test_get_and_both_posts_agree(url: str) -> None:
    q = "SELECT ?t WHERE { ?c a lj:Chapter ; lj:title ?t }"
    a = httpx.get(f"{url}/sparql", params={"query": q}).json()
    b = sparql(url, q).json()
    c = httpx.post(
        f"{url}/sparql", content=q.encode(), headers={"Content-Type": "application/sparql-query"}
    ).json()
    assert a == b == c and a["results"]["bindings"]


@pytest.mark.parametrize(
    ("accept", "ctype"),
    [
        ("application/sparql-results+json", "application/sparql-results+json"),
        ("application/sparql-results+xml", "application/sparql-results+xml"),
        ("text/csv", "text/csv"),
        ("text/tab-separated-values", "text/tab-separated-values"),
        ("text/csv;q=0.5, application/sparql-results+xml", "application/sparql-results+xml"),
    ],
)
def test_select_formats_by_accept(url: str, accept: str, ctype: str) -> None:
    r = sparql(url, CHAPTERS, accept)
    assert r.status_code == 200 and r.headers["content-type"].startswith(ctype)
    assert "Accept" in r.headers["vary"]


@pytest.mark.parametrize(
    ("accept", "fmt"),
    [
        ("text/turtle", "turtle"),
        ("application/n-triples", "nt"),
        ("application/rdf+xml", "xml"),
        ("application/ld+json", "json-ld"),
    ],
)
def test_construct_formats_by_accept(url: str, accept: str, fmt: str) -> None:
    r = sparql(url, "CONSTRUCT { ?c a lj:Chapter } WHERE { ?c a lj:Chapter }", accept)
    assert r.status_code == 200 and r.headers["content-type"].startswith(accept)
    assert len(Graph().parse(data=r.text, format=fmt)) > 0


def test_format_parameter_overrides_accept(url: str) -> None:
    r = httpx.get(f"{url}/sparql", params={"query": CHAPTERS, "format": "csv"})
    assert r.headers["content-type"].startswith("text/csv")


@pytest.mark.parametrize(
    ("request_kw", "status"),
    [
        ({"method": "PUT", "params": {"query": "ASK {}"}}, 405),
        ({"method": "POST", "content": b"ASK {}", "headers": {"Content-Type": "text/plain"}}, 415),
        ({"method": "POST", "content": b"query=ASK%7B%7D"}, 415),
        ({"method": "GET", "params": [("query", "ASK {}"), ("query", "ASK {}")]}, 400),
        ({"method": "GET", "params": {"query": "ASK {"}}, 400),
        ({"method": "GET", "params": {"query": "ASK {}"}, "headers": {"Accept": "image/png"}}, 406),
        ({"method": "POST", "content": "ASK {}".encode("utf-16"),
          "headers": {"Content-Type": "application/sparql-query; charset=UTF-16"}}, 415),
        ({"method": "POST", "content": b"\xff\xfeA",
          "headers": {"Content-Type": "application/sparql-query"}}, 400),
    ],
)  # fmt: skip
def test_bad_requests(url: str, request_kw: dict, status: int) -> None:
    r = httpx.request(url=f"{url}/sparql", **request_kw)
    assert r.status_code == status, r.text


def test_syntax_error_names_the_place(url: str) -> None:
    r = httpx.get(f"{url}/sparql", params={"query": "SELECT * WHERE { ?s ?p }"})
    assert r.status_code == 400
    assert r.headers["content-type"].startswith("text/plain")
    assert "syntax error" in r.text and "1:" in r.text


def test_cors(url: str) -> None:
    origin = {"Origin": "https://yasgui.example"}
    r = httpx.get(f"{url}/sparql", params={"query": "ASK {}"}, headers=origin)
    assert r.headers["access-control-allow-origin"] == "*"
    pre = httpx.options(
        f"{url}/sparql",
        headers={**origin, "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "content-type"},
    )  # fmt: skip
    assert pre.status_code == 200
    assert "POST" in pre.headers["access-control-allow-methods"]


def test_result_cap(url: str, db) -> None:
    total = len(select_rows(db, "SELECT ?s WHERE { ?s a ?c }"))
    assert total > LIMIT
    r = sparql(url, "SELECT ?s WHERE { ?s a ?c }")
    assert len(r.json()["results"]["bindings"]) == LIMIT
    assert r.headers["x-sparql-maxrows"] == str(LIMIT)
    small = sparql(url, CHAPTERS)
    assert "x-sparql-maxrows" not in small.headers


def test_dataset_from_the_protocol(url: str, db) -> None:
    q = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"

    def n(params: list) -> int:
        r = httpx.get(f"{url}/sparql", params=[("query", q), *params])
        return int(r.json()["results"]["bindings"][0]["n"]["value"])

    counts = graph_counts(db)
    assert n([]) == sum(counts.values())  # union of the named graphs by default
    assert n([("default-graph-uri", EXTRA)]) == counts[EXTRA]
    ontology = BASE + "graph/ontology"
    both = [("default-graph-uri", EXTRA), ("default-graph-uri", ontology)]
    assert n(both) == counts[EXTRA] + counts[ontology]
    assert n([("named-graph-uri", EXTRA)]) == 0  # only named graphs: empty default graph


def test_from_in_the_query_is_honoured(url: str, db) -> None:
    counts = graph_counts(db)
    q = f"SELECT (COUNT(*) AS ?n) FROM <{EXTRA}> WHERE {{ ?s ?p ?o }}"
    r = sparql(url, q)
    assert int(r.json()["results"]["bindings"][0]["n"]["value"]) == counts[EXTRA]


def test_service_description(url: str) -> None:
    r = httpx.get(f"{url}/sparql", headers={"Accept": "text/turtle"})
    g = Graph().parse(data=r.text, format="turtle")
    sd = "http://www.w3.org/ns/sparql-service-description#"
    assert (None, URIRef(sd + "endpoint"), URIRef(f"{url}/sparql")) in g
    browser = httpx.get(f"{url}/sparql", headers={"Accept": "text/html"})
    assert browser.status_code == 303 and browser.headers["location"].endswith("/editor")


# -- malicious and runaway input --------------------------------------------------------------

UPDATES = [
    {"data": {"update": "CLEAR ALL"}},
    {"data": {"update": "INSERT DATA { <urn:a> <urn:b> <urn:c> }"}},
    {"params": {"update": "DROP ALL"}},
    {"data": {"query": "INSERT DATA { <urn:a> <urn:b> <urn:c> }"}},
    {"data": {"query": "PREFIX x: <urn:x> DELETE WHERE { ?s ?p ?o }"}},
    {"data": {"query": "LOAD <http://127.0.0.1:9/x.ttl>"}},
    {"content": b"CLEAR ALL", "headers": {"Content-Type": "application/sparql-update"}},
    {"content": b"DROP ALL", "headers": {"Content-Type": "application/sparql-query"}},
]


@pytest.mark.parametrize("request_kw", UPDATES)
def test_updates_are_refused(url: str, request_kw: dict) -> None:
    before = count_all(url)
    method = "GET" if "params" in request_kw else "POST"
    r = httpx.request(method, f"{url}/sparql", **request_kw)
    assert r.status_code == 403, r.text
    assert "read-only" in r.text
    assert count_all(url) == before


@pytest.fixture
def listener():
    """A loopback port that records every connection made to it."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    yield sock
    sock.close()


def _connections(sock: socket.socket, wait: float) -> int:
    n = 0
    while select.select([sock], [], [], wait)[0]:
        conn, _ = sock.accept()
        conn.close()
        n += 1
        wait = 0.1
    return n


@pytest.mark.parametrize(
    "template",
    [
        "SELECT * WHERE {{ SERVICE <{target}> {{ ?s ?p ?o }} }}",
        "select * where {{ service silent <{target}> {{ ?s ?p ?o }} }}",
        r"SELECT * WHERE {{ \u0053ERVICE <{target}> {{ ?s ?p ?o }} }}",
        "SELECT * WHERE {{ ?x a lj:Chapter OPTIONAL {{ SELECT ?s WHERE {{ "
        "SERVICE <{target}> {{ ?s ?p ?o }} }} }} }}",
        "SELECT * WHERE {{ BIND(<{target}> AS ?e) SERVICE ?e {{ ?s ?p ?o }} }}",
        "ASK {{ SERVICE<{target}>{{?s ?p ?o}} }}",
    ],
)
def test_service_is_refused_and_nothing_connects(url: str, listener, template: str) -> None:
    target = f"http://127.0.0.1:{listener.getsockname()[1]}/sparql"
    query = template.format(target=target)
    for r in (
        httpx.get(f"{url}/sparql", params={"query": query}),
        sparql(url, query),
        httpx.post(
            f"{url}/sparql",
            content=query.encode(),
            headers={"Content-Type": "application/sparql-query"},
        ),
    ):
        assert r.status_code == 400, r.text
        assert "SERVICE" in r.text
    assert _connections(listener, 1.0) == 0


def test_service_word_in_text_is_not_refused(url: str) -> None:
    r = sparql(url, 'SELECT * WHERE { BIND("public service" AS ?x) } # SERVICE <http://x/>')
    assert r.status_code == 200


def test_query_that_runs_forever_times_out(url: str) -> None:
    started = time.monotonic()
    r = sparql(url, FOREVER)
    elapsed = time.monotonic() - started
    assert r.status_code == 503 and "timed out" in r.text
    assert TIMEOUT - 0.5 < elapsed < TIMEOUT + 5
    assert sparql(url, "ASK {}").json()["boolean"] is True  # the pool recovered


def test_quick_queries_are_served_beside_a_runaway_one(url: str) -> None:
    slow: list[httpx.Response] = []
    runner = threading.Thread(target=lambda: slow.append(sparql(url, FOREVER)))
    runner.start()
    time.sleep(0.5)
    # from another client: one client holds at most half of the workers (lanes.py)
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2")) as other:
        quick = other.post(f"{url}/sparql", data={"query": CHAPTERS}, timeout=30)
    assert quick.status_code == 200
    assert runner.is_alive()  # answered while the runaway query still holds its worker
    runner.join()
    assert slow[0].status_code == 503


def test_ten_megabyte_requests(url: str) -> None:
    big = b"query=" + b"a" * 10_000_000
    r = httpx.post(
        f"{url}/sparql", content=big, headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert r.status_code == 413

    def chunks():
        for _ in range(100):
            yield b"a" * 100_000

    r = httpx.post(
        f"{url}/sparql", content=chunks(), headers={"Content-Type": "application/sparql-query"}
    )
    assert r.status_code == 413
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        with contextlib.suppress(OSError):  # the server may close while we still send
            s.sendall(b"GET /sparql?query=" + b"a" * 10_000_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        status = s.recv(100).split(b"\r\n")[0]
    assert status.split()[1] in (b"400", b"414"), status
    assert sparql(url, "ASK {}").status_code == 200


def test_html_in_a_query_string_is_never_markup(url: str) -> None:
    payload = "<script>alert(1)</script>"
    r = httpx.get(f"{url}/sparql", params={"query": payload})
    assert r.status_code == 400
    assert r.headers["content-type"].startswith("text/plain")
    assert r.headers["x-content-type-options"] == "nosniff"
    page = httpx.get(f"{url}/id/{payload}")
    assert page.status_code == 400 and page.headers["content-type"].startswith("text/html")
    assert payload not in page.text and "&lt;script&gt;" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    home = httpx.get(f"{url}/", params={"q": payload})
    assert payload not in home.text


def test_markup_in_the_data_is_escaped(url: str) -> None:
    page = httpx.get(f"{url}/id/test/evil")
    assert page.status_code == 200
    assert "<script>alert('label')</script>" not in page.text
    assert "&lt;script&gt;alert(" in page.text
    assert "<img src=x" not in page.text and "&lt;img src=x onerror=alert(1)&gt;" in page.text
    assert 'href="javascript:' not in page.text
    assert 'href="/id/lijingbenyi"' in page.text  # a link into the book stays local


@pytest.mark.parametrize(
    "path",
    [
        "/id/../../../../etc/passwd",
        "/id/..%2F..%2F..%2F..%2Fetc%2Fpasswd",
        "/id/%2e%2e/%2e%2e/pyproject.toml",
        "/static/../../../../etc/passwd",
        "/static/..%2F..%2Fapp.py",
        "/download/..%2F..%2Fpyproject.toml",
        "/ontology.%2e%2e%2Fpyproject",
    ],
)
def test_path_traversal(url: str, path: str) -> None:
    with socket.create_connection(url.removeprefix("http://").split(":"), timeout=10) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    status = int(data.split(b"\r\n", 1)[0].split()[1])
    assert status in (400, 404), data[:300]
    assert b"root:" not in data and b"[project]" not in data and b"create_app" not in data


def test_requests_run_in_parallel_workers(url: str) -> None:
    """Four clients at once all get their answers (the pool queues, never drops)."""
    results: list[int] = []
    threads = [
        threading.Thread(target=lambda: results.append(sparql(url, CHAPTERS).status_code))
        for _ in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [200] * 8


def test_json_results_are_complete_documents(url: str) -> None:
    """Every answer is serialized whole before it is sent: valid JSON, never cut."""
    r = sparql(url, "SELECT ?s ?p ?o WHERE { ?s ?p ?o }")
    body = json.loads(r.text)
    assert len(body["results"]["bindings"]) == LIMIT
    assert int(r.headers["content-length"]) == len(r.content)
