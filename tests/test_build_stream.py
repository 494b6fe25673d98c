"""The build streams: chapters analysed one at a time (by one process or several), quads
loaded in batches, and the previous store kept whole when a build fails part way."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from rdflib import URIRef

from kg.build.run import build
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


def test_literals_with_quotes_backslashes_and_newlines_load_unchanged(tmp_path: Path) -> None:
    # the emitter's quads reach Oxigraph as N-Quads text: escaping must lose nothing
    from kg.rdf.terms import Lit, integer

    g, s = URIRef("urn:g"), URIRef("urn:s")
    values = ['他曰"射"', "a\\b", "一\n二\r三", "tab\there", "末\\"]
    quads = [(s, URIRef(f"urn:p{i}"), Lit(v, "lzh"), g) for i, v in enumerate(values)]
    quads.append((s, URIRef("urn:n"), integer(7), g))
    quads.append((s, URIRef("urn:plain"), Lit("x"), g))
    store = tmp_path / "store"
    build_store(store, quads, [])
    db = open_store(store)
    got = {str(q.predicate.value): q.object for q in db.quads_for_pattern(None, None, None)}
    assert [got[f"urn:p{i}"].value for i in range(len(values))] == values
    assert all(got[f"urn:p{i}"].language == "lzh" for i in range(len(values)))
    assert got["urn:n"].value == "7" and got["urn:n"].datatype.value.endswith("#integer")
    assert got["urn:plain"].value == "x" and got["urn:plain"].language is None


def test_a_failed_build_in_the_same_second_keeps_the_live_store(tmp_path: Path) -> None:
    # two builds from one process within a second must not share a directory
    store = tmp_path / "store"
    for _ in range(3):
        build_store(store, _quads(20), [], batch=7)
        before = store.resolve()
        with pytest.raises(RuntimeError):
            build_store(store, _quads(40, fail_at=30), [], batch=7)
        assert store.resolve() == before and before.is_dir()
        assert len(nquads(store)) == 20
