"""The SPARQL 1.1 Protocol: request → query → results in the format the client accepts.

``read_request`` turns an HTTP request into a query, a dataset and the formats the client
accepts (server side); ``execute`` runs it on a worker (guarded, capped, fully serialized
before anything is sent, so a failure is an error status, never a truncated 200).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from kg.errors import QueryError
from kg.server.formats import (
    CONTENT_TYPES,
    GRAPH_NAMES,
    GRAPH_TYPES,
    RESULT_NAMES,
    RESULT_TYPES,
    negotiate,
)
from kg.server.guard import inspect_query
from kg.server.pool import PoolError
from kg.server.worker import JobError

UPDATE_REFUSED = "SPARQL Update is not accepted: this endpoint is read-only"
SERVICE_REFUSED = "SERVICE is not allowed: this endpoint makes no requests to other hosts"
FORM = "application/x-www-form-urlencoded"
QUERY = "application/sparql-query"
UPDATE = "application/sparql-update"


class ProtocolError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class ProtocolRequest:
    query: str | None
    default_graphs: list[str] | None
    named_graphs: list[str] | None
    result_format: str | None  # for SELECT / ASK
    graph_format: str | None  # for CONSTRUCT / DESCRIBE


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    return Response(message + "\n", status, headers=headers, media_type="text/plain; charset=utf-8")


# -- server side ------------------------------------------------------------------------------


async def endpoint(request: Request) -> Response:
    ctx = request.app.state.kg
    try:
        req = await read_request(request)
    except ProtocolError as e:
        allow = {"Allow": "GET, POST, OPTIONS"} if e.status == 405 else None
        return error_response(e.status, e.message, allow)
    if req.query is None:
        if request.method == "POST":
            return error_response(400, "no query: send query=… or a sparql-query body")
        return await service_description(request)
    cap = ctx.config.limit
    try:
        out = await ctx.run(
            "sparql",
            {
                "query": req.query,
                "default_graphs": req.default_graphs,
                "named_graphs": req.named_graphs,
                "result_format": req.result_format,
                "graph_format": req.graph_format,
                "base_iri": str(request.url_for("sparql")),
                "cap": cap,
            },
            request=request,
        )
    except PoolError as e:
        return error_response(e.status, e.message)
    headers = {"Vary": "Accept"}
    if out["truncated"]:
        headers["X-SPARQL-MaxRows"] = str(cap)
    return Response(out["body"], headers=headers, media_type=CONTENT_TYPES[out["format"]])


async def service_description(request: Request) -> Response:
    """GET /sparql without a query: a browser goes to the query editor, a client gets the
    SPARQL service description."""
    from kg.server.void import service_description as describe_service

    accept = request.headers.get("accept")
    mime = negotiate(accept, {"text/html": "html", **GRAPH_TYPES})
    if mime == "text/html":
        return RedirectResponse(str(request.url_for("home")) + "#editor", 303)
    if mime is None:
        return error_response(406, "the service description is RDF (Turtle, JSON-LD, …)")
    stats = await request.app.state.kg.stats()
    body = describe_service(request, stats, GRAPH_TYPES[mime])
    return Response(body, media_type=CONTENT_TYPES[GRAPH_TYPES[mime]], headers={"Vary": "Accept"})


async def read_request(request: Request) -> ProtocolRequest:
    """Query, dataset and acceptable formats of a protocol request (ProtocolError if bad)."""
    if request.method not in ("GET", "POST"):
        raise ProtocolError(405, f"{request.method} is not a SPARQL protocol operation")
    params: dict[str, list[str]] = {}
    for k, v in request.query_params.multi_items():
        params.setdefault(k, []).append(v)
    queries = params.get("query", [])
    if request.method == "POST":
        mime, charset = _content_type(request.headers.get("content-type"))
        if charset and charset not in ("utf-8", "utf8"):
            raise ProtocolError(415, f"the body must be UTF-8, not {charset}")
        if mime == UPDATE:
            raise ProtocolError(403, UPDATE_REFUSED)
        body = _utf8(await request.body())
        if mime == FORM:
            for k, v in parse_qs(body, keep_blank_values=True).items():
                params.setdefault(k, []).extend(v)
            queries = params.get("query", [])
        elif mime == QUERY:
            queries = [*queries, body]
        else:
            raise ProtocolError(
                415, f"POST a query as {FORM} or {QUERY} (got {mime or 'no Content-Type'})"
            )
    if "update" in params:
        raise ProtocolError(403, UPDATE_REFUSED)
    if len(queries) > 1:
        raise ProtocolError(400, "more than one query in the request")
    has_dataset = "default-graph-uri" in params or "named-graph-uri" in params
    result_format, graph_format = _formats(request, params)
    return ProtocolRequest(
        query=queries[0] if queries else None,
        default_graphs=params.get("default-graph-uri", []) if has_dataset else None,
        named_graphs=params.get("named-graph-uri", []) if has_dataset else None,
        result_format=result_format,
        graph_format=graph_format,
    )


def _content_type(value: str | None) -> tuple[str, str | None]:
    if not value:
        return "", None
    mime, *rest = (p.strip() for p in value.split(";"))
    charset = None
    for p in rest:
        k, _, v = p.partition("=")
        if k.strip().lower() == "charset":
            charset = v.strip().strip('"').lower()
    return mime.lower(), charset


def _utf8(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError(400, "the body is not valid UTF-8") from None


def _formats(request: Request, params: dict[str, list[str]]) -> tuple[str | None, str | None]:
    """Formats for tabular/boolean and for graph results, from ``format`` or ``Accept``."""
    wanted = (params.get("format") or [""])[-1].strip()
    if wanted:
        if "/" in wanted:
            rf, gf = RESULT_TYPES.get(wanted.lower()), GRAPH_TYPES.get(wanted.lower())
        else:
            rf, gf = RESULT_NAMES.get(wanted.lower()), GRAPH_NAMES.get(wanted.lower())
        if rf is None and gf is None:
            raise ProtocolError(406, f"unknown format {wanted!r}")
        return rf, gf
    accept = request.headers.get("accept")
    rm, gm = negotiate(accept, RESULT_TYPES), negotiate(accept, GRAPH_TYPES)
    return (RESULT_TYPES[rm] if rm else None), (GRAPH_TYPES[gm] if gm else None)


# -- worker side ------------------------------------------------------------------------------


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
    """Run a protocol query on the store; JobError carries the HTTP status of a failure."""
    from kg.store import (
        PREFIXES,
        data_prefixes,
        is_graph,
        query_dataset,
        serialize_capped,
        store_base,
    )

    seen = inspect_query(query)
    if seen.update:
        raise JobError(403, UPDATE_REFUSED)
    if seen.service:
        raise JobError(400, SERVICE_REFUSED)
    if seen.unreadable:
        raise JobError(400, f"syntax error: {seen.unreadable}")
    try:
        results = query_dataset(
            db,
            query,
            base_iri=base_iri,
            default_graphs=default_graphs,
            named_graphs=named_graphs,
            union=not seen.dataset,
        )
    except QueryError as e:
        # a syntax error or a bad graph IRI is the client's; a failed read is ours
        raise JobError(500 if str(e).startswith("query failed") else 400, str(e)) from None
    graph = is_graph(results)
    fmt = graph_format if graph else result_format
    if fmt is None:
        kinds = ", ".join(GRAPH_TYPES if graph else RESULT_TYPES)
        raise JobError(406, f"{'graph' if graph else 'these'} results can be sent as: {kinds}")
    prefixes = {**PREFIXES, **data_prefixes(store_base(db))} if graph else None
    try:
        body, cut = serialize_capped(results, fmt, cap, prefixes)
    except QueryError as e:
        raise JobError(500, str(e)) from None
    return {"format": fmt, "body": body, "truncated": cut}
