"""``kg stats``: instances per class, triples per named graph."""

from __future__ import annotations

import json
from pathlib import Path

import click

from kg.cli.options import store_option


@click.command("stats")
@store_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def stats(store: Path, as_json: bool) -> None:
    """Counts per class and per named graph."""
    from kg.cli.output import print_stats
    from kg.store import class_counts, graph_counts, open_store

    db = open_store(store)
    classes, graphs = class_counts(db), graph_counts(db)
    if as_json:
        click.echo(json.dumps({"classes": classes, "graphs": graphs}, ensure_ascii=False, indent=2))
    else:
        print_stats(classes, graphs)
