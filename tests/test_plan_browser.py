"""Headless Chromium steps through a section on the plan (the section page's player), opens
an act's page at its own step, and plays a chapter's sections in order; nothing breaks the
page's Content-Security-Policy. Screenshots go to tests/artifacts/ (docs/plan-qingshe.png
is one of them)."""

from __future__ import annotations

import pytest
from test_server_browser import (  # noqa: F401 (fixtures)
    ARTIFACTS,
    _errors,
    browser,
    pytestmark,
    url,
)

from conftest import select


def _wait(driver, condition, timeout: float = 30):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(condition)


def _loaded(driver) -> bool:
    return driver.execute_script(
        "const i = document.querySelector('.plan-image');"
        "return i && i.complete && i.naturalWidth > 0;"
    )


def _section_path(seeds_db, title: str) -> str:
    rows = select(
        seeds_db,
        f'SELECT ?s WHERE {{ ?s a lj:Section ; rdfs:label ?l . FILTER(STR(?l) = "{title}") }}',
    )
    iri = rows[0]["s"]
    return iri[iri.index("/id/") :]


def test_step_through_a_section(url: str, browser, seeds_db) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    browser.get(url + _section_path(seeds_db, "乡射礼·请射"))
    player = browser.find_element(By.CSS_SELECTOR, ".plan-player")
    last = int(browser.find_element(By.CSS_SELECTOR, ".plan-step").get_attribute("max"))
    assert last > 10
    _wait(browser, _loaded)
    assert player.get_attribute("data-shown") == str(last)  # the section's end state first
    browser.find_element(By.CSS_SELECTOR, ".plan-step").click()  # the slider: somewhere in
    for _ in range(3):
        browser.find_element(By.CSS_SELECTOR, ".plan-prev").click()
    shown = int(player.get_attribute("data-shown"))
    assert shown < last
    browser.find_element(By.CSS_SELECTOR, ".plan-next").click()
    assert int(player.get_attribute("data-shown")) == shown + 1
    img = browser.find_element(By.CSS_SELECTOR, ".plan-image")
    assert img.get_attribute("src").endswith(f"?step={shown + 1}")
    _wait(browser, _loaded)
    # step to the 告 at the top of the west stairs (act 8) and keep the picture
    browser.execute_script(
        "const r = document.querySelector('.plan-step'); r.value = 8;"
        "r.dispatchEvent(new Event('input'));"
    )
    image = browser.find_element(By.CSS_SELECTOR, ".plan-image")
    _wait(browser, lambda d: image.get_attribute("src").endswith("?step=8"))
    _wait(browser, _loaded)
    assert "8 / " in browser.find_element(By.CSS_SELECTOR, ".plan-at").text
    player.screenshot(str(ARTIFACTS / "plan-qingshe.png"))
    assert not _errors(browser)


def test_an_act_page_opens_at_its_step(url: str, browser, seeds_db) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    act = select(
        seeds_db,
        """SELECT ?a ?n WHERE { ?a lj:inSection ?s ; lj:order ?n . ?s rdfs:label ?l .
             FILTER(STR(?l) = "乡射礼·请射" && ?n = 5) }""",
    )[0]
    browser.get(url + act["a"][act["a"].index("/id/") :])
    _wait(browser, _loaded)
    assert browser.find_element(By.CSS_SELECTOR, ".plan-player").get_attribute("data-shown") == "5"
    assert not _errors(browser)


@pytest.mark.parametrize("chapter", ["xiangsheli"])
def test_a_chapter_plays_its_sections_in_order(url: str, browser, chapter: str) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    browser.get(f"{url}/id/{chapter}")
    caption = browser.find_element(By.CSS_SELECTOR, ".plan-caption")
    first = caption.text
    items = browser.find_elements(By.CSS_SELECTOR, ".plan-sections li")
    assert len(items) > 3
    # jump to the end of the first section, then play: the next section comes on
    browser.execute_script(
        "const r = document.querySelector('.plan-step'); r.value = r.max;"
        "r.dispatchEvent(new Event('input'));"
    )
    browser.find_element(By.CSS_SELECTOR, ".plan-play").click()
    _wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".plan-caption").text != first)
    assert browser.find_element(By.CSS_SELECTOR, ".plan-caption").text == items[1].get_attribute(
        "textContent"
    )
    browser.find_element(By.CSS_SELECTOR, ".plan-play").click()  # stop
    _wait(browser, _loaded)
    assert not _errors(browser)


def test_the_plan_is_served_as_svg_with_its_own_policy(url: str) -> None:  # noqa: F811
    import httpx

    r = httpx.get(f"{url}/plan/xiangsheli/qingshe", params={"step": "3"}, timeout=60)
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert "default-src 'none'" in r.headers["content-security-policy"]
    assert 'data-step="3"' in r.text and "<script" not in r.text
    assert httpx.get(f"{url}/plan/xiangsheli/qingshe?step=x", timeout=60).status_code == 400
    assert httpx.get(f"{url}/plan/xiangsheli/qingshe?step=9999", timeout=60).status_code == 404
    assert httpx.get(f"{url}/plan/no/such/section", timeout=60).status_code == 404
