"""Issue 18's crawl: the first 300 pages of `kg serve` over the seeds, from the home page,
breadth first (tests/crawl.py): no broken link, no raw IRI as a page heading, at most 2 %
of link texts raw IRIs. Pages not crawled are checked against the store (a page exists
where the store knows its IRI), every other link over HTTP."""

from __future__ import annotations

from pathlib import Path

import pytest
from crawl import crawl, store_knows
from serving import kg_serve


@pytest.fixture(scope="module")
def found(seeds_store: Path):
    with kg_serve(seeds_store, "--timeout", "20") as url:
        yield crawl(url, 300, store_knows(str(seeds_store)))


def test_the_crawl_reaches_300_pages(found) -> None:
    assert len(found.pages) == 300, found.summary()


def test_no_link_is_broken(found) -> None:
    assert not found.broken, list(found.broken.items())[:10]


def test_no_page_has_a_raw_iri_as_its_heading(found) -> None:
    assert not found.raw_headings, list(found.raw_headings.items())[:10]


def test_few_link_texts_are_raw_iris(found) -> None:
    assert found.link_texts > 10_000  # pages full of links: the share means something
    assert found.raw_share <= 0.02, (found.summary(), found.raw_link_texts[:20])
