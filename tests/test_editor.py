"""The query editor at /editor against a real `kg serve`: a named query opened with its
parameters folded like `kg query` folds them, a queries/ file sent as it is, completion data
from our ontology, the vendored files as pinned, and nothing loaded from another host."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from serving import ROOT, kg, kg_serve

from kg.queries import with_defaults
from kg.server import vendor
from kg.server.editor import with_prefixes


@pytest.fixture(scope="module")
def url(seeds_store: Path):
    with kg_serve(seeds_store, "--timeout", "20") as base:
        yield base


def config_of(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="editor-config">(.*?)</script>', html, re.S)
    assert m, "the page carries its editor configuration"
    return json.loads(m.group(1))


def test_a_named_query_opens_with_its_parameters_folded(url: str) -> None:
    r = httpx.get(url + "/editor", params={"name": "section-acts", "chapter": "鄉射禮"})
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    cfg = config_of(r.text)
    assert cfg["run"] is True
    # 鄉射禮 folded to the data's form; section, not given, gets its default
    assert 'VALUES ?chapter { "乡射礼" }' in cfg["query"]
    assert 'VALUES ?section { "请射" }' in cfg["query"]
    # the prefixes it uses are declared after its comment header, so it runs anywhere
    assert cfg["query"].startswith("# The act sequence")
    assert "PREFIX lj: <https://w3id.org/lijing/ontology#>" in cfg["query"]
    assert 'value="乡射礼"' in r.text  # the form shows what was bound


def test_an_unknown_named_query_is_a_404_page(url: str) -> None:
    r = httpx.get(url + "/editor", params={"name": "../../etc/passwd"})
    assert r.status_code == 404 and "no" in r.text


def test_a_query_in_the_url_is_opened_and_run(url: str) -> None:
    q = "SELECT ?s WHERE { ?s a lj:Chapter }"
    cfg = config_of(httpx.get(url + "/editor", params={"query": q}).text)
    assert cfg["run"] is True and cfg["query"].endswith(q)
    assert config_of(httpx.get(url + "/editor").text)["run"] is False


def test_the_page_loads_nothing_from_another_host(url: str) -> None:
    r = httpx.get(url + "/editor")
    assert "script-src 'self'" in r.headers["content-security-policy"]
    sources = re.findall(r'(?:src|href)="([^"]+)"', r.text)
    scripts = [s for s in sources if s.endswith((".js", ".css"))]
    assert len(scripts) == 5  # site css, yasgui css+js, editor css+js
    assert all(s.startswith(url + "/static/") for s in scripts), scripts
    for s in scripts:
        assert httpx.get(s).status_code == 200, s


def test_a_queries_file_sent_as_it_is_answers_with_its_defaults(url: str, seeds_store) -> None:
    text = (ROOT / "queries" / "section-acts.rq").read_text(encoding="utf-8")
    r = httpx.post(
        url + "/sparql",
        content=text.encode(),
        headers={"Content-Type": "application/sparql-query", "Accept": "text/csv"},
        timeout=30,
    )
    assert r.status_code == 200
    # the same rows as `kg query section-acts`, which binds the same defaults
    cli = kg("query", "section-acts", "--format", "csv", "--store", str(seeds_store))
    assert r.text.replace("\r\n", "\n") == cli.stdout.replace("\r\n", "\n")
    assert len(r.text.strip().splitlines()) > 10


def test_completion_terms_are_our_ontology(url: str) -> None:
    data = httpx.get(url + "/editor/terms.json").json()
    classes = {t["iri"] for t in data["class"]}
    props = {t["iri"] for t in data["property"]}
    lj = "https://w3id.org/lijing/ontology#"
    assert {lj + "Passage", lj + "RitualAct"} <= classes
    assert {lj + "agent", lj + "commentsOn"} <= props
    assert not classes & props


def test_with_defaults_leaves_a_bound_parameter_alone() -> None:
    text = '# T\n# @param t = 请射\nSELECT * WHERE { VALUES ?t { "x" } ?s ?p ?t }'
    assert with_defaults(text) == text
    assert with_defaults("SELECT * WHERE { ?s ?p ?o }") == "SELECT * WHERE { ?s ?p ?o }"


def test_with_prefixes_declares_only_what_is_used_and_missing() -> None:
    p = {"lj": "https://w3id.org/lijing/ontology#", "skos": "http://www.w3.org/2004/02/skos/core#"}
    out = with_prefixes("# title\nPREFIX skos: <x>\nSELECT * { ?a lj:b ?c . ?c skos:d ?e }", p)
    assert out.splitlines()[:3] == [
        "# title",
        "PREFIX lj: <https://w3id.org/lijing/ontology#>",
        "PREFIX skos: <x>",
    ]
    assert with_prefixes("SELECT * { ?a <urn:lj:x> ?c } # lj:", p).startswith("SELECT")


def test_the_vendored_files_are_the_pinned_ones() -> None:
    assert vendor.mismatches() == []
    pkg = vendor.load()["yasgui"]
    assert pkg["version"] == "4.6.2" and pkg["license"] == "MIT"
    js = (vendor.VENDOR / "yasgui" / "yasgui.min.js").read_bytes()
    assert b"sourceMappingURL" not in js[-500:]
