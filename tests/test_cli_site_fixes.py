"""Issue 18's command-line fixes, through the real `kg` commands: the documented examples of
the named queries return rows on the seeds, `kg query --help` and `--list` name parameters
that exist, an unknown name gets a suggestion, IRIs print as valid SPARQL, and `kg validate`
tells what it is doing while it works."""

from __future__ import annotations

import csv
import io
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from rdflib.plugins.sparql import prepareQuery
from serving import kg

from kg.cli import cli
from kg.queries import list_queries

QUERIES = {q.name: q for q in list_queries()}
EXAMPLE = re.compile(r"^#\s+kg query\s+(.+)$", re.M)


def documented_examples() -> list[tuple[str, list[str]]]:
    """Each `#   kg query NAME …` line of a query's header, as arguments (no redirection)."""
    out = []
    for q in QUERIES.values():
        for m in EXAMPLE.finditer(q.text.split("\nSELECT", 1)[0]):
            args = shlex.split(m.group(1))
            if ">" in args:
                args = args[: args.index(">")]
            out.append((q.name, args))
    return out


@pytest.mark.parametrize(("name", "args"), documented_examples(), ids=lambda x: str(x)[:40])
def test_every_documented_example_returns_rows(seeds_store: Path, name: str, args) -> None:
    if "tradition" in QUERIES[name].needs:  # the seeds alone hold no other work
        pytest.skip(f"{name} needs the tradition's works: tests/test_tradition_links.py runs it")
    assert args[0] == name, f"{name}.rq documents an example of another query: {args}"
    bound = [a.split("=", 1)[0] for a in args[1:] if "=" in a]
    assert set(bound) <= set(QUERIES[name].params), f"{name} has no parameter among {bound}"
    options = [a for a in args[1:] if a not in ("-f", "csv")]
    r = CliRunner().invoke(
        cli,
        ["query", *args[:1], *options, "--store", str(seeds_store), "-f", "csv"],
    )
    assert r.exit_code == 0, r.output
    rows = list(csv.reader(io.StringIO(r.stdout)))
    assert len(rows) > 1, f"kg query {' '.join(args)} returns nothing on the seeds"


def test_every_query_documents_an_example() -> None:
    documented = {name for name, _ in documented_examples()}
    assert documented == set(QUERIES)


def test_help_example_names_a_parameter_that_exists() -> None:
    text = kg("query", "--help").stdout
    examples = re.findall(r"e\.g\.\s+([\w-]+)\s+--bind\s+(\w+)=", " ".join(text.split()))
    assert examples, text
    for name, param in examples:
        assert param in QUERIES[name].params, f"--help: {name} has no parameter {param}"


def test_list_shows_each_querys_parameters_and_defaults() -> None:
    listing = kg("query", "--list").stdout
    for q in QUERIES.values():
        assert q.name in listing
        for param, default in q.params.items():
            assert f"--bind {param}={default}" in listing, (q.name, param)


def test_an_unknown_name_gets_a_suggestion(seeds_store: Path) -> None:
    r = kg("query", "section-pasages", "--store", str(seeds_store), check=False)
    assert r.returncode != 0
    assert "did you mean section-passages" in r.stderr
    r = kg("query", "zzzz-qqqq", "--store", str(seeds_store), check=False)
    assert "did you mean" not in r.stderr and "--list" in r.stderr


def test_iris_in_a_table_are_valid_sparql(seeds_store: Path) -> None:
    """Each IRI cell can be pasted back into a query: a prefixed name only where valid."""
    out = kg(
        "query",
        "--store",
        str(seeds_store),
        "-e",
        "SELECT ?s WHERE { { SELECT ?s { ?s a lj:Passage } LIMIT 30 } UNION "
        "{ SELECT ?s { ?s a lj:Role } LIMIT 30 } }",
    ).stdout
    cells = [c.strip() for line in out.splitlines() for c in line.split("│")[1:-1]]
    cells = [c for c in cells if c and c != "s"]
    assert any(c.startswith("<") for c in cells) and any(c.startswith("role:") for c in cells)
    prologue = "PREFIX role: <https://w3id.org/lijing/id/role/>\n"
    for c in cells:
        prepareQuery(f"{prologue}ASK {{ {c} ?p ?o }}")  # raises on an invalid term


def test_validate_reports_progress_on_stderr(seeds_store: Path) -> None:
    r = kg("validate", "--store", str(seeds_store), "--owl-sample", "0", check=False)
    steps = [line for line in r.stderr.splitlines() if line.startswith("kg validate:")]
    assert any("reading the store" in s for s in steps)
    assert any("SHACL" in s for s in steps) and steps[-1].endswith("(4/4)")
    assert "kg validate:" not in r.stdout and "valid" in r.stdout
