"""How the CLI shows things: progress, build reports, result tables, stats (CLI layer only)."""

from __future__ import annotations

import contextlib
import sys
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from kg.rdf.prefixes import PREFIXES, data_prefixes, sparql_term
from kg.store import is_boolean, is_graph, rows, serialize_results, store_base

if TYPE_CHECKING:  # kg.build pulls in spaCy: `kg query` should not wait for it
    from kg.build.run import BuildReport
    from kg.build.run import Progress as ProgressFn


@contextlib.contextmanager
def build_progress(quiet: bool) -> Iterator[ProgressFn | None]:
    if quiet or not sys.stderr.isatty():
        yield None
        return
    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("starting", total=None)

        def update(what: str, done: int, total: int) -> None:
            bar.update(task, description=what, completed=done, total=total or None)

        yield update


def print_links(c: dict[str, int]) -> None:
    """The tradition linked to the book (kg.build.link): parallels, quotations, and what was
    not found — passages with no parallel in a work, quoting opinions with no source."""
    parts = [
        ("parallels", "parallels"),
        ("classic variants", "classic variants"),
        ("quoting opinions", "quoting opinions"),
        ("quotations", "quotations"),
        ("quotations verbatim", "verbatim"),
        ("quotations abridged", "abridged"),
        ("quotations paraphrase", "paraphrase"),
    ]
    click.echo("  linked: " + " · ".join(f"{label} {c.get(key, 0):,}" for key, label in parts))
    missing = sorted((k, n) for k, n in c.items() if k.startswith(("untraced", "passages without")))
    if missing:
        click.echo("  not found: " + " · ".join(f"{k} {n:,}" for k, n in missing))


@contextlib.contextmanager
def step_progress(command: str) -> Iterator[ProgressFn]:
    """Steps of a slow command on stderr: a live bar on a terminal, else one line a step."""
    if not sys.stderr.isatty():

        def say(what: str, done: int, total: int) -> None:
            click.echo(f"{command}: {what} ({done}/{total})", err=True)

        yield say
        return
    with build_progress(False) as update:
        assert update is not None
        yield update


def print_build_report(r: BuildReport, verbose: bool) -> None:
    c = r.counts
    click.echo(f"Built {r.store} from {len(r.sources)} files in {r.seconds:.1f} s")
    parts = [
        ("juan", "juan"),
        ("chapters", "chapters"),
        ("sections", "sections"),
        ("passages", "passages"),
        ("records", "records"),
        ("commentaries", "commentaries"),
        ("prefaces", "prefaces"),
        ("notes", "textual/source notes"),
        ("opinions", "opinions"),
        ("reports", "reports"),
        ("glosses", "glosses"),
        ("citations", "citations"),
        ("judgements", "judgements"),
        ("reading notes", "reading notes"),
        ("step labels", "step labels"),
        ("new commentators", "new commentators"),
        ("mentions", "mentions"),
        ("acts", "ritual acts"),
        ("positions", "positions"),
        ("agent positions", "agent positions"),
        ("derived relations", "derived relations"),
        ("witnesses", "witness readings"),
    ]
    click.echo("  " + " · ".join(f"{label} {c.get(key, 0):,}" for key, label in parts))
    for title, w in r.works.items():  # each work of the tradition read beside the book
        counts = ("juan", "chapters", "sections", "passages", "records", "blocks", "opinions")
        click.echo(f"  {title}: " + " · ".join(f"{k} {w.get(k, 0):,}" for k in counts))
    if r.works:
        print_links(c)
    layers = " · ".join(f"{g.rsplit('/', 1)[-1]} {n:,}" for g, n in r.graphs.items())
    click.echo(f"  triples {r.triples:,} ({layers})")
    if verbose and r.phases:
        spent = " · ".join(f"{k} {v:.1f}" for k, v in r.phases.items())
        click.echo(f"  seconds: {spent}")
    kinds = Counter(i.kind for _, i in r.issues)
    if kinds:
        summary = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
        hint = "" if verbose else " (kg build -v lists them)"
        click.echo(f"  reported: {summary}{hint}")
    if verbose:
        for path, i in r.issues:
            click.echo(f"{path}:{i.line}: {i.kind}: {i.message}", err=True)


def _compact(iri: str, prefixes: dict[str, str]) -> str:
    return sparql_term(iri, prefixes)  # what can be pasted back into a query


def print_results(store: object, results: object, fmt: str) -> None:
    prefixes = {**PREFIXES, **data_prefixes(store_base(store))}  # type: ignore[arg-type]
    if is_graph(results):
        out = serialize_results(results, "turtle" if fmt == "table" else fmt, prefixes)
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
        return
    if fmt != "table":
        sys.stdout.buffer.write(serialize_results(results, fmt))
        sys.stdout.flush()
        return
    if is_boolean(results):
        click.echo("true" if bool(results) else "false")
        return
    names, body = rows(results)  # type: ignore[arg-type]
    table = Table(*names, show_lines=False, header_style="bold")
    n = 0
    for row in body:
        n += 1
        cells = []
        for cell in row:
            if cell is None:
                cells.append("")
            elif cell.kind == "iri":
                cells.append(_compact(cell.value, prefixes))
            else:
                cells.append(cell.value)
        table.add_row(*cells)
    Console(soft_wrap=False).print(table)
    click.echo(f"{n} row{'s' if n != 1 else ''}", err=True)


def print_stats(classes: dict[str, int], graphs: dict[str, int]) -> None:
    prefixes = PREFIXES
    t = Table("class", "instances", header_style="bold")
    for c, n in classes.items():
        t.add_row(_compact(c, prefixes), f"{n:,}")
    g = Table("named graph", "triples", header_style="bold")
    for name, n in graphs.items():
        g.add_row(name, f"{n:,}")
    g.add_row("(all)", f"{sum(graphs.values()):,}")
    console = Console()
    console.print(t)
    console.print(g)
