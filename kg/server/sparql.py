"""The SPARQL 1.1 Protocol: request → query → results in the format the client accepts.

``read_request`` turns an HTTP request into a query, a dataset and the formats the client
accepts; ``jobs.execute`` runs it on a worker (guarded, capped, fully serialized before
anything is sent, so a failure is an error status, never a truncated 200).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from kg.queries import with_defaults
from kg.server.errors import HttpError
from kg.server.formats import (
    CONTENT_TYPES,
    GRAPH_NAMES,
    GRAPH_TYPES,
    RESULT_NAMES,
    RESULT_TYPES,
    negotiate,
)
from kg.server.guard import UPDATE_REFUSED
from kg.server.void import service_description as describe_service

FORM = "application/x-www-form-urlencoded"
QUERY = "application/sparql-query"
UPDATE = "application/sparql-update"


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


ALLOW = "GET, HEAD, POST, OPTIONS"  # what the endpoint answers; 405 for the rest


async def endpoint(request: Request) -> Response:
    ctx = request.app.state.kg
    if request.method == "OPTIONS":  # not a CORS preflight (the middleware answers those)
        return Response(status_code=204, headers={"Allow": ALLOW})
    try:
        req = await read_request(request)
    except HttpError as e:
        allow = {"Allow": ALLOW} if e.status == 405 else None
        return error_response(e.status, e.message, allow)
    if req.query is None:
        if request.method == "POST":
            return error_response(400, "no query: send query=… or a sparql-query body")
        return await service_description(request)
    if request.method in ("GET", "HEAD") and _wants_page(request):
        # a shared link opened in a browser: the editor with the query, run there
        editor = request.url_for("editor").path  # relative: the Host header is the client's
        return RedirectResponse(f"{editor}?{urlencode({'query': req.query})}", 303)
    cap = ctx.config.limit
    try:
        out = await ctx.run(
            "sparql",
            {
                "query": with_defaults(req.query),
                "default_graphs": req.default_graphs,
                "named_graphs": req.named_graphs,
                "result_format": req.result_format,
                "graph_format": req.graph_format,
                "base_iri": _endpoint_iri(request),
                "cap": cap,
            },
            request=request,
        )
    except HttpError as e:
        return error_response(e.status, e.message)
    headers = {"Vary": "Accept"}
    if out["truncated"]:
        headers["X-SPARQL-MaxRows"] = str(cap)
    return Response(out["body"], headers=headers, media_type=CONTENT_TYPES[out["format"]])


_IRIS: dict[tuple, str] = {}  # the endpoint's IRI per (scheme, Host, root path) seen


def _endpoint_iri(request: Request) -> str:
    """The endpoint's own IRI (the base of a query's relative IRIs) as the client named it;
    building it through url_for costs more than a light query's hand-over to a worker."""
    scope = request.scope
    key = (
        scope.get("scheme"),
        request.headers.get("host"),
        scope.get("root_path"),
        scope.get("server"),
    )
    iri = _IRIS.get(key)
    if iri is None:
        if len(_IRIS) >= 64:  # the Host header is the client's to vary: stay small
            _IRIS.clear()
        iri = _IRIS[key] = str(request.url_for("sparql"))
    return iri


def _wants_page(request: Request) -> bool:
    """A browser's navigation: HTML preferred to every results format, no ``format=``."""
    if "format" in request.query_params:
        return False
    offers = {**RESULT_TYPES, **GRAPH_TYPES, "text/html": "html"}
    return negotiate(request.headers.get("accept"), offers) == "text/html"


async def service_description(request: Request) -> Response:
    """GET /sparql without a query: a browser goes to the query editor, a client gets the
    SPARQL service description."""
    accept = request.headers.get("accept")
    mime = negotiate(accept, {"text/html": "html", **GRAPH_TYPES})
    if mime == "text/html":
        # relative: the Host header is the client's to forge
        return RedirectResponse(request.url_for("editor").path, 303)
    if mime is None:
        return error_response(406, "the service description is RDF (Turtle, JSON-LD, …)")
    stats = await request.app.state.kg.stats()
    body = describe_service(request, stats, GRAPH_TYPES[mime])
    return Response(body, media_type=CONTENT_TYPES[GRAPH_TYPES[mime]], headers={"Vary": "Accept"})


async def read_request(request: Request) -> ProtocolRequest:
    """Query, dataset and acceptable formats of a protocol request (HttpError if bad)."""
    if request.method not in ("GET", "HEAD", "POST"):
        raise HttpError(405, f"{request.method} is not a SPARQL protocol operation")
    params: dict[str, list[str]] = {}
    for k, v in _form(request.scope.get("query_string", b""), "the query string"):
        params.setdefault(k, []).append(v)
    queries = params.get("query", [])
    if request.method == "POST":
        mime, charset = _content_type(request.headers.get("content-type"))
        if charset and charset not in ("utf-8", "utf8"):
            raise HttpError(415, f"the body must be UTF-8, not {charset}")
        if mime == UPDATE:
            raise HttpError(403, UPDATE_REFUSED)
        raw = await request.body()
        body = _utf8(raw)
        if mime == FORM:
            for k, v in _form(raw, "the form"):
                params.setdefault(k, []).append(v)
            queries = params.get("query", [])
        elif mime == QUERY:
            queries = [*queries, body]
        else:
            raise HttpError(
                415, f"POST a query as {FORM} or {QUERY} (got {mime or 'no Content-Type'})"
            )
    if "update" in params:
        raise HttpError(403, UPDATE_REFUSED)
    if len(queries) > 1:
        raise HttpError(400, "more than one query in the request")
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


def _form(raw: bytes, what: str) -> list[tuple[str, str]]:
    """``k=v&…`` pairs, refused (400) where a byte or a %-escape is not UTF-8: a query read
    with replacement characters is not the query that was sent."""
    try:
        return parse_qsl(raw.decode("utf-8"), keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        raise HttpError(400, f"{what} is not valid UTF-8") from None


def _utf8(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise HttpError(400, "the body is not valid UTF-8") from None


def _formats(request: Request, params: dict[str, list[str]]) -> tuple[str | None, str | None]:
    """Formats for tabular/boolean and for graph results, from ``format`` or ``Accept``."""
    wanted = (params.get("format") or [""])[-1].strip()
    if wanted:
        if "/" in wanted:
            rf, gf = RESULT_TYPES.get(wanted.lower()), GRAPH_TYPES.get(wanted.lower())
        else:
            rf, gf = RESULT_NAMES.get(wanted.lower()), GRAPH_NAMES.get(wanted.lower())
        if rf is None and gf is None:
            raise HttpError(406, f"unknown format {wanted!r}")
        return rf, gf
    accept = request.headers.get("accept")
    rm, gm = negotiate(accept, RESULT_TYPES), negotiate(accept, GRAPH_TYPES)
    return (RESULT_TYPES[rm] if rm else None), (GRAPH_TYPES[gm] if gm else None)
