"""`kg publish` sends every named graph to a SPARQL 1.1 Graph Store: a real `oxigraph serve`
started on a free loopback port pulls the whole dataset; basic auth and failures are clear."""

from __future__ import annotations

import base64
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import httpx
import pytest
from serving import free_port, kg

from kg.store import graph_counts

OXIGRAPH = Path(sys.executable).parent / "oxigraph"
COUNTS = "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g"


@pytest.fixture
def oxigraph(tmp_path: Path):
    port = free_port()
    proc = subprocess.Popen(
        [str(OXIGRAPH), "serve", "--location", str(tmp_path / "ox"), "--bind", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(f"{url}/query", params={"query": "ASK {}"}, timeout=2)
            break
        except httpx.HTTPError:
            assert time.monotonic() < deadline and proc.poll() is None, "oxigraph did not start"
            time.sleep(0.2)
    yield url
    proc.terminate()
    proc.wait(10)


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
