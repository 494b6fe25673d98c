"""`kg publish` end to end, into the server-grade stores a project moves to when it outgrows
the embedded one: Virtuoso (started here on free loopback ports with a throw-away database;
skipped with the reason where `virtuoso-t` is not installed) and `oxigraph serve`. Every
named graph arrives with its count, publishing again replaces (nothing doubled), and named
queries from queries/ answer there as they answer here."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from graph_stores import VIRTUOSO, VIRTUOSO_MISSING, Remote, oxigraph_serve, select, virtuoso
from serving import kg

from kg.queries import resolve_query, with_defaults
from kg.rdf.prefixes import PREFIXES, data_prefixes
from kg.store import graph_counts, rows, run_query, store_base

# in reading order (compared row for row), and one whose ties may come in any order
ORDERED_QUERY = "chapters-sections"
UNORDERED_QUERY = "commentators"


@pytest.fixture(scope="module", params=["oxigraph", "virtuoso"])
def remote(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Remote]:
    root = tmp_path_factory.mktemp(request.param)
    if request.param == "virtuoso":
        if VIRTUOSO is None:
            pytest.skip(VIRTUOSO_MISSING)
        with virtuoso(root) as served:
            yield served
    else:
        # the union of the graphs as default graph, as `kg serve` and Virtuoso answer
        with oxigraph_serve(root, "--union-default-graph") as served:
            yield served


@pytest.fixture(scope="module")
def published(remote: Remote, seeds_store: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The seeds published once into the remote store; what `kg publish --report` wrote."""
    report = tmp_path_factory.mktemp("report") / f"{remote.name}.json"
    out = kg("publish", "--store", str(seeds_store), "--endpoint", remote.graph_store,
             *remote.publish_options, "--report", str(report))  # fmt: skip
    assert "Published " in out.stdout
    return json.loads(report.read_text())


def _remote_counts(remote: Remote, graphs: list[str]) -> dict[str, int]:
    values = " ".join(f"<{g}>" for g in graphs)
    sparql = (
        f"SELECT ?g (COUNT(*) AS ?n) WHERE {{ VALUES ?g {{ {values} }} GRAPH ?g {{ ?s ?p ?o }} }} "
        "GROUP BY ?g"
    )
    _, bindings = select(remote.sparql, sparql)
    return {b["g"]["value"]: int(b["n"]["value"]) for b in bindings}


def test_every_graph_arrives_with_its_count(remote: Remote, published: dict, seeds_db) -> None:
    expected = graph_counts(seeds_db)
    assert _remote_counts(remote, list(expected)) == expected
    # the report says what was sent: each graph's triples and bytes, and the totals
    sent = {g["graph"]: g for g in published["graphs"]}
    assert {g: s["triples"] for g, s in sent.items()} == expected
    assert all(s["bytes"] > s["triples"] and s["status"] < 300 for s in sent.values())
    assert published["total"]["triples"] == sum(expected.values())
    assert published["total"]["graphs"] == len(expected)


def test_publishing_again_replaces(
    remote: Remote, published: dict, seeds_store: Path, seeds_db
) -> None:
    expected = graph_counts(seeds_db)
    smallest = min(expected, key=expected.__getitem__)
    kg("publish", "--store", str(seeds_store), "--endpoint", remote.graph_store,
       *remote.publish_options, "--graph", smallest)  # fmt: skip
    assert _remote_counts(remote, list(expected)) == expected


def _here_and_there(remote: Remote, seeds_db, name: str) -> tuple[list, list]:
    sparql = with_defaults(resolve_query(name).text)
    names, body = rows(run_query(seeds_db, sparql))
    here = [tuple(c[1] if c else None for c in row) for row in body]
    # the remote store knows none of our prefixes: declare them, as run_query predeclares them
    prefixes = {**PREFIXES, **data_prefixes(store_base(seeds_db))}
    prologue = "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in prefixes.items())
    variables, bindings = select(remote.sparql, prologue + sparql)
    assert variables == names
    there = [tuple(b[v]["value"] if v in b else None for v in names) for b in bindings]
    return here, there


def test_a_named_query_answers_the_same(remote: Remote, published: dict, seeds_db) -> None:
    here, there = _here_and_there(remote, seeds_db, ORDERED_QUERY)
    assert here and there == here
    here, there = _here_and_there(remote, seeds_db, UNORDERED_QUERY)
    assert here and sorted(there, key=repr) == sorted(here, key=repr)
