"""``kg lexicon``: look after the vocabularies the extractor reads."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from kg.cli.options import store_option


@click.group("lexicon")
def lexicon() -> None:
    """Inspect the lexicon (the SKOS vocabularies in ontology/)."""


@lexicon.command("gaps")
@store_option
@click.option("--min-count", default=2, show_default=True, help="Report terms seen this often.")
@click.option("--limit", default=60, show_default=True, help="Rows per kind.")
@click.option("--kind", type=click.Choice(["role", "object", "place", "commentator", "work"]))
def gaps(store: Path, min_count: int, limit: int, kind: str | None) -> None:
    """Candidate terms the lexicon lacks, ranked, for a curator to review."""
    from kg.eval.gaps import find_gaps
    from kg.store import open_store

    found = find_gaps(open_store(store), min_count)
    table = Table("kind", "candidate", "seen", "found by", "first in", header_style="bold")
    shown: dict[str, int] = {}
    for c in found:
        if kind and c.kind != kind:
            continue
        if shown.get(c.kind, 0) >= limit:
            continue
        shown[c.kind] = shown.get(c.kind, 0) + 1
        table.add_row(c.kind, c.term, str(c.count), c.probe, c.example)
    Console().print(table)


@lexicon.command("lookup")
@click.argument("term")
def lookup(term: str) -> None:
    """The concepts a term matches (any written form)."""
    from kg.nlp.lexicon import load_lexicon
    from kg.text.normalize import normalize

    entries = load_lexicon().entries.get(normalize(term), ())
    if not entries:
        raise click.ClickException(f"{term}: not in the lexicon (kg lexicon gaps lists candidates)")
    for e in entries:
        click.echo(f"{e.type}\t{e.slug}\t{e.iri}" + ("\tambiguous" if e.ambiguous else ""))
