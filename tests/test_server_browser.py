"""Headless Chromium against `kg serve`: the home page, an example query run in the editor,
an entity page followed from the results, and the pages at phone width. Screenshots are
kept in tests/artifacts/. Skipped only where Debian's chromium is not installed."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from serving import ROOT, kg_serve

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
ARTIFACTS = ROOT / "tests" / "artifacts"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--window-size=1280,1400",
]

pytestmark = pytest.mark.skipif(
    not (Path(CHROMIUM).exists() and Path(DRIVER).exists()),
    reason="chromium and chromium-driver are not installed (.ci/run installs them)",
)


@pytest.fixture(scope="module")
def url(seeds_store: Path):
    with kg_serve(seeds_store, "--timeout", "20") as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="kg-chromium-")
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(60)
    ARTIFACTS.mkdir(exist_ok=True)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def _errors(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def test_run_an_example_query_and_follow_a_result(url: str, browser, seeds_db) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    from conftest import select

    browser.get(url + "/")
    assert "礼经本义" in browser.title
    Select(browser.find_element(By.ID, "example")).select_by_value("chapters-sections")
    assert "lj:Chapter" in browser.find_element(By.ID, "query").get_attribute("value")
    browser.find_element(By.ID, "run").click()
    rows = WebDriverWait(browser, 30).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#results tbody tr")
    )
    sections = select(seeds_db, "SELECT ?s WHERE { ?s a lj:Section }")
    assert len(rows) == len(sections)  # chapters-sections has one row per section
    assert f"{len(rows)} rows" in browser.find_element(By.ID, "status").text
    browser.save_screenshot(str(ARTIFACTS / "home-query.png"))

    # a query whose results are IRIs: follow one to its page
    box = browser.find_element(By.ID, "query")
    box.clear()
    box.send_keys("SELECT ?p WHERE { ?p a lj:Passage ; lj:mentions ?m } ORDER BY ?p LIMIT 5")
    browser.find_element(By.ID, "run").click()
    link = WebDriverWait(browser, 30).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#results tbody a")
    )[0]
    iri = link.text
    link.click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "a.mention"))
    assert iri in browser.find_element(By.CSS_SELECTOR, "p.iri").text
    assert browser.find_elements(By.CSS_SELECTOR, ".voice .who")  # commentary voices
    browser.save_screenshot(str(ARTIFACTS / "passage.png"))
    assert not _errors(browser)


def test_pages_fit_a_phone(url: str, browser, seeds_db) -> None:
    from conftest import select

    section = select(seeds_db, "SELECT ?s WHERE { ?s a lj:Section } ORDER BY ?s LIMIT 1")[0]["s"]
    base = section[: section.index("/id/") + 4]
    browser.set_window_size(390, 844)
    try:
        for name, path in [
            ("home", "/"),
            ("section", "/id/" + section[len(base) :]),
            ("ontology", "/ontology"),
        ]:
            browser.get(url + path)
            width, inner = browser.execute_script(
                "return [document.documentElement.scrollWidth, window.innerWidth]"
            )
            assert width <= inner, f"{name} scrolls sideways on a phone"
            browser.save_screenshot(str(ARTIFACTS / f"phone-{name}.png"))
    finally:
        browser.set_window_size(1280, 1400)


def test_editor_shows_errors_as_text(url: str, browser) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(url + "/")
    box = browser.find_element(By.ID, "query")
    box.clear()
    box.send_keys("SELECT * WHERE { <img src=x onerror=alert(1)> }")
    browser.find_element(By.ID, "run").click()
    status = WebDriverWait(browser, 30).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "#status.err")
    )
    assert status.text.startswith("400")
    assert not browser.find_elements(By.CSS_SELECTOR, "#status img")
