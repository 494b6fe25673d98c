"""A crawl of the site as a reader's browser meets it: the first 300 pages reached from the
home page by following links. No link is broken, no page is headed by a raw IRI, and at most
2 % of link texts are raw IRIs (a prefixed name or a full IRI instead of a label)."""

from __future__ import annotations

import json
import re
from collections import deque
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx
import pytest
from serving import kg_serve

PAGES = 300
RAW = re.compile(r"^(?:https?://\S+|[a-z][\w-]*:[\w/.#-]+)$")  # http://…, ljd:x/p/1, lj:agent
# files and endpoints, not pages: their targets are checked to answer, not crawled
NOT_PAGES = re.compile(r"/download/|/graph-store|/sparql|\.(?:ttl|nt|jsonld|rdf|nq|trig|gz)$")


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self.h1 = ""
        self._href: str | None = None
        self._text: list[str] = []
        self._in_h1 = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href, self._text = dict(attrs).get("href"), []
        elif tag == "h1":
            self._in_h1 = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.links.append((self._href, "".join(self._text).strip()))
            self._href = None
        elif tag == "h1":
            self._in_h1 = False

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)
        if self._in_h1:
            self.h1 += data


@pytest.fixture(scope="module")
def url(seeds_store: Path):
    with kg_serve(seeds_store, "--timeout", "20") as base:
        yield base


def test_crawl_the_first_pages_from_home(url: str) -> None:
    origin = urlsplit(url).netloc
    queue, seen = deque([url + "/"]), {url + "/"}
    broken, raw_headings, texts, raw_texts, pages = [], [], 0, [], 0
    checked: dict[str, int] = {}
    with httpx.Client(timeout=60, headers={"Accept": "text/html"}) as client:
        while queue and pages < PAGES:
            page = queue.popleft()
            r = client.get(page)
            pages += 1
            if r.status_code != 200:
                broken.append((page, r.status_code))
                continue
            links = Links()
            links.feed(r.text)
            if RAW.match(links.h1.strip()):
                raw_headings.append((page, links.h1.strip()))
            for href, text in links.links:
                target = urljoin(page, href).split("#", 1)[0]
                if urlsplit(target).netloc != origin:
                    continue
                if text:
                    texts += 1
                    if RAW.match(text):
                        raw_texts.append((page, text))
                if NOT_PAGES.search(urlsplit(target).path) or (
                    "?" in target and "/sparql" in target
                ):
                    if target not in checked:
                        checked[target] = client.head(target).status_code
                    continue
                if target not in seen:
                    seen.add(target)
                    queue.append(target)
    bad_files = {t: s for t, s in checked.items() if s >= 400 and s != 405}
    share = len(raw_texts) / max(texts, 1)
    problems = {
        "broken pages": broken[:10],
        "broken files": list(bad_files.items())[:10],
        "raw headings": [len(raw_headings), raw_headings[:40]],
        "raw link texts": [f"{len(raw_texts)} of {texts} ({share:.1%})", raw_texts[:15]],
    }
    artifacts = Path(__file__).parent / "artifacts"
    artifacts.mkdir(exist_ok=True)
    report = {**problems, "raw headings": raw_headings, "raw link texts": raw_texts, "pages": pages}
    (artifacts / "crawl.json").write_text(json.dumps(report, ensure_ascii=False, indent=1))
    assert pages == PAGES or not queue
    assert not broken and not bad_files and not raw_headings and share <= 0.02, problems
