"""The language switch: every interface word a template asks for has its Chinese, ?lang=
switches and is remembered, Accept-Language chooses first."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from serving import kg_serve

from kg.server.i18n import words

TEMPLATES = Path(__file__).parent.parent / "kg" / "server" / "templates"
ASKED = re.compile(r"""\bt\((?:"([^"]+)"|'([^']+)')\)""")


def test_every_word_a_template_asks_for_is_translated() -> None:
    asked = {a or b for f in TEMPLATES.glob("*.html") for a, b in ASKED.findall(f.read_text())}
    assert len(asked) > 20
    assert asked - words().keys() == set()
    assert all(v and v != k for k, v in words().items())


@pytest.fixture(scope="module")
def url(seeds_store: Path):
    with kg_serve(seeds_store, "--timeout", "20") as base:
        yield base


def test_the_switch_changes_the_words_and_is_remembered(url: str) -> None:
    with httpx.Client(base_url=url, timeout=60) as client:
        en = client.get("/id/lijingbenyi", headers={"Accept-Language": "en-GB,en"}).text
        assert ">Contents</a>" in en and '<html lang="en">' in en
        zh = client.get("/id/lijingbenyi", params={"lang": "zh"})
        assert ">目录</a>" in zh.text and '<html lang="zh">' in zh.text
        assert "lang=zh" in zh.headers["set-cookie"]
        again = client.get("/id/role/sishe")  # the cookie keeps it
        assert "书中所见" in again.text and ">English</a>" in again.text
        back = client.get("/id/role/sishe", params={"lang": "en"}).text
        assert "Where the book names it" in back
    zh_browser = httpx.get(url + "/", headers={"Accept-Language": "zh-CN,zh;q=0.9"}, timeout=60)
    assert ">目录</a>" in zh_browser.text


def test_property_names_follow_the_switch_and_data_keeps_its_labels(url: str, seeds_db) -> None:
    from kg.store import store_base

    from conftest import select

    act = select(seeds_db, "SELECT ?a WHERE { ?a a lj:RitualAct ; lj:agent ?r } LIMIT 1")[0]["a"]
    path = "/id/" + act[len(store_base(seeds_db)) :]
    en = httpx.get(url + path, params={"lang": "en", "view": "data"}, timeout=60).text
    zh = httpx.get(url + path, params={"lang": "zh", "view": "data"}, timeout=60).text
    assert 'agent <span class="curie">lj:agent</span>' in en
    assert '施事 <span class="curie">lj:agent</span>' in zh
    # the role the act names keeps its Chinese label in both
    role = select(seeds_db, f"SELECT ?l WHERE {{ <{act}> lj:agent/skos:prefLabel ?l }}")[0]["l"]
    assert role in en and role in zh
