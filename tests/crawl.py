"""Crawl a running `kg serve` as a reader would, from the home page: the first N pages
(breadth first), every link on them checked once, page headings and link texts that are
raw IRIs (``https://…``, ``ljd:…``, ``lj:…``) counted. ``python tests/crawl.py URL [N [STORE]]``
prints the figures; tests/test_site_crawl.py holds the server to them."""

from __future__ import annotations

import re
import sys
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

import httpx

from kg.rdf.prefixes import PREFIXES, data_prefixes

_PREFIXES = "|".join(sorted({*PREFIXES, *data_prefixes("x:"), "ljsh", "_"}, key=len, reverse=True))
RAW_IRI = re.compile(rf"^(?:https?://\S+|<\S+>|(?:{_PREFIXES}):\S*)$")
SKIP = ("/download/",)  # the full dumps: megabytes each, checked by their own tests


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self.headings: list[str] = []
        self._href: str | None = None
        self._text: list[str] = []
        self._h1: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href, self._text = dict(attrs).get("href"), []
        elif tag == "h1":
            self._h1 = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.links.append((self._href, " ".join("".join(self._text).split())))
            self._href = None
        elif tag == "h1" and self._h1 is not None:
            self.headings.append(" ".join("".join(self._h1).split()))
            self._h1 = None

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)
        if self._h1 is not None:
            self._h1.append(data)


@dataclass
class Crawl:
    pages: list[str] = field(default_factory=list)
    broken: dict[str, tuple[int, str]] = field(default_factory=dict)  # link → (status, on page)
    raw_headings: dict[str, str] = field(default_factory=dict)  # page → heading
    link_texts: int = 0
    raw_link_texts: list[tuple[str, str]] = field(default_factory=list)  # (text, on page)

    @property
    def raw_share(self) -> float:
        return len(self.raw_link_texts) / max(1, self.link_texts)

    def summary(self) -> str:
        return (
            f"{len(self.pages)} pages: {len(self.broken)} broken links, "
            f"{len(self.raw_headings)} raw-IRI headings, {len(self.raw_link_texts)} of "
            f"{self.link_texts} link texts raw IRIs ({100 * self.raw_share:.1f} %)"
        )


def crawl(
    root: str, limit: int = 300, known: Callable[[str], bool] | None = None, timeout: float = 60
) -> Crawl:
    """``known(path)``: whether an /id/ page not crawled exists (from the store: a page
    exists where the store knows its IRI), so that thousands of pages need not be fetched;
    without it every link is fetched."""
    out, host = Crawl(), urlsplit(root).netloc
    queue, queued, status = deque([root + "/"]), {root + "/"}, {}
    with httpx.Client(timeout=timeout, headers={"Accept": "text/html,*/*;q=0.8"}) as client:
        while queue and len(out.pages) < limit:
            url = queue.popleft()
            r = client.get(url, follow_redirects=True)
            status[url] = r.status_code
            if not r.headers.get("content-type", "").startswith("text/html"):
                continue
            out.pages.append(url)
            page = _Page()
            page.feed(r.text)
            for h in page.headings:
                if RAW_IRI.match(h):
                    out.raw_headings[url] = h
            for href, text in page.links:
                if not href or href.startswith(("mailto:", "javascript:")):
                    continue
                target = urldefrag(urljoin(url, href))[0]
                if text:
                    out.link_texts += 1
                    if RAW_IRI.match(text):
                        out.raw_link_texts.append((text, url))
                if urlsplit(target).netloc != host or any(s in target for s in SKIP):
                    continue
                if target not in queued:
                    queued.add(target)
                    queue.append(target)
                    status.setdefault(target, None)
                out.broken.setdefault(target, (0, url))  # resolved below
        for target, (_, on) in list(out.broken.items()):
            code = status.get(target)
            path = urlsplit(target).path
            if code is None and known is not None and path.startswith("/id/"):
                code = 200 if known(unquote(path[len("/id/") :])) else 404
            if code is None:
                with client.stream("GET", target, follow_redirects=True) as r:
                    code = status[target] = r.status_code
            if code < 400:
                del out.broken[target]
            else:
                out.broken[target] = (code, on)
    return out


def store_knows(store: str) -> Callable[[str], bool]:
    """``known`` for crawl(): the IRI under the store's base is a subject, object or graph."""
    from kg.errors import QueryError
    from kg.store import open_store, query_dataset, store_base

    db = open_store(store)
    base = store_base(db)

    def known(rest: str) -> bool:
        for suffix in (".ttl", ".jsonld", ".nt", ".rdf"):
            rest = rest.removesuffix(suffix)
        iri = base + rest
        ask = "ASK WHERE { { ?x ?p ?o } UNION { ?s ?p ?x } UNION { GRAPH ?x { ?a ?b ?c } } }"
        try:
            return bool(query_dataset(db, ask, values={"x": [iri]}))
        except QueryError:  # not an IRI: the server's 400/404
            return False

    return known


if __name__ == "__main__":
    store = sys.argv[3] if len(sys.argv) > 3 else None
    found = crawl(
        sys.argv[1].rstrip("/"),
        int(sys.argv[2]) if len(sys.argv) > 2 else 300,
        store_knows(store) if store else None,
    )
    print(found.summary())
    for link, (code, on) in list(found.broken.items())[:15]:
        print(f"  broken {code}: {link} (on {on})")
    for page, h in list(found.raw_headings.items())[:10]:
        print(f"  heading {h!r} on {page}")
    from collections import Counter

    kinds = Counter(re.sub(r"[:/].*", "", t) for t, _ in found.raw_link_texts)
    print("  raw link texts by prefix:", kinds.most_common(12))
