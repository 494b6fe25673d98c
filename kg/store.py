"""The only module that imports pyoxigraph: build a store, open it, query it, dump it.

A store path (default ``.kg/store``) is a symbolic link to a complete build under
``.kg/.store.builds/``. A build writes a new directory, bulk-loads it in batches, optimizes
and closes it, then swaps the link in one ``rename``: a failed or interrupted build leaves
the previous store as it was, and a server that opened the previous build keeps reading it.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import pyoxigraph as ox

from kg.build.phases import Phases
from kg.errors import QueryError, QueryFailed, QuerySyntaxError, StoreError
from kg.rdf import formats
from kg.rdf.namespaces import DEFAULT_BASE, LJ
from kg.rdf.prefixes import PREFIXES, data_prefixes

# the registry's formats as Oxigraph's
OX_RESULTS = {
    f.name: getattr(ox.QueryResultsFormat, f.oxigraph) for f in formats.RESULT_FORMATS.values()
}
OX_RDF = {f.name: getattr(ox.RdfFormat, f.oxigraph) for f in formats.RDF_FORMATS.values()}


# -- terms ------------------------------------------------------------------------------------


def to_nquads(quads: Iterable[tuple]) -> bytes:
    r"""N-Quads text of the emitter's quads (IRIs as str, literals as ``Lit``).

    Oxigraph's parser then makes the terms in Rust, in the loader thread, instead of one
    Python object per term here: the emitting thread spends about a quarter of the time.

    >>> from kg.rdf.terms import Lit
    >>> to_nquads([("http://s", "http://p", Lit('a"b', "lzh"), "http://g")])
    b'<http://s> <http://p> "a\\"b"@lzh <http://g> .\n'
    """
    lines: list[str] = []
    add = lines.append
    for s, p, o, g in quads:
        if isinstance(o, str):
            add(f"<{s}> <{p}> <{o}> <{g}> .\n")
            continue
        v, lang, datatype = o
        if '"' in v or "\\" in v or "\n" in v or "\r" in v:  # rare: escape only then
            v = v.replace("\\", "\\\\").replace('"', '\\"')
            v = v.replace("\n", "\\n").replace("\r", "\\r")
        if lang:
            add(f'<{s}> <{p}> "{v}"@{lang} <{g}> .\n')
        elif datatype:
            add(f'<{s}> <{p}> "{v}"^^<{datatype}> <{g}> .\n')
        else:
            add(f'<{s}> <{p}> "{v}" <{g}> .\n')
    return "".join(lines).encode()


def _chunks(items: Iterable, size: int) -> Iterator[list]:
    it = iter(items)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


# -- building ---------------------------------------------------------------------------------


@dataclass
class RdfFile:
    path: Path
    graph: str
    base_iri: str | None = None
    rewrite: tuple[str, str] | None = None  # (old prefix, new prefix) applied to the text


BATCH = 100_000  # quads per bulk load: memory stays flat, speed as for one load


def build_store(
    target: Path,
    quads: Iterable[tuple],
    files: list[RdfFile],
    on_progress: Callable[[str], None] = lambda _: None,
    phases: Phases | None = None,
    batch: int = BATCH,
) -> dict[str, int]:
    """Write a new store and swap it in at ``target``; return triples per named graph.

    Quads are pulled from ``quads`` and bulk-loaded ``batch`` at a time into a fresh
    directory that replaces ``target`` only once complete. Oxigraph's bulk loader gathers
    all it is given in memory before loading, so at most two batches are held: the one
    loading and the one being made.
    """
    phases = phases or Phases()
    target = Path(target)
    builds = target.parent / f".{target.name}.builds"
    builds.mkdir(parents=True, exist_ok=True)
    # unique even for two builds in one second from one process (a name shared with the live
    # build would have the failed one remove it)
    fresh = Path(tempfile.mkdtemp(prefix=f"{time.strftime('%Y%m%dT%H%M%S')}-", dir=builds))
    try:
        store = ox.Store(str(fresh))
        on_progress("loading")
        # the emitter's quads as N-Quads text, then the --rdf files' quads as they parse
        jobs = itertools.chain(
            ((store.bulk_load, to_nquads(c), ox.RdfFormat.N_QUADS) for c in _chunks(quads, batch)),
            ((store.bulk_extend, c) for f in files for c in _chunks(_file_quads(f), batch)),
        )
        # one batch loads in a thread (Oxigraph releases the GIL) while the next is made
        with ThreadPoolExecutor(1) as loader:
            pending: Future | None = None
            while True:
                with phases("emission"):  # includes what the emitter asks of the extractor
                    job = next(jobs, None)
                with phases("loading"):  # waiting for the loader
                    if pending is not None:
                        _loaded(pending)
                        pending = None
                if job is None:
                    break
                pending = loader.submit(*job)
        on_progress("optimizing")
        with phases("loading"):
            store.optimize()
            counts = graph_counts(store)
            store.flush()
        del store
        _swap(target, fresh, builds)
    except BaseException:
        # close the half-built store first (the batch generators, the last job and the loader's
        # future all hold it): an open store may write into its directory after the removal
        store = jobs = job = pending = None  # noqa: F841
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    return counts


def _loaded(pending: Future) -> None:
    try:
        pending.result()
    except SyntaxError as e:  # only a bug in the emitter can write bad N-Quads
        msg = f"internal error: the emitter wrote invalid RDF: {_one_line(str(e))}"
        raise StoreError(msg) from None


def _file_quads(f: RdfFile) -> Iterator[ox.Quad]:
    """Quads of an RDF file; its triples go to the file's own named graph."""
    fmt = ox.RdfFormat.from_extension(f.path.suffix.lstrip(".")) if f.path.suffix else None
    if fmt is None:
        raise StoreError(f"{f.path}: unknown RDF format (use .ttl, .nt, .nq, .trig, .rdf, .jsonld)")
    data = f.path.read_bytes()
    if f.rewrite:
        data = data.replace(f.rewrite[0].encode(), f.rewrite[1].encode())
    graph = ox.NamedNode(f.graph)
    try:
        for q in ox.parse(data, format=fmt, base_iri=f.base_iri):
            if isinstance(q, ox.Triple) or isinstance(q.graph_name, ox.DefaultGraph):
                yield ox.Quad(q.subject, q.predicate, q.object, graph)
            else:
                yield q
    except SyntaxError as e:
        line = getattr(e, "lineno", None)
        where = f"{f.path}:{line}" if line else str(f.path)
        raise StoreError(f"{where}: not valid RDF: {_one_line(str(e))}") from None


def _swap(target: Path, fresh: Path, builds: Path) -> None:
    """Point ``target`` at ``fresh`` atomically; keep the previous build, drop older ones."""
    previous = target.resolve() if target.is_symlink() else None
    if target.exists() and not target.is_symlink():
        # a store made by hand or by another tool: keep it beside the builds
        target.rename(builds / f"{target.name}-before-{time.strftime('%Y%m%dT%H%M%S')}")
    link = target.parent / f".{target.name}.link-{os.getpid()}"
    if link.is_symlink() or link.exists():
        link.unlink()
    os.symlink(os.path.relpath(fresh, target.parent), link)
    os.replace(link, target)
    keep = {fresh.resolve(), previous}
    for old in builds.iterdir():
        if old.resolve() not in keep and old.is_dir() and "-before-" not in old.name:
            shutil.rmtree(old, ignore_errors=True)


# -- reading ----------------------------------------------------------------------------------


# the store open_store opened last, and its base IRI once read: a read-only store never
# changes, and the server's workers ask for the base on every query (one slot: a worker
# serves one build at a time, and the slot must not keep an old build open)
_READ_ONLY: dict[int, tuple[ox.Store, str | None]] = {}


def open_store(path: Path) -> ox.Store:
    """The finished store at ``path``, read-only (a build may be writing its successor)."""
    path = Path(path)
    if not path.exists():
        raise StoreError(f"{path}: no store here; run `kg build` first (or pass --store)")
    _READ_ONLY.clear()
    try:
        store = ox.Store.read_only(str(path.resolve()))
    except OSError as e:
        raise StoreError(f"{path}: cannot open the store: {e}") from None
    _READ_ONLY[id(store)] = (store, None)
    return store


def store_base(store: ox.Store) -> str:
    """The base IRI the store was built with (read off the work's IRI)."""
    known = _READ_ONLY.get(id(store))
    if known is not None and known[0] is store and known[1] is not None:
        return known[1]
    base = _read_base(store)
    if known is not None and known[0] is store:
        _READ_ONLY[id(store)] = (store, base)
    return base


def _read_base(store: ox.Store) -> str:
    q = f"SELECT ?w WHERE {{ ?w a <{LJ.Work}> }} LIMIT 1"
    for r in store.query(q, use_default_graph_as_union=True):
        iri = r["w"].value
        return iri[: iri.rfind("/") + 1]
    return DEFAULT_BASE


def graph_counts(store: ox.Store) -> dict[str, int]:
    q = "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ORDER BY ?g"
    return {str(r["g"].value): int(r["n"].value) for r in store.query(q)}


def class_counts(store: ox.Store) -> dict[str, int]:
    q = "SELECT ?c (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a ?c } GROUP BY ?c ORDER BY DESC(?n) ?c"
    return {
        str(r["c"].value): int(r["n"].value)
        for r in store.query(q, use_default_graph_as_union=True)
    }


def run_query(
    store: ox.Store, sparql: str, *, prefixes: dict[str, str] | None = None
) -> ox.QuerySolutions | ox.QueryBoolean | ox.QueryTriples:
    """Run SPARQL over the union of the named graphs, with the usual prefixes predeclared."""
    try:
        return store.query(
            sparql,
            prefixes={**PREFIXES, **data_prefixes(store_base(store)), **(prefixes or {})},
            use_default_graph_as_union=True,
        )
    except SyntaxError as e:
        raise QuerySyntaxError(f"SPARQL syntax error: {_one_line(str(e))}") from None
    except OSError as e:
        raise QueryFailed(f"query failed: {_one_line(str(e))}") from None


def _one_line(s: str) -> str:
    return " ".join(s.split())


def serialize_results(results: object, fmt: str, prefixes: dict[str, str] | None = None) -> bytes:
    """SELECT/ASK results in a SPARQL results format, or graph results in an RDF format
    (Turtle and TriG abbreviated with ``prefixes``)."""
    if isinstance(results, ox.QueryTriples):
        if fmt not in OX_RDF:
            raise QueryError(f"graph results need an RDF format ({', '.join(OX_RDF)})")
        return ox.serialize(results, format=OX_RDF[fmt], prefixes=prefixes) or b""
    if fmt not in OX_RESULTS:
        raise QueryError(f"SELECT/ASK results need one of: table, {', '.join(OX_RESULTS)}")
    return results.serialize(format=OX_RESULTS[fmt]) or b""  # type: ignore[union-attr]


def is_boolean(results: object) -> bool:
    return isinstance(results, ox.QueryBoolean)


def is_graph(results: object) -> bool:
    return isinstance(results, ox.QueryTriples)


def rows(results: ox.QuerySolutions) -> tuple[list[str], Iterator[list[Cell | None]]]:
    """Variable names and rows of plain values: (kind, value, lang-or-datatype) per cell."""
    names = [v.value for v in results.variables]

    def it() -> Iterator[list[Cell | None]]:
        for sol in results:
            yield [_cell(sol[n]) for n in names]

    return names, it()


class Cell(NamedTuple):
    """One value of a result row, free of pyoxigraph. kind (str): iri, bnode, literal or
    other. value (str): the IRI, label or lexical form. tag (str | None): a literal's
    language, else its datatype IRI."""

    kind: str
    value: str
    tag: str | None = None


def _cell(t: object) -> Cell | None:
    if t is None:
        return None
    if isinstance(t, ox.NamedNode):
        return Cell("iri", t.value)
    if isinstance(t, ox.BlankNode):
        return Cell("bnode", t.value)
    if isinstance(t, ox.Literal):
        return Cell("literal", t.value, t.language or t.datatype.value)
    return Cell("other", str(t))


def dump(store: ox.Store, fmt: str, graph: str | None = None) -> bytes:
    """Everything (or one named graph) in an RDF format."""
    if fmt not in OX_RDF:
        raise QueryError(f"unknown RDF format {fmt!r} (one of {', '.join(OX_RDF)})")
    kwargs: dict[str, object] = {"format": OX_RDF[fmt]}
    if graph:
        kwargs["from_graph"] = ox.NamedNode(graph)
    elif OX_RDF[fmt] in (ox.RdfFormat.TURTLE, ox.RdfFormat.N_TRIPLES, ox.RdfFormat.RDF_XML):
        kwargs["from_graph"] = ox.DefaultGraph()
    return store.dump(**kwargs) or b""  # type: ignore[arg-type]


def dump_graph_to(store: ox.Store, graph: str, output: Path) -> None:
    """One named graph as N-Triples into a file, written by Oxigraph as it reads the store
    (the graph is never held in memory: ``kg publish`` sends the file as it is read)."""
    store.dump(output, format=ox.RdfFormat.N_TRIPLES, from_graph=ox.NamedNode(graph))


# -- exports (kg export): re-serialize quads in the order given -------------------------------


def reserialize_nquads(nquads: bytes, fmt: str, prefixes: dict[str, str] | None = None) -> bytes:
    """N-Quads text in another RDF format, in the order of its lines (which kg.export sorts
    so that builds diff well). Turtle gets the triples once each, graph names dropped."""
    if fmt not in OX_RDF:
        raise QueryError(f"unknown RDF format {fmt!r} (one of {', '.join(OX_RDF)})")
    f = OX_RDF[fmt]
    quads: Iterable[ox.Quad | ox.Triple] = ox.parse(nquads, format=ox.RdfFormat.N_QUADS)
    if not f.supports_datasets:
        quads = list(dict.fromkeys(q.triple for q in quads))  # type: ignore[union-attr]
    return ox.serialize(quads, format=f, prefixes=prefixes) or b""


# -- serving (kg serve): a protocol dataset, bound IRIs, capped results, dumps to files ------

_WHERE_BLOCK = re.compile(r"\bWHERE\s*\{", re.IGNORECASE)


def query_dataset(
    store: ox.Store,
    sparql: str,
    *,
    base_iri: str | None = None,
    prefixes: dict[str, str] | None = None,
    default_graphs: list[str] | None = None,
    named_graphs: list[str] | None = None,
    union: bool = True,
    bindings: dict[str, str] | None = None,
    values: dict[str, list[str]] | None = None,
    literals: dict[str, str] | None = None,
) -> ox.QuerySolutions | ox.QueryBoolean | ox.QueryTriples:
    """Run SPARQL the way the SPARQL protocol asks.

    ``default_graphs``/``named_graphs`` (IRIs, from the request) replace the query's own
    dataset; without them the default graph is the union of the named graphs, unless
    ``union`` is false (Oxigraph's union flag would override a query's ``FROM``).
    ``bindings`` fix variables to IRIs by substitution (the variable must be projected);
    ``values`` put ``VALUES ?var { <iri> … }`` at the start of the WHERE block, each IRI
    checked by Oxigraph first, so no text can break out of its ``<…>``; ``literals`` fix
    (projected) variables to plain strings the same way, never spliced into the text.
    """
    kwargs: dict[str, object] = {}
    try:
        if values:
            block = " ".join(
                f"VALUES ?{var} {{ {' '.join(str(ox.NamedNode(i)) for i in iris)} }}"
                for var, iris in values.items()
            )
            sparql, found = _WHERE_BLOCK.subn(lambda m: f"{m.group(0)} {block} ", sparql, 1)
            if not found:
                raise QueryError("VALUES need a query with a WHERE { … } block")
        if default_graphs is not None or named_graphs is not None:
            kwargs["default_graph"] = [ox.NamedNode(g) for g in default_graphs or []]
            kwargs["named_graphs"] = [ox.NamedNode(g) for g in named_graphs or []]
        else:
            kwargs["use_default_graph_as_union"] = union
        if bindings or literals:
            kwargs["substitutions"] = {
                **{ox.Variable(k): ox.NamedNode(v) for k, v in (bindings or {}).items()},
                **{ox.Variable(k): ox.Literal(v) for k, v in (literals or {}).items()},
            }
    except ValueError as e:
        raise QueryError(f"not an IRI: {_one_line(str(e))}") from None
    try:
        return store.query(
            sparql,
            base_iri=base_iri,
            prefixes={**PREFIXES, **data_prefixes(store_base(store)), **(prefixes or {})},
            **kwargs,  # type: ignore[arg-type]
        )
    except SyntaxError as e:
        raise QuerySyntaxError(f"SPARQL syntax error: {_one_line(str(e))}") from None
    except (OSError, ValueError) as e:
        raise QueryFailed(f"query failed: {_one_line(str(e))}") from None


def serialize_capped(
    results: object, fmt: str, cap: int | None, prefixes: dict[str, str] | None = None
) -> tuple[bytes, bool]:
    """Results in ``fmt`` with at most ``cap`` solutions or triples; True when some were cut.

    Everything is evaluated here, before a byte is sent, so a failure is an error, never a
    truncated answer. Oxigraph cannot serialize part of its solutions, so SELECT rows are
    written as TSV (terms in N-Triples syntax, lossless) and re-read into the target format.
    """
    try:
        if isinstance(results, ox.QueryBoolean):
            if fmt not in OX_RESULTS:
                raise QueryError("ASK results need a SPARQL results format")
            return results.serialize(format=OX_RESULTS[fmt]) or b"", False
        if isinstance(results, ox.QueryTriples):
            if fmt not in OX_RDF:
                raise QueryError("CONSTRUCT/DESCRIBE results need an RDF format")
            triples = list(itertools.islice(results, cap + 1) if cap is not None else results)
            cut = cap is not None and len(triples) > cap
            body = ox.serialize(triples[:cap], format=OX_RDF[fmt], prefixes=prefixes)
            return body or b"", cut
        if fmt not in OX_RESULTS:
            raise QueryError("SELECT results need a SPARQL results format")
        return _capped_solutions(results, fmt, cap)  # type: ignore[arg-type]
    except (OSError, ValueError) as e:
        raise QueryFailed(f"query failed: {_one_line(str(e))}") from None


class _Enough(Exception):
    """Raised by _CountingWriter to stop Oxigraph's serializer past the cap."""


class _CountingWriter:
    """A binary sink for Oxigraph's TSV serializer that stops it once ``cap`` rows (lines
    after the header) have been written: the rows past the cap are never evaluated."""

    def __init__(self, cap: int | None) -> None:
        self.cap = cap
        self.chunks: list[bytes] = []
        self.lines = 0

    def write(self, data: bytes) -> int:
        self.chunks.append(bytes(data))
        self.lines += data.count(b"\n")
        if self.cap is not None and self.lines > self.cap + 1:
            raise _Enough
        return len(data)

    def flush(self) -> None:
        pass


def _capped_solutions(results: ox.QuerySolutions, fmt: str, cap: int | None) -> tuple[bytes, bool]:
    """Oxigraph writes the rows as TSV (one line per solution, terms in N-Triples syntax,
    lossless) into a sink that counts them; the text cut at the cap is re-read into the
    target format, in Rust all through (no Python object per term)."""
    out = _CountingWriter(cap)
    try:
        results.serialize(out, format=ox.QueryResultsFormat.TSV)  # type: ignore[arg-type]
    except (_Enough, OSError) as e:  # pyoxigraph hands the sink's exception on as OSError
        if out.cap is None or out.lines <= out.cap + 1:
            raise QueryFailed(f"query failed: {_one_line(str(e))}") from None
    tsv = b"".join(out.chunks)
    cut = cap is not None and out.lines > cap + 1
    if cut:
        tsv = b"\n".join(tsv.split(b"\n", cap + 1)[: cap + 1]) + b"\n"
    if fmt == "tsv" and not cut:
        return tsv, False
    parsed = ox.parse_query_results(tsv, format=ox.QueryResultsFormat.TSV)
    return parsed.serialize(format=OX_RESULTS[fmt]) or b"", cut  # type: ignore[union-attr]


def dump_to(
    store: ox.Store, output: object, fmt: str, prefixes: dict[str, str] | None = None
) -> None:
    """The whole store into ``output`` (a path or binary file): quads for dataset formats,
    the union of the named graphs as triples for the others (Turtle, N-Triples, RDF/XML)."""
    if fmt not in OX_RDF:
        raise QueryError(f"unknown RDF format {fmt!r} (one of {', '.join(OX_RDF)})")
    f = OX_RDF[fmt]
    if f.supports_datasets:  # N-Quads, TriG, JSON-LD (named graphs as @graph objects)
        store.dump(output, format=f, prefixes=prefixes)  # type: ignore[arg-type]
        return
    triples = store.query("CONSTRUCT WHERE { ?s ?p ?o }", use_default_graph_as_union=True)
    ox.serialize(triples, output, format=f, prefixes=prefixes)  # type: ignore[arg-type]
