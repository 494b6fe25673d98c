"""A passage's witnesses as an apparatus on its page: every witness a row, the characters in
another form or another reading marked, on passages the store says differ."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from serving import kg_serve

from kg.server.apparatus import marks
from kg.store import store_base

from conftest import select

VARIANTS = Path(__file__).parent.parent / "ontology" / "variants.tsv"
PUA_READ = {
    row[0]: row[1]
    for line in VARIANTS.read_text(encoding="utf-8").splitlines()
    if (row := line.split("\t"))
    and len(row) > 1
    and len(row[0]) == 1
    and 0xE000 <= ord(row[0]) <= 0xF8FF
}


@pytest.fixture(scope="module")
def url(seeds_store: Path):
    with kg_serve(seeds_store, "--timeout", "20") as base:
        yield base


def test_marks_tell_forms_from_readings() -> None:
    kinds = [(m.text, m.kind) for m in marks("宾答拜", "賔荅拜于")]
    assert kinds == [("賔荅", "variant"), ("拜", "same"), ("于", "added")]
    assert [m.kind for m in marks("宾答拜", "宾拜")] == ["same", "missing", "same"]
    glyph, read = next(iter(PUA_READ.items()))  # a private-use glyph variants.tsv reads
    shown = marks(read + "酒", glyph + "酒")[0]
    assert (shown.text, shown.kind, shown.read_as) == (glyph, "variant", read)


def test_a_passage_whose_witnesses_differ_shows_them_marked(url, seeds_db) -> None:
    differing = select(
        seeds_db,
        "SELECT ?u (COUNT(DISTINCT ?w) AS ?n) WHERE { ?u a lj:Passage ; lj:witness ?w . "
        "?w lj:text ?t } GROUP BY ?u HAVING (COUNT(DISTINCT ?t) > 1) ORDER BY ?u LIMIT 3",
    )
    assert differing
    for row in differing:
        path = "/id/" + row["u"][len(store_base(seeds_db)) :]
        html = httpx.get(url + path, timeout=60).text
        section = html[html.index('<section class="apparatus">') :]
        section = section[: section.index("</section>")]
        assert section.count("<tr") == int(row["n"])
        assert re.search(r'<mark class="(?:form|var)"|<ins |<del ', section)


def test_the_passage_page_names_things_in_both_languages(url, seeds_db) -> None:
    unit = select(seeds_db, "SELECT ?u WHERE { ?u a lj:Passage ; lj:mentions role:sishe } LIMIT 1")
    html = httpx.get(url + "/id/" + unit[0]["u"][len(store_base(seeds_db)) :], timeout=60).text
    assert 'title="司射 · director of archery"' in html  # the label and the English
    heads = re.findall(r'<p class="block-head"><a href="[^"]+">([^<]+)</a>', html)
    assert heads and not [h for h in heads if "ljd:" in h or h.startswith("http")]
