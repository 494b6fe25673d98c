"""``kg export``: the built graph in the formats other tools read.

Formats are registered by name; each belongs to a family that decides what ``--layer``
means: for ``rdf`` formats a layer is a named graph of the store (``text``, ``commentary``,
``mentions``, ``acts``, ``vocabularies``, ``ontology``, ``user/NAME``); for ``graph`` formats
it is a set of edges from ``graph.toml`` (``text``, ``commentary``, ``mentions``, ``acts``,
``ritual``, ``vocabularies``). ``--chapter`` keeps one chapter (see :mod:`kg.export.select`).

>>> sorted(f for f in FORMATS if FORMATS[f].family == "rdf")
['jsonld', 'nquads', 'trig', 'turtle']
>>> FORMATS["gexf"].suffix
'.gexf'
"""

from __future__ import annotations

import gzip
import io
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from kg.errors import KgError
from kg.rdf.formats import RDF_FORMATS


@dataclass(frozen=True)
class Format:
    name: str
    family: str  # "rdf" or "graph"
    suffix: str
    media_type: str
    description: str


FORMATS = {
    f.name: f
    for f in (
        *(
            Format(
                name,
                "rdf",
                f".{RDF_FORMATS[name].suffix}",
                RDF_FORMATS[name].media_type,
                description,
            )
            for name, description in (
                ("turtle", "Turtle: the union of the layers"),
                ("trig", "TriG: one block per named graph"),
                ("nquads", "N-Quads, lines sorted"),
                ("jsonld", "JSON-LD with the lijing @context"),
            )
        ),
        Format("graphml", "graph", ".graphml", "application/graphml+xml", "GraphML (Gephi, yEd)"),
        Format("gexf", "graph", ".gexf", "application/gexf+xml", "GEXF 1.2 (Gephi)"),
        Format("cytoscape", "graph", ".cyjs", "application/json", "Cytoscape.js JSON"),
        Format("csv", "graph", ".csv", "text/csv", "nodes.csv + edges.csv (Neo4j headers)"),
    )
}


@dataclass
class ExportResult:
    format: str
    files: list[Path]  # empty when written to a stream
    size: int  # bytes written
    counts: dict[str, int]  # quads and graphs, or nodes and edges
    details: dict[str, int] = field(default_factory=dict)  # per graph, or per class/relation


def render(
    db: object, fmt: str, layers: Iterable[str] = (), chapter: str | None = None
) -> tuple[dict[str, bytes], dict[str, int], dict[str, int]]:
    """The export as ``{file name: bytes}`` (one unnamed file ``""`` except for csv), with
    counts and details."""
    from kg.export.select import resolve_chapter

    if fmt not in FORMATS:
        raise KgError(f"unknown export format {fmt!r} (one of {', '.join(FORMATS)})")
    chapter_iri = resolve_chapter(db, chapter) if chapter else None
    if FORMATS[fmt].family == "rdf":
        return _render_rdf(db, fmt, layers, chapter_iri)
    return _render_graph(db, fmt, layers, chapter_iri)


def _render_rdf(
    db: object, fmt: str, layers: Iterable[str], chapter: str | None
) -> tuple[dict[str, bytes], dict[str, int], dict[str, int]]:
    from kg.export import rdf
    from kg.export.graph import load_config
    from kg.export.select import chapter_members, layer_graphs, resolve_layers

    graphs = resolve_layers(db, layers)
    members = chapter_members(db, chapter, load_config().chapter_links) if chapter else None
    names = {iri: name for name, iri in layer_graphs(db).items()}
    lines = rdf.nquad_lines(db, graphs, members)
    details: dict[str, int] = {}
    for line in lines:
        g = rdf.graph_of(line)
        details[names.get(g, g)] = details.get(names.get(g, g), 0) + 1
    if fmt == "turtle":
        counts = {"triples": rdf.union_size(lines), "graphs": len(details)}
    else:
        counts = {"quads": len(lines), "graphs": len(details)}
    return {"": rdf.serialize(db, lines, fmt)}, counts, details


def _render_graph(
    db: object, fmt: str, layers: Iterable[str], chapter: str | None
) -> tuple[dict[str, bytes], dict[str, int], dict[str, int]]:
    from kg.export.cytoscape import cytoscape
    from kg.export.graph import build_graph
    from kg.export.graphtools import gexf, graphml
    from kg.export.tables import csv_files

    pg = build_graph(db, layers, chapter)
    writers = {"graphml": graphml, "gexf": gexf, "cytoscape": cytoscape}
    files = csv_files(pg) if fmt == "csv" else {"": writers[fmt](pg)}
    details = {**{f"class {k}": v for k, v in pg.by_class().items()}}
    details.update({f"relation {k}": v for k, v in pg.by_relation().items()})
    return files, pg.counts(), details


def export(
    db: object,
    fmt: str,
    out: Path | None,
    *,
    layers: Iterable[str] = (),
    chapter: str | None = None,
    compress: bool = False,
    stream: BinaryIO | None = None,
) -> ExportResult:
    """Render and write: to ``out`` (a file; for csv a folder or a ``.zip``) or to ``stream``.

    ``compress`` (or an ``out`` ending in ``.gz``) gzips the output, reproducibly (no time
    stamp in the gzip header)."""
    files, counts, details = render(db, fmt, layers, chapter)
    if out is not None and out.suffix == ".gz":
        compress = True
    if fmt == "csv":
        if out is None:
            raise KgError(
                "csv writes two files (nodes.csv, edges.csv): give -o FOLDER or -o FILE.zip"
            )
        written = _write_csv(files, out, compress)
        return ExportResult(fmt, written, sum(p.stat().st_size for p in written), counts, details)
    data = files[""]
    if compress:
        data = gzip.compress(data, mtime=0)
    if out is None:
        if stream is None:
            raise KgError("no output: give -o FILE")
        stream.write(data)
        stream.flush()
        return ExportResult(fmt, [], len(data), counts, details)
    _write(out, data)
    return ExportResult(fmt, [out], len(data), counts, details)


def _write(path: Path, data: bytes) -> None:
    """Write whole or not at all: a temporary file beside the target, then a rename."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.part")
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError as e:
        raise KgError(f"{path}: cannot write: {e.strerror or e}") from None


def _write_csv(files: dict[str, bytes], out: Path, compress: bool) -> list[Path]:
    if out.suffix == ".zip":
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in files.items():
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # reproducible
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, data)
        _write(out, buf.getvalue())
        return [out]
    if out.exists() and not out.is_dir():
        raise KgError(f"{out}: csv writes two files; give a folder or a .zip, not a file")
    written = []
    for name, data in files.items():
        path = out / (name + ".gz" if compress else name)
        _write(path, gzip.compress(data, mtime=0) if compress else data)
        written.append(path)
    return written
