"""Pages of things and people from `kg serve` over the seeds: label and definition first,
then every place the book names it grouped by chapter and section, the acts it takes part in
and the derived relations with their counts; a commentator's opinions by chapter and the
stances taken on him. Expected values come from the store."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from serving import kg_serve

from kg.store import store_base

from conftest import select


@pytest.fixture(scope="module")
def url(seeds_store: Path):
    with kg_serve(seeds_store, "--timeout", "20") as base:
        yield base


def page(url: str, db, iri: str) -> str:
    r = httpx.get(url + "/id/" + iri[len(store_base(db)) :], timeout=60)
    assert r.status_code == 200
    return r.text


def n_of(html: str, heading: str) -> int:
    m = re.search(rf"<h2>{heading} <span class=\"n\">(\d+)</span></h2>", html)
    assert m, heading
    return int(m.group(1))


def test_a_role_page_puts_the_concept_first_and_counts_its_uses(url, seeds_db) -> None:
    role = store_base(seeds_db) + "role/sishe"
    html = page(url, seeds_db, role)
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S).group(1)
    assert h1.startswith("司射") and "director of archery" in h1
    assert html.index("The officer") < html.index("Where the book names it")
    mentions = select(seeds_db, f"SELECT ?m WHERE {{ ?m lj:mentionOf <{role}> }}")
    assert n_of(html, "Where the book names it") == len(mentions)
    assert html.count("<mark>司射</mark>") == len(mentions)
    acts = select(seeds_db, f"SELECT DISTINCT ?a WHERE {{ ?a a lj:RitualAct ; ?p <{role}> }}")
    assert n_of(html, "Ritual acts, in reading order") == len(acts)
    # chapters in reading order: 乡射礼 before 大射仪
    summaries = re.findall(r'<summary lang="lzh"><a href="[^"]+">([^<]+)</a>', html)
    assert summaries.index("乡射礼") < summaries.index("大射仪")
    # derived relations with the number of acts behind each
    rel = re.findall(r'<td class="n">(\d+) acts</td>', html)
    statements = select(seeds_db, f"SELECT ?st WHERE {{ ?st rdf:subject <{role}> }}")
    assert len(rel) == len(statements) and all(int(n) > 0 for n in rel)
    assert "rdf:Statement" not in html and "ljd:" not in html  # folded away


def test_a_commentator_page_lists_his_opinions_and_stances(url, seeds_db) -> None:
    person = store_base(seeds_db) + "person/aojigong"
    html = page(url, seeds_db, person)
    assert re.search(r"<h1[^>]*>敖继公 <span class=\"en\">Ao Jigong</span></h1>", html)
    assert "君善" in html and "元" in html  # 字 and dynasty
    ops = select(seeds_db, f"SELECT ?o WHERE {{ ?o lj:commentator <{person}> }}")
    assert n_of(html, "Opinions") == len(ops)
    disputes = select(
        seeds_db,
        f"SELECT DISTINCT ?o WHERE {{ ?o lj:disputes <{person}> ; lj:commentator ?w }}",
    )
    if disputes:
        assert re.search(r"← [^<]+</td><td lang=\"lzh\"><a href=\"[^\"]+\">[^<]+</a></td>", html)


def test_other_iris_keep_the_statements_page(url, seeds_db) -> None:
    act = select(seeds_db, "SELECT ?a WHERE { ?a a lj:RitualAct } LIMIT 1")[0]["a"]
    html = page(url, seeds_db, act)
    assert "Also as" in html and "Where the book names it" not in html
