"""The reading view against a real `kg serve` over the seeds: a chapter's page is its
sections in order with each passage's commentary, speakers named and filterable, names
marked by kind with their labels, previous/next chapters; the work's page is its contents.
Expected values come from the store."""

from __future__ import annotations

import html
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


@pytest.fixture(scope="module")
def chapters(seeds_db) -> list[dict[str, str]]:
    return select(
        seeds_db,
        "SELECT ?c ?t WHERE { ?c a lj:Chapter ; lj:title ?t ; dcterms:isPartOf ?j . "
        "?j lj:order ?jo } ORDER BY ?jo",
    )


def local(iri: str, db) -> str:
    return "/id/" + iri[len(store_base(db)) :]


def test_a_chapter_reads_in_order_with_its_commentary(url, seeds_db, chapters) -> None:
    ch = chapters[3]
    page = httpx.get(url + local(ch["c"], seeds_db), timeout=60).text
    units = select(
        seeds_db,
        f"SELECT ?u ?text WHERE {{ ?s dcterms:isPartOf <{ch['c']}> ; a lj:Section ; lj:order ?so . "
        "?u dcterms:isPartOf ?s ; a ?t ; lj:text ?text ; lj:order ?uo . "
        "FILTER(?t IN (lj:Passage, lj:Record)) } ORDER BY ?so ?uo",
    )
    shown = re.findall(r'<p class="classic" lang="lzh">(.*?)<a class="more" href="([^"]+)"', page)
    assert len(shown) == len(units) > 20
    for (inner, href), u in zip(shown, units, strict=True):
        assert href.endswith(local(u["u"], seeds_db).split("/id/", 1)[1])  # the same order
        assert re.sub(r"<[^>]+>|、|记", "", html.unescape(inner)).strip() == u["text"]
    sections = select(
        seeds_db, f"SELECT ?s WHERE {{ ?s dcterms:isPartOf <{ch['c']}> ; a lj:Section }}"
    )
    assert page.count('<section class="reading"') == len(sections)
    # commentary under the passages, speakers named, one colour each
    voices = re.findall(r'<div class="voice who-(\d)" data-who="([^"]+)"', page)
    assert len(voices) > 50
    colours: dict[str, str] = {}
    for colour, who in voices:
        assert colours.setdefault(who, colour) == colour
    # names marked by kind, with the concept's label and English as a tooltip
    roles = re.findall(r'<a class="mention k-role" href="[^"]+" title="([^"]+)">', page)
    assert roles and all(" · " in t for t in roles)


def test_prev_and_next_chapters_are_linked(url, seeds_db, chapters) -> None:
    page = httpx.get(url + local(chapters[1]["c"], seeds_db), timeout=60).text
    assert f'<link rel="prev" href="{local(chapters[0]["c"], seeds_db)}">' in page
    assert f'<link rel="next" href="{local(chapters[2]["c"], seeds_db)}">' in page
    first = httpx.get(url + local(chapters[0]["c"], seeds_db), timeout=60).text
    assert 'rel="prev"' not in first and 'rel="next"' in first


def test_the_voices_filter_to_one_commentator(url, seeds_db, chapters) -> None:
    path = local(chapters[3]["c"], seeds_db)
    page = httpx.get(url + path, params={"who": "zhengxuan"}, timeout=60).text
    whos = set(re.findall(r'<div class="voice[^"]*" data-who="([^"]*)"', page))
    assert whos == {store_base(seeds_db) + "person/zhengxuan"}
    # the classic is still all there
    everything = httpx.get(url + path, timeout=60).text
    assert page.count('class="classic"') == everything.count('class="classic"')


def test_the_statements_stay_one_click_away(url, seeds_db, chapters) -> None:
    path = local(chapters[0]["c"], seeds_db)
    page = httpx.get(url + path, params={"view": "data"}, timeout=60).text
    assert "Also as" in page and 'class="classic"' not in page
    assert f'href="{path}?view=data"' in httpx.get(url + path, timeout=60).text


def test_the_work_page_is_its_table_of_contents(url, seeds_db, chapters) -> None:
    work = select(seeds_db, "SELECT ?w WHERE { ?w a lj:Work }")[0]["w"]
    page = httpx.get(url + local(work, seeds_db), timeout=60).text
    titles = re.findall(r'<h3 lang="lzh"><a href="([^"]+)">([^<]+)</a></h3>', page)
    assert [(h, t) for h, t in titles] == [(local(c["c"], seeds_db), c["t"]) for c in chapters]
    sections = select(seeds_db, "SELECT ?s WHERE { ?s a lj:Section }")
    assert page.count('<a href="/id/') >= len(sections) + len(chapters)
