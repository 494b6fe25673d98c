"""Headless Chromium on issue 18's site fixes and search: a traditional-form phrase typed
into the header's search box, a hit followed to its page; a shared query link opening the
editor with its results; the `kg docs` page styled under the CSP. Screenshots are kept in
tests/artifacts/ (as the other browser tests keep theirs)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import opencc
import pytest
from serving import kg_serve_with_docs
from test_server_browser import ARTIFACTS, _errors, browser, pytestmark  # noqa: F401

from kg.text.normalize import normalize

from conftest import select


@pytest.fixture(scope="module")
def url(seeds_store: Path, tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("site-browser")
    with kg_serve_with_docs(seeds_store, folder, "--timeout", "20") as base:
        yield base


def _traditional_phrase(db) -> tuple[str, str]:
    """A phrase of a passage (its traditional form differs) and that passage's text."""
    to_trad = opencc.OpenCC("s2t")
    for r in select(db, "SELECT ?t WHERE { ?p a lj:Passage ; lj:normalizedText ?t } ORDER BY ?p"):
        for i in range(0, max(0, len(r["t"]) - 3), 2):
            piece = r["t"][i : i + 3]
            if to_trad.convert(piece) != piece and normalize(to_trad.convert(piece)) == piece:
                return to_trad.convert(piece), piece
    pytest.fail("no phrase with a traditional form")


def test_search_a_traditional_phrase_and_follow_a_hit(url: str, browser, seeds_db) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    trad, simplified = _traditional_phrase(seeds_db)
    browser.get(url + "/")
    box = browser.find_element(By.CSS_SELECTOR, "header form.search input[name=q]")
    box.send_keys(trad, Keys.ENTER)
    hits = WebDriverWait(browser, 30).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "ol.hits li.hit-passage a[lang]")
    )
    marks = browser.find_elements(By.CSS_SELECTOR, "ol.hits mark")
    assert marks and all(normalize(m.text) == simplified for m in marks)
    assert "hit" in browser.find_element(By.ID, "search-status").text
    browser.save_screenshot(str(ARTIFACTS / "search.png"))
    hits[0].click()
    text = WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "p.text"))
    assert simplified in normalize(text[0].text)  # the passage whose text has the phrase
    browser.save_screenshot(str(ARTIFACTS / "search-hit.png"))
    assert not _errors(browser)


def test_a_shared_query_link_opens_the_editor_with_its_results(url: str, browser) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def done() -> str:
        return (
            WebDriverWait(browser, 30)
            .until(lambda d: (e := d.find_element(By.ID, "state")).get_attribute("data-done") and e)
            .text
        )

    browser.get(url + "/editor?name=chapters-sections")
    rows = done().split(" ", 1)[0]
    query = browser.execute_script(
        "return document.querySelector('#yasqe .CodeMirror').CodeMirror.getValue()"
    )
    share = browser.find_element(By.ID, "share").get_attribute("href")
    for link in (share, url + "/sparql?query=" + quote(query)):
        browser.get("about:blank")
        browser.get(link)  # a person opening the link: the editor, the query run
        assert done().split(" ", 1)[0] == rows
        shown = browser.execute_script(
            "return document.querySelector('#yasqe .CodeMirror').CodeMirror.getValue()"
        )
        assert shown == query
    browser.save_screenshot(str(ARTIFACTS / "shared-query.png"))
    assert not _errors(browser)


def test_the_kg_docs_page_is_styled_under_the_csp(url: str, browser) -> None:  # noqa: F811
    browser.get(url + "/ontology")
    background = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(255, 253, 248)"  # --paper of kg/docs/templates/style.css
    assert not [e for e in _errors(browser) if "Content Security Policy" in e]
    browser.save_screenshot(str(ARTIFACTS / "ontology-docs.png"))
