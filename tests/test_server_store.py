"""`kg serve` always serves the last complete store: a build swapped in under load is picked
up without an error, a failed build changes nothing, and old builds can disappear."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import httpx
from serving import ROOT, kg, kg_serve

FIXTURES = ROOT / "tests" / "fixtures"
SOURCE = str(FIXTURES / "plain_shaolao.txt")
EXTRA = "http://example.org/graph/extra"
GRAPHS = "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g"


def _graphs(url: str) -> dict[str, int]:
    r = httpx.post(f"{url}/sparql", data={"query": GRAPHS}, timeout=30)
    assert r.status_code == 200, r.text
    return {b["g"]["value"]: int(b["n"]["value"]) for b in r.json()["results"]["bindings"]}


def test_builds_swap_in_under_load(tmp_path: Path) -> None:
    store = tmp_path / "store"
    kg("build", "-q", "--source", SOURCE, "--store", str(store))
    with kg_serve(store, "--workers", "2") as url:
        before = _graphs(url)
        assert EXTRA not in before
        seen: list[object] = []
        stop = threading.Event()

        def hammer() -> None:
            while not stop.is_set():
                try:
                    seen.append(_graphs(url))
                except AssertionError as e:
                    seen.append(e)

        threads = [threading.Thread(target=hammer) for _ in range(3)]
        for t in threads:
            t.start()
        extra = f"{EXTRA}={FIXTURES / 'server' / 'extra.ttl'}"
        kg("build", "-q", "--source", SOURCE, "--store", str(store), "--rdf", extra)
        deadline = time.monotonic() + 10
        while EXTRA not in _graphs(url) and time.monotonic() < deadline:
            time.sleep(0.1)
        stop.set()
        for t in threads:
            t.join()
        errors = [s for s in seen if not isinstance(s, dict)]
        assert not errors, errors[:3]
        assert len(seen) > 10
        assert all(s in (before, {**before, EXTRA: 2}) for s in seen)  # old or new, never mixed
        after = _graphs(url)
        assert after == {**before, EXTRA: 2}

        # a build that fails leaves the served store as it was
        bad = tmp_path / "bad.ttl"
        bad.write_text("<http://a> <http://b> .\n")
        out = kg("build", "-q", "--source", SOURCE, "--store", str(store), "--rdf", str(bad),
                 check=False)  # fmt: skip
        assert out.returncode == 1 and "bad.ttl" in out.stderr
        assert _graphs(url) == after

        # two more builds: the one the workers first opened is deleted meanwhile
        kg("build", "-q", "--source", SOURCE, "--store", str(store))
        kg("build", "-q", "--source", SOURCE, "--store", str(store))
        assert _graphs(url) == before
        page = httpx.get(f"{url}/")
        assert page.status_code == 200 and f"{sum(before.values()):,}" in page.text


def test_serve_without_a_store_is_one_clear_line(tmp_path: Path) -> None:
    out = kg("serve", "--store", str(tmp_path / "none"), check=False)
    assert out.returncode == 1
    assert out.stderr.strip().splitlines() == [
        f"Error: {tmp_path / 'none'}: no store here; run `kg build` first (or pass --store)"
    ]


def test_serve_get_answers_one_request(tmp_path: Path) -> None:
    store = tmp_path / "store"
    kg("build", "-q", "--source", SOURCE, "--store", str(store))
    ok = kg("serve", "--store", str(store), "--get", "/sparql?query=ASK%7B%3Fs%20a%20lj%3AWork%7D")
    assert '"boolean":true' in ok.stdout
    missing = kg("serve", "--store", str(store), "--get", "/id/no/such/thing", check=False)
    assert missing.returncode == 1 and "no/such/thing" in missing.stdout
