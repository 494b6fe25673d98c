"""``kg build``: read the sources and build the graph into the store."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.options import store_option
from kg.rdf.namespaces import DEFAULT_BASE
from kg.resources import default_sources


class SourceType(click.ParamType):
    """A file or folder that exists, or ``kanripo:ID`` (fetched into the cache when built)."""

    name = "PATH|kanripo:ID"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None):
        if isinstance(value, str) and value.startswith("kanripo:"):
            return value
        return click.Path(path_type=Path, exists=True).convert(value, param, ctx)


@click.command("build")
@click.option(
    "--source",
    "sources",
    multiple=True,
    type=SourceType(),
    help="File or folder to read, or kanripo:ID (repeatable; default: seeds/).",
)
@store_option
@click.option(
    "--cache",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Where kanripo: sources are cloned (default: $KG_CACHE or cache/ beside the store).",
)
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
    sources: tuple[Path | str, ...],
    store: Path,
    cache: Path | None,
    rdf: tuple[str, ...],
    base: str,
    encoding: str,
    verbose: bool,
    quiet: bool,
    jobs: int,
) -> None:
    """Read the sources and build the graph into the store (replacing it only on success)."""
    from kg.build.fetch import resolve_sources
    from kg.build.run import build as run_build
    from kg.build.run import rdf_argument
    from kg.cli.output import build_progress, print_build_report

    files = [rdf_argument(r) for r in rdf]
    for f in files:
        if not f.path.is_file():
            raise click.BadParameter(f"{f.path}: no such file", param_hint="--rdf")
    paths = resolve_sources(list(sources), store, cache) if sources else default_sources()
    with build_progress(quiet) as progress:
        report = run_build(
            paths,
            store,
            base=base,
            encoding=encoding,
            rdf=files,
            progress=progress,
            jobs=jobs,
        )
    print_build_report(report, verbose)
