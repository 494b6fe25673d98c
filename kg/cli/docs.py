"""``kg docs``: the HTML reference of the ontology and vocabularies (what ``kg serve`` shows at
the ontology IRI)."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.options import store_option


@click.command("docs")
@click.option(
    "-o",
    "--output",
    "out",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Folder to write (default: docs/ beside the store, where kg serve looks).",
)
@store_option
@click.option(
    "--no-data",
    is_flag=True,
    help="From the ontology files alone: no store, no counts or examples.",
)
def docs_command(out: Path | None, store: Path, no_data: bool) -> None:
    """Write ontology.html: classes, properties, alignment, vocabularies, a diagram, examples."""
    from kg.docs import default_docs_dir, render_docs
    from kg.store import open_store

    path = store
    db = None if no_data else open_store(path)
    page = render_docs(db, out or default_docs_dir(path))
    click.echo(f"wrote {page} (and core.svg, ontology.ttl, shapes.ttl, context.jsonld beside it)")
