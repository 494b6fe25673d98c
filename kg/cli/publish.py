"""``kg publish``: push the named graphs to another store (Graph Store Protocol)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from kg.cli.options import store_option


@click.command()
@store_option
@click.option("--endpoint", required=True, help="Graph Store Protocol URL, e.g. …/store.")
@click.option("--auth", default=None, metavar="USER:PASS", help="HTTP authentication.")
@click.option(
    "--digest", is_flag=True, help="Digest authentication (Virtuoso's /sparql-graph-crud-auth)."
)
@click.option("--graph", "graphs", multiple=True, help="Only this named graph (repeatable).")
@click.option("--timeout", default=300.0, show_default=True, type=float, help="Seconds per PUT.")
@click.option(
    "--retries", default=3, show_default=True, type=click.IntRange(0, 20),
    help="Tries again of a graph whose PUT failed (connection, timeout, 5xx, 429).",
)  # fmt: skip
@click.option(
    "--backoff", default=1.0, show_default=True, type=click.FloatRange(0),
    help="Seconds before the first retry; doubled each time.",
)  # fmt: skip
@click.option(
    "--report", "report_to", type=click.Path(path_type=Path, dir_okay=False),
    help="Write what was sent (per graph and in all) as JSON.",
)  # fmt: skip
def publish(
    store: Path,
    endpoint: str,
    auth: str | None,
    digest: bool,
    graphs: tuple[str, ...],
    timeout: float,
    retries: int,
    backoff: float,
    report_to: Path | None,
) -> None:
    """Send each named graph to a SPARQL 1.1 Graph Store (PUT ?graph=IRI), one at a time,
    streamed from a temporary dump, retried with backoff if it fails on the way."""
    from kg.export.publish import Retry, make_auth, parse_auth, report
    from kg.export.publish import publish as run_publish

    sent = run_publish(
        store,
        endpoint,
        auth=make_auth(parse_auth(auth), digest),
        graphs=list(graphs) or None,
        timeout=timeout,
        retry=Retry(retries=retries, backoff=backoff),
        on_sent=_show,
    )
    done = report(sent, endpoint)
    click.echo(_totals(done["total"]))  # type: ignore[arg-type]
    if report_to:
        report_to.write_text(json.dumps(done, ensure_ascii=False, indent=2) + "\n")


def _show(s) -> None:  # type: ignore[no-untyped-def]
    """One line per graph, as it arrives."""
    again = f", {s.retries} {'retry' if s.retries == 1 else 'retries'}" if s.retries else ""
    click.echo(
        f"PUT <{s.graph}> {s.triples:,} triples, {s.bytes / 1e6:.1f} MB → {s.status} "
        f"({s.seconds:.1f} s{again})"
    )


def _totals(t: dict) -> str:
    return (
        f"Published {t['graphs']} graphs, {t['triples']:,} triples, {t['bytes'] / 1e6:.1f} MB "
        f"in {t['seconds']:.1f} s ({t['retries']} retries)"
    )
