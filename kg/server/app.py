"""``create_app(config)``: the routes and middleware of ``kg serve``, nothing else."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kg.server import dumps, editor, pages, search, sparql
from kg.server.config import ServeConfig
from kg.server.context import ServerContext
from kg.server.csp import CSP
from kg.server.i18n import RememberLanguage
from kg.server.limits import RequestLimits

STATIC = Path(__file__).parent / "static"

SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'"


class SecurityHeaders:
    """nosniff everywhere; a strict Content-Security-Policy on HTML (a page may bring a
    stricter-or-equal one of its own: csp.with_inline_styles)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"x-content-type-options", b"nosniff"))
                ctype = dict(headers).get(b"content-type", b"")
                if ctype.startswith(b"text/html"):
                    if b"content-security-policy" not in dict(headers):
                        headers.append((b"content-security-policy", CSP.encode()))
                    headers.append((b"referrer-policy", b"same-origin"))
                elif ctype.startswith(b"image/svg+xml"):  # a drawing: nothing runs or loads
                    headers.append((b"content-security-policy", SVG_CSP.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


def create_app(config: ServeConfig) -> Starlette:
    ctx = ServerContext(config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await ctx.pool.start()
        logging.getLogger("uvicorn.error").info(
            "serving %s with %d query workers (timeout %g s, at most %d rows; network "
            "isolation of workers: %s)",
            config.store,
            ctx.pool.size,
            config.timeout,
            config.limit,
            "on" if ctx.pool.isolated else "not available here",
        )
        try:
            yield
        finally:
            await ctx.pool.close()

    # HEAD comes with GET; PUT, DELETE, PATCH get 405 with the Allow header from sparql.py
    protocol = ["GET", "POST", "OPTIONS", "PUT", "DELETE", "PATCH"]
    routes = [
        Route("/", pages.home, name="home"),
        Route("/editor", editor.editor, name="editor"),
        Route("/editor/terms.json", editor.terms, name="editor_terms"),
        Route("/sparql", sparql.endpoint, methods=protocol, name="sparql"),
        Route("/sparql/", sparql.endpoint, methods=protocol),
        Route("/id/{path:path}", pages.resource, name="resource"),
        Route("/id", pages.resource),
        Route("/search", search.search, name="search"),
        Route("/ontology", pages.ontology, name="ontology"),
        Route("/ontology.{ext}", pages.ontology),
        Route("/.well-known/void", pages.void, name="void"),
        Route("/download/{name}", dumps.download, name="download"),
        Route("/graph-store", pages.graph_store, name="graph_store"),
        Route("/plan/{path:path}", pages.plan, name="plan"),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/{name}", pages.docs_file),  # last: only the files of `kg docs`
    ]
    middleware = [
        Middleware(SecurityHeaders),
        Middleware(RememberLanguage),
        Middleware(
            CORSMiddleware,
            allow_origins=["*"],
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=["Accept", "Content-Type", "Authorization"],
            expose_headers=["X-SPARQL-MaxRows", "Content-Location", "Link"],
            max_age=86400,
        ),
        Middleware(RequestLimits, config=config),
    ]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.kg = ctx
    app.state.dumps = dumps.DumpCache(Path(config.store), config.dumps)
    return app
