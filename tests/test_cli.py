"""The ``kg`` command end to end, as a user runs it."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rdflib import Graph

from kg.cli import cli

from conftest import FIXTURES, SEEDS

RUN = CliRunner()


def kg(*args: str) -> str:
    result = RUN.invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_build_prints_what_it_found(tmp_path: Path) -> None:
    out = kg("build", "-q", "--source", str(SEEDS), "--store", str(tmp_path / "s"))
    assert re.search(r"Built .* from 5 files in \d+\.\d s", out)
    for word in (
        "juan 7",
        "chapters 7",
        "sections",
        "passages",
        "records",
        "commentaries",
        "opinions",
        "triples",
    ):
        assert word in out, word


def test_build_from_several_sources_into_another_store(tmp_path: Path) -> None:
    store = tmp_path / "other"
    out = kg(
        "build",
        "-q",
        "--source",
        str(FIXTURES / "paged_shixiangjian.txt"),
        "--source",
        str(FIXTURES / "tagged_shisang.txt"),
        "--store",
        str(store),
    )
    assert "from 2 files" in out and "chapters 2" in out
    titles = kg(
        "query",
        "--store",
        str(store),
        "-f",
        "csv",
        "-e",
        "SELECT ?t WHERE { ?c a lj:Chapter ; lj:title ?t } ORDER BY ?t",
    )
    assert list(csv.reader(io.StringIO(titles)))[1:] == [["士丧礼"], ["士相见礼"]]


def test_verbose_build_lists_issues_with_file_and_line(tmp_path: Path) -> None:
    result = RUN.invoke(
        cli,
        [
            "build",
            "-q",
            "-v",
            "--source",
            str(FIXTURES / "paged_shixiangjian.txt"),
            "--store",
            str(tmp_path / "s"),
        ],
    )
    assert result.exit_code == 0
    assert "paged_shixiangjian.txt:18: noise:" in result.output


def test_query_formats(seeds_store: Path) -> None:
    q = (
        "SELECT ?t WHERE { ?c a lj:Chapter ; rdfs:label ?t ; lj:order ?o ; "
        "dcterms:isPartOf/lj:order ?j } ORDER BY ?j ?o"
    )
    data = json.loads(kg("query", "--store", str(seeds_store), "-f", "json", "-e", q))
    chapters = [b["t"]["value"] for b in data["results"]["bindings"]]
    assert chapters == ["士冠礼", "士昏礼", "乡饮酒礼", "乡射礼", "燕礼", "大射仪", "公食大夫礼"]
    tsv = kg("query", "--store", str(seeds_store), "-f", "tsv", "-e", q)
    assert tsv.splitlines()[0] == "?t" and len(tsv.splitlines()) == 8
    table = kg("query", "--store", str(seeds_store), "-e", q)
    assert "乡射礼" in table and "7 rows" in table


def test_construct_as_turtle(seeds_store: Path) -> None:
    ttl = kg(
        "query",
        "--store",
        str(seeds_store),
        "-f",
        "turtle",
        "-e",
        "CONSTRUCT { ?c rdfs:label ?l } WHERE { ?c a lj:Chapter ; rdfs:label ?l }",
    )
    g = Graph().parse(data=ttl, format="turtle")
    assert len(g) == 7


def test_query_by_name_file_and_list(seeds_store: Path, tmp_path: Path) -> None:
    listing = kg("query", "--list")
    assert "chapters-sections" in listing and "section-passages" in listing
    by_name = kg("query", "chapters-sections", "--store", str(seeds_store), "-f", "csv")
    path = tmp_path / "mine.rq"
    path.write_text("SELECT (COUNT(*) AS ?n) WHERE { ?s a lj:Section }", encoding="utf-8")
    by_file = kg("query", str(path), "--store", str(seeds_store), "-f", "csv")
    sections = len(list(csv.reader(io.StringIO(by_name)))) - 1
    assert by_file.splitlines()[1] == str(sections)


def test_bind_accepts_traditional_characters(seeds_store: Path) -> None:
    out = kg(
        "query",
        "section-passages",
        "--store",
        str(seeds_store),
        "-f",
        "csv",
        "--bind",
        "chapter=鄉射禮",
        "--bind",
        "section=請射",
    )
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows and rows[0]["passage"].startswith("三耦俟于堂西")


def test_bind_of_an_unknown_name_is_an_error(seeds_store: Path) -> None:
    # a misspelt parameter would otherwise be ignored and the default answer printed
    store = ["--store", str(seeds_store)]
    bad = RUN.invoke(cli, ["query", "disagreements", *store, "--bind", "term=决"])
    assert bad.exit_code == 2 and "has: a, b, topic" in bad.output
    bad = RUN.invoke(cli, ["query", "-e", "ASK { ?s ?p ?o }", *store, "--bind", "x=1"])
    assert bad.exit_code == 2 and "no variable ?x" in bad.output


def test_stats(seeds_store: Path) -> None:
    data = json.loads(kg("stats", "--store", str(seeds_store), "--json"))
    lj = "https://w3id.org/lijing/ontology#"
    assert data["classes"][lj + "Chapter"] == 7
    assert data["classes"][lj + "Juan"] == 7
    graphs = {g.rsplit("/", 1)[-1] for g in data["graphs"]}
    assert {"text", "commentary", "ontology", "vocabularies"} <= graphs
    assert "lj:Passage" in kg("stats", "--store", str(seeds_store))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["query", "-e", "SELECT WHERE {"], "SPARQL syntax error"),
        (["query", "no-such-query"], "no query named 'no-such-query'"),
        (["query", "missing.rq"], "missing.rq: no such query file"),
    ],
)
def test_query_errors_are_one_line(seeds_store: Path, args: list[str], message: str) -> None:
    result = RUN.invoke(cli, [*args, "--store", str(seeds_store)])
    assert result.exit_code == 1
    assert message in result.output and result.output.count("\n") == 1


def test_missing_store_is_a_user_error(tmp_path: Path) -> None:
    result = RUN.invoke(cli, ["stats", "--store", str(tmp_path / "nothing")])
    assert result.exit_code == 1 and "run `kg build` first" in result.output


def test_usage_errors_exit_2() -> None:
    assert RUN.invoke(cli, ["query"]).exit_code == 2
    assert RUN.invoke(cli, ["build", "--source", "/no/such/path"]).exit_code == 2


def test_rdf_files_go_to_their_own_graph(tmp_path: Path) -> None:
    extra = tmp_path / "links.ttl"
    extra.write_text(
        "<https://w3id.org/lijing/id/xiangsheli> <http://www.w3.org/2002/07/owl#sameAs> "
        "<https://example.org/yili/xiangshe> .\n",
        encoding="utf-8",
    )
    store = tmp_path / "s"
    kg(
        "build",
        "-q",
        "--source",
        str(FIXTURES / "tagged_shisang.txt"),
        "--rdf",
        str(extra),
        "--store",
        str(store),
    )
    out = kg(
        "query",
        "--store",
        str(store),
        "-f",
        "csv",
        "-e",
        "SELECT ?g WHERE { GRAPH ?g { ?s owl:sameAs ?o } }",
    )
    assert out.splitlines()[1] == "https://w3id.org/lijing/id/graph/user/links"
