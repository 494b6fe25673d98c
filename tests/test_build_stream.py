"""The build streams: chapters analysed one at a time (by one process or several), quads
loaded in batches, and the previous store kept whole when a build fails part way."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from rdflib import URIRef

from kg.build import build
from kg.store import build_store, dump, open_store

from conftest import FIXTURES

SMALL = [FIXTURES / "paged_shixiangjian.txt", FIXTURES / "tagged_shisang.txt"]


def nquads(store: Path) -> set[bytes]:
    return set(dump(open_store(store), "nquads").splitlines())


def test_jobs_give_the_same_graph(tmp_path: Path) -> None:
    one = build(SMALL, tmp_path / "one", jobs=1)
    two = build(SMALL, tmp_path / "two", jobs=2)
    assert one.counts == two.counts
    assert one.graphs == two.graphs
    assert nquads(tmp_path / "one") == nquads(tmp_path / "two")


def _quads(n: int, fail_at: int | None = None) -> Iterator[tuple]:
    g = URIRef("urn:g")
    for i in range(n):
        if i == fail_at:
            raise RuntimeError("the emitter failed")
        yield URIRef(f"urn:s{i}"), URIRef("urn:p"), URIRef(f"urn:o{i}"), g


def test_batches_load_everything_and_a_late_failure_keeps_the_store(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert build_store(store, _quads(250), [], batch=7) == {"urn:g": 250}
    before = store.resolve()
    # fails after several batches are in the new store: the old one stays, the new is gone
    with pytest.raises(RuntimeError):
        build_store(store, _quads(500, fail_at=300), [], batch=7)
    assert store.resolve() == before
    assert [p for p in (tmp_path / ".store.builds").iterdir() if p.resolve() != before] == []
    assert len(nquads(store)) == 250
