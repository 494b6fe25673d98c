"""``kg publish``: push the named graphs to another store (Graph Store Protocol)."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.options import store_option


@click.command()
@store_option
@click.option("--endpoint", required=True, help="Graph Store Protocol URL, e.g. …/store.")
@click.option("--auth", default=None, metavar="USER:PASS", help="HTTP basic authentication.")
@click.option("--graph", "graphs", multiple=True, help="Only this named graph (repeatable).")
@click.option("--timeout", default=300.0, show_default=True, type=float, help="Seconds per PUT.")
def publish(
    store: Path, endpoint: str, auth: str | None, graphs: tuple[str, ...], timeout: float
) -> None:
    """Send each named graph to a SPARQL 1.1 Graph Store (PUT ?graph=IRI)."""
    from kg.export.publish import parse_auth
    from kg.export.publish import publish as run_publish

    def show(s) -> None:  # type: ignore[no-untyped-def]
        click.echo(f"PUT <{s.graph}> {s.triples:,} triples → {s.status} ({s.seconds:.1f} s)")

    sent = run_publish(
        store,
        endpoint,
        auth=parse_auth(auth),
        graphs=list(graphs) or None,
        timeout=timeout,
        on_sent=show,
    )
    click.echo(f"Published {len(sent)} graphs, {sum(s.triples for s in sent):,} triples")
