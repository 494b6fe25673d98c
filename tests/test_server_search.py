"""`/search` on a real `kg serve` over the seeds: a phrase in any character form finds the
units of text that contain it (as the store counts them), concept names by any label, each
hit linked and in context with the match marked and escaped; JSON by Accept; paged and
bounded like the endpoint. Phrases and names are drawn from the store, not written here."""

from __future__ import annotations

import html
import re
from pathlib import Path

import httpx
import opencc
import pytest
from serving import kg_serve

from kg.text.normalize import normalize

from conftest import select

JSON = {"Accept": "application/json"}
TEXT_CLASSES = "lj:Passage lj:Record lj:Commentary"
LIMIT = 500  # the server's row limit here: no page may start past it


@pytest.fixture(scope="module")
def url(seeds_store: Path):
    with kg_serve(seeds_store, "--timeout", "20", "--limit", str(LIMIT)) as base:
        yield base


def _units_containing(db, phrase: str) -> set[str]:
    """The oracle: units whose stored normalized text contains the phrase."""
    lit = phrase.replace("\\", "\\\\").replace('"', '\\"')
    found = select(
        db,
        f"""SELECT DISTINCT ?u WHERE {{ VALUES ?c {{ {TEXT_CLASSES} }} ?u a ?c ;
        lj:normalizedText ?n FILTER(CONTAINS(STR(?n), "{lit}")) }}""",
    )
    return {r["u"] for r in found}


def _all_hits(url: str, phrase: str, size: int = 100) -> list[dict]:
    hits, page = [], 1
    while True:
        r = httpx.get(f"{url}/search", params={"q": phrase, "page": page, "size": size},
                      headers=JSON, timeout=30)  # fmt: skip
        assert r.status_code == 200, r.text
        body = r.json()
        hits += body["hits"]
        if not body["more"]:
            return hits
        page += 1


@pytest.fixture(scope="module")
def phrase(seeds_db) -> tuple[str, str]:
    """A four-character phrase of a passage whose traditional form differs, and the passage."""
    to_trad = opencc.OpenCC("s2t")
    rows = select(seeds_db, "SELECT ?p ?t WHERE { ?p a lj:Passage ; lj:normalizedText ?t } "
                            "ORDER BY ?p LIMIT 200")  # fmt: skip
    for r in rows:
        text = r["t"]
        for i in range(0, max(0, len(text) - 4), 3):
            piece = text[i : i + 4]
            trad = to_trad.convert(piece)
            if (
                trad != piece
                and normalize(trad) == piece
                and len(_units_containing(seeds_db, piece)) < 8
            ):
                return trad, r["p"]
    pytest.fail("no passage with a phrase whose traditional form differs")


def test_a_traditional_phrase_finds_the_units_of_its_normalized_form(url, seeds_db, phrase):
    trad, passage = phrase
    hits = _all_hits(url, trad)
    texts = {h["iri"] for h in hits if h["kind"] in ("passage", "record", "commentary")}
    assert passage in texts
    assert texts == _units_containing(seeds_db, normalize(trad))
    simplified = {h["iri"] for h in _all_hits(url, normalize(trad))}
    assert simplified == {h["iri"] for h in hits}
    for h in hits:  # each in context, the match marked on the text's own characters
        assert h["marks"], h
        for start, end in h["marks"]:
            assert normalize(h["snippet"][start:end]) == normalize(trad)


def test_concept_names_are_found_by_any_label(url, seeds_db) -> None:
    for cls, kind in [("lj:Role", "role"), ("lj:RitualObject", "object"),
                      ("lj:Place", "place"), ("lj:Commentator", "commentator")]:  # fmt: skip
        row = select(seeds_db, f"SELECT ?c ?l WHERE {{ ?c a {cls} ; skos:altLabel ?l "
                               "FILTER(STRLEN(?l) > 1) } ORDER BY ?c ?l LIMIT 1")[0]  # fmt: skip
        hits = httpx.get(f"{url}/search", params={"q": row["l"]}, headers=JSON).json()["hits"]
        mine = [h for h in hits if h["iri"] == row["c"]]
        assert mine and mine[0]["kind"] == kind, (cls, row)
        start, end = mine[0]["marks"][0]
        assert normalize(mine[0]["snippet"][start:end].lower()) == normalize(row["l"].lower())


def test_the_page_links_each_hit_and_marks_the_match_escaped(url, phrase) -> None:
    trad, passage = phrase
    page = httpx.get(f"{url}/search", params={"q": trad, "size": 100})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert f'href="/id/{passage.split("/id/", 1)[1]}"' in page.text
    marked = re.findall(r"<mark>(.*?)</mark>", page.text)
    assert marked and all(normalize(html.unescape(m)) == normalize(trad) for m in marked)
    hostile = httpx.get(f"{url}/search", params={"q": '<script>alert("x")</script>'})
    assert hostile.status_code == 200 and "<script>alert" not in hostile.text
    assert "&lt;script&gt;" in hostile.text


def test_every_page_has_the_search_box(url, seeds_db) -> None:
    passage = select(seeds_db, "SELECT ?p WHERE { ?p a lj:Passage } ORDER BY ?p LIMIT 1")[0]["p"]
    for path in ["/", "/id/" + passage.split("/id/", 1)[1], "/search?q=x", "/id/no/such/thing",
                 "/.well-known/void"]:  # fmt: skip
        r = httpx.get(url + path, headers={"Accept": "text/html"})
        assert re.search(
            r'<form class="search" action="[^"]*/search"[^>]*>\s*<input[^>]+name="q"', r.text
        ), path


def test_pages_partition_the_hits(url, seeds_db) -> None:
    common = "之"  # the commonest character: more hits than the row limit
    first = httpx.get(f"{url}/search", params={"q": common, "size": 7}, headers=JSON).json()
    assert first["total"] > LIMIT and first["more"] and len(first["hits"]) == 7
    seen: list[str] = []
    for n in range(1, 5):
        body = httpx.get(f"{url}/search", params={"q": common, "size": 7, "page": n},
                         headers=JSON).json()  # fmt: skip
        seen += [h["iri"] for h in body["hits"]]
    assert len(seen) == len(set(seen)) == 28
    one = httpx.get(f"{url}/search", params={"q": common, "size": 28}, headers=JSON).json()
    assert [h["iri"] for h in one["hits"]] == seen
    page = httpx.get(f"{url}/search", params={"q": common, "page": 2})
    assert 'rel="next"' in page.text and 'rel="prev"' in page.text


@pytest.mark.parametrize("params", [{"size": "1000"}, {"size": "0"}, {"page": "x"},
                                    {"page": str(LIMIT + 1)}, {"q": "之" * 101}])  # fmt: skip
def test_requests_past_the_limits_are_refused(url, params) -> None:
    r = httpx.get(f"{url}/search", params={"q": "之", **params}, headers=JSON)
    assert r.status_code == 400 and r.json()["error"]
    page = httpx.get(f"{url}/search", params={"q": "之", **params})
    assert page.status_code == 400 and page.headers["content-type"].startswith("text/html")
