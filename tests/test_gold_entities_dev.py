"""The entities dev set (tests/gold/entities.jsonl): well-formed, and its written units new.

These checks read the gold only; the test split is read for its texts' ten-character runs,
never for its annotations.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.nlp.lexicon import load_lexicon
from kg.text.normalize import normalize

GOLD = Path(__file__).resolve().parent / "gold"
TYPES = {"role", "object", "place", "commentator", "work"}


def rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def runs(text: str, n: int = 10) -> set[str]:
    return {text[i : i + n] for i in range(len(text) - n + 1)}


@pytest.fixture(scope="module")
def dev() -> list[dict]:
    return rows(GOLD / "entities.jsonl")


def test_ids_are_unique_and_written_units_say_so(dev: list[dict]) -> None:
    ids = [u["id"] for u in dev]
    assert len(ids) == len(set(ids))
    for u in dev:
        assert u["kind"] in {"passage", "record", "commentary"}, u["id"]
        if u["id"].startswith(("written-", "dev-")):
            assert u["source"] == "written" and u["chapter"], u["id"]


def test_spans_are_ordered_typed_and_linked(dev: list[dict]) -> None:
    entries = load_lexicon().entries
    slugs = {(e.type, e.slug) for es in entries.values() for e in es}
    for u in dev:
        end = 0
        for start, stop, kind, slug in u["entities"]:
            assert end <= start < stop <= len(u["text"]), (u["id"], start)
            assert kind in TYPES, (u["id"], kind)
            assert slug.startswith("?") or (kind, slug) in slugs, (u["id"], slug)
            end = stop


def test_a_term_the_lexicon_has_is_not_left_a_gap(dev: list[dict]) -> None:
    """A `?` term whose form the vocabulary now lists for its type, with one concept, should
    carry that slug (README: a gap the vocabulary gains becomes its slug); the few kept on
    purpose (物 the banner, 序 the hall without a chamber …) name a different sense."""
    entries = load_lexicon().entries
    on_purpose = {"?物", "?序", "?水", "?策", "?姑", "?子"}
    for u in dev:
        for _, _, kind, slug in u["entities"]:
            if slug.startswith("?") and slug not in on_purpose:
                same = [e for e in entries.get(normalize(slug[1:]), ()) if e.type == kind]
                assert len(same) != 1, (u["id"], slug, same[0].slug if same else None)


def test_new_written_units_share_no_ten_characters_with_the_test_split(dev: list[dict]) -> None:
    texts = [u.get("text", "") for f in sorted((GOLD / "test").glob("*.jsonl")) for u in rows(f)]
    test = set().union(*(runs(t) for t in texts))
    for u in dev:
        if u["id"].startswith("dev-"):
            assert not runs(u["text"]) & test, u["id"]
