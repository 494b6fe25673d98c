"""``kg export``: the graph as RDF dumps or as files for Gephi, Cytoscape, spreadsheets, Neo4j."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kg.cli.options import store_option
from kg.export import FORMATS


@click.command("export")
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(list(FORMATS)),
    required=True,
    help="turtle, trig, nquads, jsonld (RDF); graphml, gexf, cytoscape, csv (graph tools).",
)
@click.option(
    "-o",
    "--output",
    "out",
    type=click.Path(path_type=Path),
    default=None,
    help="File to write (default: standard output); for csv a folder or a .zip.",
)
@click.option("--gzip", "compress", is_flag=True, help="Compress with gzip (also for -o FILE.gz).")
@click.option(
    "--layer",
    "layers",
    multiple=True,
    metavar="NAME",
    help="Repeatable. RDF formats: a named graph (text, commentary, mentions, acts, "
    "vocabularies, ontology, user/NAME). Graph formats: text, commentary, mentions, acts, "
    "ritual (roles-objects-places), vocabularies. Default: all (graph formats leave out "
    "vocabularies).",
)
@click.option("--chapter", help="Only one chapter: its slug (xiangsheli), title (乡射礼) or IRI.")
@store_option
def export_command(
    fmt: str,
    out: Path | None,
    compress: bool,
    layers: tuple[str, ...],
    chapter: str | None,
    store: Path,
) -> None:
    """Write the graph in a format other tools read, in a stable order."""
    from kg.export import export
    from kg.store import open_store

    if out is None and fmt == "csv":
        raise click.UsageError("csv writes nodes.csv and edges.csv: give -o FOLDER or -o FILE.zip")
    if out is None and compress and sys.stdout.isatty():
        raise click.UsageError("gzip output to a terminal: give -o FILE.gz or redirect it")
    db = open_store(store)
    result = export(
        db,
        fmt,
        out,
        layers=layers,
        chapter=chapter,
        compress=compress,
        stream=sys.stdout.buffer if out is None else None,
    )
    counts = " · ".join(f"{k} {v:,}" for k, v in result.counts.items())
    where = ", ".join(map(str, result.files)) or "standard output"
    click.echo(f"{fmt}: {counts} · {result.size:,} bytes → {where}", err=True)
