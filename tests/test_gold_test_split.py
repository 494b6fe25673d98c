"""The frozen test split (tests/gold/test/): well-formed, written, from chapters the seeds lack.

These checks read the gold only; they never run an extractor on it.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
import rdflib
from rdflib.namespace import SKOS

ROOT = Path(__file__).resolve().parent.parent
TEST_DIR = ROOT / "tests" / "gold" / "test"
VOCAB = {
    "role": "roles",
    "object": "objects",
    "place": "places",
    "commentator": "commentators",
    "work": "works",
    "action": "actions",
}
SEED_CHAPTERS = {"士冠礼", "士昏礼", "乡饮酒礼", "乡射礼", "燕礼", "大射仪"}
FACINGS = {"北", "南", "东", "西", "东北", "西北", "东南", "西南"}
SEPARATORS = set("○　 ")


def rows(name: str) -> list[dict]:
    with (TEST_DIR / f"{name}.jsonl").open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@cache
def slugs(kind: str) -> frozenset[str]:
    g = rdflib.Graph()
    g.parse(ROOT / "ontology" / f"{VOCAB[kind]}.ttl")
    return frozenset(str(s).rsplit("/", 1)[-1] for s in g.subjects(SKOS.inScheme, None))


def known(slug: str, *kinds: str) -> bool:
    return slug.startswith("?") or any(slug in slugs(k) for k in kinds)


@pytest.mark.parametrize("name", ["entities", "voices", "glosses", "acts"])
def test_every_unit_states_its_source(name: str) -> None:
    units = rows(name)
    assert units, name
    ids = [u["id"] for u in units]
    assert len(ids) == len(set(ids))
    for u in units:
        assert u["source"] == "written" and u["id"].startswith("test-"), u["id"]
        assert u["chapter"] not in SEED_CHAPTERS, u["id"]
        assert u.get("passage"), u["id"]


def test_the_split_has_two_hundred_units() -> None:
    sizes = {n: len(rows(n)) for n in ("entities", "voices", "glosses", "acts")}
    assert sum(sizes.values()) >= 200, sizes
    assert min(sizes.values()) >= 30, sizes


def test_entity_spans_are_ordered_and_linked() -> None:
    for u in rows("entities"):
        end = 0
        for start, stop, kind, slug in u["entities"]:
            assert end <= start < stop <= len(u["text"]), (u["id"], start)
            assert known(slug, kind), (u["id"], slug)
            end = stop


def test_voices_cover_the_block() -> None:
    for u in rows("voices"):
        text, end = u["text"], 0
        for start, stop, speaker, kind, reports in u["voices"]:
            assert set(text[end:start]) <= SEPARATORS, (u["id"], start)
            assert start < stop, (u["id"], start)
            # a speaker the vocabulary lacks is the pinyin slug of his name
            assert speaker in slugs("commentator") or speaker.isascii(), (u["id"], speaker)
            assert kind in {"author", "note", "quote", "anonymous", "report"}
            assert (reports is not None) == (kind == "report"), (u["id"], start)
            end = stop
        assert set(text[end:]) <= SEPARATORS, u["id"]


def test_glosses_quote_the_text() -> None:
    for u in rows("glosses"):
        text = u["text"]
        for a, b, c, d, term, definition in u["glosses"]:
            assert text[a:b] == term and text[c:d] == definition, (u["id"], term)
            assert a < b and c < d and (b <= c or d <= a), (u["id"], term)


def test_acts_are_framed_with_known_slugs() -> None:
    for u in rows("acts"):
        end = 0
        for n, act in enumerate(u["acts"]):
            start, stop = act["span"]
            assert end <= start < stop <= len(u["text"]), (u["id"], n)
            end = stop
            assert known(act["action"], "action"), (u["id"], act["action"])
            assert all(known(r, "role") for r in act["agents"]), (u["id"], n)
            assert all(known(p, "object", "role") for p in act["patients"]), (u["id"], n)
            for slot in ("location", "source", "destination"):
                assert all(known(p, "place") for p in act[slot]), (u["id"], n)
            assert act["facing"] in FACINGS | {None}, (u["id"], n)
            for field in ("repeats", "condition"):
                assert act[field] is None or act[field] in u["text"], (u["id"], n)
            if act["commanded_by"] is not None:
                assert 0 <= act["commanded_by"] < len(u["acts"]), (u["id"], n)


def test_acts_units_are_entity_units() -> None:
    entities = {u["id"]: u["text"] for u in rows("entities")}
    for u in rows("acts"):
        assert entities.get(u["id"]) == u["text"], u["id"]
