"""The jobs a worker runs on its store: a SPARQL query, a linked-data page, a resource's RDF,
the store's statistics, a named graph, a full dump. ``JOBS`` names them for the pool.

Each takes the open store first and raises HttpError with the status the client should get.
"""

from __future__ import annotations

import contextlib
import gzip
import os
from collections.abc import Callable
from typing import Any

from kg.errors import KgError, QueryError
from kg.export.plan_scene import playable, section_scene
from kg.export.plan_svg import render
from kg.rdf.prefixes import PREFIXES, data_prefixes
from kg.server import apparatus, describe, find, views
from kg.server.errors import HttpError
from kg.server.formats import GRAPH_TYPES, RESULT_TYPES
from kg.server.guard import SERVICE_REFUSED, UPDATE_REFUSED, inspect_query
from kg.store import dump_to, is_graph, query_dataset, serialize_capped, store_base


def execute(
    db: Any,
    *,
    query: str,
    default_graphs: list[str] | None,
    named_graphs: list[str] | None,
    result_format: str | None,
    graph_format: str | None,
    base_iri: str | None,
    cap: int | None,
) -> dict[str, Any]:
    """Run a protocol query on the store; HttpError carries the HTTP status of a failure."""
    seen = inspect_query(query)
    if seen.update:
        raise HttpError(403, UPDATE_REFUSED)
    if seen.service:
        raise HttpError(400, SERVICE_REFUSED)
    if seen.unreadable:
        raise HttpError(400, f"syntax error: {seen.unreadable}")
    try:
        results = query_dataset(
            db,
            query,
            base_iri=base_iri,
            default_graphs=default_graphs,
            named_graphs=named_graphs,
            union=not seen.dataset,
        )
    except QueryError as e:  # a syntax error or a bad graph IRI is the client's
        raise HttpError.of(e) from None
    graph = is_graph(results)
    fmt = graph_format if graph else result_format
    if fmt is None:
        kinds = ", ".join(GRAPH_TYPES if graph else RESULT_TYPES)
        raise HttpError(406, f"{'graph' if graph else 'these'} results can be sent as: {kinds}")
    prefixes = {**PREFIXES, **data_prefixes(store_base(db))} if graph else None
    try:
        body, cut = serialize_capped(results, fmt, cap, prefixes)
    except QueryError as e:  # the query ran: a failure to write its results is ours
        raise HttpError(500, str(e)) from None
    return {"format": fmt, "body": body, "truncated": cut}


def write_dump(db: Any, fmt: str, path: str, compress: bool) -> int:
    """(worker) Write one dump atomically; its size in bytes."""
    prefixes = None if fmt == "nquads" else {**PREFIXES, **data_prefixes(store_base(db))}
    tmp = f"{path}.{os.getpid()}.part"
    try:
        with gzip.open(tmp, "wb", compresslevel=6) if compress else open(tmp, "wb") as out:
            dump_to(db, out, fmt, prefixes)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    return os.path.getsize(path)


def plan_svg(db: Any, iri: str, step: int | None) -> bytes | None:
    """(worker) The section drawn on the plan after act ``step``; None if not a section."""
    try:
        scene = section_scene(db, iri)
    except KgError:
        return None
    try:
        return render(scene, step).encode("utf-8")
    except ValueError as e:
        raise HttpError(404, str(e)) from None


def plan_sections(db: Any, iri: str) -> list[dict[str, Any]]:
    """(worker) The sections a page for ``iri`` can play on the plan."""
    return [{"iri": p.iri, "label": p.label, "steps": p.steps} for p in playable(db, iri)]


JOBS: dict[str, Callable[..., Any]] = {
    "sparql": execute,
    "page": describe.page,
    "view": views.view,
    "apparatus": apparatus.apparatus,
    "rdf": describe.rdf,
    "stats": describe.stats,
    "graph": describe.graph,
    "search": find.search,
    "dump": write_dump,
    "plan": plan_svg,
    "plan_sections": plan_sections,
}
