"""`kg publish` sends every named graph to a SPARQL 1.1 Graph Store: a real `oxigraph serve`
started on a free loopback port pulls the whole dataset; basic auth and failures are clear; a
graph whose PUT fails on the way is sent again, whole, a bounded number of times.
(Virtuoso and the named queries: test_publish_stores.py.)"""

from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import httpx
import pytest
from graph_stores import oxigraph_serve
from serving import free_port, kg

from kg.store import graph_counts

COUNTS = "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g"


@pytest.fixture
def oxigraph(tmp_path: Path):
    with oxigraph_serve(tmp_path / "ox") as remote:
        yield remote.graph_store.removesuffix("/store")


def _remote_counts(url: str) -> dict[str, int]:
    r = httpx.post(f"{url}/query", data={"query": COUNTS},
                   headers={"Accept": "application/sparql-results+json"})  # fmt: skip
    return {b["g"]["value"]: int(b["n"]["value"]) for b in r.json()["results"]["bindings"]}


def test_a_second_store_pulls_every_graph(oxigraph: str, seeds_store: Path, seeds_db) -> None:
    out = kg("publish", "--store", str(seeds_store), "--endpoint", f"{oxigraph}/store")
    expected = graph_counts(seeds_db)
    assert _remote_counts(oxigraph) == expected
    assert f"Published {len(expected)} graphs" in out.stdout
    # again: PUT replaces, nothing is doubled
    kg("publish", "--store", str(seeds_store), "--endpoint", f"{oxigraph}/store")
    assert _remote_counts(oxigraph) == expected


def test_publish_one_graph(oxigraph: str, seeds_store: Path, seeds_db) -> None:
    graph = next(iter(graph_counts(seeds_db)))
    kg("publish", "--store", str(seeds_store), "--endpoint", f"{oxigraph}/store",
       "--graph", graph)  # fmt: skip
    assert _remote_counts(oxigraph) == {graph: graph_counts(seeds_db)[graph]}


class _Guarded(BaseHTTPRequestHandler):
    """A Graph Store that wants basic auth and records what it gets."""

    received: ClassVar[list[tuple[str, str, int]]] = []
    expected = "Basic " + base64.b64encode(b"scholar:s3cret").decode()

    def do_PUT(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.headers.get("Authorization") != self.expected:
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="store"')
            self.end_headers()
            return
        lines = [line for line in body.decode().splitlines() if line.strip()]
        self.received.append((self.path, self.headers["Content-Type"], len(lines)))
        self.send_response(201)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def guarded():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Guarded)
    _Guarded.received = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/data"
    server.shutdown()


def test_basic_auth(guarded: str, seeds_store: Path, seeds_db) -> None:
    refused = kg("publish", "--store", str(seeds_store), "--endpoint", guarded, check=False)
    assert refused.returncode == 1
    assert "401" in refused.stderr and "--auth" in refused.stderr
    kg("publish", "--store", str(seeds_store), "--endpoint", guarded, "--auth", "scholar:s3cret")
    counts = graph_counts(seeds_db)
    assert len(_Guarded.received) == len(counts)
    for path, ctype, _ in _Guarded.received:
        assert path.startswith("/data?graph=") and ctype == "application/n-triples"
    assert sorted(n for _, _, n in _Guarded.received) == sorted(counts.values())


def test_unreachable_endpoint_is_one_clear_line(seeds_store: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/store"
    out = kg("publish", "--store", str(seeds_store), "--endpoint", url, check=False)
    assert out.returncode == 1
    assert out.stderr.strip().startswith("Error: ") and url in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    bad = kg("publish", "--store", str(seeds_store), "--endpoint", url, "--auth", "x",
             check=False)  # fmt: skip
    assert bad.returncode == 1 and "USER:PASS" in bad.stderr


class _Flaky(BaseHTTPRequestHandler):
    """A Graph Store that fails the first ``failures`` tries of each graph (503, or the
    connection dropped unanswered), then takes it; records every complete body it got."""

    failures = 1
    drop = False
    status = 503
    tries: ClassVar[dict[str, int]] = {}
    received: ClassVar[dict[str, int]] = {}

    def do_PUT(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        tries = self.tries[self.path] = self.tries.get(self.path, 0) + 1
        if tries <= self.failures:
            if self.drop:
                self.close_connection = True
                self.connection.close()
                return
            self.send_response(self.status)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.received[self.path] = body.count(b"\n")
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def flaky():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Flaky)
    _Flaky.tries, _Flaky.received = {}, {}
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/data"
    server.shutdown()
    _Flaky.failures, _Flaky.drop, _Flaky.status = 1, False, 503


@pytest.mark.parametrize("drop", [False, True], ids=["503", "dropped"])
def test_a_failed_graph_is_sent_again(
    flaky: str, drop: bool, seeds_store: Path, seeds_db, tmp_path: Path
) -> None:
    _Flaky.drop = drop
    report = tmp_path / "sent.json"
    out = kg("publish", "--store", str(seeds_store), "--endpoint", flaky,
             "--backoff", "0.01", "--report", str(report))  # fmt: skip
    counts = graph_counts(seeds_db)
    # each graph was refused once, then arrived whole
    assert sorted(_Flaky.tries.values()) == [2] * len(counts)
    assert sorted(_Flaky.received.values()) == sorted(counts.values())
    sent = json.loads(report.read_text())
    assert [g["retries"] for g in sent["graphs"]] == [1] * len(counts)
    assert {g["graph"]: g["triples"] for g in sent["graphs"]} == counts
    assert sent["total"]["retries"] == len(counts)
    assert out.stdout.count("1 retry") == len(counts)


def test_retries_are_bounded(flaky: str, seeds_store: Path, seeds_db) -> None:
    _Flaky.failures = 99
    out = kg("publish", "--store", str(seeds_store), "--endpoint", flaky,
             "--retries", "2", "--backoff", "0.01", check=False)  # fmt: skip
    assert out.returncode == 1
    assert "503" in out.stderr and "after 3 tries" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert list(_Flaky.tries.values()) == [3]  # the first graph, then it stopped


def test_a_refusal_is_not_retried(flaky: str, seeds_store: Path) -> None:
    _Flaky.failures, _Flaky.status = 99, 400
    out = kg("publish", "--store", str(seeds_store), "--endpoint", flaky,
             "--backoff", "0.01", check=False)  # fmt: skip
    assert out.returncode == 1 and "400" in out.stderr and "tries" not in out.stderr
    assert list(_Flaky.tries.values()) == [1]


def test_the_body_is_read_in_chunks_and_again_from_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kg.export import publish

    monkeypatch.setattr(publish, "CHUNK", 64)
    dump = tmp_path / "g.nt"
    dump.write_bytes(b"".join(b'<urn:s%d> <urn:p> "\xe7\xa4\xbc" .\n' % i for i in range(50)))
    body = publish.FileBody(dump)
    for _ in range(2):  # a retry (or digest's challenge) reads it again, whole
        chunks = list(body)
        assert max(map(len, chunks)) == 64 and len(chunks) > 10
        assert b"".join(chunks) == dump.read_bytes()
        assert (body.sent, body.lines) == (dump.stat().st_size, 50)


class _Sink(BaseHTTPRequestHandler):
    """Reads and forgets every body (its size kept)."""

    sizes: ClassVar[list[int]] = []

    def do_PUT(self) -> None:
        left = int(self.headers["Content-Length"])
        while left > 0:
            left -= len(self.rfile.read(min(left, 1 << 16)))
        self.sizes.append(int(self.headers["Content-Length"]))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def sink():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Sink)
    _Sink.sizes = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/s"
    server.shutdown()


def _peak(store: Path, url: str, graph: str) -> tuple[int, int]:
    """(bytes sent, Python's peak allocations) of publishing one graph."""
    import tracemalloc

    from kg.export.publish import publish

    tracemalloc.start()
    try:
        (sent,) = publish(store, url, graphs=[graph])
        return sent.bytes, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_no_graph_is_held_in_memory(sink: str, seeds_store: Path, seeds_db) -> None:
    counts = graph_counts(seeds_db)
    small, large = min(counts, key=counts.__getitem__), max(counts, key=counts.__getitem__)
    _peak(seeds_store, sink, small)  # once first: what a first request sets up (TLS context …)
    small_bytes, small_peak = _peak(seeds_store, sink, small)
    large_bytes, large_peak = _peak(seeds_store, sink, large)
    assert _Sink.sizes[1:] == [small_bytes, large_bytes] and large_bytes > 8 << 20
    # sent from a file 1 MB at a time, a graph 50 times larger costs no more memory
    assert large_peak - small_peak < large_bytes / 4, (small_peak, large_peak, large_bytes)
