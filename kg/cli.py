"""``kg``: build, query and inspect the lijing knowledge graph.

Each command parses its options and calls a plain function; library errors (KgError) become
one-line messages here and nowhere else. Exit codes: 0 ok, 1 user error, 2 usage.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import click

from kg import __version__
from kg.cli_options import store_option
from kg.errors import KgError
from kg.normalize import normalize
from kg.rdf.namespaces import DEFAULT_BASE
from kg.resources import default_sources, default_store, queries_dir


def _store(path: Path | None) -> Path:
    return path or default_store()


class KgGroup(click.Group):
    """Turns KgError into a one-line message and exit code 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KgError as e:
            raise click.ClickException(str(e)) from None
        except KeyboardInterrupt:
            click.echo("interrupted; the previous store is unchanged", err=True)
            sys.exit(130)


@click.group(cls=KgGroup)
@click.version_option(__version__, prog_name="kg")
def cli() -> None:
    """lijing-kg: a knowledge graph of 礼经本义 (蔡德晋's commentary on the 仪礼)."""


# -- build ------------------------------------------------------------------------------------


@cli.command()
@click.option(
    "--source",
    "sources",
    multiple=True,
    type=click.Path(path_type=Path, exists=True),
    help="File or folder to read (repeatable; default: seeds/).",
)
@store_option
@click.option(
    "--rdf",
    "rdf",
    multiple=True,
    metavar="[GRAPH_IRI=]FILE",
    help="RDF file to add, in its own named graph: GRAPH_IRI, or graph/user/<file stem>.",
)
@click.option("--base", default=DEFAULT_BASE, show_default=True, help="Base IRI of the data.")
@click.option("--encoding", default="utf-8", show_default=True, help="Text encoding of sources.")
@click.option("-v", "--verbose", is_flag=True, help="List every reported issue.")
@click.option("-q", "--quiet", is_flag=True, help="No progress display.")
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Processes that find mentions and acts (the graph is the same for any number).",
)
def build(
    sources: tuple[Path, ...],
    store: Path | None,
    rdf: tuple[str, ...],
    base: str,
    encoding: str,
    verbose: bool,
    quiet: bool,
    jobs: int,
) -> None:
    """Read the sources and build the graph into the store (replacing it only on success)."""
    from kg.build import build as run_build
    from kg.build import rdf_argument
    from kg.cli_output import build_progress, print_build_report

    files = [rdf_argument(r) for r in rdf]
    for f in files:
        path = f[1] if isinstance(f, tuple) else f
        if not path.is_file():
            raise click.BadParameter(f"{path}: no such file", param_hint="--rdf")
    with build_progress(quiet) as progress:
        report = run_build(
            list(sources) or default_sources(),
            _store(store),
            base=base,
            encoding=encoding,
            rdf=files,
            progress=progress,
            jobs=jobs,
        )
    print_build_report(report, verbose)


# -- query ------------------------------------------------------------------------------------

FORMATS = ["table", "json", "csv", "tsv", "xml", "turtle", "ntriples", "nquads", "jsonld", "rdfxml"]


@cli.command()
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
    help="Fix a query variable (repeatable), e.g. --bind title=请射.",
)
@click.option("--list", "list_", is_flag=True, help="List the named queries and exit.")
@store_option
def query(
    query: str | None,
    text: str | None,
    fmt: str,
    binds: tuple[str, ...],
    list_: bool,
    store: Path | None,
) -> None:
    """Run a SPARQL query: a .rq file, a named query from queries/, or -e 'SPARQL'."""
    from kg.cli_output import print_results
    from kg.queries import list_queries, resolve_query, with_values
    from kg.store import open_store, run_query

    if list_:
        for q in list_queries():
            click.echo(f"{q.name:28} {q.title}")
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
    db = open_store(_store(store))
    values = {k: normalize(v) for k, v in values.items() if v}
    results = run_query(db, with_values(sparql, values))
    print_results(db, results, fmt)


# -- stats ------------------------------------------------------------------------------------


@cli.command()
@store_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def stats(store: Path | None, as_json: bool) -> None:
    """Counts per class and per named graph."""
    from kg.cli_output import print_stats
    from kg.store import class_counts, graph_counts, open_store

    db = open_store(_store(store))
    classes, graphs = class_counts(db), graph_counts(db)
    if as_json:
        click.echo(json.dumps({"classes": classes, "graphs": graphs}, ensure_ascii=False, indent=2))
    else:
        print_stats(classes, graphs)


# -- commands defined in their own modules: one import and one add_command line each ---------

from kg.cli_eval import eval_command  # noqa: E402

cli.add_command(eval_command)
from kg.cli_lexicon import lexicon  # noqa: E402

cli.add_command(lexicon)
from kg.cli_serve import publish, serve  # noqa: E402

cli.add_command(serve)
cli.add_command(publish)
from kg.cli_export import export_command  # noqa: E402

cli.add_command(export_command)
from kg.cli_validate import validate_command  # noqa: E402

cli.add_command(validate_command)
from kg.cli_docs import docs_command  # noqa: E402

cli.add_command(docs_command)
# (end of command modules)


def main() -> None:  # pragma: no cover
    cli()


if __name__ == "__main__":  # pragma: no cover
    main()

__all__ = ["cli", "queries_dir"]
