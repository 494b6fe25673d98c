"""``kg query``: run SPARQL (a file, a named query, or text) over the store."""

from __future__ import annotations

import re
from pathlib import Path

import click

from kg.cli.options import store_option
from kg.rdf.formats import RDF_FORMATS, RESULT_FORMATS
from kg.text.normalize import normalize

FORMATS = ["table", *RESULT_FORMATS, *RDF_FORMATS]  # the registry's, and a table for the terminal


@click.command("query")
@click.argument("query", required=False)
@click.option("-e", "--execute", "text", help="SPARQL text to run.")
@click.option(
    "-f", "--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True
)
@click.option(
    "--bind",
    "binds",
    multiple=True,
    metavar="VAR=VALUE",
    help="Fix a query variable (repeatable), e.g. section-passages --bind section=请射.",
)
@click.option(
    "--list", "list_", is_flag=True, help="List the named queries with their parameters and exit."
)
@store_option
def query(
    query: str | None,
    text: str | None,
    fmt: str,
    binds: tuple[str, ...],
    list_: bool,
    store: Path,
) -> None:
    """Run a SPARQL query: a .rq file, a named query from queries/, or -e 'SPARQL'."""
    from kg.cli.output import print_results
    from kg.queries import list_queries, resolve_query, with_values
    from kg.store import open_store, run_query

    if list_:
        for q in list_queries():
            click.echo(f"{q.name:28} {q.title}")
            if q.params:
                binds = " ".join(f"--bind {k}={v}" for k, v in q.params.items())
                click.echo(f"{'':28}   {binds}")
        return
    if (query is None) == (text is None):
        raise click.UsageError("give a query file or name, or -e 'SPARQL' (not both)")
    named = resolve_query(query) if query is not None else None
    sparql = named.text if named else text or ""
    values = dict(named.params) if named else {}
    for b in binds:
        name, sep, value = b.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"{b!r} is not VAR=VALUE", param_hint="--bind")
        name = name.lstrip("?$")
        if named and named.params and name not in named.params:
            raise click.BadParameter(
                f"{named.name} has no parameter {name!r} (it has: {', '.join(named.params)})",
                param_hint="--bind",
            )
        if not re.search(rf"[?$]{re.escape(name)}\b", sparql):
            raise click.BadParameter(f"the query has no variable ?{name}", param_hint="--bind")
        values[name] = normalize(value)  # names match in normalized form
    db = open_store(store)
    values = {k: normalize(v) for k, v in values.items() if v}
    results = run_query(db, with_values(sparql, values))
    print_results(db, results, fmt)
