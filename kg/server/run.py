"""Running the app: under uvicorn, or for one request in-process (``kg serve --get``)."""

from __future__ import annotations

import asyncio

import httpx
import uvicorn

from kg.server.app import create_app
from kg.server.config import ServeConfig
from kg.server.limits import protocol


def run_server(config: ServeConfig, host: str, port: int, log_level: str = "info") -> None:
    uvicorn.run(
        create_app(config),
        host=host,
        port=port,
        log_level=log_level,
        # not uvloop even where installed: it makes the workers' pipes non-blocking, and a
        # large answer then fails half-read in the pool (pool.py reads them when readable)
        loop="asyncio",
        http=protocol(config),  # httptools (or h11) with a header deadline and caps: limits.py
        # room for a GET query string up to the request limit (the app answers 414 above it)
        h11_max_incomplete_event_size=config.max_request + (64 << 10),
        timeout_keep_alive=5,  # an idle connection between requests
        timeout_graceful_shutdown=5,
    )


def get_once(config: ServeConfig, path: str) -> tuple[int, str]:
    """Answer one GET in-process (the app's startup and shutdown included): (status, text)."""

    async def get() -> tuple[int, str]:
        app = create_app(config)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://kg") as client:
                r = await client.get(path)
                return r.status_code, r.text

    return asyncio.run(get())
